//! The learner's progress store as the commands open it: with a class's submit folder or
//! learning record store set, every save also hands the learner's results on.

use std::path::PathBuf;

use crate::content::{Course, Pack};
use crate::i18n::I18n;
use crate::progress::{self, Store};
use crate::serve::SUBMIT_ENV;

/// Opens the store of this pack's progress; problems are reported but never stop the learner.
/// With `ROCM_LEARN_SUBMIT_DIR` set, every finished item also writes the learner's export
/// there; with a learning record store set, every event is queued for it. Both are done by a
/// worker thread (`export::worker`): a save never waits for them.
pub(super) fn open_store(i18n: &I18n, course: &Course, pack: &Pack) -> Option<Store> {
    let store = match Store::locate() {
        Ok(s) => s.for_pack(pack).with_course(course),
        Err(e) => {
            eprintln!("{}", i18n.msg(&e.0));
            return None;
        }
    };
    let submit = std::env::var_os(SUBMIT_ENV)
        .filter(|d| !d.is_empty())
        .map(PathBuf::from);
    let lrs = crate::lrs::Config::from_env();
    if submit.is_none() && lrs.is_none() {
        return Some(store);
    }
    let data = match progress::base_dir() {
        Ok(d) => d,
        Err(e) => {
            eprintln!("{}", i18n.msg(&e.0));
            return Some(store);
        }
    };
    let class = crate::export::worker::Class {
        submit,
        lrs,
        data,
        pack: pack.clone(),
        machine: crate::export::machine_name(),
    };
    Some(crate::export::worker::attach(store, course, class))
}
