//! Debian's alternatives system as files in the machine: the administrative file of each link
//! group in /var/lib/dpkg/alternatives, the link /etc/alternatives/NAME -> chosen path, and the
//! master link (`/opt/rocm`) -> /etc/alternatives/NAME. The logic follows dpkg's
//! `utils/update-alternatives.c` step by step (which link is written first decides which error a
//! normal user sees), so `update-alternatives` and a package's postinst share it.

use std::path::Path;

use super::fsx;

/// Where the alternatives' links live.
pub const ALTDIR: &str = "/etc/alternatives";
/// update-alternatives' administrative folder.
pub const ADMINDIR: &str = "/var/lib/dpkg/alternatives";
/// update-alternatives' log.
pub const LOG: &str = "/var/log/alternatives.log";
const TMP: &str = ".dpkg-tmp";

/// How a group picks its choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// The highest priority wins.
    Auto,
    /// The admin's choice stays.
    Manual,
}

impl Status {
    /// As the administrative file and `--query` spell it.
    pub fn word(self) -> &'static str {
        match self {
            Status::Auto => "auto",
            Status::Manual => "manual",
        }
    }

    /// The words `--display` uses (`auto mode`, `manual mode`).
    pub fn describe(self) -> &'static str {
        match self {
            Status::Auto => "auto mode",
            Status::Manual => "manual mode",
        }
    }
}

/// A link that follows the master (`--slave LINK NAME PATH`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Slave {
    /// Its name.
    pub name: String,
    /// Its link.
    pub link: String,
}

/// One choice: a path with its priority, and its file for each slave ("" when it has none).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    /// The path it provides.
    pub path: String,
    /// Its priority.
    pub priority: i32,
    /// Slave name and its file, per slave of the group.
    pub slaves: Vec<(String, String)>,
}

impl Choice {
    /// This choice's file for a slave, if it has one.
    pub fn slave(&self, name: &str) -> Option<&str> {
        self.slaves
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, f)| f.as_str())
            .filter(|f| !f.is_empty())
    }
}

/// A link group as `alternative_load` reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    /// The group's name (`rocm`).
    pub name: String,
    /// Auto or manual; `None` for a group not yet on disk.
    pub status: Option<Status>,
    /// The master link (`/opt/rocm`).
    pub link: Option<String>,
    /// Its slaves.
    pub slaves: Vec<Slave>,
    /// Its choices.
    pub choices: Vec<Choice>,
    /// Needs saving (a choice, the status or the link changed).
    pub modified: bool,
}

impl Group {
    /// An empty group named `name`.
    pub fn new(name: &str) -> Self {
        Group {
            name: name.into(),
            status: None,
            link: None,
            slaves: Vec::new(),
            choices: Vec::new(),
            modified: false,
        }
    }

    /// The choice that provides `path`.
    pub fn choice(&self, path: &str) -> Option<&Choice> {
        self.choices.iter().find(|c| c.path == path)
    }

    /// The master link (empty when unknown).
    pub fn link(&self) -> &str {
        self.link.as_deref().unwrap_or("")
    }

    /// Auto or manual (auto when unset).
    pub fn status(&self) -> Status {
        self.status.unwrap_or(Status::Auto)
    }

    /// `alternative_get_best`: the current choice unless another has a strictly higher
    /// priority (ties keep the current one, then the first by path).
    pub fn best(&self, current: Option<&str>) -> Option<&Choice> {
        let mut best = current
            .and_then(|c| self.choice(c))
            .or(self.choices.first())?;
        for c in &self.choices {
            if c.priority > best.priority {
                best = c;
            }
        }
        Some(best)
    }

    /// `alternative_set_status`: the log line when a known status changes.
    pub fn set_status(&mut self, s: Status, log: &mut Vec<String>) {
        if self.status != Some(s) {
            self.modified = true;
            if self.status.is_some() {
                log.push(format!(
                    "status of link group {} set to {}",
                    self.link(),
                    s.word()
                ));
            }
        }
        self.status = Some(s);
    }

