# Shared by tests/torture_sh*.bats (loaded with `load torture_sh_helpers`).
TOP=${TOP:-$(cd "$BATS_TEST_DIRNAME/.." && pwd)}
FIX=$TOP/tests/fixtures/torture
FAKE=$FIX/fake-rcutorture
TORTURE=$TOP/bin/torture.sh
RECHECK=$TOP/bin/recheck.sh
# The plots and report have their own tests (tests/analysis_*.bats).
export TORTURE_NO_REPORT=1

# libs: source the scripts' libraries into the test.
libs() {
	PROG=test
	TORTURE_TOP=$TOP
	. "$TOP/bin/lib/common.sh"
	. "$TOP/bin/lib/scenario.sh"
	. "$TOP/bin/lib/judge.sh"
	. "$TOP/bin/lib/run.sh"
}

need_jq() {
	command -v jq >/dev/null 2>&1 || skip "jq not installed (Debian package jq)"
}

# scenario_file NAME TEXT: a scenario in the test's own scenario folder
# (TORTURE_SCENARIO_DIR), next to copies of the real ones.
scenario_file() {
	mkdir -p "$BATS_TEST_TMPDIR/scenarios"
	printf '%s\n' "$2" >"$BATS_TEST_TMPDIR/scenarios/$1"
	export TORTURE_SCENARIO_DIR=$BATS_TEST_TMPDIR/scenarios
	SCENARIO_DIR=$TORTURE_SCENARIO_DIR	# for the libraries already sourced
}

# fake_run ARGS...: torture.sh with the fake rcutorture, results in the
# test's folder; RES is the run's results directory afterwards.
fake_run() {
	run env TORTURE_BIN="$FAKE" "$TORTURE" --results "$BATS_TEST_TMPDIR/res" "$@"
	RES=$(ls -d "$BATS_TEST_TMPDIR"/res/*/ 2>/dev/null | tail -n1)
	RES=${RES%/}
}
