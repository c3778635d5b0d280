//! A credential someone else can check: what a learner completed, as an Open Badges 3.0
//! `OpenBadgeCredential` (a W3C Verifiable Credential 2.0) secured as a JWT (`vc+jwt`, EdDSA
//! with Ed25519). Signed with the key `sign` keeps: on a class server the class's key, so the
//! server vouches for what it saw; on a laptop the learner's own install key, which proves only
//! that the file is unchanged: a learner's own machine is the learner's word.
//!
//! The JWT is built here from base64url and JSON rather than with a JOSE crate: one algorithm,
//! one key type, a few lines, and CI checks the result with an independent implementation.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;
use ed25519_dalek::{Signature, Signer, SigningKey, Verifier, VerifyingKey};
use serde_json::{Value, json};

use crate::export::{Export, Status};
use crate::progress::ItemKind;

/// The JOSE header's `typ`: a VC secured as a JWT (VC-JOSE-COSE).
pub const TYP: &str = "vc+jwt";
/// A credential file is a few kilobytes; anything far larger is not one.
pub const MAX_BYTES: u64 = 4 << 20;

/// Who signs, and so what the signature vouches for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Recorder {
    /// A class server: it ran the labs and recorded the results itself.
    Server,
    /// The learner's own install: the learner's word.
    Learner,
}

impl Recorder {
    pub fn as_str(self) -> &'static str {
        match self {
            Recorder::Server => "server",
            Recorder::Learner => "learner",
        }
    }

    fn parse(s: &str) -> Option<Recorder> {
        match s {
            "server" => Some(Recorder::Server),
            "learner" => Some(Recorder::Learner),
            _ => None,
        }
    }
}

/// The issuer's public key as a JWK (RFC 8037: OKP, Ed25519), with its thumbprint as `kid`.
pub fn jwk(key: &VerifyingKey) -> Value {
    json!({
        "kty": "OKP",
        "crv": "Ed25519",
        "x": B64.encode(key.as_bytes()),
        "alg": "EdDSA",
        "use": "sig",
        "kid": thumbprint(key),
    })
}

/// The RFC 7638 thumbprint of the key (SHA-256 of its required members, in order), base64url:
/// short enough to compare by eye with the one the issuer publishes.
pub fn thumbprint(key: &VerifyingKey) -> String {
    use sha2::Digest;
    let members = format!(
        r#"{{"crv":"Ed25519","kty":"OKP","x":"{}"}}"#,
        B64.encode(key.as_bytes())
    );
    B64.encode(sha2::Sha256::digest(members.as_bytes()))
}

/// The course's title, the learner and what the signer is, for the credential's text.
pub struct Issue<'a> {
    pub export: &'a Export,
    pub course_title: &'a str,
    pub recorder: Recorder,
    pub now: u64,
}

/// The items the learner completed: the credential's evidence. None completed, none given.
/// A lab's result is tamper-proof only when a server recorded it from a confined sandbox.
fn evidence(export: &Export, recorder: Recorder) -> Vec<Value> {
    export
        .items
        .iter()
        .filter(|i| i.status == Status::Done)
        .map(|i| {
            let kind = match i.kind {
                ItemKind::Lesson => "lesson",
                ItemKind::Quiz => "quiz",
                ItemKind::Lab => "lab",
            };
            let narrative = match (i.kind, i.score, i.total) {
                (ItemKind::Lab, Some(s), Some(t)) => {
                    format!("Lab {}: {s} of {t} steps met", i.item)
                }
                (ItemKind::Quiz, Some(s), Some(t)) => {
                    format!("Quiz {}: {s} of {t} answers right", i.item)
                }
                _ => format!("Lesson {} read", i.item),
            };
            let mut e = json!({
                "type": ["Evidence"],
                "name": format!("{kind}:{}", i.item),
                "genre": kind,
                "narrative": narrative,
                "finishedAt": i.finished_at,
                "recordedBy": recorder.as_str(),
            });
            if let (Some(score), Some(total)) = (i.score, i.total) {
                e["score"] = score.into();
                e["total"] = total.into();
            }
            if i.kind == ItemKind::Lab {
                e["stepsMet"] = json!(i.steps_done);
                e["completedBy"] = json!(i.how.completed_by);
                e["solutionViewed"] = i.how.solution_viewed.into();
                // A lab completed where Landlock was missing could have been forged inside it.
                e["tamperProof"] = (recorder == Recorder::Server && !i.how.unconfined).into();
            }
            e
        })
        .collect()
}

