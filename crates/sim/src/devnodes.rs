//! Device nodes that exist for real on the machine's own root (a lab whose host could make
//! them): there a node in /dev is the truth for its owner, group and mode, as a `chmod` or
//! `chown` by any program leaves them; everywhere else the state keeps what udev set.

use std::path::Path;

use rustix::fs::{FileType, lstat, makedev};

use super::accounts;
use super::state::{DevNode, State};

/// Every node the machine may ever have (major, minor): the ones it has, /dev/kfd, and each
/// GPU's card and render node, whether its driver is loaded or not.
pub fn possible(state: &State) -> Vec<(u32, u32)> {
    let mut nodes: Vec<(u32, u32)> = state.devices.iter().map(|d| (d.major, d.minor)).collect();
    nodes.push((state.kfd_major, 0));
    for g in &state.machine.gpus {
        nodes.push((226, g.card_minor));
        nodes.push((226, g.render_minor));
    }
    nodes.sort_unstable();
    nodes.dedup();
    nodes
}

/// The metadata of `node.path` when it is the character device `node` stands for.
pub fn real(node: &DevNode) -> Option<rustix::fs::Stat> {
    let st = lstat(node.path.as_str()).ok()?;
    let is_char = FileType::from_raw_mode(st.st_mode) == FileType::CharacterDevice;
    (is_char && st.st_rdev == makedev(node.major, node.minor)).then_some(st)
}

/// Takes owner, group and mode from the real nodes, when `root` is this system's `/`.
pub fn read_back(state: &mut State, root: &Path) {
    if root != Path::new("/") {
        return;
    }
    let mut names: Option<(Vec<accounts::PasswdEntry>, accounts::Groups)> = None;
    for d in &mut state.devices {
        let Some(st) = real(d) else {
            continue;
        };
        let (users, groups) =
            names.get_or_insert_with(|| (accounts::users(root), accounts::Groups::load(root)));
        d.mode = st.st_mode & 0o7777;
        d.owner = users
            .iter()
            .find(|u| u.uid == st.st_uid)
            .map_or_else(|| st.st_uid.to_string(), |u| u.name.clone());
        d.group = groups.name_of(st.st_gid);
    }
}
