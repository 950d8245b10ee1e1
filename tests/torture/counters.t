#!/bin/bash
# The counters' three outputs, made from one table (torture/counters.c),
# keep the shapes the scripts and the kernel's tools read
# (torture/INTERFACE.md): every console stats line has the kernel's
# fields in the kernel's order and separators; every stats.jsonl line and
# summary.json have exactly the documented keys in the documented order;
# the console, stats.jsonl and summary.json show the same values (each
# row wired to its counter); the types that cannot tell gps, gp_seq or
# misuse write null; a failing run's "!!! Failures:" line lists the
# non-zero failure counters.  A dropped row, a wrong separator or a row
# wired to the wrong counter fails here.
. "$(dirname "$0")/../lib/torture_prog.sh"

if ! command -v jq >/dev/null; then
	skip "counter outputs" "jq not installed (Debian package jq)"
	done_testing
	exit
fi

words() { tr -s ' \t\n' '   ' <<<"$*" | sed 's/^ //; s/ $//'; }

# The kernel's stats line after the rtc field, from stats.jsonl's values
# (a jq string), and the shape of the whole line (an ERE).
KERNEL_LINE='"ver: \(.ver) tfle: \(.tfle) rta: \(.rta) rtaf: \(.rtaf) rtf: \(.rtf) " +
	"rtmbe: \(.rtmbe) rtmbkf: \(.rtmbkf_fail)/\(.rtmbkf_try) rtbe: \(.rtbe) " +
	"rtbke: \(.rtbke) rtbf: \(.rtbf) rtb: \(.rtb) nt: \(.nt) " +
	"onoff: \(.onoff.on_ok)/\(.onoff.on_try):\(.onoff.off_ok)/\(.onoff.off_try) " +
	"\(.onoff.min_on),\(.onoff.max_on):\(.onoff.min_off),\(.onoff.max_off) " +
	"\(.onoff.sum_on):\(.onoff.sum_off) (HZ=1000) " +
	"barrier: \(.barrier_ok)/\(.barrier_attempts):\(.barrier_errors) " +
	"read-exits: \(.read_exits) nocb-toggles: \(.nocb_toggles.offload):\(.nocb_toggles.deoffload)"'
N='[0-9]+'
KERNEL_RE="^[a-z0-9_-]+-torture: rtc: 0x[0-9a-f]{16} ver: $N tfle: $N rta: $N rtaf: $N"
KERNEL_RE+=" rtf: $N rtmbe: $N rtmbkf: $N/$N rtbe: $N rtbke: 0 rtbf: 0 rtb: 0 nt: $N"
KERNEL_RE+=" onoff: $N/$N:$N/$N $N,$N:$N,$N $N:$N \(HZ=1000\) barrier: $N/$N:$N"
KERNEL_RE+=" read-exits: $N nocb-toggles: $N:$N\$"

# Keys in order, sub-objects in braces, arrays with their length.
SHAPE='def shape: [to_entries[] | .key + (.value | if type == "object" then "{" + shape + "}"
	elif type == "array" then "[\(length)]" else "" end)] | join(" "); shape'
