//! Exports are signed with a key each install makes on first use (ed25519), so `report` can
//! tell a learner's own files from a file someone else dropped in the submit folder under that
//! learner's name. It proves which install wrote a file, not who sat at it: a learner's own
//! machine can still lie about that learner.

use std::path::Path;

use ed25519_dalek::{Signature, Signer, SigningKey, Verifier, VerifyingKey};
use serde::{Deserialize, Serialize};

use crate::events::hex;

/// The key's file in the install's data folder: 32 secret bytes as hex, readable by its owner.
pub const KEY_FILE: &str = "install-key";

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seal {
    /// The install's public key, hex.
    pub key: String,
    /// The signature of the export without this field, in canonical JSON (sorted keys), hex.
    pub sig: String,
}

/// What a file's signature says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Made before exports were signed.
    Unsigned,
    /// Signed by this key, and unchanged since.
    Good(String),
    /// Changed after signing, or a signature that is not one.
    Bad,
}

/// This install's key, made (and kept) on first use. Every caller gets the one key published
/// in the file, also when several processes make it at once (a class server's sessions): the
/// first to publish it wins, and the others read theirs back. A file that is there but is not
/// a key is an error naming it, never silently replaced: exports signed with the old key would
/// then look like someone else's.
pub fn install_key(data: &Path) -> std::io::Result<SigningKey> {
    let path = data.join(KEY_FILE);
    match read_key(&path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        got => return got,
    }
    let mut seed = [0u8; 32];
    getrandom::fill(&mut seed).map_err(std::io::Error::other)?;
    std::fs::create_dir_all(data)?;
    match crate::unix::files::write_private_new(&path, hex(&seed).as_bytes()) {
        Ok(()) => Ok(SigningKey::from_bytes(&seed)),
        // Another process published first: theirs is the key.
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => read_key(&path),
        Err(e) => Err(e),
    }
}

/// The key in `path`; `NotFound` when there is no file, `InvalidData` naming the file when it
/// holds no key.
fn read_key(path: &Path) -> std::io::Result<SigningKey> {
    let bytes = crate::unix::files::read_capped(path, 1 << 10)?;
    let seed = std::str::from_utf8(&bytes)
        .ok()
        .and_then(|t| unhex::<32>(t.trim()))
        .ok_or_else(|| {
            std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!(
                    "{} is not an install key (64 hex digits); move it aside to have a new key \
                     made",
                    path.display()
                ),
            )
        })?;
    Ok(SigningKey::from_bytes(&seed))
}

/// The public half of the install key in `data`, if there is one (never made here): how
/// `report` knows a class server's exports.
pub fn install_public(data: &Path) -> Option<String> {
    let bytes = crate::hostfs::read_named(&data.join(KEY_FILE), 1 << 10).ok()?;
    let seed = unhex::<32>(std::str::from_utf8(&bytes).ok()?.trim())?;
    Some(hex(SigningKey::from_bytes(&seed)
        .verifying_key()
        .as_bytes()))
}

/// The seal of a JSON value (its `signature` field left out).
pub fn seal(key: &SigningKey, value: &serde_json::Value) -> Seal {
    let sig = key.sign(&canonical(value));
    Seal {
        key: hex(key.verifying_key().as_bytes()),
        sig: hex(&sig.to_bytes()),
    }
}

/// Checks the `signature` field of a JSON document against the rest of it.
pub fn verify(value: &serde_json::Value) -> Verdict {
    let Some(sealed) = value.get("signature").filter(|s| !s.is_null()) else {
        return Verdict::Unsigned;
    };
    let Ok(s) = serde_json::from_value::<Seal>(sealed.clone()) else {
        return Verdict::Bad;
    };
    let (Some(key), Some(sig)) = (unhex::<32>(&s.key), unhex::<64>(&s.sig)) else {
        return Verdict::Bad;
    };
    let Ok(key) = VerifyingKey::from_bytes(&key) else {
        return Verdict::Bad;
    };
    match key.verify(&canonical(value), &Signature::from_bytes(&sig)) {
        Ok(()) => Verdict::Good(s.key),
        Err(_) => Verdict::Bad,
    }
}

/// The bytes signed: the value without `signature`, keys sorted at every level, no spaces.
fn canonical(value: &serde_json::Value) -> Vec<u8> {
    fn sorted(v: &serde_json::Value) -> serde_json::Value {
        match v {
            serde_json::Value::Object(m) => {
                let mut keys: Vec<&String> = m.keys().collect();
                keys.sort();
                serde_json::Value::Object(
                    keys.into_iter()
                        .map(|k| (k.clone(), sorted(&m[k])))
                        .collect(),
                )
            }
            serde_json::Value::Array(a) => serde_json::Value::Array(a.iter().map(sorted).collect()),
            other => other.clone(),
        }
    }
    let mut v = sorted(value);
    if let Some(m) = v.as_object_mut() {
        m.remove("signature");
    }
    serde_json::to_vec(&v).expect("json serialises")
}

fn unhex<const N: usize>(s: &str) -> Option<[u8; N]> {
    if s.len() != N * 2 {
        return None;
    }
    let mut out = [0u8; N];
    for (i, b) in out.iter_mut().enumerate() {
        *b = u8::from_str_radix(s.get(i * 2..i * 2 + 2)?, 16).ok()?;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_changed_document_fails_and_an_unsigned_one_says_so() {
        let dir = tempfile::tempdir().unwrap();
        let key = install_key(dir.path()).unwrap();
        // The same key comes back on the next use.
        assert_eq!(install_key(dir.path()).unwrap().to_bytes(), key.to_bytes());
        let mut v = serde_json::json!({"learner": "bob", "items": [{"b": 1, "a": 2}]});
        assert_eq!(verify(&v), Verdict::Unsigned);
        let s = seal(&key, &v);
        v["signature"] = serde_json::to_value(&s).unwrap();
        assert_eq!(verify(&v), Verdict::Good(s.key.clone()));
        v["learner"] = "eve".into();
        assert_eq!(verify(&v), Verdict::Bad);
        assert_eq!(install_public(dir.path()), Some(s.key));
        assert_eq!(install_public(&dir.path().join("none")), None);
    }

    #[test]
    fn every_thread_gets_the_one_published_key() {
        for _ in 0..100 {
            let dir = tempfile::tempdir().unwrap();
            let keys: Vec<[u8; 32]> = std::thread::scope(|s| {
                let runs: Vec<_> = (0..4)
                    .map(|_| s.spawn(|| install_key(dir.path()).unwrap().to_bytes()))
                    .collect();
                runs.into_iter().map(|r| r.join().unwrap()).collect()
            });
            let published = install_key(dir.path()).unwrap().to_bytes();
            assert!(keys.iter().all(|k| *k == published), "{keys:?}");
            // Nothing but the key is left in the folder (no temporary file).
            assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        }
    }

    #[test]
    fn an_empty_or_damaged_key_file_is_an_error_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(KEY_FILE);
        for text in ["", "not hex at all", &"ab".repeat(31)] {
            std::fs::write(&path, text).unwrap();
            let e = install_key(dir.path()).unwrap_err();
            assert_eq!(e.kind(), std::io::ErrorKind::InvalidData);
            assert!(e.to_string().contains(&path.display().to_string()), "{e}");
            // The file is left as it was for the owner to look at.
            assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
        }
    }
}
