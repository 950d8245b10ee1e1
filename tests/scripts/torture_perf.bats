#!/usr/bin/env bats
# SAN: plain build only (tests scripts, not the sanitized C code)
bats_require_minimum_version 1.5.0
# bin/torture.sh --torture refscale|rcuscale (bin/lib/perf.sh): every
# shipped perf scenario passes the program's check; a short run writes
# the results layout and one line a scenario; a liburcu scenario is
# SKIPPED where liburcu's types are not built; a measurement that never
# ends is a FAILURE (exit 1); bad scenarios and options are exit 2 with
# nothing run.

load ../lib/analysis

BIN=${BUILD_DIR:-$TOP/build}

setup() {
	skip_under_sanitizers
	need jq jq
	export TORTURE_TOP=$TOP
	SD=$BATS_TEST_TMPDIR/scen
	mkdir -p "$SD"
	echo 'CONFIG_RCU_REF_SCALE_TEST=y' >"$SD/CFcommon"
	printf 'SHORT\n2*URCU\n' >"$SD/CFLIST"
	printf '# a short run\nCONFIG_NR_CPUS=4\nCONFIG_PREEMPT=y\n' >"$SD/SHORT"
	echo 'refscale.scale_type=rcu,srcu refscale.nruns=2 refscale.loops=500 refscale.nreaders=1,2' >"$SD/SHORT.boot"
	echo 'refscale.scale_type=rcu,urcu-memb refscale.nruns=1 refscale.loops=500 refscale.nreaders=1' >"$SD/URCU.boot"
	printf 'CONFIG_PREEMPT=y\n' >"$SD/URCU"	# no notes (stderr) among the lines
}

@test "torture.sh --torture refscale|rcuscale --dryrun: every shipped scenario checks out" {
	local suite n
	for suite in refscale rcuscale; do
		PERF_BIN=$BIN/$suite run "$TOP/bin/torture.sh" --torture "$suite" --dryrun
		[ "$status" -eq 0 ]
		n=$(grep -c . "$TOP/scenarios/$suite/CFLIST")
		[ "$(grep -c "^[A-Z0-9]*: \($BIN/$suite nr_cpus=[0-9]* $suite\.\|skipped (torture type urcu-\)" <<<"$output")" -eq "$n" ]
	done
}

@test "torture.sh --torture refscale: a short run, the results layout, one line a scenario" {
	PERF_BIN=$BIN/refscale run "$TOP/bin/torture.sh" --torture refscale --scenario-dir "$SD" \
		--results "$BATS_TEST_TMPDIR/res" --datestamp d
	[ "$status" -eq 0 ]
	local r=$BATS_TEST_TMPDIR/res/d
	[ "${lines[0]}" = "SHORT: SUCCESS (${lines[0]#*SUCCESS (}" ]
	[[ ${lines[0]} =~ ^SHORT:\ SUCCESS\ \([0-9.]+\ s,\ 4\ measurements,\ targets\ met\ [0-9]+\ of\ 6\)$ ]]
	[ "${lines[3]}" = "Results: $r" ]
	diff <(printf '%s\n' "${lines[@]}") "$r/log"
	[ "$(cat "$r/SHORT/status")" = 0 ]
	grep -q "^$BIN/refscale --json $r/SHORT/perf.jsonl nr_cpus=4 refscale.scale_type=rcu,srcu " "$r/SHORT/command"
	! grep -q CONFIG_PREEMPT "$r/SHORT/command"
	grep -q "^refscale read: " "$r/SHORT/output.txt"
	jq_ok '.suite == "refscale" and .scenario == "SHORT" and .run == "SHORT" and .result == "SUCCESS" and .exit_status == 0
		and .measurements == 4 and .targets_met + .targets_missed == 6 and .duration_s >= 0' "$r/SHORT/summary.json"
	jq_ok -s 'map(select(.kind == "run")) | length == 8' "$r/SHORT/perf.jsonl"
	# URCU twice: URCU and URCU.2, each measured or skipped.
	if "$BIN/refscale" --list-types | grep -qx urcu-memb; then
		[[ ${lines[1]} == "URCU: SUCCESS ("* && ${lines[2]} == "URCU.2: SUCCESS ("* ]]
		jq_ok '.result == "SUCCESS" and .scenario == "URCU" and .run == "URCU.2"' "$r/URCU.2/summary.json"
	else
		[ "${lines[1]}" = "URCU: SKIPPED (torture type urcu-memb not built here)" ]
		jq_ok '.result == "SKIPPED"' "$r/URCU/summary.json"
	fi
}

@test "torture.sh --torture refscale: liburcu's types not built: SKIPPED, exit 0" {
	local fake=$BATS_TEST_TMPDIR/fakebin
	mkdir -p "$fake"
	# The program as built with LIBURCU=0: it lists the liburcu types as not built.
	cat >"$fake/refscale" <<EOF
#!/bin/sh
if [ "\$1" = --list-types ]; then "$BIN/refscale" --list-types | grep -v '^urcu-'; echo "urcu-memb (not built: liburcu-dev)"; exit 0; fi
exec "$BIN/refscale" "\$@"
EOF
	chmod +x "$fake/refscale"
	PERF_BIN=$fake/refscale run "$TOP/bin/torture.sh" --torture refscale --scenario-dir "$SD" \
		--results "$BATS_TEST_TMPDIR/res" --datestamp s URCU
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "URCU: SKIPPED (torture type urcu-memb not built here)" ]
	jq_ok '.result == "SKIPPED" and .reason == "torture type urcu-memb not built here"' \
		"$BATS_TEST_TMPDIR/res/s/URCU/summary.json"
	[ "$(cat "$BATS_TEST_TMPDIR/res/s/URCU/status")" = skipped ]
}

