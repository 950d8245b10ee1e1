#!/usr/bin/env bats
# SAN: plain build only (tests scripts, not the sanitized C code)
bats_require_minimum_version 1.5.0
# bin/compare-liburcu.sh on a short run (--quick): compare.json in the
# shape analysis/compare.jq reads (every metric's samples per flavor, one
# per repeat, pairs ours/other), the plain read loops beside refscale
# and the row that says when the two disagree, the markdown table and
# targets, the plots, the rculfhash rows (bench/lfht), the other
# libraries' types when the perf programs have them (ck-epoch, dpdk-qsbr:
# their rows beside liburcu's); a program that fails; without liburcu-dev or jq,
# one line and exit 2; bad arguments.  The figures themselves are never
# judged.

load ../lib/analysis

CMP=$TOP/bin/compare-liburcu.sh
BIN=${BUILD_DIR:-$TOP/build}

# One quick run of every workload for the file's tests (RUN/q).
setup_file() {
	[ -z "${SAN:-}" ] || return 0
	command -v jq >/dev/null || return 0
	"$BIN/refscale" --list-types 2>/dev/null | grep -qx urcu-memb || return 0
	export RUN=$BATS_FILE_TMPDIR/results
	PERF_BIN_DIR=$BIN "$CMP" --quick --results "$RUN" --datestamp q >"$RUN.out" 2>"$RUN.err" &&
		echo 0 >"$RUN.status" || echo $? >"$RUN.status"
}

setup() {
	skip_under_sanitizers
	need jq jq
	"$BIN/refscale" --list-types | grep -qx urcu-memb ||
		skip "the perf programs were built without liburcu (Debian package liburcu-dev)"
	export PERF_BIN_DIR=$BIN
	# The other libraries' types in this build, as a list, a JSON array,
	# and their pairs (ours:other), for the expected lists below.
	OTHERS=$("$BIN/refscale" --list-types | grep -xE 'ck-epoch|dpdk-qsbr' | tr '\n' ' ') || true
	OTHERS=${OTHERS% }
	OJ=$(printf '%s\n' $OTHERS | jq -R . | jq -s -c 'map(select(length > 0))')
	OPAIRS=$(jq -c 'map({ours: (if . == "ck-epoch" then "rcu" else "sched" end), other: .})' <<<"$OJ")
}

