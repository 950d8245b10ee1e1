#!/usr/bin/env bats
# bin/torture.sh, bin/recheck.sh and friends against the real rcutorture
# of this build ($BUILD_DIR/rcutorture; also under SAN=thread/address
# builds): a short run of a correct scenario beside BUSTED, and faults:
# SIGTERM and SIGINT mid-run (to torture.sh, and to the program itself)
# must give the same INCOMPLETE verdict in the summary line, summary.json
# and recheck.sh, never SUCCESS.

load ../lib/scripts

setup() {
	need_real
	BIN=$REAL
	PID=
}

teardown() {
	# A failed test must not leave its run going.
	[ -z "$PID" ] || ! kill -0 "$PID" 2>/dev/null || { kill -TERM "$PID"; wait "$PID" || true; }
}

@test "real rcutorture: TREE09 ends in SUCCESS, BUSTED in FAILURE; recheck agrees" {
	run env TORTURE_BIN="$BIN" "$TORTURE" --results "$BATS_TEST_TMPDIR/res" --duration 6s \
		--cpus 4 TREE09 BUSTED
	echo "$output"
	[ "$status" -eq 1 ]
	RES=$(ls -d "$BATS_TEST_TMPDIR"/res/*/)
	[[ $output == *$'\n'"TREE09 ------- "*" GPs ("*"/s) [rcu: g"*"] total-gps="*" SUCCESS"* ]]
	[[ $output == *$'\n'"BUSTED ------- "*" FAILURE: "*"Reader Pipe errors ("*" instances)"* ]]
	local f
	for f in ConfigFragment cmdline console.log stats.jsonl gp-latency.dat summary.json exit_status; do
		[ -s "$RES/TREE09/$f" ] || { echo "empty or missing: $f"; false; }
	done
	[ "$(cat "$RES/TREE09/exit_status")" = 0 ]
	[ "$(cat "$RES/BUSTED/exit_status")" = 1 ]
	if command -v jq >/dev/null; then
		[ "$(jq -r .result "$RES/TREE09/summary.json")" = SUCCESS ]
		[ "$(jq -r .scenario "$RES/TREE09/summary.json")" = TREE09 ]
		[ "$(tail -n1 "$RES/TREE09/stats.jsonl" | jq -r .final)" = true ]
	fi
	run "$RECHECK" "$RES"
	[ "$status" -eq 1 ]
	[ "$(grep -c '^TREE09 ------- .* SUCCESS' <<<"$output")" -eq 1 ]
	[ "$(grep -c '^BUSTED ------- .* FAILURE: ' <<<"$output")" -eq 1 ]
}

@test "a scenario asking for a test that does not run here (lockdep's SRCU deadlocks) is INCOMPLETE, naming them; ignored ones are listed" {
	scenario_file LOCKDEP 'CONFIG_NR_CPUS=4
CONFIG_PREEMPT=y
CONFIG_HOTPLUG_CPU=n'
	scenario_file LOCKDEP.boot 'rcutorture.test_srcu_lockdep=1 rcutorture.fwd_progress_need_resched=1'
	run env TORTURE_BIN="$BIN" "$TORTURE" --results "$BATS_TEST_TMPDIR/res" --duration 4s --cpus 4 LOCKDEP
	echo "$output"
	[ "$status" -eq 1 ]
	local want="INCOMPLETE: not honoured: rcutorture.test_srcu_lockdep=1 (the kernel's lockdep deadlock scenarios need lock-dependency checking: a CONFIG_PROVE_LOCKING build (make DEBUG=1)) (ignored: rcutorture.fwd_progress_need_resched=1)"
	[[ $output == *$'\n'"LOCKDEP ------- "*" GPs ("*" $want"$'\n'* ]]
	[[ $output == *"1 of 1 runs incomplete."* ]]
	RES=$(ls -d "$BATS_TEST_TMPDIR"/res/*/)
	[ "$(cat "$RES/LOCKDEP/exit_status")" = 6 ]
	run "$RECHECK" "$RES"
	[ "$status" -eq 1 ]
	[[ $output == *"LOCKDEP ------- "*" $want"* ]]
}

@test "the kernel's BUSTED-BOOST fails its boost test, where threads may be SCHED_FIFO; elsewhere it is INCOMPLETE, naming why" {
	scenario_copy BUSTED-BOOST
	run env TORTURE_BIN="$BIN" "$TORTURE" --results "$BATS_TEST_TMPDIR/res" --duration 15s BUSTED-BOOST
	echo "$output"
	[ "$status" -eq 1 ]
	if chrt -f 1 true 2>/dev/null && [ -w /proc/sys/kernel/sched_rt_runtime_us ]; then
		[[ $output == *"BUSTED-BOOST ------- "*" FAILURE: boost failure: "* ]]
	else
		[[ $output == *"BUSTED-BOOST ------- "*" INCOMPLETE: not honoured: rcutorture.test_boost=2 ("* ]]
	fi
}

