# shellcheck shell=bash
# bin/lib/session.sh - one torture session, shared by torture.sh and
# again.sh: plans in WORK/NAME.plan are built and checked (planning: no
# results folder yet), then run in batches, judged, and summed up.
# Sourced; sources the libraries it uses (common.sh, scenario.sh,
# judge.sh, run.sh, jitter.sh).
#
# The caller sets: OPT_RESULTS OPT_DATESTAMP OPT_GRACE OPT_REPEAT
# OPT_UNTIL_FAIL OPT_JITTER CPU_BUDGET HOST_CPUS (and RUN_NO_AFFINITY),
# then session_work, writes the plans, and calls session_check_build,
# session_check_plans and session_run (or session_dryrun).

# shellcheck source-path=SCRIPTDIR
# shellcheck source=common.sh
. "${BASH_SOURCE[0]%/*}/common.sh"
# shellcheck source=scenario.sh
. "${BASH_SOURCE[0]%/*}/scenario.sh"
# shellcheck source=judge.sh
. "${BASH_SOURCE[0]%/*}/judge.sh"
# shellcheck source=run.sh
. "${BASH_SOURCE[0]%/*}/run.sh"
# shellcheck source=jitter.sh
. "${BASH_SOURCE[0]%/*}/jitter.sh"

# The options of a session (set by session_option from the command line).
OPT_DURATION=
OPT_CPUS=
OPT_RESULTS=$TORTURE_TOP/results
OPT_DATESTAMP=
OPT_DRYRUN=
OPT_REPEAT=
OPT_UNTIL_FAIL=0
OPT_GRACE=60
OPT_JITTER=0
SESSION_NOTES=()

# need_value OPTION ARGC: the option has its value?
need_value() {
	(($2 >= 2)) || die 2 "$1: needs a value (see --help)"
}

# session_option OPTION [VALUE...]: take one option of a session
# (--duration --cpus --allcpus --results --datestamp --repeat --until-fail
# --shutdown-grace --jitter --no-affinity --dryrun [MODE]); SESSION_SHIFT is
# then how many words it used (0: not one of them).  Exit 2 on a bad value.
# shellcheck disable=SC2034  # the OPT_* are the callers', RUN_NO_AFFINITY run_cmd's
session_option() {
	SESSION_SHIFT=1
	case $1 in
	--duration | --cpus | --results | --datestamp | --repeat | --shutdown-grace | --jitter)
		need_value "$1" $#
		SESSION_SHIFT=2 ;;
	esac
	case $1 in
	--duration)
		OPT_DURATION=$(parse_duration "$2") ||
			die 2 "--duration $2: expected minutes or a number with s, m, h or d (30s, 5m, 2h)" ;;
	--cpus)
		positive "$2" || die 2 "--cpus $2: expected a number of CPUs >= 1"
		OPT_CPUS=$((10#$2)) ;;
	--allcpus) OPT_CPUS= ;;
	--results) OPT_RESULTS=$2 ;;
	--datestamp)
		[[ $2 =~ ^[A-Za-z0-9._-][A-Za-z0-9._/-]*$ && $2 != *..* ]] ||
			die 2 "--datestamp $2: expected a relative name (letters, digits, . _ - /)"
		OPT_DATESTAMP=$2 ;;
	--repeat)
		positive "$2" || die 2 "--repeat $2: expected a count >= 1"
		OPT_REPEAT=$((10#$2)) ;;
	--until-fail) OPT_UNTIL_FAIL=1 ;;
	--shutdown-grace)
		[[ $2 =~ ^[0-9]{1,6}$ ]] || die 2 "--shutdown-grace $2: expected seconds"
		OPT_GRACE=$((10#$2)) ;;
	--jitter)
		jitter_spec "$2" || die 2 "--jitter $2: expected \"N [MAXSLEEP_US [MAXSPIN_US]]\" (N -1: one a CPU)"
		OPT_JITTER=$2 ;;
	--no-affinity) RUN_NO_AFFINITY=1 ;;
	--dryrun)
		OPT_DRYRUN=full
		if (($# >= 2)) && [[ $2 =~ ^(sched|script|batches|scenarios)$ ]]; then
			OPT_DRYRUN=$2
			SESSION_SHIFT=2
		fi ;;
	*) SESSION_SHIFT=0 ;;
	esac
}

