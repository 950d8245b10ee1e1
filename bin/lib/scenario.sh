# shellcheck shell=bash
# bin/lib/scenario.sh - scenario files: parsing, checking, and turning the
# effective configuration into a plan for one run.  Sourced, never run.
#
# A scenario is configs/CFcommon, then scenarios/NAME, then the command
# line's --bootargs (later wins), as the kernel's config_override.  Each
# line of a file is blank, a comment (#...), an assertion
# (#CHECK#CONFIG_X=y) or whitespace-separated tokens: CONFIG_X=VALUE
# (Kconfig) or boot arguments (rcutorture.*, rcutree.*, rcupdate.*, ...).
#
# The plan (scen_plan's output) is one "FIELD VALUE" a line:
#   type T          torture type          ncpus N      CPUs (threads) used
#   duration S      seconds               build TAG    build folder tag
#   make VAR=VAL    make variables for the build (zero or more)
#   arg P=V         one rcutorture parameter (in order)
#   fragment K=V    one effective setting (ConfigFragment)
#   note TEXT       something the run's log should say (ignored options)

SCENARIO_DIR=${TORTURE_SCENARIO_DIR:-$TORTURE_TOP/scenarios}
CONFIG_DIR=${TORTURE_CONFIG_DIR:-$TORTURE_TOP/configs}

# Kconfig options: NAME (no CONFIG_) TYPE EFFECT [MIN].
#   TYPE   bool (y/n), tristate (y/n/m), int (decimal >= MIN), word
#   EFFECT ncpus, smp, preempt, nopreempt, hotplug, debug (a DEBUG=1
#          build), san:KIND (a SAN=KIND build), param:NAME (default for
#          that parameter), harness (nothing to do) or ignored (no
#          userspace meaning: said in the log).
scen_config_table() {
	cat <<'EOF'
NR_CPUS                     int       ncpus                    1
SMP                         bool      smp
RCU_FANOUT                  int       param:rcutree.rcu_fanout 2
RCU_FANOUT_LEAF             int       param:rcutree.rcu_fanout_leaf 2
RCU_FANOUT_EXACT            bool      param:rcutree.rcu_fanout_exact
PREEMPT                     bool      preempt
PREEMPT_NONE                bool      nopreempt
PREEMPT_VOLUNTARY           bool      nopreempt
HOTPLUG_CPU                 bool      hotplug
DEBUG_OBJECTS_RCU_HEAD      bool      param:debug_objects
PROVE_RCU                   bool      debug
PROVE_LOCKING               bool      debug
KASAN                       bool      san:address
KCSAN                       bool      san:thread
RCU_TORTURE_TEST            tristate  harness
TREE_RCU                    bool      harness
RCU_EXPERT                  bool      harness
PRINTK_TIME                 bool      ignored
HYPERVISOR_GUEST            bool      ignored
PARAVIRT                    bool      ignored
KVM_GUEST                   bool      ignored
NO_HZ_IDLE                  bool      ignored
NO_HZ_FULL                  bool      ignored
HZ_PERIODIC                 bool      ignored
HZ                          int       ignored                  1
RCU_FAST_NO_HZ              bool      ignored
RCU_NOCB_CPU                bool      ignored
RCU_NOCB_CPU_DEFAULT_ALL    bool      ignored
RCU_LAZY                    bool      ignored
RCU_TRACE                   bool      ignored
RCU_BOOST                   bool      ignored
RCU_BOOST_DELAY             int       ignored                  0
RCU_KTHREAD_PRIO            int       ignored                  0
RCU_CPU_STALL_TIMEOUT       int       ignored                  0
RCU_EQS_DEBUG               bool      ignored
RCU_STRICT_GRACE_PERIOD     bool      ignored
RCU_TORTURE_TEST_LOG_CPU    bool      ignored
RCU_TORTURE_TEST_LOG_GP     bool      ignored
PREEMPT_COUNT               bool      ignored
PREEMPT_DYNAMIC             bool      ignored
MAXSMP                      bool      ignored
CPUMASK_OFFSTACK            bool      ignored
SUSPEND                     bool      ignored
HIBERNATION                 bool      ignored
DEBUG_KERNEL                bool      ignored
DEBUG_LOCK_ALLOC            bool      ignored
DEBUG_OBJECTS               bool      ignored
DEBUG_ATOMIC_SLEEP          bool      ignored
PROVE_RCU_LIST              bool      ignored
KCSAN_ASSUME_PLAIN_WRITES_ATOMIC bool ignored
KCSAN_REPORT_VALUE_CHANGE_ONLY   bool ignored
KCSAN_INTERRUPT_WATCHER     bool      ignored
EOF
}

