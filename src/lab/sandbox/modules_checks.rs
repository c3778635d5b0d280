//! Checks of the container and GPU-choice labs: what the container runtime gave the last
//! container that ran rocminfo, and what a new login's environment makes PyTorch do.

use std::path::Path;

use crate::content::{Check, Msg};
use crate::sim::State;
use crate::sim::tools::docker::{self, Run};
use crate::sim::tools::python3::{self, Start};

/// The container checks, on the most recent run of rocminfo in a container.
pub fn container(check: &Check, root: &Path) -> Result<(), Msg> {
    let runs = docker::runs(root);
    let run: &Run = runs
        .iter()
        .rev()
        .find(|r| r.ran_rocminfo())
        .ok_or_else(|| Msg::new("lab-why-container-none"))?;
    // `--gpus`: Docker looked for NVIDIA's runtime and started nothing.
    if let Some(e) = run
        .kfd_error
        .as_deref()
        .filter(|e| e.starts_with("could not select device driver"))
    {
        return Err(Msg::new("lab-why-container-gpus").arg("error", e));
    }
    match check {
        Check::ContainerDevices => {
            if !run.has_kfd() {
                Err(Msg::new("lab-why-container-no-kfd"))
            } else if run.render_nodes().is_empty() {
                Err(Msg::new("lab-why-container-no-render"))
            } else {
                Ok(())
            }
        }
        Check::ContainerRenderGroup => {
            if docker::holds_render(root, run) {
                Ok(())
            } else if run.uid == 0 {
                Err(Msg::new("lab-why-container-root"))
            } else {
                let gid = crate::sim::accounts::Groups::load(root)
                    .by_name("render")
                    .map(|g| g.gid.to_string())
                    .unwrap_or_default();
                Err(Msg::new("lab-why-container-group").arg("gid", gid))
            }
        }
        _ => {
            if run.gpus_found > 0 {
                Ok(())
            } else {
                let error = run
                    .kfd_error
                    .clone()
                    .unwrap_or_else(|| "no GPU agent".into());
                Err(Msg::new("lab-why-container-no-gpu").arg("error", error))
            }
        }
    }
}

/// The GPU-choice checks, on the environment a new login gets.
pub fn login_gpu(
    check: &Check,
    root: &Path,
    state: &State,
    env: &[(String, String)],
) -> Result<(), Msg> {
    let m = &state.machine;
    let visible = python3::visible_gpus(m, env);
    let integrated: Vec<usize> = visible
        .iter()
        .copied()
        .filter(|&i| python3::is_integrated(&m.gpus[i]))
        .collect();
    if let Check::LoginGpuSelected = check {
        return if visible.is_empty() {
            Err(Msg::new("lab-why-login-no-gpu"))
        } else if let Some(&i) = integrated.first() {
            Err(Msg::new("lab-why-login-igpu")
                .arg("name", &m.gpus[i].marketing_name)
                .arg("gfx", &m.gpus[i].gfx))
        } else {
            Ok(())
        };
    }
    // The login's own user: a lab may set `[machine] user`.
    let user = env
        .iter()
        .rev()
        .find(|(k, _)| k == "USER")
        .map_or("learner", |(_, v)| v.as_str());
    let torch = python3::find_torch(root, user).ok_or_else(|| Msg::new("lab-why-no-torch"))?;
    if let Some((_, v)) = env
        .iter()
        .rev()
        .find(|(k, _)| k == "HSA_OVERRIDE_GFX_VERSION")
        && python3::override_isa(v).is_none()
    {
        return Err(Msg::new("lab-why-login-bad-override").arg("value", v));
    }
    match python3::start(m, &torch, env, true) {
        Start::NoGpu => Err(Msg::new("lab-why-login-no-gpu")),
        // Set, but to a version the wheel has no code for either (10.3.1 for a gfx1031).
        Start::NoBinary => match env
            .iter()
            .rev()
            .find(|(k, _)| k == "HSA_OVERRIDE_GFX_VERSION")
        {
            Some((_, v)) => Err(Msg::new("lab-why-login-override-no-binary").arg("value", v)),
            None => Err(Msg::new("lab-why-login-no-binary")),
        },
        Start::Ready(devices) => {
            let (gpu, isa) = &devices[0];
            let g = &m.gpus[*gpu];
            if python3::is_integrated(g) {
                Err(Msg::new("lab-why-login-igpu")
                    .arg("name", &g.marketing_name)
                    .arg("gfx", &g.gfx))
            } else if !python3::runs_on(g, isa) {
                Err(Msg::new("lab-why-login-wrong-override")
                    .arg("gfx", &g.gfx)
                    .arg("isa", isa))
            } else {
                Ok(())
            }
        }
    }
}

/// The driver check of "a driver that will not load": what the next boot would do, and if
/// amdgpu would still stay out, which part of the configuration keeps it out.
pub fn next_boot(root: &Path, state: &State) -> Result<(), Msg> {
    use crate::sim::kernel;
    if kernel::next_boot_loads_amdgpu(state, root) {
        return Ok(());
    }
    let cmdline = &state.boot.grub_cmdline;
    if kernel::blacklisted(root, cmdline, "amdgpu") {
        Err(Msg::new("lab-why-boot-blacklist"))
    } else if kernel::nomodeset(cmdline) {
        if kernel::nomodeset(&kernel::cmdline_from_grub(root, state)) {
            Err(Msg::new("lab-why-boot-nomodeset"))
        } else {
            Err(Msg::new("lab-why-boot-update-grub"))
        }
    } else if state.loadable_driver().is_none() {
        // No amdgpu.ko for the running kernel: the DKMS build is for another kernel only.
        let kernel = &state.machine.kernel;
        Err(Msg::new("lab-why-boot-no-module").arg("kernel", kernel))
    } else {
        Err(Msg::new("lab-why-boot-other"))
    }
}
