# shellcheck shell=bash
# bin/lib/judge.sh - the one judge of a finished run, used by torture.sh
# at the end of a run and by recheck.sh on saved results.  Sourced.
#
# A scenario directory (see torture/INTERFACE.md, "results layout") is
# judged as the kernel's kvm-recheck does, from console.log: a FAILURE or
# "!!!" line, "ver:" not strictly increasing (GP HANG / BAD SEQ), no
# SUCCESS message, console badness (warnings, stalls, sanitizer reports),
# too many Reader Batch close calls.  Then summary.json and exit_status
# must agree with the console, and the run must have lasted its planned
# shutdown_secs.  The verdict is one of
#   SUCCESS     every check passed over the whole planned run
#   FAILURE     a check failed (the reasons follow)
#   INCOMPLETE  no check failed, but the run did not last its planned
#               time (a signal, an interrupted torture.sh) or its results
#               could not be saved (a full disk): the causes follow
#   SKIPPED     the scenario cannot run here (a type not implemented or
#               not built): the reason follows
# and the result is one line, the kernel's GP count (the last "ver:")
# first, the RCU's own total of grace periods named apart:
#   TREE01 ------- 1626 GPs (27.1/s) [rcu: g12345 f0x0] total-gps=3012 SUCCESS
#   BUSTED ------- 880 GPs (88.0/s) [busted: g3 f0x0] FAILURE: Reader Pipe errors (1234 instances)
#   URCU-MB ------- SKIPPED: torture_type=urcu-mb is not built: install liburcu-dev (and rebuild)

# Close calls (Reader Batch index >= 2) fail a run only when, as in
# kvm-recheck-rcu, there are more than one and more than this many per
# ten hours of run time.
JUDGE_CLOSE_CALLS_PER_10H=${JUDGE_CLOSE_CALLS_PER_10H:-5}

# Console badness, as the kernel's console-badness.sh, plus sanitizer and
# debug-object reports: "CATEGORY<TAB>ERE" lines, in the order a line is
# classified (judge_console), and the lines find-errors.sh shows.  A
# sanitizer report's rule lines (ThreadSanitizer's 18 "=", AddressSanitizer's
# 65) are the report's, not the lock checker's banner (29, 44 or 54).
JUDGE_BADNESS='Sanitizer	Sanitizer|runtime error:|^==================$|^=================================================================$
ODEBUG	ODEBUG:
Stalls	detected (expedited )?stalls on CPUs/tasks:|self-detected stall on CPU|Stall ended before state dump start|\?\?\? Writer stall state
Starves	kthread starved for
Bugs	(^|[^A-Za-z])BUG([^A-Za-z]|$)|Oops:
CallTraces	Call Trace:
Lockdep	===========
Warnings	WARNING:
Badness	Badness'

# judge_error_re: an ERE for every line find-errors.sh shows: the badness
# above, the verdict lines and markers, the program's own messages.
judge_error_re() {
	printf '%s\n' "$JUDGE_BADNESS" | cut -f2 | tr '\n' '|'
	echo 'FAILURE|INCOMPLETE|!!!|^rcutorture: |^rcu: '
}

# A run's causes of incompleteness that only torture.sh knows (its results
# could not be saved): scenario directory -> text.  Filled by run.sh.
declare -p RUN_UNSAVED >/dev/null 2>&1 || declare -gA RUN_UNSAVED=()