# Boot arguments: NAME (exact, or PREFIX.* for a family) TYPE EFFECT [MIN].
#   TYPE   as above, plus any (one word) and flag (a bare word, no '=')
#   EFFECT pass (handed to rcutorture), maxcpus, ignored
# Exact names win over families.  The library and the torture program
# check the values of what is passed; only values the scripts use are
# checked here.
scen_boot_table() {
	cat <<'EOF'
rcutorture.shutdown_secs             int   pass    1
rcutorture.torture_type              word  pass
rcutorture.test_no_idle_hz           any   ignored
rcutorture.test_boost                any   ignored
rcutorture.test_boost_interval       any   ignored
rcutorture.test_boost_duration       any   ignored
rcutorture.nocbs_nthreads            any   ignored
rcutorture.nocbs_toggle              any   ignored
rcutorture.*                         any   pass
rcutree.kthread_prio                 any   ignored
rcutree.use_softirq                  any   ignored
rcutree.rcu_nocb_gp_stride           any   ignored
rcutree.*                            any   pass
rcupdate.rcu_self_test               any   ignored
rcupdate.rcu_cpu_stall_suppress_at_boot any ignored
rcupdate.rcu_task_stall_timeout      any   ignored
rcupdate.*                           any   pass
nr_cpus                              int   pass    1
debug_objects                        any   pass
maxcpus                              int   maxcpus 1
nohz_full                            any   ignored
nohz                                 any   ignored
isolcpus                             any   ignored
irqaffinity                          any   ignored
rcu_nocbs                            any   ignored
rcu_nocb_poll                        flag  ignored
threadirqs                           flag  ignored
torture.*                            any   ignored
EOF
}

declare -gA SCEN_CONFIG=() SCEN_BOOT=()

# Load both tables into SCEN_CONFIG / SCEN_BOOT (name -> "TYPE EFFECT MIN").
scen_load_tables() {
	local name rest
	while read -r name rest; do SCEN_CONFIG[$name]=$rest; done < <(scen_config_table)
	while read -r name rest; do SCEN_BOOT[$name]=$rest; done < <(scen_boot_table)
}
scen_load_tables

# scen_spec KEY: print "TYPE EFFECT MIN" for KEY, or fail if unknown.
scen_spec() {
	local key=$1
	if [[ $key == CONFIG_* ]]; then
		[ -n "${SCEN_CONFIG[${key#CONFIG_}]:-}" ] || return 1
		echo "${SCEN_CONFIG[${key#CONFIG_}]}"
	elif [ -n "${SCEN_BOOT[$key]:-}" ]; then
		echo "${SCEN_BOOT[$key]}"
	elif [[ $key == *.* && -n "${SCEN_BOOT[${key%%.*}.*]:-}" ]]; then
		echo "${SCEN_BOOT[${key%%.*}.*]}"
	else
		return 1
	fi
}

# scen_value_ok TYPE MIN VALUE: does VALUE fit TYPE?
scen_value_ok() {
	case $1 in
	bool) [[ $3 == [yn] ]] ;;
	tristate) [[ $3 == [ynm] ]] ;;
	int) [[ $3 =~ ^[0-9]{1,9}$ ]] && ((10#$3 >= ${2:-0})) ;;
	word) [[ $3 =~ ^[A-Za-z0-9_.:/+-]+$ ]] ;;
	*) true ;;
	esac
}

