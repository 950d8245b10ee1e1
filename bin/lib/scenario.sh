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
RCU_CPU_STALL_TIMEOUT       int       param:rcupdate.rcu_cpu_stall_timeout 3
RCU_EXP_CPU_STALL_TIMEOUT   int       param:rcupdate.rcu_exp_cpu_stall_timeout 0
RCU_CPU_STALL_INFO          bool      param:rcupdate.rcu_cpu_stall_info
RCU_CPU_STALL_VERBOSE       bool      param:rcupdate.rcu_cpu_stall_verbose
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

# The plan being made (scen_plan resets it): the effective values, where
# each came from (FILE:LINE or --bootargs), their order, the #CHECK#
# records, the parameter defaults the configuration implies (DFLT), the
# boot arguments passed as given (ARGS), notes, and what the Kconfig
# options say (SP: smp preempt hotplug debug san ncpus maxcpus).
declare -gA SP_VAL=() SP_FROM=() SP_DFLT=() SP=()
declare -ga SP_ORDER=() SP_CHECKS=() SP_ARGS=() SP_NOTES=()

# scen_plan NAME DURATION HOSTCPUS < records: the plan (see the top of
# this file).  Fails with 2 after printing every failed #CHECK# and
# conflict as "ORIGIN: ...: reason" on stderr.
scen_plan() {
	local rc=0
	SP_VAL=() SP_FROM=() SP_DFLT=() SP=() SP_ORDER=() SP_CHECKS=() SP_ARGS=() SP_NOTES=()
	scen_plan_read
	scen_plan_effects || rc=2
	scen_plan_defaults "$2" "$3"
	scen_run_checks || rc=2
	((rc == 0)) || return "$rc"
	scen_plan_print "$1"
}

# scen_plan_read < records: merge the settings (later wins), keep the checks.
scen_plan_read() {
	local org op key v
	while IFS=$'\t' read -r org op key v; do
		[ -n "$key" ] || continue
		if [ "$op" = check ]; then
			SP_CHECKS+=("$org"$'\t'"$key"$'\t'"$v")
			continue
		fi
		[ -n "${SP_VAL[$key]+x}" ] || SP_ORDER+=("$key")
		SP_VAL[$key]=$v
		SP_FROM[$key]=$org
	done
}

# scen_plan_effects: what each effective setting does (see the tables).
scen_plan_effects() {
	local key v type effect min rc=0
	for key in "${SP_ORDER[@]}"; do
		v=${SP_VAL[$key]}
		read -r type effect min <<<"$(scen_spec "$key")"
		case $effect in
		ncpus | smp | hotplug | maxcpus) SP[$effect]=$v ;;
		# CONFIG_PREEMPT=y wins over the other choices of the kernel's menu.
		preempt) if [ "$v" = y ]; then SP[preempt]=y; else SP[preempt]=${SP[preempt]:-n}; fi ;;
		nopreempt) [ "$v" != y ] || SP[preempt]=${SP[preempt]:-n} ;;
		debug) [ "$v" != y ] || SP[debug]=1 ;;
		san:*)
			[ "$v" = y ] || continue
			if [ -n "${SP[san]:-}" ] && [ "${SP[san]}" != "${effect#san:}" ]; then
				echo "${SP_FROM[$key]}: $key=y: cannot be combined with another sanitizer" >&2
				rc=2
			fi
			SP[san]=${effect#san:} ;;
		param:*) SP_DFLT[${effect#param:}]=$(scen_param_value "$v") ;;
		pass) SP_ARGS+=("$key=$v") ;;
		ignored)
			# Saying "=n" of a kernel-only option is only noise.
			[ "$v" != n ] || continue
			SP_NOTES+=("$key${v:+=$v}: no userspace meaning: ignored (${SP_FROM[$key]})") ;;
		esac
	done
	: "$type" "$min"
	return "$rc"
}