@test "compare-liburcu.sh --quick: every workload ran, compare.json, compare.md, exit 0" {
	[ "$(cat "$RUN.status")" -eq 0 ]
	local w
	for w in read readpaced gp writers idle barrier callbacks lfht; do
		[ -s "$RUN/q/$w.jsonl" ]
		[ "$w" = lfht ] || [ -s "$RUN/q/$w.txt" ]
		grep -q "^compare-liburcu.sh: \[[1-8]/8\] $w: " "$RUN.err"
	done
	# The hash-table programs once per round, the flavors interleaved.
	[ "$(jq -r '"\(.run) \(.flavor)"' "$RUN/q/lfht.jsonl" | tr '\n' ' ')" = \
	  "1 rcu 1 urcu-memb 1 sched 1 urcu-qsbr 2 rcu 2 urcu-memb 2 sched 2 urcu-qsbr " ]
	local o=${OTHERS// /,} r1="" r2=""
	grep -qx "compare-liburcu.sh: read: bench/readloop-{rcu,sched,sched-free,urcu-memb,urcu-qsbr${o:+,$o}}, 0.005 s each at 16 loop offsets, 2 rounds" "$RUN.err"
	for w in $OTHERS; do r1+="1 $w "; r2+="2 $w "; done
	# Each plain loop at its 16 offsets once per round, the flavors interleaved.
	[ "$(jq -r 'select(.params.pad == 0) | "\(.run) \(.flavor)"' "$RUN/q/readloop.jsonl" | tr '\n' ' ')" = \
	  "1 rcu 1 sched 1 sched-free 1 urcu-memb 1 urcu-qsbr ${r1}2 rcu 2 sched 2 sched-free 2 urcu-memb 2 urcu-qsbr $r2" ]
	[ "$(jq -r 'select(.flavor == "rcu" and .run == 1) | .params.pad' "$RUN/q/readloop.jsonl" | tr '\n' ' ')" = "$(seq -s ' ' 0 4 60) " ]
	grep -qx "compare-liburcu.sh: $RUN/q: compare.json compare.md" "$RUN.err"
	# stdout is compare.md.
	diff "$RUN.out" "$RUN/q/compare.md"
}

@test "compare.json: the documented shape, samples per repeat, pairs ours/other, no problem for compare.jq" {
	local j=$RUN/q/compare.json
	jq_ok '.schema == "rcu-torture-compare/2" and .date == "q" and (.started | test("^[0-9]{4}[.][0-9]{2}[.][0-9]{2}-")) and .repeats == 2
		and (.host | .cores > 0 and (.kernel | type) == "string" and (.membarrier | type) == "boolean"
		     and (.liburcu | type) == "string")
		and (.commands | length) == 9' "$j"
	# Every metric: samples, one per repeat (the plain loops': per repeat
	# and loop offset); impl by name; pairs name flavors with results.
	jq_ok '.metrics | length >= 20 and all(.[]; . as $m | (.name | test("^[A-Za-z0-9_]+$"))
		and (.better == "lower" or .better == "higher" or .better == "neither") and (.label | length) > 0
		and all(.results[]; (.samples | length) == (if $m.name == "read_ns_plain" then 32 else 2 end)
			and all(.samples[]; type == "number")
			and .impl == (if .flavor | startswith("urcu-") then "liburcu" elif .flavor | startswith("ck-") then "ck"
				      elif .flavor | startswith("dpdk-") then "dpdk" else "ours" end))
		and all(.pairs[]; . as $p | [$m.results[].flavor] | index([$p.ours]) != null
			and index([$p.other]) != null))' "$j"
	jq_ok '[.metrics[].name] | index("read_ns") and index("read_ns_plain") and index("gp_p50_us_r4") and index("gp_p99_us_r8")
		and index("updates_per_s_r1") and index("updates_per_s_w8") and index("cpu_per_call_us_r1")
		and index("gp_p50_us_idle64") and index("barrier_us") and index("cb_per_s_t1")
		and index("lfht_lookups_per_s") and index("lfht_updates_per_s")' "$j"
	jq_ok '.metrics[] | select(.name | startswith("lfht_")) | [.results[].flavor] == ["rcu", "urcu-memb", "sched", "urcu-qsbr"]
		and .pairs == [{"ours": "rcu", "other": "urcu-memb"}, {"ours": "sched", "other": "urcu-qsbr"}]
		and .better == "higher"' "$j"
	jq_ok '.metrics[] | select(.name == "read_ns") | [.results[].flavor] ==
		["rcu", "sched", "sched-free", "urcu-memb", "urcu-qsbr", "urcu-mb", "urcu-signal", "urcu-bp"] + '"$OJ"'
		and .pairs == [{"ours": "rcu", "other": "urcu-memb"}, {"ours": "sched", "other": "urcu-qsbr"},
			{"ours": "sched-free", "other": "urcu-qsbr"}] + '"$OPAIRS" "$j"
	# refscale's read side is checked against the plain loops.
	jq_ok '[.metrics[] | select(.check) | [.name, .check]] == [["read_ns", "read_ns_plain"]]' "$j"
	jq_ok '.metrics[] | select(.name == "read_ns_plain") | [.results[].flavor] ==
		["rcu", "sched", "sched-free", "urcu-memb", "urcu-qsbr"] + '"$OJ"' and (.pairs | length) == 3 + ('"$OJ"' | length)
		and all(.results[]; (.samples | length) == 32)' "$j"
	# The plain loops' targets: ours against liburcu's, nested against outermost.
	jq_ok '[.targets[] | select(.what | test("plain program")) | [.what, .limit]] ==
		[["rcu/urcu-memb ns (plain program, 16 loop offsets)", 1],
		 ["sched/urcu-qsbr ns (plain program, 16 loop offsets)", 1.5],
		 ["sched-free/urcu-qsbr ns (plain program, 16 loop offsets)", 1],
		 ["rcu nested/outer pair (plain program, 16 loop offsets)", 1],
		 ["sched nested/outer pair (plain program, 16 loop offsets)", 1],
		 ["sched-free nested/outer pair (plain program, 16 loop offsets)", 1]]' "$j"
	jq_ok '.metrics[] | select(.name == "cb_per_s_t1") | (.pairs | length) == 5 + ('"$OJ"' | length) and .better == "higher"' "$j"
	# The other libraries are in the grace-period rows too, beside ours.
	jq_ok '.metrics[] | select(.name == "gp_p50_us_r4") | .pairs == [{"ours": "rcu", "other": "urcu-memb"},
		{"ours": "sched", "other": "urcu-qsbr"}] + '"$OPAIRS" "$j"
	# The paced updater's rate is context, not a contest.
	jq_ok '[.metrics[] | select(.better == "neither") | .name] == ["updater_gps_paced"]' "$j"
	# The samples are the programs' run lines, in run order.
	[ "$(jq -c '.metrics[] | select(.name == "read_ns") | .results[] | select(.flavor == "urcu-memb") | .samples' "$j")" = \
	  "$(jq -s -c '[.[] | select(.kind == "run" and .flavor == "urcu-memb" and .params.updater == 0)] | sort_by(.run) | map(.figures.ns)' "$RUN/q/read.jsonl")" ]
	# analysis/compare.jq reads it without a problem.
	run "$A/compare.jq" "$j"
	[ "$status" -eq 0 ]
	! grep -q problem <<<"$output"
	[ "$(grep -c '"metric"' <<<"$output")" -eq "$(jq '.metrics | length' "$j")" ]
	# The targets the programs printed.
	jq_ok '(.targets | length) > 10 and all(.targets[]; (.met | type) == "boolean" and (.what | length) > 0)
		and any(.targets[]; .what | startswith("idle rcu_barrier() rcu p50"))' "$j"
}