    /// `alternative_add_choice`: replaces a choice of the same path or adds it.
    pub fn add_choice(&mut self, c: Choice) {
        self.modified = true;
        match self.choices.iter_mut().find(|x| x.path == c.path) {
            Some(x) => *x = c,
            None => self.choices.push(c),
        }
    }

    /// Removes the choice for `path`; false when there was none.
    pub fn remove_choice(&mut self, path: &str) -> bool {
        let before = self.choices.len();
        self.choices.retain(|c| c.path != path);
        let removed = self.choices.len() != before;
        self.modified |= removed;
        removed
    }

    /// The administrative file: status, link, slave name/link pairs, a blank line, then each
    /// choice's path, priority and slave files, and a final blank line; sorted as dpkg sorts.
    pub fn to_admin(&self) -> String {
        let mut slaves = self.slaves.clone();
        slaves.retain(|s| self.choices.iter().any(|c| c.slave(&s.name).is_some()));
        slaves.sort_by(|a, b| a.name.cmp(&b.name));
        let mut choices = self.choices.clone();
        choices.sort_by(|a, b| a.path.cmp(&b.path));
        let mut t = format!("{}\n{}\n", self.status().word(), self.link());
        for s in &slaves {
            t.push_str(&format!("{}\n{}\n", s.name, s.link));
        }
        t.push('\n');
        for c in &choices {
            t.push_str(&format!("{}\n{}\n", c.path, c.priority));
            for s in &slaves {
                t.push_str(c.slave(&s.name).unwrap_or(""));
                t.push('\n');
            }
        }
        t.push('\n');
        t
    }

    /// Parses an administrative file. A choice whose path no longer exists is dropped (with
    /// dpkg's warning in `warnings`), which marks the group modified.
    pub fn parse(
        name: &str,
        text: &str,
        exists: impl Fn(&str) -> bool,
        warnings: &mut Vec<String>,
    ) -> Result<Group, String> {
        let file = format!("{ADMINDIR}/{name}");
        let bad = |m: &str| format!("{file} corrupt: {m}");
        let mut lines = text.split_inclusive('\n');
        let mut next = |what: &str| -> Result<String, String> {
            match lines.next() {
                None => Err(bad(&format!(
                    "unexpected end of file while trying to read {what}"
                ))),
                Some(l) => l.strip_suffix('\n').map(String::from).ok_or_else(|| {
                    bad(&format!("line not terminated while trying to read {what}"))
                }),
            }
        };
        let mut g = Group::new(name);
        g.status = Some(match next("status")?.as_str() {
            "auto" => Status::Auto,
            "manual" => Status::Manual,
            _ => return Err(bad("invalid status")),
        });
        g.link = Some(next("master link")?);
        loop {
            let sname = next("slave name")?;
            if sname.is_empty() {
                break;
            }
            if g.slaves.iter().any(|s| s.name == sname) {
                return Err(bad(&format!("duplicate slave name {sname}")));
            }
            let slink = next("slave link")?;
            if slink == g.link() {
                return Err(bad(&format!("slave link same as main link {slink}")));
            }
            g.slaves.push(Slave {
                name: sname,
                link: slink,
            });
        }
        loop {
            let path = next("master file")?;
            if path.is_empty() {
                break;
            }
            if g.choice(&path).is_some() {
                return Err(bad(&format!("duplicate path {path}")));
            }
            let prio = next("priority")?;
            let mut files = Vec::new();
            for s in &g.slaves {
                files.push((s.name.clone(), next("slave file")?));
            }
            if !exists(&path) {
                warnings.push(format!("alternative {path} (part of link group {name}) doesn't exist; removing from list of alternatives"));
                g.modified = true;
                continue;
            }
            let priority = prio
                .parse::<i32>()
                .map_err(|_| bad(&format!("priority of {path}: {prio}")))?;
            g.choices.push(Choice {
                path,
                priority,
                slaves: files,
            });
        }
        Ok(g)
    }
}

