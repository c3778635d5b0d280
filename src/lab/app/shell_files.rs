//! Shell code the lab installs in its stage (`/etc/rocm-lab/`), and the learner's dotfiles.

use crate::lab::wire::layout::SIM_BIN;

/// Runs before every prompt, sourced by `PROMPT_COMMAND` (see `PROMPT_COMMAND`): sends one
/// record to the supervisor on the login's socket (fd 99, `protocol::SHELL_FD`; see
/// `record.rs`) and gives `$?` back. Session and uid are left to the supervisor, which knows
/// them from the sending process. A shell's first record also carries its exported variables,
/// gathered with builtins only (no program runs): that is how the supervisor learns what a new
/// login gets, from a login started exactly like the learner's (`supervisor::probe_login`).
pub const HOOK: &str = r#"__rl_h=$(HISTTIMEFORMAT= builtin history 1)
__rl_h="${__rl_h#"${__rl_h%%[![:space:]]*}"}"
__rl_n="${__rl_h%%[[:space:]]*}"
__rl_c="${__rl_h#"$__rl_n"}"
__rl_c="${__rl_c#"${__rl_c%%[![:space:]]*}"}"
__rl_seq=$(( ${__rl_seq:-0} + 1 ))
__rl_e=
if [ "$__rl_seq" = 1 ]; then
  for __rl_k in ${!A@} ${!B@} ${!C@} ${!D@} ${!E@} ${!F@} ${!G@} ${!H@} ${!I@} ${!J@} ${!K@} ${!L@} ${!M@} ${!N@} ${!O@} ${!P@} ${!Q@} ${!R@} ${!S@} ${!T@} ${!U@} ${!V@} ${!W@} ${!X@} ${!Y@} ${!Z@} ${!_@} ${!a@} ${!b@} ${!c@} ${!d@} ${!e@} ${!f@} ${!g@} ${!h@} ${!i@} ${!j@} ${!k@} ${!l@} ${!m@} ${!n@} ${!o@} ${!p@} ${!q@} ${!r@} ${!s@} ${!t@} ${!u@} ${!v@} ${!w@} ${!x@} ${!y@} ${!z@}; do
    case ${!__rl_k@a} in *x*) ;; *) continue ;; esac
    __rl_v=${!__rl_k}
    __rl_v=${__rl_v//\\/\\\\}
    __rl_v=${__rl_v//$'\035'/\\g}
    __rl_v=${__rl_v//$'\036'/\\r}
    __rl_v=${__rl_v//$'\037'/\\u}
    __rl_e+="$__rl_k=$__rl_v"$'\035'
  done
fi
{ printf 'v2\037%s\037%s\037%s\037%s\037%s\037%s\037%s\037%s\037%s\037%s\036' \
  "$__rl_seq" "${__rl_n:-0}" "$__rl_s" "$__rl_p" "" "$EUID" "$PWD" "$PATH" "$__rl_c" "$__rl_e" >&99; } 2>/dev/null
unset __rl_e __rl_k __rl_v
return $__rl_s
"#;

/// Captures `$?` and `PIPESTATUS` in its first words, before anything can change them, then
/// sources the hook. A plain string, so it survives shells that drop exported functions (dash
/// runs the tool wrappers, and `sudo su -` passes through them).
pub const PROMPT_COMMAND: &str = r#"__rl_s=$? __rl_p="${PIPESTATUS[*]}"; . /etc/rocm-lab/hook.sh"#;

/// ~/.profile as Ubuntu ships it (trimmed): a login shell reads ~/.bashrc through it.
pub const PROFILE: &str = r#"# ~/.profile: executed by the command interpreter for login shells.
if [ -n "$BASH_VERSION" ]; then
    if [ -f "$HOME/.bashrc" ]; then
        . "$HOME/.bashrc"
    fi
fi
if [ -d "$HOME/bin" ] ; then
    PATH="$HOME/bin:$PATH"
fi
if [ -d "$HOME/.local/bin" ] ; then
    PATH="$HOME/.local/bin:$PATH"
fi
"#;

/// ~/.bashrc as Ubuntu ships it (trimmed to what matters in a lab).
pub const BASHRC: &str = r#"# ~/.bashrc: executed by bash(1) for non-login shells.
case $- in
    *i*) ;;
      *) return;;
esac
HISTCONTROL=ignoreboth
shopt -s histappend
HISTSIZE=1000
HISTFILESIZE=2000
shopt -s checkwinsize
PS1='\[\033[01;32m\]\u@\h\[\033[00m\]:\[\033[01;34m\]\w\[\033[00m\]\$ '
alias ls='ls --color=auto'
alias grep='grep --color=auto'
alias ll='ls -alF'
"#;

/// /etc/profile as Ubuntu ships it: PATH comes from /etc/environment at login (pam_env, which
/// the login loop stands in for), then /etc/profile.d/*.sh are read.
pub const ETC_PROFILE: &str = r#"# /etc/profile: system-wide .profile file for the Bourne shell (sh(1))
if [ "${PS1-}" ]; then
  if [ "${BASH-}" ] && [ "$BASH" != "/bin/sh" ]; then
    if [ -f /etc/bash.bashrc ]; then
      . /etc/bash.bashrc
    fi
  fi
fi
if [ -d /etc/profile.d ]; then
  for i in /etc/profile.d/*.sh; do
    if [ -r $i ]; then
      . $i
    fi
  done
  unset i
fi
"#;

/// /etc/environment as Ubuntu ships it.
pub const ETC_ENVIRONMENT: &str = "PATH=\"/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/usr/games:/usr/local/games:/snap/bin\"\n";

/// A wrapper that runs one of the simulated tools (what it is: `sim::wrappers`).
pub fn wrapper(tool: &str) -> String {
    crate::sim::wrappers::wrapper(SIM_BIN, tool)
}
