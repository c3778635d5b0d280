//! The server's host key: made on first start in the class folder (mode 0600, OpenSSH format,
//! so `ssh-keygen -l -f` shows its fingerprint), then reused, so learners' `known_hosts` stays
//! right across restarts.

use std::path::Path;

use russh::keys::PrivateKey;
use russh::keys::ssh_key::LineEnding;
use russh::keys::ssh_key::private::Ed25519Keypair;

use crate::content::Msg;

pub const FILE: &str = "host_key";
const CAP: u64 = 64 << 10;

/// The key in `class/host_key`, made there first if there is none.
pub fn load_or_make(class: &Path) -> Result<PrivateKey, Msg> {
    super::secret::load_or_make(class, FILE, "serve-host-key-bad", read, make)
}

fn read(path: &Path) -> Result<PrivateKey, String> {
    let bytes = crate::hostfs::read_named(path, CAP).map_err(|r| r.msg().to_string())?;
    PrivateKey::from_openssh(&bytes).map_err(|e| e.to_string())
}

/// A new key, written to `path`.
fn make(path: &Path) -> Result<PrivateKey, String> {
    let mut seed = [0u8; 32];
    getrandom::fill(&mut seed).map_err(|e| e.to_string())?;
    let key = PrivateKey::from(Ed25519Keypair::from_seed(&seed));
    let text = key.to_openssh(LineEnding::LF).map_err(|e| e.to_string())?;
    // Made new, never overwritten: two servers starting at once on one folder keep one key;
    // the one that loses reads the winner's once it is written.
    match crate::unix::files::write_private_new(path, text.as_bytes()) {
        Ok(()) => Ok(key),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            for _ in 0..20 {
                std::thread::sleep(std::time::Duration::from_millis(100));
                if let Ok(key) = read(path) {
                    return Ok(key);
                }
            }
            Err(e.to_string())
        }
        Err(e) => Err(e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn made_once_private_and_reused() {
        let dir = tempfile::tempdir().unwrap();
        let a = load_or_make(dir.path()).unwrap();
        let mode = std::fs::metadata(dir.path().join(FILE))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
        let b = load_or_make(dir.path()).unwrap();
        assert_eq!(a.public_key().key_data(), b.public_key().key_data());
    }

    #[test]
    fn a_damaged_key_is_an_error_not_a_new_key() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(FILE), "not a key").unwrap();
        let err = load_or_make(dir.path()).unwrap_err().to_string();
        assert!(err.contains("host_key"), "{err}");
    }
}
