//! kmod's `insmod`, `rmmod` and `modinfo` for amdgpu. `rmmod` refuses a module in use like
//! `modprobe -r`; `insmod` of amdgpu's file fails as it does for real, since insmod does not
//! load the modules amdgpu needs first (that is modprobe's job).

use super::super::Ctx;
use super::super::state::Driver;
use super::lsmod;

fn module_path(cx: &Ctx) -> Option<String> {
    let kernel = &cx.state.machine.kernel;
    let ext = if cx.state.machine.os.codename == "noble" {
        ".ko.zst"
    } else {
        ".ko"
    };
    Some(match cx.state.loadable_driver()? {
        Driver::InTree => {
            format!("/lib/modules/{kernel}/kernel/drivers/gpu/drm/amd/amdgpu/amdgpu{ext}")
        }
        Driver::Dkms { .. } => format!("/lib/modules/{kernel}/updates/dkms/amdgpu{ext}"),
    })
}

pub fn rmmod(cx: &mut Ctx, args: &[String]) -> i32 {
    let names: Vec<&String> = args.iter().filter(|a| !a.starts_with('-')).collect();
    if names.is_empty() {
        cx.eprintln("rmmod: ERROR: missing module name.");
        return 1;
    }
    for n in names {
        let name = n
            .rsplit('/')
            .next()
            .unwrap_or(n)
            .trim_end_matches(".zst")
            .trim_end_matches(".ko")
            .replace('-', "_");
        let loaded = lsmod::loaded(cx.state);
        let Some(m) = loaded.iter().find(|m| m.name == name) else {
            cx.eprintln(&format!(
                "rmmod: ERROR: Module {name} is not currently loaded"
            ));
            return 1;
        };
        if !cx.caller.is_root() {
            cx.eprintln(&format!(
                "rmmod: ERROR: could not remove module {name}: Operation not permitted"
            ));
            return 1;
        }
        if !m.holders.is_empty() {
            let h = m.holders.join(",");
            cx.eprintln(&format!("rmmod: ERROR: Module {name} is in use by: {h}"));
            return 1;
        }
        if m.used > 0 {
            cx.eprintln(&format!("rmmod: ERROR: Module {name} is in use"));
            return 1;
        }
        if name == "amdgpu" {
            cx.state.unload_driver();
        }
    }
    0
}

pub fn insmod(cx: &mut Ctx, args: &[String]) -> i32 {
    let Some(file) = args.iter().find(|a| !a.starts_with('-')) else {
        cx.eprintln("insmod: ERROR: missing filename.");
        return 1;
    };
    let base = file.rsplit('/').next().unwrap_or(file);
    let is_amdgpu = base.starts_with("amdgpu.ko");
    let exists = cx.host(file).is_file()
        || (is_amdgpu && module_path(cx).is_some_and(|p| cx.host(&p) == cx.host(file)));
    if !exists {
        cx.eprintln(&format!(
            "insmod: ERROR: could not load module {file}: No such file or directory"
        ));
        return 1;
    }
    if !cx.caller.is_root() {
        cx.eprintln(&format!(
            "insmod: ERROR: could not insert module {file}: Operation not permitted"
        ));
        return 1;
    }
    if is_amdgpu && cx.state.driver.is_some() {
        cx.eprintln(&format!(
            "insmod: ERROR: could not insert module {file}: File exists"
        ));
        return 1;
    }
    cx.eprintln(&format!(
        "insmod: ERROR: could not insert module {file}: Unknown symbol in module"
    ));
    1
}

pub fn modinfo(cx: &mut Ctx, args: &[String]) -> i32 {
    let mut field: Option<String> = None;
    let mut names = Vec::new();
    let args = super::split_short(args, "Fk");
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "-F" | "--field" => {
                i += 1;
                field = args.get(i).cloned();
            }
            o if o.starts_with("--field=") => field = Some(o["--field=".len()..].to_string()),
            o if o.starts_with('-') => {}
            n => names.push(n.to_string()),
        }
        i += 1;
    }
    if names.is_empty() {
        cx.eprintln("modinfo: ERROR: missing module or filename.");
        return 1;
    }
    let mut code = 0;
    for n in names {
        let name = n.replace('-', "_");
        let path = (name == "amdgpu").then(|| module_path(cx)).flatten();
        let Some(path) = path else {
            cx.eprintln(&format!("modinfo: ERROR: Module {n} not found."));
            code = 1;
            continue;
        };
        let kernel = cx.state.machine.kernel.clone();
        let dkms = matches!(cx.state.loadable_driver(), Some(Driver::Dkms { .. }));
        let mut rows: Vec<(&str, String)> = vec![("filename", path)];
        if let Some(Driver::Dkms { version }) = cx.state.loadable_driver() {
            rows.push(("version", version));
        }
        rows.extend([
            ("license", "GPL and additional rights".to_string()),
            ("description", "AMD GPU".to_string()),
            ("author", "AMD linux driver team".to_string()),
        ]);
        for g in &cx.state.machine.gpus {
            let (_, dev) = g.pci.ids.split_once(':').unwrap_or(("", ""));
            rows.push((
                "alias",
                format!("pci:v00001002d0000{}sv*sd*bc*sc*i*", dev.to_uppercase()),
            ));
        }
        rows.push(("depends", if dkms {
            "amddrm_ttm_helper,amdttm,amdxcp,amddrm_buddy,amd-sched,amdkcl,i2c-algo-bit,drm_display_helper,video".to_string()
        } else {
            "drm_exec,amdxcp,drm_buddy,gpu-sched,drm_suballoc_helper,drm_ttm_helper,ttm,i2c-algo-bit,drm_display_helper,video".to_string()
        }));
        rows.push(("retpoline", "Y".into()));
        if !dkms {
            rows.push(("intree", "Y".into()));
        }
        rows.push(("name", "amdgpu".into()));
        rows.push((
            "vermagic",
            format!("{kernel} SMP preempt mod_unload modversions "),
        ));
        if let Some(f) = &field {
            for (k, v) in &rows {
                if k == f {
                    cx.println(v);
                }
            }
        } else {
            for (k, v) in &rows {
                cx.println(&format!("{:<16}{v}", format!("{k}:")));
            }
        }
    }
    code
}