@test "compare.md: bin/perf-table.sh's table: host facts, a ratio row per pair, the cross-check, the targets" {
	local md=$RUN/q/compare.md
	diff "$md" <("$TOP/bin/perf-table.sh" "$RUN/q/compare.json")
	# The run's start in the heading, not the folder --datestamp named.
	grep -q "^### .* ([0-9]* cores), Linux .*, [0-9]\{4\}-[0-9][0-9]-[0-9][0-9], liburcu 0.13" "$md"
	grep -qF 'from `q/compare.json`' "$md"
	grep -q "every figure measured 2 times, the flavors interleaved" "$md"
	grep -qx '| metric | ours | other | ratio | spread | better |' "$md"
	grep -q "^| read-side cost: lock + dereference + unlock, 1 reader | rcu [0-9.]* ns | urcu-memb [0-9.]* ns | [0-9.]* | [0-9.]* \.\. [0-9.]* | ours if < 1; \(read_ns_plain agrees ([0-9.]*)\|\*\*the two methods disagree: read_ns_plain gives [0-9.]*\*\*\) |$" "$md"
	grep -q "^| read-side cost, the same loop as a plain program .* | sched-free [0-9.]* ns | urcu-qsbr [0-9.]* ns | .* | ours if < 1 |$" "$md"
	grep -q "^| call_rcu() callbacks invoked per second, 1 thread | rcu [0-9.kM]* /s | urcu-bp .* | ours if > 1 |$" "$md"
	grep -q "^| rculfhash lookups per second, .* | rcu [0-9.kM]* /s | urcu-memb [0-9.kM]* /s | .* | ours if > 1 |$" "$md"
	grep -q "^| rculfhash updates .* | sched [0-9.kM]* /s | urcu-qsbr [0-9.kM]* /s | .* | ours if > 1 |$" "$md"
	grep -q "^| the paced updater's grace periods per second .* | rcu .* | urcu-memb .* | informational |$" "$md"
	# One row per pair of every metric, whatever its figure's form (a
	# CPU-per-call difference may be below zero: the process clock lags a
	# tick per running thread; a tiny one prints as 1e-05).
	[ "$(grep -c '^| .* | \(rcu\|sched\|sched-free\) [^ |]* [a-z/]* | \(urcu-\|ck-\|dpdk-\)' "$md")" -eq "$(jq '[.metrics[].pairs[]] | length' "$RUN/q/compare.json")" ]
	grep -q "^Targets the programs printed" "$md"
	grep -q "^| idle rcu_barrier() rcu p50 (nwriters=1 nreaders=0 nidle=0) | [0-9.]* us | <= 100 | \(met\|\*\*missed\*\*\) |$" "$md"
}

@test "compare-liburcu.sh: a bar chart per metric (bin/plot.sh) when gnuplot is there" {
	need gnuplot gnuplot-nox
	local n
	n=$(jq '.metrics | length' "$RUN/q/compare.json")
	[ "$(ls "$RUN/q/plots"/compare-*.png | wc -l)" -eq "$n" ]
	[ "$(png_size "$RUN/q/plots/compare-read_ns.png")" = 800x500 ]
	grep -qx "plot.sh: $RUN/q/plots: $n plots (png)" "$RUN.err"
}