/// The alternatives of the machine at `root`, run as root or as a user.
pub struct Alternatives<'a> {
    /// The machine's root folder.
    pub root: &'a Path,
    /// Run as root (only root may change a group).
    pub as_root: bool,
    /// Unix time for the log's timestamps.
    pub now: i64,
    /// `--verbose` (1), `--quiet` (-1).
    pub verbose: i32,
    /// What to print on stdout.
    pub stdout: String,
    /// What to print on stderr.
    pub stderr: String,
    log: Vec<String>,
}

/// A fatal error: dpkg's `error()` text (printed after `update-alternatives: error: `), exit 2.
pub type Fatal = String;

impl<'a> Alternatives<'a> {
    /// The alternatives of the machine at `root`, as root or not, at time `now`.
    pub fn new(root: &'a Path, as_root: bool, now: i64) -> Self {
        Alternatives {
            root,
            as_root,
            now,
            verbose: 0,
            stdout: String::new(),
            stderr: String::new(),
            log: Vec::new(),
        }
    }

    /// Where a machine path is. Links in /usr/bin and /usr/sbin go where the sandbox mounts the
    /// machine's own programs (the host's /usr is read-only there), as packages' files do.
    fn host(&self, path: &str) -> std::path::PathBuf {
        if path.starts_with("/usr/bin/") || path.starts_with("/usr/sbin/") {
            return fsx::system_bin(self.root, path);
        }
        fsx::host(self.root, path, "/")
    }

    /// Prints an informational message (not with `--quiet`).
    pub fn info(&mut self, m: &str) {
        if self.verbose >= 0 {
            self.stdout.push_str(&format!("update-alternatives: {m}\n"));
        }
    }

    /// Prints a message only with `--verbose`.
    pub fn verbose_info(&mut self, m: &str) {
        if self.verbose > 0 {
            self.stdout.push_str(&format!("update-alternatives: {m}\n"));
        }
    }

    /// Prints a warning.
    pub fn warn(&mut self, m: &str) {
        if self.verbose >= 0 {
            self.stderr
                .push_str(&format!("update-alternatives: warning: {m}\n"));
        }
    }

    /// Adds a line to the log.
    pub fn log(&mut self, m: String) {
        self.log.push(m);
    }

    /// Whether `path` exists in the machine (following links as the machine would).
    pub fn exists(&self, path: &str) -> bool {
        rocm_unix::machine_path::resolve(path, |p| self.host(p))
            .is_some_and(|p| self.host(&p).exists())
    }

    fn read_link(&self, path: &str) -> Option<String> {
        std::fs::read_link(self.host(path))
            .ok()
            .map(|t| t.to_string_lossy().into_owned())
    }

    fn is_symlink(&self, path: &str) -> Option<bool> {
        std::fs::symlink_metadata(self.host(path))
            .ok()
            .map(|m| m.file_type().is_symlink())
    }

    /// Names of the link groups in the administrative directory, sorted.
    pub fn names(&self) -> Vec<String> {
        fsx::list_dir(&self.host(ADMINDIR))
            .into_iter()
            .filter(|n| !n.ends_with(TMP))
            .collect()
    }

    /// `alternative_load`: `Ok(None)` when the group has no (or an empty) file.
    pub fn load(&mut self, name: &str) -> Result<Option<Group>, Fatal> {
        let Some(text) = fsx::read_opt(&self.host(&format!("{ADMINDIR}/{name}"))) else {
            return Ok(None);
        };
        if text.is_empty() {
            return Ok(None);
        }
        let mut warnings = Vec::new();
        let g = Group::parse(name, &text, |p| self.exists(p), &mut warnings)?;
        for w in warnings {
            self.warn(&w);
        }
        Ok(Some(g))
    }

    /// The path /etc/alternatives/NAME points to.
    pub fn current(&self, name: &str) -> Option<String> {
        self.read_link(&format!("{ALTDIR}/{name}"))
    }

