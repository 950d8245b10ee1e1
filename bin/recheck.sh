#!/usr/bin/env bash
# recheck.sh - judge saved torture results again, without running
# anything, as the kernel's kvm-recheck.sh.  See --help.
# shellcheck source-path=SCRIPTDIR
set -euo pipefail
PROG=recheck.sh
BIN_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib/common.sh
. "$BIN_DIR/lib/common.sh"
# shellcheck source=lib/judge.sh
. "$BIN_DIR/lib/judge.sh"

usage() {
	cat <<'USAGE'
usage: bin/recheck.sh RESULTS/DIR...

Judges each scenario directory again from its console.log (FAILURE and
"!!!" lines, "ver:" strictly increasing, the SUCCESS message, console
badness such as warnings, stalls and sanitizer reports, Reader Batch close
calls), checks summary.json and exit_status against it and that the run
lasted its planned shutdown_secs, and prints one line a scenario, as
bin/torture.sh does at the end of a run, with the same verdicts: SUCCESS,
FAILURE, INCOMPLETE (ended early: a signal, an interrupted torture.sh, a
full disk) or SKIPPED.  Rewrites each directory's console.log.diags and,
for a results folder, its summary.json.  DIR is a run (RESULTS/DATE) or
one scenario's directory in it.  Exit status 0 if every run that ran
succeeded, 1 if one failed or is incomplete, 2 if there is nothing to
judge.
USAGE
}

main() {
	local d
	case ${1:-} in
	-h | --help) usage; exit 0 ;;
	"") usage >&2; exit 2 ;;
	-*) die 2 "$1: unknown option (see --help)" ;;
	esac
	for d in "$@"; do
		[ -d "$d" ] || die 2 "$d: no such directory"
	done
	judge_results "$@"
}

main "$@"
