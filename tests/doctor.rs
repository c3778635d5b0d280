//! `rocm-learn doctor`: the checks run against fake sysfs/dev/etc trees, and the real binary runs
//! on this machine, read-only, and always finishes.

mod common;

use common::has;

use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use rocm_learn::content::{self, ContentTree, SupportMatrix};
use rocm_learn::doctor::{self, Devices, Finding, Host, Level, Node, ToolRun};
use rocm_learn::i18n::I18n;
use rocm_learn::lang::Lang;
use rocm_learn::markdown::Target;

const ALICE: u32 = 1000;
const VIDEO: u32 = 44;
const RENDER: u32 = 992;

const ROCMINFO_OK: &str = "\x1b[37mROCk module version 6.10.5 is loaded\x1b[0m
=====================
HSA System Attributes
=====================
Runtime Version:         1.14
==========
HSA Agents
==========
*******
Agent 1
*******
  Name:                    AMD EPYC 9654 96-Core Processor
  Marketing Name:          AMD EPYC 9654 96-Core Processor
  Vendor Name:             CPU
  Device Type:             CPU
*******
Agent 2
*******
  Name:                    gfx942
  Marketing Name:          AMD Instinct MI300X
  Vendor Name:             AMD
  Device Type:             GPU
  ISA Info:
    ISA 1
      Name:                    amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-
*** Done ***
";

