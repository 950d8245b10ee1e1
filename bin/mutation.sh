#!/usr/bin/env bash
# mutation.sh - what the torture suite catches: run every deliberate bug
# of a `make INJECT=1` build (configs/mutation.bugs) on a scenario set, N
# times, plus the unmodified build over the same runs, and write a kill
# table.  See --help.
# shellcheck source-path=SCRIPTDIR
set -euo pipefail
PROG=mutation.sh
BIN_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib/common.sh
. "$BIN_DIR/lib/common.sh"

usage() {
	cat <<'EOF'
usage: bin/mutation.sh [options]

Builds the library with its deliberate bugs (make INJECT=1, in
build/torture-inject) and, for each bug of configs/mutation.bugs, runs the
scenario set with bin/torture.sh (rcutree.inject=BUG, stop_on_error: a
run ends at its first failure), --repeat times; then the same scenarios
with the unmodified build (false alarms).  A bug of Tiny RCU (named
tiny_*) runs on its own scenarios, which derive CONFIG_TINY_RCU, with
Tiny RCU's deliberate-bug build (make TINY=1 INJECT=1, in
build/torture-tiny-inject), and the unmodified Tiny build runs them too.
A run SKIPPED (Tiny RCU without CAP_SYS_NICE) neither catches nor misses.  Writes RESULTS/kill.json (one
object a bug x scenario), RESULTS/kill.md (the table, also printed) and
RESULTS/kill.html (the same, with the bar chart kill.png/.svg of the
share of runs that caught each bug when gnuplot is installed):

  bug              class     scenario  caught  median_s  reason
  word_off_by_one  safety    MUT-GAP   3/3     0.1       too-short grace period ...

After the table come the targets, printed and not asserted: each bug
caught in at least 90% of its runs of a scenario with a median under
10 s, and the unmodified build clean in at least 20 runs.

A liveness bug counts as caught when the run reported a grace-period hang
(or a stall warning) before it ended; the table also says whether that
report named a holdout (a "P<tid>" line, as stall warnings print them).  Exit status 0 if every bug marked
MUST in configs/mutation.bugs was caught in every repetition (by at least
one scenario) and the unmodified build had no failure; 1 otherwise; 2 for
bad input.

Options:
  --duration D     run time of each scenario (default 30s; torture.sh units)
  --repeat N       repetitions of each bug (default 3)
  --bugs "LIST"    bugs to run (default: all of configs/mutation.bugs)
  --scenarios "L"  scenarios (default: the list scenarios/MUTATION)
  --results DIR    where to write (default results/mutation-DATE)
  --weakmem        the weak-memory column: the fence bugs of
                   configs/mutation-weakmem.bugs in the weak-memory build
                   (make WEAKMEM=1 INJECT=1, docs/design/weakmem.md), the
                   scenario list scenarios/MUTATION-WEAKMEM, and the
                   unmodified weak-memory build for false alarms
  --plugins        the plugin mutant set: each bug of
                   configs/mutation-plugins.bugs is a deliberately broken
                   plugin RCU with its own reader slots
                   (BUILD/torture/libtorture_slots_NAME.so, from
                   torture/examples/plugin_slots.c), run as
                   rcutorture.torture_type=lib:... on scenarios/MUTATION-PLUGINS;
                   the correct plugin (libtorture_slots.so) for false alarms
  --short          CI: --duration 10s --repeat 1, scenarios TREE02 TREE03
                   (--weakmem: WEAKMEM01 WEAKMEM04; --plugins: PLUGIN01),
                   hang timeout 5 s, only
                   the must-catch bugs (unless --bugs names others)
  --help           this text
EOF
}

OPT_DURATION=30s
OPT_REPEAT=3
OPT_BUGS=
OPT_SCENARIOS=MUTATION
OPT_RESULTS=
OPT_EXTRA=
OPT_MUST_ONLY=0
OPT_WEAKMEM=0
OPT_PLUGINS=0
BUGFILE=''
# The build flavour: the folders of the deliberate-bug and unmodified
# builds and their make variables (--weakmem: the weak-memory ones).
INJECT_BUILD=build/torture-inject
PLAIN_BUILD=build/torture-plain
BUILD_VARS=()