# scen_type_desc TYPE MIN: what a good value looks like, for messages.
scen_type_desc() {
	case $1 in
	bool) echo "y or n" ;;
	tristate) echo "y, n or m" ;;
	int) echo "an integer >= ${2:-0}" ;;
	*) echo "a word" ;;
	esac
}

# scen_check_token TOKEN: fail with the reason on stdout if TOKEN is bad.
scen_check_token() {
	local tok=$1 key val spec type effect min
	if [[ $tok != *=* ]]; then
		spec=$(scen_spec "$tok") || { echo "unknown option (and no '=')"; return 1; }
		[[ $spec == flag* ]] || { echo "no '=' (expected NAME=VALUE)"; return 1; }
		return 0
	fi
	key=${tok%%=*}
	val=${tok#*=}
	[[ $key =~ ^[A-Za-z_][A-Za-z0-9_.-]*$ ]] || { echo "malformed name"; return 1; }
	[ -n "$val" ] || { echo "empty value"; return 1; }
	spec=$(scen_spec "$key") || { echo "unknown option"; return 1; }
	read -r type effect min <<<"$spec"
	[ "$type" != flag ] || { echo "takes no value"; return 1; }
	scen_value_ok "$type" "$min" "$val" ||
		{ echo "bad value '$val' (expected $(scen_type_desc "$type" "$min"))"; return 1; }
	: "$effect"
}

# scen_token ORIGIN OP TOKEN: print the record "ORIGIN<TAB>OP<TAB>KEY<TAB>VALUE"
# (a flag's VALUE is empty), or the error "ORIGIN: TOKEN: REASON" on stderr.
scen_token() {
	local why
	if ! why=$(scen_check_token "$3"); then
		printf '%s: %s: %s\n' "$1" "$3" "$why" >&2
		return 2
	fi
	if [[ $3 == *=* ]]; then
		printf '%s\t%s\t%s\t%s\n' "$1" "$2" "${3%%=*}" "${3#*=}"
	else
		printf '%s\t%s\t%s\t\n' "$1" "$2" "$3"
	fi
}

# scen_parse_tokens ORIGIN TEXT: records for TEXT's tokens (whitespace-separated).
scen_parse_tokens() {
	local origin=$1 tok rc=0
	local -a toks
	read -ra toks <<<"$2" || true
	for tok in "${toks[@]}"; do
		scen_token "$origin" set "$tok" || rc=2
	done
	return "$rc"
}

# scen_parse_line ORIGIN LINE: records for one line of a scenario file.
scen_parse_line() {
	local origin=$1 line=${2%$'\r'}
	case $line in
	'#CHECK#'*)
		scen_token "$origin" check "${line#'#CHECK#'}" ;;
	'#'*)
		# "# CONFIG_X is not set" is Kconfig for CONFIG_X=n.
		if [[ $line =~ ^#\ (CONFIG_[A-Za-z0-9_]+)\ is\ not\ set ]]; then
			scen_token "$origin" set "${BASH_REMATCH[1]}=n"
		fi ;;
	*)
		scen_parse_tokens "$origin" "${line%%[[:space:]]#*}" ;;
	esac
}

# scen_relpath FILE: FILE relative to the top folder, for messages.
scen_relpath() {
	echo "${1#"$TORTURE_TOP"/}"
}

# scen_parse_file FILE: records for every line of FILE; errors name
# FILE:LINE.  Reads the whole file, then returns 2 if any line was bad.
scen_parse_file() {
	local file=$1 where line n=0 rc=0
	where=$(scen_relpath "$file")
	[ -r "$file" ] || { echo "$where: cannot read" >&2; return 2; }
	while IFS= read -r line || [ -n "$line" ]; do
		n=$((n + 1))
		scen_parse_line "$where:$n" "$line" || rc=2
	done <"$file"
	return "$rc"
}

# scen_exists NAME: is there a scenario file NAME?
scen_exists() {
	[[ $1 =~ ^[A-Za-z0-9][A-Za-z0-9_.+-]*$ ]] && [ -f "$SCENARIO_DIR/$1" ]
}