@test "torture.sh --torture rcuscale: a measurement that never ends is a FAILURE (--duration bounds it), exit 1" {
	echo 'rcuscale.scale_type=busted_hang rcuscale.nreaders=1 rcuscale.nwriters=1 rcuscale.gps=1000000' >"$SD/HANG.boot"
	printf 'CONFIG_PREEMPT=y\n' >"$SD/HANG"
	PERF_BIN=$BIN/rcuscale run "$TOP/bin/torture.sh" --torture rcuscale --scenario-dir "$SD" \
		--results "$BATS_TEST_TMPDIR/res" --datestamp h --duration 2s HANG
	[ "$status" -eq 1 ]
	[[ ${lines[0]} == "HANG: FAILURE (exit 1, "*" s): rcuscale: gp busted_hang "*" did not finish within 2 s (rcuscale.timeout): "* ]]
	jq_ok '.result == "FAILURE" and .exit_status == 1 and (.reason | test("did not finish"))' \
		"$BATS_TEST_TMPDIR/res/h/HANG/summary.json"
	grep -q " rcuscale.timeout=2$" "$BATS_TEST_TMPDIR/res/h/HANG/command"
}

@test "torture.sh --torture: a bad scenario is named, nothing runs, exit 2" {
	echo 'refscale.nosuch=1' >"$SD/BAD.boot"
	PERF_BIN=$BIN/refscale run "$TOP/bin/torture.sh" --torture refscale --scenario-dir "$SD" \
		--results "$BATS_TEST_TMPDIR/res" SHORT BAD
	[ "$status" -eq 2 ]
	[ "$output" = "torture.sh: BAD: refscale: unknown parameter 'refscale.nosuch' (see --help)" ]
	[ ! -e "$BATS_TEST_TMPDIR/res" ]
	PERF_BIN=$BIN/refscale run "$TOP/bin/torture.sh" --torture refscale --scenario-dir "$SD" NOSUCH
	[ "$status" -eq 2 ] && [ "$output" = "torture.sh: NOSUCH: no such scenario in $SD" ]
	PERF_BIN=$BIN/refscale run "$TOP/bin/torture.sh" --torture refscale --bootargs "refscale.loops=x" \
		--scenario-dir "$SD" SHORT
	[ "$status" -eq 2 ]
	[ "$output" = "torture.sh: SHORT: refscale: refscale.loops: bad value 'x' (expected an integer from 1 to 1000000000)" ]
	PERF_BIN=$BIN/refscale run "$TOP/bin/torture.sh" --torture refscale --until-fail
	[ "$status" -eq 2 ]
	[ "$output" = "torture.sh: --until-fail: not an option of --torture refscale (see --torture refscale --help)" ]
	run "$TOP/bin/torture.sh" --torture rcuscale --help
	[ "$status" -eq 0 ] && grep -q "^usage: bin/torture.sh --torture refscale|rcuscale" <<<"$output"
	grep -q "scenarios/rcuscale/" <<<"$output"
}

