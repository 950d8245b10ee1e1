#!/usr/bin/env bash
# torture.sh - build and run rcutorture scenarios, in the spirit of the
# kernel's tools/testing/selftests/rcutorture/bin/kvm.sh.  See --help.
# shellcheck source-path=SCRIPTDIR
set -euo pipefail
PROG=torture.sh
BIN_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib/session.sh
. "$BIN_DIR/lib/session.sh"	# and the libraries it uses
# shellcheck source=lib/perf.sh
. "$BIN_DIR/lib/perf.sh"

DEFAULT_DURATION=1m
DEFAULT_GRACE=60

# shellcheck disable=SC2317  # called by own_option
usage() {
	cat <<EOF
usage: bin/torture.sh [options] [SCENARIO...]

Checks every scenario and option first (nothing is run if one is wrong:
exit 2), builds rcutorture for each scenario's configuration
(build/torture-TAG, reused when unchanged), runs the scenarios (side by
side while their CPUs fit), judges each run as the kernel's kvm-recheck
does, and prints one line a scenario: SUCCESS, FAILURE, INCOMPLETE (the
run did not last its planned time, or its results could not be saved) or
SKIPPED (its torture type is not implemented or not built here).  Exit
status 0 only if every run that ran succeeded, 1 if one failed or is
incomplete, 2 for bad input, 130 when interrupted (the runs are stopped,
the table so far printed).

SCENARIO is a scenario of the scenario folder (TREE01 ... BUSTED,
URCU-MB ...), N*NAME runs it N times, and a list there (CFLIST, quick)
stands for its scenarios.  With no scenario at all, CFLIST is run.

Options:
  --scenario-dir DIR  the scenario folder, laid out as the kernel's
                    tools/testing/selftests/rcutorture/configs/rcu: CFcommon,
                    CFLIST, NAME (Kconfig) + NAME.boot (boot arguments);
                    default scenarios/.  The kernel's own files run as they are.
  --duration D      run time of each scenario: a bare number is minutes,
                    or 30s, 5m, 2h, 1d (default $DEFAULT_DURATION: bin/torture.sh TREE01
                    takes about two minutes with the build)
  --cpus N          CPUs to use (default: all this process may use, here
                    $(allowed_cpus | wc -l)); runs go side by side while they fit, pinned
                    with taskset.  A scenario's threads ("CPUs") are its own
                    (CONFIG_NR_CPUS, nr_cpus=, maxcpus=), whatever this is.
  --allcpus         all CPUs this process may use (the default)
  --configs "LIST"  scenarios, e.g. "2*TREE01 TREE03 quick" (adds to the
                    SCENARIO arguments)
  --kconfig "CONFIG_X=y ..."  Kconfig settings after every scenario's
  --bootargs "ARGS" boot arguments (rcutorture.*, rcutree.*, ...) after
                    every scenario's NAME.boot (later wins); CONFIG_X=y here
                    counts as --kconfig
  --kasan, --kcsan  build with AddressSanitizer / ThreadSanitizer
                    (CONFIG_KASAN=y / CONFIG_KCSAN=y)
  --weakmem         build with the weak-memory emulation (CONFIG_WEAKMEM=y,
                    make WEAKMEM=1: docs/design/weakmem.md)
  --torture rcu     the suite (default); --torture refscale|rcuscale: the perf
                    programs on scenarios/refscale/ or scenarios/rcuscale/
                    instead (--torture refscale --help); lock, scf: not
                    implemented
  --results DIR     where the results go (default results/); each session
                    makes DIR/YYYY.MM.DD-HH.MM.SS/
  --datestamp NAME  DIR/NAME instead of the date
  --kill-previous   stop the bin/torture.sh that holds DIR (one session a
                    results folder: a second one stops with exit 2 naming
                    the first); its runs are judged as interrupted
  --repeat N        run the whole set N times
  --until-fail      run the set again until a run fails (at most --repeat
                    times when given)
  --shutdown-grace S  seconds past its duration before a run counts as
                    hung and is killed (default $DEFAULT_GRACE)
  --jitter "N [MAXSLEEP [MAXSPIN]]"  N host processes (-1: one a CPU)
                    that hop between CPUs, sleep up to MAXSLEEP us (1000000)
                    and spin up to MAXSPIN us (1000) while the runs go, as
                    kvm.sh's jitter (default: none)
  --no-affinity     do not pin the runs to CPUs
  --buildonly       check and build what the scenarios need; run nothing
  --trust-make      accepted (make is always incremental here)
  --memory, --qemu-args, --qemu-cmd, --mac, --no-initrd, --bootimage,
  --defconfig, --kmake-arg, --debug-info
                    kvm.sh's virtual-machine options: noted as not
                    applicable (runs are processes)
  --dryrun [sched|script|batches|scenarios]  check and build, then print
                    the builds, batches, command lines and notes (or kvm.sh's
                    views of them); run nothing
  --help            this text

Per run: RESULTS/DATE/SCENARIO/ holds ConfigFragment, plan, cmdline,
console.log, stats.jsonl, gp-latency.dat, summary.json, exit_status (or
"skipped"); RESULTS/DATE/ the log, summary.json (every run's verdict),
build-TAG.log, the binaries run (rcutorture-TAG) and index.html, the
report (bin/report.sh; plots with gnuplot).
bin/recheck.sh RESULTS/DATE judges saved results again, bin/again.sh
RESULTS/DATE runs them again, bin/find-errors.sh RESULTS/DATE shows the
error lines of the failed runs.
Environment (tests): TORTURE_BIN=PATH runs (and checks with) PATH instead
of building; TORTURE_TINY_BIN=PATH the same for the scenarios that run
Tiny RCU (bin/mutation.sh's Tiny builds); TORTURE_CHECK_BIN=PATH checks
with PATH instead of the plain build; TORTURE_NO_REPORT=1 skips the plots
and the report.
EOF
}

# Options of torture.sh's own (session.sh has the session's).
OPT_BUILDONLY=0
OPT_NAMES=()
OPT_EXTRA=()	# ORIGIN TOKENS pairs (--kconfig, --bootargs, --kasan ...) for scen_resolve
OPT_GRACE=$DEFAULT_GRACE

# own_option WORD [MORE...]: one option of torture.sh's own, or a
# scenario; SESSION_SHIFT the words used (0: unknown).
# shellcheck disable=SC2317  # called by session_parse
own_option() {
	local -a v
	SESSION_SHIFT=1
	case $1 in
	--configs | --config | --scenario-dir | --bootargs | --bootarg | --kconfig | --kconfigs | \
		--torture | --memory | --qemu-args | --qemu-arg | --qemu-cmd | --mac | --bootimage | \
		--defconfig | --kmake-arg | --kmake-args)
		need_value "$1" $#
		SESSION_SHIFT=2 ;;
	esac
	case $1 in
	--help | -h) usage; exit 0 ;;
	--configs | --config)
		read -ra v <<<"$2" || true
		OPT_NAMES+=(${v[@]+"${v[@]}"}) ;;
	--scenario-dir)
		[ -d "$2" ] || die 2 "--scenario-dir $2: no such folder"
		# shellcheck disable=SC2034  # scenario.sh reads it
		SCENARIO_DIR=$(cd "$2" && pwd) ;;
	--bootargs | --bootarg) OPT_EXTRA+=(--bootargs "$2") ;;
	--kconfig | --kconfigs) OPT_EXTRA+=(--kconfig "$2") ;;
	--kasan) OPT_EXTRA+=(--kconfig CONFIG_KASAN=y) ;;
	--kcsan) OPT_EXTRA+=(--kconfig CONFIG_KCSAN=y) ;;
	--weakmem) OPT_EXTRA+=(--kconfig CONFIG_WEAKMEM=y) ;;
	--torture)
		case $2 in
		rcu) ;;
		rcuscale | refscale) die 2 "--torture $2: internal error (bin/lib/perf.sh runs it)" ;;
		*) die 2 "--torture $2: not implemented (only rcu)" ;;
		esac ;;
	--buildonly | --build-only) OPT_BUILDONLY=1 ;;
	--trust-make) SESSION_NOTES+=("note: --trust-make: make is always incremental here") ;;
	--memory | --qemu-args | --qemu-arg | --qemu-cmd | --mac | --bootimage | --defconfig | \
		--kmake-arg | --kmake-args | --no-initrd | --debug-info | --debuginfo)
		SESSION_NOTES+=("note: $1${2:+ $2}: not applicable (no virtual machine here: runs are processes)") ;;
	--kill-previous) ;;	# session_lock's, before the worker starts
	--gdb | --interactive | --remote)
		die 2 "$1: not supported here (runs are processes: run build/rcutorture under gdb by hand)" ;;
	--) OPT_NAMES+=("${@:2}") SESSION_SHIFT=$# ;;
	-*) SESSION_SHIFT=0 ;;
	*) OPT_NAMES+=("$1") ;;
	esac
}

