#!/usr/bin/env bats
# SAN: plain build only (tests scripts, not the sanitized C code)
# bin/recheck.sh: saved results judged again; doctored console.log and
# summary.json files must be judged FAILURE; torture.sh and recheck.sh
# print the same line for the same run (one judge).

load ../lib/scripts

SAVED=$FIX/results/2025.01.01-00.00.00

setup() {
	cp -r "$SAVED" "$BATS_TEST_TMPDIR/run"
	R=$BATS_TEST_TMPDIR/run
	OK=$R/TREE02
}

recheck_ok_dir() {	# recheck_ok_dir: judge the (doctored) TREE02
	run "$RECHECK" "$OK"
}

# last_line_with PATTERN: the number of the last console.log line matching.
last_line_with() {
	grep -n -- "$1" "$OK/console.log" | tail -n1 | cut -d: -f1
}

@test "saved results: one line a scenario, BUSTED fails, exit 1" {
	run "$RECHECK" "$R"
	[ "$status" -eq 1 ]
	[[ $output == *"TREE02 ------- "*" GPs ("*"/s) ["*": g"*" f0x"*"] total-gps="*" SUCCESS"* ]]
	[[ $output == *"BUSTED ------- "*"FAILURE: Reader Pipe errors ("*" instances)"* ]]
	[[ $output == *"1 of 3 runs failed."* ]]
	[ -f "$R/BUSTED/console.log.diags" ] && [ ! -f "$OK/console.log.diags" ]
}

@test "the GP count is the kernel's, the last ver:, and the RCU's total is named apart" {
	local ver total
	ver=$(grep -o ' ver: [0-9]*' "$OK/console.log" | tail -n1 | awk '{ print $2 }')
	total=$(grep -o 'total-gps=[0-9]*' "$OK/console.log" | tail -n1 | cut -d= -f2)
	[ "$ver" != "$total" ]
	recheck_ok_dir
	[[ ${lines[0]} == "TREE02 ------- $ver GPs ("*"/s) ["*"] total-gps=$total SUCCESS" ]]
}

@test "a results folder's summary.json has every run's verdict, as the table" {
	need_jq
	run "$RECHECK" "$R"
	[ "$(jq -r '.verdict' "$R/summary.json")" = FAILURE ]
	[ "$(jq -r '.runs[] | .scenario + " " + .verdict' "$R/summary.json" | tr '\n' ' ')" = \
		"BUSTED FAILURE TREE02 SUCCESS TREE06 SUCCESS " ]
	[ "$(jq -r '.runs[] | select(.scenario == "BUSTED") | .line' "$R/summary.json")" = "${lines[0]}" ]
	[ "$(jq -r '.failed, .succeeded' "$R/summary.json" | tr '\n' ' ')" = "1 2 " ]
}

@test "a run stopped early by a signal is INCOMPLETE, never SUCCESS; its failures still fail it" {
	need_jq
	local end
	end=$(grep -n 'End of test: SUCCESS' "$OK/console.log" | cut -d: -f1)
	sed -i "${end}s/End of test: SUCCESS:/End of test: INCOMPLETE: stopped by SIGTERM after 12.0 of 20 s:/" "$OK/console.log"
	jq -c '.result = "INCOMPLETE" | .reason = "stopped by SIGTERM after 12.0 of 20 s" | .exit_status = 4 | .duration_s = 12.0' \
		"$SAVED/TREE02/summary.json" >"$OK/summary.json"
	echo 4 >"$OK/exit_status"
	recheck_ok_dir
	[ "$status" -eq 1 ]
	[[ ${lines[0]} == "TREE02 ------- "*" INCOMPLETE: stopped by SIGTERM after 12.0 of 20 s" ]]
	[[ ${lines[1]} == "1 of 1 runs incomplete." ]]
	grep -q '^INCOMPLETE: TREE02 stopped by SIGTERM' "$OK/console.log.diags"
	# The program's SUCCESS after 12 of 20 s is still INCOMPLETE (its own clock).
	cp "$SAVED/TREE02/console.log" "$OK/console.log"
	echo 0 >"$OK/exit_status"
	jq -c '.duration_s = 12.0' "$SAVED/TREE02/summary.json" >"$OK/summary.json"
	recheck_ok_dir
	[[ ${lines[0]} == *" INCOMPLETE: ran 12 of 20 s" ]]
	# Killed by the runner after an interruption: INCOMPLETE with its cause.
	cp "$SAVED/TREE02/summary.json" "$OK/summary.json"
	sed -i '/End of test/d' "$OK/console.log"
	rm "$OK/summary.json"
	echo 137 >"$OK/exit_status"
	echo 'INCOMPLETE: interrupted (SIGINT to torture.sh) after 5 of 20 s' >"$OK/Warnings"
	recheck_ok_dir
	[[ ${lines[0]} == *" INCOMPLETE: interrupted (SIGINT to torture.sh) after 5 of 20 s" ]]
	# A failure seen before the end stays a failure.
	sed -i '2a rcu-torture: !!! Reader Pipe:  1 2 3 4 0 0 0 0 0 0 0' "$OK/console.log"
	recheck_ok_dir
	[[ ${lines[0]} == *" FAILURE: Reader Pipe errors"* ]]
}

