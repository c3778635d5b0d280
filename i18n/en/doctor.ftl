# rocm-learn doctor: the lab checks on this real machine, read-only.
# Commands, paths, group names and tool output stay as they are in every language.

doctor-title = rocm-learn doctor: this machine's ROCm setup, checked from the ground floor up. Nothing is changed.
doctor-level-ok = ok
doctor-level-problem = problem
doctor-level-unknown = cannot tell
doctor-fix = Fix: { $text }
doctor-fix-same = Fix: the same as above.
doctor-learn-more = Learn more: { $command }
doctor-summary = { $problems ->
    [0] No problems
    [one] 1 problem
   *[other] { $problems } problems
}, { $ok } ok, { $unknown } cannot tell.

# A check that needs a floor below it.
doctor-needs-driver = { $check ->
    [kfd] /dev/kfd
    [kfd_access] Access to /dev/kfd
    [render] The render nodes (/dev/dri/renderD*)
    [rocminfo] rocminfo
    [amd_smi] amd-smi
   *[other] { $check }
}: cannot tell while the amdgpu driver is not loaded. Fix the driver first; everything above it depends on it.

# 1F: the GPU on the PCI bus
doctor-gpu-found = AMD GPU on the PCI bus: { $count ->
    [one] 1 device
   *[other] { $count } devices
} ({ $list }).
doctor-gpu-none = No AMD GPU found: the PCI bus lists no AMD display controller or processing accelerator. ROCm runs programs on an AMD GPU, so the driver, device, group and ROCm checks have nothing to look at on this machine and are left out.
doctor-gpu-none-fix = If this is not the GPU node, run rocm-learn doctor on that node. If it is, check that the card is seated, powered and enabled in the BIOS: lspci -d 1002: must list it before any software can help.
doctor-gpu-unreadable = Cannot tell whether there is an AMD GPU: { $path } cannot be read ({ $error }). In a container without /sys, run doctor on the host.

# 2F: the driver
doctor-amdgpu-dkms = The amdgpu driver is loaded: AMD's DKMS build, version { $version }.
doctor-amdgpu-intree = The amdgpu driver is loaded: the one that came with kernel { $kernel }.
doctor-amdgpu-builtin = The amdgpu driver is built into kernel { $kernel }.
doctor-amdgpu-state = The amdgpu module is in state "{ $state }", not "live": it is still loading, or being removed.
doctor-amdgpu-not-loaded = The amdgpu kernel module is not loaded: the GPU is on the bus, but nothing drives it.
doctor-amdgpu-not-loaded-fix = sudo modprobe amdgpu, then echo amdgpu | sudo tee /etc/modules-load.d/amdgpu.conf so it loads at every boot. If modprobe answers "Module amdgpu not found", install the driver for kernel { $kernel }.
doctor-amdgpu-not-built = The amdgpu kernel module is not loaded, and kernel { $kernel } has no amdgpu module to load: neither the kernel's own nor AMD's DKMS build is listed in /lib/modules/{ $kernel }.
doctor-amdgpu-not-built-fix = Install the headers for this kernel and let DKMS build the driver: sudo apt install linux-headers-{ $kernel }, then reinstall amdgpu-dkms. dkms status must list { $kernel }; then sudo modprobe amdgpu.
doctor-amdgpu-blocked = The amdgpu kernel module is not loaded, and { $place } keeps it from loading: { $line }
doctor-amdgpu-blocked-fix = Remove that setting (for a kernel parameter, in /etc/default/grub, then sudo update-grub and reboot), then sudo modprobe amdgpu.
doctor-dmesg-fix = The driver's own messages say why: sudo dmesg | grep -iE 'amdgpu|kfd'

