//! Paths of a machine whose files live in a folder (a lab's stage, doctor's test trees):
//! symbolic links are followed as that machine would follow them, so an absolute link target
//! counts from the machine's root, not the host's.

use std::collections::VecDeque;
use std::path::PathBuf;

/// The machine path `path` ends at after every link on the way is followed, given where each
/// machine path is on the host. `None` if something on the way is missing or the links loop.
pub fn resolve(path: &str, on_host: impl Fn(&str) -> PathBuf) -> Option<String> {
    let mut todo: VecDeque<String> = components(path).collect();
    let mut cur: Vec<String> = Vec::new();
    let mut hops = 0;
    while let Some(c) = todo.pop_front() {
        match c.as_str() {
            "." => continue,
            ".." => {
                cur.pop();
                continue;
            }
            _ => {}
        }
        let next = format!(
            "/{}",
            cur.iter()
                .chain([&c])
                .cloned()
                .collect::<Vec<_>>()
                .join("/")
        );
        let host = on_host(&next);
        if !std::fs::symlink_metadata(&host)
            .ok()?
            .file_type()
            .is_symlink()
        {
            cur.push(c);
            continue;
        }
        hops += 1;
        if hops > 40 {
            return None; // a loop, as the kernel would say ELOOP
        }
        let target = std::fs::read_link(&host).ok()?;
        let t = target.to_string_lossy();
        if t.starts_with('/') {
            cur.clear();
        }
        for (i, part) in components(&t).enumerate() {
            todo.insert(i, part);
        }
    }
    Some(format!("/{}", cur.join("/")))
}

fn components(path: &str) -> impl Iterator<Item = String> + '_ {
    path.split('/').filter(|c| !c.is_empty()).map(String::from)
}