const ROCMINFO_DENIED: &str = "\x1b[37mROCk module version 6.10.5 is loaded\x1b[0m
\x1b[31mUnable to open /dev/kfd read-write: Permission denied\x1b[0m
\x1b[31malice is not member of \"render\" group, the default DRM access group. Users must be a member of the \"render\" group or another DRM access group in order for ROCm applications to run successfully\x1b[0m.
";

const AMD_SMI_LIST: &str = "GPU: 0
    BDF: 0000:1b:00.0
    UUID: 1fff74a1-0000-1000-80e9-b2fe3f8d0f6a
    KFD_ID: 45412
    NODE_ID: 1
    PARTITION_ID: 0

";

/// A fake machine: files under a temp dir, plus what the process would know.
struct Machine {
    dir: tempfile::TempDir,
    user: String,
    uid: u32,
    gids: Vec<u32>,
    path: Option<String>,
    kernel: Option<String>,
    nodes: BTreeMap<String, Node>,
    rocminfo: String,
    rocminfo_code: i32,
}

impl Machine {
    fn root(&self) -> &Path {
        self.dir.path()
    }

    fn write(&self, path: &str, text: &str) {
        let p = self.root().join(path.trim_start_matches('/'));
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    fn exe(&self, path: &str) {
        self.write(path, "#!/bin/sh\nexit 0\n");
        let p = self.root().join(path.trim_start_matches('/'));
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o755)).unwrap();
    }

    fn remove(&self, path: &str) {
        let p = self.root().join(path.trim_start_matches('/'));
        if p.is_dir() {
            std::fs::remove_dir_all(p).unwrap();
        } else {
            std::fs::remove_file(p).unwrap();
        }
    }

    fn link(&self, path: &str, target: &str) {
        let p = self.root().join(path.trim_start_matches('/'));
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink(target, p).unwrap();
    }

    fn pci(&self, addr: &str, vendor: &str, device: &str, class: &str) {
        let d = format!("/sys/bus/pci/devices/{addr}");
        self.write(&format!("{d}/vendor"), &format!("{vendor}\n"));
        self.write(&format!("{d}/device"), &format!("{device}\n"));
        self.write(&format!("{d}/class"), &format!("{class}\n"));
    }

    fn node(&mut self, path: &str, gid: u32, mode: u32) {
        self.write(path, "");
        self.nodes
            .insert(path.to_string(), Node { uid: 0, gid, mode });
    }

    fn os(&self, id: &str, version: &str, pretty: &str) {
        self.write(
            "/etc/os-release",
            &format!(
                "PRETTY_NAME=\"{pretty}\"\nNAME=\"{pretty}\"\nVERSION_ID=\"{version}\"\nID={id}\n"
            ),
        );
    }

    fn rocm(&self, version: &str) {
        let dir = format!("/opt/rocm-{version}");
        for tool in ["rocminfo", "amd-smi", "hipcc"] {
            self.exe(&format!("{dir}/bin/{tool}"));
        }
        self.write(&format!("{dir}/.info/version"), &format!("{version}-39\n"));
        self.link("/opt/rocm", &format!("rocm-{version}"));
    }

    /// ROCm from the Core SDK's packages: the files in /opt/rocm/core-X.Y, /opt/rocm a plain
    /// folder, and the tools linked into /usr/bin through /etc/alternatives.
    fn core_sdk(&self, release: &str) {
        self.remove("/opt/rocm");
        let dir = format!("/opt/rocm/core-{release}");
        // Relative targets, so the links stay inside the fake root.
        for tool in ["rocminfo", "amd-smi", "hipcc"] {
            self.exe(&format!("{dir}/bin/{tool}"));
            self.link(
                &format!("/etc/alternatives/{tool}"),
                &format!("../..{dir}/bin/{tool}"),
            );
            self.link(
                &format!("/usr/bin/{tool}"),
                &format!("../../etc/alternatives/{tool}"),
            );
        }
        self.link("/etc/alternatives/rocm-bin", &format!("../..{dir}/bin"));
        self.link("/opt/rocm/bin", "../../etc/alternatives/rocm-bin");
    }

    fn gfx(&self, node: u32, target_version: u32) {
        self.write(
            &format!("/sys/class/kfd/kfd/topology/nodes/{node}/properties"),
            &format!("cpu_cores_count 0\nsimd_count 1216\ngfx_target_version {target_version}\n"),
        );
    }

    /// A healthy MI300X node on Ubuntu 22.04 with ROCm 6.3.0 and AMD's DKMS driver; alice is in
    /// render and video, and this login has both.
    fn mi300x() -> Machine {
        let mut m = Machine {
            dir: tempfile::tempdir().unwrap(),
            user: "alice".into(),
            uid: ALICE,
            gids: vec![ALICE, VIDEO, RENDER],
            path: Some("/usr/local/bin:/usr/bin:/bin:/opt/rocm/bin".into()),
            kernel: Some("6.8.0-52-generic".into()),
            nodes: BTreeMap::new(),
            rocminfo: ROCMINFO_OK.into(),
            rocminfo_code: 0,
        };
        m.pci("0000:00:00.0", "0x1022", "0x14a4", "0x060000");
        m.pci("0000:1b:00.0", "0x1002", "0x74a1", "0x120000");
        m.write("/sys/module/amdgpu/initstate", "live\n");
        m.write("/sys/module/amdgpu/version", "6.10.5\n");
        m.gfx(0, 0);
        m.gfx(1, 90402);
        m.node("/dev/kfd", RENDER, 0o660);
        m.node("/dev/dri/renderD128", RENDER, 0o660);
        m.node("/dev/dri/card0", VIDEO, 0o660);
        m.write(
            "/etc/passwd",
            "root:x:0:0:root:/root:/bin/bash\nalice:x:1000:1000:Alice:/home/alice:/bin/bash\n",
        );
        m.write(
            "/etc/group",
            "root:x:0:\nvideo:x:44:alice\nrender:x:992:alice\nalice:x:1000:\n",
        );
        m.os("ubuntu", "22.04", "Ubuntu 22.04.5 LTS");
        m.rocm("6.3.0");
        m
    }

    fn host(&self) -> Host {
        let rocminfo = self.rocminfo.clone();
        let code = self.rocminfo_code;
        Host {
            root: self.root().to_path_buf(),
            user: self.user.clone(),
            uid: self.uid,
            gids: self.gids.clone(),
            path: self.path.clone(),
            kernel: self.kernel.clone(),
            devices: Devices::Table(self.nodes.clone()),
            tools: Box::new(move |program: &str, args: &[&str]| {
                match program.rsplit('/').next().unwrap() {
                    "rocminfo" => ToolRun::Done {
                        code: Some(code),
                        stdout: rocminfo.clone(),
                        stderr: String::new(),
                    },
                    "amd-smi" if args == ["list"] => ToolRun::Done {
                        code: Some(0),
                        stdout: AMD_SMI_LIST.into(),
                        stderr: String::new(),
                    },
                    other => ToolRun::Failed(format!("{other}: not found")),
                }
            }),
        }
    }

    fn examine(&self) -> Vec<Finding> {
        doctor::examine(&self.host(), &matrix())
    }
}

fn matrix() -> SupportMatrix {
    content::load(&ContentTree::embedded()).0.matrix
}

fn en() -> I18n {
    I18n::new(Lang::En)
}

fn find<'a>(findings: &'a [Finding], id: &str) -> &'a Finding {
    findings
        .iter()
        .find(|f| f.id == id)
        .unwrap_or_else(|| panic!("no finding {id}: {findings:#?}"))
}

/// The finding's message as the learner reads it (with its note).
fn says(f: &Finding) -> String {
    let i = en();
    let mut s = i.msg(&f.msg);
    if let Some(n) = &f.note {
        s.push(' ');
        s.push_str(n.get(Lang::En));
    }
    s
}

fn fix(f: &Finding) -> String {
    f.fix.as_ref().map(|m| en().msg(m)).unwrap_or_default()
}

fn problems(findings: &[Finding]) -> Vec<&'static str> {
    findings
        .iter()
        .filter(|f| f.level == Level::Problem)
        .map(|f| f.id)
        .collect()
}

fn lab(id: &str) -> Option<Target> {
    Some(Target::Lab(id.into()))
}