    /// `alternative_select_mode`: a link changed by hand to a path that is not a choice makes
    /// the group manual (or auto again when it dangles); no link at all means auto.
    pub fn select_mode(&mut self, g: &mut Group, current: Option<&str>) {
        let mut log = Vec::new();
        match current {
            Some(cur) if g.choice(cur).is_none() => {
                if !self.exists(cur) {
                    self.warn(&format!(
                        "{ALTDIR}/{} is dangling; it will be updated with best choice",
                        g.name
                    ));
                    g.set_status(Status::Auto, &mut log);
                } else if g.status != Some(Status::Manual) {
                    self.warn(&format!("{ALTDIR}/{} has been changed (manually or by a script); switching to manual updates only", g.name));
                    g.set_status(Status::Manual, &mut log);
                }
            }
            Some(_) => {}
            None => {
                self.verbose_info(&format!("setting up automatic selection of {}", g.name));
                g.set_status(Status::Auto, &mut log);
            }
        }
        self.log.extend(log);
    }

    // ---- writing: as root it happens, as a user the first write fails as it would --------

    fn denied(&self) -> bool {
        !self.as_root
    }

    fn rm(&mut self, path: &str) -> Result<(), Fatal> {
        let host = self.host(path);
        if std::fs::symlink_metadata(&host).is_err() {
            return Ok(()); // ENOENT is fine
        }
        if self.denied() {
            return Err(format!("unable to remove '{path}': Permission denied"));
        }
        std::fs::remove_file(&host)
            .map_err(|e| format!("unable to remove '{path}': {}", strerror(&e)))
    }

    fn symlink(&mut self, target: &str, link: &str) -> Result<(), Fatal> {
        let fail = |why: &str| format!("error creating symbolic link '{link}': {why}");
        if self.denied() {
            return Err(fail("Permission denied"));
        }
        let host = self.host(link);
        if let Some(p) = host.parent() {
            std::fs::create_dir_all(p).map_err(|e| fail(&strerror(&e)))?;
        }
        std::os::unix::fs::symlink(target, &host).map_err(|e| fail(&strerror(&e)))
    }

    fn mv(&mut self, from: &str, to: &str) -> Result<(), Fatal> {
        std::fs::rename(self.host(from), self.host(to))
            .map_err(|e| format!("unable to install '{from}' as '{to}': {}", strerror(&e)))
    }

    fn save(&mut self, g: &Group) -> Result<(), Fatal> {
        let file = format!("{ADMINDIR}/{}", g.name);
        if self.denied() {
            return Err(format!(
                "unable to create file '{file}{TMP}': Permission denied"
            ));
        }
        fsx::write_atomic(&self.host(&file), g.to_admin().as_bytes())
            .map_err(|e| format!("unable to create file '{file}{TMP}': {}", strerror(&e)))
    }

    /// `alternative_path_needs_update`: a link pointing elsewhere or missing is replaced; a
    /// real file or folder in its place is left alone, with a warning.
    fn needs_link(&mut self, link: &str, target: &str) -> bool {
        match self.is_symlink(link) {
            Some(true) => self.read_link(link).as_deref() != Some(target),
            Some(false) => {
                self.warn(&format!("not replacing {link} with a link"));
                false
            }
            None => true,
        }
    }

    /// `alternative_prepare_install` and the commit that follows it.
    fn install_links(&mut self, g: &Group, choice: &str) -> Result<(), Fatal> {
        let Some(c) = g.choice(choice).cloned() else {
            return Err(format!("can't install unknown choice {choice}"));
        };
        let mut moves: Vec<(String, String)> = Vec::new();
        let mut single = |me: &mut Self, name: &str, link: &str, file: &str| -> Result<(), Fatal> {
            let alt = format!("{ALTDIR}/{name}");
            let tmp = format!("{alt}{TMP}");
            me.rm(&tmp)?;
            me.symlink(file, &tmp)?;
            moves.push((tmp, alt.clone()));
            if me.needs_link(link, &alt) {
                let ltmp = format!("{link}{TMP}");
                me.rm(&ltmp)?;
                me.symlink(&alt, &ltmp)?;
                moves.push((ltmp, link.to_string()));
            }
            Ok(())
        };
        single(self, &g.name, g.link(), &c.path)?;
        let mut removes = Vec::new();
        for s in &g.slaves {
            match c.slave(&s.name) {
                Some(f) if self.exists(f) => single(self, &s.name, &s.link, f)?,
                other => {
                    if let Some(f) = other {
                        self.warn(&format!("skip creation of {} because associated file {f} (of link group {}) doesn't exist", s.link, g.name));
                    }
                    removes.push(s.link.clone());
                    removes.push(format!("{ALTDIR}/{}", s.name));
                }
            }
        }
        for (from, to) in moves {
            self.mv(&from, &to)?;
        }
        for r in removes {
            self.rm(&r)?;
        }
        Ok(())
    }

