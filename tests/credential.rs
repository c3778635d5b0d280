//! `rocm-learn credential` and `verify`: a credential made from real progress verifies, here
//! and with an independent JOSE implementation (PyJWT, in the Python that
//! ROCM_LEARN_TEST_JOSE_PYTHON names; `.ci/run` makes one), and a changed byte breaks both.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{has, has_all, lacks, run_pack};

/// What PyJWT says of a token and a JWK: `OK <type...>` or `REJECTED <why>` (exit 3).
const PYJWT_CHECK: &str = r#"
import json, sys, jwt
token = open(sys.argv[1]).read().strip()
key = jwt.PyJWK(json.load(open(sys.argv[2]))).key
try:
    header = jwt.get_unverified_header(token)
    claims = jwt.decode(token, key=key, algorithms=["EdDSA"])
except jwt.PyJWTError as e:
    print("REJECTED", type(e).__name__)
    sys.exit(3)
print("OK", header["typ"], " ".join(claims["type"]), claims["credentialSubject"]["achievement"]["name"])
"#;

/// The Python with PyJWT, or why the independent check is skipped (a failure under
/// ROCM_LEARN_REQUIRE_SANDBOX=1, as CI runs).
fn jose_python() -> Option<PathBuf> {
    let found = std::env::var_os("ROCM_LEARN_TEST_JOSE_PYTHON")
        .map(PathBuf::from)
        .filter(|p| {
            Command::new(p)
                .args(["-c", "import jwt, cryptography"])
                .status()
                .is_ok_and(|s| s.success())
        });
    if found.is_none() {
        common::needs::skip(
            "the PyJWT check",
            "ROCM_LEARN_TEST_JOSE_PYTHON names no Python with PyJWT[crypto] (.ci/run sets it)",
        );
    }
    found
}

fn pyjwt(python: &Path, token: &Path, jwk: &Path) -> (i32, String) {
    let out = Command::new(python)
        .args(["-c", PYJWT_CHECK])
        .arg(token)
        .arg(jwk)
        .output()
        .expect("python runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr),
    )
}