# 2F: the device nodes and who may open them
doctor-kfd-present = /dev/kfd exists (group { $group }, mode { $mode }).
doctor-kfd-missing = The amdgpu driver is loaded, but /dev/kfd does not exist, so no ROCm program can start. The driver found no GPU it can use for compute, or failed to set it up.
doctor-access-no-kfd = Access to /dev/kfd: cannot tell, because the file does not exist.
doctor-open-ok = { $user } can open { $device } read-write.
doctor-open-missing = { $device } disappeared while doctor was opening it.
doctor-open-error = Opening { $device } read-write failed: { $error }
doctor-denied-not-member = { $user } cannot open { $device } read-write (Permission denied). It belongs to group { $group } with mode { $mode }, and /etc/group does not list { $user } in { $group }.
doctor-denied-not-member-fix = sudo usermod -aG { $groups } { $user }, then log out and in again. Keep the -a: without it, usermod replaces all of { $user }'s other groups.
doctor-denied-relogin = { $user } cannot open { $device } read-write (Permission denied). /etc/group does list { $user } in { $group }, but this login started before that change, so it does not have the group yet.
doctor-relogin-fix = Log out and in again: every terminal, SSH connection and tmux server that started before the change keeps the old groups. For one shell right now: newgrp { $group }. Then id -nG must show { $group }.
doctor-denied-closed = { $user } cannot open { $device } read-write (Permission denied). Its mode { $mode } lets only the owner { $owner } in: the group { $group } gets no read-write access, so joining a group does not help.
doctor-denied-closed-fix = Fix the node's mode with a udev rule, for example in /etc/udev/rules.d/70-amdgpu.rules: KERNEL=="kfd", GROUP="render", MODE="0660" (and SUBSYSTEM=="drm", KERNEL=="renderD*", GROUP="render", MODE="0660"), then sudo udevadm control --reload-rules && sudo udevadm trigger
doctor-denied-other = { $user } cannot open { $device } read-write (Permission denied), although this login has group { $group } and the mode { $mode } lets the group in. Something beyond the file mode refuses: an ACL, SELinux or AppArmor, or a container started without the device.
doctor-denied-other-fix = Look at getfacl { $device } and at sudo dmesg | tail for a denial; in a container, pass the device in (for example --device=/dev/kfd --device=/dev/dri).
doctor-render-none = The amdgpu driver is loaded, but /dev/dri has no render node (renderD*) for an AMD GPU.
doctor-render-ok = { $user } can open { $count ->
    [one] the render node
   *[other] all { $count } render nodes
} read-write ({ $list }).

# The groups of this login against /etc/group
doctor-groups-unreadable = Cannot tell which groups /etc/group gives this user: /etc/group cannot be read.
doctor-groups-relogin = /etc/group lists { $user } in { $groups }, but this login does not have { $count ->
    [one] that group
   *[other] those groups
} yet: it started before the change. Programs started from it cannot use the GPU through { $groups }.
doctor-groups-match = This login has the GPU groups /etc/group gives { $user }: { $groups ->
    [none] none of render and video (see /dev/kfd above for whether that matters here)
   *[other] { $groups }
}.

# ROCm and PATH
doctor-rocm-found = ROCm { $version } is installed in { $dir }.{ $others ->
    [none] {""}
   *[other] {" "}Also present: { $others }.
}
doctor-rocm-noversion = ROCm is installed in { $dir }, but its version cannot be read: there is no .info/version, and the folder is not named rocm-X.Y.Z.{ $others ->
    [none] {""}
   *[other] {" "}Also present: { $others }.
}
doctor-rocm-none = ROCm is not installed: there is no /opt/rocm.
doctor-rocm-none-fix = Install it as the deployment lesson shows: AMD's repository for this OS, the kernel headers, then sudo apt install amdgpu-dkms rocm (or amdgpu-install --usecase=rocm), and reboot.
doctor-path-ok = PATH includes { $dir }: hipcc, rocminfo and the other ROCm tools are found by name.
doctor-path-missing = ROCm's programs are in { $dir }, which is not on PATH: typing hipcc or rocminfo answers "command not found".
doctor-path-missing-fix = export PATH=$PATH:{ $dir } for this shell, and put that line in ~/.bashrc or /etc/profile.d/rocm.sh so every new login has it.
doctor-path-no-rocm = PATH: cannot tell which folder to look for, because ROCm is not installed.
doctor-path-unset = PATH is not set for this program, so it cannot tell what a shell would find.

