# Step reasons of the container and GPU-choice labs (issue 16).
lab-why-container-none = No container has run rocminfo yet. Run one with the image and rocminfo at the end, e.g. sudo docker run ... rocm/rocm-terminal rocminfo
lab-why-container-gpus = Docker refused --gpus ({ $error }): that flag asks for NVIDIA's container runtime. AMD GPUs are handed over as device nodes: --device=/dev/kfd --device=/dev/dri.
lab-why-container-no-kfd = The last container that ran rocminfo had no /dev/kfd. Hand it over with --device=/dev/kfd.
lab-why-container-no-render = The last container that ran rocminfo had /dev/kfd but no render node. Add --device=/dev/dri (or one node, such as --device=/dev/dri/renderD128).
lab-why-container-group = The container's process did not hold the host's render group (gid { $gid }), which owns /dev/kfd. Names are looked up inside the image: pass the number, --group-add $(getent group render | cut -d: -f3).
lab-why-container-root = The container ran as root, which opens any device. Run the image's own user and give it the host's render gid with --group-add instead.
lab-why-container-no-gpu = rocminfo in the last container found no GPU ({ $error }).
lab-why-login-no-gpu = A new login would make no GPU visible to ROCm programs. Check the *_VISIBLE_DEVICES values in your login files against the device numbers rocminfo shows.
lab-why-login-igpu = A new login still shows ROCm the integrated GPU ({ $name }, { $gfx }). ROCm does not support it: hide it, e.g. export ROCR_VISIBLE_DEVICES=1 in ~/.bashrc.
lab-why-login-no-binary = In a new login PyTorch would stop with hipErrorNoBinaryForGpu: the wheel has no code for a GPU the login can see. Set HSA_OVERRIDE_GFX_VERSION for the card in a login file.
lab-why-login-override-no-binary = A new login sets HSA_OVERRIDE_GFX_VERSION={ $value }, but the PyTorch wheel has no code for that version either, so it still stops with hipErrorNoBinaryForGpu. Name a version the wheel is built for in the same generation: 10.3.0.
lab-why-login-wrong-override = In a new login the { $gfx } GPU would run code built for { $isa }, another generation: the first kernel fails with "invalid device function". Override to the same generation, 10.3.0 for gfx1031.
lab-why-no-torch = PyTorch is not installed for learner.
lab-why-login-bad-override = HSA_OVERRIDE_GFX_VERSION="{ $value }" is not a version: the runtime wants major.minor.stepping, such as 10.3.0.
lab-why-boot-blacklist = At the next boot amdgpu would still be skipped: a blacklist forbids it (grep -r amdgpu /etc/modprobe.d, and modprobe.blacklist= on the kernel command line). Loading it by hand does not survive a reboot.
lab-why-boot-nomodeset = At the next boot the kernel command line would still carry nomodeset, and amdgpu refuses to start. Remove it from GRUB_CMDLINE_LINUX_DEFAULT in /etc/default/grub, then run sudo update-grub.
lab-why-boot-update-grub = /etc/default/grub no longer has nomodeset, but the boot loader still passes it: run sudo update-grub to regenerate its configuration.
lab-why-boot-other = At the next boot amdgpu would still not come up. Read the kernel log (sudo dmesg, journalctl -k) for the reason.