# scen_plan_defaults DURATION HOSTCPUS: the CPU count and the defaults the
# kernel's scripts (ver_functions.sh) and rcutorture itself would use.
scen_plan_defaults() {
	local duration=$1 n ttype
	# CPUs (threads): 1 without SMP, else CONFIG_NR_CPUS, else the host's;
	# boot maxcpus= and nr_cpus= clip it, as in the kernel.
	[ "${SP[smp]:-}" != n ] || SP[ncpus]=1
	n=${SP[ncpus]:-$2}
	[ -z "${SP[maxcpus]:-}" ] || ((SP[maxcpus] >= n)) || n=${SP[maxcpus]}
	[ -z "${SP_VAL[nr_cpus]:-}" ] || ((SP_VAL[nr_cpus] >= n)) || n=${SP_VAL[nr_cpus]}
	SP[ncpus]=$n
	if [ -n "${SP_VAL[CONFIG_NR_CPUS]:-}" ] || [ "${SP[smp]:-}" = n ]; then
		SP_DFLT[nr_cpus]=$([ "${SP[smp]:-}" = n ] && echo 1 || echo "${SP_VAL[CONFIG_NR_CPUS]}")
	fi

	duration=${SP_VAL[rcutorture.shutdown_secs]:-$duration}
	SP[duration]=$duration
	if [ "${SP[preempt]:-}" = n ]; then ttype=sched; else ttype=rcu; fi
	SP[type]=${SP_VAL[rcutorture.torture_type]:-$ttype}
	SP_DFLT[rcutorture.torture_type]=${SP[type]}
	SP_DFLT[rcutorture.nreaders]=$((n > 1 ? n - 1 : 1))
	if [ "${SP[hotplug]:-}" = y ] && ! [[ " ${SP_ORDER[*]}" == *" rcutorture.onoff_"* ]]; then
		SP_DFLT[rcutorture.onoff_interval]=1000
		SP_DFLT[rcutorture.onoff_holdoff]=$((duration / 4 < 30 ? duration / 4 : 30))
	fi
	SP_DFLT[rcutorture.stat_interval]=$(scen_stat_interval "$duration" "${SP_VAL[rcutorture.stutter]:-5}")
	SP_DFLT[rcutorture.n_barrier_cbs]=4
	SP_DFLT[rcutorture.shutdown_secs]=$duration
}

# scen_plan_print NAME: the plan's lines.
scen_plan_print() {
	local k
	echo "name $1"
	echo "type ${SP[type]}"
	echo "ncpus ${SP[ncpus]}"
	echo "duration ${SP[duration]}"
	echo "build $(scen_build_tag "${SP[debug]:-}" "${SP[san]:-}")"
	[ -z "${SP[debug]:-}" ] || echo "make DEBUG=1"
	[ -z "${SP[san]:-}" ] || echo "make SAN=${SP[san]}"
	for k in rcutorture.torture_type nr_cpus rcutree.rcu_fanout rcutree.rcu_fanout_leaf \
		rcutree.rcu_fanout_exact debug_objects rcupdate.rcu_cpu_stall_timeout \
		rcupdate.rcu_exp_cpu_stall_timeout rcupdate.rcu_cpu_stall_info \
		rcupdate.rcu_cpu_stall_verbose rcutorture.nreaders \
		rcutorture.onoff_interval rcutorture.onoff_holdoff rcutorture.stat_interval \
		rcutorture.n_barrier_cbs rcutorture.shutdown_secs; do
		if [ -n "${SP_DFLT[$k]+x}" ] && [ -z "${SP_VAL[$k]+x}" ]; then echo "arg $k=${SP_DFLT[$k]}"; fi
	done
	for k in "${SP_ARGS[@]}"; do echo "arg $k"; done
	for k in "${SP_ORDER[@]}"; do echo "fragment $k${SP_VAL[$k]:+=${SP_VAL[$k]}}"; done
	for k in "${SP_NOTES[@]}"; do echo "note $k"; done
}

# scen_stat_interval DURATION STUTTER: the default seconds between stats
# blocks: 15 as the kernel's scripts, a quarter of runs under a minute,
# but never less than a stutter pause plus 10 s: as with the kernel's 15 s
# and 5 s pauses, every interval then holds 10 s of running writer, and
# "ver:" must grow from one block to the next (the judges' GP HANG check).
scen_stat_interval() {
	local d=$1 st=$2 i=15
	((d >= 60)) || i=$((d / 4))
	((st <= 0 || i >= st + 10)) || i=$((st + 10))
	echo $((i > 0 ? i : 1))
}

# scen_run_checks: every #CHECK# against the effective values.  An unset
# bool reads as n.
scen_run_checks() {
	local c org key want have rc=0
	for c in "${SP_CHECKS[@]}"; do
		IFS=$'\t' read -r org key want <<<"$c"
		if [ -n "${SP_VAL[$key]+x}" ]; then
			have=${SP_VAL[$key]}
		elif [[ $(scen_spec "$key") == bool* ]]; then
			have=n
		else
			have="(not set)"
		fi
		[ "$have" != "$want" ] || continue
		printf '%s: #CHECK#%s=%s: effective value is %s%s\n' "$org" "$key" "$want" "$have" \
			"${SP_FROM[$key]:+ (from ${SP_FROM[$key]})}" >&2
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
