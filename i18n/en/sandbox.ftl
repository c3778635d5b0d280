# The lab sandbox and its supervisor.
lab-login-broken = Every new login ends as soon as it starts (last exit status { $status }), so logins have stopped. A startup file (/etc/environment, /etc/profile, /etc/profile.d/*, ~/.profile or ~/.bashrc) probably ends the shell. Press F5 to reset the machine.
