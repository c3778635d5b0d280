//! What both sides of the lab agree on (see `lab`): neither side's code, only the shape of
//! what passes between them.

pub mod fdpass;
pub mod layout;
pub mod protocol;
pub mod record;
pub mod sanitize;
