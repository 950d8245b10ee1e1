#!/usr/bin/env bats
# SAN: plain build only (tests scripts, not the sanitized C code)
# bin/nightly.sh with the fake rcutorture: this machine with --jobs
# (each run on its own slot and processors), several "hosts" through a
# stand-in ssh (tests/fixtures/analysis/fake-ssh: each host a folder),
# a host that dies mid-run (its runs queued again elsewhere, or
# INCOMPLETE when no host is left: never SUCCESS), an unreachable host,
# the TAP and JUnit summaries, bad input.
bats_require_minimum_version 1.5.0

load ../lib/analysis

setup() {
	skip_under_sanitizers
	need jq jq
	need parallel parallel
	export NIGHTLY_LOCAL_ROOT=$BATS_TEST_TMPDIR/local
	export FAKE_SSH_ROOT=$BATS_TEST_TMPDIR/hosts
	mkdir -p "$FAKE_SSH_ROOT"
	export TORTURE_BIN=$FAKE
	OUT=$BATS_TEST_TMPDIR/res
}

# nightly ARG...: bin/nightly.sh on the working tree as it is, 20 s
# (simulated) runs; RESDIR is its results folder afterwards.
nightly() {
	run --separate-stderr "$TOP/bin/nightly.sh" --worktree --duration 20s --results "$OUT" "$@"
	RESDIR=$(ls -d "$OUT"/*/ 2>/dev/null | tail -n1)
	RESDIR=${RESDIR%/}
}

# tap: the TAP summary at the end of the output (after the log lines).
tap() {
	printf '%s\n' "${lines[@]}" | sed -n '/^1\.\.[0-9]*$/,$p'
}

# run_hosts: "RUN HOST" for every run of RESDIR.
run_hosts() {
	local d
	for d in "$RESDIR"/*/; do
		[ -f "$d/host" ] && echo "$(basename "$d") $(cat "$d/host")"
	done
}

@test "this machine: every run collected into one folder, report, roll-up, TAP, JUnit; exit 1 for a failure" {
	need gnuplot gnuplot-nox
	nightly --jobs 2 TREE01 BUSTED 2*TRIVIAL
	[ "$status" -eq 1 ]
	for r in TREE01 BUSTED TRIVIAL TRIVIAL.2; do
		[ -f "$RESDIR/$r/summary.json" ] && [ -f "$RESDIR/$r/console.log" ] && [ -f "$RESDIR/$r/torture.log" ]
		[ "$(cat "$RESDIR/$r/host")" = local ]
	done
	[ "$(jq -r .scenario "$RESDIR/TRIVIAL.2/summary.json")" = TRIVIAL ]
	# The TAP summary, printed and saved.
	tap | diff - "$RESDIR/nightly.tap"
	mapfile -t t <"$RESDIR/nightly.tap"
	[ "${t[0]}" = "1..4" ]
	[ "${t[1]}" = "not ok 1 - BUSTED (local): FAILURE: Reader Pipe errors (20 instances)" ]
	[[ ${t[2]} == "ok 2 - TREE01 (local): "* ]]
	[[ ${t[4]} == "ok 4 - TRIVIAL.2 (local): "* ]]
	[ "${t[5]}" = "# local: $(nproc) processors, 2 at a time; ran $(jq -r '.[0].runs | join(" ")' "$RESDIR/hosts.json")" ]
	[ "${#t[@]}" -eq 6 ]
	grep -q '<testsuites name="rcutorture nightly '"${RESDIR##*/}"'" tests="4" failures="1" errors="0" skipped="0"' "$RESDIR/junit.xml"
	jq -e '.[0] | .name == "local" and .state == "ok" and (.runs | sort) == ["BUSTED", "TREE01", "TRIVIAL", "TRIVIAL.2"]' "$RESDIR/hosts.json"
	# The report, the roll-up and the trend lines.
	grep -q '<p class="banner fail">1 of 4 runs failed.</p>' "$RESDIR/index.html"
	grep -q '<h2 id="hosts">Hosts</h2>' "$RESDIR/index.html"
	grep -q 'href="junit.xml"' "$RESDIR/index.html"
	[ "$(awk -v d="${RESDIR##*/}" '$1 == d && $2 == "TRIVIAL" { print $3, $4, $5 }' "$RESDIR/rollup.txt")" = "2 0 SUCCESS" ]
	png_size "$RESDIR/plots/trend-gps_per_s.png"
	grep -q 'src="plots/trend-gps_per_s.png"' "$RESDIR/index.html"
	png_size "$RESDIR/plots/TRIVIAL.2-latency-cdf.png"
	# The hosts' copies of the results are not left behind.
	[ -z "$(ls -A "$NIGHTLY_LOCAL_ROOT/rcu-nightly/out/")" ]
}

@test "each run on its own slot: its own tree and its share of the processors" {
	# Slot 1 is busy (held by another nightly's run): the runs take slot 2.
	local base=$NIGHTLY_LOCAL_ROOT/rcu-nightly
	mkdir -p "$base"
	exec {fd}>"$base/slot-1.lock"
	flock -n "$fd"
	nightly --jobs 2 --no-report TREE01
	exec {fd}>&-
	[ "$status" -eq 0 ]
	PROG=test TORTURE_TOP=$TOP
	. "$TOP/bin/lib/common.sh"
	. "$TOP/bin/lib/run.sh"
	mapfile -t cpus < <(allowed_cpus)
	share=$((${#cpus[@]} / 2))
	((share > 0)) || share=1
	want=$(sched_cpus "$share" "$share" "${cpus[@]}")
	# torture.sh pins the run within the slot's processors (all of them).
	[ "$(sed 's/^taskset -c \([^ ]*\) .*/\1/; s/\\//g' "$RESDIR/TREE01/cmdline")" = "$want" ]
	[[ $(cat "$RESDIR/TREE01/cmdline") == *" --out $base/src-"*"/runs-"*"-TREE01/"* ]]
	[ -d "$base/src-$(ls "$base" | sed -n 's/^src-//p' | head -n1)/slot-2" ]
	[ ! -e "$base/src-$(ls "$base" | sed -n 's/^src-//p' | head -n1)/slot-1" ]
}

@test "several hosts over ssh: runs spread, results returned, one folder" {
	need rsync rsync
	# As under cron or CI, where no login shell is named.
	unset SHELL
	nightly --ssh "$FAKE_SSH" --sshlogin h1,h2 --jobs 1 --no-report TREE01 BUSTED TRIVIAL
	[ "$status" -eq 1 ]
	[ "$(run_hosts | awk '{print $2}' | sort -u | tr '\n' ' ')" = "h1 h2 " ]
	for r in TREE01 BUSTED TRIVIAL; do
		[ -f "$RESDIR/$r/summary.json" ] && [ -f "$RESDIR/$r/stats.jsonl" ] && [ -f "$RESDIR/$r/gp-latency.dat" ]
	done
	[ -f "$RESDIR/BUSTED/console.log.diags" ]
	# Each host got the source once, in its own folder.
	[ -d "$FAKE_SSH_ROOT/h1/rcu-nightly" ] && [ -d "$FAKE_SSH_ROOT/h2/rcu-nightly" ]
	[ "$(ls -d "$FAKE_SSH_ROOT"/h1/rcu-nightly/src-*/tree | wc -l)" -eq 1 ]
	jq -e 'map(.state) == ["ok", "ok"] and (map(.runs | length) | add) == 3' "$RESDIR/hosts.json"
}

@test "a host that dies mid-run: its runs go to another host; an unreachable host is not used" {
	need rsync rsync
	nightly --ssh "$FAKE_SSH" --sshlogin dying1,h1,down1 --jobs 1 --no-report TREE01 2*TRIVIAL
	[ "$status" -eq 0 ]
	[ "$(run_hosts | awk '{print $2}' | sort -u)" = h1 ]
	for r in TREE01 TRIVIAL TRIVIAL.2; do
		[ "$(jq -r .result "$RESDIR/$r/summary.json")" = SUCCESS ]
	done
	jq -e '.[] | select(.name == "dying1") | .state == "lost" and (.note | test("lost [A-Z0-9.]+ \\(ssh exit 255: host gone or connection lost\\): not used after"))' "$RESDIR/hosts.json"
	jq -e '.[] | select(.name == "down1") | .state == "unreachable" and (.note | test("Connection refused"))' "$RESDIR/hosts.json"
	grep -q '^Queued again: ' "$RESDIR/log"
	[[ $output == *"# dying1: "*"lost "*"not used after"* ]]
	[[ $output == *"# down1: "*"unreachable"* ]]
}

@test "when no host is left, the lost runs are INCOMPLETE, never SUCCESS; exit 1" {
	need rsync rsync
	nightly --ssh "$FAKE_SSH" --sshlogin 2/dying1 --retries 1 --no-report TREE01 TRIVIAL
	[ "$status" -eq 1 ]
	mapfile -t t < <(tap)
	[ "${t[0]}" = 1..2 ]
	[ "${t[1]}" = "not ok 1 - TREE01 (dying1): INCOMPLETE: lost on host dying1 (ssh exit 255: host gone or connection lost); no host left to run it" ]
	[[ ${t[2]} == "not ok 2 - TRIVIAL (dying1): INCOMPLETE: "* ]]
	[ ! -f "$RESDIR/TREE01/summary.json" ]
	grep -q '^INCOMPLETE: lost on host dying1' "$RESDIR/TREE01/Warnings"
	[ "$(grep -c '<error type="INCOMPLETE"' "$RESDIR/junit.xml")" -eq 2 ]
	! grep -q '"verdict":"SUCCESS"' "$RESDIR/runs.jsonl"
	# recheck.sh agrees that these are not successes.
	run "$TOP/bin/recheck.sh" "$RESDIR"
	[ "$status" -eq 1 ]
}

@test "bad input: exit 2 and nothing run; a missing parallel: exit 3 naming the package" {
	nightly NOSUCH
	[ "$status" -eq 2 ]
	[ "$stderr" = "NOSUCH: no such scenario (in scenarios)" ]
	[ ! -d "$OUT" ]
	nightly --jobs 0 TREE01
	[ "$status" -eq 2 ]
	[ "$stderr" = "nightly.sh: --jobs 0: expected a number >= 1" ]
	nightly --hosts "$BATS_TEST_TMPDIR/nosuch" TREE01
	[ "$status" -eq 2 ]
	[ "$stderr" = "nightly.sh: --hosts $BATS_TEST_TMPDIR/nosuch: cannot read it" ]
	printf 'h1\nbad host\n' >"$BATS_TEST_TMPDIR/hostlist"
	nightly --hosts "$BATS_TEST_TMPDIR/hostlist" TREE01
	[ "$status" -eq 2 ]
	[ "$stderr" = "nightly.sh: host 'bad host': expected [N/][user@]host" ]
	nightly TREE01 -- --nosuchoption
	[ "$status" -eq 2 ]
	[ "$stderr" = "torture.sh: --nosuchoption: unknown option (see --help)" ]
	[ ! -d "$OUT" ]
	path_without parallel
	nightly TREE01
	[ "$status" -eq 3 ]
	[ "$stderr" = "nightly.sh: parallel not found (Debian package parallel): nothing run" ]
}

@test "--mutation: the kill table after the runs, one more TAP test, its verdict in the exit status" {
	# A stand-in for bin/mutation.sh: writes a kill page, exits as told.
	cat >"$BATS_TEST_TMPDIR/mutation" <<'STUB'
#!/bin/sh
[ "$1" = --results ] || exit 9
mkdir -p "$2" && echo "<html>kill table: $3 $4</html>" >"$2/kill.html"
echo "mutation.sh: $MUT_SAY"
exit "$MUT_EXIT"
STUB
	chmod +x "$BATS_TEST_TMPDIR/mutation"
	export NIGHTLY_MUTATION=$BATS_TEST_TMPDIR/mutation
	MUT_EXIT=1 MUT_SAY="a must-catch bug survived a round" nightly --no-report --mutation "--short --repeat 2" TREE01
	[ "$status" -eq 1 ]
	grep -q "kill table: --short --repeat" "$RESDIR/mutation/kill.html"
	mapfile -t t <"$RESDIR/nightly.tap"
	[ "${t[0]}" = "1..2" ]
	[[ ${t[1]} == "ok 1 - TREE01 (local): "* ]]
	[ "${t[2]}" = "not ok 2 - mutation kill table (mutation/kill.html): mutation.sh: a must-catch bug survived a round" ]
	rm -rf "$OUT"
	MUT_EXIT=0 MUT_SAY="every must-catch bug was caught" nightly --no-report --mutation "" TREE01
	[ "$status" -eq 0 ]
	grep -q "^ok 2 - mutation kill table" "$RESDIR/nightly.tap"
	nightly --dryrun --mutation "--short" TREE01
	[[ $output == *"Then, here: bin/mutation.sh --short"* ]]
}
