#!/usr/bin/env bats
# SAN: plain build only (tests scripts, not the sanitized C code)
# bin/mutation.sh: bad input, and one short real run (a safety bug, a
# liveness bug and the unmodified build) whose kill table must say that
# both bugs were caught and the unmodified build was not.

load ../lib/scripts

MUTATION=$TOP/bin/mutation.sh

@test "mutation.sh: --help names the outputs" {
	run "$MUTATION" --help
	[ "$status" -eq 0 ]
	[[ $output == *kill.json* && $output == *kill.md* ]]
}

@test "mutation.sh: an unknown bug or option is one line, exit 2, nothing run" {
	need_jq
	run "$MUTATION" --bugs "no_such_bug" --results "$BATS_TEST_TMPDIR/m"
	[ "$status" -eq 2 ]
	[ "$output" = "mutation.sh: --bugs: unknown bug 'no_such_bug' (see configs/mutation.bugs)" ]
	[ ! -e "$BATS_TEST_TMPDIR/m" ]
	run "$MUTATION" --repeat x
	[ "$status" -eq 2 ]
	[[ $output == *"--repeat x: expected a count >= 1"* ]]
	run "$MUTATION" --frobnicate
	[ "$status" -eq 2 ]
}

@test "mutation.sh --weakmem: its own bug table, the fence bugs only" {
	need_jq
	run "$MUTATION" --weakmem --bugs "poll_early" --results "$BATS_TEST_TMPDIR/m"
	[ "$status" -eq 2 ]
	[ "$output" = "mutation.sh: --bugs: unknown bug 'poll_early' (see configs/mutation-weakmem.bugs)" ]
	[ ! -e "$BATS_TEST_TMPDIR/m" ]
	run "$MUTATION" --help
	[[ $output == *--weakmem* && $output == *"printed and not asserted"* ]]
}

@test "mutation.sh --plugins: its own bug table, the slot plugin's mutants" {
	need_jq
	run "$MUTATION" --plugins --bugs "poll_early" --results "$BATS_TEST_TMPDIR/m"
	[ "$status" -eq 2 ]
	[ "$output" = "mutation.sh: --bugs: unknown bug 'poll_early' (see configs/mutation-plugins.bugs)" ]
	[ ! -e "$BATS_TEST_TMPDIR/m" ]
	run "$MUTATION" --help
	[[ $output == *--plugins* && $output == *libtorture_slots_NAME.so* ]]
}

@test "mutation.sh: a malformed bug table names its file and line; a Tiny RCU bug must name its scenarios" {
	need_jq
	local -A want=(
		["poll_early safety yes|broken sometimes yes"]="bugs:2: class 'sometimes' (expected safety or liveness)"
		["tiny_poll_now safety yes"]="tiny_poll_now: a Tiny RCU bug needs its scenarios (@TINY01,...)"
	)
	local t
	for t in "${!want[@]}"; do
		tr '|' '\n' <<<"$t" >"$BATS_TEST_TMPDIR/bugs"
		run env MUTATION_BUGS="$BATS_TEST_TMPDIR/bugs" "$MUTATION" --results "$BATS_TEST_TMPDIR/m"
		[ "$status" -eq 2 ]
		[[ $output == *"${want[$t]}"* ]]
		[ ! -e "$BATS_TEST_TMPDIR/m/kill.json" ]
	done
}