# make_plans NAME...: WORK/NAME.plan for each distinct scenario; every
# error is printed before failing.
make_plans() {
	local name rc=0
	for name in $(printf '%s\n' "$@" | sort -u); do
		scen_resolve "$name" "$OPT_DURATION" ${OPT_EXTRA[@]+"${OPT_EXTRA[@]}"} >"$WORK/$name.plan" || rc=2
	done
	return "$rc"
}

main() {
	local names
	session_supervise "$@"
	SESSION_ARGS="$*"
	session_parse own_option "$@"
	OPT_DURATION=${OPT_DURATION:-$(parse_duration "$DEFAULT_DURATION")}
	[ ${#OPT_NAMES[@]} -gt 0 ] || OPT_NAMES=(CFLIST)
	session_cpus
	[ -n "$OPT_DRYRUN" ] || ((OPT_BUILDONLY)) || session_results_check
	names=$(list_expand "${OPT_NAMES[@]}") || exit 2
	[ -n "$names" ] || die 2 "no scenarios to run"
	local -a list
	mapfile -t list <<<"$names"
	session_work
	make_plans "${list[@]}" || exit 2
	session_check_interrupt
	session_check_build
	session_check_interrupt
	session_check_plans "${list[@]}" || exit 2
	if [ -n "$OPT_DRYRUN" ]; then
		session_dryrun "$OPT_DRYRUN" "${list[@]}"
		exit 0
	fi
	if ((OPT_BUILDONLY)); then
		session_notes "${list[@]}"
		session_plan_builds "${list[@]}"
		[ ${#FAILED_BUILDS[@]} -eq 0 ] || die 1 "build failed: ${!FAILED_BUILDS[*]}"
		echo "Built: $(distinct_builds "${list[@]}" | awk '{ print $1 }' | tr '\n' ' ')(build/torture-TAG/rcutorture)"
		exit 0
	fi
	session_run "${list[@]}"
}

session_lock "$@"	# one session per results folder
perf_dispatch "$@"	# --torture refscale|rcuscale: bin/lib/perf.sh
main "$@"
