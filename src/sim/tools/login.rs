//! Lab-only entry (not a tool a learner has): `sim login USER` records a login session and
//! prints its id.

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
