#!/usr/bin/env bash
# nightly.sh - nightly stress: every scenario of a list, on this machine
# or on several hosts with GNU parallel, collected into one results
# folder with its roll-up, plots, report, TAP and JUnit summaries.
# See --help.
# shellcheck source-path=SCRIPTDIR
set -euo pipefail
# GNU parallel quotes the command it sends to a host for the login shell
# that $SHELL names; without it (cron, CI, env -i) remote jobs fail to
# start.  The hosts run bash (see --help).
export SHELL=${SHELL:-/bin/bash}
PROG=nightly.sh
BIN_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib/analysis.sh
. "$BIN_DIR/lib/analysis.sh"
# shellcheck source=lib/scenario.sh
. "$BIN_DIR/lib/scenario.sh"
# shellcheck source=lib/run.sh
. "$BIN_DIR/lib/run.sh"
# shellcheck source=lib/perf.sh
. "$BIN_DIR/lib/perf.sh"	# perf_expand: the perf passes' scenarios

usage() {
	cat <<'EOF'
usage: bin/nightly.sh [options] [SCENARIO...] [-- TORTURE_OPTION...]

Runs the passes of the kernel's torture.sh, each run one bin/torture.sh
for one scenario, with GNU parallel: on this machine, or on the hosts of
--hosts/--sshlogin over ssh.  The passes (--do-X turns one on, --do-no-X
or --no-X off, --do-all all of them, --do-none none; without any such
switch only rcutorture runs: the switches change that set, in order):
  rcutorture   the rcutorture scenarios: SCENARIO... or --configs-rcutorture
               (default scenarios/CFLIST; N*NAME and lists as in bin/torture.sh)
  kasan        the rcutorture scenarios in the AddressSanitizer build
               (--kasan, with UBSan), runs named SCENARIO-kasan, and the
               scenarios of each perf pass that is on, one round of each
               measurement (refscale-OURS-kasan ...), as the kernel's
               torture.sh runs each of its sets under KASAN
  kcsan        the same in the ThreadSanitizer build (--kcsan), SCENARIO-kcsan
  refscale     bin/torture.sh --torture refscale on scenarios/refscale/CFLIST
               (--configs-refscale), runs named refscale-SCENARIO
  rcuscale     --torture rcuscale on scenarios/rcuscale/CFLIST without KFREE
               (--configs-rcuscale), rcuscale-SCENARIO
  kvfree       --torture rcuscale on KFREE (rcuscale.kfree_rcu_test=1,
               as the kernel's kvfree pass; --configs-kvfree), kvfree-SCENARIO
  mutation     after the runs, here: bin/mutation.sh --short (--mutation
               ARGS for others), in RESULTS/DATE/mutation/
  compare-liburcu  after the runs, here: bin/compare-liburcu.sh --quick
               (--compare-liburcu ARGS), in RESULTS/DATE/compare-liburcu/
--duration is the night's run time, split among the passes that are on
by weight, as the kernel's torture.sh splits its duration: rcutorture 12,
kasan 2, kcsan 2, refscale 1, rcuscale 1, kvfree 2 (of their sum).  A
pass's share is spread over its runs and the slots that run them at once
(a run lasts share x slots / runs, at least 10 s: then the night takes
longer); for refscale, rcuscale and kvfree it is each measurement's
timeout, and their runs under kasan and kcsan take the time their loops
take, on top of those passes' shares.  Builds, the shutdown grace, mutation and compare-liburcu come
on top.  A run whose torture type is deliberately broken (busted,
busted_*, *_busted*, *-busted: TORTURE_OPS_BROKEN) or whose scenario is
BUSTED* is expected to FAIL: "# TODO" in TAP, expected in JUnit; the night
is red when such a run does not fail.

Every host builds the same source (the committed HEAD, or with
--worktree the working tree as it is), sent as a tar file; each run gets
its own copy of the tree and its own share of the host's processors, so
all processors are busy and runs never share a build.  The runs are
collected into one folder, RESULTS/DATE/ (one folder per run, as
bin/torture.sh makes them), followed by:
  RESULTS/DATE/index.html   the report (bin/report.sh): a section per
                            pass, the plots, the trend lines of the last
                            dates per pass, the figures that moved beyond
                            their spread over the last nights, the
                            sanitizer reports collapsed by stack
  RESULTS/DATE/passes.json  each pass: its runs, share and run time
  RESULTS/DATE/drift.json   figures beyond their spread (analysis/drift.jq)
  RESULTS/DATE/sanitizer.json  sanitizer reports by stack (analysis/collapse.jq)
  RESULTS/DATE/rollup.txt   one line per date and scenario (bin/rollup.sh)
  RESULTS/DATE/nightly.tap  TAP: one test per run (also printed)
  RESULTS/DATE/junit.xml    JUnit XML for CI systems
  RESULTS/DATE/hosts.json   what each host did
A host that cannot be reached is not used; a host that dies or hangs
during a run loses it: the run is queued again on another host (at most
--retries times), and when no host is left it is reported INCOMPLETE,
never SUCCESS.  A host serves one nightly.sh at a time: each removes the
older sources, builds and results it finds in --remote-dir.

Options:
  --duration D     the night's run time, split among the passes (as
                   bin/torture.sh: minutes, or 30s, 5m, 2h; default 30m)
  --do-all, --do-none, --do-PASS, --do-no-PASS, --no-PASS  the passes
  --configs-rcutorture "LIST", --configs-refscale "LIST",
  --configs-rcuscale "LIST", --configs-kvfree "LIST"  a pass's scenarios
  --jobs N         runs at a time on each host (default: one per 4 of its
                   processors, at least 1)
  --hosts FILE     the hosts, one a line: [user@]host, or N/[user@]host
                   for N runs at a time there; ":" is this machine;
                   "#" starts a comment
  --sshlogin LIST  the same as a comma-separated list
  --ssh CMD        the ssh command (default: ssh)
  --remote-dir DIR where the hosts keep the source, builds and results
                   (default rcu-nightly, relative to the remote home;
                   this machine uses build/nightly/rcu-nightly)
  --worktree       send the working tree, uncommitted changes included
  --results DIR    where the results go (default results/)
  --retries N      times a lost run is queued again (default 2)
  --history N      dates in the roll-up and trend lines (default 30)
  --no-report      no roll-up, plots or report (TAP and JUnit still)
  --mutation "ARGS"  the mutation pass (turns it on) with bin/mutation.sh
                   ARGS (e.g. "" for the full table; default --short),
                   results in RESULTS/DATE/mutation/ (kill.html linked
                   from the report); its verdict is one more TAP test
  --compare-liburcu "ARGS"  the compare-liburcu pass (turns it on) with
                   bin/compare-liburcu.sh ARGS (default --quick); its
                   verdict is one more TAP test
  --dryrun         print the source, hosts and runs; run nothing
  --help           this text
TORTURE_OPTIONs (after --) go to every bin/torture.sh of the rcutorture,
kasan and kcsan passes, e.g. -- --bootargs rcutorture.gp_exp=1.

Environment: NIGHTLY_LOCAL_ROOT=DIR replaces build/nightly (tests);
NIGHTLY_MUTATION=PATH runs PATH instead of bin/mutation.sh (tests);
TORTURE_BIN=PATH runs PATH instead of building, on every host (tests);
PERF_BIN=PATH the same for the refscale, rcuscale and kvfree passes;
NIGHTLY_BIN_DIR=DIR runs the programs of the make build folder DIR
instead of building, on every host (tests): DIR/rcutorture, DIR/refscale,
DIR/rcuscale, under kasan and kcsan DIR/asan/... and DIR/tsan/... (and
compare-liburcu's PERF_BIN_DIR);
NIGHTLY_COMPARE=PATH runs PATH instead of bin/compare-liburcu.sh (tests).

Hosts need bash, tar, flock, make and gcc (and perl and rsync, for
GNU parallel); this machine needs parallel, jq, and for remote hosts
rsync, gnuplot-nox for the plots.  Exit status: 0 every run succeeded
(or was skipped); 1 a run failed or is INCOMPLETE; 2 bad input, nothing
run; 3 a tool is missing (parallel, jq, git or tar), nothing run.
EOF
}

OPT_DURATION=$(parse_duration 30m)
OPT_JOBS=
OPT_HOSTS=()
OPT_SSH=ssh
OPT_REMOTE_DIR=rcu-nightly
OPT_WORKTREE=0
OPT_RESULTS=$TORTURE_TOP/results
OPT_RETRIES=2
OPT_HISTORY=30
OPT_REPORT=1
OPT_DRYRUN=0
OPT_NAMES=()
OPT_TORTURE=()
OPT_MUTATION=" --short"	# bin/mutation.sh's arguments (the mutation pass)
OPT_COMPARE=" --quick"	# bin/compare-liburcu.sh's arguments (the compare-liburcu pass)

# ------------------------------------------------------------------
# Passes, as the kernel's torture.sh has them.  PASS_KIND: torture (one
# bin/torture.sh per scenario, on the hosts), perf (bin/torture.sh
# --torture SUITE per scenario, on the hosts) or here (one program on
# this machine after the runs).  PASS_WEIGHT: its part of --duration.

PASSES=(rcutorture kasan kcsan refscale rcuscale kvfree mutation compare-liburcu)
declare -A PASS_KIND=([rcutorture]=torture [kasan]=torture [kcsan]=torture [refscale]=perf
	[rcuscale]=perf [kvfree]=perf [mutation]=here [compare-liburcu]=here)
declare -A PASS_WEIGHT=([rcutorture]=12 [kasan]=2 [kcsan]=2 [refscale]=1 [rcuscale]=1 [kvfree]=2)
# On by default: rcutorture alone, as before the passes (the switches
# change that set in order, as the kernel's do theirs).
declare -A PASS_ON=([rcutorture]=1) PASS_CONFIGS=() PASS_RUNS=() PASS_TIMED_RUNS=() PASS_SHARE=() PASS_RUN_S=()

# pass_switch OPTION: --do-all, --do-none, --do-PASS, --do-no-PASS, --no-PASS.
pass_switch() {
	local o=$1 p on=1
	case $o in
	--do-all | --doall) for p in "${PASSES[@]}"; do PASS_ON[$p]=1; done; return 0 ;;
	--do-none | --donone) for p in "${PASSES[@]}"; do PASS_ON[$p]=0; done; return 0 ;;
	--do-no-*) p=${o#--do-no-} on=0 ;;
	--no-*) p=${o#--no-} on=0 ;;
	--do-*) p=${o#--do-} ;;
	esac
	[ -n "${PASS_KIND[$p]:-}" ] || die 2 "$o: no such pass (${PASSES[*]})"
	PASS_ON[$p]=$on
}

