#!/usr/bin/env bats
# bin/torture.sh end to end with the fake rcutorture (TORTURE_BIN): the
# command line, bad input, --dryrun, the results layout, the summary
# table and the exit status.

load torture_sh_helpers

@test "--help names the options and the default duration" {
	run "$TORTURE" --help
	[ "$status" -eq 0 ]
	local o
	for o in --duration --cpus --configs --bootargs --results --dryrun --repeat --until-fail; do
		[[ $output == *"$o"* ]] || { echo "missing $o"; false; }
	done
	[[ $output == *"default 1m"* ]]
}

@test "bad input: one line naming the option, exit 2, no results" {
	local -a cases=(
		"--frobnicate|--frobnicate: unknown option"
		"--duration 5x TREE01|--duration 5x: expected minutes"
		"--duration|--duration: needs a value"
		"--cpus 0 TREE01|--cpus 0: expected a number of CPUs"
		"--repeat x TREE01|--repeat x: expected a count"
		"NOSUCH|NOSUCH: no such scenario"
		"--configs 2*NOPE|2*NOPE: no such scenario"
		"--bootargs CONFIG_NOPE=y TREE01|--bootargs: CONFIG_NOPE=y: unknown option"
	)
	local c
	for c in "${cases[@]}"; do
		# shellcheck disable=SC2086
		fake_run ${c%%|*}
		[ "$status" -eq 2 ] || { echo "$c: status $status"; false; }
		[ "${#lines[@]}" -eq 1 ] || { echo "$c: $output"; false; }
		[[ ${lines[0]} == *"${c#*|}"* ]] || { echo "$c: $output"; false; }
		[ -z "$RES" ]
	done
}

@test "a malformed scenario file stops everything before anything runs" {
	scenario_file TREE99 'CONFIG_NR_CPUS=2
rcutorture.stutter=3
CONFIG_FOO=y'
	cp "$TOP/scenarios/TREE04" "$TORTURE_SCENARIO_DIR/"
	fake_run TREE04 TREE99
	[ "$status" -eq 2 ]
	[[ $output == *"scenarios/TREE99:3: CONFIG_FOO=y: unknown option" ]]
	[ -z "$RES" ]
}

@test "#CHECK# failure from --bootargs: exit 2 before anything runs" {
	fake_run --bootargs "CONFIG_PREEMPT=n" TREE01
	[ "$status" -eq 2 ]
	[[ $output == "scenarios/TREE01:"*": #CHECK#CONFIG_PREEMPT=y: effective value is n (from --bootargs)" ]]
	[ -z "$RES" ]
}

@test "--dryrun: builds, batches, command lines and notes; nothing runs" {
	run env -u TORTURE_BIN "$TORTURE" --dryrun --results "$BATS_TEST_TMPDIR/res" --cpus 2 \
		--duration 30s --bootargs "rcutorture.stutter=0" TREE05 TREE09 URCU-MB
	[ "$status" -eq 0 ]
	[[ $output == *"Scenarios: TREE05 TREE09 URCU-MB"* ]]
	[[ $output == *"Build debug: make -C $TOP "*" BUILD=build/torture-debug DEBUG=1 build/torture-debug/rcutorture"* ]]
	[[ $output == *"Build plain: make -C $TOP "*" BUILD=build/torture-plain build/torture-plain/rcutorture"* ]]
	[[ $output == *"$TOP/build/torture-debug/rcutorture --out $BATS_TEST_TMPDIR/res/DATE/TREE05 --scenario TREE05 "* ]]
	[[ $output == *"rcutorture.shutdown_secs=30"* ]]
	[[ $output == *"rcutorture.stutter=0"* ]]
	[[ $output == *"note: CONFIG_RCU_NOCB_CPU=y: no userspace meaning: ignored (scenarios/TREE05:"* ]]
	# TREE05 and URCU-MB need 2 CPUs each: three batches, TREE09 alone.
	[ "$(grep -c '^Batch ' <<<"$output")" -eq 3 ]
	[ ! -e "$BATS_TEST_TMPDIR/res" ]
}

@test "--dryrun --cpus: small scenarios share a batch, pinned to different CPUs" {
	run env TORTURE_BIN="$FAKE" "$TORTURE" --dryrun --cpus 2 TREE09 2*TREE09
	[ "$status" -eq 0 ]
	[[ $output == *"Build plain: not built (TORTURE_BIN="* ]]
	[ "$(grep -c '^Batch ' <<<"$output")" -eq 2 ]
	if command -v taskset >/dev/null; then
		[[ $output == *"TREE09: taskset -c 0 "* ]]
		[[ $output == *"TREE09.2: taskset -c 1 "* ]]
	fi
	[[ $output == *"TREE09.3: "* ]]
}

@test "a correct scenario ends in SUCCESS: exit 0, the results layout, the summary line" {
	fake_run --duration 8s --bootargs "rcutorture.seed=42" TREE04
	[ "$status" -eq 0 ]
	[[ $RES =~ /res/[0-9]{4}\.[0-9]{2}\.[0-9]{2}-[0-9]{2}\.[0-9]{2}\.[0-9]{2}$ ]]
	local f
	for f in ConfigFragment cmdline console.log stats.jsonl gp-latency.dat summary.json exit_status; do
		[ -f "$RES/TREE04/$f" ] || { echo "no $f"; false; }
	done
	[ "$(cat "$RES/TREE04/exit_status")" = 0 ]
	grep -q 'rcutorture.seed=42' "$RES/TREE04/cmdline"
	grep -q '^CONFIG_NR_CPUS=8$' "$RES/TREE04/ConfigFragment"
	grep -q '^# CONFIG_NO_HZ_FULL=y: no userspace meaning: ignored' "$RES/TREE04/ConfigFragment"
	[[ $output == *$'\n'"TREE04 ------- "*" GPs ("*"/s) [rcu_sched: g"*"] SUCCESS"* ]]
	[[ $output == *"All 1 runs succeeded."* ]]
	grep -q '^TREE04 ------- .* SUCCESS$' "$RES/log"
	grep -q 'no userspace meaning' "$RES/log"
	[ ! -e "$RES/TREE04/pid" ]
}

