//! Lab-only entries (not tools a learner has): `sim login USER` records a login session and
//! prints its id; `sim reboot` reboots the machine.

use super::super::Ctx;

pub fn run(cx: &mut Ctx, args: &[String]) -> i32 {
    let [user] = args else {
        cx.eprintln("usage: rocm-learn sim login USER");
        return 2;
    };
    let root = cx.root;
    match cx.state.login(root, user) {
        Ok(id) => {
            cx.println(&id);
            0
        }
        Err(e) => {
            cx.eprintln(&e.message);
            1
        }
    }
}

pub fn reboot(cx: &mut Ctx, args: &[String]) -> i32 {
    if !args.is_empty() {
        cx.eprintln("usage: rocm-learn sim reboot");
        return 2;
    }
    let root = cx.root;
    cx.state.reboot(root);
    0
}