# scen_records NAME [ORIGIN TOKENS]...: the records of CFcommon, the
# scenario and each extra token string, in that order.
scen_records() {
	local name=$1 rc=0
	shift
	scen_exists "$name" || { echo "$name: no such scenario (in $(scen_relpath "$SCENARIO_DIR"))" >&2; return 2; }
	if [ -f "$CONFIG_DIR/CFcommon" ]; then
		scen_parse_file "$CONFIG_DIR/CFcommon" || rc=2
	fi
	scen_parse_file "$SCENARIO_DIR/$name" || rc=2
	while (($# >= 2)); do
		scen_parse_tokens "$1" "$2" || rc=2
		shift 2
	done
	return "$rc"
}

# scen_param_value VALUE: a Kconfig value as a parameter: y/m -> 1, n -> 0,
# numbers unchanged.
scen_param_value() {
	case $1 in
	y | m) echo 1 ;;
	n) echo 0 ;;
	*) echo "$1" ;;
	esac
}

# scen_plan NAME DURATION HOSTCPUS < records: the plan (see the top of
# this file).  Fails with 2 after printing every failed #CHECK# and
# conflict as "ORIGIN: ...: reason" on stderr.
scen_plan() {
	local name=$1 duration=$2 hostcpus=$3
	local org op key v spec type effect min rc=0 k
	local -A val=() from=() dflt=()
	local -a order=() checks=() notes=() args=()
	local smp='' preempt='' hotplug='' debug='' san='' ncpus='' maxcpus='' ttype
	while IFS=$'\t' read -r org op key v; do
		[ -n "$key" ] || continue
		if [ "$op" = check ]; then
			checks+=("$org"$'\t'"$key"$'\t'"$v")
			continue
		fi
		[ -n "${val[$key]+x}" ] || order+=("$key")
		val[$key]=$v
		from[$key]=$org
	done

	for key in "${order[@]}"; do
		v=${val[$key]}
		read -r type effect min <<<"$(scen_spec "$key")"
		case $effect in
		ncpus) ncpus=$v ;;
		smp) smp=$v ;;
		preempt) [ "$v" = y ] && preempt=y || preempt=${preempt:-n} ;;
		nopreempt) [ "$v" != y ] || preempt=${preempt:-n} ;;
		hotplug) hotplug=$v ;;
		debug) [ "$v" != y ] || debug=1 ;;
		san:*)
			[ "$v" = y ] || continue
			if [ -n "$san" ] && [ "$san" != "${effect#san:}" ]; then
				echo "${from[$key]}: $key=y: cannot be combined with another sanitizer" >&2
				rc=2
			fi
			san=${effect#san:} ;;
		param:*) dflt[${effect#param:}]=$(scen_param_value "$v") ;;
		maxcpus) maxcpus=$v ;;
		pass) args+=("$key=$v") ;;
		ignored)
			# Saying "=n" of a kernel-only option is only noise.
			[ "$v" != n ] || continue
			notes+=("$key${v:+=$v}: no userspace meaning: ignored (${from[$key]})") ;;
		esac
	done

	# CPUs (threads): 1 without SMP, else CONFIG_NR_CPUS, else the host's;
	# boot maxcpus= and nr_cpus= clip it, as in the kernel.
	if [ "$smp" = n ]; then
		ncpus=1
	fi
	ncpus=${ncpus:-$hostcpus}
	[ -z "$maxcpus" ] || ((maxcpus >= ncpus)) || ncpus=$maxcpus
	[ -z "${val[nr_cpus]:-}" ] || ((val[nr_cpus] >= ncpus)) || ncpus=${val[nr_cpus]}
	if [ -n "${val[CONFIG_NR_CPUS]:-}" ] || [ "$smp" = n ]; then
		dflt[nr_cpus]=$([ "$smp" = n ] && echo 1 || echo "${val[CONFIG_NR_CPUS]}")
	fi

	# The kernel's defaults (ver_functions.sh and rcutorture's own).
	duration=${val[rcutorture.shutdown_secs]:-$duration}
	if [ "$preempt" = n ]; then ttype=sched; else ttype=rcu; fi
	ttype=${val[rcutorture.torture_type]:-$ttype}
	dflt[rcutorture.torture_type]=$ttype
	dflt[rcutorture.nreaders]=$((ncpus > 1 ? ncpus - 1 : 1))
	if [ "$hotplug" = y ] && ! [[ " ${order[*]}" == *" rcutorture.onoff_"* ]]; then
		dflt[rcutorture.onoff_interval]=1000
		dflt[rcutorture.onoff_holdoff]=$((duration / 4 < 30 ? duration / 4 : 30))
	fi
	dflt[rcutorture.stat_interval]=$(scen_stat_interval "$duration" "${val[rcutorture.stutter]:-5}")
	dflt[rcutorture.n_barrier_cbs]=4
	dflt[rcutorture.shutdown_secs]=$duration

	scen_run_checks checks val from || rc=2
	((rc == 0)) || return "$rc"

	echo "name $name"
	echo "type $ttype"
	echo "ncpus $ncpus"
	echo "duration $duration"
	echo "build $(scen_build_tag "$debug" "$san")"
	[ -z "$debug" ] || echo "make DEBUG=1"
	[ -z "$san" ] || echo "make SAN=$san"
	for k in rcutorture.torture_type nr_cpus rcutree.rcu_fanout rcutree.rcu_fanout_leaf \
		rcutree.rcu_fanout_exact debug_objects rcutorture.nreaders \
		rcutorture.onoff_interval rcutorture.onoff_holdoff rcutorture.stat_interval \
		rcutorture.n_barrier_cbs rcutorture.shutdown_secs; do
		[ -n "${dflt[$k]+x}" ] && [ -z "${val[$k]+x}" ] && echo "arg $k=${dflt[$k]}"
	done
	for k in "${args[@]}"; do echo "arg $k"; done
	for k in "${order[@]}"; do echo "fragment $k${val[$k]:+=${val[$k]}}"; done
	for k in "${notes[@]}"; do echo "note $k"; done
	return 0
}

