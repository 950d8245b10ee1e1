# Shared by tests/analysis/*.bats and some of tests/scripts/ (`load ../lib/analysis`).
TOP=${TOP:-$(cd "$BATS_TEST_DIRNAME/../.." && pwd)}
AFIX=$TOP/tests/fixtures/analysis
TFIX=$TOP/tests/fixtures/torture
FAKE=$TFIX/fake-rcutorture
A=$TOP/analysis
# The saved results: a real run (TREE01, BUSTED failed, TRIVIAL) and one
# with malformed input, a crash, a judge/summary disagreement and a
# skipped run (its README says which).
GOOD=2025.01.02-03.00.00
BAD=2025.01.03-03.00.00

# These tests exercise scripts only: they run once, in the plain `make
# check`, not again under the sanitizers.
skip_under_sanitizers() {
	[ -z "${SAN:-}" ] || skip "script tests run in the plain make check only (SAN=$SAN)"
}

need() {	# need TOOL PACKAGE
	command -v "$1" >/dev/null 2>&1 || skip "$1 not installed (Debian package $2)"
}

# results: copies of the saved results folders in RES (tests write
# runs.jsonl, plots and index.html into them).
results() {
	RES=$BATS_TEST_TMPDIR/results
	mkdir -p "$RES"
	cp -r "$AFIX/results/." "$RES/"
}

# path_without TOOL...: PATH becomes a folder of links to everything on
# PATH except the TOOLs (as on a machine without their packages).
path_without() {
	local d b nopath
	ORIG_PATH=${ORIG_PATH:-$PATH}
	nopath=$(mktemp -d "$BATS_TEST_TMPDIR/nopath.XXXXXX")
	# One ln per folder, in PATH order: the first of a name wins.
	for d in ${ORIG_PATH//:/ }; do
		[ ! -d "$d" ] || ln -s "$d"/* "$nopath"/ 2>/dev/null || true
	done
	for b in "$@"; do rm -f "$nopath/$b"; done
	PATH=$nopath
}

# png_size FILE: "WIDTHxHEIGHT" from a PNG's header; fails if FILE is not
# a PNG.
png_size() {
	local -a b
	[ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || return 1
	read -ra b <<<"$(od -An -tu1 -j16 -N8 "$1")"
	echo "$(((b[0] << 24) + (b[1] << 16) + (b[2] << 8) + b[3]))x$(((b[4] << 24) + (b[5] << 16) + (b[6] << 8) + b[7]))"
}

# jq_ok [-s] FILTER FILE: FILTER (a jq expression; -s: over all of FILE's
# values as one array) is true for FILE; on failure, show the file.
jq_ok() {
	local -a o=()
	if [ "$1" = -s ]; then o=(-s); shift; fi
	if ! jq "${o[@]}" -e "$1" "$2" >/dev/null; then
		echo "not true: $1 in $2:" >&2
		head -c 2000 "$2" >&2
		return 1
	fi
}
