#!/usr/bin/env bash
# find-errors.sh - the error lines of every failed or incomplete run of a
# results folder, with the console lines around them, as the kernel's
# kvm-find-errors.sh (which opens them in an editor).  See --help.
# shellcheck source-path=SCRIPTDIR
set -euo pipefail
PROG=find-errors.sh
BIN_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib/common.sh
. "$BIN_DIR/lib/common.sh"
# shellcheck source=lib/judge.sh
. "$BIN_DIR/lib/judge.sh"

usage() {
	cat <<'USAGE'
usage: bin/find-errors.sh [-C N] RESULTS/DIR...

For every run in the results that did not succeed (FAILURE or
INCOMPLETE, as bin/recheck.sh judges it): its verdict line, the runner's
Warnings, then each error line of its console.log (FAILURE, "!!!",
"???", WARNING, BUG, stall, sanitizer and debug-object reports, the
program's own messages) with N console lines around it (default 3), each
prefixed by the console's line number.  Exit status 0 if every run
succeeded, 1 if one did not, 2 if there is nothing to judge.
USAGE
}

main() {
	local ctx=3 d s v line re n=0 nbad=0
	local -a dirs=()
	while (($#)); do
		case $1 in
		-h | --help) usage; exit 0 ;;
		-C)
			[[ ${2:-} =~ ^[0-9]{1,3}$ ]] || die 2 "-C ${2:-}: expected a number of lines"
			ctx=$2
			shift ;;
		--) shift; break ;;
		-*) die 2 "$1: unknown option (see --help)" ;;
		*) break ;;
		esac
		shift
	done
	[ $# -gt 0 ] || { usage >&2; exit 2; }
	for d in "$@"; do
		[ -d "$d" ] || die 2 "$d: no such directory"
		while IFS= read -r s; do dirs+=("$s"); done < <(judge_find_dirs "$d")
	done
	[ ${#dirs[@]} -gt 0 ] || die 2 "no scenario results in $*"
	re=$(judge_error_re)
	for s in "${dirs[@]}"; do
		v=0
		line=$(judge_dir "$s") || v=$?
		[ "$v" = 3 ] || n=$((n + 1))
		[[ $v == [12] ]] || continue
		nbad=$((nbad + 1))
		echo "=== $line"
		[ ! -s "$s/Warnings" ] || sed 's/^/Warnings: /' "$s/Warnings"
		if [ -s "$s/console.log" ]; then
			echo "--- $s/console.log:"
			grep -n -E -C "$ctx" -e "$re" "$s/console.log" || echo "(no error line: see the verdict)"
		else
			echo "--- no console.log in $s"
		fi
		echo
	done
	if ((nbad)); then
		echo "$nbad of $n runs did not succeed."
		exit 1
	fi
	echo "All $n runs succeeded: no errors."
}

main "$@"