#[test]
fn a_healthy_mi300x_node_is_all_ok() {
    let m = Machine::mi300x();
    let findings = m.examine();
    let ids: Vec<&str> = findings.iter().map(|f| f.id).collect();
    assert_eq!(
        ids,
        [
            "gpu",
            "amdgpu",
            "kfd",
            "kfd_access",
            "render",
            "groups",
            "rocm",
            "path",
            "rocminfo",
            "amd_smi",
            "os",
            "support"
        ]
    );
    for f in &findings {
        assert_eq!(f.level, Level::Ok, "{}: {}", f.id, says(f));
        assert!(f.fix.is_none(), "{}", f.id);
    }
    // Only the AMD accelerator counts, not the AMD CPU's host bridge.
    assert!(says(find(&findings, "gpu")).contains("1 device (0000:1b:00.0 [1002:74a1])"));
    assert!(says(find(&findings, "amdgpu")).contains("DKMS build, version 6.10.5"));
    assert!(says(find(&findings, "rocm")).contains("ROCm 6.3.0 is installed in /opt/rocm-6.3.0"));
    assert!(says(find(&findings, "path")).contains("/opt/rocm/bin"));
    assert!(says(find(&findings, "rocminfo")).contains("1 GPU agent: gfx942"));
    assert!(says(find(&findings, "amd_smi")).contains("1 GPU"));
    assert!(says(find(&findings, "os")).contains("Ubuntu 22.04.5 LTS, kernel 6.8.0-52-generic"));
    let support = says(find(&findings, "support"));
    has(
        &support,
        "gfx942 (AMD Instinct MI300X) on Ubuntu 22.04 with ROCm 6.3: supported",
    );
}

#[test]
fn a_core_sdk_node_is_found_in_core_and_its_tools_on_path_through_usr_bin() {
    let mut m = Machine::mi300x();
    m.remove("/opt/rocm-6.3.0");
    m.core_sdk("10.0");
    m.path = Some("/usr/local/bin:/usr/bin:/bin".into());
    let findings = m.examine();
    for f in &findings {
        assert_eq!(f.level, Level::Ok, "{}: {}", f.id, says(f));
    }
    assert!(
        says(find(&findings, "rocm")).contains("ROCm 10.0 is installed in /opt/rocm/core-10.0"),
        "{}",
        says(find(&findings, "rocm"))
    );
    assert!(says(find(&findings, "path")).contains("/usr/bin"));
    has(
        &says(find(&findings, "support")),
        "gfx942 (AMD Instinct MI300X) on Ubuntu 22.04 with ROCm 10.0: supported",
    );
}

#[test]
fn amdgpu_not_loaded_is_one_problem_and_the_floors_above_cannot_tell() {
    let m = Machine::mi300x();
    m.remove("/sys/module/amdgpu");
    m.remove("/sys/class/kfd");
    m.remove("/dev/kfd");
    m.remove("/dev/dri");
    let findings = m.examine();
    assert_eq!(problems(&findings), ["amdgpu"], "{findings:#?}");
    let f = find(&findings, "amdgpu");
    assert!(says(f).contains("not loaded"), "{}", says(f));
    assert!(fix(f).contains("sudo modprobe amdgpu"), "{}", fix(f));
    assert_eq!(f.teaches, lab("amdgpu-not-loaded"));
    for id in [
        "kfd",
        "kfd_access",
        "render",
        "rocminfo",
        "amd_smi",
        "support",
    ] {
        assert_eq!(find(&findings, id).level, Level::Unknown, "{id}");
    }
    assert!(
        says(find(&findings, "kfd")).contains("cannot tell while the amdgpu driver is not loaded")
    );
}

#[test]
fn a_kernel_without_an_amdgpu_module_says_to_build_the_driver() {
    let m = Machine::mi300x();
    m.remove("/sys/module/amdgpu");
    m.write(
        "/lib/modules/6.8.0-52-generic/modules.dep",
        "kernel/drivers/net/ethernet/intel/e1000e/e1000e.ko.zst:\n",
    );
    let findings = m.examine();
    let f = find(&findings, "amdgpu");
    assert_eq!(f.level, Level::Problem);
    assert!(says(f).contains("has no amdgpu module"), "{}", says(f));
    assert!(
        fix(f).contains("linux-headers-6.8.0-52-generic"),
        "{}",
        fix(f)
    );
}

#[test]
fn a_blacklisted_driver_names_the_line_that_stops_it() {
    let m = Machine::mi300x();
    m.remove("/sys/module/amdgpu");
    m.write(
        "/etc/modprobe.d/blacklist-gpu.conf",
        "# keep the GPU off\nblacklist amdgpu\n",
    );
    let f = find(&m.examine(), "amdgpu").clone();
    assert_eq!(f.level, Level::Problem);
    assert!(
        says(&f)
            .contains("/etc/modprobe.d/blacklist-gpu.conf keeps it from loading: blacklist amdgpu"),
        "{}",
        says(&f)
    );
}

