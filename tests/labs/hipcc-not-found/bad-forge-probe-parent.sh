# expect: next-login: A new login would not find hipcc
# A startup file that tells a login from the grader's by its parent process: both have the same.
echo "[ \"\$PPID\" = \"$PPID\" ] || PATH=\$PATH:/opt/rocm/bin" >> ~/.bashrc
echo "[ \"\$(cat /proc/\$PPID/cmdline | tr '\\0' ' ')\" = \"$(cat /proc/$PPID/cmdline | tr '\0' ' ')\" ] || PATH=\$PATH:/opt/rocm/bin" >> ~/.bashrc
export PATH=$PATH:/opt/rocm/bin
hipcc --version
