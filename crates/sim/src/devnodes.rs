//! Device nodes that exist for real on the machine's own root (a lab whose host could make
//! them): there a node in /dev is the truth for its owner, group and mode, as a `chmod` or
//! `chown` by any program leaves them ([`State::load_on`] reads them back through the
//! [`Host`](crate::Host)); everywhere else the state keeps what udev set.

use super::state::State;

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