# pass_on PASS: is it on?
pass_on() {
	[ "${PASS_ON[$1]:-0}" = 1 ]
}

# pass_instance PASS SET SCENARIO: a run's name (before any repeat
# suffix): TREE01, refscale-OURS; under a sanitizer TREE01-kasan,
# refscale-OURS-kasan (the kernel's torture.sh names them so).
pass_instance() {
	case $1 in
	rcutorture) echo "$3" ;;
	kasan | kcsan) echo "$(pass_instance "$2" "$2" "$3")-$1" ;;
	*) echo "$1-$3" ;;
	esac
}

# pass_sets PASS: the program sets a pass runs, one a line: its own, and
# for kasan and kcsan the rcutorture scenarios and every perf pass that
# is on (the kernel's torture.sh runs each of its sets plain, then under
# KASAN, then under KCSAN).
pass_sets() {
	local p
	case $1 in
	kasan | kcsan)
		echo rcutorture
		for p in "${PASSES[@]}"; do
			[ "${PASS_KIND[$p]}" != perf ] || ! pass_on "$p" || echo "$p"
		done ;;
	*) echo "$1" ;;
	esac
}

# pass_suite PASS: the perf program of a perf pass.
pass_suite() {
	case $1 in
	refscale) echo refscale ;;
	*) echo rcuscale ;;
	esac
}