# scen_stat_interval DURATION STUTTER: the default seconds between stats
# blocks: 15 as the kernel's scripts, a quarter of runs under a minute;
# always longer than a stutter pause, so that "ver:" must grow from one
# block to the next (the judges' GP HANG check).
scen_stat_interval() {
	local d=$1 st=$2 i=15
	((d >= 60)) || i=$((d / 4))
	((st <= 0 || i > st)) || i=$((st + 1))
	echo $((i > 0 ? i : 1))
}

# scen_run_checks CHECKS VAL FROM: every #CHECK# against the effective
# values (arrays passed by name).  An unset bool reads as n.
scen_run_checks() {
	local -n _checks=$1 _val=$2 _from=$3
	local c org key want have rc=0
	for c in "${_checks[@]}"; do
		IFS=$'\t' read -r org key want <<<"$c"
		if [ -n "${_val[$key]+x}" ]; then
			have=${_val[$key]}
		elif [[ $(scen_spec "$key") == bool* ]]; then
			have=n
		else
			have="(not set)"
		fi
		[ "$have" != "$want" ] || continue
		printf '%s: #CHECK#%s=%s: effective value is %s%s\n' "$org" "$key" "$want" "$have" \
			"${_from[$key]:+ (from ${_from[$key]})}" >&2
		rc=2
	done
	return "$rc"
}

# scen_build_tag DEBUG SAN: the build folder's tag: plain, debug, asan,
# tsan, asan-debug, tsan-debug.
scen_build_tag() {
	local tag=
	case $2 in
	address) tag=asan ;;
	thread) tag=tsan ;;
	esac
	[ -z "$1" ] || tag=${tag:+$tag-}debug
	echo "${tag:-plain}"
}

# scen_resolve NAME DURATION HOSTCPUS [ORIGIN TOKENS]...: the plan for one
# scenario, or 2 after the errors on stderr.
scen_resolve() {
	local name=$1 duration=$2 hostcpus=$3 recs
	shift 3
	recs=$(scen_records "$name" "$@") || return 2
	scen_plan "$name" "$duration" "$hostcpus" <<<"$recs"
}

# plan_get FIELD < plan: the values of FIELD, one a line.
plan_get() {
	sed -n "s/^$1 //p"
}
