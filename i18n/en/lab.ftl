# Labs: the sandbox, the shell, the checklist.

lab-no-bwrap = Labs run the shell inside bubblewrap, which is not installed. Install it (Debian and Ubuntu: sudo apt install bubblewrap; Fedora: sudo dnf install bubblewrap; Arch: sudo pacman -S bubblewrap) and open the lab again. rocm-learn never runs the lab shell without a sandbox.
lab-userns-apparmor = bubblewrap may not create a user namespace here: AppArmor restricts unprivileged user namespaces (Ubuntu 24.04 does this by default). Either allow them for everyone with sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0, or give bwrap an AppArmor profile that allows "userns" (see /etc/apparmor.d/ on your system). bubblewrap said: { $error }
lab-userns-disabled = bubblewrap may not create namespaces on this system; user namespaces are probably turned off. Turn them on with sudo sysctl -w kernel.unprivileged_userns_clone=1 (or user.max_user_namespaces above 0), or run rocm-learn on a machine that allows them. bubblewrap said: { $error }
lab-bwrap-failed = bubblewrap could not start the lab sandbox: { $error }. rocm-learn does not run the lab shell without a sandbox.
