//! The prompt record: after every command the lab shell's prompt hook sends one record on the
//! login's socket to the supervisor. It is the shell's own report of its exit status, folder and
//! PATH, which a learner could also send by hand (no more than setting that PATH would do); its
//! session and uid are not trusted: the supervisor fills them in from the sending process.
//!
//! Format: fields separated by U+001F, the record ended by U+001E:
//! `v2 ␟ seq ␟ histno ␟ status ␟ pipestatus ␟ session ␟ uid ␟ cwd ␟ PATH ␟ command ␟ env ␞`
//! where `env` (a shell's first record only, else empty) is the exported variables, each
//! `NAME=value` ended by U+001D, the value with `\\`, `\g`, `\r` and `\u` standing for a
//! backslash and the three separators.

/// Field and record separators (ASCII unit and record separators).
pub const FS: char = '\u{1f}';
pub const RS: char = '\u{1e}';

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Record {
    /// Counts prompts in this shell; a new shell starts again at 1.
    pub seq: u64,
    /// The history number of the last command: unchanged after a bare Enter.
    pub histno: u64,
    pub status: i32,
    pub pipestatus: Vec<i32>,
    /// The simulated login session the shell belongs to.
    pub session: String,
    pub uid: u32,
    pub cwd: String,
    pub path: String,
    /// The command line as history recorded it; for the transcript only, never for grading.
    pub command: String,
    /// The shell's exported variables, in its first record. Kept in the sandbox: never sent
    /// to the app.
    #[serde(skip)]
    pub env: Option<Vec<(String, String)>>,
}

/// Separates the variables of the `env` field.
pub const GS: char = '\u{1d}';

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RecordError {
    Version,
    Fields(usize),
    Number(&'static str),
}

impl Record {
    /// Parses one record (without the trailing separator).
    pub fn parse(s: &str) -> Result<Record, RecordError> {
        let f: Vec<&str> = s.split(FS).collect();
        if f.first() != Some(&"v2") {
            return Err(RecordError::Version);
        }
        if f.len() != 11 {
            return Err(RecordError::Fields(f.len()));
        }
        let num = |i: usize, name: &'static str| {
            f[i].trim()
                .parse::<u64>()
                .map_err(|_| RecordError::Number(name))
        };
        Ok(Record {
            seq: num(1, "seq")?,
            histno: num(2, "histno")?,
            status: f[3]
                .trim()
                .parse()
                .map_err(|_| RecordError::Number("status"))?,
            pipestatus: f[4]
                .split_whitespace()
                .map(|p| p.parse().map_err(|_| RecordError::Number("pipestatus")))
                .collect::<Result<_, _>>()?,
            session: f[5].to_string(),
            uid: f[6]
                .trim()
                .parse()
                .map_err(|_| RecordError::Number("uid"))?,
            cwd: f[7].to_string(),
            path: f[8].to_string(),
            command: f[9].to_string(),
            env: (!f[10].is_empty()).then(|| decode_env(f[10])),
        })
    }

    /// The directories of PATH, in order (empty entries mean the current directory to bash).
    pub fn path_dirs(&self) -> Vec<&str> {
        self.path.split(':').collect()
    }
}

/// The variables of an `env` field; an entry without `=` is passed over.
fn decode_env(field: &str) -> Vec<(String, String)> {
    field
        .split(GS)
        .filter_map(|kv| kv.split_once('='))
        .map(|(k, v)| (k.to_string(), unescape(v)))
        .collect()
}

fn unescape(v: &str) -> String {
    let mut out = String::with_capacity(v.len());
    let mut chars = v.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('g') => out.push(GS),
            Some('r') => out.push(RS),
            Some('u') => out.push(FS),
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

/// Splits a byte stream into records; keeps a partial record until the rest arrives.
#[derive(Debug, Default)]
pub struct Splitter {
    buf: Vec<u8>,
}

impl Splitter {
    /// Feeds bytes; returns the complete records in them. Records that do not parse are
    /// skipped (a learner can write to the FIFO too); oversized garbage is dropped.
    pub fn feed(&mut self, bytes: &[u8]) -> Vec<Record> {
        self.buf.extend_from_slice(bytes);
        let mut out = Vec::new();
        while let Some(end) = self.buf.iter().position(|b| *b == RS as u8) {
            let rec: Vec<u8> = self.buf.drain(..=end).collect();
            let text = String::from_utf8_lossy(&rec[..rec.len() - 1]);
            if let Ok(r) = Record::parse(text.trim_start_matches('\n')) {
                out.push(r);
            }
        }
        if self.buf.len() > 1 << 20 {
            self.buf.clear();
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(fields: &[&str]) -> String {
        fields.join(&FS.to_string())
    }

    #[test]
    fn parses_a_record() {
        let r = Record::parse(&rec(&[
            "v2",
            "3",
            "12",
            "1",
            "2 0",
            "s4",
            "1000",
            "/home/learner",
            "/usr/bin:/bin",
            "ls /nope | cat",
            "",
        ]))
        .unwrap();
        assert_eq!(r.seq, 3);
        assert_eq!(r.status, 1);
        assert_eq!(r.pipestatus, vec![2, 0]);
        assert_eq!(r.session, "s4");
        assert_eq!(r.path_dirs(), vec!["/usr/bin", "/bin"]);
        assert_eq!(r.command, "ls /nope | cat");
        assert_eq!(r.env, None);
    }

    #[test]
    fn a_first_record_carries_the_exported_variables_which_never_leave_the_sandbox() {
        let env = "PATH=/usr/bin:/opt/rocm/bin\u{1d}ODD=a\\\\b\\gPATH=/x\u{1d}";
        let r = Record::parse(&rec(&[
            "v2", "1", "1", "0", "0", "", "1000", "/", "/bin", "", env,
        ]))
        .unwrap();
        let env = r.env.clone().unwrap();
        assert_eq!(env[0], ("PATH".into(), "/usr/bin:/opt/rocm/bin".into()));
        // A value cannot forge a second variable: its separators come back as text.
        assert_eq!(env[1], ("ODD".into(), "a\\b\u{1d}PATH=/x".into()));
        assert_eq!(env.len(), 2);
        assert!(!serde_json::to_string(&r).unwrap().contains("ODD"));
    }

    #[test]
    fn rejects_what_is_not_a_record() {
        assert_eq!(Record::parse("hello"), Err(RecordError::Version));
        assert_eq!(
            Record::parse(&rec(&["v2", "1"])),
            Err(RecordError::Fields(2))
        );
        assert_eq!(
            Record::parse(&rec(&[
                "v2", "x", "1", "0", "0", "s", "0", "/", "/bin", "", ""
            ])),
            Err(RecordError::Number("seq"))
        );
    }

    #[test]
    fn splits_a_stream_at_record_ends_across_reads() {
        let one = rec(&[
            "v2", "1", "1", "0", "0", "s1", "1000", "/", "/bin", "true", "",
        ]);
        let two = rec(&[
            "v2", "2", "2", "0", "0", "s1", "1000", "/", "/bin", "false", "",
        ]);
        let stream = format!("{one}{RS}garbage{RS}{two}{RS}");
        let mut s = Splitter::default();
        let (a, b) = stream.as_bytes().split_at(7);
        let mut got = s.feed(a);
        got.extend(s.feed(b));
        assert_eq!(got.len(), 2);
        assert_eq!(got[1].command, "false");
    }
}