# judge_console FILE EXPECT_ODEBUG: facts about a console.log, one
# "KEY VALUE" a line (keys: success failure incomplete anyfail bang nver
# lastver hang badseq closecalls gpstate totalgps maxcbs odebug_expected,
# and bad_<Category> counts).
judge_console() {
	JUDGE_BADNESS=$JUDGE_BADNESS awk -v expect_odebug="$2" '
	function numsum(s, k,    n, a, i, t) {	# sum of the last k fields, -1 if not numbers
		n = split(s, a, /[ \t]+/)
		t = 0
		for (i = n - k + 1; i <= n; i++) {
			if (i < 1 || a[i] !~ /^[0-9]+$/) return -1
			t += a[i]
		}
		return t
	}
	BEGIN {
		ncat = split(ENVIRON["JUDGE_BADNESS"], cl, "\n")
		for (i = 1; i <= ncat; i++) {
			split(cl[i], kv, "\t")
			cname[i] = kv[1]
			cre[i] = kv[2]
		}
	}
	function category(s,    i) {
		for (i = 1; i <= ncat; i++)
			if (s ~ cre[i]) return cname[i]
		return ""
	}
	# checkver V FINAL: "ver:" must strictly increase; equal values up to
	# the end are a hang, any other step back a BAD SEQ.
	function checkver(v, final) {
		v += 0
		nver++
		if (nver > 1 && v == last && !final && hang == "") {
			hang = v " torture stat " nver
			eqseq = last ":" v " version " nver
		}
		if (nver > 1 && v < last && badseq == "") badseq = last ":" v " version " nver
		if (nver > 1 && v > last && hang != "") {
			if (badseq == "") badseq = eqseq
			hang = ""
		}
		last = v
	}
	{ sub(/\r$/, "") }
	/End of test: SUCCESS/ { success = 1 }
	/End of test:/ {
		# The block before the end line is the final one (see below).
		if (pending != "") checkver(pending, 1)
		pending = ""
	}
	/End of test: INCOMPLETE/ {
		incomplete = $0
		sub(/.*End of test: INCOMPLETE:? */, "", incomplete)
		# The parameters follow (name=value name=value ...); the
		# reason may name one (not honoured: rcutorture.X=V (why)).
		sub(/:? *[a-z_]+=[^ ]* [a-z_]+=.*$/, "", incomplete)
		if (incomplete == "") incomplete = "End of test: INCOMPLETE"
	}
	/End of test: FAILURE/ {
		failure = $0
		sub(/.*End of test: FAILURE:? */, "", failure)
		sub(/:? *[a-z_]+=.*$/, "", failure)
		if (failure == "") failure = "End of test: FAILURE"
	}
	/FAILURE/ && !anyfail { anyfail = $0 }
	/-torture.*!!!/ { bang = $0; next }
	/-torture:.* ver: [0-9]/ {
		if (match($0, /rtc: [^ ]+/) && substr($0, RSTART + 5, RLENGTH - 5) ~ /^(\(null\)|\(nil\)|0|0x0+|0+)$/)
			next
		if (pending != "") checkver(pending, 0)
		match($0, / ver: [0-9]+/)
		pending = substr($0, RSTART + 6, RLENGTH - 6)
		next
	}
	/End-test grace-period state:/ {
		# The block just before this line (or the end line) is the
		# final one, printed after the writer stopped: it may repeat
		# the last value.
		if (pending != "") checkver(pending, 1)
		pending = ""
		gp = $0
		sub(/: .*/, "", gp)
		if (match($0, /g[-0-9]+ f0x[0-9a-fA-F]+/)) gpstate = gp ": " substr($0, RSTART, RLENGTH)
		if (match($0, /total-gps=[0-9]+/)) totalgps = substr($0, RSTART + 10, RLENGTH - 10)
	}
	/Reader Batch:/ { batch = $0 }
	/n_max_cbs: [0-9]/ {
		match($0, /n_max_cbs: [0-9]+/)
		n = substr($0, RSTART + 11, RLENGTH - 11) + 0
		if (n > maxcbs) maxcbs = n
	}
	/-+\[ cut here \]-+/ { inblock = 1 }
	inblock && /ODEBUG:/ && expect_odebug { skipblock = 1; odebug++ }
	/---\[ end trace/ { inblock = 0; if (skipblock) { skipblock = 0; next } }
	skipblock { next }
	{ c = category($0); if (c != "") bad[c]++ }
	END {
		if (pending != "") checkver(pending, 0)
		print "success " (success + 0)
		if (failure != "") print "failure " failure
		if (incomplete != "") print "incomplete " incomplete
		if (anyfail != "") print "anyfail " anyfail
		if (bang != "") {
			# The kernel counts the last nine numbers of the last
			# "!!!" line; none means another counter set the mark.
			n = numsum(bang, 9)
			label = bang
			sub(/.*!!! */, "", label)
			sub(/:.*/, "", label)
			if (n > 0) print "bang " label " errors (" n " instances)"
			else if (n < 0) print "bang " bang
		}
		print "nver " (nver + 0)
		if (nver) print "lastver " last
		if (hang != "") print "hang " hang
		if (badseq != "") print "badseq " badseq
		if (batch != "") print "closecalls " numsum(batch, 9)
		if (gpstate != "") print "gpstate " gpstate
		if (totalgps != "") print "totalgps " totalgps
		if (maxcbs) print "maxcbs " maxcbs
		if (odebug) print "odebug_expected " odebug
		for (c in bad) print "bad_" c " " bad[c]
	}' "$1"
}

# judge_summary_fields FILE: summary.json's figures, one a line (empty
# when null): result errors-sum stalls exit_status gps ver duration_s scenario
judge_summary_fields() {
	jq -r '.result, ((.errors // {}) | [.[]?] | add // 0), (.stalls // 0),
		.exit_status, .gps, .ver, .duration_s, .scenario
		| if . == null then "" else tostring end' "$1" 2>/dev/null
}

# judge_numbers WORD...: is each WORD empty or a number?
judge_numbers() {
	local w
	for w in "$@"; do
		[[ -z $w || $w =~ ^[0-9]+(\.[0-9]+)?$ ]] || return 1
	done
}

# judge_status_reason STATUS CONSOLE: why a run with this exit status
# failed, beyond what its console says (empty for 0, 1 and 4, whose
# console says it all; 5 is judge_dir's).
judge_status_reason() {
	local st=$1 msg what
	case $st in
	0 | 1 | 4 | 5 | 6) return 0 ;;
	2 | 3)
		# The program's own message, else the library's, else the last line.
		msg=$({ grep -m1 '^rcutorture: ' "$2" || grep -m1 '^rcu: ' "$2" || tail -n1 "$2"; } 2>/dev/null) || true
		if [ "$st" = 2 ]; then what="parameter error"; else what="could not start"; fi
		echo "$what: ${msg:-(no message)}" ;;
	*)
		if ((st > 128)); then
			echo "killed by signal $((st - 128)) ($(kill -l $((st - 128)) 2>/dev/null || echo '?'))"
		else
			echo "exit status $st"
		fi ;;
	esac
}

