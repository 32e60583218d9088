# sshd.sh - fake remote hosts for rebench's shell integration tests: one sshd
# per host, all on this machine: host N is 127.A.B.(N+1), port 2200+N, where
# A.B is the test's process id (mod 65536): two runs of the tests at once
# never share an address.
# Source it after common.sh, then: require_sshd; sshd_setup; sshd_start 1 ...
# and run '$SSH_CMD -p 2201 root@"$(_sshd_addr 1)" CMD' or rebench ... "$(sshd_host 1)".
#
# Safety: loopback only; config, keys and logs in $SCRATCH/ssh, not /etc/ssh;
# the client config refuses any host outside 127.0.0.0/8.  Root logs in, by key.
#
# An instance is its listener, the per-connection sshd (they call setsid():
# no session or process group holds an instance together), the remote
# commands (tagged REBENCH_SSHD=<tag> in their environment) and all their
# descendants.  A watcher per instance kills what is left once the listener
# dies (common.sh's cleanup kills it with -9) or the test is gone, so a
# failed test leaves nothing behind.

SSHD_BIN=${SSHD_BIN:-/usr/sbin/sshd}
SSHD_NET=$(($$ % 65536))

_sshd_addr() { printf '127.%d.%d.%d' $((SSHD_NET / 256)) $((SSHD_NET % 256)) $(($1 + 1)); }
_sshd_port() { printf '%d' $((2200 + $1)); }

# require_sshd: skip unless sshd, ssh and ssh-keygen are there (a test
# installs nothing: make deps installs openssh-server).
require_sshd() {
	require_cmd ssh ssh-keygen ps
	[ "$(id -u)" = 0 ] || skip "needs root for the fake ssh hosts (sshd privilege separation, root logins)"
	[ -x "$SSHD_BIN" ] || skip "needs sshd ($SSHD_BIN, package openssh-server): run make deps"
	# privilege separation dir: Debian's init script or systemd makes it, neither ran
	[ -d /run/sshd ] || mkdir -m 755 /run/sshd || fail "cannot create /run/sshd"
}

# sshd_setup: once per test: a host key, a client key pair, its
# authorized_keys and a client config in $SCRATCH/ssh.  Exports SSH_CONFIG and
# SSH_CMD ("ssh -F $SSH_CONFIG"), which log in with no question asked.
sshd_setup() {
	local d=$SCRATCH/ssh
	mkdir -p "$d" && chmod 700 "$d" || fail "cannot create $d"
	ssh-keygen -q -t ed25519 -N '' -C rebench-test-host -f "$d/host_key" </dev/null &&
		ssh-keygen -q -t ed25519 -N '' -C rebench-test-client -f "$d/id_ed25519" </dev/null ||
		fail "ssh-keygen failed"
	cp "$d/id_ed25519.pub" "$d/authorized_keys" || fail "cannot write $d/authorized_keys"
	# -F keeps ~/.ssh/config and /etc/ssh/ssh_config out.  The first entry is a
	# guard: a host outside 127.0.0.0/8 is never connected to.
	cat >"$d/config" <<-EOF || fail "cannot write $d/config"
		Host * !127.*.*.*
		    ProxyCommand /bin/false
		Host *
		    IdentityFile $d/id_ed25519
		    IdentitiesOnly yes
		    UserKnownHostsFile /dev/null
		    GlobalKnownHostsFile /dev/null
		    StrictHostKeyChecking no
		    LogLevel ERROR
		    BatchMode yes
		    ConnectTimeout 5
		    ControlPath none
	EOF
	export SSH_CONFIG=$d/config
	export SSH_CMD="ssh -F $SSH_CONFIG"
}

# sshd_host N: the host spec of fake host N, "root@127.A.B.(N+1):(2200+N)".
sshd_host() { printf 'root@%s:%s\n' "$(_sshd_addr "$1")" "$(_sshd_port "$1")"; }

# sshd_start N: start fake host N (1 to 99); returns once a login works.  Its
# log is $SCRATCH/ssh/sshd_N.log.  The listener is registered for common.sh's
# cleanup but is no job of the test's shell, so a bare 'wait' does not hang.
sshd_start() {
	local n=$1 d=$SCRATCH/ssh addr port conf log tag pid i=0
	case $n in [1-9] | [1-9][0-9]) ;; *) fail "sshd_start: host number 1 to 99, not '$n'" ;; esac
	[ -n "${SSH_CONFIG:-}" ] || fail "sshd_start: call sshd_setup first"
	addr=$(_sshd_addr "$n") port=$(_sshd_port "$n")
	conf=$d/sshd_$n.conf log=$d/sshd_$n.log
	tag=$conf:$(date +%s%N)	# one per start: an old watcher spares a restart
	_sshd_open "$addr" "$port" && fail "sshd_start: $addr:$port is in use (another test's host $n?)"
	# SHLVL=1: bash skips root's ~/.bashrc, sourced for ssh commands; PATH is
	# sshd's superuser path.  curve25519: sntrup761 costs 0.15 s a login.
	cat >"$conf" <<-EOF
		ListenAddress $addr:$port
		HostKey $d/host_key
		AuthorizedKeysFile $d/authorized_keys
		PermitRootLogin prohibit-password
		PasswordAuthentication no
		KbdInteractiveAuthentication no
		UsePAM no
		StrictModes no
		PermitUserRC no
		PidFile $d/sshd_$n.pid
		KexAlgorithms curve25519-sha256,curve25519-sha256@libssh.org
		MaxStartups 64
		SetEnv REBENCH_SSHD=$tag SHLVL=1
	EOF
	# OpenSSH 9.8+ would lock 127.0.0.1 out after the sessions a test kills
	"$SSHD_BIN" -t -f "$conf" -o PerSourcePenalties=no 2>/dev/null && echo "PerSourcePenalties no" >>"$conf"
	"$SSHD_BIN" -t -f "$conf" >"$log" 2>&1 || fail "sshd_start $n: config rejected" "$(tail -n 5 "$log")"
	# no setsid: in the test's process group, run-tests.sh's timeout reaches it
	pid=$("$SSHD_BIN" -D -e -f "$conf" </dev/null >>"$log" 2>&1 & echo $!)
	_register pids "$pid"
	echo "$pid $tag" >"$d/sshd_$n.id"
	until ssh -F "$SSH_CONFIG" -p "$port" "root@$addr" true </dev/null >/dev/null 2>&1; do
		_sshd_alive "$pid" || fail "sshd_start $n: sshd exited" "$(tail -n 5 "$log")"
		i=$((i + 1))
		# a hang guard: a loaded machine may take seconds to log in
		[ $i -lt 1200 ] || fail "sshd_start $n: no login within 60 s" "$(tail -n 5 "$log")"
		sleep 0.05
	done
	# the watcher; it ignores the signals a timeout or Ctrl-C sends the test
	( (
		trap '' INT TERM HUP
		exec </dev/null >/dev/null 2>&1
		while _sshd_alive "$pid" && kill -0 $$; do sleep 0.5; done
		_sshd_end KILL "$pid" "$tag"
	) & )
}