#[test]
fn the_in_tree_driver_is_named_with_the_kernel() {
    let m = Machine::mi300x();
    m.remove("/sys/module/amdgpu/version");
    let f = find(&m.examine(), "amdgpu").clone();
    assert_eq!(f.level, Level::Ok);
    assert!(
        says(&f).contains("came with kernel 6.8.0-52-generic"),
        "{}",
        says(&f)
    );
}

#[test]
fn kfd_owned_by_render_without_the_user_in_it_says_usermod() {
    let mut m = Machine::mi300x();
    m.write(
        "/etc/group",
        "root:x:0:\nvideo:x:44:\nrender:x:992:\nalice:x:1000:\n",
    );
    m.gids = vec![ALICE];
    m.rocminfo = ROCMINFO_DENIED.into();
    m.rocminfo_code = 1;
    let findings = m.examine();
    let f = find(&findings, "kfd_access");
    assert_eq!(f.level, Level::Problem);
    let msg = says(f);
    has(&msg, "alice cannot open /dev/kfd read-write");
    has(&msg, "group render with mode 0660");
    has(&msg, "/etc/group does not list alice in render");
    assert!(
        fix(f).contains("sudo usermod -aG render,video alice"),
        "{}",
        fix(f)
    );
    assert_eq!(f.teaches, lab("hsa-init-failed"));
    // rocminfo agrees, in its own words.
    let r = find(&findings, "rocminfo");
    assert_eq!(r.level, Level::Problem);
    assert!(says(r).contains("Unable to open /dev/kfd read-write: Permission denied"));
    assert!(!says(r).contains('\x1b'), "colour codes are removed");
    assert_eq!(r.teaches, lab("hsa-init-failed"));
    // The render node is refused for the same reason.
    assert_eq!(find(&findings, "render").level, Level::Problem);
}

