#!/usr/bin/env bats
# SAN: plain build only (tests scripts, not the sanitized C code)
# bin/torture.sh end to end with the fake rcutorture (TORTURE_BIN; its
# --check is the real program's): the command line, bad input found
# before anything runs, --dryrun, the results layout, the verdicts
# (SUCCESS, FAILURE, INCOMPLETE, SKIPPED) in the table and summary.json,
# interruptions, kvm.sh's options.

load ../lib/scripts

setup() {
	need_real
}

@test "--help names the options and the default duration" {
	run "$TORTURE" --help
	[ "$status" -eq 0 ]
	local o
	for o in --duration --cpus --configs --bootargs --kconfig --scenario-dir --results --dryrun \
		--repeat --until-fail --allcpus --trust-make --buildonly --datestamp --torture --memory \
		--no-affinity --jitter INCOMPLETE SKIPPED; do
		[[ $output == *"$o"* ]] || { echo "missing $o"; false; }
	done
	[[ $output == *"default 1m"* ]]
}

@test "bad input: one line naming the option or argument, exit 2, no results" {
	local -a cases=(
		"--frobnicate|--frobnicate: unknown option"
		"--duration 5x TREE01|--duration 5x: expected minutes"
		"--duration|--duration: needs a value"
		"--cpus 0 TREE01|--cpus 0: expected a number of CPUs"
		"--repeat x TREE01|--repeat x: expected a count"
		"NOSUCH|NOSUCH: no such scenario"
		"--configs 2*NOPE|2*NOPE: no such scenario"
		"--torture rcuscale --frobnicate|--frobnicate: not an option of --torture rcuscale"
		"--torture lock|--torture lock: not implemented"
		"--jitter x TREE09|--jitter x: expected"
		"--datestamp ../x TREE09|--datestamp ../x: expected a relative name"
		"--scenario-dir /nonexistent TREE09|--scenario-dir /nonexistent: no such folder"
		"--gdb TREE09|--gdb: not supported here"
		"--bootargs rcutorture.nosuch=1 TREE09|--bootargs: unknown parameter 'rcutorture.nosuch'"
		"--bootargs rcutree.rcu_fanout=1 TREE09|--bootargs: rcutree.rcu_fanout: value 1 out of range (2 to 64)"
		"--bootargs frobnicate=1 TREE09|--bootargs: unknown parameter 'frobnicate'"
		"--bootargs rcutorture.torture_type=nosuch TREE09|--bootargs: rcutorture.torture_type: unknown type 'nosuch'"
	)
	local c
	for c in "${cases[@]}"; do
		# shellcheck disable=SC2086
		fake_run ${c%%|*}
		[ "$status" -eq 2 ] || { echo "$c: status $status: $output"; false; }
		[ "$(grep -vc '^Building ' <<<"$output")" -eq 1 ] || { echo "$c: $output"; false; }
		[[ $output == *"${c#*|}"* ]] || { echo "$c: $output"; false; }
		[ -z "$RES" ]
	done
}

@test "--dryrun finds the same mistakes, before anything runs" {
	run env TORTURE_BIN="$FAKE" "$TORTURE" --dryrun --bootargs "rcutorture.nosuch=1 rcutree.blimit=0" TREE09
	[ "$status" -eq 2 ]
	[[ $output == *"--bootargs: unknown parameter 'rcutorture.nosuch'"* ]]
	[[ $output == *"--bootargs: rcutree.blimit: value 0 out of range"* ]]
}

@test "an unwritable or impossible --results: a clear error, no results, no temporary folder left" {
	local tmp=$BATS_TEST_TMPDIR/tmp
	mkdir -p "$tmp"
	: >"$BATS_TEST_TMPDIR/file"
	run env TMPDIR="$tmp" TORTURE_BIN="$FAKE" "$TORTURE" --results "$BATS_TEST_TMPDIR/file/res" TREE09
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ $output == *"--results $BATS_TEST_TMPDIR/file/res: $BATS_TEST_TMPDIR/file is not a folder"* ]]
	if [ "$(id -u)" != 0 ]; then
		mkdir "$BATS_TEST_TMPDIR/ro" && chmod 555 "$BATS_TEST_TMPDIR/ro"
		run env TMPDIR="$tmp" TORTURE_BIN="$FAKE" "$TORTURE" --results "$BATS_TEST_TMPDIR/ro/res" TREE09
		[ "$status" -eq 2 ]
		[[ $output == *"is not writable (Permission denied)"* ]]
	fi
	# A folder that looks fine but cannot be made (root may write anywhere else).
	run env TMPDIR="$tmp" TORTURE_BIN="$FAKE" "$TORTURE" --results /proc/torture-test --duration 4s TREE09
	[[ $status == [12] ]]
	[[ $output == *"/proc"*": "* ]]
	[[ $output != *"unbound variable"* ]]
	[ -z "$(ls -A "$tmp")" ]
}