    /// `alternative_needs_update`: the master link must lead to /etc/alternatives/NAME, which
    /// must exist.
    fn broken(&self, g: &Group) -> bool {
        self.read_link(g.link()).as_deref() != Some(&format!("{ALTDIR}/{}", g.name))
            || self.current(&g.name).is_none()
    }

    /// `alternative_update`: makes the files follow `new` (or repairs them), saves the
    /// administrative file when it changed, and writes the log.
    pub fn update(
        &mut self,
        g: &mut Group,
        current: Option<&str>,
        new: Option<&str>,
    ) -> Result<(), Fatal> {
        let r = self.update_inner(g, current, new);
        self.flush_log();
        r
    }

    fn update_inner(
        &mut self,
        g: &mut Group,
        current: Option<&str>,
        new: Option<&str>,
    ) -> Result<(), Fatal> {
        if g.choices.is_empty() {
            self.log(format!("link group {} fully removed", g.name));
            let link = g.link().to_string();
            self.rm(&format!("{link}{TMP}"))?;
            if self.is_symlink(&link) != Some(false) {
                self.rm(&link)?;
            }
            self.rm(&format!("{ALTDIR}/{}{TMP}", g.name))?;
            self.rm(&format!("{ALTDIR}/{}", g.name))?;
            for s in g.slaves.clone() {
                self.rm(&format!("{}{TMP}", s.link))?;
                if self.is_symlink(&s.link) != Some(false) {
                    self.rm(&s.link)?;
                }
                self.rm(&format!("{ALTDIR}/{}", s.name))?;
            }
            return self.rm(&format!("{ADMINDIR}/{}", g.name));
        }
        if let Some(new) = new.filter(|n| Some(*n) != current) {
            self.log(format!("link group {} updated to point to {new}", g.name));
            self.info(&format!(
                "using {new} to provide {} ({}) in {}",
                g.link(),
                g.name,
                g.status().describe()
            ));
            self.install_links(g, new)?;
        } else if self.broken(g) {
            self.log(format!("auto-repair link group {}", g.name));
            self.warn(&format!(
                "forcing reinstallation of alternative {} because link group {} is broken",
                current.unwrap_or("(null)"),
                g.name
            ));
            let mut cur = current.map(String::from);
            if let Some(c) = current.filter(|c| g.choice(c).is_none()) {
                let best = g.best(None).map(|b| b.path.clone()).unwrap_or_default();
                self.warn(&format!(
                    "current alternative {c} is unknown, switching to {best} for link group {}",
                    g.name
                ));
                cur = Some(best);
                let mut log = Vec::new();
                g.set_status(Status::Auto, &mut log);
                self.log.extend(log);
            }
            if let Some(c) = cur {
                self.install_links(g, &c)?;
            }
        }
        if g.modified {
            self.save(g)?;
        }
        Ok(())
    }

    /// Appends the log lines, as root only (a user's fopen fails with EACCES, which dpkg
    /// ignores).
    pub fn flush_log(&mut self) {
        let lines = std::mem::take(&mut self.log);
        if !self.as_root || lines.is_empty() {
            return;
        }
        let (y, mo, d, h, mi, s) = rocm_unix::clock::civil(self.now);
        let stamp = format!("{y:04}-{mo:02}-{d:02} {h:02}:{mi:02}:{s:02}");
        let host = self.host(LOG);
        let mut text = fsx::read_opt(&host).unwrap_or_default();
        for l in lines {
            text.push_str(&format!("update-alternatives {stamp}: {l}\n"));
        }
        let _ = fsx::write_atomic(&host, text.as_bytes());
    }