#[test]
fn in_etc_group_but_not_in_this_session_says_log_in_again() {
    let mut m = Machine::mi300x();
    // usermod ran, but this login is older than that.
    m.gids = vec![ALICE, VIDEO];
    let findings = m.examine();
    let f = find(&findings, "kfd_access");
    assert_eq!(f.level, Level::Problem);
    assert!(
        says(f).contains(
            "/etc/group does list alice in render, but this login started before that change"
        ),
        "{}",
        says(f)
    );
    assert!(fix(f).contains("Log out and in again"), "{}", fix(f));
    assert!(fix(f).contains("newgrp render"), "{}", fix(f));
    assert!(
        !fix(f).contains("usermod"),
        "no need to add the group again"
    );
    assert_eq!(f.teaches, lab("hsa-init-failed"));
    let g = find(&findings, "groups");
    assert_eq!(g.level, Level::Problem);
    assert!(
        says(g).contains(
            "/etc/group lists alice in render, but this login does not have that group yet"
        ),
        "{}",
        says(g)
    );
    // One cause, three floors: the report spells the fix out once.
    let mut out = Vec::new();
    doctor::report::text(&en(), &findings, &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert_eq!(text.matches("Log out and in again").count(), 1, "{text}");
    assert_eq!(text.matches("Fix: the same as above.").count(), 2, "{text}");
}

#[test]
fn a_node_closed_to_its_group_needs_a_udev_rule_not_a_group() {
    let mut m = Machine::mi300x();
    m.node("/dev/kfd", 0, 0o600);
    let f = find(&m.examine(), "kfd_access").clone();
    assert_eq!(f.level, Level::Problem);
    assert!(
        says(&f).contains("mode 0600 lets only the owner root in"),
        "{}",
        says(&f)
    );
    assert!(fix(&f).contains("udevadm trigger"), "{}", fix(&f));
    assert_eq!(f.teaches, lab("kfd-udev-rules"));
}

#[test]
fn a_world_open_node_needs_no_group() {
    let mut m = Machine::mi300x();
    m.write(
        "/etc/group",
        "root:x:0:\nvideo:x:44:\nrender:x:992:\nalice:x:1000:\n",
    );
    m.gids = vec![ALICE];
    m.node("/dev/kfd", RENDER, 0o666);
    m.node("/dev/dri/renderD128", RENDER, 0o666);
    let findings = m.examine();
    assert!(problems(&findings).is_empty(), "{findings:#?}");
    assert!(says(find(&findings, "groups")).contains("none of render and video"));
}

#[test]
fn rocm_installed_but_not_on_path_teaches_hipcc_not_found() {
    let mut m = Machine::mi300x();
    m.path = Some("/usr/local/bin:/usr/bin:/bin".into());
    let findings = m.examine();
    assert_eq!(problems(&findings), ["path"], "{findings:#?}");
    let f = find(&findings, "path");
    assert!(
        says(f).contains("/opt/rocm/bin, which is not on PATH"),
        "{}",
        says(f)
    );
    assert!(
        fix(f).contains("export PATH=$PATH:/opt/rocm/bin"),
        "{}",
        fix(f)
    );
    assert_eq!(f.teaches, lab("hipcc-not-found"));
    // rocminfo is still found in ROCm's own folder and run from there.
    let r = find(&findings, "rocminfo");
    assert_eq!(r.level, Level::Ok);
    assert!(says(r).contains("/opt/rocm/bin/rocminfo"), "{}", says(r));
}

#[test]
fn the_versioned_bin_on_path_counts_as_rocm_on_path() {
    let mut m = Machine::mi300x();
    m.path = Some("/usr/bin:/opt/rocm-6.3.0/bin/".into());
    let f = find(&m.examine(), "path").clone();
    assert_eq!(f.level, Level::Ok, "{}", says(&f));
}

#[test]
fn no_rocm_on_a_gpu_node_teaches_the_fresh_install() {
    let m = Machine::mi300x();
    m.remove("/opt");
    let findings = m.examine();
    let f = find(&findings, "rocm");
    assert_eq!(f.level, Level::Problem);
    assert_eq!(f.teaches, lab("fresh-node-install"));
    assert_eq!(find(&findings, "path").level, Level::Unknown);
    assert_eq!(find(&findings, "rocminfo").level, Level::Unknown);
    // Without an installed release the GPU is judged against the newest the course knows.
    let s = says(find(&findings, "support"));
    has(
        &s,
        "(not installed; the newest release the course knows): supported",
    );
}

#[test]
fn no_amd_gpu_is_said_plainly_without_a_wall_of_problems() {
    let m = Machine {
        dir: tempfile::tempdir().unwrap(),
        user: "bob".into(),
        uid: 1001,
        gids: vec![1001],
        path: Some("/usr/bin:/bin".into()),
        kernel: Some("6.1.0-18-amd64".into()),
        nodes: BTreeMap::new(),
        rocminfo: String::new(),
        rocminfo_code: 0,
    };
    m.pci("0000:00:00.0", "0x8086", "0x1237", "0x060000");
    m.pci("0000:00:02.0", "0x8086", "0x46a6", "0x030000");
    // AMD's HDMI audio function is not a GPU.
    m.pci("0000:03:00.1", "0x1002", "0xab28", "0x040300");
    m.write("/etc/passwd", "bob:x:1001:1001::/home/bob:/bin/bash\n");
    m.write("/etc/group", "bob:x:1001:\nrender:x:992:\n");
    m.os("debian", "12", "Debian GNU/Linux 12 (bookworm)");
    let findings = m.examine();
    assert_eq!(findings[0].id, "gpu");
    assert_eq!(findings[0].level, Level::Problem);
    assert!(
        says(&findings[0]).starts_with("No AMD GPU found"),
        "{}",
        says(&findings[0])
    );
    // Every floor above the bus would only say "cannot tell": the one finding says it all.
    assert_eq!(
        findings.iter().map(|f| f.id).collect::<Vec<_>>(),
        ["gpu"],
        "{findings:#?}"
    );
}

#[test]
fn gfx900_on_ubuntu_22_04_with_rocm_6_3_is_unsupported_and_says_why() {
    let mut m = Machine::mi300x();
    m.remove("/sys/bus/pci/devices/0000:1b:00.0");
    m.pci("0000:43:00.0", "0x1002", "0x687f", "0x030000");
    m.remove("/sys/class/kfd");
    m.gfx(1, 90000);
    m.remove("/opt/rocm");
    m.rocm("6.3.2");
    m.rocminfo = ROCMINFO_OK.replace("gfx942", "gfx900");
    let findings = m.examine();
    let f = find(&findings, "support");
    assert_eq!(f.level, Level::Problem);
    let s = says(f);
    has(
        &s,
        "gfx900 (Radeon RX Vega 56/64, Instinct MI25) on Ubuntu 22.04 with ROCm 6.3: unsupported",
    );
    has(&s, "invalid device function");
    // The support matrix's own note for this GPU and release.
    has(&s, "rocminfo still enumerates it");
    assert_eq!(f.teaches, Some(Target::Lesson("supported".into())));
    assert!(!fix(f).is_empty());
}

#[test]
fn a_release_the_matrix_does_not_know_cannot_be_told() {
    let m = Machine::mi300x();
    m.remove("/opt/rocm");
    m.rocm("6.2.4");
    let f = find(&m.examine(), "support").clone();
    assert_eq!(f.level, Level::Unknown);
    assert!(says(&f).contains("no data for ROCm 6.2"), "{}", says(&f));
}

#[test]
fn an_os_the_matrix_does_not_list_is_a_problem_with_the_releases_it_knows() {
    let m = Machine::mi300x();
    m.os("fedora", "40", "Fedora Linux 40 (Workstation Edition)");
    let findings = m.examine();
    let f = find(&findings, "os");
    assert_eq!(f.level, Level::Problem);
    assert!(
        says(f).contains("for none of the releases it knows (4.5, 5.7, 6.3, 7.0, 10.0)"),
        "{}",
        says(f)
    );
    assert_eq!(find(&findings, "support").level, Level::Problem);
}

#[test]
fn a_hanging_tool_is_reported_not_waited_for() {
    let mut m = Machine::mi300x();
    m.rocminfo = String::new();
    let mut host = m.host();
    host.tools = Box::new(|_: &str, _: &[&str]| ToolRun::TimedOut(5));
    let findings = doctor::examine(&host, &matrix());
    let f = find(&findings, "rocminfo");
    assert_eq!(f.level, Level::Unknown);
    assert!(
        says(f).contains("did not finish within 5 seconds"),
        "{}",
        says(f)
    );
    // The ISA still comes from the driver's topology.
    assert_eq!(find(&findings, "support").level, Level::Ok);
}

#[test]
fn the_real_runner_stops_a_program_at_its_time_limit() {
    let started = Instant::now();
    let run = doctor::host::run_with_timeout(
        Path::new("/bin/sleep"),
        &["30"],
        Duration::from_millis(300),
    );
    assert_eq!(run, ToolRun::TimedOut(0));
    assert!(started.elapsed() < Duration::from_secs(5));
    let run = doctor::host::run_with_timeout(
        Path::new("/bin/sh"),
        &["-c", "echo out; echo err >&2; exit 3"],
        Duration::from_secs(5),
    );
    assert_eq!(
        run,
        ToolRun::Done {
            code: Some(3),
            stdout: "out\n".into(),
            stderr: "err\n".into()
        }
    );
    let run = doctor::host::run_with_timeout(
        Path::new("/nonexistent/rocminfo"),
        &[],
        Duration::from_secs(1),
    );
    assert!(matches!(run, ToolRun::Failed(_)), "{run:?}");
}

/// Every file's path, kind, mode, size and modification time.
fn snapshot(root: &Path) -> Vec<(PathBuf, u32, u64, i64, u64)> {
    use std::hash::{DefaultHasher, Hash, Hasher};
    use std::os::unix::fs::MetadataExt;
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            let md = std::fs::symlink_metadata(&p).unwrap();
            // What is in each file, not only its size and time: a rewrite with the same length
            // within the filesystem's time resolution must still be seen.
            let mut h = DefaultHasher::new();
            if md.is_file() {
                std::fs::read(&p).unwrap().hash(&mut h);
            } else if md.is_symlink() {
                std::fs::read_link(&p).unwrap().hash(&mut h);
            }
            out.push((
                p.clone(),
                md.mode(),
                md.size(),
                md.mtime_nsec() + md.mtime() * 1_000_000_000,
                h.finish(),
            ));
            if md.is_dir() {
                stack.push(p);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn doctor_changes_nothing_in_the_tree_it_reads() {
    let m = Machine::mi300x();
    let before = snapshot(m.root());
    let _ = m.examine();
    let mut host = m.host();
    // The real device door on the fake tree: open and close only.
    host.devices = Devices::Real;
    let _ = doctor::examine(&host, &matrix());
    assert_eq!(before, snapshot(m.root()));
}

#[test]
fn the_report_speaks_the_learners_language_and_json_has_the_documented_shape() {
    let mut m = Machine::mi300x();
    m.gids = vec![ALICE];
    m.write(
        "/etc/group",
        "root:x:0:\nvideo:x:44:\nrender:x:992:\nalice:x:1000:\n",
    );
    let findings = m.examine();

    let mut out = Vec::new();
    doctor::report::text(&I18n::new(Lang::Ja), &findings, &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    has(&text, "[問題あり]");
    has(&text, "[正常]");
    has(&text, "sudo usermod -aG render,video alice");
    has(&text, "rocm-learn lab hsa-init-failed");

    let mut out = Vec::new();
    doctor::report::text(&I18n::new(Lang::Ko), &findings, &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("[문제]") && text.contains("[정상]"), "{text}");

    let v = doctor::report::json(&en(), &findings);
    let list = v["findings"].as_array().unwrap();
    assert_eq!(list.len(), findings.len());
    let kfd = list.iter().find(|f| f["id"] == "kfd_access").unwrap();
    assert_eq!(kfd["level"], "problem");
    assert!(
        kfd["message"]
            .as_str()
            .unwrap()
            .contains("Permission denied")
    );
    assert!(
        kfd["fix"]
            .as_str()
            .unwrap()
            .contains("usermod -aG render,video alice")
    );
    assert_eq!(kfd["teaches"]["kind"], "lab");
    assert_eq!(kfd["teaches"]["id"], "hsa-init-failed");
    let gpu = list.iter().find(|f| f["id"] == "gpu").unwrap();
    assert_eq!(gpu["level"], "ok");
    assert!(gpu["fix"].is_null() && gpu["teaches"].is_null());
    for f in list {
        assert!(["ok", "problem", "unknown"].contains(&f["level"].as_str().unwrap()));
    }
}

/// Runs the real binary with a deadline, so a hang fails the test instead of stalling it.
fn run_binary(args: &[&str]) -> common::Run {
    run_binary_in(args, &tempfile::tempdir().unwrap())
}

/// The same, with `home` as the program's home and data folder (kept by the caller, to look at
/// afterwards).
fn run_binary_in(args: &[&str], home: &tempfile::TempDir) -> common::Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_rocm-learn"))
        .args(args)
        .env_remove("ROCM_LEARN_LANG")
        .env_remove("XDG_DATA_HOME")
        .env_remove("XDG_CONFIG_HOME")
        .env("HOME", home.path())
        .env("LANG", "C")
        .env("LC_ALL", "C")
        .env("ROCM_LEARN_DATA_DIR", home.path().join("data"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("rocm-learn {args:?} did not finish within 60 seconds");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    common::Run::from(child.wait_with_output().unwrap())
}

/// Does this machine have an AMD GPU? (CI's has none; a lent GPU machine would.)
fn machine_has_amd_gpu() -> bool {
    std::fs::read_dir("/sys/bus/pci/devices")
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .any(|e| {
            let read = |f: &str| std::fs::read_to_string(e.path().join(f)).unwrap_or_default();
            let class = read("class");
            read("vendor").trim() == "0x1002"
                && (class.starts_with("0x03") || class.starts_with("0x12"))
        })
}

#[test]
fn the_real_binary_runs_read_only_on_this_machine_and_exits_0() {
    let home = tempfile::tempdir().unwrap();
    let out = run_binary_in(&["doctor"], &home);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    has(&out.stdout, "Nothing is changed");
    // Nothing written where the program keeps its own files either (no progress, no settings).
    let written: Vec<_> = std::fs::read_dir(home.path()).unwrap().collect();
    assert!(written.is_empty(), "doctor wrote {written:?}");
    // The summary counts exactly the findings printed above it.
    let count = |tag: &str| {
        out.stdout
            .lines()
            .filter(|l| l.starts_with(&format!("[{tag}] ")))
            .count()
    };
    let (problems, ok, unknown) = (count("problem"), count("ok"), count("cannot tell"));
    assert!(problems + ok + unknown >= 1, "{}", out.stdout);
    let summary = out.stdout.lines().rfind(|l| !l.is_empty()).unwrap();
    let first = match problems {
        0 => "No problems".to_string(),
        1 => "1 problem".to_string(),
        n => format!("{n} problems"),
    };
    assert_eq!(
        summary,
        format!("{first}, {ok} ok, {unknown} cannot tell."),
        "{}",
        out.stdout
    );
    let gpu_line = out.stdout.lines().find(|l| l.starts_with('[')).unwrap();
    if machine_has_amd_gpu() {
        assert!(
            gpu_line.starts_with("[ok] AMD GPU on the PCI bus"),
            "{}",
            out.stdout
        );
    } else {
        assert!(
            gpu_line.starts_with("[problem] No AMD GPU found"),
            "{}",
            out.stdout
        );
        assert_eq!((problems, ok, unknown), (1, 0, 0), "{}", out.stdout);
    }
}

#[test]
fn the_real_binary_prints_json_that_parses() {
    let out = run_binary(&["doctor", "--json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).expect("doctor --json is JSON");
    let list = v["findings"].as_array().unwrap();
    assert_eq!(list[0]["id"], "gpu");
    for f in list {
        assert!(f["id"].is_string() && f["message"].is_string(), "{f}");
        assert!(["ok", "problem", "unknown"].contains(&f["level"].as_str().unwrap()));
    }
    let message = list[0]["message"].as_str().unwrap();
    if machine_has_amd_gpu() {
        assert_eq!(list[0]["level"], "ok", "{message}");
        assert!(message.starts_with("AMD GPU on the PCI bus"), "{message}");
    } else {
        assert_eq!(list[0]["level"], "problem");
        assert!(message.starts_with("No AMD GPU found"), "{message}");
        assert_eq!(list.len(), 1, "one finding without a GPU: {list:?}");
    }
}

#[test]
fn doctor_help_offers_json() {
    let out = run_binary(&["doctor", "--help"]);
    assert_eq!(out.code, 0);
    has(&out.stdout, "--json");
}

/// A Linux machine for `doctor --labs`: bwrap on PATH, Ubuntu 24.04's AppArmor restriction on.
fn labs_machine() -> Machine {
    let m = Machine {
        dir: tempfile::tempdir().unwrap(),
        user: "ana".into(),
        uid: 1000,
        gids: vec![1000],
        path: Some("/usr/local/bin:/usr/bin:/bin".into()),
        kernel: Some("6.8.0-52-generic".into()),
        nodes: BTreeMap::new(),
        rocminfo: String::new(),
        rocminfo_code: 0,
    };
    m.exe("/usr/bin/bwrap");
    m.write("/proc/sys/user/max_user_namespaces", "63416\n");
    m.write(
        "/proc/sys/kernel/apparmor_restrict_unprivileged_userns",
        "1\n",
    );
    m.write(
        "/sys/kernel/security/lsm",
        "lockdown,capability,landlock,yama,apparmor\n",
    );
    m
}

fn labs_findings(m: &Machine, os: doctor::labs::Os) -> Vec<Finding> {
    let kernel = doctor::labs::Kernel { landlock: Some(7) };
    doctor::labs::examine(&m.host(), os, kernel, &|| Ok(()))
}

#[test]
fn labs_check_names_the_apparmor_restriction_and_the_profile_that_lifts_it_for_bwrap() {
    let m = labs_machine();
    let f = labs_findings(&m, doctor::labs::Os::Linux);
    let apparmor = find(&f, "apparmor");
    assert_eq!(apparmor.level, Level::Problem);
    let fix = en().msg(apparmor.fix.as_ref().unwrap());
    has(&fix, "--apparmor-profile | sudo tee /etc/apparmor.d/bwrap");
    assert_eq!(find(&f, "sandbox").level, Level::Unknown, "not tried");
    // The shipped profile, once installed, is recognised.
    m.write("/etc/apparmor.d/bwrap", doctor::labs::APPARMOR_PROFILE);
    let f = labs_findings(&m, doctor::labs::Os::Linux);
    assert!(f.iter().all(|x| x.level == Level::Ok), "{f:#?}");
}

#[test]
fn labs_check_without_bwrap_or_user_namespaces_says_how_to_get_them() {
    let m = labs_machine();
    m.remove("/usr/bin/bwrap");
    m.write("/proc/sys/user/max_user_namespaces", "0\n");
    let f = labs_findings(&m, doctor::labs::Os::Linux);
    let bwrap = en().msg(find(&f, "bwrap").fix.as_ref().unwrap());
    has(&bwrap, "sudo apt install bubblewrap");
    let userns = en().msg(find(&f, "userns").fix.as_ref().unwrap());
    has(&userns, "user.max_user_namespaces");
}

#[test]
fn labs_check_on_macos_and_windows_points_to_a_linux_vm_or_wsl2() {
    let m = labs_machine();
    let mac = labs_findings(&m, doctor::labs::Os::MacOs);
    assert_eq!(mac.len(), 1);
    let fix = en().msg(mac[0].fix.as_ref().unwrap());
    assert!(
        fix.contains("Linux virtual machine") && !fix.contains("apt"),
        "{fix}"
    );
    let win = labs_findings(&m, doctor::labs::Os::Windows);
    let fix = en().msg(win[0].fix.as_ref().unwrap());
    has(&fix, "wsl --install");
}

#[test]
fn labs_check_asks_the_kernel_about_landlock_not_the_lsm_file() {
    let m = labs_machine();
    m.write("/etc/apparmor.d/bwrap", doctor::labs::APPARMOR_PROFILE);
    // The list in /sys may be missing or stale; the kernel's answer is what a lab gets.
    m.write("/sys/kernel/security/lsm", "lockdown,capability,yama\n");
    let on = doctor::labs::Kernel { landlock: Some(7) };
    let f = doctor::labs::examine(&m.host(), doctor::labs::Os::Linux, on, &|| Ok(()));
    assert_eq!(find(&f, "landlock").level, Level::Ok);
    has(
        &en().msg(&find(&f, "landlock").msg),
        "enforced by this kernel (ABI 7)",
    );
    m.write(
        "/sys/kernel/security/lsm",
        "lockdown,capability,landlock,yama\n",
    );
    let off = doctor::labs::Kernel { landlock: None };
    let f = doctor::labs::examine(&m.host(), doctor::labs::Os::Linux, off, &|| Ok(()));
    assert_eq!(find(&f, "landlock").level, Level::Unknown);
    has(&en().msg(&find(&f, "landlock").msg), "refuses Landlock");
}

#[test]
fn labs_check_on_this_machine_says_what_the_labs_own_probe_finds() {
    let out = run_binary(&["doctor", "--labs", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).expect(&out.stdout);
    let landlock = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["id"] == "landlock")
        .expect("a landlock finding");
    let enforced = rocm_learn::sys::landlock_abi().is_some();
    assert_eq!(landlock["level"] == "ok", enforced, "{landlock}");
}