# 3F: rocminfo and amd-smi
doctor-tool-no-rocm = { $tool }: cannot tell, because ROCm is not installed.
doctor-tool-timeout = { $tool } did not finish within { $secs } seconds, so doctor stopped it. A hanging tool often means a driver or firmware problem: look at sudo dmesg.
doctor-tool-failed = { $tool } could not be started: { $error }
doctor-rocminfo-ok = rocminfo ({ $path }) lists { $count ->
    [one] 1 GPU agent
   *[other] { $count } GPU agents
}: { $names }.
doctor-rocminfo-missing = rocminfo is not installed: it is neither on PATH nor in ROCm's bin folder.
doctor-rocminfo-missing-fix = sudo apt install rocminfo (dnf or zypper on other distributions).
doctor-rocminfo-no-module = rocminfo says: "{ $line }". The runtime sees no driver.
doctor-rocminfo-kfd = rocminfo cannot open /dev/kfd: "{ $line }". Every ROCm program fails the same way (often only as "hsa_init() failed"); the /dev/kfd finding above says why.
doctor-rocminfo-failed = rocminfo ended with status { $code }: "{ $line }"
doctor-rocminfo-no-agent = rocminfo ran but lists no GPU agent: the runtime started and found no GPU it can use.
doctor-amdsmi-ok = amd-smi ({ $path }) lists { $count ->
    [one] 1 GPU
   *[other] { $count } GPUs
}.
doctor-amdsmi-none = amd-smi lists no GPU: "{ $line }"
doctor-amdsmi-missing = amd-smi is not installed. It ships with ROCm 6.0 and later (package amd-smi-lib); older nodes have rocm-smi instead.

# The operating system and the support matrix
doctor-os-listed = { $pretty }, kernel { $kernel }: the course's support matrix lists this OS for ROCm { $releases }.
doctor-os-unlisted = { $pretty }, kernel { $kernel }: the course's support matrix lists this OS for none of the releases it knows ({ $releases }).
doctor-os-unlisted-fix = ROCm may still work here, but nobody tested it. For a production node, pick an operating system the support matrix lists for your GPU.
doctor-os-unreadable = Cannot tell which operating system this is: /etc/os-release cannot be read (kernel { $kernel }).
doctor-support-no-isa = Cannot tell which GPU model this is: the driver's topology (/sys/class/kfd) is not there and rocminfo named no ISA, so it cannot be looked up in the support matrix.
doctor-support-no-os = Cannot look the GPU up in the support matrix: the operating system is unknown.
doctor-support-no-data = Cannot tell: the course has no support-matrix data.
doctor-support-no-release = Cannot tell: the course's support matrix has no data for ROCm { $release } (it knows { $known }). AMD's compatibility tables for that release have the answer.
doctor-support-ok = { $gpu } ({ $name }) on { $os } with ROCm { $release }{ $planned ->
    [yes] {" "}(not installed; the newest release the course knows)
   *[other] {""}
}: supported.
doctor-support-deprecated = { $gpu } ({ $name }) on { $os } with ROCm { $release }{ $planned ->
    [yes] {" "}(not installed; the newest release the course knows)
   *[other] {""}
}: deprecated. It still works, but gets no new features, and a later release will drop it: plan the move.
doctor-support-unsupported = { $gpu } ({ $name }) on { $os } with ROCm { $release }{ $planned ->
    [yes] {" "}(not installed; the newest release the course knows)
   *[other] {""}
}: unsupported. { $why ->
    [unlisted] This release does not list the GPU at all.
    [os] This release supports the GPU, but not on this operating system.
   *[other] The support matrix marks the GPU unsupported in this release.
} The HIP runtime may still run programs, but the prebuilt libraries are not supported here and can fail at run time, for example with "invalid device function" when they carry no code for this GPU.
doctor-support-fix = Choose a combination the support matrix marks supported (the support matrix is on rocm-learn's home screen): another ROCm release, another operating system, or another GPU.