# pass_scenarios PASS: its scenario names, one a line (repeats kept).
pass_scenarios() {
	local p=$1 c
	local -a l
	case ${PASS_KIND[$p]} in
	torture)
		read -ra l <<<"${PASS_CONFIGS[rcutorture]}"
		list_expand "${l[@]}" ;;
	perf)
		c=${PASS_CONFIGS[$p]:-CFLIST}
		[ "$p" != kvfree ] || c=${PASS_CONFIGS[$p]:-KFREE}
		read -ra l <<<"$c"
		PERF_DIR=$SCENARIO_DIR/$(pass_suite "$p")
		if [ "$p" = rcuscale ] && [ -z "${PASS_CONFIGS[$p]:-}" ]; then
			perf_expand "${l[@]}" | grep -vx KFREE
		else
			perf_expand "${l[@]}"
		fi ;;
	esac
}

# pass_check PASS: its scenarios and options checked as bin/torture.sh
# checks them (the errors on stderr; fails with 2).
pass_check() {
	local p=$1 err
	local -a cmd=("$BIN_DIR/torture.sh" --dryrun --duration "${OPT_DURATION}s")
	case ${PASS_KIND[$p]} in
	torture)
		[ "$p" = rcutorture ] || cmd+=("--$p")
		local -a l
		read -ra l <<<"${PASS_CONFIGS[rcutorture]}"
		cmd+=(${OPT_TORTURE[@]+"${OPT_TORTURE[@]}"} -- "${l[@]}")
		err=$(TORTURE_BIN=${TORTURE_BIN:-/bin/true} "${cmd[@]}" 2>&1 >/dev/null) || { echo "$err" >&2; return 2; } ;;
	perf)
		# shellcheck disable=SC2046  # one name a word
		err=$(PERF_BIN=${PERF_BIN:-/bin/true} "${cmd[@]}" --torture "$(pass_suite "$p")" \
			$(pass_scenarios "$p") 2>&1 >/dev/null) || { echo "$err" >&2; return 2; } ;;
	esac
}

