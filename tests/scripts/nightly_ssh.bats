#!/usr/bin/env bats
# SAN: plain build only (tests scripts, not the sanitized C code)
# bin/nightly.sh over real ssh: OpenSSH servers started here as test
# hosts (tests/lib/sshd.bash: an account, a home and an sshd on a high
# port of 127.0.0.1 each, keys made by the test), the fake rcutorture on
# them: the runs spread over the hosts and their results come back into
# one folder; a host whose sshd is stopped mid-run loses its run to
# another host, one that does not answer is not used; with no host left
# the lost runs are INCOMPLETE, never SUCCESS.  Without root or
# openssh-server: SKIP, naming which.
bats_require_minimum_version 1.5.0

load ../lib/analysis
load ../lib/sshd

setup() {
	skip_under_sanitizers
	need jq jq
	need parallel parallel
	sshd_need
	export NIGHTLY_LOCAL_ROOT=$BATS_TEST_TMPDIR/local
	OUT=$BATS_TEST_TMPDIR/res
}

teardown() {
	sshd_hosts_cleanup
}

# fakes SLEEP: the fake rcutorture where the hosts' accounts can run it,
# as TORTURE_BIN, sleeping SLEEP s between its stats blocks (environment
# does not cross ssh: a wrapper sets it).
fakes() {
	cp "$FAKE" "$SSHD_SHARED/fake-rcutorture"
	printf '#!/bin/sh\nFAKE_SLEEP=%s exec %s "$@"\n' "$1" "$SSHD_SHARED/fake-rcutorture" >"$SSHD_SHARED/rcutorture"
	chmod 755 "$SSHD_SHARED/fake-rcutorture" "$SSHD_SHARED/rcutorture"
	export TORTURE_BIN=$SSHD_SHARED/rcutorture
}

# nightly ARG...: bin/nightly.sh over the test hosts' ssh, 20 s
# (simulated) runs; RESDIR is its results folder afterwards.
nightly() {
	run --separate-stderr "$TOP/bin/nightly.sh" --worktree --duration 20s --results "$OUT" \
		--ssh "$SSHD_CMD" --no-report "$@"
	RESDIR=$(ls -d "$OUT"/*/ 2>/dev/null | tail -n1)
	RESDIR=${RESDIR%/}
}

# run_hosts: "RUN HOST" for every run of RESDIR.
run_hosts() {
	local d
	for d in "$RESDIR"/*/; do
		[ -f "$d/host" ] && echo "$(basename "$d") $(cat "$d/host")"
	done
}

# stop_when_started NAME: in the background, stop host NAME once a job
# has started there (bounded: 60 s).
stop_when_started() {
	local n=$1 home=$SSHD_ROOT/host-$1/home i
	for ((i = 0; i < 600; i++)); do
		compgen -G "$home/rcu-nightly/out/*/*/started" >/dev/null && break
		sleep 0.1
	done
	sshd_host_stop "$n"
	echo "stopped $n after $i polls" >"$BATS_TEST_TMPDIR/stopped"
}

@test "two hosts over real ssh: runs spread, results returned, one folder, TAP, JUnit" {
	sshd_hosts_start a b
	fakes 0
	# As under cron or CI, where no login shell is named.
	unset SHELL
	nightly --sshlogin "${SSHD_LOGIN[a]},${SSHD_LOGIN[b]}" --jobs 1 TREE01 BUSTED TRIVIAL 2*TREE09
	[ "$status" -eq 0 ]
	[ "$(run_hosts | awk '{print $2}' | sort -u | tr '\n' ' ')" = "${SSHD_LOGIN[a]} ${SSHD_LOGIN[b]} " ]
	for r in TREE01 BUSTED TRIVIAL TREE09 TREE09.2; do
		[ -f "$RESDIR/$r/summary.json" ] && [ -f "$RESDIR/$r/stats.jsonl" ] && [ -f "$RESDIR/$r/gp-latency.dat" ]
	done
	[ -f "$RESDIR/BUSTED/console.log.diags" ]
	# Each host got the source once, in its own home, and built nothing.
	local n
	for n in a b; do
		[ "$(ls -d "$SSHD_ROOT/host-$n/home/rcu-nightly"/src-*/tree | wc -l)" -eq 1 ]
		[ -z "$(find "$SSHD_ROOT/host-$n/home" -user root -print -quit)" ]
	done
	jq -e 'map(.state) == ["ok", "ok"] and (map(.runs | length) | add) == 5' "$RESDIR/hosts.json"
	grep -q '^not ok 1 - BUSTED (rcut.*@127.0.0.1): FAILURE: .* # TODO expected to fail' "$RESDIR/nightly.tap"
	grep -q 'tests="5" failures="0" errors="0"' "$RESDIR/junit.xml"
}

@test "a host whose sshd stops mid-run loses its run to another host; a host that does not answer is not used" {
	sshd_hosts_start a b c
	fakes 1
	sshd_host_stop c
	stop_when_started a 3>&- &
	local w=$!
	nightly --sshlogin "${SSHD_LOGIN[a]},${SSHD_LOGIN[b]},${SSHD_LOGIN[c]}" --jobs 1 TREE01 TRIVIAL
	wait "$w"
	cat "$BATS_TEST_TMPDIR/stopped"
	[ "$status" -eq 0 ]
	[ "$(run_hosts | awk '{print $2}' | sort -u)" = "${SSHD_LOGIN[b]}" ]
	for r in TREE01 TRIVIAL; do
		[ "$(jq -r .result "$RESDIR/$r/summary.json")" = SUCCESS ]
	done
	jq -e --arg a "${SSHD_LOGIN[a]}" '.[] | select(.name == $a) | .state == "lost" and (.note | test("lost [A-Z0-9.]+ \\(ssh exit 255: host gone or connection lost\\): not used after"))' "$RESDIR/hosts.json"
	jq -e --arg c "${SSHD_LOGIN[c]}" '.[] | select(.name == $c) | .state == "unreachable" and (.note | test("Connection refused"))' "$RESDIR/hosts.json"
	grep -q '^Queued again: ' "$RESDIR/log"
	[[ $output == *"# ${SSHD_LOGIN[a]}: "*"lost "*"not used after"* ]]
}

@test "when no host is left, the lost runs are INCOMPLETE, never SUCCESS; exit 1; recheck.sh agrees" {
	sshd_hosts_start a
	fakes 1
	stop_when_started a 3>&- &
	local w=$!
	nightly --sshlogin "2/${SSHD_LOGIN[a]}" --retries 1 TREE01 TRIVIAL
	wait "$w"
	[ "$status" -eq 1 ]
	mapfile -t t <"$RESDIR/nightly.tap"
	[ "${t[0]}" = 1..2 ]
	[[ ${t[1]} == "not ok 1 - TREE01 (${SSHD_LOGIN[a]}): INCOMPLETE: lost on host ${SSHD_LOGIN[a]} ("*"); no host left to run it" ]]
	[[ ${t[2]} == "not ok 2 - TRIVIAL (${SSHD_LOGIN[a]}): INCOMPLETE: "* ]]
	[ ! -f "$RESDIR/TREE01/summary.json" ]
	[ "$(grep -c '<error type="INCOMPLETE"' "$RESDIR/junit.xml")" -eq 2 ]
	! grep -q '"verdict":"SUCCESS"' "$RESDIR/runs.jsonl"
	run "$TOP/bin/recheck.sh" "$RESDIR"
	[ "$status" -eq 1 ]
}
