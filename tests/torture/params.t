#!/bin/bash
# rcutorture's command line: good and malformed parameters, exit statuses,
# one-line errors naming the parameter, the lib:/types plumbing, the files.
. "$(dirname "$0")/../lib/torture_prog.sh"

# bad ARGS... EXPECTED_STATUS PATTERN DESCRIPTION (args end at "--")
bad() {
	local args=() st pat desc
	while [ "$1" != "--" ]; do args+=("$1"); shift; done
	shift
	st=$1 pat=$2 desc=$3
	"$RCUTORTURE" "${args[@]}" >"$T_TMP/bad.out" 2>"$T_TMP/bad.err"
	local rc=$?
	local lines
	lines=$(wc -l <"$T_TMP/bad.err")
	if [ "$rc" -eq "$st" ] && [ "$lines" -eq 1 ] && grep -q -- "$pat" "$T_TMP/bad.err" &&
	   ! grep -q "Start of test" "$T_TMP/bad.out"; then
		ok 0 "$desc"
	else
		ok 1 "$desc"
		diag "status $rc (want $st), stderr:"; sed 's/^/#   /' "$T_TMP/bad.err"
	fi
}

bad rcutorture.nreaders=abc -- 2 "rcutorture.nreaders: bad value 'abc'" "non-numeric value"
bad rcutorture.nreaders=3x -- 2 "rcutorture.nreaders: bad value '3x'" "trailing garbage"
bad rcutorture.nreaders= -- 2 "rcutorture.nreaders: bad value ''" "empty value"
bad rcutorture.stutter=-1 -- 2 "rcutorture.stutter: value -1 out of range" "negative stutter"
bad rcutorture.irqreader=maybe -- 2 "rcutorture.irqreader: bad value 'maybe'" "bad boolean"
bad rcutorture.shutdown_secs=99999999999999999999 -- 2 "rcutorture.shutdown_secs: bad value" "overflow"
bad rcutorture.bogus=1 -- 2 "unknown parameter 'rcutorture.bogus'" "unknown rcutorture parameter"
bad rcutorture.nreaders -- 2 "rcutorture.nreaders: missing value" "missing value"
bad rcutorture.seed=-5 -- 2 "rcutorture.seed: bad value '-5'" "negative seed"
bad rcutorture.torture_type=nosuch -- 2 "unknown type 'nosuch'" "unknown torture_type"
bad rcutree.blimit=0 -- 2 "rcutree.blimit: value 0 out of range" "library parameter out of range"
bad rcutree.nosuch=1 -- 2 "unknown parameter 'rcutree.nosuch'" "unknown library parameter"
bad nreaders -- 2 "malformed argument 'nreaders'" "token without '='"
bad --out -- 2 "--out: missing argument" "--out without a directory"
bad --frobnicate -- 2 "malformed argument '--frobnicate'" "unknown option"
bad rcutorture.torture_type=trivial rcutorture.gp_exp=1 -- 2 "no update-side primitives" \
	"gp_exp alone on a type without expedited grace periods"
bad rcutorture.torture_type=lib:/nonexistent/x.so -- 3 "cannot load" "lib: plugin that does not exist"
bad rcutorture.torture_type=lib:/bin/true -- 3 "torture_type=lib:/bin/true" "lib: path that is not a plugin"

# --check: every parameter checked, nothing started; one line a finding,
# in command-line order, N the parameter's position (0: the whole).
"$RCUTORTURE" --check rcutorture.nosuch=1 nohz_full=1-3 frobnicate=2 rcutree.rcu_fanout=1 \
	rcutorture.fwd_progress_need_resched=0 rcutorture.stutter=2 rcutorture.nfakewriters=-1 nr_cpus=4 \
	>"$T_TMP/check.out" 2>"$T_TMP/check.err"
