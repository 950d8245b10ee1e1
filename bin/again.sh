#!/usr/bin/env bash
# again.sh - run again exactly what a results folder ran, as the kernel's
# kvm-again.sh: no rebuild, a new results folder.  See --help.
# shellcheck source-path=SCRIPTDIR
set -euo pipefail
PROG=again.sh
BIN_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib/session.sh
. "$BIN_DIR/lib/session.sh"	# and the libraries it uses

# shellcheck disable=SC2317  # called by own_option
usage() {
	cat <<'EOF'
usage: bin/again.sh [options] RESULTS/DATE

Runs again what RESULTS/DATE ran: the same runs (repeats included), each
with its saved plan (arguments, CPU count, duration) and the rcutorture
binary saved with those results (RESULTS/DATE/rcutorture-TAG: nothing is
rebuilt), into a new results folder, then judges them as bin/torture.sh
does.  Exit status as bin/torture.sh's.

Options:
  --duration D      a new run time (30s, 5m, 2h, 1d; a bare number is minutes)
  --bootargs "ARGS" boot arguments added after each run's (later wins),
                    checked by the saved binary first (a bad one: exit 2)
  --results DIR     where the new results go (default results/)
  --datestamp NAME  DIR/NAME instead of the date
  --cpus N          CPUs to use (default: all this process may use)
  --shutdown-grace S, --jitter "N [MAXSLEEP [MAXSPIN]]", --no-affinity,
  --repeat N, --until-fail   as bin/torture.sh's
  --dryrun          print what would run; run nothing
  --help            this text
EOF
}

OPT_BOOTARGS=()
OLD=

# own_option WORD [MORE...]: --bootargs, --help, or the results folder.
# shellcheck disable=SC2317  # called by session_parse
own_option() {
	SESSION_SHIFT=1
	case $1 in
	--help | -h) usage; exit 0 ;;
	--bootargs)
		need_value "$1" $#
		OPT_BOOTARGS+=("$2")
		SESSION_SHIFT=2 ;;
	-*) SESSION_SHIFT=0 ;;
	*)
		[ -z "$OLD" ] || die 2 "$1: one results folder at a time"
		OLD=$1 ;;
	esac
}

# replan OLDPLAN NEWPLAN: a saved plan made checkable again, with the
# new duration and boot arguments.  The saved binary must still be there.
replan() {
	local old=$1 new=$2 dur tok b from
	from=$(scen_relpath "$old")
	dur=${OPT_DURATION:-$(plan_get duration <"$old")}
	b=$(plan_get bin <"$old")
	[ -z "$b" ] || [ -x "$b" ] || die 2 "$old: the binary it ran, $b, is gone"
	{
		grep -v -e '^arg ' -e '^duration ' -e '^note ' "$old"
		echo "duration $dur"
		plan_get arg <"$old" | while IFS= read -r tok; do
			if [ -n "$OPT_DURATION" ] && [[ $tok == rcutorture.shutdown_secs=* ]]; then
				tok=rcutorture.shutdown_secs=$dur
			fi
			printf 'check %s\t%s\n' "$tok" "$from"
		done
		for tok in ${OPT_BOOTARGS[@]+"${OPT_BOOTARGS[@]}"}; do
			scen_boot_tokens --bootargs "$tok" | cut -f1,3 | awk -F'\t' '{ printf "check %s\t%s\n", $2, $1 }'
		done
		[ -n "$b" ] || [ -n "${TORTURE_BIN:-}" ] ||
			echo "note no binary saved with these results: running the current build"
	} >"$new"
}

main() {
	local d inst name rc=0
	local -a list=()
	session_supervise "$@"
	SESSION_ARGS="$*"
	session_parse own_option "$@"
	[ -n "$OLD" ] || { usage >&2; exit 2; }
	[ -d "$OLD" ] || die 2 "$OLD: no such directory"
	OLD=$(cd "$OLD" && pwd)
	session_cpus
	[ -n "$OPT_DRYRUN" ] || session_results_check
	session_work
	while IFS= read -r d; do
		inst=${d##*/}
		[ -f "$d/plan" ] || die 2 "$d: no saved plan (results older than bin/again.sh?): run bin/torture.sh instead"
		name=$(instance_scenario "$inst")
		[ -f "$WORK/$name.plan" ] || replan "$d/plan" "$WORK/$name.plan"
		list+=("$name")
	done < <(judge_find_dirs "$OLD")
	[ ${#list[@]} -gt 0 ] || die 2 "$OLD: no runs to do again"
	OPT_DURATION=${OPT_DURATION:-$(plan_get duration <"$WORK/${list[0]}.plan")}
	session_check_plans "${list[@]}" || rc=2
	((rc == 0)) || exit 2
	SESSION_NOTES+=("Again: the runs of $OLD")
	if [ -n "$OPT_DRYRUN" ]; then
		session_dryrun "$OPT_DRYRUN" "${list[@]}"
		exit 0
	fi
	session_run "${list[@]}"
}

main "$@"