    /// `--install LINK NAME PATH PRIORITY` without slaves, as a package's postinst runs it.
    pub fn install(
        &mut self,
        link: &str,
        name: &str,
        path: &str,
        priority: i32,
        slaves: Vec<(Slave, String)>,
    ) -> Result<(), Fatal> {
        let mut inst = Group::new(name);
        let mut log = Vec::new();
        inst.set_status(Status::Auto, &mut log);
        inst.link = Some(link.to_string());
        let choice = Choice {
            path: path.into(),
            priority,
            slaves: slaves
                .iter()
                .map(|(s, f)| (s.name.clone(), f.clone()))
                .collect(),
        };
        inst.slaves = slaves.into_iter().map(|(s, _)| s).collect();
        self.check_install(&inst, &choice)?;
        let loaded = self.load(name)?;
        let current = self.current(name);
        let mut g = match loaded {
            Some(mut g) => {
                self.select_mode(&mut g, current.as_deref());
                if g.link() != link && self.is_symlink(g.link()) == Some(true) {
                    self.info(&format!("renaming {name} link from {} to {link}", g.link()));
                    let old = g.link().to_string();
                    self.mv(&old, link)?;
                }
                if g.link() != link {
                    g.link = Some(link.to_string());
                    g.modified = true;
                }
                for s in &inst.slaves {
                    if !g.slaves.iter().any(|x| x.name == s.name) {
                        g.slaves.push(s.clone());
                    } else if let Some(x) = g.slaves.iter_mut().find(|x| x.name == s.name) {
                        x.link = s.link.clone();
                    }
                }
                g
            }
            None => {
                // dpkg settles the mode on the empty group it loaded, then uses the new one.
                self.select_mode(&mut Group::new(name), current.as_deref());
                inst
            }
        };
        g.add_choice(choice);
        let new = if g.status() == Status::Auto {
            g.best(current.as_deref()).map(|b| b.path.clone())
        } else {
            self.verbose_info(&format!(
                "automatic updates of {ALTDIR}/{name} are disabled; leaving it alone"
            ));
            self.verbose_info(&format!(
                "to return to automatic updates use 'update-alternatives --auto {name}'"
            ));
            None
        };
        self.update(&mut g, current.as_deref(), new.as_deref())
    }

    /// `alternative_check_install_args`.
    fn check_install(&mut self, inst: &Group, c: &Choice) -> Result<(), Fatal> {
        check_name(&inst.name)?;
        check_link(inst.link())?;
        check_path(&c.path)?;
        let others: Vec<Group> = self
            .names()
            .into_iter()
            .filter(|n| *n != inst.name)
            .filter_map(|n| {
                let t = fsx::read_opt(&self.host(&format!("{ADMINDIR}/{n}")))?;
                Group::parse(&n, &t, |_| true, &mut Vec::new()).ok()
            })
            .collect();
        for o in &others {
            if o.slaves.iter().any(|s| s.name == inst.name) {
                return Err(format!(
                    "alternative {} can't be master: it is a slave of {}",
                    inst.name, o.name
                ));
            }
            if o.link() == inst.link() || o.slaves.iter().any(|s| s.link == inst.link()) {
                return Err(format!(
                    "alternative link {} is already managed by {}",
                    inst.link(),
                    o.name
                ));
            }
        }
        if !self.exists(&c.path) {
            return Err(format!("alternative path {} doesn't exist", c.path));
        }
        for s in &inst.slaves {
            check_name(&s.name)?;
            check_link(&s.link)?;
            check_path(c.slave(&s.name).unwrap_or(""))?;
            for o in &others {
                if o.name == s.name {
                    return Err(format!(
                        "alternative {} can't be slave of {}: it is a master alternative",
                        s.name, inst.name
                    ));
                }
                if o.link() == s.link || o.slaves.iter().any(|x| x.link == s.link) {
                    return Err(format!(
                        "alternative link {} is already managed by {}",
                        s.link, o.name
                    ));
                }
            }
        }
        Ok(())
    }
}

