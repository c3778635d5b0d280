//! `rocm-learn lab ID --script FILE` waits for each line's prompt however long the command is
//! silent, and types the next line early only for a program that waits for input.

mod common;

use common::has;

use std::time::{Duration, Instant};

/// Grades `lines` in `lab`; (exit code, stdout, stderr, seconds taken).
fn grade(lab: &str, lines: &[&str], extra: &[&str]) -> (i32, String, String, Duration) {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("script.sh");
    std::fs::write(&script, lines.join("\n") + "\n").unwrap();
    let mut args = vec![
        "lab",
        lab,
        "--script",
        script.to_str().unwrap(),
        "--lang",
        "en",
    ];
    args.extend_from_slice(extra);
    let start = Instant::now();
    let out = common::call(&args, dir.path());
    (out.code, out.stdout, out.stderr, start.elapsed())
}

#[test]
fn a_last_line_quiet_for_a_second_is_graded_after_it_ends() {
    if !common::needs::bwrap("script mode tests") {
        return;
    }
    let (code, out, err, _) = grade(
        "amdgpu-not-loaded",
        &[
            "sudo rm /etc/modprobe.d/blacklist-amdgpu.conf",
            "echo amdgpu | sudo tee -a /etc/modules",
            "echo loading; sleep 1; sudo modprobe amdgpu",
        ],
        &[],
    );
    assert_eq!(code, 0, "{out}\n{err}");
    has(&out, "Lab complete: 3 of 3 steps done.");
}

#[test]
fn a_silent_loop_runs_to_its_end_before_the_grade() {
    if !common::needs::bwrap("script mode tests") {
        return;
    }
    // Three seconds without a byte of output, and only its last act completes the lab.
    let (code, out, err, took) = grade(
        "amdgpu-not-loaded",
        &[
            "sudo rm /etc/modprobe.d/blacklist-amdgpu.conf",
            "sudo modprobe amdgpu",
            "for i in 1 2 3 4 5 6; do sleep 0.5; done; echo amdgpu | sudo tee -a /etc/modules >/dev/null",
        ],
        &[],
    );
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(took >= Duration::from_secs(3), "took {took:?}");
    assert!(!err.contains("still running"), "{err}");
}

#[test]
fn a_line_past_its_limit_is_named_and_the_next_one_is_typed() {
    if !common::needs::bwrap("script mode tests") {
        return;
    }
    let (code, out, err, took) = grade(
        "amdgpu-not-loaded",
        &["sleep 30", "echo after-the-limit"],
        &["--line-timeout", "1"],
    );
    assert_eq!(code, 1, "the lab is not solved: {out}");
    has(&err, "Line 1 was still running after 1 s");
    assert!(took < Duration::from_secs(25), "took {took:?}");
    assert!(out.contains("echo after-the-limit"), "typed anyway: {out}");
}

#[test]
fn apts_question_gets_the_next_line_as_its_answer() {
    if !common::needs::bwrap("script mode tests") {
        return;
    }
    let (_, out, err, _) = grade(
        "fresh-node-install",
        &[
            "sudo mkdir --parents --mode=0755 /etc/apt/keyrings",
            "wget https://repo.radeon.com/rocm/rocm.gpg.key -O - | gpg --dearmor | sudo tee /etc/apt/keyrings/rocm.gpg > /dev/null",
            "echo \"deb [arch=amd64 signed-by=/etc/apt/keyrings/rocm.gpg] https://repo.radeon.com/amdgpu/6.2.2/ubuntu jammy main\" | sudo tee /etc/apt/sources.list.d/amdgpu.list",
            "echo \"deb [arch=amd64 signed-by=/etc/apt/keyrings/rocm.gpg] https://repo.radeon.com/rocm/apt/6.2.2 jammy main\" | sudo tee --append /etc/apt/sources.list.d/rocm.list",
            "sudo apt update",
            "sudo apt install amdgpu-dkms rocm",
            "n",
            "echo answered-$((6*7))",
        ],
        &["--line-timeout", "20"],
    );
    has(&out, "Do you want to continue? [Y/n] n\nAbort.");
    // The line after the answer ran in the shell (its output, not only its echo).
    has(&out, "\nanswered-42\n");
    // No line waited for its limit (the runner says so on stderr when one does); how long
    // the run took depends on the machine's load, so it is not asserted here.
    assert!(
        !err.contains("still running"),
        "nothing waited for its limit: {err}"
    );
}

#[test]
fn sudo_in_the_lab_behaves_as_ubuntus_does() {
    if !common::needs::bwrap("script mode tests") {
        return;
    }
    let (_, out, _, _) = grade(
        "amdgpu-not-loaded",
        &[
            "sudo -l",
            "sudo env | grep -E '^(PATH|HOME|USER|SUDO_USER|MYVAR)=' | sort",
            "MYVAR=1 sudo -E env | grep -c '^MYVAR='",
            "sudo FOO=bar sh -c 'echo foo=$FOO'",
            "sudo -iu learner id -un",
            "sudo -u learner -i pwd",
            "sudo false; echo st=$?",
        ],
        &[],
    );
    for want in [
        "User learner may run the following commands on mi300x-node:\n    (ALL : ALL) ALL\n    (ALL) NOPASSWD: ALL",
        // env_reset: the caller's variables are gone, secure_path and root's HOME are set.
        "HOME=/root\nPATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/snap/bin\nSUDO_USER=learner\nUSER=root\n",
        // -E keeps them.
        "grep -c '^MYVAR='\n1\n",
        "foo=bar",
        "sudo -iu learner id -un\nlearner\n",
        "sudo -u learner -i pwd\n/home/learner\n",
        "st=1",
    ] {
        assert!(out.contains(want), "missing {want:?} in\n{out}");
    }
}

#[test]
fn a_command_as_wide_as_the_terminal_is_whole_in_the_transcript() {
    if !common::needs::bwrap("script mode tests") {
        return;
    }
    // With the prompt, exactly the script terminal's 120 columns: bash redraws it at the edge,
    // and the transcript once showed only its last letter.
    let line = format!(
        "echo {}",
        "x".repeat(120 - "learner@vega-ws:~$ ".len() - 6) + "s"
    );
    assert_eq!("learner@vega-ws:~$ ".len() + line.len(), 120);
    let (_, out, err, _) = grade("kfd-udev-rules", &[&line, "echo after"], &[]);
    assert!(
        out.contains(&format!("learner@vega-ws:~$ {line}\n")),
        "{out}\n{err}"
    );
    assert!(
        out.contains("learner@vega-ws:~$ echo after\nafter\n"),
        "{out}"
    );
}
