#!/usr/bin/env bats
# bin/torture.sh and bin/recheck.sh against the real rcutorture of this
# build ($BUILD_DIR/rcutorture; also under SAN=thread/address builds):
# one short run of a correct scenario beside BUSTED.

load torture_sh_helpers

setup() {
	BIN=${BUILD_DIR:-$TOP/build}/rcutorture
	[ -x "$BIN" ] || { echo "$BIN not built: run make (torture/torture.mk builds it)"; false; }
}

@test "real rcutorture: TREE09 ends in SUCCESS, BUSTED in FAILURE; recheck agrees" {
	run env TORTURE_BIN="$BIN" "$TORTURE" --results "$BATS_TEST_TMPDIR/res" --duration 10s \
		--cpus 4 TREE09 BUSTED
	echo "$output"
	[ "$status" -eq 1 ]
	RES=$(ls -d "$BATS_TEST_TMPDIR"/res/*/)
	[[ $output == *$'\n'"TREE09 ------- "*" GPs ("*"/s) [rcu: g"*"] SUCCESS"* ]]
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