@test "exit status 5 (results not written) is INCOMPLETE, naming the disk" {
	echo 5 >"$OK/exit_status"
	sed -i '/End of test/d' "$OK/console.log"
	echo "rcutorture: cannot write summary.json: No space left on device: free disk space (or fix the output directory) and run again" >>"$OK/console.log"
	rm "$OK/summary.json"
	recheck_ok_dir
	[ "$status" -eq 1 ]
	[[ ${lines[0]} == *" INCOMPLETE: cannot write summary.json: No space left on device: free disk space"* ]]
}

@test "a skipped run is SKIPPED with its reason and fails nothing" {
	mkdir "$R/TASKS01"
	echo "torture_type=tasks is not implemented (the kernel's RCU Tasks)" >"$R/TASKS01/skipped"
	run "$RECHECK" "$R/TASKS01" "$OK"
	[ "$status" -eq 0 ]
	[[ ${lines[0]} == "TASKS01 ------- SKIPPED: torture_type=tasks is not implemented (the kernel's RCU Tasks)" ]]
	[[ ${lines[2]} == "All 1 runs succeeded. 1 skipped." ]]
}

@test "one scenario directory judged alone; a success exits 0" {
	recheck_ok_dir
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 2 ]
	[[ ${lines[0]} == "TREE02 ------- "*" SUCCESS" ]]
}

@test "a !!! Reader Pipe line (doctored console) is a FAILURE with the instance count" {
	local n
	n=$(last_line_with 'Reader Pipe:')
	sed -i "${n}s/Reader Pipe:\(  *[0-9][0-9]* [0-9][0-9]*\) [0-9][0-9]* [0-9][0-9]*/!!! Reader Pipe:\1 5 2/" "$OK/console.log"
	grep -q '!!! Reader Pipe' "$OK/console.log"
	recheck_ok_dir
	[ "$status" -eq 1 ]
	[[ ${lines[0]} == *"FAILURE: Reader Pipe errors (7 instances)"* ]]
	grep -q '^BUG: TREE02 Reader Pipe errors (7 instances)' "$OK/console.log.diags"
}

@test "a doctored summary.json: result or error counters disagreeing with the console" {
	need_jq
	cp "$OK/summary.json" "$BATS_TEST_TMPDIR/orig.json"
	jq -c '.result = "FAILURE"' "$BATS_TEST_TMPDIR/orig.json" >"$OK/summary.json"
	recheck_ok_dir
	[ "$status" -eq 1 ]
	[[ ${lines[0]} == *"FAILURE: summary.json says 'FAILURE', console.log says SUCCESS"* ]]
	jq -c '.errors.rtmbe = 3' "$BATS_TEST_TMPDIR/orig.json" >"$OK/summary.json"
	recheck_ok_dir
	[ "$status" -eq 1 ]
	[[ ${lines[0]} == *"FAILURE: summary.json: SUCCESS with 3 errors"* ]]
	jq -c '.exit_status = 1' "$BATS_TEST_TMPDIR/orig.json" >"$OK/summary.json"
	recheck_ok_dir
	[[ ${lines[0]} == *"FAILURE: summary.json exit_status 1, rcutorture exited 0"* ]]
	echo '{"result": ' >"$OK/summary.json"
	recheck_ok_dir
	[[ ${lines[0]} == *"FAILURE: summary.json unreadable"* ]]
}

