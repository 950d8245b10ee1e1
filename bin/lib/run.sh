# shellcheck shell=bash
# bin/lib/run.sh - torture.sh's machinery: scenario lists, batches,
# builds, starting and watching rcutorture processes.  Sourced.
# Uses LOG (the run's log file, may be empty) and TORTURE_TOP.

# log MESSAGE...: a line on stdout and in the run's log.  A log that
# cannot be written (a full disk) is said once on stderr; the lines still
# reach the terminal.
log() {
	local err
	if [ -t 1 ]; then printf '\r\033[K'; fi
	printf '%s\n' "$*"
	[ -n "${LOG:-}" ] || return 0
	if ! err=$({ printf '%s\n' "$*" >>"$LOG"; } 2>&1); then
		[ -n "${LOG_FAILED:-}" ] || printf '%s: cannot write %s: %s: free disk space; the log goes to the terminal only\n' \
			"${PROG:-torture}" "$LOG" "${err##*: }" >&2
		LOG_FAILED=1
	fi
	return 0
}

# ------------------------------------------------------------------
# Scenario lists: "2*TREE01 TREE03 CFLIST" -> one scenario name a line.

# list_expand TOKEN...: names in order; N*NAME repeats, a list (CFLIST,
# quick: scen_is_list) stands for its scenarios.  Fails naming the token.
list_expand() {
	local tok n name
	for tok in "$@"; do
		n=1 name=$tok
		if [[ $tok =~ ^([0-9]+)\*(.+)$ ]]; then
			n=$((10#${BASH_REMATCH[1]})) name=${BASH_REMATCH[2]}
			((n > 0)) || { echo "$tok: repeat count must be at least 1" >&2; return 2; }
		fi
		if scen_is_list "$name"; then
			local -a sub=()
			read -ra sub <<<"$(scen_list_names "$name")"
			[ ${#sub[@]} -gt 0 ] || { echo "$tok: empty list (in $(scen_relpath "$SCENARIO_DIR"))" >&2; return 2; }
			while ((n-- > 0)); do list_expand "${sub[@]}" || return 2; done
			continue
		fi
		scen_exists "$name" || { echo "$tok: no such scenario (in $(scen_relpath "$SCENARIO_DIR"))" >&2; return 2; }
		while ((n-- > 0)); do echo "$name"; done
	done
}

# ------------------------------------------------------------------
# Batches: pack runs side by side while their CPUs fit the budget.

# sched_batches BUDGET < "INSTANCE NEED" lines: "BATCH INSTANCE NEED" lines.
# Largest first, first fit; a run needing more than BUDGET runs alone on
# BUDGET CPUs (as kvm.sh does).
sched_batches() {
	sort -s -k2,2nr | awk -v budget="$1" '
	{
		need = $2 > budget ? budget : $2
		for (b = 1; b <= nb; b++)
			if (left[b] >= need) break
		if (b > nb) { nb = b; left[b] = budget }
		left[b] -= need
		print b, $1, need
	}' | sort -s -k1,1n
}

# sched_cpus OFFSET NEED CPU...: the CPUs for a run that starts OFFSET CPUs
# into its batch, as a taskset list (wrapping when the budget exceeds the
# host).
sched_cpus() {
	local off=$1 need=$2 i out=
	shift 2
	for ((i = 0; i < need; i++)); do
		out+=${out:+,}${*:$(((off + i) % $# + 1)):1}
	done
	echo "$out"
}

# ------------------------------------------------------------------
# Builds: one folder per build configuration, build/torture-TAG.

# build_dir TAG: the build folder, relative to the top.
build_dir() {
	echo "build/torture-$1"
}

# build_cmd TAG MAKEVAR...: the make command line for TAG, one word a line.
build_cmd() {
	local tag=$1 dir
	shift
	dir=$(build_dir "$tag")
	printf '%s\n' make -C "$TORTURE_TOP" -j"$(nproc)" "BUILD=$dir" "$@" "$dir/rcutorture"
}

# build_log TAG: where a build's output goes (the session's scratch folder;
# copied to the results as build-TAG.log).
build_log() {
	echo "${WORK:?}/build-$1.log"
}

# build_run TAG LOGFILE MAKEVAR...: build TAG; make's output in LOGFILE.
build_run() {
	local tag=$1 logfile=$2
	shift 2
	local -a cmd
	mapfile -t cmd < <(build_cmd "$tag" "$@")
	printf '%s\n' "${cmd[*]}" >"$logfile"
	# The tag alone says how to build: an outer make's flags or an exported
	# SAN/DEBUG must not leak into the folder's objects.  LIBURCU=0 does
	# pass: a build as if liburcu-dev were missing (torture.mk relinks).
	tree_locked env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u SAN -u DEBUG -u BUILD \
		"${cmd[@]}" >>"$logfile" 2>&1
}

# ------------------------------------------------------------------
# Runs.  Each run's directory gets the files of the results layout; a
# background wrapper writes exit_status when rcutorture ends.

# run_cmd DIR BIN CPUS PLANFILE: the rcutorture command, one word a line
# (pinned to CPUS with taskset unless RUN_NO_AFFINITY is set).
run_cmd() {
	local dir=$1 bin=$2 cpus=$3 plan=$4
	if [ -n "$cpus" ] && [ -z "${RUN_NO_AFFINITY:-}" ] && have taskset; then
		printf '%s\n' taskset -c "$cpus"
	fi
	printf '%s\n' "$bin" --out "$dir" --scenario "$(plan_get name <"$plan")"
	plan_get arg <"$plan"
}

# run_prepare DIR PLANFILE: the run's folder with ConfigFragment (the
# notes as comments) and its plan (bin/again.sh reads it).
run_prepare() {
	local dir=$1 plan=$2
	mkdir -p "$dir" &&
	{
		plan_get fragment <"$plan"
		plan_get note <"$plan" | sed 's/^/# /'
	} >"$dir/ConfigFragment" && cp "$plan" "$dir/plan"
}

# run_state DIR: the folder for the runner's own bookkeeping of the run
# in DIR (pid, start time, duration), outside the results.
run_state() {
	echo "${RUN_STATE:?}/${1##*/}"
}

# put_file FILE VALUE: write VALUE to FILE as one step (written aside, then
# renamed): the watchers test for a state file and read it at once, and
# must never find it created but still empty.
put_file() {
	{ echo "$2" >"$1.new" && mv -f "$1.new" "$1"; } || { rm -f "$1.new"; return 1; }
}

# run_start DIR DURATION CMDWORD...: start the run in the background; the
# pid of rcutorture itself, the start time and the duration go to its
# run_state folder, rcutorture's exit status to DIR/exit_status.
run_start() {
	local dir=$1 st
	st=$(run_state "$dir")
	mkdir -p "$st"
	echo "$2" >"$st/duration"
	shift 2
	printf '%q ' "$@" | sed 's/ $//' >"$dir/cmdline"
	echo >>"$dir/cmdline"
	date +%s >"$st/start"
	(
		rc=0
		"$@" >"$dir/console.log" 2>&1 </dev/null &
		put_file "$st/pid" $!
		wait $! || rc=$?
		put_file "$dir/exit_status" "$rc"
		put_file "$st/exit_status" "$rc"	# last: the run is over
	) &
}

# run_done DIR: has the run ended?
run_done() {
	[ -f "$(run_state "$1")/exit_status" ]
}

# run_wait DIR... SECONDS: wait at most SECONDS for the runs to end; the
# ones still going are then killed and reaped (5 s more at most).
run_wait() {
	local secs=${*: -1} d t
	local -a dirs=("${@:1:$#-1}")
	for ((t = 0; t < 2 * secs; t++)); do
		run_all_done ${dirs[@]+"${dirs[@]}"} && return 0
		sleep 0.5
	done
	for d in ${dirs[@]+"${dirs[@]}"}; do run_done "$d" || run_kill "$d" KILL; done
	for ((t = 0; t < 10; t++)); do
		run_all_done ${dirs[@]+"${dirs[@]}"} && return 0
		sleep 0.5
	done
	return 1
}

# run_all_done DIR...: have all these runs ended?
run_all_done() {
	local d
	for d in "$@"; do run_done "$d" || return 1; done
}

# run_saved DIR: the run's exit status reached DIR/exit_status?  If it did
# not (a full disk), the reason is in RUN_UNSAVED[DIR] (judge.sh's).
run_saved() {
	local err
	[ -f "$1/exit_status" ] && return 0
	if ! err=$({ cp "$(run_state "$1")/exit_status" "$1/exit_status"; } 2>&1); then
		# shellcheck disable=SC2034  # judge_dir reads it
		RUN_UNSAVED[$1]="its results could not be saved (${err##*: }): free disk space and run it again"
		return 1
	fi
}

# run_kill DIR SIGNAL: signal a run's rcutorture.
run_kill() {
	local pid
	pid=$(cat "$(run_state "$1")/pid" 2>/dev/null) || return 0
	kill -s "$2" "$pid" 2>/dev/null || true
}

# run_gps DIR: grace periods so far (last stats.jsonl line; needs jq).
run_gps() {
	[ -s "$1/stats.jsonl" ] && have jq || return 0
	tail -n 1 "$1/stats.jsonl" | jq -r '.gps // .ver // empty' 2>/dev/null || true
}

# run_watch GRACE DIR...: wait for the runs; a run still going GRACE
# seconds after its duration is killed and a "!!! ... hung" line goes to
# its Warnings.  On a terminal, one progress line.  RUN_WATCH_HOOK, if
# set, is called once a second.
run_watch() {
	local grace=$1 d now el dur busy line gps st
	shift
	while :; do
		now=$(date +%s)
		line='' busy=0
		for d in "$@"; do
			run_done "$d" && continue
			busy=1
			st=$(run_state "$d")
			el=$((now - $(cat "$st/start")))
			dur=$(cat "$st/duration")
			if ((el > dur + grace)) && ! grep -qs ' hung at ' "$d/Warnings"; then
				echo "!!! PID $(cat "$st/pid" 2>/dev/null) hung at $el vs. $dur seconds" >>"$d/Warnings"
				run_kill "$d" TERM
			elif ((el > dur + grace + 10)); then
				run_kill "$d" KILL
			fi
			gps=$(run_gps "$d")
			line+="${line:+ | }${d##*/} ${el}/${dur}s${gps:+ $gps GPs}"
		done
		((busy)) || break
		if [ -t 1 ]; then printf '\r\033[K%s' "$line"; fi
		"${RUN_WATCH_HOOK:-:}"	# once a second: session.sh's interruption check
		sleep 1
	done
	if [ -t 1 ]; then printf '\r\033[K'; fi
}