rc=$?
cat >"$T_TMP/check.want" <<'WANT'
error 1: unknown parameter 'rcutorture.nosuch'
ignored 2: nohz_full=1-3: ignored: no scheduling-clock ticks in userspace (bin/torture.sh offloads its CPUs' callbacks, as the kernel does)
foreign 3: unknown parameter 'frobnicate'
error 4: rcutree.rcu_fanout: value 1 out of range (2 to 64)
ignored 5: rcutorture.fwd_progress_need_resched=0: ignored: no cond_resched() in userspace
WANT
[ "$rc" = 2 ] && [ ! -s "$T_TMP/check.err" ] && grep -v '^note 0: ' "$T_TMP/check.out" | cmp -s - "$T_TMP/check.want" &&
	! grep -q "Start of test" "$T_TMP/check.out"
ok $? "--check: one line a finding naming its position, exit 2, nothing started"
[ "$rc" = 2 ] || sed 's/^/#   /' "$T_TMP/check.out"
# A parameter that defines a test this program does not do is
# "unhonoured" unless set to the value that asks for nothing; made-up
# names under the kernel's namespaces are errors.
"$RCUTORTURE" --check rcutorture.test_srcu_lockdep=2 rcutorture.test_srcu_lockdep=0 \
	rcutorture.nreaders_exp=1 torture.nosuch=1 \
	torture.disable_onoff_at_boot=1 >"$T_TMP/check.out" 2>&1
rc=$?
cat >"$T_TMP/check.want" <<'WANT'
unhonoured 1: rcutorture.test_srcu_lockdep=2: not honoured: the kernel's lockdep deadlock scenarios need lock-dependency checking: a CONFIG_PROVE_LOCKING build (make DEBUG=1)
ignored 2: rcutorture.test_srcu_lockdep=0: ignored: the kernel's lockdep deadlock scenarios need lock-dependency checking: a CONFIG_PROVE_LOCKING build (make DEBUG=1)
error 3: unknown parameter 'rcutorture.nreaders_exp'
error 4: unknown parameter 'torture.nosuch'
ignored 5: torture.disable_onoff_at_boot=1: ignored: no boot here: hotplug starts with the run
WANT
[ "$rc" = 2 ] && grep -v '^note 0: ' "$T_TMP/check.out" | cmp -s - "$T_TMP/check.want"
ok $? "--check: a defining parameter set is unhonoured, its inert value ignored; made-up names are errors"
[ "$rc" = 2 ] || diff "$T_TMP/check.want" "$T_TMP/check.out" | sed 's/^/#   /'
# Ours that the torture type cannot do are unhonoured at their token too.
"$RCUTORTURE" --check rcutorture.torture_type=srcu rcutorture.stall_gp_kthread=1 rcutorture.gp_poll_full=1 \
	rcutorture.gp_sync=1 >"$T_TMP/check.out" 2>&1
rc=$?
cat >"$T_TMP/check.want" <<'WANT'
unhonoured 2: rcutorture.stall_gp_kthread=1: not honoured: srcu has no grace-period thread to stall
unhonoured 3: rcutorture.gp_poll_full=1: not honoured: srcu has no poll_full primitives
WANT
[ "$rc" = 0 ] && grep -v '^note 0: ' "$T_TMP/check.out" | cmp -s - "$T_TMP/check.want"
ok $? "--check: stall_gp_kthread and gp_poll_full on srcu are unhonoured, named at their tokens"
[ "$rc" = 0 ] || diff "$T_TMP/check.want" "$T_TMP/check.out" | sed 's/^/#   /'
# reader_flavor and n_up_down are honoured where the type has the flavors
# and the up/down readers (srcu: 0x1 and 0x8 have up/down readers, as in
# the kernel); elsewhere a value given is not honoured, the default
# n_up_down quietly means none; bits past the kernel's are an error.
# check_is ARGS... -- WANT-LINES...: --check's findings (notes aside).
check_is() {
	local args=() line
	while [ "$1" != -- ]; do args+=("$1"); shift; done
	shift
	"$RCUTORTURE" --check "${args[@]}" >"$T_TMP/check.out" 2>&1
	rc=$?
	: >"$T_TMP/check.want"
	for line; do printf '%s\n' "$line" >>"$T_TMP/check.want"; done
	grep -v '^note 0: ' "$T_TMP/check.out" | cmp -s - "$T_TMP/check.want"
	ok $? "--check ${args[*]}: $(tr '\n' ' ' <"$T_TMP/check.want" | cut -c1-60)"
	grep -v '^note 0: ' "$T_TMP/check.out" | diff "$T_TMP/check.want" - | sed 's/^/#   /'
}
check_is rcutorture.reader_flavor=0x4 rcutorture.n_up_down=32 -- \
	"unhonoured 1: rcutorture.reader_flavor=0x4: not honoured: torture_type=rcu has one reader flavor" \
	"unhonoured 2: rcutorture.n_up_down=32: not honoured: torture_type=rcu has no up/down readers"
# A token is named as written: the kernel's SRCU-L writes 0x4, another 4.
check_is rcutorture.reader_flavor=4 rcutorture.n_up_down=0x20 -- \
	"unhonoured 1: rcutorture.reader_flavor=4: not honoured: torture_type=rcu has one reader flavor" \
	"unhonoured 2: rcutorture.n_up_down=0x20: not honoured: torture_type=rcu has no up/down readers"
check_is rcutorture.reader_flavor=0x1 rcutorture.reader_flavor=0 rcutorture.n_up_down=0 --
check_is rcutorture.torture_type=srcu rcutorture.reader_flavor=0x4 rcutorture.n_up_down=8 -- \
	"unhonoured 3: rcutorture.n_up_down=8: not honoured: torture_type=srcu has no up/down readers with reader_flavor=0x4"
check_is rcutorture.torture_type=srcu rcutorture.reader_flavor=0x4 --
check_is rcutorture.torture_type=srcud rcutorture.reader_flavor=0x8 rcutorture.n_up_down=8 --
check_is rcutorture.torture_type=srcum rcutorture.reader_flavor=0x2 -- \
	"unhonoured 2: rcutorture.reader_flavor=0x2: not honoured: torture_type=srcum has one reader flavor"
check_is rcutorture.torture_type=srcu rcutorture.reader_flavor=0x10 -- \
	"error 2: rcutorture.reader_flavor: value 16 out of range (0 to 15)"
"$RCUTORTURE" --check rcutorture.stutter=2 nr_cpus=4 threadirqs >"$T_TMP/check.out" 2>&1
[ $? = 0 ] && grep -qx "ignored 3: threadirqs: ignored: no interrupt threads in userspace" "$T_TMP/check.out" &&
	grep -q "^note 0: thread slots: 4: 3 readers" "$T_TMP/check.out" && [ "$(grep -vc '^note\|^ignored' "$T_TMP/check.out")" = 0 ]
ok $? "--check: good parameters exit 0 with notes only"
# A kernel type this build lacks (the Tiny build has only its own
# flavors; the full build has every kernel type, so there it is skipped).
"$RCUTORTURE" --list-types >"$T_TMP/types" 2>&1
kt=$(sed -n 's/^\([^ ]*\) (not in this build: the kernel.s \(.*\))$/\1\t\2/p' "$T_TMP/types" | head -n 1)
if [ -n "$kt" ]; then
	why="torture_type=${kt%%$'\t'*} is not in this build (the kernel's ${kt#*$'\t'})"
	"$RCUTORTURE" --check rcutorture.stutter=2 rcutorture.torture_type="${kt%%$'\t'*}" \
		rcutorture.reader_flavor=9 >"$T_TMP/check.out" 2>&1
	[ $? = 0 ] && [ "$(cat "$T_TMP/check.out")" = "skip 2: $why" ]
	ok $? "--check: a kernel type not in this build is a skip, with nothing else"
	bad rcutorture.torture_type="${kt%%$'\t'*}" -- 2 "$why" \
		"a run of a type not in this build is refused, saying so"
else
	skip "--check: a kernel type not in this build is a skip" "every kernel torture type is built here"
	skip "a run of a type not in this build is refused" "every kernel torture type is built here"
fi

"$RCUTORTURE" --list-types >"$T_TMP/types" 2>&1
ok $? "--list-types exits 0"
for t in rcu rcu_bh sched sched-free busted busted_barrier busted_unlock busted_poll busted_poll_full trivial; do
	grep -qx "$t" "$T_TMP/types"; ok $? "--list-types lists $t"
done
# The kernel's names for two of our types: listed, accepted, run as ours
# under the kernel's name (console prefix, summary.json).
for a in rcu_busted:busted busted_srcud:srcu_busted; do
	k=${a%%:*}
	grep -qxF "$k (alias of ${a#*:})" "$T_TMP/types"; ok $? "--list-types lists $k as an alias of ${a#*:}"
	"$RCUTORTURE" --out "$T_TMP/alias-$k" rcutorture.torture_type="$k" rcutorture.stop_on_error=1 \
		rcutorture.shutdown_secs=30 rcutorture.stat_interval=0 >"$T_TMP/alias.log" 2>&1
	rc=$?
	[ "$rc" = 1 ] && tail -n 1 "$T_TMP/alias.log" | grep -q "^$k-torture:--- End of test: FAILURE" &&
		jq -e --arg t "$k" '.torture_type == $t and .result == "FAILURE"' "$T_TMP/alias-$k/summary.json" >/dev/null
	ok $? "torture_type=$k runs ${a#*:} under the kernel's name, caught (status $rc)"
done
! grep -q "^busted_srcud (not implemented" "$T_TMP/types"
ok $? "busted_srcud is no longer listed as not implemented"
"$RCUTORTURE" --help | grep -q "nfakewriters=4"; ok $? "--help shows kernel defaults"

# A good run: library parameters pass through, nr_cpus defines "ncpus"
# (nreaders=-1 => ncpus-1), later tokens win, the seed is printed.
run good rcutorture.nreaders=2 rcutorture.nreaders=-1 nr_cpus=4 rcutree.blimit=20 \
	rcutorture.shutdown_secs=2 rcutorture.stat_interval=1 rcutorture.seed=4242 \
	--scenario UNIT
ok $RC "good parameters: exit 0 ($ELAPSED s)"
grep -q "^rcu-torture:--- Start of test: nreaders=3 .*seed=4242" "$OUT"
ok $? "Start line: nreaders=-1 with nr_cpus=4 gives 3 readers, seed echoed"
[ "$(tail -n 1 "$OUT" | grep -c '^rcu-torture:--- End of test: SUCCESS: ')" = 1 ]
ok $? "last line is End of test: SUCCESS"
grep -q "^rcu:  Start-test grace-period state: g" "$OUT"; ok $? "Start-test grace-period state line"
grep -q "^rcu-torture: Reader Pipe:  [0-9]" "$OUT"; ok $? "Reader Pipe line"
grep -q "^rcu-torture: Free-Block Circulation:  [0-9]" "$OUT"; ok $? "Free-Block Circulation line"
grep -Eq "^rcu-torture: rtc: 0x[0-9a-f]+ ver: [0-9]+ tfle: [01] rta: .* nt: [0-9]+ onoff: .* \(HZ=1000\) barrier: [0-9]+/[0-9]+:[0-9]+ read-exits: [0-9]+ nocb-toggles: 0:0$" "$OUT"
ok $? "stats line in the kernel's format"
jq -e 'select(.final) | .errors == 0 and (.pipe | length) == 11 and (.fbc | length) == 11 and .gps > 0' \
	"$DIR/stats.jsonl" >/dev/null
ok $? "stats.jsonl: a final line with 11-entry arrays and gps"
[ "$(jq -s 'length' "$DIR/stats.jsonl")" -ge 2 ]; ok $? "stats.jsonl: one line per print"
jq -e '.result == "SUCCESS" and .exit_status == 0 and .seed == 4242 and .scenario == "UNIT"
	and .params.nreaders == 3 and .latency_us.count > 0 and (.errors | add) == 0' \
	"$DIR/summary.json" >/dev/null
ok $? "summary.json: SUCCESS, seed, scenario, params, latency"
awk 'NR == 1 { bad += !/^#/ } NR > 1 { bad += !($2 ~ /^(sync|exp|cond|poll|async|barrier)(_exp)?(_full)?$/ && $3 ~ /^[0-9]+$/) } END { exit bad || NR < 2 }' \
	"$DIR/gp-latency.dat"
ok $? "gp-latency.dat: header, then '<t> <kind> <us>' lines"

# test_nmis: as the test ends, one thread dump per count, of the next
# reader ("CPU"), each answered by the reader's signal handler.
run nmis nr_cpus=3 rcutorture.test_nmis=2 rcutorture.shutdown_secs=1 rcutorture.stat_interval=0
[ "$RC" = 0 ] && [ "$(grep -c "rcutorture_test_nmis: CPU [0-9]* invoking dump_cpu_task([01])" "$OUT")" = 2 ] &&
	[ "$(grep -c '^[^ ]*(.*)\[0x[0-9a-f]*\]$' "$OUT")" -ge 2 ] && ! grep -q "did not answer" "$OUT" &&
	jq -e 'select(.final) | .nmi_dumps == 2' "$DIR/stats.jsonl" >/dev/null
ok $? "test_nmis=2: two dumps of reader threads as the test ends, SUCCESS"

# The full-state polled update types: each alone is the writer's and the
# fakewriters' only kind of wait (gp-latency.dat), and the run passes.
for k in cond_full poll_full cond_exp_full poll_exp_full; do
	run "$k" rcutorture.gp_$k=1 rcutorture.nreaders=2 rcutorture.shutdown_secs="$(short_secs 2 3)" \
		rcutorture.stat_interval=1
	kinds=$(awk 'NR > 1 && $2 != "barrier" { print $2 }' "$DIR/gp-latency.dat" | sort -u | tr '\n' ' ')
	[ "$RC" = 0 ] && [ "$kinds" = "$k " ] && grep -q "rcu_torture_write_types: Testing 1 update types" "$OUT" &&
		jq -e '.result == "SUCCESS" and .unhonoured == [] and .latency_us.count > 0' "$DIR/summary.json" >/dev/null
	ok $? "gp_$k=1: every grace-period wait is a $k one (${kinds:-none}), SUCCESS"
done
# A type without the full-state calls refuses them as it refuses gp_poll:
# noted and not honoured (INCOMPLETE), or an error when nothing else is left.
bad rcutorture.torture_type=sched rcutorture.gp_poll_full=1 -- 2 "no update-side primitives" \
	"gp_poll_full alone on a type without the full-state calls"
run schedfull rcutorture.torture_type=sched rcutorture.gp_sync=1 rcutorture.gp_cond_full=1 \
	rcutorture.gp_poll_exp_full=1 rcutorture.shutdown_secs=1 rcutorture.stat_interval=0
[ "$RC" = 6 ] && grep -q "rcu_torture_write_types: gp_cond_full without primitives" "$OUT" &&
	grep -q "rcu_torture_write_types: gp_poll_exp_full without primitives" "$OUT" &&
	grep -q "rcu_torture_write_types: Testing 1 update types" "$OUT" &&
	tail -n 1 "$OUT" | grep -q "End of test: INCOMPLETE: not honoured: rcutorture.gp_cond_full=1 (sched has no cond_full primitives); rcutorture.gp_poll_exp_full=1 (sched has no poll_exp_full primitives)" &&
	jq -e '[.unhonoured[].param] == ["rcutorture.gp_cond_full=1", "rcutorture.gp_poll_exp_full=1"]' "$DIR/summary.json" >/dev/null
ok $? "sched with gp_sync and two _full types: the _full ones without primitives, not honoured (INCOMPLETE), gp_sync runs"

# The shuffler keeps to the processors the run may use (a taskset from
# torture.sh's --cpus): with one, it does not run at all.
if [ "$(nproc --all)" -ge 2 ] && command -v taskset >/dev/null; then
	OUT=$T_TMP/shuf.log
	taskset -c 0 "$RCUTORTURE" --out "$T_TMP/shuf" nr_cpus=3 rcutorture.shuffle_interval=1 \
		rcutorture.shutdown_secs=5 rcutorture.stat_interval=0 >"$OUT" 2>&1 &
	pid=$!
	allowed=
	for t in 1.5 2; do	# samples inside two different shuffle steps
		sleep $t
		allowed+=" $(cat /proc/$pid/task/*/status 2>/dev/null | sed -n 's/^Cpus_allowed_list:[[:space:]]*//p')"
	done
	allowed=$(tr ' ' '\n' <<<"$allowed" | sed '/^$/d' | sort -u | paste -sd' ' -)
	wait $pid
	RC=$?
	[ "$RC" = 0 ] && [ "$allowed" = 0 ]
	ok $? "taskset -c 0: every thread stays on CPU 0 while the shuffler would run (saw: $allowed)"
else
	skip "shuffler within the taskset" "needs 2 CPUs and taskset (util-linux)"
fi

# maxcpus (the kernel's online-CPU count) wins over nr_cpus (tree size).
run maxcpus nr_cpus=43 maxcpus=5 rcutorture.shutdown_secs=1 rcutorture.stat_interval=0
[ "$RC" = 0 ] && grep -q "Start of test: nreaders=4 " "$OUT" && ! grep -q "raised" "$OUT"
ok $? "nr_cpus=43 maxcpus=5: 4 readers, nr_cpus kept"
run slots nr_cpus=3 rcutorture.n_barrier_cbs=2 rcutorture.shutdown_secs=2 rcutorture.stat_interval=0 \
	rcutorture.read_exit_delay=1 rcutorture.object_debug=1 debug_objects=1
[ "$RC" = 0 ] && grep -q "thread slots: 3: 2 readers, 1 for stall/forward-progress, 0 shared" "$OUT" &&
	grep -q "rcu_torture_barrier_cbs: no free thread slot (nr_cpus): posting unregistered" "$OUT" &&
	grep -q "rcu_torture_read_exit: no free thread slot" "$OUT" &&
	grep -q "duplicated callback was detected" "$OUT" && ! grep -q "rcu: WARNING\|all .* thread slots are in use" "$OUT"
ok $? "nr_cpus=3: readers first, the others do without and say so; no registration errors"
run fwdshort nr_cpus=3 rcutorture.fwd_progress=2 rcutorture.shutdown_secs=1 rcutorture.stat_interval=0
[ "$RC" = 0 ] && tail -n 1 "$OUT" | grep -q "End of test: SUCCESS" &&
	jq -e '.ignored | map(select(.param == "rcutorture.fwd_progress=2" and (.why | test("reader-loop")))) | length == 1' \
		"$DIR/summary.json" >/dev/null
ok $? "fwd_progress=2 with one slot for it: SUCCESS, the skipped reader loop listed as ignored"
bad nr_cpus=3 rcutorture.nreaders=4 -- 2 "rcutorture.nreaders=4 needs 4 thread slots, but rcu has 3" \
	"more readers than thread slots"
bad maxcpus=0 -- 2 "maxcpus: bad value '0'" "maxcpus=0"

# Library parameters on a type that does not use our library.
if [ "${SAN:-}" = thread ]; then
	skip "library parameter with a liburcu type" "liburcu is not built with ThreadSanitizer (false reports)"
elif "$RCUTORTURE" --list-types | grep -qx urcu-memb; then
	run na rcutorture.torture_type=urcu-memb rcutree.blimit=20 rcutorture.shutdown_secs=1 \
		rcutorture.stat_interval=0
	[ "$RC" = 0 ] && grep -q "rcutree.blimit=20: not applicable to torture_type=urcu-memb" "$OUT"
	ok $? "library parameter with a liburcu type: noted as not applicable"
else
	skip "library parameter with a liburcu type" "liburcu-dev not installed"
fi

# The kernel's values: nfakewriters=-1 is one a CPU; boot parameters of
# the kernel with no userspace meaning are accepted with a note.
run kvals nr_cpus=3 rcutorture.nfakewriters=-1 rcutorture.fwd_progress_need_resched=0 \
	rcutree.use_softirq=0 rcutorture.shutdown_secs=1 rcutorture.stat_interval=0
[ "$RC" = 0 ] && grep -q "Start of test: nreaders=2 nfakewriters=3 " "$OUT" &&
	grep -q "^rcu-torture: rcutorture.fwd_progress_need_resched=0: ignored: no cond_resched()" "$OUT" &&
	grep -q "^rcu-torture: rcutree.use_softirq=0: ignored" "$OUT"
ok $? "nfakewriters=-1 is ncpus; kernel-only parameters are noted on the console"

# fwd_progress=N runs N forward-progress threads; -1 one a CPU, and never
# more than one a CPU (said).
run fwd3 rcutorture.shutdown_secs=1 rcutorture.stat_interval=0 rcutorture.fwd_progress=3 maxcpus=4
n3=$(grep -c "rcu_torture_fwd_progress task started" "$OUT")
run fwdall rcutorture.shutdown_secs=1 rcutorture.stat_interval=0 rcutorture.fwd_progress=-1 maxcpus=2
nall=$(grep -c "rcu_torture_fwd_progress task started" "$OUT")
run fwd9 rcutorture.shutdown_secs=1 rcutorture.stat_interval=0 rcutorture.fwd_progress=9 maxcpus=2
[ "$n3" = 3 ] && [ "$nall" = 2 ] && [ "$RC" = 0 ] &&
	[ "$(grep -c "rcu_torture_fwd_progress task started" "$OUT")" = 2 ] &&
	grep -q "^rcu-torture: fwd_progress=9: one forward-progress thread a CPU: 2" "$OUT"
ok $? "fwd_progress: 3 threads, -1 one a CPU, 9 on 2 CPUs two (said) ($n3, $nall)"

# Every check may pass, but a run whose parameters ask for a test it does
# not do is INCOMPLETE (exit 6), naming them; summary.json lists them and
# the other rcutorture parameters it ignored.
run unhon rcutorture.shutdown_secs=1 rcutorture.stat_interval=0 rcutorture.test_srcu_lockdep=2 \
	rcutorture.fwd_progress_need_resched=1
[ "$RC" = 6 ] &&
	tail -n 1 "$OUT" | grep -q "End of test: INCOMPLETE: not honoured: rcutorture.test_srcu_lockdep=2 (the kernel.s lockdep deadlock scenarios need lock-dependency checking: a CONFIG_PROVE_LOCKING build (make DEBUG=1)): " &&
	jq -e '.result == "INCOMPLETE" and .exit_status == 6
		and .unhonoured == [{"param": "rcutorture.test_srcu_lockdep=2", "why": "the kernel'"'"'s lockdep deadlock scenarios need lock-dependency checking: a CONFIG_PROVE_LOCKING build (make DEBUG=1)"}]
		and .ignored == [{"param": "rcutorture.fwd_progress_need_resched=1", "why": "no cond_resched() in userspace"}]' \
		"$DIR/summary.json" >/dev/null
ok $? "a test asked for and not done: INCOMPLETE (exit 6) naming it, summary.json's unhonoured and ignored"

# A run stopped by a signal before shutdown_secs is INCOMPLETE (exit 4).
"$RCUTORTURE" rcutorture.shutdown_secs=60 rcutorture.stat_interval=0 --out "$T_TMP/early" \
	>"$T_TMP/early.log" 2>&1 &
pid=$!
for ((i = 0; i < 600; i++)); do grep -q "Start of test" "$T_TMP/early.log" && break; sleep 0.1; done
# Only the main thread takes the stop signals (a process-directed signal
# given to a reader or an exiting thread was lost under TSan): every other
# thread blocks SIGHUP, SIGINT and SIGTERM (SigBlk bits 0, 1 and 14).
sleep 0.5
others=0 open=""
for t in /proc/"$pid"/task/*; do
	[ "${t##*/}" = "$pid" ] && continue
	others=$((others + 1))
	blk=$(awk '/^SigBlk:/ { print $2 }' "$t/status" 2>/dev/null) || continue
	[ -z "$blk" ] || (((0x$blk & 0x4003) == 0x4003)) || open+=" $(cat "$t/comm" 2>/dev/null)"
done
[ "$others" -gt 5 ] && [ -z "$open" ]
ok $? "SIGHUP, SIGINT and SIGTERM: blocked in every thread but main ($others threads; open in:${open:- none})"
kill -TERM "$pid"
wait "$pid"
rc=$?
[ "$rc" = 4 ] && tail -n 1 "$T_TMP/early.log" | grep -q "End of test: INCOMPLETE: stopped by SIGTERM after [0-9.]* of 60 s: " &&
	jq -e '.result == "INCOMPLETE" and .exit_status == 4 and (.reason | test("stopped by SIGTERM"))' \
		"$T_TMP/early/summary.json" >/dev/null
ok $? "SIGTERM before shutdown_secs: INCOMPLETE, exit 4, in the console and summary.json (status $rc)"

# Results that cannot be written: INCOMPLETE, exit 5, ENOSPC named.
"$RCUTORTURE" rcutorture.shutdown_secs=1 rcutorture.stat_interval=0 >/dev/full 2>"$T_TMP/full.err"
rc=$?
[ "$rc" = 5 ] && grep -q "^rcutorture: cannot write the console (stdout): No space left on device: free disk space" "$T_TMP/full.err"
ok $? "a full disk: exit 5, the error names ENOSPC and what to do (status $rc)"

# Too few thread slots behind the program's back (RCU_BOOTARGS is read at
# init): readers that cannot register never read unprotected; the run fails.
RCU_BOOTARGS=nr_cpus=1 timeout -k 5 120 "$RCUTORTURE" rcutorture.nreaders=3 rcutorture.shutdown_secs=2 \
	rcutorture.stat_interval=0 >"$T_TMP/nr1.log" 2>&1
rc=$?
[ "$rc" != 0 ] && ! grep -q "outside RCU's view" "$T_TMP/nr1.log" &&
	{ grep -q "End of test: FAILURE: a torture thread could not register" "$T_TMP/nr1.log" ||
	  grep -q "^rcu: BUG: .*rcu_register_thread() failed" "$T_TMP/nr1.log"; }
ok $? "RCU_BOOTARGS=nr_cpus=1 with 3 readers: a FAILURE, no unprotected read (status $rc)"

# The CPU count holds for types with no nr_cpus of their own.
if "$RCUTORTURE" --list-types | grep -qx urcu-memb && [ "${SAN:-}" != thread ]; then
	run urcucpus rcutorture.torture_type=urcu-memb nr_cpus=3 rcutorture.shutdown_secs=1 rcutorture.stat_interval=0
	[ "$RC" = 0 ] && grep -q "Start of test: nreaders=2 " "$OUT" && ! grep -q "nr_cpus=3: not applicable" "$OUT"
	ok $? "nr_cpus=3 gives a liburcu type 3 CPUs"
else
	skip "nr_cpus with a liburcu type" "liburcu-dev not installed (or a ThreadSanitizer build)"
fi

# SIGTERM ends a run without shutdown_secs cleanly, with a verdict.
"$RCUTORTURE" rcutorture.stat_interval=0 --out "$T_TMP/sig" >"$T_TMP/sig.log" 2>&1 &
pid=$!
sleep 1
kill -TERM "$pid"
wait "$pid"
rc=$?
[ "$rc" = 0 ] && tail -n 1 "$T_TMP/sig.log" | grep -q "End of test: SUCCESS" &&
	[ -s "$T_TMP/sig/summary.json" ]
ok $? "SIGTERM: orderly stop, verdict and summary.json (status $rc)"

done_testing