@test "ver: repeated at the end is a GP HANG, a step back a BAD SEQ" {
	local vers last prev
	# The last block is the final one (it may repeat): doctor the others.
	vers=$(grep -o ' ver: [0-9]*' "$OK/console.log" | awk '{print $2}' | sed '$d')
	last=$(tail -n1 <<<"$vers")
	prev=$(tail -n2 <<<"$vers" | head -n1)
	cp "$OK/console.log" "$BATS_TEST_TMPDIR/console.log"
	sed -i "s/ ver: $last / ver: $prev /" "$OK/console.log"
	recheck_ok_dir
	[ "$status" -eq 1 ]
	[[ ${lines[0]} == *"GP HANG at $prev torture stat "* ]]
	sed "s/ ver: $prev / ver: 1 /" "$BATS_TEST_TMPDIR/console.log" >"$OK/console.log"
	recheck_ok_dir
	[ "$status" -eq 1 ]
	[[ ${lines[0]} == *"BAD SEQ "*":1 version "* ]]
}

@test "no SUCCESS message is a failure" {
	sed -i '/End of test/d' "$OK/console.log"
	recheck_ok_dir
	[ "$status" -eq 1 ]
	[[ ${lines[0]} == *"FAILURE: no success message, "*" successful version messages"* ]]
}