@test "a malformed scenario file stops everything before anything runs; unknown options do not" {
	scenario_copy TREE04
	scenario_file TREE99 'CONFIG_NR_CPUS=2
CONFIG_FOO=y
rcutorture.stutter=3'
	fake_run TREE04 TREE99
	[ "$status" -eq 2 ]
	[[ $output == *"/scenarios/TREE99:3: rcutorture.stutter=3: not CONFIG_X=value, a comment or #CHECK#CONFIG_X=value" ]]
	[[ $output != *"CONFIG_FOO"* ]]
	[ -z "$RES" ]
}

@test "#CHECK# failure from --bootargs: exit 2 before anything runs" {
	fake_run --bootargs "CONFIG_PREEMPT=n" TREE01
	[ "$status" -eq 2 ]
	[[ $output == "scenarios/TREE01:"*": #CHECK#CONFIG_PREEMPT=y: effective value is n (from --bootargs)" ]]
	[ -z "$RES" ]
}

@test "--cpus beyond this host warns once that runs share processors" {
	local n
	n=$(($(nproc) + 3))
	run env TORTURE_BIN="$FAKE" "$TORTURE" --dryrun --cpus "$n" TREE09 TREE04
	[ "$status" -eq 0 ]
	[ "$(grep -c "is more than the .* CPUs this process may use: runs will share processors" <<<"$output")" -eq 1 ]
}

@test "--dryrun: builds, batches, command lines and notes; nothing runs" {
	run env -u TORTURE_BIN TORTURE_CHECK_BIN="$REAL" "$TORTURE" --dryrun --results "$BATS_TEST_TMPDIR/res" \
		--cpus 2 --duration 30s --bootargs "rcutorture.stutter=0" TREE05 TREE09 URCU-MB
	[ "$status" -eq 0 ]
	[[ $output == *"Scenarios: TREE05 TREE09 URCU-MB"* ]]
	[[ $output == *"Build debug: make -C $TOP "*" BUILD=build/torture-debug DEBUG=1 build/torture-debug/rcutorture"* ]]
	[[ $output == *"Build plain: make -C $TOP "*" BUILD=build/torture-plain build/torture-plain/rcutorture"* ]]
	[[ $output == *"$TOP/build/torture-debug/rcutorture --out $BATS_TEST_TMPDIR/res/DATE/TREE05 --scenario TREE05 "* ]]
	[[ $output == *"rcutorture.shutdown_secs=30"* ]]
	[[ $output == *"rcutorture.stutter=0"* ]]
	[[ $output == *"note: TREE05: CONFIG_PROVE_RCU_LIST=y: no userspace meaning: ignored (scenarios/TREE05:"* ]]
	[[ $output == *"note: CONFIG_NO_HZ_IDLE=y: no userspace meaning: ignored (TREE05 TREE09)"* ]]
	[ ! -e "$BATS_TEST_TMPDIR/res" ]
}

@test "--dryrun sched, batches, scenarios, script: kvm.sh's views" {
	run env TORTURE_BIN="$FAKE" "$TORTURE" --dryrun batches --cpus 2 TREE09 2*TREE09
	[ "$status" -eq 0 ]
	[ "$output" = $'1 TREE09 1\n1 TREE09.2 1\n2 TREE09.3 1' ]
	run env TORTURE_BIN="$FAKE" "$TORTURE" --dryrun scenarios --cpus 2 TREE09 2*TREE09
	[ "$output" = $'1. TREE09 TREE09.2\n2. TREE09.3' ]
	run env TORTURE_BIN="$FAKE" "$TORTURE" --dryrun sched --cpus 2 TREE09 2*TREE09
	[[ $output == *"----Start batch 1:"*"TREE09 1: Starting build."*"----Start batch 2:"* ]]
	[[ $output == *"Total number of batches: 2"* ]]
	run env TORTURE_BIN="$FAKE" "$TORTURE" --dryrun script --cpus 2 --no-affinity TREE09
	[[ $output == *"$FAKE --out "*"/DATE/TREE09 --scenario TREE09 "*"&"*"wait"* ]]
	[[ $output != *taskset* ]]
}

