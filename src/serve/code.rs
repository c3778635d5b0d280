//! The class code: with it, a learner who is not on the roster logs in once, and that first
//! login picks their name and pins their key in the roster. The instructor makes it with
//! `serve --class DIR --print-code`; it is kept in `DIR/class-code` (mode 0600), read again at
//! each use (so servers sharing the folder agree), and deleting the file stops new learners.
//! The code never goes to the server's log.

use std::path::Path;

use crate::content::Msg;

pub const FILE: &str = "class-code";
const CAP: u64 = 1 << 10;
/// No 0/O, 1/I/L: read aloud or off a projector without doubt.
const ALPHABET: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";

/// The letters and digits that count, upper case: `k7mx-3qpr` is `K7MX3QPR`.
fn normalize(text: &str) -> String {
    text.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_uppercase())
        .take(64)
        .collect()
}

/// The class's code, if one is set.
pub fn load(class: &Path) -> Option<String> {
    let bytes = crate::hostfs::read_named(&class.join(FILE), CAP).ok()?;
    let code = normalize(&String::from_utf8_lossy(&bytes));
    (code.len() >= 6).then_some(code)
}

/// Whether `answer` is the code (in time independent of where they differ).
pub fn matches(code: &str, answer: &str) -> bool {
    let answer = normalize(answer);
    answer.len() == code.len()
        && answer
            .bytes()
            .zip(code.bytes())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0
}

/// The code as it is shown: `K7MX-3QPR`.
pub fn shown(code: &str) -> String {
    let mut out = String::new();
    for (i, c) in code.chars().enumerate() {
        if i > 0 && i % 4 == 0 {
            out.push('-');
        }
        out.push(c);
    }
    out
}

/// The class's code, made now if there is none.
pub fn load_or_make(class: &Path) -> Result<String, Msg> {
    let read = |_: &Path| load(class).ok_or_else(|| "not a class code".to_string());
    super::secret::load_or_make(class, FILE, "serve-code-bad", read, make)
}

/// A new code (8 of 31 symbols, about 39 bits), written to `path`.
fn make(path: &Path) -> Result<String, String> {
    let mut random = [0u8; 8];
    getrandom::fill(&mut random).map_err(|e| e.to_string())?;
    let code: String = random
        .iter()
        .map(|&b| ALPHABET[usize::from(b) % ALPHABET.len()] as char)
        .collect();
    let text = format!("{}\n", shown(&code));
    // Published whole, never overwritten: of two servers making it at once, the one that
    // loses reads the winner's.
    match crate::unix::files::write_private_new(path, text.as_bytes()) {
        Ok(()) => Ok(code),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => path
            .parent()
            .and_then(load)
            .ok_or_else(|| "not a class code".to_string()),
        Err(e) => Err(e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn made_once_private_and_typed_loosely() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(load(dir.path()), None);
        let code = load_or_make(dir.path()).unwrap();
        assert_eq!(code.len(), 8);
        assert!(code.bytes().all(|b| ALPHABET.contains(&b)));
        assert_eq!(load_or_make(dir.path()).unwrap(), code);
        let mode = std::fs::metadata(dir.path().join(FILE))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
        assert!(matches(&code, &shown(&code).to_lowercase()));
        assert!(matches(&code, &format!(" {code}\n")));
        assert!(!matches(&code, &code[..7]));
        assert!(!matches(&code, ""));
        let mut other = code.clone().into_bytes();
        other[3] = if other[3] == b'A' { b'B' } else { b'A' };
        assert!(!matches(&code, &String::from_utf8(other).unwrap()));
    }

    #[test]
    fn servers_making_the_code_at_once_all_get_the_one_kept() {
        for _ in 0..50 {
            let dir = tempfile::tempdir().unwrap();
            let codes: Vec<String> = std::thread::scope(|s| {
                let runs: Vec<_> = (0..4)
                    .map(|_| s.spawn(|| load_or_make(dir.path()).unwrap()))
                    .collect();
                runs.into_iter().map(|r| r.join().unwrap()).collect()
            });
            let kept = load(dir.path()).unwrap();
            assert!(codes.iter().all(|c| *c == kept), "{codes:?} {kept}");
        }
    }
}