/// The credential (the JWT's payload), or `None` when nothing is completed yet.
pub fn credential(issue: &Issue, key: &VerifyingKey) -> Option<Value> {
    let e = issue.export;
    let evidence = evidence(e, issue.recorder);
    if evidence.is_empty() {
        return None;
    }
    let issuer = format!("urn:rocm-learn:key:{}", thumbprint(key));
    let course = format!("urn:rocm-learn:course:{}", e.pack.label());
    let issued = crate::export::rfc3339(issue.now);
    let id = credential_id(key, &e.learner, issue.now);
    let recorder = issue.recorder;
    Some(json!({
        "@context": [
            "https://www.w3.org/ns/credentials/v2",
            "https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json"
        ],
        "id": id,
        "type": ["VerifiableCredential", "OpenBadgeCredential"],
        "name": format!("{}: {}", issue.course_title, e.learner),
        "issuer": {
            "id": issuer,
            "type": ["Profile"],
            "name": match recorder {
                Recorder::Server => format!("rocm-learn class server on {}", e.machine),
                Recorder::Learner => format!("rocm-learn on {}, the learner's own machine", e.machine),
            },
        },
        "validFrom": issued,
        "credentialSubject": {
            "type": ["AchievementSubject"],
            "name": e.learner,
            "achievement": {
                "id": course,
                "type": ["Achievement"],
                "name": issue.course_title,
                "achievementType": "Course",
                "criteria": {
                    "narrative": "Lessons read, quizzes answered and hands-on labs on a simulated \
                                  ROCm machine, each lab step graded by the machine's resulting state."
                },
            },
        },
        "evidence": evidence,
        // What the signature vouches for: read by `verify`.
        "rocmLearn": {
            "recordedBy": recorder.as_str(),
            "tamperProof": recorder == Recorder::Server,
            "machine": e.machine,
            "pack": e.pack.label(),
            "recordedAt": e.exported_at,
        },
        "iss": issuer,
        "sub": e.learner,
        "jti": id,
        "iat": issue.now,
    }))
}

/// A `urn:uuid:` made from the key, the learner and the time: one per issue.
fn credential_id(key: &VerifyingKey, learner: &str, now: u64) -> String {
    let name = format!("{}/{learner}/{now}", thumbprint(key));
    format!(
        "urn:uuid:{}",
        uuid::Uuid::new_v5(&uuid::Uuid::NAMESPACE_URL, name.as_bytes())
    )
}

/// The credential as a compact JWS: header, payload, signature, each base64url.
pub fn encode(key: &SigningKey, payload: &Value) -> String {
    let vk = key.verifying_key();
    let header = json!({"alg": "EdDSA", "typ": TYP, "kid": thumbprint(&vk), "jwk": jwk(&vk)});
    let signing_input = format!(
        "{}.{}",
        B64.encode(serde_json::to_vec(&header).expect("json")),
        B64.encode(serde_json::to_vec(payload).expect("json"))
    );
    let sig = key.sign(signing_input.as_bytes());
    format!("{signing_input}.{}", B64.encode(sig.to_bytes()))
}

/// Why a file is not a good credential, as a message id of the `credential-bad-*` family.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bad {
    /// Not three base64url parts of JSON.
    NotJwt,
    /// Not EdDSA, not `vc+jwt`, or no Ed25519 key in the header.
    WrongKind,
    /// The signature does not match: changed after signing, or signed by another key.
    Signature,
    /// Signed, but not an `OpenBadgeCredential`.
    NotBadge,
}

impl Bad {
    pub fn msg_id(self) -> &'static str {
        match self {
            Bad::NotJwt => "credential-bad-format",
            Bad::WrongKind => "credential-bad-kind",
            Bad::Signature => "credential-bad-signature",
            Bad::NotBadge => "credential-bad-type",
        }
    }
}

/// A credential whose signature holds.
#[derive(Debug, Clone)]
pub struct Verified {
    /// The signer's key thumbprint.
    pub kid: String,
    pub recorder: Recorder,
    pub learner: String,
    pub course: String,
    pub items: usize,
    pub issued: String,
    pub payload: Value,
}