/// A learner who read the pack's lesson: one completed item.
fn learner_with_a_lesson(data: &Path) {
    let r = run_pack(&["lesson", "what-is-rocm", "--plain"], "", data, &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
}

/// The JWT's payload, decoded without checking anything.
fn payload(token: &str) -> serde_json::Value {
    use base64::Engine;
    let part = token.trim().split('.').nth(1).expect("a JWT");
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(part)
        .expect("base64url");
    serde_json::from_slice(&bytes).expect("json")
}

/// The token with one base64url character of its payload changed.
fn changed(token: &str) -> String {
    let at = token.find('.').expect("a JWT") + 10;
    let mut b = token.as_bytes().to_vec();
    b[at] = if b[at] == b'A' { b'B' } else { b'A' };
    String::from_utf8(b).unwrap()
}

#[test]
fn a_credential_verifies_here_and_with_pyjwt_and_a_changed_byte_fails_both() {
    let data = tempfile::tempdir().unwrap();
    learner_with_a_lesson(data.path());
    let file = data.path().join("badge.jwt");
    let f = file.to_str().unwrap();
    let made = run_pack(&["credential", "--out", f], "", data.path(), &[]);
    assert_eq!(made.code, 0, "{}", made.stderr);
    has_all(
        &made.stderr,
        &[
            "Credential written to",
            "(1 completed item)",
            "your own word",
        ],
    );
    let jwk = run_pack(&["credential", "--issuer-jwk"], "", data.path(), &[]);
    assert_eq!(jwk.code, 0, "{}", jwk.stderr);
    let jwk_value: serde_json::Value = serde_json::from_str(&jwk.stdout).expect("a JWK");
    assert_eq!(jwk_value["kty"], "OKP");
    assert_eq!(jwk_value["crv"], "Ed25519");
    let jwk_file = data.path().join("issuer.jwk");
    std::fs::write(&jwk_file, &jwk.stdout).unwrap();

    // Ours: valid, with what it proves and what not, and pinned to the issuer's key.
    let ok = run_pack(
        &["verify", f, "--issuer-jwk", jwk_file.to_str().unwrap()],
        "",
        data.path(),
        &[],
    );
    assert_eq!(ok.code, 0, "{}{}", ok.stdout, ok.stderr);
    has_all(
        &ok.stdout,
        &[
            "VALID: ",
            "completed 1 item of \"The test pack\"",
            "The key is the one in the JWK you gave.",
            "this is the learner's word",
            "It does not prove who was at the keyboard.",
        ],
    );
    let token = std::fs::read_to_string(&file).unwrap();
    let vc = payload(&token);
    assert_eq!(
        vc["credentialSubject"]["achievement"]["name"],
        "The test pack"
    );
    let evidence = vc["evidence"].as_array().expect("evidence");
    assert_eq!(evidence.len(), 1, "{vc}");
    assert_eq!(evidence[0]["name"], "lesson:what-is-rocm");
    assert_eq!(evidence[0]["recordedBy"], "learner");
    assert!(evidence[0]["finishedAt"].is_string(), "{vc}");
    let bad_file = data.path().join("changed.jwt");
    std::fs::write(&bad_file, changed(token.trim())).unwrap();
    let bad = run_pack(
        &["verify", bad_file.to_str().unwrap()],
        "",
        data.path(),
        &[],
    );
    assert_eq!(bad.code, 1, "{}", bad.stdout);
    has(&bad.stdout, "NOT VALID: the signature of");
    lacks(&bad.stdout, "VALID: The");

    // Theirs.
    let Some(python) = jose_python() else { return };
    let (code, said) = pyjwt(&python, &file, &jwk_file);
    assert_eq!(code, 0, "{said}");
    has(
        &said,
        "OK vc+jwt VerifiableCredential OpenBadgeCredential The test pack",
    );
    let (code, said) = pyjwt(&python, &bad_file, &jwk_file);
    assert_eq!(code, 3, "{said}");
    has(&said, "REJECTED");
}

#[test]
fn another_key_is_refused_and_the_verdict_reads_in_japanese_and_korean() {
    let data = tempfile::tempdir().unwrap();
    learner_with_a_lesson(data.path());
    let file = data.path().join("badge.jwt");
    let f = file.to_str().unwrap();
    assert_eq!(
        run_pack(&["credential", "--out", f], "", data.path(), &[]).code,
        0
    );
    // Another install's key does not vouch for this credential.
    let other = tempfile::tempdir().unwrap();
    let jwk = run_pack(&["credential", "--issuer-jwk"], "", other.path(), &[]);
    let jwk_file = other.path().join("other.jwk");
    std::fs::write(&jwk_file, &jwk.stdout).unwrap();
    let r = run_pack(
        &["verify", f, "--issuer-jwk", jwk_file.to_str().unwrap()],
        "",
        data.path(),
        &[],
    );
    assert_eq!(r.code, 1, "{}", r.stdout);
    has(&r.stdout, "NOT VALID: the signature");

    // The course is named as the credential names it: in the language it was issued in.
    let ja = run_pack(&["verify", f, "--lang", "ja"], "", data.path(), &[]);
    assert_eq!(ja.code, 0, "{}", ja.stderr);
    has_all(
        &ja.stdout,
        &[
            "有効: ",
            "「The test pack」の 1 項目を修了",
            "本人の申告です",
            "証明されないこと",
        ],
    );
    let ko = run_pack(&["verify", f, "--lang", "ko"], "", data.path(), &[]);
    assert_eq!(ko.code, 0, "{}", ko.stderr);
    has_all(
        &ko.stdout,
        &[
            "유효: ",
            "\"The test pack\"의 항목 1개를 수료",
            "본인의 주장입니다",
            "증명하지 않는 것",
        ],
    );
}

#[test]
fn nothing_completed_and_a_file_that_is_no_credential_are_said_so() {
    let data = tempfile::tempdir().unwrap();
    let r = run_pack(&["credential"], "", data.path(), &[]);
    assert_eq!(r.code, 1);
    has(&r.stderr, "Nothing is completed yet");
    let junk = data.path().join("junk.jwt");
    std::fs::write(&junk, "not a token").unwrap();
    let r = run_pack(&["verify", junk.to_str().unwrap()], "", data.path(), &[]);
    assert_eq!(r.code, 1);
    has(&r.stdout, "is not a credential");
    let r = run_pack(&["verify", "/nonexistent/badge.jwt"], "", data.path(), &[]);
    assert_eq!(r.code, 2);
    has(&r.stderr, "Could not read /nonexistent/badge.jwt");
}

#[test]
fn in_a_class_folder_the_server_vouches_but_only_with_its_key_given() {
    let class = tempfile::tempdir().unwrap();
    // A class folder is one with the server's host key (serve makes it as it starts).
    std::fs::write(class.path().join("host_key"), "").unwrap();
    let env = [("ROCM_LEARN_LEARNER", "aiko")];
    let r = run_pack(
        &["lesson", "what-is-rocm", "--plain"],
        "",
        class.path(),
        &env,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let file = class.path().join("aiko.jwt");
    let f = file.to_str().unwrap();
    let made = run_pack(&["credential", "--out", f], "", class.path(), &env);
    assert_eq!(made.code, 0, "{}", made.stderr);
    has(&made.stderr, "Signed with this class server's key");
    let jwk = run_pack(&["credential", "--issuer-jwk"], "", class.path(), &[]);
    let jwk_file = class.path().join("class.jwk");
    std::fs::write(&jwk_file, &jwk.stdout).unwrap();
    let unpinned = run_pack(&["verify", f], "", class.path(), &[]);
    assert_eq!(unpinned.code, 0, "{}", unpinned.stdout);
    has_all(
        &unpinned.stdout,
        &["VALID: aiko completed 1 item", "only the file's word"],
    );
    let pinned = run_pack(
        &["verify", f, "--issuer-jwk", jwk_file.to_str().unwrap()],
        "",
        class.path(),
        &[],
    );
    assert_eq!(pinned.code, 0, "{}", pinned.stdout);
    has(&pinned.stdout, "Recorded by a class server");
    lacks(&pinned.stdout, "learner's word");
    let vc = payload(&std::fs::read_to_string(&file).unwrap());
    assert_eq!(vc["evidence"][0]["recordedBy"], "server");
    assert_eq!(vc["rocmLearn"]["tamperProof"], true);
}

#[test]
fn a_lab_solved_on_a_server_is_evidence_with_its_steps_and_whether_it_is_tamper_proof() {
    if !common::needs::bwrap("credential lab tests") {
        return;
    }
    let class = tempfile::tempdir().unwrap();
    std::fs::write(class.path().join("host_key"), "").unwrap();
    let env = [("ROCM_LEARN_LEARNER", "aiko")];
    let solved = common::run(
        &["lab", "hsa-init-failed", "--plain"],
        "sudo usermod -aG render,video learner\nexit\nrocminfo\n",
        class.path(),
        &env,
    );
    assert_eq!(solved.code, 0, "{}\n{}", solved.stdout, solved.stderr);
    let made = common::run(&["credential"], "", class.path(), &env);
    assert_eq!(made.code, 0, "{}", made.stderr);
    let vc = payload(&made.stdout);
    let lab = vc["evidence"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == "lab:hsa-init-failed")
        .unwrap_or_else(|| panic!("no lab in {vc}"));
    assert_eq!(
        lab["stepsMet"],
        serde_json::json!(["groups", "new-login", "rocminfo"])
    );
    assert_eq!(lab["score"], 3);
    assert_eq!(lab["solutionViewed"], false);
    // Tamper-proof exactly when the lab ran confined, as the progress says.
    let p = common::run(&["progress", "--json"], "", class.path(), &env);
    let progress: serde_json::Value = serde_json::from_str(&p.stdout).expect("json");
    let unconfined = progress["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["item"] == "hsa-init-failed")
        .and_then(|i| i["unconfined"].as_bool())
        .unwrap_or(false);
    assert_eq!(lab["tamperProof"], !unconfined, "{lab}");
}