# count_option OPTION VALUE MIN: VALUE is a whole number >= MIN.
count_option() {
	[[ $2 =~ ^[0-9]{1,6}$ ]] && ((10#$2 >= $3)) || die 2 "$1 $2: expected a number >= $3"
}

parse_options() {
	local o
	while (($#)); do
		o=$1
		case $o in
		--duration | --jobs | --hosts | --sshlogin | --ssh | --remote-dir | --results | --retries | --history | --mutation | \
			--compare-liburcu | --configs-rcutorture | --configs-refscale | --configs-rcuscale | --configs-kvfree)
			(($# >= 2)) || die 2 "$o: needs a value (see --help)" ;;
		esac
		case $o in
		-h | --help) usage; exit 0 ;;
		--duration)
			OPT_DURATION=$(parse_duration "$2") ||
				die 2 "--duration $2: expected minutes or a number with s, m, h or d (30s, 5m, 2h)"
			shift ;;
		--jobs) count_option "$o" "$2" 1; OPT_JOBS=$((10#$2)); shift ;;
		--hosts)
			[ -r "$2" ] || die 2 "--hosts $2: cannot read it"
			mapfile -t -O "${#OPT_HOSTS[@]}" OPT_HOSTS < <(sed -e 's/#.*//' -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//' "$2" | grep -v '^$' || true)
			shift ;;
		--sshlogin)
			local -a l=()
			IFS=, read -ra l <<<"$2"
			OPT_HOSTS+=("${l[@]}")
			shift ;;
		--ssh) OPT_SSH=$2; shift ;;
		--remote-dir)
			[[ $2 =~ ^[A-Za-z0-9_./-]+$ ]] || die 2 "--remote-dir $2: letters, digits and ._/- only (relative to the remote home, or absolute)"
			OPT_REMOTE_DIR=${2%/}
			shift ;;
		--worktree) OPT_WORKTREE=1 ;;
		--results) OPT_RESULTS=$2; shift ;;
		--retries) count_option "$o" "$2" 0; OPT_RETRIES=$((10#$2)); shift ;;
		--history) count_option "$o" "$2" 1; OPT_HISTORY=$((10#$2)); shift ;;
		--no-report) OPT_REPORT=0 ;;
		--mutation) OPT_MUTATION=" $2"; PASS_ON[mutation]=1; shift ;;
		--compare-liburcu) OPT_COMPARE=" $2"; PASS_ON[compare-liburcu]=1; shift ;;
		--configs-rcutorture)
			local -a c=()
			read -ra c <<<"$2"
			OPT_NAMES+=(${c[@]+"${c[@]}"})
			shift ;;
		--configs-refscale | --configs-rcuscale | --configs-kvfree)
			PASS_CONFIGS[${o#--configs-}]+=" $2"; shift ;;
		--do-* | --no-*) pass_switch "$o" ;;
		--dryrun) OPT_DRYRUN=1 ;;
		--) shift; OPT_TORTURE=("$@"); break ;;
		-*) die 2 "$o: unknown option (see --help)" ;;
		*) OPT_NAMES+=("$o") ;;
		esac
		shift
	done
	[ ${#OPT_NAMES[@]} -gt 0 ] || OPT_NAMES=(CFLIST)
	PASS_CONFIGS[rcutorture]="${OPT_NAMES[*]}"
	local p n=0
	for p in "${PASSES[@]}"; do pass_on "$p" && n=$((n + 1)); done
	((n > 0)) || die 2 "no pass to run (--do-none without a --do-PASS)"
	local h
	for h in ${OPT_HOSTS[@]+"${OPT_HOSTS[@]}"}; do
		[[ $h =~ ^([0-9]+/)?[A-Za-z0-9_.@:-]+$ ]] || die 2 "host '$h': expected [N/][user@]host"
	done
	return 0
}

# ------------------------------------------------------------------
# Hosts.  HOST_LOGIN[i] is what ssh gets (":" for this machine),
# HOST_JOBS[i] its runs at a time, HOST_NAME[i] the name reports use,
# HOST_STATE[i] ok, unreachable or lost, HOST_NOTE[i] what happened.

HOST_LOGIN=() HOST_JOBS=() HOST_NAME=() HOST_STATE=() HOST_NOTE=() HOST_CPUS=() HOST_RUNS=()

hosts_init() {
	local h n
	[ ${#OPT_HOSTS[@]} -gt 0 ] || OPT_HOSTS=(:)
	for h in "${OPT_HOSTS[@]}"; do
		n=
		if [[ $h =~ ^([0-9]+)/(.+)$ ]]; then n=$((10#${BASH_REMATCH[1]})) h=${BASH_REMATCH[2]}; fi
		((n == 0)) && n=
		HOST_LOGIN+=("$h")
		HOST_JOBS+=("${n:-${OPT_JOBS:-}}")
		if [ "$h" = : ]; then HOST_NAME+=(local); else HOST_NAME+=("$h"); fi
		HOST_STATE+=(ok) HOST_NOTE+=("") HOST_CPUS+=("") HOST_RUNS+=("")
	done
}

# host_index NAME: the index of the host reports call NAME.
host_index() {
	local i
	for i in "${!HOST_NAME[@]}"; do
		[ "${HOST_NAME[i]}" != "$1" ] || { echo "$i"; return 0; }
	done
	return 1
}

# local_base: this machine's nightly folder (where returned results land).
local_base() {
	case $OPT_REMOTE_DIR in
	/*) echo "$OPT_REMOTE_DIR" ;;
	*) echo "$LOCAL_ROOT/$OPT_REMOTE_DIR" ;;
	esac
}

# on_host I COMMAND: run the shell COMMAND on host I (stdin passed on),
# in its home (a remote host) or in LOCAL_ROOT (this machine).
on_host() {
	local i=$1
	if [ "${HOST_LOGIN[i]}" = : ]; then
		(cd "$LOCAL_ROOT" && bash -c "$2")
	else
		local -a ssh
		read -ra ssh <<<"$OPT_SSH"
		"${ssh[@]}" "${HOST_LOGIN[i]}" -- "$2"
	fi
}

# prepare_host I: send the source to host I (unless it has it), remove
# older sources and results there; print "ok CPUS" or "unreachable WHY".
prepare_host() {
	local i=$1 out rc=0 cmd id=src-$SRC_ID tools t
	tools="bash tar flock"
	for t in ${TORTURE_BIN:-make gcc}; do tools+=" $(printf %q "$t")"; done
	cmd="set -e
mkdir -p $(printf %q "$OPT_REMOTE_DIR")/out
cd $(printf %q "$OPT_REMOTE_DIR")
for d in src-*; do [ ! -d \"\$d\" ] || [ \"\$d\" = $id ] || rm -rf \"\$d\"; done
for d in out/*; do [ ! -d \"\$d\" ] || [ \"\$d\" = out/$RUN_ID ] || rm -rf \"\$d\"; done
for t in $tools; do
	command -v \"\$t\" >/dev/null || { echo \"\$t not found\"; exit 1; }
done
if [ -d $id/tree ]; then cat >/dev/null; else
	rm -rf $id/tree.tmp; mkdir -p $id/tree.tmp
	tar -xf - -C $id/tree.tmp; mv $id/tree.tmp $id/tree
fi
nproc"
	out=$(on_host "$i" "$cmd" <"$WORK/src.tar" 2>&1) || rc=$?
	if ((rc != 0)) || ! [[ $(tail -n1 <<<"$out") =~ ^[0-9]+$ ]]; then
		printf 'unreachable\tunreachable or not usable (exit %s: %s): not used\n' "$rc" "$(tail -n1 <<<"$out" | cut -c1-120)"
	else
		printf 'ok\t%s\n' "$(tail -n1 <<<"$out")"
	fi
}

# prepare_hosts: every host at once; unreachable ones are not used.
prepare_hosts() {
	local i state what
	for i in "${!HOST_LOGIN[@]}"; do
		prepare_host "$i" >"$WORK/prepare.$i" &
	done
	wait
	for i in "${!HOST_LOGIN[@]}"; do
		IFS=$'\t' read -r state what <"$WORK/prepare.$i" || state=unreachable what="not prepared"
		HOST_STATE[i]=$state
		if [ "$state" != ok ]; then
			HOST_NOTE[i]=$what
			log "Host ${HOST_NAME[i]}: $what"
			continue
		fi
		HOST_CPUS[i]=$what
		if [ -z "${HOST_JOBS[i]}" ]; then
			HOST_JOBS[i]=$((what / 4))
			((HOST_JOBS[i] > 0)) || HOST_JOBS[i]=1
		fi
		log "Host ${HOST_NAME[i]}: $what processors, ${HOST_JOBS[i]} runs at a time"
	done
}

# ------------------------------------------------------------------
# The source every host builds: SRC_ID, WORK/src.tar.

make_source() {
	local top=$TORTURE_TOP dirty
	if ((OPT_WORKTREE == 0)) && git -C "$top" rev-parse --verify -q HEAD >/dev/null 2>&1; then
		SRC_ID=$(git -C "$top" rev-parse --short=12 HEAD)
		git -C "$top" archive --format=tar HEAD >"$WORK/src.tar" || die 3 "git archive HEAD failed"
		dirty=$(git -C "$top" status --porcelain --untracked-files=no | head -n1)
		[ -z "$dirty" ] || log "Note: uncommitted changes are not sent (the hosts build HEAD $SRC_ID; --worktree sends them)"
		SRC_DESC="commit $(git -C "$top" rev-parse HEAD)"
	elif git -C "$top" rev-parse --verify -q HEAD >/dev/null 2>&1; then
		(cd "$top" && git ls-files -z -c -o --exclude-standard |
			while IFS= read -r -d '' f; do [ ! -e "$f" ] || printf '%s\0' "$f"; done |
			tar --null -T - -cf "$WORK/src.tar") ||
			die 3 "the working tree could not be packed"
		SRC_ID=wt-$(sha1sum <"$WORK/src.tar" | cut -c1-12)
		SRC_DESC="working tree of commit $(git -C "$top" rev-parse HEAD) with its uncommitted changes"
	else
		(cd "$top" && tar --exclude=./build --exclude=./results --exclude=./.git -cf "$WORK/src.tar" .) ||
			die 3 "the tree could not be packed"
		SRC_ID=tree-$(sha1sum <"$WORK/src.tar" | cut -c1-12)
		SRC_DESC="tree $top (not a git checkout)"
	fi
}

# ------------------------------------------------------------------
# Runs.  INSTANCES / SCENARIO_OF / PASS_OF: the runs (TREE01, TREE01.2,
# TREE01-kasan, refscale-OURS ...), their scenario and pass;
# DONE_DIR[inst]: the returned folder of a completed run; LOST_WHY[inst]:
# why its last try was lost.

# SET_OF: the program set of a run (rcutorture, refscale, rcuscale,
# kvfree): its pass's own, or under kasan and kcsan the one sanitized.
INSTANCES=()
declare -A SCENARIO_OF=() PASS_OF=() SET_OF=() DONE_DIR=() LOST_WHY=() LOST_HOST=()

make_instances() {
	local names name k p set inst
	for p in "${PASSES[@]}"; do
		pass_on "$p" || continue
		[ "${PASS_KIND[$p]}" != here ] || continue
		PASS_RUNS[$p]=0 PASS_TIMED_RUNS[$p]=0
		for set in $(pass_sets "$p"); do
			names=$(pass_scenarios "$set") || exit 2
			[ -n "$names" ] || die 2 "$p: no $set scenarios to run"
			declare -A seen=()
			while IFS= read -r name; do
				k=$((${seen[$name]:-0} + 1))
				seen[$name]=$k
				inst=$(pass_instance "$p" "$set" "$name")
				((k == 1)) || inst+=".$k"
				INSTANCES+=("$inst")
				SCENARIO_OF[$inst]=$name
				PASS_OF[$inst]=$p
				SET_OF[$inst]=$set
				PASS_RUNS[$p]=$((PASS_RUNS[$p] + 1))
				[ "${PASS_KIND[$set]}" != "${PASS_KIND[$p]}" ] ||
					PASS_TIMED_RUNS[$p]=$((PASS_TIMED_RUNS[$p] + 1))
			done <<<"$names"
			unset seen
		done
	done
}

# run_seconds INSTANCE: how long its run lasts: its pass's run time; a
# perf program's run under a sanitizer pass has the plain perf pass's
# timeout.
run_seconds() {
	local p=${PASS_OF[$1]} set=${SET_OF[$1]}
	if [ "$set" != "$p" ] && [ "${PASS_KIND[$set]}" = perf ]; then
		echo "${PASS_RUN_S[$set]}"
	else
		echo "${PASS_RUN_S[$p]}"
	fi
}

# total_slots: runs at a time over the usable hosts (the jobs of a host
# not yet measured count as one).
total_slots() {
	local i n=0
	for i in "${!HOST_LOGIN[@]}"; do
		[ "${HOST_STATE[i]}" = ok ] || continue
		n=$((n + ${HOST_JOBS[i]:-1}))
	done
	((n > 0)) || n=1
	echo "$n"
}

# pass_durations: each pass's share of --duration (PASS_SHARE, seconds)
# and its runs' time (PASS_RUN_S): share x slots / runs (of its own kind:
# a sanitizer pass's perf runs take their loops' time), at least 10 s
# for a torture run, 300 s for a perf run (there it is the timeout of one
# measurement, which must not cut a measurement on a busy machine: the
# kernel's torture.sh gives refscale and rcuscale 5 minutes).
declare -A PASS_MIN_RUN_S=([torture]=10 [perf]=300)
pass_durations() {
	local p w=0 slots rounds min
	slots=$(total_slots)
	for p in "${!PASS_RUNS[@]}"; do w=$((w + PASS_WEIGHT[$p])); done
	for p in "${!PASS_RUNS[@]}"; do
		PASS_SHARE[$p]=$((OPT_DURATION * PASS_WEIGHT[$p] / w))
		rounds=$(((PASS_TIMED_RUNS[$p] + slots - 1) / slots))
		((rounds > 0)) || rounds=1
		PASS_RUN_S[$p]=$((PASS_SHARE[$p] / rounds))
		min=${PASS_MIN_RUN_S[${PASS_KIND[$p]}]}
		if ((PASS_RUN_S[$p] < min)); then
			PASS_RUN_S[$p]=$min
			[ "${PASS_KIND[$p]}" = perf ] ||
				log "Note: pass $p: ${PASS_TIMED_RUNS[$p]} runs in ${PASS_SHARE[$p]} s on $slots slots: $min s each, longer than its share"
		fi
	done
}

# pass_perf_note PASS: for a sanitizer pass with perf programs' runs,
# what they do (else nothing).
pass_perf_note() {
	((PASS_RUNS[$1] > PASS_TIMED_RUNS[$1])) || return 0
	echo " (the perf programs' runs: one round of each measurement, the perf pass's timeout)"
}

# host_jobs_map: "LOGIN=JOBS,..." for the usable hosts (a job finds its
# host's count by parallel's PARALLEL_SSHLOGIN).
host_jobs_map() {
	local i out=''
	for i in "${!HOST_LOGIN[@]}"; do
		[ "${HOST_STATE[i]}" != ok ] || out+="${out:+,}${HOST_LOGIN[i]}=${HOST_JOBS[i]}"
	done
	echo "$out"
}

# job_template TRY JOBSMAP: the command parallel runs for each
# "INSTANCE SCENARIO PASS SECONDS SET".
job_template() {
	local base=$OPT_REMOTE_DIR
	printf 'bash %q %q %q %q {1} {2} {3} {5} %q {4}s %q %q %q %q' "$base/src-$SRC_ID/tree/bin/lib/nightly-job.sh" \
		"$base" "$SRC_ID" "$RUN_ID" "$1" "$2" "${TORTURE_BIN:-}" "${PERF_BIN:-}" "${NIGHTLY_BIN_DIR:-}"
	local o
	for o in ${OPT_TORTURE[@]+"${OPT_TORTURE[@]}"}; do printf ' %q' "$o"; done
}

# run_round TRY INSTANCE...: one parallel run over the usable hosts; a
# run that did not come back completed is lost (LOST_WHY), and so is
# its host for the next rounds.
run_round() {
	local try=$1 i inst seq host xst sig dir reason line rc=0
	shift
	local -a logins=() list=("$@")
	for i in "${!HOST_LOGIN[@]}"; do
		[ "${HOST_STATE[i]}" = ok ] || continue
		logins+=("${HOST_JOBS[i]}/${HOST_LOGIN[i]}")
	done
	local jl=$WORK/joblog.$try
	local longest=0 p
	for inst in "${list[@]}"; do
		printf '%s\t%s\t%s\t%s\t%s\n' "$inst" "${SCENARIO_OF[$inst]}" "${PASS_OF[$inst]}" "$(run_seconds "$inst")" \
			"${SET_OF[$inst]}"
	done >"$WORK/jobs.$try"
	for p in "${!PASS_RUN_S[@]}"; do ((PASS_RUN_S[$p] <= longest)) || longest=${PASS_RUN_S[$p]}; done
	local -a par=(parallel --will-cite --colsep '\t' --joblog "$jl" --timeout "$((longest + 3600))"
		--sshlogin "$(IFS=,; echo "${logins[*]}")" --ssh "$OPT_SSH")
	# Remote runs' results come back to the same path here (parallel's rsync).
	if printf '%s\n' "${logins[@]}" | grep -qv '/:$'; then
		par+=(--return "$OPT_REMOTE_DIR/out/$RUN_ID/{1}.t$try")
	fi
	log "Round $try: ${#list[@]} runs on ${#logins[@]} hosts: ${list[*]}"
	(cd "$LOCAL_ROOT" && exec "${par[@]}" "$(job_template "$try" "$(host_jobs_map)")" <"$WORK/jobs.$try" >"$WORK/out.$try" 2>&1) &
	PARALLEL_PID=$!
	wait "$PARALLEL_PID" || rc=$?
	# An interrupt (on_interrupt) stops parallel; wait for it to finish.
	while kill -0 "$PARALLEL_PID" 2>/dev/null; do wait "$PARALLEL_PID" || rc=$?; done
	PARALLEL_PID=
	while IFS= read -r line; do log "  $line"; done <"$WORK/out.$try"
	# The joblog: Seq Host Starttime JobRuntime Send Receive Exitval Signal Command.
	declare -A seen=()
	while IFS=$'\t' read -r seq host _ _ _ _ xst sig _; do
		[[ $seq =~ ^[0-9]+$ ]] || continue
		inst=${list[seq - 1]}
		seen[$inst]=1
		[ "$host" != : ] || host=local
		dir=$(local_base)/out/$RUN_ID/$inst.t$try
		if [ "$xst" = 0 ] && [ "$sig" = 0 ] && [ -f "$dir/job.status" ]; then
			DONE_DIR[$inst]=$dir
			unset "LOST_WHY[$inst]"
			host_ran "$host" "$inst"
			continue
		fi
		if [ "$sig" != 0 ]; then
			reason="killed by signal $sig (timeout or interrupted)"
		elif [ "$xst" = 255 ]; then
			reason="ssh exit 255: host gone or connection lost"
		elif [ "$xst" = 0 ]; then
			reason="its results did not come back"
		else
			reason="exit $xst"
		fi
		LOST_WHY[$inst]="lost on host $host ($reason)"
		LOST_HOST[$inst]=$host
		host_lost "$host" "$inst" "$reason"
	done <"$jl"
	for inst in "${list[@]}"; do
		[ -n "${seen[$inst]:-}" ] || LOST_WHY[$inst]=${LOST_WHY[$inst]:-"not started (parallel exited $rc)"}
	done
}

# host_ran NAME INSTANCE / host_lost NAME INSTANCE REASON: bookkeeping.
host_ran() {
	local i
	i=$(host_index "$1") || return 0
	HOST_RUNS[i]+="${HOST_RUNS[i]:+ }$2"
}
host_lost() {
	local i
	i=$(host_index "$1") || return 0
	if [ "${HOST_STATE[i]}" = ok ]; then
		HOST_STATE[i]=lost
		HOST_NOTE[i]="lost $2 ($3): not used after"
		log "Host $1: lost $2 ($3): not used after"
	else
		HOST_NOTE[i]+="; lost $2 too"
	fi
}

# usable_hosts: how many hosts are still ok.
usable_hosts() {
	local i n=0
	for i in "${!HOST_STATE[@]}"; do [ "${HOST_STATE[i]}" != ok ] || n=$((n + 1)); done
	echo "$n"
}

# on_interrupt: stop the round's parallel (it stops its jobs); the runs
# not done are INCOMPLETE, the rest is collected and reported.
INTERRUPTED=0
PARALLEL_PID=
# shellcheck disable=SC2317  # called by trap
on_interrupt() {
	INTERRUPTED=1
	log "Interrupted: stopping the runs"
	[ -z "$PARALLEL_PID" ] || kill -INT "$PARALLEL_PID" 2>/dev/null || true
}

# run_all: the rounds; what is still lost at the end stays in LOST_WHY.
run_all() {
	local try=0 inst
	local -a pending=("${INSTANCES[@]}")
	while [ ${#pending[@]} -gt 0 ] && ((try <= OPT_RETRIES)); do
		if ((INTERRUPTED)); then
			for inst in "${pending[@]}"; do LOST_WHY[$inst]="interrupted"; done
			break
		fi
		if (($(usable_hosts) == 0)); then
			for inst in "${pending[@]}"; do
				LOST_WHY[$inst]="${LOST_WHY[$inst]:+${LOST_WHY[$inst]}; }no host left to run it"
			done
			break
		fi
		try=$((try + 1))
		run_round "$try" "${pending[@]}"
		pending=()
		for inst in "${INSTANCES[@]}"; do
			[ -n "${DONE_DIR[$inst]:-}" ] || pending+=("$inst")
		done
		((${#pending[@]} == 0)) || ((try > OPT_RETRIES)) || log "Queued again: ${pending[*]}"
	done
}

# collect: RESDIR/INSTANCE for every run: its returned folder, or an
# INCOMPLETE mark for a lost one.
collect() {
	local inst dir
	for inst in "${INSTANCES[@]}"; do
		dir=$RESDIR/$inst
		mkdir -p "$dir"
		if [ -n "${DONE_DIR[$inst]:-}" ]; then
			cp -a "${DONE_DIR[$inst]}/." "$dir/"
			rm -f "$dir/started"
		else
			echo "INCOMPLETE: ${LOST_WHY[$inst]:-not run}" >"$dir/Warnings"
			echo "${PASS_OF[$inst]}" >"$dir/pass"
			[ -z "${LOST_HOST[$inst]:-}" ] || echo "${LOST_HOST[$inst]}" >"$dir/host"
		fi
	done
	rm -rf "$(local_base)/out/${RUN_ID:?}"
}

# write_hosts: RESDIR/hosts.json.
write_hosts() {
	local i note
	for i in "${!HOST_LOGIN[@]}"; do
		note="${HOST_NAME[i]}: ${HOST_CPUS[i]:-?} processors, ${HOST_JOBS[i]:-?} at a time; ran ${HOST_RUNS[i]:-nothing}"
		[ -z "${HOST_NOTE[i]}" ] || note+="; ${HOST_NOTE[i]}"
		jq -n -c --arg login "${HOST_LOGIN[i]}" --arg name "${HOST_NAME[i]}" --arg state "${HOST_STATE[i]}" \
			--arg cpus "${HOST_CPUS[i]}" --arg jobs "${HOST_JOBS[i]}" --arg runs "${HOST_RUNS[i]}" --arg note "$note" \
			'{login: $login, name: $name, state: $state, cpus: ($cpus | tonumber? // null),
			  jobs: ($jobs | tonumber? // null), runs: ($runs | split(" ") | map(select(. != ""))), note: $note}'
	done | jq -s . >"$RESDIR/hosts.json"
}

# here_pass PASS: a pass that runs on this machine after the runs
# (mutation: bin/mutation.sh into RESDIR/mutation; compare-liburcu:
# bin/compare-liburcu.sh into RESDIR/compare-liburcu); prints its TAP
# test as a JSON object for tap.jq (the log lines go to stderr).
here_pass() {
	local p=$1 st=0 prog args name
	local -a cmd
	case $p in
	mutation)
		prog=${NIGHTLY_MUTATION:-$BIN_DIR/mutation.sh} args=$OPT_MUTATION
		cmd=(--results "$RESDIR/mutation")
		name="mutation kill table (mutation/kill.html)" ;;
	compare-liburcu)
		prog=${NIGHTLY_COMPARE:-$BIN_DIR/compare-liburcu.sh} args=$OPT_COMPARE
		cmd=(--results "$RESDIR" --datestamp compare-liburcu)
		name="compare-liburcu (compare-liburcu/compare.md)" ;;
	esac
	log "Pass $p: ${prog##*/}${args} (log: $p.log)" >&2
	# shellcheck disable=SC2086  # the arguments are split on purpose
	PERF_BIN_DIR=${PERF_BIN_DIR:-${NIGHTLY_BIN_DIR:-}} "$prog" "${cmd[@]}" $args >"$RESDIR/$p.log" 2>&1 || st=$?
	log "Pass $p: $(tail -n1 "$RESDIR/$p.log")" >&2
	# Exit 3: a tool it needs is missing (named in its last line): skipped.
	jq -n -c --argjson ok "$((st == 0 || st == 3))" --argjson skip "$((st == 3))" \
		--arg why "$(tail -n1 "$RESDIR/$p.log")" --arg name "$name" --arg p "$p" \
		'{ok: ($ok == 1), skip: ($skip == 1), name: $name, why: $why, pass: $p}'
}

# drift_check: RESDIR/drift.json, the figures of this night beyond their
# spread over the last nights (analysis/drift.jq on the roll-up), each
# also logged; a flag for a person, not a verdict (the machines are shared).
drift_check() {
	[ -s "$RESDIR/rollup.jsonl" ] || { echo '[]' >"$RESDIR/drift.json"; return 0; }
	analysis_jq -s -c -f "$ANALYSIS_DIR/drift.jq" "$RESDIR/rollup.jsonl" --arg date "${RESDIR##*/}" |
		jq -s -c . >"$RESDIR/drift.json" || echo '[]' >"$RESDIR/drift.json"
	jq -r '.[] | "Drift: \(.pass) \(.series) \(.figure): \(.value), \(.direction) from \(.mean) (band \(.low) to \(.high) over \(.nights) nights)"' \
		"$RESDIR/drift.json" | while IFS= read -r l; do log "$l"; done
}

# write_passes: RESDIR/passes.json, one object a pass that is on: its
# kind, runs, share of --duration and run time (seconds).
write_passes() {
	local p
	for p in "${PASSES[@]}"; do
		pass_on "$p" || continue
		jq -n -c --arg p "$p" --arg k "${PASS_KIND[$p]}" --arg n "${PASS_RUNS[$p]:-}" \
			--arg sh "${PASS_SHARE[$p]:-}" --arg r "${PASS_RUN_S[$p]:-}" \
			'{pass: $p, kind: $k, runs: ($n | tonumber? // null), share_s: ($sh | tonumber? // null),
			  run_s: ($r | tonumber? // null)}'
	done | jq -s . >"$RESDIR/passes.json"
}

# summarize: runs.jsonl, TAP and JUnit, the roll-up and report; prints
# the TAP summary last; returns 1 if the night is red: a run failed or
# is INCOMPLETE, a run expected to fail did not, or a pass run here
# failed.
summarize() {
	local st=0 notes extra p
	if [ ${#INSTANCES[@]} -gt 0 ]; then
		analysis_collect "$RESDIR" || st=$?
		((st != 2)) || die 1 "$RESDIR: the runs could not be read"
	else
		: >"$RESDIR/runs.jsonl"
	fi
	extra=$(for p in mutation compare-liburcu; do
		if pass_on "$p"; then here_pass "$p"; fi
	done | jq -s -c .)
	write_passes
	if ((OPT_REPORT)); then
		"$BIN_DIR/rollup.sh" --last "$OPT_HISTORY" --out "$RESDIR" "$OPT_RESULTS" >/dev/null 2>"$WORK/rollup.err" || true
		# Malformed lines of this night's runs were named above already.
		grep -v ': malformed ' "$WORK/rollup.err" | while IFS= read -r l; do log "$l"; done || true
		drift_check
	fi
	notes=$(jq -c '[.[] | .note]' "$RESDIR/hosts.json")
	analysis_sanitizer "$RESDIR" || echo '[]' >"$RESDIR/sanitizer.json"
	notes=$(jq -c --argjson n "$notes" '$n + map("sanitizer: \(.count) x \(.summary) (\(.runs | join(" ")))")' "$RESDIR/sanitizer.json")
	[ ! -s "$RESDIR/drift.json" ] ||
		notes=$(jq -c --argjson n "$notes" '$n + map("drift: \(.pass) \(.series) \(.figure): \(.value), \(.direction) from \(.mean) (band \(.low) to \(.high) over \(.nights) nights)")' "$RESDIR/drift.json")
	analysis_jq -s -r -f "$ANALYSIS_DIR/tap.jq" "$RESDIR/runs.jsonl" --argjson notes "$notes" \
		--argjson extra "$extra" >"$RESDIR/nightly.tap"
	analysis_jq -s -r -f "$ANALYSIS_DIR/junit.jq" "$RESDIR/runs.jsonl" --arg name "rcutorture nightly ${RESDIR##*/}" \
		--argjson extra "$extra" >"$RESDIR/junit.xml"
	if ((OPT_REPORT)); then
		"$BIN_DIR/report.sh" "$RESDIR" 2>&1 | grep -v ': malformed ' | while IFS= read -r l; do log "$l"; done || true
		log "Report: $RESDIR/index.html"
	fi
	cat "$RESDIR/nightly.tap"
	[ -z "$(analysis_jq -r 'include "lib"; select(is_red) | .run' "$RESDIR/runs.jsonl")" ] &&
		[ "$(jq '[.[] | select(.ok | not)] | length' <<<"$extra")" = 0 ]
}

dryrun() {
	local i p
	echo "Source: $SRC_DESC (id $SRC_ID)"
	pass_durations
	for p in "${PASSES[@]}"; do
		pass_on "$p" || continue
		case ${PASS_KIND[$p]} in
		here)
			if [ "$p" = mutation ]; then
				echo "Pass $p: then, here: bin/mutation.sh${OPT_MUTATION}"
			else
				echo "Pass $p: then, here: bin/compare-liburcu.sh${OPT_COMPARE}"
			fi ;;
		*)
			local -a r=()
			for i in "${INSTANCES[@]}"; do [ "${PASS_OF[$i]}" != "$p" ] || r+=("$i"); done
			echo "Pass $p: ${PASS_SHARE[$p]} s of ${OPT_DURATION} s: ${r[*]}; ${PASS_RUN_S[$p]}s each$(pass_perf_note "$p")" ;;
		esac
	done
	echo "Retries: $OPT_RETRIES"
	for i in "${!HOST_LOGIN[@]}"; do
		echo "Host ${HOST_NAME[i]}: ${HOST_JOBS[i]:-one per 4 processors} at a time, in $OPT_REMOTE_DIR"
	done
	echo "Job: $(job_template 1 "$(host_jobs_map)")"
}

main() {
	parse_options "$@"
	analysis_need parallel parallel "nothing run"
	analysis_need jq jq "nothing run"
	analysis_need tar tar "nothing run"
	# The scenarios and options, checked as bin/torture.sh checks them.
	local p
	for p in "${PASSES[@]}"; do
		pass_on "$p" || continue
		# The sanitizer passes run rcutorture's scenarios: checked once.
		[ "${PASS_KIND[$p]}" = perf ] || [ "$p" = rcutorture ] ||
			{ pass_on rcutorture && continue; }
		pass_check "$p" || exit 2
	done
	make_instances
	hosts_init
	WORK=$(mktemp -d "${TMPDIR:-/tmp}/nightly.XXXXXX")
	trap 'rm -rf "$WORK"' EXIT
	LOG=$WORK/log
	LOCAL_ROOT=${NIGHTLY_LOCAL_ROOT:-$TORTURE_TOP/build/nightly}
	RUN_ID=$(date +%Y%m%d%H%M%S)-$$
	make_source
	if ((OPT_DRYRUN)); then
		dryrun
		exit 0
	fi
	mkdir -p "$LOCAL_ROOT" || die 2 "$LOCAL_ROOT: cannot create"
	OPT_RESULTS=${OPT_RESULTS%/}
	RESDIR=$(analysis_dated_dir "$OPT_RESULTS") || exit 2
	cat "$LOG" >"$RESDIR/log" 2>/dev/null || : >"$RESDIR/log"
	LOG=$RESDIR/log
	log "$PROG $*"
	log "Results directory: $RESDIR"
	log "Source: $SRC_DESC"
	{ echo "$SRC_DESC"; git -C "$TORTURE_TOP" status --short 2>/dev/null || true; } >"$RESDIR/testid.txt"
	trap on_interrupt INT TERM
	if [ ${#INSTANCES[@]} -gt 0 ]; then
		prepare_hosts
		(($(usable_hosts) > 0)) || log "No usable host: every run is INCOMPLETE"
		pass_durations
		for p in "${PASSES[@]}"; do
			[ -z "${PASS_RUN_S[$p]:-}" ] ||
				log "Pass $p: ${PASS_RUNS[$p]} runs, ${PASS_SHARE[$p]} s of ${OPT_DURATION} s, ${PASS_RUN_S[$p]} s each$(pass_perf_note "$p")"
		done
		run_all
		collect
	fi
	write_hosts
	local st=0
	summarize || st=1
	((INTERRUPTED == 0)) || st=130
	exit "$st"
}

main "$@"