/// Checks a compact JWS: with `pinned`, against that key only; without, against the key its
/// header carries (which proves the file unchanged, not who made it).
pub fn verify(token: &str, pinned: Option<&VerifyingKey>) -> Result<Verified, Bad> {
    let parts: Vec<&str> = token.trim().split('.').collect();
    let [h, p, s] = parts[..] else {
        return Err(Bad::NotJwt);
    };
    let part = |t: &str| -> Result<Value, Bad> {
        let bytes = B64.decode(t).map_err(|_| Bad::NotJwt)?;
        serde_json::from_slice(&bytes).map_err(|_| Bad::NotJwt)
    };
    let header = part(h)?;
    let sig = B64
        .decode(s)
        .ok()
        .and_then(|b| <[u8; 64]>::try_from(b).ok())
        .ok_or(Bad::NotJwt)?;
    if header["alg"] != "EdDSA" || header["typ"] != TYP {
        return Err(Bad::WrongKind);
    }
    // A pinned key needs none in the header: tokens from other issuers may not carry one.
    let key = match pinned {
        Some(k) => *k,
        None => key_of(&header["jwk"]).ok_or(Bad::WrongKind)?,
    };
    key.verify(format!("{h}.{p}").as_bytes(), &Signature::from_bytes(&sig))
        .map_err(|_| Bad::Signature)?;
    let payload = part(p)?;
    let types = payload["type"].as_array().cloned().unwrap_or_default();
    if !types.iter().any(|t| t == "OpenBadgeCredential") {
        return Err(Bad::NotBadge);
    }
    // Only the signer decides what it is; a field it did not write as "server" is the
    // learner's word.
    let recorder = payload["rocmLearn"]["recordedBy"]
        .as_str()
        .and_then(Recorder::parse)
        .unwrap_or(Recorder::Learner);
    let text = |v: &Value| v.as_str().unwrap_or_default().to_string();
    Ok(Verified {
        kid: thumbprint(&key),
        recorder,
        learner: text(&payload["credentialSubject"]["name"]),
        course: text(&payload["credentialSubject"]["achievement"]["name"]),
        items: payload["evidence"].as_array().map_or(0, Vec::len),
        issued: text(&payload["validFrom"]),
        payload,
    })
}

/// The Ed25519 key of a JWK, if it is one.
pub fn key_of(jwk: &Value) -> Option<VerifyingKey> {
    if jwk["kty"] != "OKP" || jwk["crv"] != "Ed25519" {
        return None;
    }
    let x = B64.decode(jwk["x"].as_str()?).ok()?;
    VerifyingKey::from_bytes(&<[u8; 32]>::try_from(x).ok()?).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn token(key: &SigningKey) -> String {
        encode(
            key,
            &json!({"type": ["VerifiableCredential", "OpenBadgeCredential"],
                    "rocmLearn": {"recordedBy": "server"}}),
        )
    }

    #[test]
    fn a_signed_credential_verifies_and_any_changed_byte_fails() {
        let key = SigningKey::from_bytes(&[7; 32]);
        let t = token(&key);
        let v = verify(&t, None).expect("verifies");
        assert_eq!(v.recorder, Recorder::Server);
        assert_eq!(v.kid, thumbprint(&key.verifying_key()));
        // Every byte of the header, the payload and the signature matters.
        for i in (0..t.len()).filter(|&i| t.as_bytes()[i] != b'.') {
            let mut b = t.clone().into_bytes();
            b[i] = if b[i] == b'A' { b'B' } else { b'A' };
            let changed = String::from_utf8(b).unwrap();
            assert!(
                verify(&changed, None).is_err(),
                "byte {i} changed and still verifies"
            );
        }
    }

    #[test]
    fn a_pinned_key_refuses_another_signer() {
        let ours = SigningKey::from_bytes(&[1; 32]);
        let theirs = SigningKey::from_bytes(&[2; 32]);
        let t = token(&theirs);
        assert_eq!(
            verify(&t, Some(&ours.verifying_key())).err(),
            Some(Bad::Signature)
        );
        assert!(verify(&t, Some(&theirs.verifying_key())).is_ok());
        assert_eq!(
            key_of(&jwk(&ours.verifying_key())),
            Some(ours.verifying_key())
        );
        // Another issuer's token with no key in its header: only a pinned key can check it.
        let header = B64.encode(br#"{"alg":"EdDSA","typ":"vc+jwt"}"#);
        let payload = B64.encode(br#"{"type":["OpenBadgeCredential"]}"#);
        let sig = theirs.sign(format!("{header}.{payload}").as_bytes());
        let bare = format!("{header}.{payload}.{}", B64.encode(sig.to_bytes()));
        assert_eq!(verify(&bare, None).err(), Some(Bad::WrongKind));
        assert!(verify(&bare, Some(&theirs.verifying_key())).is_ok());
    }

    #[test]
    fn not_a_badge_or_not_a_jwt_is_said_so() {
        let key = SigningKey::from_bytes(&[3; 32]);
        let other = encode(&key, &json!({"type": ["VerifiableCredential"]}));
        assert_eq!(verify(&other, None).err(), Some(Bad::NotBadge));
        assert_eq!(verify("a.b", None).err(), Some(Bad::NotJwt));
        assert_eq!(verify("", None).err(), Some(Bad::NotJwt));
    }
}