# kernel_folder DIR: a scenario folder laid out and worded as the kernel's
# configs/refscale (NOPREEMPT, PREEMPT, TINY) and configs/rcuscale
# (TREE54's fanout, TRACE01's tasks-tracing), and RUDE01 (tasks-rude).
kernel_folder() {
	mkdir -p "$1"
	printf 'CONFIG_RCU_REF_SCALE_TEST=y\nCONFIG_PRINTK_TIME=y\n' >"$1/CFcommon"
	printf 'NOPREEMPT\nPREEMPT\n' >"$1/CFLIST"
	printf 'CONFIG_SMP=y\nCONFIG_PREEMPT_LAZY=y\nCONFIG_PREEMPT_NONE=n\nCONFIG_PREEMPT=n\n#CHECK#CONFIG_PREEMPT_RCU=n\nCONFIG_RCU_EXPERT=y\n' >"$1/NOPREEMPT"
	printf 'CONFIG_SMP=y\nCONFIG_PREEMPT=y\n#CHECK#CONFIG_PREEMPT_RCU=y\nCONFIG_RCU_FANOUT=3\nCONFIG_RCU_FANOUT_LEAF=2\nCONFIG_RCU_EXPERT=y\n' >"$1/PREEMPT"
	printf 'CONFIG_SMP=n\nCONFIG_PREEMPT_NONE=y\nCONFIG_PREEMPT=n\n#CHECK#CONFIG_TINY_RCU=y\n' >"$1/TINY"
	printf 'CONFIG_SMP=y\nCONFIG_PREEMPT=y\nCONFIG_NR_CPUS=4\n' >"$1/TRACE01"
	echo 'refscale.scale_type=tasks-tracing' >"$1/TRACE01.boot"
	printf 'CONFIG_SMP=y\nCONFIG_PREEMPT=y\nCONFIG_NR_CPUS=2\n' >"$1/RUDE01"
	echo 'refscale.scale_type=tasks-rude' >"$1/RUDE01.boot"
	echo 'refscale.scale_type=rcu,sched,srcu' >"$1/BOTH.boot"
	printf 'CONFIG_SMP=y\nCONFIG_PREEMPT=n\n' >"$1/BOTH"
}

# tiny_bin PROG: the Tiny build's PROG (make TINY=1, in BIN/tiny as
# tests/torture/perf_tiny.t builds it).
tiny_bin() {
	env -u MAKEFLAGS -u MAKELEVEL make -C "$TOP" -s TINY=1 BUILD="$BIN/tiny" "$BIN/tiny/$1" >&2
	echo "$BIN/tiny/$1"
}

