#!/bin/bash
# The SRCU torture types: srcu (static domain), srcud (dynamic, re-created
# every second), srcum (300 domains at once) pass with every thread kind
# enabled, readers sleeping in their sections and signal-handler reads;
# srcu_busted (rcu_read_lock() counted as SRCU protection) must be caught.
# Reader flavors (rcutorture.reader_flavor: 0x2 NMI-safe, 0x4 SRCU-fast,
# 0x8 SRCU-fast-updown) pass on the domain defined for them; up/down
# readers (n_up_down, 32 by default as in the kernel) run with the normal
# and fast-updown flavors only, alone too (nreaders=0), their sections
# checked as reads; a flavor or up/down readers a type cannot have make
# the run INCOMPLETE, naming them; srcu_busted_fast (fast readers on a domain nobody
# waits for) and srcu_busted with SRCU-fast readers must be caught.
. "$(dirname "$0")/../lib/torture_prog.sh"

SECS=$(short_secs 3 4)
ALL="rcutorture.shutdown_secs=$SECS rcutorture.stat_interval=1 rcutorture.nreaders=3
	rcutorture.n_barrier_cbs=2 rcutorture.onoff_interval=30 rcutorture.stutter=1
	rcutorture.fwd_progress_holdoff=1 rcutorture.fwd_progress_div=16 rcutorture.read_exit_delay=1
	rcutorture.read_exit_burst=4 rcutorture.shuffle_interval=1"

if ! command -v jq >/dev/null 2>&1; then
	echo "1..0 # SKIP jq not installed (Debian package jq)"
	exit 0
fi

for t in srcu srcud srcum; do
	passes "$t"
done
jq -e 'select(.final) | .barrier_ok > 0 and .barrier_errors == 0 and .nt > 0 and .gps > 0' \
	"$T_TMP/pass-srcud/stats.jsonl" >/dev/null &&
	grep -q "srcud: generation [0-9]*, [1-9][0-9]* re-creations" "$T_TMP/pass-srcud.log"
ok $? "srcud: re-created while running; barriers, grace periods and signal-handler reads by unregistered readers happened"
grep -q "Tree SRCU g-\?[0-9]* state [0-2] (srcu_ctl) per-thread(idx=[01]): T(" "$T_TMP/pass-srcu.log"
ok $? "srcu: the SRCU stats line"
grep -q "srcum: 300 domains (ids [0-9]*\.\.[0-9]*)" "$T_TMP/pass-srcum.log"
ok $? "srcum: 300 domains"
for t in srcu srcud; do
	jq -e 'select(.final) | .updown_reads > 0 and .reads > .updown_reads' \
		"$T_TMP/pass-$t/stats.jsonl" >/dev/null
	ok $? "$t: up/down readers by default, as in the kernel, besides the readers"
done
jq -e 'select(.final) | .updown_reads == 0' "$T_TMP/pass-srcum/stats.jsonl" >/dev/null
ok $? "srcum: no up/down readers (no down_read())"

# updown_check NAME WANT: the run's up/down reads are (WANT=1) or are not there.
updown_check() {
	local want='.updown_reads == 0'

	[ "$2" = 1 ] && want='.updown_reads > 0'
	jq -e "select(.final) | $want" "$T_TMP/pass-$1/stats.jsonl" >/dev/null
	ok $? "$1: up/down readers $([ "$2" = 1 ] || echo "not ")run, as in the kernel"
}
# flavor_run TYPE MASK DOMAIN UPDOWN: the flavors pass, on the domain named.
flavor_run() {
	passes_as "$1-rf$2" "$1" rcutorture.reader_flavor="$2"
	grep -q "Tree SRCU g-\?[0-9]* state [0-2] ($3) per-thread" "$T_TMP/pass-$1-rf$2.log"
	ok $? "$1-rf$2: readers and grace periods on $3"
	updown_check "$1-rf$2" "$4"
}
flavor_run srcu 0x2 srcu_ctl 0
flavor_run srcu 0x4 srcu_ctlf 0
flavor_run srcu 0x8 srcu_ctlfud 1
flavor_run srcud 0x4 srcud_fast 0
flavor_run srcud 0x8 srcud_fast_updown 1

# Up/down readers alone: every read is one, begun and ended on two threads.
passes_as srcu-updown srcu rcutorture.nreaders=0 rcutorture.read_exit_burst=0 \
	rcutorture.fwd_progress=0 rcutorture.n_up_down=8
jq -e 'select(.final) | .reads > 0 and .reads == .updown_reads' \
	"$T_TMP/pass-srcu-updown/stats.jsonl" >/dev/null
ok $? "srcu-updown: with nreaders=0 every read is an up/down one"

# A flavor the type cannot take, up/down readers a flavor does not have:
# the run does the rest and ends INCOMPLETE (exit 6), naming both.
run unhon rcutorture.torture_type=srcum rcutorture.shutdown_secs=1 rcutorture.stat_interval=0 \
	rcutorture.reader_flavor=0x4 rcutorture.n_up_down=8
[ "$RC" = 6 ] &&
	tail -n 1 "$OUT" | grep -q "End of test: INCOMPLETE: not honoured: rcutorture.reader_flavor=0x4 (torture_type=srcum has one reader flavor); rcutorture.n_up_down=8 (torture_type=srcum has no up/down readers)" &&
	jq -e '.result == "INCOMPLETE" and ([.unhonoured[].param] == ["rcutorture.reader_flavor=0x4", "rcutorture.n_up_down=8"])' \
		"$DIR/summary.json" >/dev/null
ok $? "srcum reader_flavor=0x4 n_up_down=8: INCOMPLETE (exit 6), naming both"
[ "$RC" = 6 ] || show

caught srcu_busted srcu_busted
grep -q "Failure/close-call rcutorture reader segments: (failure" "$OUT" &&
	grep -A12 "Failure/close-call rcutorture reader segments: (failure" "$OUT" | grep -q "RCU"
ok $? "srcu_busted: the failing read's segments are dumped (an RCU-only segment among them)"
caught srcu_busted-rf0x4 srcu_busted rcutorture.reader_flavor=0x4
grep -q "Tree SRCU .* (busted_ctlf) per-thread" "$OUT"
ok $? "srcu_busted-rf0x4: its SRCU readers on the SRCU-fast domain"
caught srcu_busted_fast srcu_busted_fast

done_testing