@test "mutation.sh: a short run catches poll_early and qs_never_recorded, no false alarm" {
	need_jq
	[ -z "${SAN:-}" ] || skip "builds its own plain and injection builds (run without SAN)"
	run "$MUTATION" --short --bugs "poll_early qs_never_recorded" --scenarios TREE02 \
		--duration 8s --results "$BATS_TEST_TMPDIR/m"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *"every must-catch bug was caught in every round; no false alarm"* ]]
	K=$BATS_TEST_TMPDIR/m/kill.json
	# One row per bug x scenario, with every documented key.
	[ "$(jq -s length "$K")" -eq 3 ]
	jq -e -s 'all(has("bug") and has("class") and has("must") and has("scenario") and
		(.runs|type) == "number" and (.caught|type) == "number" and has("median_s") and
		(.hang_reported|type) == "number" and (.holdout_named|type) == "number" and
		(.reason|type) == "string")' "$K"
	jq -e -s '.[] | select(.bug == "poll_early") | .caught == 1 and .runs == 1 and .median_s < 8' "$K"
	jq -e -s '.[] | select(.bug == "qs_never_recorded") | .caught == 1 and .hang_reported == 1
		and .holdout_named == 1 and (.reason | test("grace-period hang"))' "$K"
	jq -e -s '.[] | select(.bug == "none") | .caught == 0 and .runs == 1' "$K"
	grep -q '^| poll_early | safety | yes | TREE02 | 1/1 |' "$BATS_TEST_TMPDIR/m/kill.md"
	# The page: one row per bug and scenario; the chart when gnuplot is there.
	[ "$(grep -c '^<tr class=' "$BATS_TEST_TMPDIR/m/kill.html")" -eq 3 ]
	grep -q '<tr class="ok"><td>poll_early</td>' "$BATS_TEST_TMPDIR/m/kill.html"
	if command -v gnuplot >/dev/null; then
		[ -s "$BATS_TEST_TMPDIR/m/kill.png" ] && grep -q '<img src="kill.png"' "$BATS_TEST_TMPDIR/m/kill.html"
	fi
}

@test "mutation.sh: a round that left no run (its scenario missing) is an error naming it, not a catch or a clean round" {
	need_jq
	[ -z "${SAN:-}" ] || skip "builds its own plain and injection builds (run without SAN)"
	mkdir -p "$BATS_TEST_TMPDIR/scen"
	cp "$TOP/scenarios/CFcommon" "$BATS_TEST_TMPDIR/scen/"
	run env TORTURE_SCENARIO_DIR="$BATS_TEST_TMPDIR/scen" "$MUTATION" --short --bugs poll_early \
		--scenarios TREE02 --duration 2s --results "$BATS_TEST_TMPDIR/m"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ $output == *"mutation.sh: poll_early, round 1: no run (TREE02: no such scenario"* ]]
	[[ $output == *"mutation.sh: none, round 1: no run (TREE02: no such scenario"* ]]
	[[ $output == *"mutation.sh: a round left no run (above): nothing is known of it"* ]]
	[[ $output != *"every must-catch bug was caught"* ]]
	grep -q "poll_early, round 1: no run" "$BATS_TEST_TMPDIR/m/kill.md"
}

@test "mutation.sh: a Tiny RCU bug runs on its Tiny scenarios with Tiny RCU's builds, the unmodified Tiny build there too" {
	need_jq
	[ -z "${SAN:-}" ] || skip "builds its own Tiny builds (run without SAN)"
	printf 'tiny_poll_now safety yes @TINY01\n' >"$BATS_TEST_TMPDIR/bugs"
	run env MUTATION_BUGS="$BATS_TEST_TMPDIR/bugs" "$MUTATION" --short --scenarios TINY01 \
		--duration 3s --results "$BATS_TEST_TMPDIR/m"
	echo "$output"
	[ "$status" -eq 0 ]
	K=$BATS_TEST_TMPDIR/m/kill.json
	[ -x "$TOP/build/torture-tiny-inject/rcutorture" ]
	if chrt -f 2 true 2>/dev/null; then
		jq -e -s '.[] | select(.bug == "tiny_poll_now") | .caught == 1 and .runs == 1 and
			(.reason | test("cookie check"))' "$K"
		jq -e -s '.[] | select(.bug == "none") | .scenario == "TINY01" and .caught == 0 and .runs == 1' "$K"
	else	# SKIPPED runs neither catch nor miss
		jq -e -s 'all(.[]; .runs == 0 and .skipped == 1)' "$K"
	fi
}