FAILURES=$(words 'rtbf rtbke rtbre reader_pipe gp_oracle cb_early fbc10 rtmbe rtmbkf rtbe cookie leaks leakpointer gp_hang
	writer_stalls hang_at_stop fwd rcu_stalls stall_unnamed stall_gp_unnamed misuse objdebug register onoff')
STATS_KEYS=$(words "t ver rta rtaf rtf rtmbe rtmbkf_fail rtmbkf_try rtbe rtbke rtbf rtb nt tfle
	pipe[11] batch[11] fbc[11] gps gp_seq reads updown_reads close_calls cookie_errors leaks writer_stalls
	rcu_stalls readers_boosted preemptions boost_holds nmi_dumps barrier_ok barrier_attempts barrier_errors
	onoff{on_ok on_try off_ok off_try min_on max_on min_off max_off sum_on sum_off failures}
	read_exits nocb_toggles{offload deoffload} fwd{floods n_max_cbs launders errors} misuse
	oracle_checks failures{$FAILURES} errors final")
SUMMARY_KEYS=$(words "scenario torture_type params{} unhonoured[0] ignored[0] result reason errors{$FAILURES}
	oracle_checks first_error_s gps ver reads close_calls duration_s seed latency_us{} stalls
	rcu_stalls boost_tests readers_boosted preemptions exit_status")

# The checks every run gets: NAME is the run (its $OUT and $DIR).
outputs_match() {
	local name=$1 bad last want got

	bad=$(grep -F ' rtc: ' "$OUT" | grep -cvE "$KERNEL_RE")
	[ "$bad" = 0 ] && grep -qF ' rtc: ' "$OUT"
	ok $? "$name: every console stats line has the kernel's fields, order and separators"
	[ "$bad" = 0 ] || grep -F ' rtc: ' "$OUT" | grep -vE "$KERNEL_RE" | head -n 2 | sed 's/^/#   /'

	got=$(jq -r "$SHAPE" "$DIR/stats.jsonl" | sort -u)
	[ "$got" = "$STATS_KEYS" ]
	ok $? "$name: every stats.jsonl line has the documented keys, in order"
	[ "$got" = "$STATS_KEYS" ] || diag "got: $got"
	got=$(jq -r ".params = {} | .latency_us = {} | $SHAPE" "$DIR/summary.json")
	[ "$got" = "$SUMMARY_KEYS" ]
	ok $? "$name: summary.json has the documented keys, in order"
	[ "$got" = "$SUMMARY_KEYS" ] || diag "got: $got"

	# The final block and the final stats.jsonl line are printed after
	# every torture thread stopped: the same values.
	last=$(grep -F ' rtc: ' "$OUT" | tail -n 1 | sed -E 's/^.* rtc: 0x[0-9a-f]{16} //')
	want=$(jq -r "select(.final) | $KERNEL_LINE" "$DIR/stats.jsonl")
	[ -n "$want" ] && [ "$last" = "$want" ]
	ok $? "$name: the final stats line shows stats.jsonl's final values"
	[ "$last" = "$want" ] || { diag "console: $last"; diag "jsonl:   $want"; }
	want=$(jq -r 'select(.final) | "Reader Pipe:  \(.pipe | map(tostring) | join(" "))",
		"Reader Batch:  \(.batch | map(tostring) | join(" "))",
		"Free-Block Circulation:  \(.fbc | map(tostring) | join(" "))"' "$DIR/stats.jsonl")
	got=$(for h in "Reader Pipe" "Reader Batch" "Free-Block Circulation"; do
		grep -F " $h: " "$OUT" | tail -n 1 | sed -E 's/^[^ ]+ (!!! )?//'
	done)
	[ "$got" = "$want" ]
	ok $? "$name: the final histogram lines show stats.jsonl's pipe, batch, fbc"
	[ "$got" = "$want" ] || printf 'console:\n%s\njsonl:\n%s\n' "$got" "$want" | sed 's/^/#   /'
	jq -e -s --slurpfile s "$DIR/summary.json" '(.[-1]) as $f | $s[0] as $s | $f.final and
		$s.ver == $f.ver and $s.reads == $f.reads and $s.close_calls == $f.close_calls and
		$s.close_calls == ($f.batch[2:] | add) and $s.oracle_checks == $f.oracle_checks and
		$s.rcu_stalls == $f.rcu_stalls and $s.stalls == $f.writer_stalls + $f.rcu_stalls and
		$s.errors == $f.failures and $f.errors == ($f.failures | add) and
		(($s.gps == null and $f.gps == null) or $s.gps >= $f.gps) and
		$f.barrier_errors == $f.rtbe and $f.failures.rtbe == $f.rtbe and
		$f.failures.onoff == $f.onoff.failures and $f.failures.fwd == $f.fwd.errors and
		$f.failures.cookie == $f.cookie_errors and $f.failures.leaks == $f.leaks and
		$f.failures.rtmbkf == $f.rtmbkf_fail' "$DIR/stats.jsonl" >/dev/null
	ok $? "$name: summary.json and stats.jsonl agree on the counters they share"
}

secs=$(short_secs 3 3)
run full nr_cpus=4 rcutorture.nreaders=2 rcu_nocbs=all rcutorture.nocbs_nthreads=1 \
	rcutorture.nocbs_toggle=20 rcutorture.onoff_interval=50 rcutorture.n_barrier_cbs=2 \
	rcutorture.fwd_progress_holdoff=1 rcutorture.fwd_progress_div=16 \
	rcutorture.read_exit_delay=1 rcutorture.read_exit_burst=2 \
	rcutorture.shutdown_secs="$secs" rcutorture.stat_interval=1
[ "$RC" = 0 ]
ok $? "rcu with every thread kind: SUCCESS ($ELAPSED s)"
[ "$RC" = 0 ] || show
outputs_match rcu
jq -e -s 'all((.gps | type) == "number" and (.gp_seq | type) == "number" and
	(.misuse | type) == "number")' "$DIR/stats.jsonl" >/dev/null
ok $? "rcu: gps, gp_seq and misuse are numbers"
# Each value is its own counter: relations that hold between them, and
# the console's other reports of the same figures.
floods=$(grep -c 'rcu_torture_fwd_prog n_max_cbs: ' "$OUT")
maxcbs=$(sed -n 's/.*rcu_torture_fwd_prog n_max_cbs: \([0-9]*\)$/\1/p' "$OUT" | sort -n | tail -n 1)
launders=$(sed -n 's/.*rcu_torture_fwd_prog_cr .* n_launders: \([0-9]*\) .*/\1/p' "$OUT" |
	awk '{ s += $1 } END { print s + 0 }')
endg=$(sed -n 's/^rcu:  End-test grace-period state: g\(-\?[0-9]*\) f0x0 total-gps=\([0-9]*\)$/\1 \2/p' \
	"$OUT")
jq -e -s --slurpfile s "$DIR/summary.json" --argjson floods "$floods" \
	--argjson maxcbs "${maxcbs:-0}" --argjson launders "$launders" \
	--argjson endseq "${endg% *}" --argjson endgps "${endg#* }" \
	'(.[-1]) as $f | $f.rta >= $f.rtf and $f.rta >= $f.ver and
	$f.barrier_attempts >= $f.barrier_ok and $f.onoff.on_try >= $f.onoff.on_ok and
	$f.onoff.off_try >= $f.onoff.off_ok and $f.onoff.max_on >= $f.onoff.min_on and
	$f.onoff.max_off >= $f.onoff.min_off and $f.onoff.sum_on >= $f.onoff.max_on and
	$f.onoff.sum_off >= $f.onoff.max_off and
	$f.fwd.floods == $floods and $f.fwd.n_max_cbs == $maxcbs and $f.fwd.launders == $launders and
	$f.gps <= $endgps and $endgps <= $s[0].gps and $f.gp_seq <= $endseq' \
	"$DIR/stats.jsonl" >/dev/null
ok $? "rcu: the counters relate as they must (tries >= successes, min <= max, fwd, End-test)"
jq -r 'select(.final) | "#   final: ver \(.ver) onoff \(.onoff.on_ok)/\(.onoff.off_ok) " +
	"barrier \(.barrier_ok) read_exits \(.read_exits) floods \(.fwd.floods) " +
	"nocb \(.nocb_toggles.offload):\(.nocb_toggles.deoffload)"' \
	"$DIR/stats.jsonl"

# A plugin can tell neither grace periods nor misuse: null, not 0.
run lib rcutorture.torture_type="lib:$PLUGIN" rcutorture.shutdown_secs=2 \
	rcutorture.stat_interval=1
[ "$RC" = 0 ]
ok $? "the lib: example plugin: SUCCESS"
outputs_match lib
jq -e -s --slurpfile s "$DIR/summary.json" 'all(.gps == null and .gp_seq == null and
	.misuse == null) and $s[0].gps == null' "$DIR/stats.jsonl" >/dev/null
ok $? "lib: gps, gp_seq and misuse are null in stats.jsonl, gps in summary.json"

# A failing run: the failure line lists the non-zero failure counters, in
# the table's order, just before the marked Reader Pipe line.
run busted rcutorture.torture_type=busted rcutorture.shutdown_secs=2 \
	rcutorture.stat_interval=1 rcutorture.fwd_progress=0
[ "$RC" = 1 ]
ok $? "busted: FAILURE"
outputs_match busted
want=$(jq -r 'select(.final) | "!!! Failures: " + ([.failures | to_entries[] |
	select(.value > 0) | "\(.key)=\(.value)"] | join(" "))' "$DIR/stats.jsonl")
got=$(grep -F -A1 '!!! Failures:' "$OUT" | tail -n 2 | sed -E 's/^[^ ]+ //')
[ "$got" = "$want"$'\n'"$(grep -F 'Reader Pipe:' "$OUT" | tail -n 1 | sed -E 's/^[^ ]+ //')" ] &&
	[[ $want == *reader_pipe=[1-9]* ]] && [[ $got == *$'\n!!! Reader Pipe:'* ]]
ok $? "busted: '$want' before '!!! Reader Pipe:'"
jq -e '.reason == "too-short grace period (Reader Pipe entries past index 1)"' \
	"$DIR/summary.json" >/dev/null
ok $? "busted: the reason is the first non-zero failure counter's"

done_testing