# judge_cmdline_param DIR NAME: a rcutorture parameter's value from DIR/cmdline.
judge_cmdline_param() {
	[ -f "$1/cmdline" ] || return 0
	tr ' ' '\n' <"$1/cmdline" | sed -n "s/^'\{0,1\}rcutorture\.$2=\([^' ]*\)'\{0,1\}\$/\1/p" | tail -n1
}

# judge_close_calls N SECONDS: "fail" or "note" for N close calls in a run
# of SECONDS, as kvm-recheck-rcu judges them; nothing when N is 0.
judge_close_calls() {
	local n=$1 secs=${2%.*}
	secs=${secs:-0}
	((n > 0)) || return 0
	if ((n > 1 && secs > 0 && n * 36000 > JUDGE_CLOSE_CALLS_PER_10H * secs)); then
		echo fail
	else
		echo note
	fi
}

# judge_dir DIR: judge one scenario directory; print its summary line,
# write DIR/console.log.diags; return 0 for SUCCESS, 1 for FAILURE, 2 for
# INCOMPLETE, 3 for SKIPPED.
judge_dir() {
	local dir=${1%/} name line status='' secs planned cc w k v
	local -A f=()
	local -a why=() inc=() notes=()
	name=${dir##*/}
	if [ -f "$dir/skipped" ]; then
		echo "$name ------- SKIPPED: $(head -n1 "$dir/skipped")"
		rm -f "$dir/console.log.diags" 2>/dev/null || true
		return 3
	fi

	# The runner's own findings (build failed, hung: failures; interrupted,
	# results not saved: incomplete).
	if [ -f "$dir/Warnings" ]; then
		while IFS= read -r w; do why+=("${w#'!!! '}"); done < <(grep '^!!! ' "$dir/Warnings" || true)
		while IFS= read -r w; do inc+=("${w#INCOMPLETE: }"); done < <(grep '^INCOMPLETE: ' "$dir/Warnings" || true)
	fi
	[ -z "${RUN_UNSAVED[$dir]:-}" ] || inc+=("${RUN_UNSAVED[$dir]}")
	[ ! -f "$dir/exit_status" ] || status=$(tr -dc '0-9' <"$dir/exit_status")

	if [ -n "$status" ]; then
		# Killed by us after an interruption: the interruption says it.
		if ((status <= 128)) || [ ${#inc[@]} -eq 0 ]; then
			w=$(judge_status_reason "$status" "$dir/console.log")
			[ -z "$w" ] || why+=("$w")
		fi
		[ "$status" != 5 ] || inc+=("$(judge_unsaved "$dir/console.log")")
	elif [ ${#why[@]} -eq 0 ] && [ ${#inc[@]} -eq 0 ]; then
		why+=("no exit_status")
	fi
	if [ -f "$dir/console.log" ]; then
		while read -r k v; do f[$k]=$v; done < <(judge_console "$dir/console.log" \
			"$([ "$(judge_cmdline_param "$dir" object_debug)" = 1 ] && echo 1 || echo 0)")
		# Nothing ran after a usage error (2) or a failed start (3).
		[[ $status == [23] ]] || judge_expected_stalls "$dir" f why notes
		[[ $status == [23] ]] || judge_console_reasons f why inc notes "$status"
	elif [ ${#why[@]} -eq 0 ] && [ ${#inc[@]} -eq 0 ]; then
		why+=("no console.log")
	fi
	judge_summary_check "$dir" "$status" f why
	w=$(judge_ignored "$dir")
	[ -z "$w" ] || notes+=("ignored: $w")

	planned=$(judge_cmdline_param "$dir" shutdown_secs)
	secs=${f[duration]:-$planned}
	# SUCCESS needs the whole planned run (the program's own clock).
	if [ ${#why[@]} -eq 0 ] && [ ${#inc[@]} -eq 0 ] && [[ $planned =~ ^[0-9]+$ ]] && ((planned > 0)) &&
		[ -n "${f[duration]:-}" ] && ((${f[duration]%.*} + 1 < planned)); then
		inc+=("ran ${f[duration]%.*} of $planned s")
	fi
	cc=$(judge_close_calls "${f[closecalls]:-0}" "$secs")
	case $cc in
	fail) why+=("${f[closecalls]} Reader Batch close calls in ${secs%.*}s") ;;
	note) notes+=("${f[closecalls]} close calls") ;;
	esac

	line=$(judge_format_line "$name" "$secs" f why inc notes)
	judge_write_diags "$dir" "$name" why inc notes
	echo "$line"
	[ ${#why[@]} -eq 0 ] || return 1
	[ ${#inc[@]} -eq 0 ] || return 2
	return 0
}

# judge_expected_stalls DIR FACTS WHY NOTES: a run that asked for stalls
# must show the RCU CPU stall warnings they call for.  With
# rcutorture.stall_cpu > 0 on its cmdline: one naming the stalled reader
# (a holdout line "rcu: <tab>... P<tid> ..." under a "detected [expedited
# ]stalls on CPUs/tasks:" header, the tid from "rcu_torture_stall begin
# ... (P<tid>").  With rcutorture.stall_gp_kthread > 0: one saying the
# grace-period kthread starved ("kthread starved for"), unless the
# program said it could not honour that (the run is then INCOMPLETE).
# When all are there, the stall messages (and summary.json's stalls) are
# expected, a note instead of badness.  Any other run is left alone:
# every stall message fails it.
judge_expected_stalls() {
	local dir=$1 sc gk tid named starved failed=''
	local -n _ef=$2 _ewhy=$3 _enotes=$4
	sc=$(judge_cmdline_param "$dir" stall_cpu)
	gk=$(judge_cmdline_param "$dir" stall_gp_kthread)
	[[ $sc =~ ^[0-9]+$ ]] && ((10#$sc > 0)) || sc=''
	[[ $gk =~ ^[0-9]+$ ]] && ((10#$gk > 0)) || gk=''
	! grep -q "rcutorture\.stall_gp_kthread=[0-9]*: not honoured" "$dir/console.log" || gk=''
	[ -n "$sc$gk" ] || return 0
	_ef['stalls_expected']=1
	if [ -n "$sc" ]; then
		tid=$(sed -n 's/.*rcu_torture_stall begin CPU stall interval .*(P\([0-9]*\).*/\1/p' \
			"$dir/console.log" | head -n 1)
		named=$(awk -v tid="$tid" '
			/detected (expedited )?stalls on CPUs\/tasks:/ { inw = 1; next }
			inw && /^rcu: \t/ { if (tid != "" && index($0, " P" tid " ")) n++; next }
			{ inw = 0 }
			END { print n + 0 }' "$dir/console.log")
		if ((named > 0)); then
			_enotes+=("stall_cpu=$sc: ${_ef[bad_Stalls]:-0} expected stall messages, $named naming the stalled reader P$tid")
		else
			_ewhy+=("stall_cpu=$sc: no RCU CPU stall warning named the stalled reader${tid:+ P$tid}")
			failed=1
		fi
	fi
	if [ -n "$gk" ]; then
		starved=${_ef[bad_Starves]:-0}
		if ((starved > 0)); then
			_enotes+=("stall_gp_kthread=$gk: ${_ef[bad_Stalls]:-0} expected stall messages, $starved saying the grace-period kthread starved")
			unset '_ef[bad_Starves]'
		else
			_ewhy+=("stall_gp_kthread=$gk: no RCU CPU stall warning said the grace-period kthread starved")
			failed=1
		fi
	fi
	[ -n "$failed" ] || unset '_ef[bad_Stalls]'
}

# judge_unsaved CONSOLE: why a run exited 5 (its results could not be
# written), with what to do.
judge_unsaved() {
	local msg
	msg=$(grep -m1 '^rcutorture: cannot write ' "$1" 2>/dev/null) || true
	msg=${msg#rcutorture: }
	echo "${msg:-its results could not be written (exit status 5: a full disk?): free disk space and run it again}"
}

# judge_console_reasons FACTS WHY INCOMPLETE NOTES STATUS: the console's
# failures into WHY, causes of an early end into INCOMPLETE, harmless
# remarks into NOTES (arrays passed by name).
judge_console_reasons() {
	local -n _f=$1 _why=$2 _inc=$3 _notes=$4
	local st=$5 k bad='' early=''
	if [ -n "${_f[bang]:-}" ]; then
		_why+=("${_f[bang]}")
	elif [ -n "${_f[failure]:-}" ]; then
		_why+=("${_f[failure]}")
	elif [ -n "${_f[anyfail]:-}" ]; then
		_why+=("${_f[anyfail]}")
	fi
	# An early end the program saw: the runner's own cause (interrupted)
	# says it better when there is one.
	if [ -n "${_f[incomplete]:-}" ] || [[ $st == [45] ]] || [ ${#_inc[@]} -gt 0 ]; then
		early=1
		[ -z "${_f[incomplete]:-}" ] || [ ${#_inc[@]} -gt 0 ] || _inc+=("${_f[incomplete]}")
	fi
	[ -z "${_f[hang]:-}" ] || _why+=("GP HANG at ${_f[hang]}")
	[ -z "${_f[badseq]:-}" ] || _why+=("BAD SEQ ${_f[badseq]}")
	if [ "${_f[success]}" != 1 ] && [ -z "${_f[failure]:-}${_f[anyfail]:-}" ] && [ -z "$early" ]; then
		_why+=("no success message, ${_f[nver]} successful version messages")
	fi
	for k in Badness Warnings Bugs Sanitizer CallTraces Lockdep ODEBUG Stalls Starves; do
		[ -z "${_f[bad_$k]:-}" ] || bad+=" $k: ${_f[bad_$k]}"
	done
	[ -z "$bad" ] || _why+=("console badness:$bad")
	[ -z "${_f[odebug_expected]:-}" ] || _notes+=("${_f[odebug_expected]} expected ODEBUG splats (object_debug=1)")
	return 0
}

# judge_status_fits RESULT STATUS: does the exit status go with the
# program's result (torture/INTERFACE.md)?
judge_status_fits() {
	case $1:$2 in
	SUCCESS:0 | FAILURE:1 | INCOMPLETE:[456]) return 0 ;;
	*:1?? | *:2??) return 0 ;;	# killed later: the exit status says it
	esac
	return 1
}

# judge_ignored DIR: rcutorture's own parameters the run ignored
# (summary.json's "ignored"), comma-separated; those that defined a test
# it did not do make the run INCOMPLETE instead (its end line says them).
judge_ignored() {
	[ -f "$1/summary.json" ] && have_jq || return 0
	jq -r '[.ignored[]?.param] | join(", ")' "$1/summary.json" 2>/dev/null || true
}

# judge_summary_check DIR STATUS FACTS WHY: summary.json must agree with
# the console and the exit status; also takes its figures into FACTS.
judge_summary_check() {
	local dir=$1 status=$2 cverdict
	local -n _sf=$3 _swhy=$4
	local result errs stalls xst gps ver dur scen
	local -a fields=()
	if [ ! -f "$dir/summary.json" ]; then
		# A run that got to its end line owes us a summary.json.
		if [ -n "${_sf[failure]:-}" ] || [ "${_sf[success]:-0}" = 1 ]; then
			_swhy+=("no summary.json")
		fi
		return 0
	fi
	if ! have_jq; then
		# Without jq, at least the run's length (for the planned-time check).
		_sf[duration]=$(grep -o '"duration_s": *[0-9.]*' "$dir/summary.json" | grep -o '[0-9.]*$') || true
		return 0
	fi
	mapfile -t fields < <(judge_summary_fields "$dir/summary.json" || true)
	if [ ${#fields[@]} -ne 8 ] || ! judge_numbers "${fields[@]:1:6}"; then
		_swhy+=("summary.json unreadable")
		return 0
	fi
	result=${fields[0]} errs=${fields[1]} stalls=${fields[2]} xst=${fields[3]}
	gps=${fields[4]} ver=${fields[5]} dur=${fields[6]} scen=${fields[7]}
	[ -z "$gps" ] || _sf["totalgps"]=$gps
	_sf[duration]=$dur
	if [ -n "${_sf[anyfail]:-}" ]; then
		cverdict=FAILURE
	elif [ -n "${_sf[incomplete]:-}" ]; then
		cverdict=INCOMPLETE
	elif [ "${_sf[success]:-0}" = 1 ]; then
		cverdict=SUCCESS
	else
		cverdict=FAILURE
	fi
	if [ "$result" != "$cverdict" ]; then
		_swhy+=("summary.json says '$result', console.log says $cverdict")
	elif [ -n "$status" ] && ! judge_status_fits "$result" "$status"; then
		_swhy+=("summary.json says $result, rcutorture exited $status")
	fi
	if [ "$result" != FAILURE ]; then
		[ "${errs%.*}" = 0 ] || _swhy+=("summary.json: $result with $errs errors")
		[ "${stalls%.*}" = 0 ] || [ -n "${_sf[stalls_expected]:-}" ] ||
			_swhy+=("summary.json: $result with $stalls stalls")
	fi
	if [ -n "$status" ] && [ -n "$xst" ] && [ "$xst" != "$status" ]; then
		_swhy+=("summary.json exit_status $xst, rcutorture exited $status")
	fi
	if [ -n "$ver" ] && [ -n "${_sf[lastver]:-}" ] && ((${ver%.*} < _sf[lastver])); then
		_swhy+=("summary.json ver $ver < console.log ver ${_sf[lastver]}")
	fi
	if [ -n "$scen" ] && [ "$scen" != "$(instance_scenario "$dir")" ]; then
		_swhy+=("summary.json is for scenario $scen")
	fi
	return 0
}

# judge_format_line NAME SECONDS FACTS WHY INCOMPLETE NOTES: the summary
# line: the kernel's count of grace periods (the writer's last "ver:") and
# its rate, the end state, the RCU's total, the verdict.
judge_format_line() {
	local name=$1 secs=$2 out gps rate
	local -n _lf=$3 _lwhy=$4 _linc=$5 _lnotes=$6
	out="$name -------"
	gps=${_lf[lastver]:-}
	if [ -n "$gps" ]; then
		out+=" $gps GPs"
		if [ -n "$secs" ] && [ "${secs%.*}" != 0 ]; then
			rate=$(awk -v g="$gps" -v s="$secs" 'BEGIN { printf "%.1f", g / s }')
			out+=" ($rate/s)"
		fi
	fi
	[ -z "${_lf[gpstate]:-}" ] || out+=" [${_lf[gpstate]}]"
	[ -z "${_lf[totalgps]:-}" ] || out+=" total-gps=${_lf[totalgps]}"
	[ -z "${_lf[maxcbs]:-}" ] || out+=" n_max_cbs: ${_lf[maxcbs]}"
	if [ ${#_lwhy[@]} -gt 0 ]; then
		out+=" FAILURE: $(judge_join "${_lwhy[@]}")"
	elif [ ${#_linc[@]} -gt 0 ]; then
		out+=" INCOMPLETE: $(judge_join "${_linc[@]}")"
	else
		out+=" SUCCESS"
	fi
	[ ${#_lnotes[@]} -eq 0 ] || out+=" ($(judge_join "${_lnotes[@]}"))"
	echo "$out"
}

# judge_join ITEM...: the items joined by "; ".
judge_join() {
	local IFS=$'\x1f' s
	s="$*"
	echo "${s//$'\x1f'/; }"
}

# judge_write_diags DIR NAME WHY INCOMPLETE NOTES: DIR/console.log.diags
# gets a "BUG:" line per failure, an "INCOMPLETE:" line per cause of an
# early end and a "WARNING:" line per note (removed when there are none);
# skipped when DIR is read-only or full.
judge_write_diags() {
	local dir=$1 name=$2 x
	local -n _dwhy=$3 _dinc=$4 _dnotes=$5
	[ -w "$dir" ] || return 0
	if [ ${#_dwhy[@]} -eq 0 ] && [ ${#_dinc[@]} -eq 0 ] && [ ${#_dnotes[@]} -eq 0 ]; then
		rm -f "$dir/console.log.diags"
		return 0
	fi
	{
		for x in ${_dwhy[@]+"${_dwhy[@]}"}; do echo "BUG: $name $x"; done
		for x in ${_dinc[@]+"${_dinc[@]}"}; do echo "INCOMPLETE: $name $x"; done
		for x in ${_dnotes[@]+"${_dnotes[@]}"}; do echo "WARNING: $name $x"; done
	} >"$dir/console.log.diags" 2>/dev/null || true
}

# judge_is_scenario_dir DIR: does DIR hold one scenario's run?
judge_is_scenario_dir() {
	[ -f "$1/console.log" ] || [ -f "$1/exit_status" ] || [ -f "$1/cmdline" ] ||
		[ -f "$1/Warnings" ] || [ -f "$1/skipped" ]
}

# judge_find_dirs DIR [IS_RUN]: DIR itself if it holds one scenario's
# run, else its scenario subdirectories (TREE01 before TREE01.2), one a
# line; IS_RUN DIR (default judge_is_scenario_dir) says what a run is.
judge_find_dirs() {
	local d=${1%/} s is_run=${2:-judge_is_scenario_dir}
	if "$is_run" "$d"; then
		echo "$d"
		return 0
	fi
	for s in "$d"/*/; do
		if "$is_run" "${s%/}"; then echo "${s%/}"; fi
	done | sort -V
}

# judge_results DIR...: judge every scenario directory found in the DIRs;
# print the table and a count; write DIR/summary.json for each DIR that
# is a results folder, and for JUDGE_SUMMARY_FOLDER if set
# (judge_summary_json).  Returns 1 if any run failed or is incomplete, 2
# if none was found.
judge_results() {
	local d s n=0 nbad=0 ninc=0 nskip=0 v line
	local -a dirs=() folders=() rows=()
	[ -z "${JUDGE_SUMMARY_FOLDER:-}" ] || folders+=("${JUDGE_SUMMARY_FOLDER%/}")
	for d in "$@"; do
		judge_is_scenario_dir "${d%/}" || folders+=("${d%/}")
		while IFS= read -r s; do dirs+=("$s"); done < <(judge_find_dirs "$d")
	done
	[ ${#dirs[@]} -gt 0 ] || { echo "${PROG:-recheck}: no scenario results in $*" >&2; return 2; }
	for s in "${dirs[@]}"; do
		v=0
		line=$(judge_dir "$s") || v=$?
		echo "$line"
		rows+=("$s"$'\t'"$v"$'\t'"$line")
		case $v in
		0) n=$((n + 1)) ;;
		1) n=$((n + 1)) nbad=$((nbad + 1)) ;;
		2) n=$((n + 1)) ninc=$((ninc + 1)) ;;
		*) nskip=$((nskip + 1)) ;;
		esac
	done
	for d in ${folders[@]+"${folders[@]}"}; do
		judge_summary_json "$d" "${rows[@]}"
	done
	judge_count_line "$n" "$nbad" "$ninc" "$nskip"
	((nbad + ninc == 0))
}

# judge_count_line RUNS FAILED INCOMPLETE SKIPPED: the table's last line.
judge_count_line() {
	local runs=$1 nfail=$2 nincomplete=$3 nskipped=$4 out
	if ((runs == 0)); then
		echo "No run ran: $nskipped skipped."
		return 0
	elif ((nfail + nincomplete == 0)); then
		out="All $runs runs succeeded."
	else
		out=''
		((nfail == 0)) || out="$nfail of $runs runs failed."
		((nincomplete == 0)) || out+="${out:+ }$nincomplete of $runs runs incomplete."
	fi
	((nskipped == 0)) || out+=" $nskipped skipped."
	echo "$out"
}

# judge_verdict CODE: judge_dir's return code as a word.
judge_verdict() {
	case $1 in
	0) echo SUCCESS ;;
	1) echo FAILURE ;;
	2) echo INCOMPLETE ;;
	*) echo SKIPPED ;;
	esac
}

# judge_json_string TEXT: TEXT as a JSON string.
judge_json_string() {
	local s=$1
	s=${s//\\/\\\\}
	s=${s//\"/\\\"}
	s=${s//$'\t'/\\t}
	s=${s//$'\n'/\\n}
	s=${s//$'\r'/\\r}
	printf '"%s"' "$s"
}

# judge_summary_json FOLDER ROW...: FOLDER/summary.json, the verdict of the
# whole run and of each of its runs (ROW: DIR<TAB>CODE<TAB>LINE); only the
# rows of runs in FOLDER.  Not written when FOLDER is read-only or full.
judge_summary_json() {
	local folder=$1 row dir code line verdict reason overall=SUCCESS sep=''
	local nfail=0 nincomplete=0 nok=0 nskipped=0
	shift
	[ -w "$folder" ] || return 0
	{
		printf '{"results":%s,"runs":[' "$(judge_json_string "$folder")"
		for row in "$@"; do
			IFS=$'\t' read -r dir code line <<<"$row"
			[ "${dir%/*}" = "$folder" ] || continue
			verdict=$(judge_verdict "$code")
			reason=${line#*" $verdict"}
			reason=${reason#: }
			case $verdict in
			FAILURE) nfail=$((nfail + 1)) ;;
			INCOMPLETE) nincomplete=$((nincomplete + 1)) ;;
			SUCCESS) nok=$((nok + 1)) reason='' ;;
			SKIPPED) nskipped=$((nskipped + 1)) ;;
			esac
			printf '%s{"scenario":%s,"verdict":"%s","reason":%s,"line":%s}' "$sep" \
				"$(judge_json_string "${dir##*/}")" "$verdict" "$(judge_json_string "$reason")" \
				"$(judge_json_string "$line")"
			sep=,
		done
		((nincomplete == 0)) || overall=INCOMPLETE
		((nfail == 0)) || overall=FAILURE
		((nok + nfail + nincomplete > 0)) || overall=SKIPPED
		printf '],"verdict":"%s","succeeded":%d,"failed":%d,"incomplete":%d,"skipped":%d}\n' \
			"$overall" "$nok" "$nfail" "$nincomplete" "$nskipped"
	} >"$folder/summary.json.new" 2>/dev/null && mv "$folder/summary.json.new" "$folder/summary.json" ||
		rm -f "$folder/summary.json.new" 2>/dev/null || true
}