@test "compare-liburcu.sh: a program that fails: exit 1, the rest kept" {
	local fake=$BATS_TEST_TMPDIR/bin
	mkdir -p "$fake"
	ln -s "$BIN/refscale" "$fake/refscale"
	ln -s "$BIN/bench" "$fake/bench"
	printf '#!/bin/sh\necho "rcuscale: broken on purpose" >&2\nexit 1\n' >"$fake/rcuscale"
	chmod +x "$fake/rcuscale"
	PERF_BIN_DIR=$fake run "$CMP" --quick --workloads read,barrier --no-plots --results "$BATS_TEST_TMPDIR/r" --datestamp f
	[ "$status" -eq 1 ]
	grep -q "compare-liburcu.sh: barrier failed: rcuscale .* (its output: .*/barrier.txt)" <<<"$output"
	jq_ok '[.metrics[].name] == ["read_ns", "read_ns_plain", "read_ns_updater"]' "$BATS_TEST_TMPDIR/r/f/compare.json"
	[ ! -d "$BATS_TEST_TMPDIR/r/f/plots" ]
}

@test "compare-liburcu.sh: refscale's read row says so when the plain loop disagrees (an artificially slowed urcu-memb loop)" {
	local fake=$BATS_TEST_TMPDIR/bin f
	mkdir -p "$fake/bench"
	ln -s "$BIN/refscale" "$fake/refscale"
	ln -s "$BIN/rcuscale" "$fake/rcuscale"
	for f in rcu sched sched-free urcu-qsbr $OTHERS; do
		ln -s "$BIN/bench/readloop-$f" "$fake/bench/readloop-$f"
	done
	# urcu-memb's plain loop reports ten times its cost.
	printf '#!/bin/sh\n"%s" "$@" | jq -c ".figures.ns *= 10"\n' "$BIN/bench/readloop-urcu-memb" >"$fake/bench/readloop-urcu-memb"
	chmod +x "$fake/bench/readloop-urcu-memb"
	PERF_BIN_DIR=$fake run "$CMP" --quick --workloads read --no-plots --results "$BATS_TEST_TMPDIR/r" --datestamp s
	[ "$status" -eq 0 ]
	grep -q "^| read-side cost: lock + dereference + unlock, 1 reader | rcu .* | ours if < 1; \*\*the two methods disagree: read_ns_plain gives [0-9.]*\*\* |$" \
		"$BATS_TEST_TMPDIR/r/s/compare.md"
	jq_ok '.metrics[] | select(.name == "read_ns") | .check == "read_ns_plain"' "$BATS_TEST_TMPDIR/r/s/compare.json"
}

@test "compare-liburcu.sh without liburcu-dev (no pkg-config here): one line how to install it, exit 2" {
	path_without pkg-config
	run "$CMP" --quick --results "$BATS_TEST_TMPDIR/r"
	[ "$status" -eq 2 ]
	[ "$output" = "compare-liburcu.sh: liburcu-dev is not installed: apt-get install liburcu-dev (then run this again)" ]
	[ ! -d "$BATS_TEST_TMPDIR/r" ]
}

@test "compare-liburcu.sh without jq: one line naming the package, exit 2" {
	path_without jq
	run "$CMP" --quick --results "$BATS_TEST_TMPDIR/r"
	[ "$status" -eq 2 ]
	[ "$output" = "compare-liburcu.sh: jq not installed (Debian package jq)" ]
}

@test "compare-liburcu.sh: bad arguments are one line and exit 2" {
	run "$CMP" --repeats 0
	[ "$status" -eq 2 ] && [ "$output" = "compare-liburcu.sh: --repeats 0: expected 1 to 9999" ]
	run "$CMP" --workloads read,nosuch
	[ "$status" -eq 2 ]
	[ "$output" = "compare-liburcu.sh: --workloads: unknown workload 'nosuch' (read readpaced gp writers idle barrier callbacks lfht)" ]
	run "$CMP" --frobnicate
	[ "$status" -eq 2 ] && [ "$output" = "compare-liburcu.sh: --frobnicate: unknown argument (see --help)" ]
	run "$CMP" --results "$RUN" --datestamp q
	[ "$status" -eq 2 ] && [ "$output" = "compare-liburcu.sh: $RUN/q exists already (use --datestamp)" ]
	run "$CMP" --help
	[ "$status" -eq 0 ] && grep -q "^usage: bin/compare-liburcu.sh" <<<"$output"
}

@test "bench/readloop: each of its 16 loop copies runs; a pad not among them is refused, exit 2" {
	local p
	for p in 0 4 60; do
		run "$BIN/bench/readloop-rcu" 0.001 1 "$p"
		[ "$status" -eq 0 ]
		jq -e --argjson p "$p" '.params.pad == $p and .figures.ns > 0' <<<"$output" >/dev/null
	done
	for p in 2 64 -4; do
		run "$BIN/bench/readloop-rcu" 0.001 1 "$p"
		[ "$status" -eq 2 ]
		[[ "$output" == *"pad (0, 4, ..., 60)"* ]]
	done
}