/// Refuses a group name update-alternatives would refuse, in its words.
pub fn check_name(name: &str) -> Result<(), Fatal> {
    if name.contains(['/', ' ', '\t']) {
        return Err(format!(
            "alternative name ({name}) must not contain '/' and spaces"
        ));
    }
    Ok(())
}

/// Refuses a link that is not absolute, in update-alternatives' words.
pub fn check_link(link: &str) -> Result<(), Fatal> {
    if !link.starts_with('/') {
        return Err(format!(
            "alternative link is not absolute as it should be: {link}"
        ));
    }
    Ok(())
}

/// Refuses a path that is not absolute, in update-alternatives' words.
pub fn check_path(path: &str) -> Result<(), Fatal> {
    if !path.starts_with('/') {
        return Err(format!(
            "alternative path is not absolute as it should be: {path}"
        ));
    }
    Ok(())
}

/// strerror's text for the errors a machine's files can give.
fn strerror(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::PermissionDenied => "Permission denied".into(),
        std::io::ErrorKind::NotFound => "No such file or directory".into(),
        std::io::ErrorKind::AlreadyExists => "File exists".into(),
        _ => e.to_string(),
    }
}

/// The ROCm release `/opt/rocm` leads to (`6.2.2`), following the alternatives links.
pub fn rocm_release(root: &Path) -> Option<String> {
    let end = rocm_unix::machine_path::resolve("/opt/rocm", |p| fsx::host(root, p, "/"))?;
    end.strip_prefix("/opt/rocm-").map(String::from)
}

/// What installing a release's `rocm-core` does in its postinst: registers
/// /opt/rocm-X.Y.Z for /opt/rocm with the release's priority. Returns the lines it prints.
pub fn register_rocm(root: &Path, now: i64, release: &str, priority: i32) -> Vec<String> {
    let mut a = Alternatives::new(root, true, now);
    let path = format!("/opt/rocm-{release}");
    // A machine built before the alternatives existed has /opt/rocm as a plain link: the
    // package's maintainer script replaces it.
    if a.is_symlink("/opt/rocm") == Some(true) && a.load("rocm").ok().flatten().is_none() {
        let _ = a.rm("/opt/rocm");
    }
    a.log(format!(
        "run with --install /opt/rocm rocm {path} {priority}"
    ));
    let r = a.install("/opt/rocm", "rocm", &path, priority, Vec::new());
    let mut lines: Vec<String> = a.stdout.lines().map(String::from).collect();
    lines.extend(a.stderr.lines().map(String::from));
    if let Err(e) = r {
        lines.push(format!("update-alternatives: error: {e}"));
    }
    lines
}

/// What a package's postrm does on removal: `update-alternatives --remove NAME PATH`. The
/// group goes when its last choice does (and with it the link). Returns the lines it prints.
pub fn unregister(root: &Path, now: i64, name: &str, path: &str) -> Vec<String> {
    let mut a = Alternatives::new(root, true, now);
    a.log(format!("run with --remove {name} {path}"));
    let r = match a.load(name) {
        Ok(Some(mut g)) => {
            let current = a.current(name);
            a.select_mode(&mut g, current.as_deref());
            g.remove_choice(path);
            let mut new = None;
            if current.as_deref() == Some(path) {
                if g.status() == Status::Manual {
                    a.info(&format!(
                        "removing manually selected alternative - switching {name} to auto mode"
                    ));
                    let mut log = Vec::new();
                    g.set_status(Status::Auto, &mut log);
                    a.log.extend(log);
                }
                new = g.best(None).map(|b| b.path.clone());
            }
            a.update(&mut g, current.as_deref(), new.as_deref())
        }
        Ok(None) => Ok(()),
        Err(e) => Err(e),
    };
    let mut lines: Vec<String> = a.stdout.lines().map(String::from).collect();
    lines.extend(a.stderr.lines().map(String::from));
    if let Err(e) = r {
        lines.push(format!("update-alternatives: error: {e}"));
    }
    lines
}

