# Shared by tests/scripts/*.bats (loaded with `load ../lib/scripts`).
TOP=${TOP:-$(cd "$BATS_TEST_DIRNAME/../.." && pwd)}
FIX=$TOP/tests/fixtures/torture
FAKE=$FIX/fake-rcutorture
TORTURE=$TOP/bin/torture.sh
RECHECK=$TOP/bin/recheck.sh
AGAIN=$TOP/bin/again.sh
FIND_ERRORS=$TOP/bin/find-errors.sh
REAL=${BUILD_DIR:-$TOP/build}/rcutorture
# The fake checks its parameters with the real program when there is one.
[ ! -x "$REAL" ] || export FAKE_CHECK_BIN=$REAL
# The plots and report have their own tests (tests/analysis/*.bats).
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

need_real() {
	[ -x "$REAL" ] || { echo "$REAL not built: run make (torture/torture.mk builds it)"; false; }
}

# missing_type: MT (a kernel torture type the real program lacks) and
# MT_WHY (the program's reason), or skip: the full build has every one,
# the Tiny build only its own flavors.
missing_type() {
	local l
	need_real
	l=$("$REAL" --list-types | sed -n 's/^\([^ ]*\) (not in this build: \(.*\))$/\1\t\2/p' | head -n 1)
	[ -n "$l" ] || skip "every kernel torture type is built in $REAL"
	MT=${l%%$'\t'*}
	MT_WHY="torture_type=$MT is not in this build (${l#*$'\t'})"
}

need_jq() {
	command -v jq >/dev/null 2>&1 || skip "jq not installed (Debian package jq)"
}

# scenario_file NAME TEXT: a file (NAME, NAME.boot, CFcommon, CFLIST...)
# in the test's own scenario folder, laid out as the kernel's configs/rcu
# (TORTURE_SCENARIO_DIR; what the scripts read by default).
scenario_file() {
	mkdir -p "$BATS_TEST_TMPDIR/scenarios"
	printf '%s\n' "$2" >"$BATS_TEST_TMPDIR/scenarios/$1"
	export TORTURE_SCENARIO_DIR=$BATS_TEST_TMPDIR/scenarios
	SCENARIO_DIR=$TORTURE_SCENARIO_DIR	# for the libraries already sourced
}

# scenario_copy NAME...: the project's NAME (and NAME.boot) into the
# test's scenario folder.
scenario_copy() {
	local n
	mkdir -p "$BATS_TEST_TMPDIR/scenarios"
	for n in "$@"; do
		cp "$TOP/scenarios/$n" "$BATS_TEST_TMPDIR/scenarios/"
		[ ! -f "$TOP/scenarios/$n.boot" ] || cp "$TOP/scenarios/$n.boot" "$BATS_TEST_TMPDIR/scenarios/"
	done
	export TORTURE_SCENARIO_DIR=$BATS_TEST_TMPDIR/scenarios
	SCENARIO_DIR=$TORTURE_SCENARIO_DIR
}

# fake_run ARGS...: torture.sh with the fake rcutorture, results in the
# test's folder; RES is the run's results directory afterwards.
fake_run() {
	run env TORTURE_BIN="$FAKE" "$TORTURE" --results "$BATS_TEST_TMPDIR/res" "$@"
	RES=$(ls -d "$BATS_TEST_TMPDIR"/res/*/ 2>/dev/null | tail -n1)
	RES=${RES%/}
}
