//! Shell code the lab installs in its stage (`/etc/rocm-lab/`), and the learner's dotfiles.

/// The sandbox's first program: logs the learner in, again and again, like getty. Each login
/// asks the simulated machine for a new session (groups as /etc/group says *now*), then runs a
/// real login shell, which reads /etc/profile, /etc/profile.d and ~/.profile / ~/.bashrc.
pub const LOGIN_LOOP: &str = r#"# rocm-learn lab: one login after another, like getty.
. /etc/rocm-lab/hook.sh
export -f __rocm_lab_prompt
export PROMPT_COMMAND=__rocm_lab_prompt
while :; do
  ROCM_SIM_SESSION=$("$ROCM_SIM_BIN" sim login "$USER" 2>/dev/null) || ROCM_SIM_SESSION=
  export ROCM_SIM_SESSION
  cd "$HOME" 2>/dev/null || cd /
  # What pam_env does at a real login: PATH from /etc/environment, nothing from the last shell.
  PATH=$(sed -n 's/^PATH="\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' /etc/environment 2>/dev/null)
  export PATH="${PATH:-/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin}"
  bash --login -i
  printf '\n%s\n\n' "$ROCM_LAB_RELOGIN"
done
"#;

/// Runs before every prompt: sends one record to the app (see `record.rs`). It reads `$?` and
/// `PIPESTATUS` before anything else can change them, and gives `$?` back.
pub const HOOK: &str = r#"__rocm_lab_prompt() {
  local s=$? p="${PIPESTATUS[*]}" h n c
  h=$(HISTTIMEFORMAT= builtin history 1)
  h="${h#"${h%%[![:space:]]*}"}"
  n="${h%%[[:space:]]*}"
  c="${h#"$n"}"
  c="${c#"${c%%[![:space:]]*}"}"
  __rocm_lab_seq=$(( ${__rocm_lab_seq:-0} + 1 ))
  [ -n "$ROCM_LAB_EVENTS" ] && printf 'v1\037%s\037%s\037%s\037%s\037%s\037%s\037%s\037%s\037%s\036' \
    "$__rocm_lab_seq" "${n:-0}" "$s" "$p" "$ROCM_SIM_SESSION" "$EUID" "$PWD" "$PATH" "$c" \
    > "$ROCM_LAB_EVENTS" 2>/dev/null
  return $s
}
"#;

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

/// A wrapper that runs one of the simulated tools.
pub fn wrapper(tool: &str) -> String {
    format!(
        "#!/bin/sh\nexec \"{}\" sim {tool} \"$@\"\n",
        super::sandbox::SIM_BIN
    )
}