# session_parse OWN ARG...: a command line: --option=value split in two,
# the session's options taken, every other word given to the caller's
# OWN WORD [MORE...], which sets SESSION_SHIFT to the words it used (0: an
# unknown option).
session_parse() {
	local own=$1 o
	shift
	while (($#)); do
		o=$1
		[[ $o != --*=* ]] || set -- "${o%%=*}" "${o#*=}" "${@:2}"
		session_option "$@"
		((SESSION_SHIFT)) || "$own" "$@"
		((SESSION_SHIFT)) || die 2 "$1: unknown option (see --help)"
		shift "$SESSION_SHIFT"
	done
}

# session_cpus: HOST_CPUS and CPU_BUDGET, with a warning when the budget
# exceeds this host.
session_cpus() {
	HOST_CPUS=$(allowed_cpus | wc -l)
	CPU_BUDGET=${OPT_CPUS:-$HOST_CPUS}
	if ((CPU_BUDGET > HOST_CPUS)); then
		echo "$PROG: --cpus $CPU_BUDGET is more than the $HOST_CPUS CPUs this process may use: runs will share processors" >&2
	fi
}

# ------------------------------------------------------------------
# Signals.  bash cannot run a trap safely while it expands a command
# substitution (it parses the trap's text in the substitution's state,
# fails, and may wedge), and a session does little else.  So the script
# starts itself again as the worker and only waits for it: a signal (Ctrl-C,
# kill) lands in that wait, where the trap is safe.  The worker is then
# asked to stop through the file WORK/interrupt, which it checks between
# its steps and every second of a run (session_check_interrupt): it stops
# its runs, waits for them (bounded), prints the table so far and exits
# 130.  A worker that does not within SESSION_STOP_WAIT seconds is killed,
# with its runs.

SESSION_STOP_WAIT=${SESSION_STOP_WAIT:-120}

# ------------------------------------------------------------------
# One session per results folder, as kvm.sh allows one per tree: the
# first process of a session (torture.sh's supervisor, or the perf
# suite's process) holds the folder's lock file with flock while it runs
# and writes "PID START ARGS" in it.  The lock file is
# /run/lock/torture-HASH.lock ($TMPDIR without /run/lock; HASH: of the
# folder's absolute path), so that a folder is not made before its
# session is checked, and every tree on this machine that writes into the
# folder sees the lock.  Its holder removes it as it leaves, still holding
# it; a session that then gets the lock of a removed file opens the path
# again, so two never hold it.  A second session on the same folder
# stops with exit 2 naming the first, or with --kill-previous stops the
# first (SIGTERM: its runs are stopped and judged, as for Ctrl-C) and
# waits for its lock.  The worker and the runs do not hold the lock (it
# is closed for them), so a run that outlives its session cannot keep it.
SESSION_LOCK_FD= SESSION_LOCK_FILE=

# session_lock ARG...: take the results folder's lock for the session
# whose command line is ARG... (--results DIR, --kill-previous; nothing
# for --dryrun or --help, which write nothing, or in the worker).
session_lock() {
	local res=$TORTURE_TOP/results kill=0 prev pid a args="$*" lock
	[ -z "${TORTURE_WORK:-}" ] || return 0
	while (($#)); do
		a=$1
		case $a in
		--results) res=${2:-$res}; shift ;;
		--results=*) res=${a#*=} ;;
		--kill-previous) kill=1 ;;
		--dryrun | --dryrun=* | --help | -h) return 0 ;;
		esac
		shift
	done
	have flock || return 0
	res=$(realpath -m -- "$res")
	lock=/run/lock
	[ -d "$lock" ] && [ -w "$lock" ] || lock=${TMPDIR:-/tmp}
	lock=$lock/torture-$(printf '%s' "$res" | sha1sum | cut -c1-16).lock
	while :; do
		exec {SESSION_LOCK_FD}>>"$lock" || die 2 "$lock: cannot open the lock of $res"
		if ! flock -n "$SESSION_LOCK_FD"; then
			prev=$(head -n1 "$lock" 2>/dev/null || true)
			pid=${prev%% *}
			((kill)) || die 2 "$res: in use by another bin/torture.sh (pid ${prev:-unknown}): wait for it, or --kill-previous"
			[[ $pid =~ ^[0-9]+$ ]] && kill -TERM "$pid" 2>/dev/null &&
				echo "$PROG: --kill-previous: stopping bin/torture.sh pid $pid (its runs are judged as interrupted)" >&2
			kill=0	# once
			flock -w "$((SESSION_STOP_WAIT + 30))" "$SESSION_LOCK_FD" ||
				die 1 "$res: the previous bin/torture.sh (pid ${prev:-unknown}) did not stop"
		fi
		# The holder removes the file as it leaves (session_unlock): a lock
		# taken on a removed file is no lock; open the path again.
		[ "$(stat -L -c %i "/dev/fd/$SESSION_LOCK_FD")" != "$(stat -c %i "$lock" 2>/dev/null)" ] || break
		exec {SESSION_LOCK_FD}>&-
	done
	SESSION_LOCK_FILE=$lock
	printf '%s %s %s\n' "$$" "$(date '+%Y.%m.%d-%H.%M.%S')" "$args" >"$lock"
	trap session_unlock EXIT
}

# session_unlock: leave nothing behind: remove the lock file while still
# holding it (a session waiting on it sees it removed and opens the path
# again), then let go.
session_unlock() {
	[ -n "${SESSION_LOCK_FILE:-}" ] || return 0
	rm -f "$SESSION_LOCK_FILE"
	exec {SESSION_LOCK_FD}>&-
	SESSION_LOCK_FILE=
}

# session_supervise ARG...: in the supervisor, run the worker with ARGs
# and leave with its exit status (never returns); in the worker, return.
session_supervise() {
	local w t='' rc=0 done_pid pid
	[ -z "${TORTURE_WORK:-}" ] || return 0
	WORK=$(mktemp -d "${TMPDIR:-/tmp}/torture.XXXXXX") || die 1 "cannot create a temporary folder"
	trap 'rm -rf "${WORK:-/nonexistent}"; session_unlock' EXIT
	SESSION_SIG=
	trap 'SESSION_SIG=SIGINT' INT
	trap 'SESSION_SIG=SIGTERM' TERM
	trap 'SESSION_SIG=SIGHUP' HUP
	if [ -n "$SESSION_LOCK_FD" ]; then
		TORTURE_WORK=$WORK "$BASH" "$0" "$@" {SESSION_LOCK_FD}>&- &
	else
		TORTURE_WORK=$WORK "$BASH" "$0" "$@" &
	fi
	w=$!
	while :; do
		rc=0
		if [ -z "$t" ]; then
			wait "$w" || rc=$?
		else
			wait -n -p done_pid "$w" "$t" || rc=$?
			if [ "${done_pid:-}" = "$t" ]; then
				printf '%s: the runs did not stop within %s s: killed\n' "$PROG" "$SESSION_STOP_WAIT" >&2
				for pid in "$WORK"/state/*/pid; do [ ! -f "$pid" ] || kill -KILL "$(<"$pid")" 2>/dev/null; done
				kill -KILL "$w" 2>/dev/null
				exit 130
			fi
		fi
		# The worker ended, or a signal arrived while it runs.
		if [ -z "$SESSION_SIG" ] || ! kill -0 "$w" 2>/dev/null; then
			break
		fi
		put_file "$WORK/interrupt" "$SESSION_SIG"	# the worker may look at any moment
		SESSION_SIG=
		if [ -z "$t" ]; then
			sleep "$SESSION_STOP_WAIT" &
			t=$!
		fi
	done
	[ -z "$t" ] || kill "$t" 2>/dev/null
	exit "$rc"
}

# session_work: WORK, the session's scratch folder (the supervisor's: it
# removes it at exit), and the worker's signals: as a background job of a
# script it ignores SIGINT (a Ctrl-C reaches it as the supervisor's
# request: session_check_interrupt), and it ignores SIGHUP.
session_work() {
	WORK=${TORTURE_WORK:?session_supervise first}
	trap '' HUP
	# shellcheck disable=SC2034  # run.sh keeps each run's bookkeeping there
	RUN_STATE=$WORK/state
	RUN_WATCH_HOOK=session_check_interrupt
}

# session_check_interrupt: was the session asked to stop?  Then stop it:
# nothing was run yet (exit 130), or the runs are stopped and judged
# (session_interrupted).
session_check_interrupt() {
	[ -f "$WORK/interrupt" ] || return 0
	if [ -z "${RESDIR:-}" ]; then
		echo "$PROG: interrupted by $(<"$WORK/interrupt"): nothing run" >&2
		exit 130
	fi
	session_interrupted "$(<"$WORK/interrupt")"
}

# plan_tiny_bin PLANFILE: TORTURE_TINY_BIN if the plan runs Tiny RCU and
# it is given; nothing otherwise.
plan_tiny_bin() {
	[ -z "${TORTURE_TINY_BIN:-}" ] || [[ $(plan_get build <"$1") != tiny* ]] ||
		echo "$TORTURE_TINY_BIN"
}

# plan_bin PLANFILE: the rcutorture binary for a plan (absolute): the
# plan's own (again.sh: the one saved with the results), TORTURE_TINY_BIN
# for Tiny RCU, TORTURE_BIN, or its build's.
plan_bin() {
	local b
	b=$(plan_get bin <"$1")
	[ -n "$b" ] || b=$(plan_tiny_bin "$1")
	if [ -n "$b" ]; then
		echo "$b"
	elif [ -n "${TORTURE_BIN:-}" ]; then
		echo "$TORTURE_BIN"
	else
		echo "$TORTURE_TOP/$(build_dir "$(plan_get build <"$1")")/rcutorture"
	fi
}

# distinct_builds NAME...: "TAG MAKEVAR..." per distinct build to make.
distinct_builds() {
	local name p
	for name in "$@"; do
		p=$WORK/$name.plan
		plan_has "$p" bin && continue
		echo "$(plan_get build <"$p") $(plan_get make <"$p" | tr '\n' ' ')"
	done | sort -u
}

# check_tag PLANFILE: the build that checks a plan: plain (parameters do
# not depend on DEBUG or SAN), tiny for Tiny RCU (its own parameters),
# weakmem for a WEAKMEM=1 plan (its weakmem.* parameters exist only there).
check_tag() {
	case $(plan_get build <"$1") in
	tiny*) echo tiny ;;
	weakmem*) echo weakmem ;;
	*) echo plain ;;
	esac
}

# check_tag_vars TAG: the make variables of a check_tag build.
check_tag_vars() {
	case $1 in
	tiny) echo TINY=1 ;;
	weakmem) echo WEAKMEM=1 ;;
	esac
}

# check_bin PLANFILE: the program that checks a plan's arguments: the
# plan's own binary (again.sh), TORTURE_TINY_BIN for Tiny RCU,
# TORTURE_CHECK_BIN, TORTURE_BIN, or the check_tag build.
check_bin() {
	local b
	b=$(plan_get bin <"$1")
	[ -n "$b" ] || b=$(plan_tiny_bin "$1")
	echo "${b:-${TORTURE_CHECK_BIN:-${TORTURE_BIN:-$TORTURE_TOP/$(build_dir "$(check_tag "$1")")/rcutorture}}}"
}

# session_check_build: build the configurations to check with (plain, and
# tiny or weakmem if a plan in WORK needs it), unless a binary is given.  A failure
# leaves nothing to check with: the end of make's output, exit 1, nothing
# run.
session_check_build() {
	local tag p
	local -A tags=([plain]=1)
	[ -z "${TORTURE_CHECK_BIN:-}${TORTURE_BIN:-}" ] || return 0
	for p in "$WORK"/*.plan; do
		[ ! -f "$p" ] || tags[$(check_tag "$p")]=1
	done
	for tag in "${!tags[@]}"; do
		echo "Building $tag in $(build_dir "$tag") to check the scenarios" >&2
		# shellcheck disable=SC2046
		build_run "$tag" "$(build_log "$tag")" $(check_tag_vars "$tag") && continue
		tail -n 15 "$(build_log "$tag")" >&2
		die 1 "build $tag FAILED: $(grep -m1 -iE 'error|no rule' "$(build_log "$tag")" ||
			tail -n1 "$(build_log "$tag")"): nothing checked, nothing run"
	done
}

# session_plan_builds NAME...: build every distinct configuration the
# plans need (output in build/torture-TAG/build.log), said in the log; the
# tags that failed go to FAILED_BUILDS.  Nothing to do with TORTURE_BIN.
declare -gA FAILED_BUILDS=()
session_plan_builds() {
	local tag vars
	[ -z "${TORTURE_BIN:-}" ] || { log "Not building: TORTURE_BIN=$TORTURE_BIN runs every scenario"; return 0; }
	while read -r tag vars; do
		[ -n "$tag" ] || continue
		session_check_interrupt
		log "Building $tag in $(build_dir "$tag") (log: build-$tag.log)"
		# shellcheck disable=SC2086
		if ! build_run "$tag" "$(build_log "$tag")" $vars; then
			FAILED_BUILDS[$tag]=1
			log "Build $tag FAILED: $(grep -m1 -iE 'error|no rule' "$(build_log "$tag")" ||
				tail -n1 "$(build_log "$tag")")"
		fi
	done < <(distinct_builds "$@")
}

# session_check_plans NAME...: every plan's boot arguments checked by the
# program (check_bin); all errors printed, then 2 if there was one.
session_check_plans() {
	local name p rc=0
	for name in $(printf '%s\n' "$@" | sort -u); do
		p=$WORK/$name.plan
		scen_check "$p" "$(check_bin "$p")" || rc=2
	done
	return "$rc"
}

# session_notes NAME...: each distinct note of the plans, once, with the
# scenarios it applies to (on stdout).
session_notes() {
	local name
	for name in $(printf '%s\n' "$@" | sort -u); do
		plan_get note <"$WORK/$name.plan" | sed "s/^/$name	/"
	done | awk -F'\t' '
	{
		# One line a note: the same note (origins aside) for many scenarios
		# is said once, with their names.
		key = $2
		sub(/ \([^()]*:[0-9]+[^()]*\)$/, "", key)
		if (!(key in seen)) { order[++n] = key; seen[key] = $1 }
		else if (index(" " seen[key] " ", " " $1 " ") == 0) seen[key] = seen[key] " " $1
		text[key] = $2
	}
	END {
		for (i = 1; i <= n; i++) {
			k = order[i]
			print "note: " (seen[k] ~ / / ? k " (" seen[k] ")" : seen[k] ": " text[k])
		}
	}'
}

# ------------------------------------------------------------------
# Instances and batches.

# instance_names NAME...: INSTANCES gets the run directory names:
# TREE01, TREE01.2, ... numbered on across rounds (INSTANCE_SEEN).
declare -gA INSTANCE_SEEN=()
INSTANCES=()
instance_names() {
	local name k
	INSTANCES=()
	for name in "$@"; do
		k=$((${INSTANCE_SEEN[$name]:-0} + 1))
		INSTANCE_SEEN[$name]=$k
		if ((k == 1)); then INSTANCES+=("$name"); else INSTANCES+=("$name.$k"); fi
	done
}

# instance_plan INSTANCE: its plan file.
instance_plan() {
	echo "$WORK/$(instance_scenario "$1").plan"
}

# batches_for INSTANCE...: "BATCH INSTANCE CPULIST NCPUS" lines: the runs
# of a batch go side by side, each on its own CPUs; the skipped ones come
# first, as batch 0.
batches_for() {
	local inst n b need prev=0 off=0
	local -a cpus
	mapfile -t cpus < <(allowed_cpus)
	for inst in "$@"; do
		! plan_has "$(instance_plan "$inst")" skip || echo "0 $inst - 0"
	done
	for inst in "$@"; do
		plan_has "$(instance_plan "$inst")" skip && continue
		n=$(plan_get ncpus <"$(instance_plan "$inst")")
		echo "$inst $((n < HOST_CPUS ? n : HOST_CPUS))"
	done | sched_batches "$CPU_BUDGET" | while read -r b inst need; do
		((b == prev)) || off=0
		prev=$b
		echo "$b $inst $(sched_cpus "$off" "$need" "${cpus[@]}") $(plan_get ncpus <"$(instance_plan "$inst")")"
		off=$((off + need))
	done
}

# rounds_desc: how many times the set runs, in words.
rounds_desc() {
	if ((OPT_UNTIL_FAIL)); then
		echo "until a run fails${OPT_REPEAT:+ (at most $OPT_REPEAT)}"
	else
		echo "${OPT_REPEAT:-1}"
	fi
}

# ------------------------------------------------------------------
# Dry runs: --dryrun (everything), or kvm.sh's sched, script, batches,
# scenarios.

session_dryrun() {
	local mode=$1 tag vars b inst cpus n prev='' plan nb=0
	shift
	instance_names "$@"
	local -a insts=("${INSTANCES[@]}")
	case $mode in
	full)
		echo "Scenarios: $*"
		echo "Duration: ${OPT_DURATION}s each; CPUs: $CPU_BUDGET; rounds: $(rounds_desc)"
		while read -r tag vars; do
			[ -n "$tag" ] || continue
			# shellcheck disable=SC2086
			echo "Build $tag: $(build_cmd "$tag" $vars | tr '\n' ' ' | sed 's/ $//')"
		done < <(distinct_builds "$@")
		[ -z "${TORTURE_BIN:-}" ] || echo "Build: none (TORTURE_BIN=$TORTURE_BIN runs every scenario)"
		session_notes "$@" ;;
	script) echo "# The commands a run would execute, batch by batch." ;;
	esac
	while read -r b inst cpus n; do
		plan=$(instance_plan "$inst")
		if [ "$b" != "$prev" ]; then
			[ "$mode" != script ] || [ -z "$prev" ] || echo "wait"
			nb=$((nb + 1))
			case $mode in
			full) if ((b == 0)); then echo "Skipped:"; else echo "Batch $b:"; fi ;;
			sched) ((b == 0)) || echo "----Start batch $b:" ;;
			scenarios) ((b == 0)) || printf '%s%d.' "${prev:+$'\n'}" "$b" ;;
			script) ((b == 0)) || echo "# batch $b" ;;
			esac
			prev=$b
		fi
		if ((b == 0)); then
			[ "$mode" != full ] || echo "  $inst: SKIPPED: $(plan_get skip <"$plan")"
			continue
		fi
		case $mode in
		full) echo "  $inst: $(run_cmd "$OPT_RESULTS/DATE/$inst" "$(plan_bin "$plan")" "$cpus" "$plan" |
			tr '\n' ' ' | sed 's/ $//')" ;;
		sched) echo "$inst $n: Starting build." ;;
		batches) echo "$b $inst $n" ;;
		scenarios) printf ' %s' "$inst" ;;
		script) echo "$(run_cmd "$OPT_RESULTS/DATE/$inst" "$(plan_bin "$plan")" "$cpus" "$plan" |
			while read -r w; do printf '%q ' "$w"; done) >$OPT_RESULTS/DATE/$inst/console.log 2>&1 &" ;;
		esac
	done < <(batches_for "${insts[@]}")
	case $mode in
	scenarios) [ -z "$prev" ] || echo ;;
	script) [ -z "$prev" ] || echo "wait" ;;
	sched)
		echo "Total number of builds: $(distinct_builds "$@" | grep -c .)"
		echo "Total number of batches: $(batches_for "${insts[@]}" | awk '$1 > 0 { print $1 }' | sort -u | grep -c .)" ;;
	esac
}

# ------------------------------------------------------------------
# The run.

# session_results_check: can the results folder be made?  Exit 2 (before
# anything is built or run) naming the folder and the reason.
session_results_check() {
	local d=$OPT_RESULTS
	while [ ! -e "$d" ]; do d=$(dirname "$d"); done
	[ -d "$d" ] || die 2 "--results $OPT_RESULTS: $d is not a folder"
	if ! [ -w "$d" ] || ! [ -x "$d" ]; then
		die 2 "--results $OPT_RESULTS: $d is not writable (Permission denied): choose another --results"
	fi
	if [ -n "$OPT_DATESTAMP" ] && [ -e "$OPT_RESULTS/$OPT_DATESTAMP" ]; then
		die 2 "--datestamp $OPT_DATESTAMP: $OPT_RESULTS/$OPT_DATESTAMP exists already"
	fi
}

# session_make_results: RESDIR, RESULTS/DATE (or --datestamp; ".N" added
# if taken), and its log.
session_make_results() {
	local base d n=1 err
	base=$OPT_RESULTS/${OPT_DATESTAMP:-$(date +%Y.%m.%d-%H.%M.%S)}
	d=$base
	until err=$(mkdir -p "$(dirname "$d")" 2>&1 && mkdir "$d" 2>&1); do
		if [ ! -d "$d" ] || [ -n "$OPT_DATESTAMP" ]; then
			die 1 "cannot create $d: ${err##*: }"
		fi
		n=$((n + 1))
		d=$base.$n
		((n < 100)) || die 1 "$base: cannot create"
	done
	RESDIR=$(cd "$d" && pwd)
	# shellcheck disable=SC2034  # log() in run.sh writes it
	LOG=$RESDIR/log
	session_space_check
}

# session_space_check: a results folder with no room left is said at once.
session_space_check() {
	local avail
	avail=$(df -Pk "$RESDIR" 2>/dev/null | awk 'NR == 2 { print $4 }') || true
	if [[ $avail =~ ^[0-9]+$ ]] && ((avail < 1024)); then
		die 1 "$RESDIR: no space left on device (${avail} KB free): free disk space and run again"
	fi
}

# session_save_builds NAME...: each build's log and binary beside the
# results (RESDIR/build-TAG.log, RESDIR/rcutorture-TAG: bin/again.sh
# reruns exactly that binary); the plans then name the saved binary.
# Nothing to save with TORTURE_BIN.
session_save_builds() {
	local name p tag src
	[ -z "${TORTURE_BIN:-}" ] || return 0
	for name in $(printf '%s\n' "$@" | sort -u); do
		p=$WORK/$name.plan
		tag=$(plan_get build <"$p")
		if [ -f "$(build_log "$tag")" ] && [ ! -e "$RESDIR/build-$tag.log" ]; then
			cp "$(build_log "$tag")" "$RESDIR/build-$tag.log" 2>/dev/null || true
		fi
		[ -z "${FAILED_BUILDS[$tag]:-}" ] || continue
		src=$(plan_bin "$p")
		if [ ! -e "$RESDIR/rcutorture-$tag" ]; then
			cp -l "$src" "$RESDIR/rcutorture-$tag" 2>/dev/null ||
				cp "$src" "$RESDIR/rcutorture-$tag" ||
				die 1 "cannot save $src in $RESDIR"
		fi
		{ grep -v '^bin ' "$p"; echo "bin $RESDIR/rcutorture-$tag"; } >"$p.new" && mv "$p.new" "$p"
	done
}

# session_skip DIR PLANFILE: a skipped run's folder.
session_skip() {
	run_prepare "$1" "$2" || true
	plan_get skip <"$2" >"$1/skipped" 2>/dev/null || true
	log "${1##*/}: SKIPPED: $(plan_get skip <"$2")"
}