# start_run SCENARIO...: torture.sh with the real program for 60 s in
# the background (SIGINT not ignored: bats runs it as a background job);
# PID, OUT; returns once the runs' consoles say they started.
start_run() {
	OUT=$BATS_TEST_TMPDIR/out
	env --default-signal=INT TORTURE_BIN="$BIN" "$TORTURE" --results "$BATS_TEST_TMPDIR/res" \
		--duration 60s --cpus 4 "$@" >"$OUT" 2>&1 &
	PID=$!
	local i
	for ((i = 0; i < 600; i++)); do
		[ "$(grep -l 'Start of test' "$BATS_TEST_TMPDIR"/res/*/*/console.log 2>/dev/null | wc -l)" -lt $# ] || break
		sleep 0.1
	done
	((i < 600)) || { echo "Bail out! the runs did not start"; cat "$OUT"; false; }
	sleep 1
}

# same_verdict VERDICT TEXT: the table line, summary.json (the program's
# and the results folder's) and recheck.sh all say VERDICT: TEXT for
# TREE09 (% in TEXT: any number), perhaps followed by what the run ignored
# (TREE09's one thread slot leaves the forward-progress reader loop out).
same_verdict() {
	local res line pat=${2//%/*}
	res=$(ls -d "$BATS_TEST_TMPDIR"/res/*/)
	line=$(grep '^TREE09 ------- ' "$OUT")
	# shellcheck disable=SC2053
	[[ $line == *" $1: "$pat || $line == *" $1: "$pat" (ignored: "*")" ]] ||
		{ echo "table: $line"; false; }
	if command -v jq >/dev/null; then
		[ "$(jq -r '.runs[] | select(.scenario == "TREE09") | .verdict' "$res/summary.json")" = "$1" ]
		[ "$(jq -r '.runs[] | select(.scenario == "TREE09") | .line' "$res/summary.json")" = "$line" ]
		[ "$(jq -r .result "$res/TREE09/summary.json")" = "$1" ]
	fi
	run "$RECHECK" "$res"
	[ "$status" -eq 1 ]
	[ "$(grep '^TREE09 ------- ' <<<"$output")" = "$line" ]
	[[ $output != *SUCCESS* ]]
}

# interrupt SIGNAL: start TREE09, signal torture.sh, check the outcome.
interrupt() {
	local st=0
	start_run TREE09
	kill -"$1" "$PID"
	wait "$PID" || st=$?
	cat "$OUT"
	[ "$st" -eq 130 ]
	grep -q "^Interrupted by SIG$1" "$OUT"
	same_verdict INCOMPLETE "interrupted (SIG$1 to torture.sh) after % of 60 s"
	# The program was stopped and said so before the table was printed.
	grep -q 'End of test: INCOMPLETE: stopped by SIGTERM after' "$(ls -d "$BATS_TEST_TMPDIR"/res/*/)TREE09/console.log"
}

@test "SIGTERM to torture.sh mid-run: the runs stop and are waited for; INCOMPLETE everywhere, exit 130" {
	interrupt TERM
}

@test "SIGINT (Ctrl-C) to torture.sh mid-run: the same, naming SIGINT" {
	interrupt INT
}

@test "SIGTERM to the program itself: the run ended early is INCOMPLETE, not SUCCESS (exit 1)" {
	local st=0 pid res
	start_run TREE09
	res=$(ls -d "$BATS_TEST_TMPDIR"/res/*/)
	res=${res%/}
	pid=$(pgrep -f -- "--out $res/TREE09 ") || { echo "Bail out! no rcutorture"; false; }
	kill -TERM $pid
	wait "$PID" || st=$?
	cat "$OUT"
	[ "$st" -eq 1 ]
	same_verdict INCOMPLETE 'stopped by SIGTERM after % of 60 s'
	[ "$(cat "$res/TREE09/exit_status")" = 4 ]
}

@test "bin/find-errors.sh: the error lines of the failed runs with their context; bin/again.sh runs a folder again" {
	need_jq
	run env TORTURE_BIN="$BIN" "$TORTURE" --results "$BATS_TEST_TMPDIR/res" --duration 4s --cpus 4 TREE09 BUSTED
	[ "$status" -eq 1 ]
	RES=$(ls -d "$BATS_TEST_TMPDIR"/res/*/)
	RES=${RES%/}
	run "$FIND_ERRORS" -C 1 "$RES"
	[ "$status" -eq 1 ]
	[[ ${lines[0]} == "=== BUSTED ------- "*"FAILURE: Reader Pipe errors"* ]]
	[[ $output == *"--- $RES/BUSTED/console.log:"* ]]
	[[ $output =~ [0-9]+:busted-torture:\ !!!\ Reader\ Pipe ]]
	[[ $output =~ [0-9]+-busted-torture: ]]	# a line of context
	[[ $output != *"=== TREE09"* ]]
	[[ ${lines[-1]} == "1 of 2 runs did not succeed." ]]
	run "$FIND_ERRORS" "$RES/TREE09"
	[ "$status" -eq 0 ]
	# Again: the same runs, the saved binary, a new duration and a boot argument.
	run "$AGAIN" --results "$BATS_TEST_TMPDIR/again" --cpus 4 --duration 3s --bootargs "rcutorture.stutter=0" "$RES"
	echo "$output"
	[ "$status" -eq 1 ]
	local new
	new=$(ls -d "$BATS_TEST_TMPDIR"/again/*/)
	[[ $output == *"TREE09 ------- "*" SUCCESS"* && $output == *"BUSTED ------- "*" FAILURE: "* ]]
	grep -q 'rcutorture.shutdown_secs=3' "$new/TREE09/cmdline"
	grep -q 'rcutorture.stutter=0' "$new/TREE09/cmdline"
	[ "$(jq -r .params.shutdown_secs "$new/TREE09/summary.json")" = 3 ]
	# A bad boot argument is refused before anything runs.
	run "$AGAIN" --results "$BATS_TEST_TMPDIR/again2" --bootargs "rcutorture.nosuch=1" "$RES"
	[ "$status" -eq 2 ]
	[[ $output == *"--bootargs: unknown parameter 'rcutorture.nosuch'"* ]]
	[ ! -e "$BATS_TEST_TMPDIR/again2" ]
}