@test "torture.sh --torture refscale: the kernel's folders as they are: NOPREEMPT measures sched, Kconfig fanout passes, tasks-tracing and tasks-rude run, TINY measures Tiny RCU, kernel-only parameters named as ignored" {
	local K=$BATS_TEST_TMPDIR/kernel tiny
	kernel_folder "$K"
	tiny=$(tiny_bin refscale)
	export PERF_TINY_BIN=$tiny
	PERF_BIN=$BIN/refscale run "$TOP/bin/torture.sh" --torture refscale --scenario-dir "$K" --dryrun \
		NOPREEMPT PREEMPT TINY TRACE01 RUDE01 BOTH
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *"NOPREEMPT: $BIN/refscale refscale.scale_type=sched"$'\n'* ]]
	[[ $output == *"PREEMPT: $BIN/refscale rcutree.rcu_fanout=3 rcutree.rcu_fanout_leaf=2"$'\n'* ]]
	[[ $output == *"BOTH: $BIN/refscale refscale.scale_type=sched,srcu"$'\n'* ]]
	if chrt -f 2 true 2>/dev/null; then
		grep -qx "TINY: $tiny *" <<<"$output"
	else
		[[ $output == *"TINY: skipped (Tiny RCU needs its threads SCHED_FIFO on one CPU, refused here (CAP_SYS_NICE, run as root))"* ]]
	fi
	[[ $output == *"TRACE01: $BIN/refscale nr_cpus=4 refscale.scale_type=tasks-tracing" ]]
	[[ $output == *"RUDE01: $BIN/refscale nr_cpus=2 refscale.scale_type=tasks-rude"$'\n'* ]]
	# Kconfig lines without a meaning here are noted, as for rcutorture.
	[[ $output == *"note: PREEMPT: CONFIG_PRINTK_TIME=y: no userspace meaning: ignored ("*"/CFcommon:2)"* ]]
	[[ $output == *"note: NOPREEMPT: torture_type=rcu without PREEMPT_RCU: the non-preemptible flavor"* ]]
	PERF_BIN=$BIN/refscale run "$TOP/bin/torture.sh" --torture refscale --scenario-dir "$K" \
		--results "$BATS_TEST_TMPDIR/res" --datestamp k \
		--bootargs "refscale.nruns=1 refscale.loops=200 refscale.nreaders=1 refscale.shutdown=1 refscale.verbose_batched=8" \
		NOPREEMPT TINY TRACE01 RUDE01
	echo "$output"
	[ "$status" -eq 0 ]
	run grep -v '^note: ' <<<"$output"
	[[ ${lines[0]} == "NOPREEMPT: SUCCESS ("*"; ignored: refscale.shutdown=1 refscale.verbose_batched=8)" ]]
	if chrt -f 2 true 2>/dev/null; then
		[[ ${lines[1]} == "TINY: SUCCESS ("*"; ignored: refscale.shutdown=1 refscale.verbose_batched=8)" ]]
	else
		[[ ${lines[1]} == "TINY: SKIPPED (Tiny RCU needs its threads SCHED_FIFO on one CPU"* ]]
	fi
	[[ ${lines[2]} == "TRACE01: SUCCESS ("* ]]
	[[ ${lines[3]} == "RUDE01: SUCCESS ("* ]]
	local r=$BATS_TEST_TMPDIR/res/k
	jq_ok '.result == "SUCCESS" and .ignored == ["refscale.shutdown=1", "refscale.verbose_batched=8"]' \
		"$r/NOPREEMPT/summary.json"
	jq_ok -s '[.[] | select(.kind == "summary") | .flavor] | unique == ["sched"]' "$r/NOPREEMPT/perf.jsonl"
	jq_ok '.rcu == "tree"' "$r/NOPREEMPT/summary.json"
	if chrt -f 2 true 2>/dev/null; then
		jq_ok '.result == "SUCCESS" and .rcu == "tiny"' "$r/TINY/summary.json"
		jq_ok -s 'all(.[]; .host.rcu == "tiny" and .host.up_cpu != null)
			and all(.[] | select(.kind == "run"); .flavor == "rcu")' \
			"$r/TINY/perf.jsonl"
	else
		jq_ok '.result == "SKIPPED" and (.reason | test("CAP_SYS_NICE"))' "$r/TINY/summary.json"
	fi
	# Where SCHED_FIFO is refused, Tiny RCU's scenario is SKIPPED naming why.
	if [ "$(id -u)" = 0 ] && setpriv --inh-caps=-sys_nice --bounding-set=-sys_nice \
		prlimit --rtprio=0 sh -c '! chrt -f 1 true' 2>/dev/null; then
		PERF_BIN=$BIN/refscale run setpriv --inh-caps=-sys_nice --bounding-set=-sys_nice \
			prlimit --rtprio=0 "$TOP/bin/torture.sh" --torture refscale --scenario-dir "$K" \
			--results "$BATS_TEST_TMPDIR/res" --datestamp nocap TINY
		[ "$status" -eq 0 ]
		[[ $output == *"TINY: SKIPPED (Tiny RCU needs its threads SCHED_FIFO on one CPU, refused here (CAP_SYS_NICE, run as root))"* ]]
		jq_ok '.result == "SKIPPED"' "$BATS_TEST_TMPDIR/res/nocap/TINY/summary.json"
	fi
	# A kernel-only parameter is accepted; a misspelt one is still an error.
	PERF_BIN=$BIN/refscale run "$TOP/bin/torture.sh" --torture refscale --scenario-dir "$K" \
		--bootargs "refscale.shutdwn=1" --dryrun NOPREEMPT
	[ "$status" -eq 2 ]
	[ "$output" = "torture.sh: NOPREEMPT: refscale: unknown parameter 'refscale.shutdwn' (see --help)" ]
}