@test "console badness: warnings, writer stalls, ODEBUG, sanitizer reports, BUG" {
	local bad
	for bad in "WARNING: suspicious RCU usage|Warnings: 1" \
		"rcu-torture: ??? Writer stall state RTWS_SYNC(9) g12 f0x0|Stalls: 1" \
		"ODEBUG: activate active (active state 0) object type: rcu_head hint: 0x0|ODEBUG: 1" \
		"WARNING: ThreadSanitizer: data race (pid=1)|Sanitizer: 1" \
		"==================\nWARNING: ThreadSanitizer: data race (pid=1)\n==================|Sanitizer: 3" \
		"=================================================================\n==1==ERROR: AddressSanitizer: heap-use-after-free|Sanitizer: 2" \
		"======================================================\nWARNING: possible circular locking dependency detected|Warnings: 1 Lockdep: 1" \
		"BUG: KCSAN: data-race in foo|Bugs: 1" \
		"rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:|Stalls: 1" \
		"rcu: INFO: rcu_sched detected expedited stalls on CPUs/tasks: { 3-.... } 21000 jiffies s: 5|Stalls: 1"; do
		cp "$SAVED/TREE02/console.log" "$OK/console.log"
		sed -i "2a ${bad%|*}" "$OK/console.log"
		recheck_ok_dir
		[ "$status" -eq 1 ] || { echo "$bad: $output"; false; }
		[[ ${lines[0]} == *"FAILURE: console badness: ${bad#*|}"* ]] || { echo "$bad: $output"; false; }
		[[ ${bad#*|} == *Lockdep* || ${lines[0]} != *Lockdep* ]] || { echo "$bad: $output"; false; }
	done
}

# stall_run PARAM=N STALLS LINE...: TREE02 as if its cmdline had asked
# for rcutorture.PARAM=N, summary.json counted STALLS stalls and LINE...
# (printf %b) came after its console's third line; the console before is
# kept for console_with_warn.
stall_run() {
	local param=$1 stalls=$2
	shift 2
	sed -i "s/\$/ rcutorture.$param/" "$OK/cmdline"
	jq -c ".stalls = $stalls" "$OK/summary.json" >"$BATS_TEST_TMPDIR/s.json"
	cp "$BATS_TEST_TMPDIR/s.json" "$OK/summary.json"
	cp "$OK/console.log" "$BATS_TEST_TMPDIR/console.log"
	printf '%b\n' "$@" >"$BATS_TEST_TMPDIR/warn"
	console_with_warn
}

# console_with_warn: the saved console with stall_run's lines in again.
console_with_warn() {
	{
		sed -n 1,3p "$BATS_TEST_TMPDIR/console.log"
		cat "$BATS_TEST_TMPDIR/warn"
		sed '1,3d' "$BATS_TEST_TMPDIR/console.log"
	} >"$OK/console.log"
}

@test "a stall_cpu run: stall messages are expected if one names the stalled reader" {
	need_jq
	stall_run stall_cpu=8 2 "rcu-torture: rcu_torture_stall begin CPU stall interval 8 secs (P4242)" \
		"rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:" \
		"rcu: \t5-....: (0 GPs behind) P4242 rcu_torture_sta: in a read-side critical section for at least 3000 ms fqs=5" \
		"\t(detected by rcu_preempt, t=3000 jiffies, g=12, q=0)" \
		"rcu-torture: ??? Writer stall state RTWS_SYNC(13) g12 f0x0 ver 5"
	recheck_ok_dir
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[[ ${lines[0]} == *" SUCCESS (stall_cpu=8: 2 expected stall messages, 1 naming the stalled reader P4242)" ]]
	# A warning that names someone else does not count.
	sed -i 's/P4242 rcu_torture_sta/P999 rcu_torture_rea/' "$OK/console.log"
	recheck_ok_dir
	[ "$status" -eq 1 ]
	[[ ${lines[0]} == *"FAILURE: stall_cpu=8: no RCU CPU stall warning named the stalled reader P4242"* ]]
	# No warning at all: the same.
	cp "$BATS_TEST_TMPDIR/console.log" "$OK/console.log"
	recheck_ok_dir
	[ "$status" -eq 1 ]
	[[ ${lines[0]} == *"FAILURE: stall_cpu=8: no RCU CPU stall warning named the stalled reader"* ]]
}

@test "a stall_gp_kthread run: stall messages are expected if one says the grace-period kthread starved" {
	need_jq
	stall_run stall_gp_kthread=5 1 "rcu-torture: rcu_torture_stall begin GP kthread stall interval 5 secs" \
		"rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:" \
		"\t(detected by rcu_torture_wri, t=3000 jiffies, g=12, q=0)" \
		"rcu: rcu_preempt kthread starved for 2999 jiffies! g12 f0x0 RCU_GP_WAIT_FQS(3) ->state=S ->cpu=1"
	recheck_ok_dir
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[[ ${lines[0]} == *" SUCCESS (stall_gp_kthread=5: 1 expected stall messages, 1 saying the grace-period kthread starved)" ]]
	# A stall warning that does not say so: a failure.
	sed -i '/kthread starved for/d' "$OK/console.log"
	recheck_ok_dir
	[ "$status" -eq 1 ]
	[[ ${lines[0]} == *"FAILURE: stall_gp_kthread=5: no RCU CPU stall warning said the grace-period kthread starved"* ]]
	# A run that said it could not honour it asked for nothing: badness.
	console_with_warn
	sed -i '2a rcu-torture: rcutorture.stall_gp_kthread=5: not honoured: srcu has no grace-period thread to stall' \
		"$OK/console.log"
	recheck_ok_dir
	[ "$status" -eq 1 ]
	[[ ${lines[0]} == *"FAILURE: "*"Stalls: 1"*"Starves: 1"* ]] || { echo "$output"; false; }
	# Starvation in a run that did not ask for it: badness, as before.
	sed -i 's/ rcutorture.stall_gp_kthread=5//' "$OK/cmdline"
	console_with_warn
	recheck_ok_dir
	[ "$status" -eq 1 ]
	[[ ${lines[0]} == *"FAILURE: "*"Stalls: 1"*"Starves: 1"* ]] || { echo "$output"; false; }
}

@test "an ODEBUG splat is expected with object_debug=1, and only then" {
	local splat='------------[ cut here ]------------
ODEBUG: activate active (active state 0) object type: rcu_head hint: 0x1
WARNING: rcu_head 0x2: double call_rcu() (the head is already queued)
---[ end trace ]---'
	# TREE06 runs the object_debug self-test: its console has the splat.
	grep -q 'object_debug=1' "$R/TREE06/cmdline"
	grep -q '^ODEBUG: ' "$R/TREE06/console.log"
	run "$RECHECK" "$R/TREE06"
	[ "$status" -eq 0 ]
	[[ ${lines[0]} == *" SUCCESS (1 expected ODEBUG splats (object_debug=1))" ]]
	printf '%s\n' "$splat" >>"$OK/console.log"
	recheck_ok_dir
	[ "$status" -eq 1 ]
	[[ ${lines[0]} == *"console badness: Warnings: 1 ODEBUG: 1"* ]]
}

@test "close calls: noted when rare, a failure when frequent (kvm-recheck's rule)" {
	local n
	n=$(last_line_with 'Reader Batch:')
	cp "$OK/console.log" "$BATS_TEST_TMPDIR/console.log"
	sed -i "${n}s/Reader Batch:\(  *[0-9][0-9]* [0-9][0-9]*\) [0-9][0-9]*/Reader Batch:\1 1/" "$OK/console.log"
	recheck_ok_dir
	[ "$status" -eq 0 ]
	[[ ${lines[0]} == *" SUCCESS (1 close calls)" ]]
	sed "${n}s/Reader Batch:\(  *[0-9][0-9]* [0-9][0-9]*\) [0-9][0-9]*/Reader Batch:\1 500/" \
		"$BATS_TEST_TMPDIR/console.log" >"$OK/console.log"
	recheck_ok_dir
	[ "$status" -eq 1 ]
	[[ ${lines[0]} == *"FAILURE: 500 Reader Batch close calls in "*s* ]]
}

@test "exit status and runner findings: killed, hung, missing files" {
	echo 139 >"$OK/exit_status"
	recheck_ok_dir
	[[ ${lines[0]} == *"FAILURE: killed by signal 11 (SEGV)"* ]]
	echo 0 >"$OK/exit_status"
	echo '!!! PID 123 hung at 99 vs. 60 seconds' >"$OK/Warnings"
	recheck_ok_dir
	[[ ${lines[0]} == *"FAILURE: PID 123 hung at 99 vs. 60 seconds"* ]]
	rm "$OK/Warnings" "$OK/exit_status"
	recheck_ok_dir
	[[ ${lines[0]} == *"FAILURE: no exit_status"* ]]
}

@test "without jq: judged from console.log alone, and it says so" {
	local d=$BATS_TEST_TMPDIR/nojq f
	mkdir -p "$d"
	for f in /usr/bin/* /bin/*; do
		[ "${f##*/}" = jq ] || [ -e "$d/${f##*/}" ] || ln -s "$f" "$d/${f##*/}"
	done
	run env PATH="$d" "$RECHECK" "$R"
	[ "$status" -eq 1 ]
	[[ $output == *"jq not found (Debian package jq)"* ]]
	[[ $output == *"TREE02 ------- "*" GPs ("*"/s) "*" SUCCESS"* ]]
	[[ $output == *"BUSTED ------- "*"FAILURE: Reader Pipe errors"* ]]
}

@test "torture.sh's table and recheck.sh print the same line for the same run" {
	fake_run --duration 4s TREE09
	[ "$status" -eq 0 ]
	local table
	table=$(grep '^TREE09 -------' "$RES/log")
	run "$RECHECK" "$RES"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "$table" ]
}

@test "usage errors: no argument, unknown option, nothing to judge" {
	run "$RECHECK"
	[ "$status" -eq 2 ]
	run "$RECHECK" --bogus
	[ "$status" -eq 2 ]
	[[ $output == *"--bogus: unknown option"* ]]
	run "$RECHECK" "$BATS_TEST_TMPDIR/nope"
	[ "$status" -eq 2 ]
	[[ $output == *"no such directory"* ]]
	mkdir "$BATS_TEST_TMPDIR/empty"
	run "$RECHECK" "$BATS_TEST_TMPDIR/empty"
	[ "$status" -eq 2 ]
	[[ $output == *"no scenario results in"* ]]
}
