# tests/lib/sshd.bash - real OpenSSH test hosts on this machine, for the
# tests of bin/nightly.sh over ssh (`load ../lib/sshd`).  Each host is an
# account of its own (a home of its own, as a remote machine has) with
# its own sshd (Debian package openssh-server) listening on 127.0.0.1 on
# a free high port, its own host key and an authorized key made here; the
# client side is an ssh_config that sends each account to its port and
# checks each host key (no host outside this machine is ever named).
#
#   sshd_need                 skip unless root with sshd, ssh, useradd
#   sshd_hosts_start NAME...  start the hosts (NAME: a letter or two);
#                             SSHD_LOGIN[NAME] is "USER@127.0.0.1",
#                             SSHD_CMD the ssh command (ssh -F CONFIG)
#   sshd_host_stop NAME       the host goes down: its sshd, its sessions
#                             and every process of its account killed
#   sshd_hosts_cleanup        stop every host, remove the accounts (teardown)
#   SSHD_SHARED               a folder every account can read: put there
#                             what the hosts run (fakes, wrappers)

# sshd_need: skip the test, naming why, where it cannot run.
sshd_need() {
	[ "$(id -u)" = 0 ] || skip "needs root (to make the test hosts' accounts and run their sshd)"
	[ -x /usr/sbin/sshd ] || skip "sshd not installed (Debian package openssh-server)"
	command -v ssh >/dev/null 2>&1 || skip "ssh not installed (Debian package openssh-client)"
	command -v ssh-keygen >/dev/null 2>&1 || skip "ssh-keygen not installed (Debian package openssh-client)"
	command -v useradd >/dev/null 2>&1 || skip "useradd not installed (Debian package passwd)"
	command -v rsync >/dev/null 2>&1 || skip "rsync not installed (Debian package rsync)"
}

declare -gA SSHD_LOGIN=() SSHD_USER=() SSHD_PID=()
SSHD_ROOT=
SSHD_CMD=
SSHD_SHARED=

# sshd_free_port: a TCP port of 127.0.0.1 nothing listens on.
sshd_free_port() {
	local p i
	for ((i = 0; i < 50; i++)); do
		p=$((20000 + RANDOM % 40000))
		(exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || { echo "$p"; return 0; }
	done
	return 1
}

# sshd_hosts_start NAME...: the hosts, each up and answering ssh.
sshd_hosts_start() {
	local n u d port i
	SSHD_ROOT=$(mktemp -d /tmp/rcu-sshd.XXXXXX)
	chmod 755 "$SSHD_ROOT"
	SSHD_SHARED=$SSHD_ROOT/shared
	mkdir -p "$SSHD_SHARED" /run/sshd
	chmod 755 "$SSHD_SHARED"
	ssh-keygen -q -t ed25519 -N '' -C rcu-nightly-test -f "$SSHD_ROOT/client_key"
	: >"$SSHD_ROOT/known_hosts"
	{
		echo "# the test hosts: one account a host, each with its own sshd"
		echo "Host *"
		echo "  IdentityFile $SSHD_ROOT/client_key"
		echo "  IdentitiesOnly yes"
		echo "  UserKnownHostsFile $SSHD_ROOT/known_hosts"
		echo "  StrictHostKeyChecking yes"
		echo "  BatchMode yes"
		echo "  ConnectTimeout 5"
		echo "  ServerAliveInterval 2"
		echo "  ServerAliveCountMax 2"
		echo "  LogLevel ERROR"
	} >"$SSHD_ROOT/ssh_config"
	for n in "$@"; do
		u=rcut$$$n
		d=$SSHD_ROOT/host-$n
		mkdir -p "$d/home"
		useradd -M -d "$d/home" -s /bin/bash "$u"
		usermod -p '*' "$u"	# no password, but not locked: keys work
		chown "$u:" "$d/home"
		SSHD_USER[$n]=$u
		ssh-keygen -q -t ed25519 -N '' -f "$d/host_key"
		cp "$SSHD_ROOT/client_key.pub" "$d/authorized_keys"
		chmod 644 "$d/authorized_keys"
		port=$(sshd_free_port) || { echo "no free port" >&2; return 1; }
		cat >"$d/sshd_config" <<EOF
Port $port
ListenAddress 127.0.0.1
HostKey $d/host_key
PidFile $d/sshd.pid
AuthorizedKeysFile $d/authorized_keys
AllowUsers $u
PermitRootLogin no
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
X11Forwarding no
LogLevel ERROR
EOF
		/usr/sbin/sshd -t -f "$d/sshd_config" || return 1
		# (fd 3 closed: bats waits for it at the end of a test)
		/usr/sbin/sshd -D -e -f "$d/sshd_config" 2>>"$d/sshd.log" 3>&- &
		SSHD_PID[$n]=$!
		echo "[127.0.0.1]:$port $(cut -d' ' -f1,2 "$d/host_key.pub")" >>"$SSHD_ROOT/known_hosts"
		printf 'Match user %s\n  HostName 127.0.0.1\n  Port %s\n' "$u" "$port" >>"$SSHD_ROOT/ssh_config"
		SSHD_LOGIN[$n]=$u@127.0.0.1
	done
	SSHD_CMD="ssh -F $SSHD_ROOT/ssh_config"
	# Up when a login works (bounded).
	for n in "$@"; do
		for ((i = 0; i < 100; i++)); do
			$SSHD_CMD "${SSHD_LOGIN[$n]}" true 2>/dev/null && break
			sleep 0.1
		done
		((i < 100)) || { echo "sshd of host $n did not answer: $(cat "$SSHD_ROOT/host-$n/sshd.log")" >&2; return 1; }
	done
}

# sshd_user_pids USER: the processes of the account, one pid a line.
sshd_user_pids() {
	ps -o pid= -u "$1" 2>/dev/null | tr -d ' ' || true
}

# sshd_host_stop NAME: the host goes down as a machine that dies: its
# sshd (the listener and each connection's), and the account's processes.
sshd_host_stop() {
	local n=$1 p
	[ -n "${SSHD_PID[$n]:-}" ] || return 0
	for p in $(pgrep -P "${SSHD_PID[$n]}" 2>/dev/null) "${SSHD_PID[$n]}" $(sshd_user_pids "${SSHD_USER[$n]}"); do
		kill -KILL "$p" 2>/dev/null || true
	done
	wait "${SSHD_PID[$n]}" 2>/dev/null || true
	SSHD_PID[$n]=
}

# sshd_hosts_cleanup: every host stopped, the accounts and files removed.
sshd_hosts_cleanup() {
	local n
	for n in "${!SSHD_USER[@]}"; do
		sshd_host_stop "$n"
		userdel "${SSHD_USER[$n]}" 2>/dev/null || true
	done
	[ -z "$SSHD_ROOT" ] || rm -rf "$SSHD_ROOT"
	SSHD_ROOT=
}