declare -A GIVEN=()
# set_opt NAME VALUE: OPT_NAME=VALUE, remembered as given.
set_opt() {
	printf -v "OPT_$1" '%s' "$2"
	GIVEN[$1]=1
}

parse_options() {
	local short=0
	while (($#)); do
		case $1 in
		--help | -h) usage; exit 0 ;;
		--duration) (($# >= 2)) || die 2 "$1: needs a value"; set_opt DURATION "$2"; shift ;;
		--repeat)
			(($# >= 2)) || die 2 "$1: needs a value"
			[[ $2 =~ ^[1-9][0-9]{0,3}$ ]] || die 2 "--repeat $2: expected a count >= 1"
			set_opt REPEAT "$2"; shift ;;
		--bugs) (($# >= 2)) || die 2 "$1: needs a value"; OPT_BUGS=$2; shift ;;
		--scenarios) (($# >= 2)) || die 2 "$1: needs a value"; set_opt SCENARIOS "$2"; shift ;;
		--results) (($# >= 2)) || die 2 "$1: needs a value"; OPT_RESULTS=$2; shift ;;
		--short) short=1 ;;
		--weakmem) OPT_WEAKMEM=1 ;;
		--plugins) OPT_PLUGINS=1 ;;
		*) die 2 "$1: unknown option (see --help)" ;;
		esac
		shift
	done
	BUGFILE=${MUTATION_BUGS:-$TORTURE_TOP/configs/mutation.bugs}
	if ((OPT_WEAKMEM)); then
		BUGFILE=${MUTATION_BUGS:-$TORTURE_TOP/configs/mutation-weakmem.bugs}
		[ -n "${GIVEN[SCENARIOS]:-}" ] || OPT_SCENARIOS=MUTATION-WEAKMEM
		INJECT_BUILD=build/torture-inject-weakmem PLAIN_BUILD=build/torture-weakmem
		BUILD_VARS=(WEAKMEM=1)
	elif ((OPT_PLUGINS)); then
		BUGFILE=${MUTATION_BUGS:-$TORTURE_TOP/configs/mutation-plugins.bugs}
		[ -n "${GIVEN[SCENARIOS]:-}" ] || OPT_SCENARIOS=MUTATION-PLUGINS
	fi
	if ((short)); then	# defaults for what was not given
		[ -n "${GIVEN[DURATION]:-}" ] || OPT_DURATION=10s
		[ -n "${GIVEN[REPEAT]:-}" ] || OPT_REPEAT=1
		if ((OPT_WEAKMEM)); then
			[ -n "${GIVEN[SCENARIOS]:-}" ] || OPT_SCENARIOS="WEAKMEM01 WEAKMEM04"
		elif ((OPT_PLUGINS)); then
			[ -n "${GIVEN[SCENARIOS]:-}" ] || OPT_SCENARIOS=PLUGIN01
		else
			[ -n "${GIVEN[SCENARIOS]:-}" ] || OPT_SCENARIOS="TREE02 TREE03"
		fi
		OPT_EXTRA="rcutorture.gp_hang_timeout=5"
		OPT_MUST_ONLY=1
	fi
	parse_duration "$OPT_DURATION" >/dev/null ||
		die 2 "--duration $OPT_DURATION: expected minutes or a number with s, m, h or d"
}

# bug_rows: "NAME CLASS MUST BOOTARGS..." for the chosen bugs; an unknown
# name in --bugs, or a malformed line of the file, is an error.
bug_rows() {
	local n=0 line name class must rest want found
	declare -A have=()
	while IFS= read -r line || [ -n "$line" ]; do
		n=$((n + 1))
		line=${line%%#*}
		[[ $line =~ [^[:space:]] ]] || continue
		read -r name class must rest <<<"$line"
		[[ $class == safety || $class == liveness ]] ||
			die 2 "${BUGFILE#"$TORTURE_TOP"/}:$n: class '$class' (expected safety or liveness)"
		[[ $must == yes || $must == no ]] ||
			die 2 "${BUGFILE#"$TORTURE_TOP"/}:$n: must '$must' (expected yes or no)"
		have[$name]="$class $must $rest"
		[ -n "$OPT_BUGS" ] && continue
		{ ((OPT_MUST_ONLY)) && [ "$must" != yes ]; } || echo "$name $class $must $rest"
	done <"$BUGFILE"
	for want in $OPT_BUGS; do
		found=${have[$want]:-}
		[ -n "$found" ] || die 2 "--bugs: unknown bug '$want' (see ${BUGFILE#"$TORTURE_TOP"/})"
		echo "$want $found"
	done
}

# summaries DIR: "SCENARIO RESULT FIRST_ERROR_S HANG REASON" for every run
# below DIR (one torture.sh results folder).  The result is torture.sh's
# verdict: a run the program ended in SUCCESS but the judge failed (too
# many Reader Batch close calls: its "BUG:" lines in console.log.diags)
# is a FAILURE, with the judge's reason.
summaries() {
	local s dir hang judged
	for s in "$1"/*/*/summary.json; do
		[ -f "$s" ] || continue
		dir=${s%/summary.json}
		hang=no
		if grep -qE '\?\?\? Grace-period (hang|waiter stuck)|detected (expedited )?stalls on' \
			"$dir/console.log" 2>/dev/null; then
			hang=yes
			# A holdout line, as the hang report and stall warnings print them.
			! grep -qE -- '-\.\.\.\.: \([0-9]+ GPs behind\) P[0-9]+ ' "$dir/console.log" || hang=named
		fi
		judged=
		[ ! -f "$dir/console.log.diags" ] ||
			judged=$(sed -n 's/^BUG: [^ ]* //p' "$dir/console.log.diags" | head -n 1)
		jq -r --arg scen "$(instance_scenario "$dir")" --arg hang "$hang" --arg judged "$judged" \
			'(.result == "SUCCESS" and $judged != "") as $j
			| [$scen, (if $j then "FAILURE" else .result end), (.first_error_s // "null" | tostring),
			   $hang, (if $j then $judged else .reason end)] | join("\t")' "$s"
	done
}

# run_set TAG BIN BOOTARGS [SCENARIOS]: one torture.sh pass over the
# scenarios (default: the chosen set); those of Tiny RCU with TINY_BIN.
run_set() {
	local tag=$1 bin=$2 args=$3 scens=${4:-$OPT_SCENARIOS} out
	out=$RES/runs/$tag
	mkdir -p "$out"
	# shellcheck disable=SC2086
	TORTURE_NO_REPORT=1 TORTURE_BIN=$bin TORTURE_TINY_BIN=$TINY_BIN "$BIN_DIR/torture.sh" \
		--results "$out" --duration "$OPT_DURATION" \
		--bootargs "$args" $scens >"$out.log" 2>&1 || true
	summaries "$out" | sed "s/^/$tag\t/" >>"$RES/runs.tsv"
}

# build TAG MAKEVAR...: make build/torture-TAG/rcutorture (log in RES).
build() {
	local dir=build/torture-$1
	shift
	tree_make -j"$(nproc)" "$@" BUILD="$dir" "$dir/rcutorture" \
		>"$RES/build-${dir#build/torture-}.log" 2>&1 ||
		die 1 "make $* failed (see $RES/build-${dir#build/torture-}.log)"
}

# tiny_scenarios ROWS: the scenarios of the Tiny RCU bugs (tiny_*), on one
# line; a Tiny bug without its own scenarios is an error.
tiny_scenarios() {
	local name class must rest
	while read -r name class must rest; do
		[[ $name == tiny_* ]] || continue
		[[ $rest == @* ]] ||
			die 2 "$name: a Tiny RCU bug needs its scenarios (@TINY01,...) in ${BUGFILE#"$TORTURE_TOP"/}"
		rest=${rest%% *}
		tr ',' '\n' <<<"${rest#@}"
	done <<<"$1" | awk '!seen[$0]++' | paste -sd' ' -
}

TINY_BIN=

main() {
	local rep name class must rest rows scens tiny bug_bin slots tiny_inject=''
	local bug_arg=rcutree.inject= bug_so='' none_arg=''
	parse_options "$@"
	# What runs a bug (an INJECT=1 build's rcutree.inject=NAME, or with
	# --plugins the plain build's broken plugin NAME) and the unmodified
	# column (the plain build, or the correct plugin).
	bug_bin=$TORTURE_TOP/$INJECT_BUILD/rcutorture slots=$PLAIN_BUILD/torture/libtorture_slots
	have jq || die 2 "jq not found (Debian package jq): the kill table is made from summary.json"
	rows=$(bug_rows) || exit 2
	tiny=$(tiny_scenarios "$rows") || exit 2
	RES=${OPT_RESULTS:-$TORTURE_TOP/results/mutation-$(date +%Y.%m.%d-%H.%M.%S)}
	mkdir -p "$RES" || die 2 "--results $RES: cannot create"
	: >"$RES/runs.tsv"
	if ((OPT_PLUGINS)); then
		echo "$PROG: building rcutorture and the slot plugins"
		# shellcheck disable=SC2046
		tree_make -j"$(nproc)" BUILD=$PLAIN_BUILD "$PLAIN_BUILD/rcutorture" "$slots.so" \
			$(awk '{ print "'"$slots"'_" $1 ".so" }' <<<"$rows") >"$RES/build-plain.log" 2>&1 ||
			die 1 "make failed (see $RES/build-plain.log)"
		bug_bin=$TORTURE_TOP/$PLAIN_BUILD/rcutorture
		bug_arg=rcutorture.torture_type=lib:$TORTURE_TOP/${slots}_ bug_so=.so
		none_arg=rcutorture.torture_type=lib:$TORTURE_TOP/$slots.so
	else
		echo "$PROG: building the deliberate-bug build (make INJECT=1 ${BUILD_VARS[*]})"
		tree_make -j"$(nproc)" INJECT=1 "${BUILD_VARS[@]}" BUILD=$INJECT_BUILD \
			"$INJECT_BUILD/rcutorture" >"$RES/build-inject.log" 2>&1 ||
			die 1 "make INJECT=1 ${BUILD_VARS[*]} failed (see $RES/build-inject.log)"
		tree_make -j"$(nproc)" "${BUILD_VARS[@]}" BUILD=$PLAIN_BUILD \
			"$PLAIN_BUILD/rcutorture" >"$RES/build-plain.log" 2>&1 ||
			die 1 "make ${BUILD_VARS[*]} failed (see $RES/build-plain.log)"
		if [ -n "$tiny" ]; then
			echo "$PROG: building Tiny RCU's (make TINY=1 INJECT=1, make TINY=1)"
			build tiny-inject TINY=1 INJECT=1
			build tiny TINY=1
			tiny_inject=$TORTURE_TOP/build/torture-tiny-inject/rcutorture
		fi
	fi
	for ((rep = 1; rep <= OPT_REPEAT; rep++)); do
		while read -r name class must rest; do
			scens=
			if [[ $rest == @* ]]; then	# @SCEN,SCEN: where this bug's mechanism is
				scens=${rest%% *} rest=${rest#"$scens"}
				scens=${scens#@} scens=${scens//,/ }
			fi
			echo "$PROG: $name ($class), round $rep of $OPT_REPEAT"
			TINY_BIN=$tiny_inject run_set "$name.$rep" "$bug_bin" \
				"$bug_arg$name$bug_so rcutorture.stop_on_error=1 $OPT_EXTRA $rest" "$scens"
		done <<<"$rows"
		echo "$PROG: unmodified build, round $rep of $OPT_REPEAT"
		# The Tiny bugs' scenarios too, on the unmodified Tiny build.
		# shellcheck disable=SC2086  # one name a word
		scens=$(printf '%s\n' $OPT_SCENARIOS $tiny | awk '!seen[$0]++' | paste -sd' ' -)
		TINY_BIN=${tiny:+$TORTURE_TOP/build/torture-tiny/rcutorture} run_set "none.$rep" \
			"$TORTURE_TOP/$PLAIN_BUILD/rcutorture" "$none_arg $OPT_EXTRA" "$scens"
	done
	table "$rows"
}

# kill_page: RES/kill.html (plain HTML) and, with gnuplot, the bar chart
# RES/kill.png + kill.svg (share of runs that caught each bug).
kill_page() {
	local plot=''
	if have gnuplot; then
		jq -s -r -f "$TORTURE_TOP/analysis/kill.jq" "$RES/kill.json" |
			jq -r '[.bug, .pct, (if .bug == "none" then 2 elif .must == "yes" then 0 else 1 end)] | @tsv' \
			>"$RES/kill.dat"
		if gnuplot -c "$TORTURE_TOP/analysis/kill.gp" "$RES/kill.dat" "$RES/kill.png $RES/kill.svg" \
			>/dev/null 2>"$RES/kill.gp.err"; then
			plot=kill.png
		else
			echo "$PROG: the kill-table plot failed: $(head -n1 "$RES/kill.gp.err")" >&2
		fi
	else
		echo "$PROG: gnuplot not found (Debian package gnuplot-nox): kill.html without its chart"
	fi
	jq -s -r -f "$TORTURE_TOP/analysis/kill-html.jq" --arg title "Kill table ${RES##*/}" \
		--arg plot "$plot" "$RES/kill.json" >"$RES/kill.html"
}

# targets: the issue's targets against kill.json, printed (kill.md too),
# never part of the verdict: a catch rate is a measurement.
targets() {
	{
		echo
		echo "Targets (printed, not asserted): each bug caught in >= 90% of its runs of a scenario, median < 10 s; the unmodified build clean in >= 20 runs."
		jq -s -r '.[] | if .bug == "none" then
			"  none on \(.scenario): \(.runs - .caught) of \(.runs) runs clean: \(if .caught == 0 and .runs >= 20 then "met" elif .caught == 0 then "clean, but fewer than 20 runs" else "NOT MET (false alarm)" end)"
		else
			"  \(.bug) on \(.scenario): caught \(.caught)/\(.runs), median \(.median_s // "-") s: \(if .runs > 0 and .caught * 10 >= .runs * 9 and (.median_s // 1e9) < 10 then "met" else "NOT MET" end)"
		end' "$RES/kill.json"
		jq -s -r '[.[] | select(.bug == "none")] | (map(.runs) | add // 0) as $r | (map(.caught) | add // 0) as $c |
			"  none in all: \($r - $c) of \($r) runs clean: \(if $c == 0 and $r >= 20 then "met" elif $c == 0 then "clean, but fewer than 20 runs" else "NOT MET (false alarm)" end)"' "$RES/kill.json"
	} | tee -a "$RES/kill.md"
}

# table ROWS: kill.json, kill.md, the verdict.
table() {
	local rows=$1
	printf '%s\n' "$rows" | awk '{ print $1 "\t" $2 "\t" $3 }' >"$RES/bugs.tsv"
	printf 'none\tbaseline\tfalse-alarm\n' >>"$RES/bugs.tsv"
	awk -F'\t' -v repeat="$OPT_REPEAT" '
	function median(list,    n, a, i, j, t) {
		n = split(list, a, " ")
		if (!n) return "-"
		for (i = 2; i <= n; i++)	# insertion sort: few values
			for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	FILENAME ~ /bugs.tsv$/ { class[$1] = $2; must[$1] = $3; order[++nb] = $1; next }
	{
		split($1, t, "."); bug = t[1]; rep = t[2]; scen = $2
		key = bug SUBSEP scen
		if (!(key in seen)) { seen[key] = 1; scens[bug] = scens[bug] " " scen }
		# Not run here (Tiny RCU without CAP_SYS_NICE): neither caught nor missed.
		if ($3 == "SKIPPED") { skips[key]++; next }
		runs[key]++
		caught = ($3 != "SUCCESS") && (class[bug] != "liveness" || $5 != "no")
		if (bug == "none") caught = ($3 != "SUCCESS")
		if (caught) {
			kills[key]++; repcaught[bug SUBSEP rep] = 1
			if ($4 != "null") secs[key] = secs[key] " " $4
			if (!(key in reason)) reason[key] = $6
		}
		if ($5 != "no") hangs[key]++
		if ($5 == "named") named[key]++
		reps[bug SUBSEP rep] = 1
	}
	END {
		bad = 0
		for (i = 1; i <= nb; i++) {
			bug = order[i]; n = split(scens[bug], sl, " ")
			for (j = 1; j <= n; j++) {
				key = bug SUBSEP sl[j]
				printf "%s\t%s\t%s\t%s\t%d\t%d\t%s\t%d\t%d\t%s\t%d\n", bug, class[bug], must[bug], \
					sl[j], runs[key] + 0, kills[key] + 0, median(secs[key]), hangs[key] + 0, \
					named[key] + 0, reason[key], skips[key] + 0
			}
			for (r = 1; r <= repeat; r++) {
				if (bug == "none") { if ((bug SUBSEP r) in repcaught) bad = 1; continue }
				if (must[bug] == "yes" && (bug SUBSEP r) in reps && !((bug SUBSEP r) in repcaught)) bad = 1
			}
		}
		exit bad
	}' "$RES/bugs.tsv" "$RES/runs.tsv" >"$RES/kill.tsv" && verdict=0 || verdict=1
	# A round that left no run at all (torture.sh refused it: a missing
	# scenario, a failed build) is neither caught nor clean: an error.
	local bug r missing=''
	for bug in $(cut -f1 "$RES/bugs.tsv"); do
		for ((r = 1; r <= OPT_REPEAT; r++)); do
			grep -q "^$bug\.$r	" "$RES/runs.tsv" && continue
			missing+="$PROG: $bug, round $r: no run ($(tail -n 1 "$RES/runs/$bug.$r.log" 2>/dev/null))"$'\n'
		done
	done
	jq -R -c 'split("\t") | {bug: .[0], class: .[1], must: .[2], scenario: .[3],
		runs: (.[4] | tonumber), caught: (.[5] | tonumber),
		median_s: (if .[6] == "-" then null else (.[6] | tonumber) end),
		hang_reported: (.[7] | tonumber), holdout_named: (.[8] | tonumber),
		reason: .[9], skipped: (.[10] | tonumber)}' "$RES/kill.tsv" >"$RES/kill.json"
	{
		echo "| bug | class | must | scenario | caught | median s | hang reported (holdout named) | reason |"
		echo "|---|---|---|---|---|---|---|---|"
		jq -r '"| \(.bug) | \(.class) | \(.must) | \(.scenario) | \(.caught)/\(.runs)\(if .skipped > 0 then " (\(.skipped) skipped)" else "" end) | \(.median_s // "-") | \(if .class == "liveness" then "\(.hang_reported) (\(.holdout_named))" else "-" end) | \(.reason) |"' "$RES/kill.json"
	} >"$RES/kill.md"
	[ -z "$missing" ] || printf '\n%s' "$missing" >>"$RES/kill.md"
	cat "$RES/kill.md"
	targets
	kill_page
	echo "Results: $RES"
	if [ -n "$missing" ]; then
		verdict=1
		echo "$PROG: a round left no run (above): nothing is known of it"
	elif ((verdict)); then
		echo "$PROG: a must-catch bug survived a round, or the unmodified build failed"
	else
		echo "$PROG: every must-catch bug was caught in every round; no false alarm"
	fi
	exit "$verdict"
}

main "$@"