# run_batch INSTANCE:CPULIST...: start the batch's runs (and the jitter),
# watch them to their end.
RUNNING=()
run_batch() {
	local item inst cpus plan dir tag
	local -a cmd
	RUNNING=()
	for item in "$@"; do
		inst=${item%%:*} cpus=${item#*:}
		plan=$(instance_plan "$inst")
		dir=$RESDIR/$inst
		if ! run_prepare "$dir" "$plan"; then
			log "$inst: not run: cannot write $dir"
			continue
		fi
		tag=$(plan_get build <"$plan")
		if [ -n "${FAILED_BUILDS[$tag]:-}" ]; then
			echo "!!! build failed (see build-$tag.log)" >"$dir/Warnings"
			log "$inst: not run: build $tag failed"
			continue
		fi
		mapfile -t cmd < <(run_cmd "$dir" "$(plan_bin "$plan")" "$cpus" "$plan")
		run_start "$dir" "$(plan_get duration <"$plan")" "${cmd[@]}"
		RUNNING+=("$dir")
		log "$inst: started, $(plan_get duration <"$plan")s on CPUs $cpus ($(plan_get ncpus <"$plan") CPUs: threads)"
	done
	if [ ${#RUNNING[@]} -gt 0 ] && jitter_start "$OPT_JITTER" "$CPU_BUDGET"; then
		log "jitter: ${#JITTER_PIDS[@]} processes ($OPT_JITTER)"
	fi
	[ ${#RUNNING[@]} -eq 0 ] || run_watch "$OPT_GRACE" "${RUNNING[@]}"
	jitter_stop
	for dir in ${RUNNING[@]+"${RUNNING[@]}"}; do
		run_saved "$dir" || true
		log "${dir##*/}: ended, exit status $(cat "$(run_state "$dir")/exit_status")"
	done
	RUNNING=()
}

# session_interrupted SIGNAL: Ctrl-C or a kill: stop the runs, give them
# a bounded time to write their results, print the table so far, exit 130.
session_interrupted() {
	local sig=$1 d st el dur
	rm -f "$WORK/interrupt"
	log "Interrupted by $sig: stopping the runs (their results are judged once they are written)"
	for d in ${RUNNING[@]+"${RUNNING[@]}"}; do
		run_done "$d" && continue
		st=$(run_state "$d")
		el=$(($(date +%s) - $(cat "$st/start")))
		dur=$(cat "$st/duration")
		((el >= dur)) ||
			echo "INCOMPLETE: interrupted ($sig to ${PROG}) after $el of $dur s" >>"$d/Warnings" 2>/dev/null || true
		run_kill "$d" TERM
	done
	run_wait ${RUNNING[@]+"${RUNNING[@]}"} 60 || log "some runs did not end: killed"
	jitter_stop
	for d in ${RUNNING[@]+"${RUNNING[@]}"}; do run_saved "$d" || true; done
	DONE_INSTANCES+=(${RUNNING[@]+"${RUNNING[@]##*/}"})
	session_summary 130
	exit 130
}

# run_round NAME...: one pass over the scenarios; fails if a run failed
# or was incomplete.
DONE_INSTANCES=()
run_round() {
	local b inst cpus n prev='' rc=0
	local -a insts=() batch=()
	instance_names "$@"
	insts=("${INSTANCES[@]}")
	while read -r b inst cpus n; do
		if ((b == 0)); then
			session_skip "$RESDIR/$inst" "$(instance_plan "$inst")"
			DONE_INSTANCES+=("$inst")
			continue
		fi
		if [ -n "$prev" ] && [ "$b" != "$prev" ]; then
			session_check_interrupt
			run_batch "${batch[@]}"
			DONE_INSTANCES+=("${batch[@]%%:*}")
			batch=()
		fi
		prev=$b
		batch+=("$inst:$cpus")
	done < <(batches_for "${insts[@]}")
	if [ ${#batch[@]} -gt 0 ]; then
		session_check_interrupt
		run_batch "${batch[@]}"
		DONE_INSTANCES+=("${batch[@]%%:*}")
	fi
	for inst in "${insts[@]}"; do
		judge_dir "$RESDIR/$inst" >/dev/null || [ $? -eq 3 ] || rc=1
	done
	return "$rc"
}

# session_summary STATUS: the final table of the runs so far, on stdout
# and in the log, and RESDIR/summary.json (one judge: judge_results, as
# bin/recheck.sh).
session_summary() {
	local st=$1 line
	local -a dirs=()
	log ""
	log " --- $(date '+%Y.%m.%d-%H.%M.%S') Test summary:"
	log "Results directory: $RESDIR"
	while IFS= read -r line; do
		[ -z "$line" ] || dirs+=("$RESDIR/$line")
	done < <(printf '%s\n' ${DONE_INSTANCES[@]+"${DONE_INSTANCES[@]}"} | sort -uV)
	if [ ${#dirs[@]} -gt 0 ]; then
		while IFS= read -r line; do
			log "$line"
		done < <(JUDGE_SUMMARY_FOLDER=$RESDIR judge_results "${dirs[@]}" 2>&1)
	else
		log "No run was started."
	fi
	log " --- Done, exit status $st"
}

# session_run NAME...: the results folder, the log, the rounds, the table.
# Exits 0 if every run succeeded (skipped ones aside), 1 if not, 130 when
# interrupted.
session_run() {
	local round=0 st=0 name
	session_check_interrupt
	session_make_results
	log "$PROG $SESSION_ARGS"
	log "Results directory: $RESDIR"
	log "Scenarios: $*; ${OPT_DURATION}s each; CPUs: $CPU_BUDGET; rounds: $(rounds_desc)"
	git -C "$TORTURE_TOP" rev-parse HEAD >"$RESDIR/testid.txt" 2>/dev/null || true
	git -C "$TORTURE_TOP" status --short >>"$RESDIR/testid.txt" 2>/dev/null || true
	have_jq || log "jq not found (Debian package jq): figures come from console.log; summary.json is not cross-checked"
	for name in ${SESSION_NOTES[@]+"${SESSION_NOTES[@]}"}; do log "$name"; done
	while IFS= read -r name; do log "$name"; done < <(session_notes "$@")
	session_plan_builds "$@"
	session_save_builds "$@"
	while :; do
		session_check_interrupt
		round=$((round + 1))
		((round == 1)) || log "Round $round"
		run_round "$@" || st=1
		if ((OPT_UNTIL_FAIL)); then
			((st == 0)) || break
			[ -z "$OPT_REPEAT" ] || ((round < OPT_REPEAT)) || break
		else
			((round < ${OPT_REPEAT:-1})) || break
		fi
	done
	# Plots (with gnuplot) and RESULTS/DATE/index.html; never the verdict.
	[ -n "${TORTURE_NO_REPORT:-}" ] ||
		"$BIN_DIR/report.sh" "$RESDIR" 2>&1 | while IFS= read -r name; do log "$name"; done || true
	session_summary "$st"
	exit "$st"
}
