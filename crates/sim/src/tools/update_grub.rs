//! `update-grub`: regenerates grub.cfg from /etc/default/grub, which is what makes a change of
//! `GRUB_CMDLINE_LINUX_DEFAULT` reach the next boot's kernel command line. Like grub-mkconfig,
//! it writes its progress on stderr.

use super::super::Ctx;
use super::super::kernel;

pub fn run(cx: &mut Ctx, args: &[String]) -> i32 {
    if let Some(a) = args.first() {
        cx.eprintln(&format!("grub-mkconfig: unrecognized option '{a}'"));
        cx.eprintln("Usage: grub-mkconfig [OPTION]");
        cx.eprintln("Try 'grub-mkconfig --help' for more information.");
        return 1;
    }
    if !cx.caller.is_root() {
        cx.eprintln("grub-mkconfig: You must run this as root");
        return 1;
    }
    let root = cx.root;
    let line = kernel::cmdline_from_grub(root, cx.state);
    cx.state.boot.grub_cmdline = line;
    let k = cx.state.machine.kernel.clone();
    cx.eprintln("Sourcing file `/etc/default/grub'");
    cx.eprintln("Generating grub configuration file ...");
    cx.eprintln(&format!("Found linux image: /boot/vmlinuz-{k}"));
    cx.eprintln(&format!("Found initrd image: /boot/initrd.img-{k}"));
    cx.eprintln("Warning: os-prober will not be executed to detect other bootable partitions.");
    cx.eprintln("Systems on them will not be added to the GRUB boot configuration.");
    cx.eprintln("Check GRUB_DISABLE_OS_PROBER documentation entry.");
    cx.eprintln("Adding boot menu entry for UEFI Firmware Settings ...");
    cx.eprintln("done");
    0
}
