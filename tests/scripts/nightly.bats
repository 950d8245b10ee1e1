#!/usr/bin/env bats
# SAN: plain build only (tests scripts, not the sanitized C code)
# bin/nightly.sh with the fake rcutorture on this machine: --jobs (each
# run on its own slot and processors), the TAP and JUnit summaries, the
# passes and their switches, expected failures, bad input.  Over ssh, with
# real OpenSSH test hosts: nightly_ssh.bats.
bats_require_minimum_version 1.5.0

load ../lib/analysis

setup() {
	skip_under_sanitizers
	need jq jq
	need parallel parallel
	export NIGHTLY_LOCAL_ROOT=$BATS_TEST_TMPDIR/local
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

@test "this machine: every run collected into one folder, report, roll-up, TAP, JUnit; BUSTED's failure expected" {
	need gnuplot gnuplot-nox
	nightly --jobs 2 TREE01 BUSTED 2*TRIVIAL
	[ "$status" -eq 0 ]
	for r in TREE01 BUSTED TRIVIAL TRIVIAL.2; do
		[ -f "$RESDIR/$r/summary.json" ] && [ -f "$RESDIR/$r/console.log" ] && [ -f "$RESDIR/$r/torture.log" ]
		[ "$(cat "$RESDIR/$r/host")" = local ]
	done
	[ "$(jq -r .scenario "$RESDIR/TRIVIAL.2/summary.json")" = TRIVIAL ]
	# The TAP summary, printed and saved.
	tap | diff - "$RESDIR/nightly.tap"
	mapfile -t t <"$RESDIR/nightly.tap"
	[ "${t[0]}" = "1..4" ]
	[ "${t[1]}" = "not ok 1 - BUSTED (local): FAILURE: Reader Pipe errors (20 instances) # TODO expected to fail (torture type busted is deliberately broken)" ]
	[[ ${t[2]} == "ok 2 - TREE01 (local): "* ]]
	[[ ${t[4]} == "ok 4 - TRIVIAL.2 (local): "* ]]
	[ "${t[5]}" = "# local: $(nproc) processors, 2 at a time; ran $(jq -r '.[0].runs | join(" ")' "$RESDIR/hosts.json")" ]
	[ "${#t[@]}" -eq 6 ]
	grep -q '<testsuites name="rcutorture nightly '"${RESDIR##*/}"'" tests="4" failures="0" errors="0" skipped="0"' "$RESDIR/junit.xml"
	grep -A1 '<testcase classname="rcutorture.BUSTED" name="BUSTED"' "$RESDIR/junit.xml" | grep -q '<property name="expected" value="FAILURE"/>'
	grep -q '<system-out>expected failure: FAILURE busted ' "$RESDIR/junit.xml"
	jq -e '.[0] | .name == "local" and .state == "ok" and (.runs | sort) == ["BUSTED", "TREE01", "TRIVIAL", "TRIVIAL.2"]' "$RESDIR/hosts.json"
	# The report, the roll-up and the trend lines.
	grep -q '<p class="banner ok">All 4 runs ended as expected (1 expected failure).</p>' "$RESDIR/index.html"
	grep -q '<h2 id="passes">Passes</h2>' "$RESDIR/index.html"
	jq -e 'length == 1 and .[0].pass == "rcutorture" and .[0].runs == 4 and .[0].share_s == 20 and .[0].run_s == 10' "$RESDIR/passes.json"
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

@test "--mutation, --compare-liburcu: run here after the runs, one more TAP test each, their verdicts in the exit status" {
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
	# compare-liburcu: its verdict one more test; a missing tool (exit 3) a SKIP.
	printf '#!/bin/sh\n[ "$1 $3 $4" = "--results --datestamp compare-liburcu" ] || exit 9\nmkdir -p "$2/compare-liburcu"\necho "compare-liburcu.sh: $CMP_SAY"\nexit "$CMP_EXIT"\n' >"$BATS_TEST_TMPDIR/compare"
	chmod +x "$BATS_TEST_TMPDIR/compare"
	export NIGHTLY_COMPARE=$BATS_TEST_TMPDIR/compare
	rm -rf "$OUT"
	CMP_EXIT=3 CMP_SAY="liburcu-dev not installed" nightly --no-report --do-compare-liburcu TREE01
	[ "$status" -eq 0 ]
	grep -q '^ok 2 - compare-liburcu (compare-liburcu/compare.md) # SKIP compare-liburcu.sh: liburcu-dev not installed$' "$RESDIR/nightly.tap"
	grep -q '<skipped message="compare-liburcu.sh: liburcu-dev not installed"/>' "$RESDIR/junit.xml"
	rm -rf "$OUT"
	CMP_EXIT=1 CMP_SAY="a figure could not be measured" nightly --no-report --compare-liburcu "--repeats 2" TREE01
	[ "$status" -eq 1 ]
	grep -q '^not ok 2 - compare-liburcu (compare-liburcu/compare.md): compare-liburcu.sh: a figure could not be measured$' "$RESDIR/nightly.tap"
	nightly --dryrun --mutation "--short" TREE01
	[[ $output == *"Pass mutation: then, here: bin/mutation.sh --short"* ]]
}

@test "passes: --do-all's split of --duration (dry run); --do-none, --do-X, --do-no-X, --no-X; a bad pass" {
	nightly --dryrun --do-all --duration 20m --jobs 1 TREE01 BUSTED
	[ "$status" -eq 0 ]
	[[ $output == *"Pass rcutorture: 720 s of 1200 s: TREE01 BUSTED; 360s each"* ]]
	# The sanitizer passes: the rcutorture scenarios, then every perf pass's.
	[[ $output == *"Pass kasan: 120 s of 1200 s: TREE01-kasan BUSTED-kasan refscale-OURS-kasan "*" rcuscale-TREE-kasan "*" kvfree-KFREE-kasan; 60s each (the perf programs' runs: one round of each measurement, the perf pass's timeout)"* ]]
	[[ $output == *"Pass kcsan: 120 s of 1200 s: TREE01-kcsan BUSTED-kcsan refscale-OURS-kcsan "*" kvfree-KFREE-kcsan; 60s each ("* ]]
	[[ $output != *rcuscale-KFREE-k?san* ]]
	# Perf passes: a measurement's timeout, never under 300 s.
	[[ $output == *"Pass refscale: 60 s of 1200 s: refscale-OURS refscale-LIBURCU refscale-READDELAY; 300s each"* ]]
	[[ $output == *"Pass rcuscale: 60 s of 1200 s: rcuscale-TREE "*"rcuscale-LIBURCU; 300s each"* ]]
	[[ $output != *rcuscale-KFREE* ]]
	[[ $output == *"Pass kvfree: 120 s of 1200 s: kvfree-KFREE; 300s each"* ]]
	[[ $output == *"Pass mutation: then, here: bin/mutation.sh --short"* ]]
	[[ $output == *"Pass compare-liburcu: then, here: bin/compare-liburcu.sh --quick"* ]]
	# Off again, one by one; the weights of the rest share the duration.
	nightly --dryrun --do-all --do-no-kasan --no-kcsan --do-no-refscale --no-rcuscale --no-mutation \
		--no-compare-liburcu --duration 20m --jobs 1 TREE01
	[ "$status" -eq 0 ]
	[[ $output == *"Pass rcutorture: 1028 s of 1200 s: TREE01; 1028s each"* ]]
	[[ $output == *"Pass kvfree: 171 s of 1200 s: kvfree-KFREE; 300s each"* ]]
	[ "$(grep -c '^Pass ' <<<"$output")" -eq 2 ]
	nightly --dryrun --duration 30m --do-none --do-refscale --configs-refscale "2*OURS"
	[ "$status" -eq 0 ]
	[[ $output == *"Pass refscale: 1800 s of 1800 s: refscale-OURS refscale-OURS.2; 900s each"* ]]
	[ "$(grep -c '^Pass ' <<<"$output")" -eq 1 ]
	nightly --do-nosuch TREE01
	[ "$status" -eq 2 ]
	[ "$stderr" = "nightly.sh: --do-nosuch: no such pass (rcutorture kasan kcsan refscale rcuscale kvfree mutation compare-liburcu)" ]
	nightly --do-none
	[ "$status" -eq 2 ]
	[ "$stderr" = "nightly.sh: no pass to run (--do-none without a --do-PASS)" ]
	nightly --do-none --do-refscale --configs-refscale NOSUCH
	[ "$status" -eq 2 ]
	[[ $stderr == "nightly.sh: NOSUCH: no such scenario in "*"/scenarios/refscale" ]]
	[ ! -d "$OUT" ]
}

@test "passes: one folder, TAP, JUnit and report with a section per pass, trends per pass; a perf figure beyond its spread is flagged" {
	need gnuplot gnuplot-nox
	export PERF_BIN=$TFIX/fake-perf
	nightly --jobs 2 --duration 100s --do-none --do-rcutorture --do-kasan --do-refscale --do-kvfree \
		--configs-refscale OURS TREE01 BUSTED
	[ "$status" -eq 0 ]
	for r in TREE01 BUSTED TREE01-kasan BUSTED-kasan refscale-OURS kvfree-KFREE refscale-OURS-kasan kvfree-KFREE-kasan; do
		[ -f "$RESDIR/$r/summary.json" ]
	done
	[ "$(cat "$RESDIR/TREE01-kasan/pass")" = kasan ] && [ "$(cat "$RESDIR/kvfree-KFREE/pass")" = kvfree ]
	[ "$(cat "$RESDIR/kvfree-KFREE-kasan/pass")" = kasan ]
	grep -q -- '--kasan' "$RESDIR/TREE01-kasan/torture.log"
	grep -q 'rcuscale.kfree_rcu_test=1' "$RESDIR/kvfree-KFREE/command"
	grep -q 'rcuscale.kfree_rcu_test=1 .*rcuscale.nruns=1' "$RESDIR/kvfree-KFREE-kasan/command"
	! grep -q 'nruns=1' "$RESDIR/refscale-OURS/command"
	jq -e 'map({(.pass): [.runs, .share_s, .run_s]}) | add == {rcutorture: [2, 70, 70], kasan: [4, 11, 11], refscale: [1, 5, 300], kvfree: [1, 11, 300]}' "$RESDIR/passes.json"
	mapfile -t t <"$RESDIR/nightly.tap"
	[ "${t[0]}" = 1..8 ]
	[[ ${t[2]} == "not ok 2 - BUSTED-kasan (local): FAILURE: Reader Pipe errors ("*") # TODO expected to fail (torture type busted is deliberately broken)" ]]
	[ "${t[7]}" = "ok 7 - refscale-OURS (local): 5 measurements, targets met 0 of 0" ]
	[[ ${t[8]} == "ok 8 - refscale-OURS-kasan (local): "* ]]
	grep -q '<testcase classname="kasan.TREE01" name="TREE01-kasan"' "$RESDIR/junit.xml"
	grep -q '<testcase classname="refscale.OURS" name="refscale-OURS"' "$RESDIR/junit.xml"
	for p in rcutorture kasan refscale kvfree; do
		grep -q "<section class=\"pass\" id=\"pass-$p\"><h3>Pass $p</h3>" "$RESDIR/index.html"
	done
	png_size "$RESDIR/plots/trend-gps_per_s.png"
	png_size "$RESDIR/plots/trend-kasan-gps_per_s.png"
	png_size "$RESDIR/plots/trend-refscale-perf.png"
	grep -q 'src="plots/trend-kasan-gps_per_s.png"' "$RESDIR/index.html"
	[ "$(jq length "$RESDIR/drift.json")" -eq 0 ]
	# Three earlier nights at 10 ns, tonight at 30: flagged, not failed.
	local d n=0
	for d in 2020.01.01-01.00.00 2020.01.02-01.00.00 2020.01.03-01.00.00; do
		cp -a "$RESDIR" "$OUT/$d"
		rm -f "$OUT/$d/runs.jsonl"
	done
	FAKE_PERF_NS=30 nightly --duration 20s --do-none --do-refscale --configs-refscale OURS
	[ "$status" -eq 0 ]
	jq -e 'length == 5 and all(.[]; .pass == "refscale" and .series == "refscale-OURS" and .value == 30 and .mean == 10 and .nights == 4 and .direction == "up")' "$RESDIR/drift.json"
	grep -q '^# drift: refscale refscale-OURS read rcu nreaders=1 ns: 30, up from 10 (band 9.4 to 10.6 over 4 nights)$' "$RESDIR/nightly.tap"
	grep -q '<h2 id="drift">Figures beyond their spread</h2>' "$RESDIR/index.html"
}

@test "expected failures: a busted type that fails keeps the night green; one that does not fail makes it red" {
	# TRIVIAL made busted: expected to fail by its type; BUSTED by its type and name.
	nightly --no-report TRIVIAL BUSTED -- --bootargs rcutorture.torture_type=busted
	[ "$status" -eq 0 ]
	mapfile -t t <"$RESDIR/nightly.tap"
	[[ ${t[1]} == "not ok 1 - BUSTED (local): FAILURE: "*" # TODO expected to fail (torture type busted is deliberately broken)" ]]
	[[ ${t[2]} == "not ok 2 - TRIVIAL (local): FAILURE: "*" # TODO expected to fail (torture type busted is deliberately broken)" ]]
	grep -q 'tests="2" failures="0" errors="0"' "$RESDIR/junit.xml"
	# BUSTED made correct: it succeeds, the tester is broken, the night red.
	rm -rf "$OUT"
	nightly --no-report BUSTED TREE01 -- --bootargs rcutorture.torture_type=rcu
	[ "$status" -eq 1 ]
	mapfile -t t <"$RESDIR/nightly.tap"
	[ "${t[1]}" = "ok 1 - BUSTED (local): SUCCESS # TODO expected to fail (scenario BUSTED must fail), but did not: the tester is broken" ]
	[[ ${t[2]} == "ok 2 - TREE01 (local): "* ]]
	grep -q 'tests="2" failures="1" errors="0"' "$RESDIR/junit.xml"
	grep -q '<failure type="UNEXPECTED-SUCCESS" message="expected to fail (scenario BUSTED must fail), but SUCCESS">' "$RESDIR/junit.xml"
}

@test "passes: the switches change the default set (rcutorture) in order" {
	nightly --dryrun --do-kasan TREE01
	[ "$status" -eq 0 ]
	[ "$(grep '^Pass ' <<<"$output" | cut -d: -f1 | tr '\n' ,)" = "Pass rcutorture,Pass kasan," ]
	nightly --dryrun --do-all --do-none --do-kvfree --no-rcutorture --do-rcutorture TREE01
	[ "$(grep '^Pass ' <<<"$output" | cut -d: -f1 | tr '\n' ,)" = "Pass rcutorture,Pass kvfree," ]
}

# san_programs: the sanitizer builds' programs the kasan and kcsan passes
# run (make: nothing to do when they are there; in CI, make check
# SAN=address|thread reuses these objects).
san_programs() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$TOP" -j2 -s SAN=address \
		build/asan/rcutorture build/asan/refscale build/asan/rcuscale >&2
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$TOP" -j2 -s SAN=thread \
		build/tsan/rcutorture build/tsan/refscale build/tsan/rcuscale >&2
}

@test "--do-all end to end with the real programs: every pass runs and has a real result in the one report, TAP and JUnit" {
	[ -x "$TOP/build/rcutorture" ] || skip "$TOP/build/rcutorture not built (make)"
	"$TOP/build/rcutorture" --list-types | grep -qx urcu-memb ||
		skip "liburcu-dev not installed (compare-liburcu has nothing to compare)"
	san_programs
	# The real scenarios, and perf scenarios of a second or two (one small
	# measurement each), in a scenario folder of the test's own.
	local s=$BATS_TEST_TMPDIR/scenarios
	mkdir -p "$s/refscale" "$s/rcuscale"
	cp "$TOP/scenarios/"{CFcommon,TREE01,TREE01.boot,TREE02,TREE02.boot} "$s/"
	export TORTURE_SCENARIO_DIR=$s
	cp "$TOP/scenarios/refscale/CFcommon" "$s/refscale/"
	cp "$TOP/scenarios/rcuscale/CFcommon" "$s/rcuscale/"
	echo CONFIG_NR_CPUS=2 | tee "$s/refscale/QUICK" "$s/rcuscale/QUICK" >"$s/rcuscale/KFREE"
	echo 'refscale.scale_type=rcu refscale.nreaders=1 refscale.nruns=2 refscale.loops=1000' >"$s/refscale/QUICK.boot"
	echo 'rcuscale.scale_type=rcu rcuscale.nwriters=1 rcuscale.nreaders=0 rcuscale.gps=20 rcuscale.nruns=1' >"$s/rcuscale/QUICK.boot"
	echo 'rcuscale.scale_type=rcu rcuscale.kfree_rcu_test=1 rcuscale.kfree_nthreads=1 rcuscale.kfree_alloc_num=100 rcuscale.kfree_loops=2 rcuscale.nruns=1' >"$s/rcuscale/KFREE.boot"
	unset TORTURE_BIN
	NIGHTLY_BIN_DIR=$TOP/build nightly --jobs 2 --duration 10s --do-all --configs-refscale QUICK --configs-rcuscale QUICK \
		--mutation "--short --bugs poll_early --scenarios TREE02 --duration 2s" \
		--compare-liburcu "--quick --workloads barrier --no-plots" TREE01
	printf '%s\n' "${lines[@]}" | tail -n 20
	[ "$status" -eq 0 ]
	# Every run: its pass, a verdict of SUCCESS, a real figure.
	local -A want=([TREE01]=rcutorture [TREE01-kasan]=kasan [TREE01-kcsan]=kcsan
		[refscale-QUICK]=refscale [refscale-QUICK-kasan]=kasan [refscale-QUICK-kcsan]=kcsan
		[rcuscale-QUICK]=rcuscale [rcuscale-QUICK-kasan]=kasan [rcuscale-QUICK-kcsan]=kcsan
		[kvfree-KFREE]=kvfree [kvfree-KFREE-kasan]=kasan [kvfree-KFREE-kcsan]=kcsan)
	[ "$(jq -s length "$RESDIR/runs.jsonl")" -eq "${#want[@]}" ]
	local r
	for r in "${!want[@]}"; do
		jq -e -s --arg r "$r" --arg p "${want[$r]}" 'map(select(.run == $r)) | length == 1 and (.[0] | .pass == $p
			and .verdict == "SUCCESS" and (if .suite then (.perf | length > 0 and any(.value > 0)) else .gps > 0 end))' \
			"$RESDIR/runs.jsonl" >/dev/null || { echo "run $r: not a SUCCESS of pass ${want[$r]} with figures"; false; }
	done
	# Each ran its build's program: the sanitizer passes the sanitizer builds.
	grep -q " $TOP/build/rcutorture " "$RESDIR/TREE01/cmdline"
	grep -q " $TOP/build/asan/rcutorture " "$RESDIR/TREE01-kasan/cmdline"
	grep -q " $TOP/build/tsan/rcutorture " "$RESDIR/TREE01-kcsan/cmdline"
	grep -q "^$TOP/build/asan/refscale .* refscale.nruns=1 " "$RESDIR/refscale-QUICK-kasan/command"
	grep -q "^$TOP/build/tsan/rcuscale .*kfree_rcu_test=1.* rcuscale.nruns=1 " "$RESDIR/kvfree-KFREE-kcsan/command"
	grep -q "^$TOP/build/rcuscale " "$RESDIR/rcuscale-QUICK/command"
	# The passes run here: the kill table caught the bug; the comparison has figures.
	jq -e -s 'map(select(.bug == "poll_early")) | length == 1 and .[0].caught == 1' "$RESDIR/mutation/kill.json"
	jq -e '.metrics | length > 0' "$RESDIR/compare-liburcu/compare.json"
	# One TAP (a test per run and per pass run here), one JUnit, one report.
	mapfile -t t <"$RESDIR/nightly.tap"
	[ "${t[0]}" = 1..14 ]
	[ "$(grep -c '^ok [0-9]* - ' "$RESDIR/nightly.tap")" -eq 14 ]
	! grep -q '# SKIP' "$RESDIR/nightly.tap"
	grep -q '^ok 13 - mutation kill table (mutation/kill.html): ' "$RESDIR/nightly.tap"
	grep -q '^ok 14 - compare-liburcu (compare-liburcu/compare.md): ' "$RESDIR/nightly.tap"
	grep -q 'tests="14" failures="0" errors="0" skipped="0"' "$RESDIR/junit.xml"
	for r in "${!want[@]}"; do
		grep -q "<testcase classname=\"${want[$r]}\.[A-Z0-9]*\" name=\"$r\"" "$RESDIR/junit.xml"
	done
	for p in rcutorture kasan kcsan refscale rcuscale kvfree mutation compare-liburcu; do
		grep -q "<section class=\"pass\" id=\"pass-$p\">" "$RESDIR/index.html"
	done
	jq -e 'length == 0' "$RESDIR/sanitizer.json"
}