@test "BUSTED ends in FAILURE with exit status 1, beside a SUCCESS" {
	fake_run --duration 8s --cpus 4 TREE09 BUSTED
	[ "$status" -eq 1 ]
	[[ $output == *"BUSTED ------- "*" FAILURE: Reader Pipe errors ("*" instances)"* ]]
	[[ $output == *"TREE09 ------- "*" SUCCESS"* ]]
	[[ $output == *"1 of 2 runs failed."* ]]
	grep -q '^BUG: BUSTED Reader Pipe errors' "$RES/BUSTED/console.log.diags"
	[ "$(cat "$RES/BUSTED/exit_status")" = 1 ]
}

@test "--configs repeats get numbered directories; --repeat carries the numbering on" {
	fake_run --duration 4s --cpus 8 --configs "2*TREE09" --repeat 2
	[ "$status" -eq 0 ]
	[ -d "$RES/TREE09" ] && [ -d "$RES/TREE09.2" ] && [ -d "$RES/TREE09.3" ] && [ -d "$RES/TREE09.4" ]
	[ "$(grep -c '^TREE09[.0-9]* ------- ' <<<"$output")" -eq 4 ]
}

@test "--until-fail stops at the first failing round" {
	FAKE_MODE=stall fake_run --duration 1m --until-fail --repeat 5 TREE09
	[ "$status" -eq 1 ]
	[ -d "$RES/TREE09" ] && [ ! -e "$RES/TREE09.2" ]
	[[ $output == *"FAILURE: "*"GP HANG at"* ]]
}

@test "a hung run is killed after --shutdown-grace and judged a FAILURE" {
	FAKE_MODE=hang fake_run --duration 2s --shutdown-grace 1 TREE09
	[ "$status" -eq 1 ]
	[[ $output == *"TREE09 ------- "*"FAILURE: PID "*" hung at "*" vs. 2 seconds"* ]]
	grep -q '^!!! PID .* hung at' "$RES/TREE09/Warnings"
}

@test "a crash, a console warning and a missing summary.json are failures" {
	FAKE_MODE=crash fake_run --duration 4s TREE09
	[ "$status" -eq 1 ]
	[[ $output == *"killed by signal 11 (SEGV)"* ]]
	FAKE_MODE=warn fake_run --duration 4s TREE09
	[ "$status" -eq 1 ]
	[[ $output == *"console badness: Warnings: 1"* ]]
	FAKE_MODE=nosummary fake_run --duration 4s TREE09
	[ "$status" -eq 1 ]
	[[ $output == *"FAILURE: no summary.json"* ]]
}

@test "a parameter the program refuses is a FAILURE naming it" {
	fake_run --duration 4s --bootargs "rcutorture.no_such_knob=1" TREE09
	[ "$status" -eq 1 ]
	[[ $output == *"FAILURE: parameter error: rcutorture: unknown parameter 'rcutorture.no_such_knob'"* ]]
}

@test "a build that fails marks its runs failed and names the log" {
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	printf '#!/bin/sh\necho "make: *** No rule to make target" >&2\nexit 2\n' >"$BATS_TEST_TMPDIR/bin/make"
	chmod +x "$BATS_TEST_TMPDIR/bin/make"
	run env -u TORTURE_BIN PATH="$BATS_TEST_TMPDIR/bin:$PATH" "$TORTURE" --results "$BATS_TEST_TMPDIR/res" \
		--duration 4s TREE09
	[ "$status" -eq 1 ]
	[[ $output == *"Build plain FAILED: make: *** No rule to make target"* ]]
	[[ $output == *"TREE09 ------- FAILURE: build failed (see build-plain.log)"* ]]
}

@test "interrupted: the runs are stopped, exit 130, what is saved can be rechecked" {
	local out=$BATS_TEST_TMPDIR/out pid st=0 i
	FAKE_MODE=hang TORTURE_BIN="$FAKE" "$TORTURE" --results "$BATS_TEST_TMPDIR/res" \
		--duration 1m --cpus 4 2*TREE09 >"$out" 2>&1 &
	pid=$!
	for ((i = 0; i < 100; i++)); do
		[ "$(ls "$BATS_TEST_TMPDIR"/res/*/TREE09*/console.log 2>/dev/null | wc -l)" -lt 2 ] || break
		sleep 0.1
	done
	kill -TERM "$pid"
	wait "$pid" || st=$?
	[ "$st" -eq 130 ]
	grep -q '^Interrupted: runs stopped' "$out"
	for ((i = 0; i < 50; i++)); do
		[ "$(cat "$BATS_TEST_TMPDIR"/res/*/TREE09*/exit_status 2>/dev/null | wc -l)" -lt 2 ] || break
		sleep 0.1
	done
	[ "$(cat "$BATS_TEST_TMPDIR"/res/*/TREE09*/exit_status)" = $'143\n143' ]
	run "$RECHECK" "$BATS_TEST_TMPDIR"/res/*/
	[ "$status" -eq 1 ]
	[[ ${lines[0]} == "TREE09 ------- "*"killed by signal 15 (TERM)"* ]]
	[[ ${lines[1]} == "TREE09.2 -------"* ]]
}