@test "--dryrun --cpus: small scenarios share a batch, pinned to different CPUs" {
	run env TORTURE_BIN="$FAKE" "$TORTURE" --dryrun --cpus 2 TREE09 2*TREE09
	[ "$status" -eq 0 ]
	[[ $output == *"Build: none (TORTURE_BIN="* ]]
	[ "$(grep -c '^Batch ' <<<"$output")" -eq 2 ]
	if command -v taskset >/dev/null; then
		[[ $output == *"TREE09: taskset -c 0 "* ]]
		[[ $output == *"TREE09.2: taskset -c 1 "* ]]
	fi
	[[ $output == *"TREE09.3: "* ]]
}

@test "a correct scenario ends in SUCCESS: exit 0, the results layout, the summary line and summary.json" {
	need_jq
	fake_run --duration 8s --bootargs "rcutorture.seed=42" TREE04
	[ "$status" -eq 0 ]
	[[ $RES =~ /res/[0-9]{4}\.[0-9]{2}\.[0-9]{2}-[0-9]{2}\.[0-9]{2}\.[0-9]{2}$ ]]
	local f
	for f in ConfigFragment plan cmdline console.log stats.jsonl gp-latency.dat summary.json exit_status; do
		[ -f "$RES/TREE04/$f" ] || { echo "no $f"; false; }
	done
	[ "$(cat "$RES/TREE04/exit_status")" = 0 ]
	grep -q 'rcutorture.seed=42' "$RES/TREE04/cmdline"
	grep -q '^CONFIG_NR_CPUS=8$' "$RES/TREE04/ConfigFragment"
	grep -q '^nohz_full=1-7$' "$RES/TREE04/ConfigFragment"
	grep -q '^# CONFIG_RCU_TRACE=y: no userspace meaning: ignored' "$RES/TREE04/ConfigFragment"
	# NO_HZ_FULL selects RCU_NOCB_CPU: the nohz_full= CPUs are offloaded.
	grep -q ' rcu_nocbs=1-7 ' "$RES/TREE04/cmdline"
	# The kernel's count (the last ver:) first, the total named apart.
	[[ $output == *$'\n'"TREE04 ------- 100 GPs (12.5/s) [rcu_sched: g160 f0x0] total-gps=40 SUCCESS"* ]]
	[[ $output == *"All 1 runs succeeded."* ]]
	grep -q '^TREE04 ------- .* SUCCESS$' "$RES/log"
	grep -q 'no userspace meaning' "$RES/log"
	[ "$(jq -r '.verdict + " " + .runs[0].scenario + " " + .runs[0].verdict' "$RES/summary.json")" = "SUCCESS TREE04 SUCCESS" ]
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

@test "a scenario whose type is not in the build is SKIPPED, never run as another, and does not fail the set" {
	need_jq
	missing_type	# the LIBURCU=0 build's case: tests/scripts/torture_nourcu.bats
	scenario_copy TREE09
	scenario_file TRACE01 'CONFIG_SMP=y
CONFIG_NR_CPUS=4
CONFIG_PREEMPT=y'
	scenario_file TASKS01.boot "rcutorture.torture_type=$MT"
	fake_run --duration 4s TREE09 TASKS01
	[ "$status" -eq 0 ]
	[[ $output == *"TASKS01 ------- SKIPPED: $MT_WHY"* ]]
	[[ $output == *"All 1 runs succeeded. 1 skipped."* ]]
	[ ! -e "$RES/TRACE01/console.log" ] && [ -f "$RES/TRACE01/skipped" ]
	[ "$(jq -r '.runs[] | select(.scenario == "TRACE01") | .verdict' "$RES/summary.json")" = SKIPPED ]
	run "$RECHECK" "$RES"
	[ "$status" -eq 0 ]
	[[ $output == *"TASKS01 ------- SKIPPED: $MT_WHY"* ]]
	# Nothing that ran is not a success either.
	fake_run --duration 4s TRACE01
	[ "$status" -eq 0 ]
	[[ $output == *"No run ran: 1 skipped."* && $output != *"succeeded"* ]]
	[ "$(jq -r .verdict "$RES/summary.json")" = SKIPPED ]
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

@test "a SUCCESS that did not last the planned time is INCOMPLETE, in the table, summary.json and recheck.sh" {
	need_jq
	FAKE_MODE=short fake_run --duration 30s TREE09
	[ "$status" -eq 1 ]
	[[ $output == *"TREE09 ------- "*" INCOMPLETE: ran 10 of 30 s"* ]]
	[ "$(jq -r '.runs[0].verdict + ": " + .runs[0].reason' "$RES/summary.json")" = "INCOMPLETE: ran 10 of 30 s" ]
	run "$RECHECK" "$RES"
	[ "$status" -eq 1 ]
	[[ ${lines[0]} == "TREE09 ------- "*" INCOMPLETE: ran 10 of 30 s" ]]
	[[ $output == *"1 of 1 runs incomplete."* ]]
}

@test "results that could not be written (a full disk) are INCOMPLETE and name ENOSPC" {
	FAKE_MODE=enospc fake_run --duration 4s TREE09
	[ "$status" -eq 1 ]
	[[ $output == *"TREE09 ------- "*"INCOMPLETE: cannot write stats.jsonl: No space left on device: free disk space"* ]]
}

@test "a build that fails marks its runs failed and names the log" {
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	printf '#!/bin/sh\necho "make: *** No rule to make target" >&2\nexit 2\n' >"$BATS_TEST_TMPDIR/bin/make"
	chmod +x "$BATS_TEST_TMPDIR/bin/make"
	run env -u TORTURE_BIN TORTURE_CHECK_BIN="$REAL" PATH="$BATS_TEST_TMPDIR/bin:$PATH" "$TORTURE" \
		--results "$BATS_TEST_TMPDIR/res" --duration 4s TREE09
	[ "$status" -eq 1 ]
	[[ $output == *"Build plain FAILED: make: *** No rule to make target"* ]]
	[[ $output == *"TREE09 ------- FAILURE: build failed (see build-plain.log)"* ]]
	grep -q "No rule to make target" "$(ls -d "$BATS_TEST_TMPDIR"/res/*/)build-plain.log"
	# Without a build to check with, nothing can be checked: nothing runs.
	rm -rf "$BATS_TEST_TMPDIR/res"
	run env -u TORTURE_BIN PATH="$BATS_TEST_TMPDIR/bin:$PATH" "$TORTURE" \
		--results "$BATS_TEST_TMPDIR/res" --duration 4s TREE09
	[ "$status" -eq 1 ]
	[[ ${lines[-1]} == "torture.sh: build plain FAILED: make: *** No rule to make target: nothing checked, nothing run" ]]
	[ ! -e "$BATS_TEST_TMPDIR/res" ]
}

@test "interrupted: the runs are stopped and waited for, the table so far, exit 130; summary.json and recheck.sh agree" {
	need_jq
	local out=$BATS_TEST_TMPDIR/out pid st=0 i res
	FAKE_MODE=hang TORTURE_BIN="$FAKE" "$TORTURE" --results "$BATS_TEST_TMPDIR/res" \
		--duration 1m --cpus 4 2*TREE09 >"$out" 2>&1 &
	pid=$!
	for ((i = 0; i < 600; i++)); do
		[ "$(grep -l 'Start of test' "$BATS_TEST_TMPDIR"/res/*/TREE09*/console.log 2>/dev/null | wc -l)" -lt 2 ] || break
		sleep 0.1
	done
	((i < 600)) || { kill -TERM "$pid"; echo "Bail out! the runs did not start"; cat "$out"; false; }
	kill -TERM "$pid"
	wait "$pid" || st=$?
	[ "$st" -eq 130 ]
	grep -q '^Interrupted by SIGTERM: stopping the runs' "$out"
	# The table came after the runs ended: nothing is still writing.
	res=$(ls -d "$BATS_TEST_TMPDIR"/res/*/)
	[ "$(cat "$res"/TREE09*/exit_status)" = $'143\n143' ]
	[ "$(grep -c '^TREE09[.2]* ------- .* INCOMPLETE: interrupted (SIGTERM to torture.sh) after [0-9]* of 60 s$' "$out")" -eq 2 ]
	[ "$(jq -r '.verdict' "$res/summary.json")" = INCOMPLETE ]
	run "$RECHECK" "$res"
	[ "$status" -eq 1 ]
	[ "$(grep -c ' INCOMPLETE: interrupted (SIGTERM to torture.sh)' <<<"$output")" -eq 2 ]
	[ "$(grep '^TREE09 ' <<<"$output")" = "$(grep '^TREE09 ' "$out")" ]
}

@test "kvm.sh habits: --kconfig, --scenario-dir, --datestamp, --no-affinity, --trust-make, --memory noted, --buildonly" {
	mkdir -p "$BATS_TEST_TMPDIR/k"
	printf '%s\n' 'CONFIG_RCU_TORTURE_TEST=y' 'CONFIG_PRINTK_TIME=y' >"$BATS_TEST_TMPDIR/k/CFcommon"
	printf '%s\n' 'K1' >"$BATS_TEST_TMPDIR/k/CFLIST"
	printf '%s\n' 'CONFIG_SMP=y' 'CONFIG_NR_CPUS=2' 'CONFIG_PREEMPT=y' '#CHECK#CONFIG_PREEMPT_RCU=y' >"$BATS_TEST_TMPDIR/k/K1"
	printf '%s\n' 'rcutorture.stutter=0' >"$BATS_TEST_TMPDIR/k/K1.boot"
	fake_run --scenario-dir "$BATS_TEST_TMPDIR/k" --datestamp mine --duration 4s --no-affinity \
		--trust-make --memory 2G --kconfig "CONFIG_NR_CPUS=3"
	[ "$status" -eq 0 ]
	[ "$RES" = "$BATS_TEST_TMPDIR/res/mine" ]
	[[ $output == *"K1 ------- "*" SUCCESS"* ]]
	[[ $output == *"note: --memory 2G: not applicable"* && $output == *"note: --trust-make: "* ]]
	grep -q '^CONFIG_NR_CPUS=3$' "$RES/K1/ConfigFragment"
	grep -q 'rcutorture.stutter=0' "$RES/K1/cmdline"
	! grep -q taskset "$RES/K1/cmdline"
	fake_run --scenario-dir "$BATS_TEST_TMPDIR/k" --datestamp mine K1
	[ "$status" -eq 2 ]
	[[ $output == *"--datestamp mine: "*"exists already"* ]]
	run env TORTURE_BIN="$FAKE" "$TORTURE" --buildonly --results "$BATS_TEST_TMPDIR/res2" TREE09
	[ "$status" -eq 0 ]
	[[ $output == *"Built: plain"* ]]
	[ ! -e "$BATS_TEST_TMPDIR/res2" ]
}

@test "--jitter: host processes perturb the batch and are gone after it" {
	fake_run --duration 4s --jitter "2 20000 100" TREE09
	[ "$status" -eq 0 ]
	[[ $output == *"jitter: 2 processes (2 20000 100)"* ]]
	sleep 0.5	# a last sleep of at most 20 ms
	! pgrep -f -- "--results $BATS_TEST_TMPDIR/res" >/dev/null
}

@test "one session per results folder: a second one stops naming the first; --kill-previous stops the first" {
	local out=$BATS_TEST_TMPDIR/out pid st=0 i
	FAKE_MODE=hang TORTURE_BIN="$FAKE" "$TORTURE" --results "$BATS_TEST_TMPDIR/res" \
		--duration 1m --cpus 2 TREE09 >"$out" 2>&1 &
	pid=$!
	for ((i = 0; i < 600; i++)); do
		grep -qs 'Start of test' "$BATS_TEST_TMPDIR"/res/*/TREE09/console.log && break
		sleep 0.1
	done
	((i < 600)) || { kill -TERM "$pid"; echo "Bail out! the run did not start"; cat "$out"; false; }
	local lock=/run/lock
	[ -d "$lock" ] && [ -w "$lock" ] || lock=/tmp
	lock=$lock/torture-$(printf '%s' "$(realpath -m "$BATS_TEST_TMPDIR/res")" | sha1sum | cut -c1-16).lock
	[[ $(cat "$lock") == "$pid "*" --results $BATS_TEST_TMPDIR/res --duration 1m --cpus 2 TREE09" ]]
	# The same folder: exit 2, nothing run; another folder, or --dryrun: fine.
	run env TORTURE_BIN="$FAKE" "$TORTURE" --results "$BATS_TEST_TMPDIR/res" --duration 10s TREE09
	[ "$status" -eq 2 ]
	[[ $output == "torture.sh: $BATS_TEST_TMPDIR/res: in use by another bin/torture.sh (pid $pid "*"): wait for it, or --kill-previous" ]]
	[ "$(ls "$BATS_TEST_TMPDIR/res" | wc -l)" -eq 1 ]
	run env TORTURE_BIN="$FAKE" "$TORTURE" --results "$BATS_TEST_TMPDIR/other" --duration 10s TREE09
	[ "$status" -eq 0 ]
	run env TORTURE_BIN="$FAKE" "$TORTURE" --results "$BATS_TEST_TMPDIR/res" --dryrun TREE09
	[ "$status" -eq 0 ]
	# --kill-previous: the first is stopped (its run judged as interrupted), the second runs.
	run env TORTURE_BIN="$FAKE" "$TORTURE" --results "$BATS_TEST_TMPDIR/res" --kill-previous --duration 10s TREE09
	wait "$pid" || st=$?
	[ "$st" -eq 130 ]
	grep -q ' INCOMPLETE: interrupted (SIGTERM to torture.sh)' "$out"
	[ "$status" -eq 0 ]
	[[ ${lines[0]} == "torture.sh: --kill-previous: stopping bin/torture.sh pid $pid (its runs are judged as interrupted)" ]]
	[ "$(ls -d "$BATS_TEST_TMPDIR"/res/*/ | wc -l)" -eq 2 ]
}

@test "--dryrun without CAP_SYS_NICE: the boost and preemption scenarios are SKIPPED naming why; the RCU's own start-up warning is a note" {
	[ "$(id -u)" = 0 ] && setpriv --inh-caps=-sys_nice --bounding-set=-sys_nice \
		prlimit --rtprio=0 sh -c '! chrt -f 1 true' 2>/dev/null ||
		skip "cannot drop CAP_SYS_NICE here (setpriv, prlimit as root)"
	run env -u TORTURE_BIN TORTURE_CHECK_BIN="$REAL" setpriv --inh-caps=-sys_nice \
		--bounding-set=-sys_nice prlimit --rtprio=0 "$TORTURE" --dryrun TREE03 BUSTED-BOOST
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *"note: TREE03: rcu: rcutree.kthread_prio=2: this process may not make threads SCHED_FIFO"* ]]
	[[ $output == *"  TREE03: SKIPPED: rcutorture.preempt_duration=10: preempting readers takes SCHED_FIFO, refused here (CAP_SYS_NICE: run as root)"* ]]
	[[ $output == *"  BUSTED-BOOST: SKIPPED: rcutorture.test_boost=2: the boost test's threads need SCHED_FIFO, refused here (CAP_SYS_NICE: run as root)"* ]]
}

@test "--kcsan: another project's library is SKIPPED under ThreadSanitizer, naming why (the program's --check=tsan); ours is not" {
	"$REAL" --list-types | grep -qx urcu-memb || skip "liburcu-dev not installed (no urcu-memb type)"
	run env TORTURE_BIN="$FAKE" "$TORTURE" --kcsan --dryrun URCU-MEMB TREE01
	[ "$status" -eq 0 ]
	[[ $output == *"URCU-MEMB: SKIPPED: torture_type=urcu-memb is not run under ThreadSanitizer: its library is not instrumented"* ]]
	[[ $output != *"TREE01: SKIPPED"* ]]
	run env TORTURE_BIN="$FAKE" "$TORTURE" --dryrun URCU-MEMB
	[[ $output != *"URCU-MEMB: SKIPPED"* ]]
}