# sshd_kill N: host N dies: SIGKILL to its listener and every process of its
# sessions at once; its clients see the connection drop (ssh exits 255).
sshd_kill() {
	_sshd_end KILL $(_sshd_id "$1")
	_sshd_closed "$1" || fail "sshd_kill $1: $(_sshd_addr "$1"):$(_sshd_port "$1") still accepts connections"
}

# sshd_stop N: a clean stop of host N: SIGTERM to all its processes, SIGKILL
# to those left after 2 s.
sshd_stop() {
	local i id
	id=$(_sshd_id "$1")
	_sshd_end TERM $id
	for i in $(seq 20); do
		[ -z "$(_sshd_procs $id)" ] && break
		sleep 0.1
	done
	_sshd_end KILL $id
	_sshd_closed "$1" || fail "sshd_stop $1: $(_sshd_addr "$1"):$(_sshd_port "$1") still accepts connections"
}

# sshd_stop_all: sshd_stop every host the test started; call it at the end
# (on other exits, the watchers kill the hosts within a second).
sshd_stop_all() {
	local f n
	for f in "$SCRATCH"/ssh/sshd_*.id; do
		n=${f##*/sshd_}
		[ -e "$f" ] && sshd_stop "${n%.id}"
	done
}

# "LISTENER TAG" of the last start of host N
_sshd_id() { cat "$SCRATCH/ssh/sshd_$1.id" 2>/dev/null || fail "host $1 was not started"; }

# _sshd_end SIG LISTENER TAG: SIGSTOP an instance's processes until no new
# one appears (a stopped process neither forks nor exits, so no child of it
# escapes to PID 1), then SIG to all; SIGCONT lets them act on a SIGTERM.
_sshd_end() {
	local sig=$1 all='' prev=x
	shift
	while [ "$all" != "$prev" ]; do
		prev=$all
		all=$(_sshd_procs "$@" $all)
		[ -z "$all" ] || kill -STOP $all 2>/dev/null
	done
	[ -z "$all" ] || { kill -"$sig" $all; kill -CONT $all; } 2>/dev/null
	return 0
}

# _sshd_procs LISTENER TAG [PID...]: the live processes of an instance: the
# listener if it still runs TAG's config, the tagged remote commands (sshd's
# process titles overwrite sshd's own environment), the PIDs, and the
# descendants of all these; never PID 1 or the caller.
_sshd_procs() {
	local lp=$1 tag=$2 seeds
	shift 2
	seeds=$(grep -lsxzF "REBENCH_SSHD=$tag" /proc/[0-9]*/environ | cut -d/ -f3)
	tr '\0' ' ' 2>/dev/null <"/proc/$lp/cmdline" | grep -qF -- "-f ${tag%:*} " && seeds="$seeds $lp"
	ps -e -o pid= -o ppid= -o stat= | awk -v seeds="$seeds $*" -v me="$$ $BASHPID" '
		$3 !~ /^Z/ { kids[$2] = kids[$2] " " $1; alive[$1] = 1 }
		END {
			split(me, my, " "); seen[1] = seen[my[1]] = seen[my[2]] = 1
			n = split(seeds, q, " ")
			for (i = 1; i <= n; i++) {
				p = q[i]
				if (!(p in alive) || (p in seen)) continue
				seen[p] = 1; print p
				m = split(kids[p], k, " ")
				for (j = 1; j <= m; j++) q[++n] = k[j]
			}
		}' | sort -n | tr '\n' ' '
}

# _sshd_alive PID: PID runs; a zombie does not (PID 1 here reaps late).
_sshd_alive() { local s; { read -r _ _ s _ <"/proc/$1/stat"; } 2>/dev/null && [ "$s" != Z ]; }

# _sshd_open ADDR PORT: something accepts connections there.
_sshd_open() { (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null; }

# _sshd_closed N: host N's port refuses connections (after its sshd was
# killed: waits up to 60 s, a hang guard).
_sshd_closed() {
	local i
	for i in $(seq 1200); do
		_sshd_open "$(_sshd_addr "$1")" "$(_sshd_port "$1")" || return 0
		sleep 0.05
	done
	return 1
}