/// Where a machine keeps its alternatives: the links, and dpkg's records of them. The second
/// of each pair says whether the folder holds links (else small files).
pub const FOLDERS: [(&str, bool); 2] = [
    ("etc/alternatives", true),
    ("var/lib/dpkg/alternatives", false),
];

/// Adds the host's entries of one alternatives folder (`from`) to a machine's (`to`, made
/// when missing): links when `links`, else files of at most 64 KiB. What the machine has
/// already is kept. `update-alternatives --display editor` and the host's `awk`, `vi` and
/// `pager` (reached through these links) then work in the machine.
pub fn adopt_host(from: &Path, to: &Path, links: bool) -> std::io::Result<()> {
    use std::os::unix::fs::MetadataExt;
    std::fs::create_dir_all(to)?;
    let Ok(rd) = std::fs::read_dir(from) else {
        return Ok(());
    };
    // One listing of what the machine has, and the kinds from the host's listing: a desktop
    // has hundreds of these, and each lab open pays for every call per entry.
    let have: std::collections::HashSet<std::ffi::OsString> = std::fs::read_dir(to)?
        .flatten()
        .map(|e| e.file_name())
        .collect();
    for e in rd.flatten() {
        let name = e.file_name();
        if have.contains(&name) {
            continue;
        }
        let Ok(kind) = e.file_type() else {
            continue;
        };
        let dest = to.join(&name);
        if links && kind.is_symlink() {
            if let Ok(target) = std::fs::read_link(e.path()) {
                std::os::unix::fs::symlink(target, &dest)?;
            }
        } else if kind.is_file() && e.metadata().is_ok_and(|m| m.size() <= 64 * 1024) {
            std::fs::copy(e.path(), &dest)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn machine() -> tempfile::TempDir {
        let d = tempfile::tempdir().unwrap();
        for v in ["6.2.2", "6.3.2"] {
            std::fs::create_dir_all(d.path().join(format!("opt/rocm-{v}/bin"))).unwrap();
        }
        d
    }

    #[test]
    fn the_admin_file_reads_back_as_written() {
        let d = machine();
        register_rocm(d.path(), 0, "6.3.2", 632299994);
        register_rocm(d.path(), 0, "6.2.2", 622299994);
        let text =
            std::fs::read_to_string(d.path().join("var/lib/dpkg/alternatives/rocm")).unwrap();
        assert_eq!(
            text,
            "auto\n/opt/rocm\n\n/opt/rocm-6.2.2\n622299994\n/opt/rocm-6.3.2\n632299994\n\n"
        );
        let g = Group::parse("rocm", &text, |_| true, &mut Vec::new()).unwrap();
        assert_eq!(g.to_admin(), text);
        assert_eq!(rocm_release(d.path()).as_deref(), Some("6.3.2"));
    }

    #[test]
    fn a_damaged_admin_file_names_itself() {
        let e = Group::parse("rocm", "sideways\n/opt/rocm\n", |_| true, &mut Vec::new());
        assert_eq!(
            e.unwrap_err(),
            "/var/lib/dpkg/alternatives/rocm corrupt: invalid status"
        );
        let e = Group::parse("rocm", "auto\n/opt/rocm", |_| true, &mut Vec::new());
        assert!(e.unwrap_err().contains("line not terminated"));
    }

    #[test]
    fn a_choice_whose_folder_is_gone_is_dropped_with_a_warning() {
        let mut w = Vec::new();
        let g = Group::parse(
            "rocm",
            "auto\n/opt/rocm\n\n/opt/rocm-6.2.2\n1\n/opt/rocm-6.3.2\n2\n\n",
            |p| p.ends_with("6.3.2"),
            &mut w,
        )
        .unwrap();
        assert_eq!(g.choices.len(), 1);
        assert!(g.modified);
        assert_eq!(w.len(), 1);
        assert!(w[0].contains("/opt/rocm-6.2.2 (part of link group rocm) doesn't exist"));
    }
}
