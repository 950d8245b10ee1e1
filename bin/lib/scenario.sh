# shellcheck shell=bash
# bin/lib/scenario.sh - scenario files: reading them as the kernel's
# scripts do, a model of the Kconfig options that matter, and the plan for
# one run.  Sourced, never run.
#
# A scenario directory is laid out as the kernel's
# tools/testing/selftests/rcutorture/configs/rcu: CFcommon (Kconfig lines
# for every scenario), CFLIST (the default list), NAME (Kconfig lines) and
# NAME.boot (boot arguments).  The configuration is, later winning,
# CFcommon, NAME, then --kconfig; the boot arguments NAME.boot, then
# --bootargs.  Another file whose first line that is not a comment has no
# '=' is a list of scenarios, like CFLIST (the project's "quick").
#
# Kconfig lines are CONFIG_X=VALUE, "# CONFIG_X is not set", a comment or
# #CHECK#CONFIG_X=VALUE (an assertion about the final configuration, with
# the kernel's derivations: see scen_derive); anything else is an error.
# Options this project does not know are noted and ignored.  Boot
# arguments are checked by the rcutorture program itself (--check: one
# list of parameters, see torture/INTERFACE.md); scen_check applies its
# findings.
#
# The plan (scen_plan's output) is one "FIELD VALUE" a line:
#   name NAME           type T (the torture type run)   ncpus N (threads)
#   duration S          build TAG (the build folder)    make VAR=VAL (its make variables)
#   check TOKEN<TAB>ORIGIN  a boot argument to check, where it came from
#   arg TOKEN           one argument of the run (after scen_check)
#   fragment LINE       the effective configuration (ConfigFragment)
#   note TEXT           something the log should say
#   skip REASON         the run cannot happen here (SKIPPED)

SCENARIO_DIR=${TORTURE_SCENARIO_DIR:-$TORTURE_TOP/scenarios}

# Kconfig options this project knows: NAME TYPE EFFECT.
#   TYPE    bool (y/n), tristate (y/n/m), int
#   EFFECT  model (the kernel's derivations read it: scen_derive), ncpus,
#           debug (a DEBUG=1 build), san:KIND (a SAN=KIND build),
#           weakmem (a WEAKMEM=1 build: docs/design/weakmem.md),
#           param:NAME (the default of that boot parameter), ignored (no
#           userspace meaning: noted), derived (the kernel computes it
#           from others: a setting has no effect)
scen_config_table() {
	cat <<'EOF'
SMP                         bool      model
NR_CPUS                     int       ncpus
MAXSMP                      bool      model
PREEMPT_NONE                bool      model
PREEMPT_VOLUNTARY           bool      model
PREEMPT                     bool      model
PREEMPT_LAZY                bool      model
PREEMPT_RT                  bool      model
PREEMPT_DYNAMIC             bool      model
HOTPLUG_CPU                 bool      model
PROVE_LOCKING               bool      model
DEBUG_ATOMIC_SLEEP          bool      model
DEBUG_LOCK_ALLOC            bool      model
RCU_EXPERT                  bool      model
FORCE_TASKS_RCU             bool      model
FORCE_TASKS_RUDE_RCU        bool      model
FORCE_TASKS_TRACE_RCU       bool      model
RCU_TORTURE_TEST            tristate  model
RCU_REF_SCALE_TEST          tristate  model
RCU_SCALE_TEST              tristate  model
KASAN                       bool      san:address
KCSAN                       bool      san:thread
WEAKMEM                     bool      weakmem
RCU_FANOUT                  int       param:rcutree.rcu_fanout
RCU_FANOUT_LEAF             int       param:rcutree.rcu_fanout_leaf
RCU_FANOUT_EXACT            bool      param:rcutree.rcu_fanout_exact
DEBUG_OBJECTS_RCU_HEAD      bool      param:debug_objects
PREEMPTION                  bool      derived
PREEMPT_BUILD               bool      derived
PREEMPT_COUNT               bool      derived
PREEMPT_RCU                 bool      derived
TREE_RCU                    bool      derived
TINY_RCU                    bool      derived
TREE_SRCU                   bool      derived
TINY_SRCU                   bool      derived
PROVE_RCU                   bool      derived
RCU_STALL_COMMON            bool      derived
TASKS_RCU                   bool      derived
TASKS_RUDE_RCU              bool      derived
TASKS_TRACE_RCU             bool      derived
PRINTK_TIME                 bool      ignored
HYPERVISOR_GUEST            bool      ignored
PARAVIRT                    bool      ignored
KVM_GUEST                   bool      ignored
EXPERT                      bool      ignored
KPROBES                     bool      ignored
FTRACE                      bool      ignored
NO_HZ_IDLE                  bool      ignored
NO_HZ_FULL                  bool      model
NO_HZ_FULL_ALL              bool      ignored
NO_HZ_FULL_SYSIDLE          bool      ignored
HZ_PERIODIC                 bool      ignored
HZ                          int       ignored
RCU_FAST_NO_HZ              bool      ignored
RCU_NOCB_CPU                bool      model
RCU_NOCB_CPU_NONE           bool      model
RCU_NOCB_CPU_ZERO           bool      model
RCU_NOCB_CPU_ALL            bool      model
RCU_NOCB_CPU_DEFAULT_ALL    bool      model
RCU_LAZY                    bool      param:rcutree.enable_rcu_lazy
RCU_TRACE                   bool      ignored
RCU_BOOST                   bool      model
RCU_BOOST_DELAY             int       param:rcutree.rcu_boost_delay
RCU_KTHREAD_PRIO            int       param:rcutree.kthread_prio
RCU_CPU_STALL_TIMEOUT       int       param:rcupdate.rcu_cpu_stall_timeout
RCU_EXP_CPU_STALL_TIMEOUT   int       param:rcupdate.rcu_exp_cpu_stall_timeout
RCU_CPU_STALL_INFO          bool      param:rcupdate.rcu_cpu_stall_info
RCU_CPU_STALL_VERBOSE       bool      param:rcupdate.rcu_cpu_stall_verbose
RCU_EQS_DEBUG               bool      ignored
RCU_DYNTICKS_TORTURE        bool      ignored
RCU_STRICT_GRACE_PERIOD     bool      ignored
RCU_TORTURE_TEST_SLOW_INIT  bool      ignored
RCU_TORTURE_TEST_SLOW_PREINIT bool    ignored
RCU_TORTURE_TEST_SLOW_CLEANUP bool    ignored
RCU_TORTURE_TEST_CHK_RDR_STATE bool   ignored
RCU_TORTURE_TEST_LOG_CPU    bool      ignored
RCU_TORTURE_TEST_LOG_GP     bool      ignored
TASKS_TRACE_RCU_READ_MB     bool      param:rcupdate.rcu_tasks_trace_read_mb
TRIVIAL_PREEMPT_RCU         bool      model
CPUMASK_OFFSTACK            bool      ignored
SUSPEND                     bool      ignored
HIBERNATION                 bool      ignored
DEBUG_KERNEL                bool      ignored
DEBUG_OBJECTS               bool      ignored
PROVE_RCU_LIST              bool      ignored
KCSAN_ASSUME_PLAIN_WRITES_ATOMIC bool ignored
KCSAN_REPORT_VALUE_CHANGE_ONLY   bool ignored
KCSAN_INTERRUPT_WATCHER     bool      ignored
EOF
}

declare -gA SCEN_CONFIG=()
scen_load_table() {
	local name rest
	while read -r name rest; do SCEN_CONFIG[$name]=$rest; done < <(scen_config_table)
}
scen_load_table

# scen_relpath FILE: FILE relative to the top folder, for messages.
scen_relpath() {
	echo "${1#"$TORTURE_TOP"/}"
}

# ------------------------------------------------------------------
# Reading.  A record is "ORIGIN<TAB>OP<TAB>KEY<TAB>VALUE": OP set or check
# (Kconfig: KEY is CONFIG_X) or boot (KEY is the whole token).  Errors go
# to stderr as "ORIGIN: TEXT: reason".

# scen_kvalue_ok VALUE: a Kconfig value: y, n, m, an integer or "string".
scen_kvalue_ok() {
	[[ $1 =~ ^([ynm]|-?[0-9]+|0x[0-9a-fA-F]+|\"[^\"]*\")$ ]]
}

# scen_kconfig_item ORIGIN TEXT: one Kconfig line (or --kconfig token).
scen_kconfig_item() {
	local origin=$1 t=$2 op=set
	if [[ $t == '#CHECK#'* ]]; then
		op=check t=${t#'#CHECK#'}
	elif [[ $t =~ ^#\ (CONFIG_[A-Za-z0-9_]+)\ is\ not\ set ]]; then
		t=${BASH_REMATCH[1]}=n
	elif [[ $t == '#'* ]]; then
		return 0
	fi
	if ! [[ $t =~ ^CONFIG_[A-Za-z0-9_]+=(.*)$ ]]; then
		printf '%s: %s: not CONFIG_X=value, a comment or #CHECK#CONFIG_X=value\n' "$origin" "$2" >&2
		return 2
	fi
	if ! scen_kvalue_ok "${t#*=}"; then
		printf "%s: %s: bad value '%s' (expected y, n, m, a number or \"text\")\n" \
			"$origin" "$2" "${t#*=}" >&2
		return 2
	fi
	printf '%s\t%s\t%s\t%s\n' "$origin" "$op" "${t%%=*}" "${t#*=}"
}

# scen_read_kconfig FILE: records for every line of a Kconfig file.
scen_read_kconfig() {
	local file=$1 where line n=0 rc=0
	where=$(scen_relpath "$file")
	[ -r "$file" ] || { echo "$where: cannot read" >&2; return 2; }
	while IFS= read -r line || [ -n "$line" ]; do
		n=$((n + 1))
		line=${line%$'\r'}
		line=${line#"${line%%[![:space:]]*}"}
		line=${line%"${line##*[![:space:]]}"}
		[ -n "$line" ] || continue
		scen_kconfig_item "$where:$n" "$line" || rc=2
	done <"$file"
	return "$rc"
}

# scen_boot_tokens ORIGIN TEXT: a record per boot argument in TEXT.
scen_boot_tokens() {
	local tok
	local -a toks
	read -ra toks <<<"$2" || true
	for tok in ${toks[@]+"${toks[@]}"}; do
		printf '%s\tboot\t%s\t\n' "$1" "$tok"
	done
}

# scen_read_boot FILE: records of a NAME.boot file (lines starting with #
# are comments, as kvm.sh's grep -v '^#').
scen_read_boot() {
	local file=$1 where line n=0
	where=$(scen_relpath "$file")
	[ -r "$file" ] || { echo "$where: cannot read" >&2; return 2; }
	while IFS= read -r line || [ -n "$line" ]; do
		n=$((n + 1))
		[[ $line != '#'* ]] || continue
		scen_boot_tokens "$where:$n" "${line%$'\r'}"
	done <"$file"
}

# scen_arg_tokens ORIGIN KIND TEXT: command-line tokens (--kconfig: all
# Kconfig; --bootargs: boot arguments, where CONFIG_X=y also counts as
# --kconfig).
scen_arg_tokens() {
	local origin=$1 kind=$2 tok rc=0
	local -a toks
	read -ra toks <<<"$3" || true
	for tok in ${toks[@]+"${toks[@]}"}; do
		if [ "$kind" = kconfig ] || [[ $tok == CONFIG_* || $tok == '#CHECK#'* ]]; then
			scen_kconfig_item "$origin" "$tok" || rc=2
		else
			printf '%s\tboot\t%s\t\n' "$origin" "$tok"
		fi
	done
	return "$rc"
}

# scen_exists NAME: is there a scenario (a Kconfig file) NAME?
scen_exists() {
	[[ $1 =~ ^[A-Za-z0-9][A-Za-z0-9_.+-]*$ ]] && [[ $1 != *.boot ]] &&
		[ "$1" != CFcommon ] && [ -f "$SCENARIO_DIR/$1" ] && ! scen_is_list "$1"
}

# scen_is_list NAME: is NAME a list of scenarios (CFLIST, quick, ...)?
scen_is_list() {
	local first
	[[ $1 =~ ^[A-Za-z0-9][A-Za-z0-9_.+-]*$ ]] && [ -f "$SCENARIO_DIR/$1" ] || return 1
	[ "$1" = CFLIST ] && return 0
	first=$(grep -v -m1 -e '^[[:space:]]*#' -e '^[[:space:]]*$' "$SCENARIO_DIR/$1" 2>/dev/null) || return 1
	[[ $first != *=* ]]
}

# scen_list_names NAME: the names in list NAME, on one line.
scen_list_names() {
	sed -e 's/#.*//' "$SCENARIO_DIR/$1" | tr -s ' \t\n' ' '
}

# scen_records NAME [OPTION TEXT]...: the records of CFcommon, NAME, each
# --kconfig, NAME.boot and each --bootargs, in that order (later wins
# within the Kconfig lines and within the boot arguments).
scen_records() {
	local name=$1 rc=0 i
	shift
	local -a extra=("$@")
	scen_exists "$name" || { echo "$name: no such scenario (in $(scen_relpath "$SCENARIO_DIR"))" >&2; return 2; }
	if [ -f "$SCENARIO_DIR/CFcommon" ]; then
		scen_read_kconfig "$SCENARIO_DIR/CFcommon" || rc=2
	fi
	scen_read_kconfig "$SCENARIO_DIR/$name" || rc=2
	for ((i = 0; i + 1 < ${#extra[@]}; i += 2)); do
		[ "${extra[i]}" != --kconfig ] || scen_arg_tokens --kconfig kconfig "${extra[i + 1]}" || rc=2
	done
	if [ -f "$SCENARIO_DIR/$name.boot" ]; then
		scen_read_boot "$SCENARIO_DIR/$name.boot" || rc=2
	fi
	for ((i = 0; i + 1 < ${#extra[@]}; i += 2)); do
		[ "${extra[i]}" = --kconfig ] || scen_arg_tokens "${extra[i]}" boot "${extra[i + 1]}" || rc=2
	done
	return "$rc"
}

# ------------------------------------------------------------------
# The configuration.  SP_VAL/SP_FROM: the Kconfig settings (CONFIG_X ->
# value, origin); SP_EFF: the value the kernel would end up with for every
# option it models (explicit, default or derived); SP_WHY: how a derived
# one is computed; SP_BOOT/SP_BOOTFROM: the boot arguments in order;
# SP_BV: the last value of each boot parameter.
declare -gA SP_VAL=() SP_FROM=() SP_EFF=() SP_WHY=() SP_BV=() SP=()
declare -ga SP_ORDER=() SP_CHECKS=() SP_BOOT=() SP_BOOTFROM=() SP_NOTES=() SP_ARGS=() SP_ARGFROM=()

# scen_plan_read < records: merge (later wins), keep checks and boot args.
scen_plan_read() {
	local org op key v
	while IFS=$'\t' read -r org op key v; do
		case $op in
		check) SP_CHECKS+=("$org"$'\t'"$key"$'\t'"$v") ;;
		boot)
			SP_BOOT+=("$key")
			SP_BOOTFROM+=("$org")
			if [[ $key == *=* ]]; then SP_BV[${key%%=*}]=${key#*=}; else SP_BV[$key]=; fi ;;
		set)
			[ -n "${SP_VAL[$key]+x}" ] || SP_ORDER+=("$key")
			SP_VAL[$key]=$v
			SP_FROM[$key]=$org ;;
		esac
	done
}

# scen_y NAME: is CONFIG_NAME y in the final configuration?
scen_y() {
	[ "${SP_EFF[$1]:-n}" = y ]
}

# scen_visible NAME DEFAULT: SP_EFF[NAME] is its setting, else DEFAULT.
scen_visible() {
	SP_EFF[$1]=${SP_VAL[CONFIG_$1]:-$2}
}

# scen_derived NAME COND RULE: SP_EFF[NAME] from the shell condition COND;
# SP_WHY says how the kernel gets it.
scen_derived() {
	if eval "$2"; then SP_EFF[$1]=y; else SP_EFF[$1]=n; fi
	SP_WHY[$1]="the kernel derives it: $3"
}

# scen_derive: SP_EFF for the options the kernel's Kconfig (x86_64
# defconfig base, as kvm.sh) settles from the scenario: defaults of the
# visible ones, then the derived ones with the kernel's rules
# (kernel/rcu/Kconfig, kernel/Kconfig.preempt, lockdep's selects).
# Architecture defaults are not modelled (PREEMPT_DYNAMIC is n unless set).
scen_derive() {
	local k m models=''
	for k in RCU_EXPERT MAXSMP PREEMPT_RT PREEMPT_DYNAMIC PROVE_LOCKING DEBUG_ATOMIC_SLEEP \
		FORCE_TASKS_RCU FORCE_TASKS_RUDE_RCU FORCE_TASKS_TRACE_RCU KASAN KCSAN WEAKMEM \
		RCU_FANOUT_EXACT DEBUG_OBJECTS_RCU_HEAD RCU_TORTURE_TEST RCU_LAZY; do
		scen_visible "$k" n
	done
	scen_visible SMP y
	if scen_y SMP; then
		scen_visible NR_CPUS 64
		# MAXSMP fixes NR_CPUS at its maximum.
		if scen_y MAXSMP; then
			[ -z "${SP_VAL[CONFIG_NR_CPUS]:-}" ] || [ "${SP_VAL[CONFIG_NR_CPUS]}" = 8192 ] ||
				SP_NOTES+=("CONFIG_NR_CPUS=${SP_VAL[CONFIG_NR_CPUS]}: CONFIG_MAXSMP=y makes it 8192 (${SP_FROM[CONFIG_NR_CPUS]})")
			SP_EFF[NR_CPUS]=8192
		fi
		scen_visible HOTPLUG_CPU y
	else
		SP_EFF[NR_CPUS]=1 SP_EFF[HOTPLUG_CPU]=n
	fi

	# The preemption model: one choice, PREEMPT_NONE by default.
	for m in PREEMPT PREEMPT_LAZY PREEMPT_VOLUNTARY PREEMPT_NONE; do
		SP_EFF[$m]=n
		[ "${SP_VAL[CONFIG_$m]:-}" != y ] || models+=" $m"
	done
	read -r m _ <<<"$models"
	SP_EFF[${m:-PREEMPT_NONE}]=y
	if [[ $models == *" "*" "* ]]; then
		SP_NOTES+=("several preemption models are set (${models# }): CONFIG_$m wins")
	fi

	scen_derived PREEMPTION 'scen_y PREEMPT || scen_y PREEMPT_LAZY || scen_y PREEMPT_RT' \
		"PREEMPT || PREEMPT_LAZY || PREEMPT_RT"
	scen_derived PREEMPT_BUILD 'scen_y PREEMPTION || scen_y PREEMPT_DYNAMIC' \
		"PREEMPTION || PREEMPT_DYNAMIC"
	scen_derived PREEMPT_COUNT 'scen_y PREEMPT_BUILD || scen_y DEBUG_ATOMIC_SLEEP || scen_y PROVE_LOCKING' \
		"PREEMPT_BUILD || DEBUG_ATOMIC_SLEEP || PROVE_LOCKING"
	scen_derived PREEMPT_RCU 'scen_y PREEMPT || scen_y PREEMPT_RT || scen_y PREEMPT_DYNAMIC' \
		"PREEMPT || PREEMPT_RT || PREEMPT_DYNAMIC"
	scen_derived TREE_RCU 'scen_y SMP || scen_y PREEMPT_RCU' "SMP || PREEMPT_RCU"
	scen_derived TINY_RCU '! scen_y PREEMPT_RCU && ! scen_y SMP' "!PREEMPT_RCU && !SMP"
	scen_derived TREE_SRCU 'scen_y SMP' "SMP"
	scen_derived TINY_SRCU '! scen_y SMP' "!SMP"
	scen_derived PROVE_RCU 'scen_y PROVE_LOCKING' "PROVE_LOCKING"
	scen_derived RCU_STALL_COMMON 'scen_y TREE_RCU' "TREE_RCU"
	# TASKS_RCU: the kernel's default NEED_TASKS_RCU && PREEMPTION, where
	# NEED_TASKS_RCU is selected by tracing, kprobes and BPF, which the
	# kernel's rcutorture builds have.
	scen_derived TASKS_RCU 'scen_y FORCE_TASKS_RCU || scen_y PREEMPTION' \
		"FORCE_TASKS_RCU || PREEMPTION (NEED_TASKS_RCU, selected by tracing)"
	for k in TASKS_RUDE_RCU TASKS_TRACE_RCU; do
		scen_derived "$k" "scen_y FORCE_$k" "FORCE_$k (its other users are not modelled)"
	done
	# Callback offloading: as set, or selected by NO_HZ_FULL; the CPUs
	# offloaded by default (scen_nocb).
	for k in NO_HZ_FULL RCU_NOCB_CPU RCU_NOCB_CPU_NONE RCU_NOCB_CPU_ZERO RCU_NOCB_CPU_ALL \
		RCU_NOCB_CPU_DEFAULT_ALL; do
		scen_visible "$k" n
	done
	! scen_y NO_HZ_FULL || SP_EFF[RCU_NOCB_CPU]=y
	# Selected by PROVE_LOCKING, else as set.
	scen_visible DEBUG_LOCK_ALLOC n
	! scen_y PROVE_LOCKING || SP_EFF[DEBUG_LOCK_ALLOC]=y
	# The tree's shape is RCU_EXPERT territory: without it, the defaults.
	for k in RCU_FANOUT:64 RCU_FANOUT_LEAF:16; do
		m=${k%:*}
		SP_EFF[$m]=${k#*:}
		if scen_y RCU_EXPERT && scen_y TREE_RCU; then
			scen_visible "$m" "${k#*:}"
		elif [ -n "${SP_VAL[CONFIG_$m]:-}" ]; then
			SP_NOTES+=("CONFIG_$m=${SP_VAL[CONFIG_$m]}: needs CONFIG_RCU_EXPERT=y and TREE_RCU (the kernel ignores it without): ignored (${SP_FROM[CONFIG_$m]})")
		fi
	done
	# The kernel builds rcutorture's trivial-preempt type only with it,
	# which needs RCU_EXPERT && RCU_TORTURE_TEST (scen_type).
	SP_EFF[TRIVIAL_PREEMPT_RCU]=n
	if scen_y RCU_EXPERT && [ "${SP_EFF[RCU_TORTURE_TEST]}" != n ]; then
		scen_visible TRIVIAL_PREEMPT_RCU n
	elif [ "${SP_VAL[CONFIG_TRIVIAL_PREEMPT_RCU]:-n}" = y ]; then
		SP_NOTES+=("CONFIG_TRIVIAL_PREEMPT_RCU=y: needs RCU_EXPERT and RCU_TORTURE_TEST (the kernel ignores it without): ignored (${SP_FROM[CONFIG_TRIVIAL_PREEMPT_RCU]})")
	fi
	# Priority boosting: (PREEMPT_RCU && RCU_EXPERT) || PREEMPT_RT, as set
	# (PREEMPT_RT's default y): the library's rcutree.rcu_boost
	# (scen_boost_args), which rcutorture's default test_boost=1 tests.
	SP_EFF[RCU_BOOST]=n
	if scen_y PREEMPT_RCU && scen_y RCU_EXPERT || scen_y PREEMPT_RT; then
		scen_visible RCU_BOOST "$(scen_y PREEMPT_RT && echo y || echo n)"
	elif [ "${SP_VAL[CONFIG_RCU_BOOST]:-n}" = y ]; then
		SP_NOTES+=("CONFIG_RCU_BOOST=y: needs PREEMPT_RCU and RCU_EXPERT (the kernel ignores it without): ignored (${SP_FROM[CONFIG_RCU_BOOST]})")
	fi
}

# scen_kconfig_effects: notes for the Kconfig settings (unknown, no
# userspace meaning, derived ones set by hand); build variants; the boot
# parameters they stand for.  Fails after printing conflicts.
scen_kconfig_effects() {
	local key v type effect name rc=0
	for key in "${SP_ORDER[@]}"; do
		v=${SP_VAL[$key]} name=${key#CONFIG_}
		read -r type effect <<<"${SCEN_CONFIG[$name]:-unknown unknown}"
		case $effect in
		unknown)
			SP_NOTES+=("$key=$v: a Kconfig option this project does not know: ignored (${SP_FROM[$key]})") ;;
		ignored)
			[ "$v" = n ] || SP_NOTES+=("$key=$v: no userspace meaning: ignored (${SP_FROM[$key]})") ;;
		derived)
			[ "$v" = "${SP_EFF[$name]}" ] ||
				SP_NOTES+=("$key=$v: ${SP_WHY[$name]} (${SP_EFF[$name]} here): the setting has no effect (${SP_FROM[$key]})") ;;
		*)
			if [ "$type" = int ] && ! [[ $v =~ ^[0-9]+$ ]]; then
				echo "${SP_FROM[$key]}: $key=$v: bad value '$v' (expected a number)" >&2
				rc=2
			elif [[ $type == bool && $v != [yn] ]] || [[ $type == tristate && $v != [ynm] ]]; then
				echo "${SP_FROM[$key]}: $key=$v: bad value '$v' (expected y or n$([ "$type" = bool ] || echo ' or m'))" >&2
				rc=2
			fi ;;
		esac
	done
	if scen_y KASAN && scen_y KCSAN; then
		echo "${SP_FROM[CONFIG_KCSAN]}: CONFIG_KCSAN=y: cannot be combined with CONFIG_KASAN=y (one sanitizer a build)" >&2
		rc=2
	fi
	for name in KASAN KCSAN; do
		if scen_y WEAKMEM && scen_y "$name"; then
			echo "${SP_FROM[CONFIG_WEAKMEM]}: CONFIG_WEAKMEM=y: cannot be combined with CONFIG_$name=y (the emulation hides what a sanitizer looks for)" >&2
			rc=2
		fi
	done
	return "$rc"
}

# scen_run_checks: every #CHECK# against the final configuration.  An
# option without a model here is noted as not checked.
scen_run_checks() {
	local c org key want have name type rc=0
	for c in ${SP_CHECKS[@]+"${SP_CHECKS[@]}"}; do
		IFS=$'\t' read -r org key want <<<"$c"
		name=${key#CONFIG_}
		type=${SCEN_CONFIG[$name]:-}
		type=${type%% *}
		if [ -n "${SP_EFF[$name]+x}" ]; then
			have=${SP_EFF[$name]}
		elif [ -n "${SP_VAL[$key]+x}" ]; then
			have=${SP_VAL[$key]}
		elif [[ $type == bool || $type == tristate ]]; then
			have=n
		else
			SP_NOTES+=("#CHECK#$key=$want: not checked (no model of $key here) ($org)")
			continue
		fi
		[ "$have" != "$want" ] || continue
		printf '%s: #CHECK#%s=%s: effective value is %s%s\n' "$org" "$key" "$want" "$have" \
			"$(scen_check_why "$key")" >&2
		rc=2
	done
	return "$rc"
}

# scen_check_why KEY: where an effective value came from, for messages.
scen_check_why() {
	local name=${1#CONFIG_}
	if [ -n "${SP_WHY[$name]:-}" ]; then
		echo " (${SP_WHY[$name]}${SP_FROM[$1]:+; the setting at ${SP_FROM[$1]} has no effect})"
	elif [ -n "${SP_FROM[$1]:-}" ]; then
		echo " (from ${SP_FROM[$1]})"
	else
		echo " (the default)"
	fi
}

# ------------------------------------------------------------------
# The run: CPUs, torture type, boot arguments with the kernel scripts'
# defaults, build.

# scen_ncpus: the CPU count as kvm.sh computes it: 1 without SMP, else
# CONFIG_NR_CPUS (the kernel's default when unset, never this host's),
# clipped by the boot arguments' nr_cpus= (possible CPUs: the library's
# thread slots) and maxcpus= (CPUs online at the start: the threads).
scen_ncpus() {
	local possible=${SP_EFF[NR_CPUS]} v
	v=${SP_BV[nr_cpus]:-}
	[[ ! $v =~ ^[0-9]+$ ]] || ((10#$v >= possible)) || possible=$((10#$v))
	SP[possible]=$possible
	SP[ncpus]=$possible
	v=${SP_BV[maxcpus]:-}
	[[ ! $v =~ ^[0-9]+$ ]] || ((10#$v >= possible || 10#$v < 1)) || SP[ncpus]=$((10#$v))
}

# scen_type: the torture type; "" and a skip reason when it cannot run.
# Without preemptible RCU the kernel's rcu type tests the non-preemptible
# flavor, which is sched here.  With CONFIG_TINY_RCU the kernel's rcu,
# rcu_bh, sched and busted types test Tiny RCU: the Tiny build (SP[tiny]).
scen_type() {
	local t=${SP_BV[rcutorture.torture_type]:-rcu}
	SP[type]=$t
	case $t in
	rcu | rcu_bh | sched | busted | rcu_busted)
		if scen_y TINY_RCU; then
			SP[tiny]=1
			SP_NOTES+=("CONFIG_TINY_RCU=y (SMP=n without PREEMPT_RCU): Tiny RCU (make TINY=1), every thread on one CPU under SCHED_FIFO")
			! scen_y PREEMPTION ||
				SP_NOTES+=("CONFIG_PREEMPTION=y with Tiny RCU: the kernel preempts code outside read-side sections; here the threads on the one CPU switch only where they block or yield (readers are not preempted in either)")
		elif [ "$t" = rcu ] && ! scen_y PREEMPT_RCU; then
			SP[type]=sched
			SP_NOTES+=("torture_type=rcu without PREEMPT_RCU: the non-preemptible flavor, torture_type=sched")
		fi ;;
	tasks | tasks-busted)
		scen_y TASKS_RCU ||
			SP_NOTES+=("torture_type=$t without CONFIG_TASKS_RCU: the kernel would not have the type; built here regardless") ;;
	tasks-rude | tasks-rude-busted)
		scen_y TASKS_RUDE_RCU ||
			SP_NOTES+=("torture_type=$t without CONFIG_TASKS_RUDE_RCU: the kernel would not have the type; built here regardless") ;;
	trivial-preempt)
		scen_y TRIVIAL_PREEMPT_RCU ||
			SP_NOTES+=("torture_type=trivial-preempt without CONFIG_TRIVIAL_PREEMPT_RCU: the kernel would not have the type; built here regardless") ;;
	esac
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

# scen_given NAME: was boot parameter NAME given?
scen_given() {
	[ -n "${SP_BV[$1]+x}" ]
}

# scen_default TOKEN: add a default boot argument (origin "(default)").
scen_default() {
	SP_ARGS+=("$1")
	SP_ARGFROM+=("(default)")
}

# scen_param_value VALUE: a Kconfig value as a parameter's: y 1, n 0.
scen_param_value() {
	case $1 in
	y | m) echo 1 ;;
	n) echo 0 ;;
	*) echo "$1" ;;
	esac
}

# scen_arg TOKEN ORIGIN: one more argument to check and run.
scen_arg() {
	SP_ARGS+=("$1")
	SP_ARGFROM+=("$2")
}

# scen_nocb: callback offloading as the kernel sets it up.  Without
# CONFIG_RCU_NOCB_CPU the kernel has no rcu_nocbs=, rcu_nocb_poll or
# rcutree.rcu_nocb_*: noted and left out (SP_NOCB_DROP marks them by
# index in SP_BOOT).  With it, one rcu_nocbs= argument (SP[nocbs], origin
# SP[nocbs_from]) replaces the given ones: their list (the last wins), plus
# the nohz_full= CPUs (the kernel offloads them), plus CPU 0 for
# CONFIG_RCU_NOCB_CPU_ZERO, or all CPUs for CONFIG_RCU_NOCB_CPU_ALL, or for
# CONFIG_RCU_NOCB_CPU_DEFAULT_ALL when neither rcu_nocbs nor nohz_full is
# given.  No rcu_nocbs at all: nothing can be offloaded, not even at run
# time (rcutorture.nocbs_nthreads toggles are then refused).
declare -gA SP_NOCB_DROP=()
scen_nocb() {
	local i tok name list='' from='' part
	local -a parts=() froms=()
	SP_NOCB_DROP=()
	for ((i = 0; i < ${#SP_BOOT[@]}; i++)); do
		tok=${SP_BOOT[i]} name=${SP_BOOT[i]%%=*}
		case $name in
		rcu_nocbs | rcu_nocb_poll | rcutree.rcu_nocb_gp_stride | rcutree.rcu_nocb_leader_stride) ;;
		*) continue ;;
		esac
		if ! scen_y RCU_NOCB_CPU; then
			SP_NOTES+=("$tok: needs CONFIG_RCU_NOCB_CPU=y (the kernel has no such parameter without it): ignored (${SP_BOOTFROM[i]})")
			SP_NOCB_DROP[$i]=1
		elif [ "$name" = rcu_nocbs ]; then
			SP_NOCB_DROP[$i]=1
			parts=("${SP_BV[rcu_nocbs]}") froms=("${SP_BOOTFROM[i]}")
		fi
	done
	scen_y RCU_NOCB_CPU || return 0
	if scen_given nohz_full; then
		parts+=("${SP_BV[nohz_full]}")
		froms+=("nohz_full=${SP_BV[nohz_full]}: the kernel offloads its CPUs")
	fi
	if scen_y RCU_NOCB_CPU_ZERO; then
		parts+=(0) froms+=("CONFIG_RCU_NOCB_CPU_ZERO=y")
	fi
	if scen_y RCU_NOCB_CPU_ALL; then
		parts+=(all) froms+=("CONFIG_RCU_NOCB_CPU_ALL=y")
	elif scen_y RCU_NOCB_CPU_DEFAULT_ALL && ! scen_given rcu_nocbs && ! scen_given nohz_full; then
		parts+=(all) froms+=("CONFIG_RCU_NOCB_CPU_DEFAULT_ALL=y")
	fi
	((${#froms[@]})) || return 0
	for part in ${parts[@]+"${parts[@]}"}; do
		[ -n "$part" ] || continue
		[ "$part" != all ] || { list=all; break; }
		list=${list:+$list,}$part
	done
	for part in "${froms[@]}"; do from=${from:+$from; }$part; done
	SP[nocbs]=rcu_nocbs=$list
	SP[nocbs_from]=$from
}

# scen_foreign_why WORD: what the kernel does with a boot word it does not
# know (init/main.c's unknown_bootoption()): one with a dot before any '='
# is taken for a module's parameter and dropped; others go to init.
scen_foreign_why() {
	local name=${1%%=*}

	if [[ $name == *.* ]]; then
		echo "unknown module parameter (the kernel drops it)"
	else
		echo "unknown kernel parameter (the kernel would pass it to init)"
	fi
}

# scen_kthread_prio: the kernel's sanitize_kthread_prio() in an rcutorture
# kernel: with RCU_BOOST the RCU threads run at real-time priority 2 at
# least (above the boost test's threads), whatever rcutree.kthread_prio
# (or CONFIG_RCU_KTHREAD_PRIO) says.  After the boot arguments: it wins.
scen_kthread_prio() {
	local p=${SP_BV[rcutree.kthread_prio]:-${SP_VAL[CONFIG_RCU_KTHREAD_PRIO]:-0}}

	scen_y RCU_BOOST || return 0
	[[ $p =~ ^[0-9]+$ ]] && ((p >= 2)) && return 0
	scen_arg rcutree.kthread_prio=2 "(CONFIG_RCU_BOOST=y in an rcutorture kernel: at least 2, as sanitize_kthread_prio())"
}

# scen_boot_args DURATION: the arguments to check and run: the kernel
# scripts' defaults (ver_functions.sh) for what is not given, the Kconfig
# options that stand for boot parameters, the boot arguments as given,
# then what the plan settled (the type run, the CPU count).
scen_boot_args() {
	local duration=$1 key i name
	if scen_y HOTPLUG_CPU && ! [[ " ${!SP_BV[*]}" == *" rcutorture.onoff_"* ]]; then
		scen_arg rcutorture.onoff_interval=1000 "(default)"
		scen_arg rcutorture.onoff_holdoff=$((duration / 4 < 30 ? duration / 4 : 30)) "(default)"
	fi
	scen_given rcutorture.n_barrier_cbs || scen_arg rcutorture.n_barrier_cbs=4 "(default)"
	scen_given rcutorture.stat_interval ||
		scen_arg "rcutorture.stat_interval=$(scen_stat_interval "$duration" "${SP_BV[rcutorture.stutter]:-5}")" "(default)"
	scen_given rcutorture.shutdown_secs || scen_arg "rcutorture.shutdown_secs=$duration" "(default)"
	! scen_y RCU_BOOST || scen_given rcutree.rcu_boost ||
		scen_arg rcutree.rcu_boost=1 "(CONFIG_RCU_BOOST=y)"
	for key in "${SP_ORDER[@]}"; do
		read -r _ name <<<"${SCEN_CONFIG[${key#CONFIG_}]:-x x}"
		[[ $name == param:* ]] || continue
		name=${name#param:}
		scen_given "$name" && continue
		# Only what the kernel would take (RCU_FANOUT needs RCU_EXPERT);
		# an option the model does not touch is taken as given.
		[ "${SP_EFF[${key#CONFIG_}]-${SP_VAL[$key]}}" = "${SP_VAL[$key]}" ] || continue
		scen_arg "$name=$(scen_param_value "${SP_VAL[$key]}")" "${SP_FROM[$key]} ($key=${SP_VAL[$key]})"
	done
	scen_nocb
	for ((i = 0; i < ${#SP_BOOT[@]}; i++)); do
		[ -n "${SP_NOCB_DROP[$i]:-}" ] || scen_arg "${SP_BOOT[i]}" "${SP_BOOTFROM[i]}"
	done
	[ -z "${SP[nocbs]:-}" ] || scen_arg "${SP[nocbs]}" "${SP[nocbs_from]}"
	scen_kthread_prio
	[ "${SP_BV[rcutorture.torture_type]:-}" = "${SP[type]}" ] ||
		scen_arg "rcutorture.torture_type=${SP[type]}" "(the torture type)"
	[ "${SP_BV[nr_cpus]:-}" = "${SP[possible]}" ] ||
		scen_arg "nr_cpus=${SP[possible]}" "(the CPU count: NR_CPUS${SP_BV[nr_cpus]:+ and nr_cpus=})"
}

# scen_build_tag DEBUG SAN [TINY [WEAKMEM]]: the build folder's tag:
# plain, debug, asan, tsan, asan-debug, tsan-debug, weakmem, weakmem-debug;
# tiny, tiny-debug ... for Tiny RCU.
scen_build_tag() {
	local tag=
	case $2 in
	address) tag=asan ;;
	thread) tag=tsan ;;
	esac
	[ -z "${4:-}" ] || tag=weakmem
	[ -z "$1" ] || tag=${tag:+$tag-}debug
	[ -z "${3:-}" ] || tag=tiny${tag:+-$tag}
	echo "${tag:-plain}"
}

# scen_plan NAME DURATION < records: the plan (see the top of this
# file), or 2 after the errors on stderr.
scen_plan() {
	local name=$1 duration=$2 rc=0 debug='' san='' weakmem='' i k
	SP_VAL=() SP_FROM=() SP_EFF=() SP_WHY=() SP_BV=() SP=()
	SP_ORDER=() SP_CHECKS=() SP_BOOT=() SP_BOOTFROM=() SP_NOTES=() SP_ARGS=() SP_ARGFROM=()
	scen_plan_read
	scen_derive
	scen_kconfig_effects || rc=2
	scen_run_checks || rc=2
	((rc == 0)) || return "$rc"
	[[ ${SP_BV[rcutorture.shutdown_secs]:-} =~ ^[0-9]+$ ]] && duration=$((10#${SP_BV[rcutorture.shutdown_secs]}))
	scen_ncpus
	scen_type
	scen_boot_args "$duration"
	! scen_y PROVE_RCU || debug=1
	! scen_y KASAN || san=address
	! scen_y KCSAN || san=thread
	! scen_y WEAKMEM || weakmem=1
	echo "name $name"
	echo "type ${SP[type]}"
	echo "ncpus ${SP[ncpus]}"
	echo "duration $duration"
	echo "build $(scen_build_tag "$debug" "$san" "${SP[tiny]:-}" "$weakmem")"
	[ -z "${SP[tiny]:-}" ] || echo "make TINY=1"
	[ -z "$debug" ] || echo "make DEBUG=1"
	[ -z "$weakmem" ] || echo "make WEAKMEM=1"
	[ -z "$san" ] || echo "make SAN=$san"
	[ -z "${SP[skip]:-}" ] || echo "skip ${SP[skip]}"
	for ((i = 0; i < ${#SP_ARGS[@]}; i++)); do
		printf 'check %s\t%s\n' "${SP_ARGS[i]}" "${SP_ARGFROM[i]}"
	done
	for k in "${SP_ORDER[@]}"; do echo "fragment $k=${SP_VAL[$k]}"; done
	for k in ${SP_BOOT[@]+"${SP_BOOT[@]}"}; do echo "fragment $k"; done
	for k in ${SP_NOTES[@]+"${SP_NOTES[@]}"}; do echo "note $k"; done
}

# scen_resolve NAME DURATION [OPTION TEXT]...: the plan for one scenario
# (OPTION: --kconfig, --bootargs, or another origin for boot arguments),
# or 2 after the errors on stderr.
scen_resolve() {
	local name=$1 duration=$2 recs rc=0
	shift 2
	recs=$(scen_records "$name" "$@") || rc=2
	scen_plan "$name" "$duration" <<<"$recs" || rc=2
	return "$rc"
}

# ------------------------------------------------------------------
# Checking the boot arguments with the program (its --check findings,
# torture/INTERFACE.md) and applying what it says.

# scen_check PLANFILE BIN: rewrite the plan: "check" lines become "arg"
# lines (those the program ignores dropped, with a note), skip when the
# type cannot run in this build.  Errors go to stderr as "ORIGIN: TEXT";
# a foreign parameter is an error from the command line, a note from a
# file (the kernel passes such arguments to init).  Returns 2 on errors.
scen_check() {
	local plan=$1 bin=$2 kind n msg rc=0 i org
	local -a toks=() orgs=() drop=() notes=() out=()
	while IFS=$'\t' read -r kind org; do
		toks+=("$kind") orgs+=("$org")
	done < <(plan_get check <"$plan")
	plan_has "$plan" skip && { scen_check_write "$plan" toks drop notes; return 0; }
	# A KCSAN plan is checked as the ThreadSanitizer build would run it
	# (which types it refuses), by the plain build.
	local check=--check
	! grep -qx 'make SAN=thread' "$plan" || check=--check=tsan
	mapfile -t out < <("$bin" "$check" ${toks[@]+"${toks[@]}"} 2>&1; echo "exit $?")
	for msg in "${out[@]}"; do
		# The RCU's own warnings as it starts (--check starts it to
		# number the CPUs: rcutree.kthread_prio refused ...): notes.
		if [[ $msg == "rcu: "* ]]; then
			notes+=("$msg")
			continue
		fi
		if ! [[ $msg =~ ^(error|ignored|unhonoured|foreign|note|skip|exit)\ ([0-9]+):?\ ?(.*)$ ]]; then
			echo "$(plan_get name <"$plan"): $bin --check: $msg" >&2
			rc=2
			continue
		fi
		kind=${BASH_REMATCH[1]} n=${BASH_REMATCH[2]} msg=${BASH_REMATCH[3]}
		org=$(plan_get name <"$plan")
		((n == 0)) || [ "$kind" = exit ] || { org=${orgs[n - 1]}; drop[n - 1]=1; }
		case $kind in
		error) echo "$org: $msg" >&2; rc=2 ;;
		foreign)
			if [[ $org == --* ]]; then
				echo "$org: $msg" >&2
				rc=2
			else
				notes+=("${toks[n - 1]}: $(scen_foreign_why "${toks[n - 1]}"): ignored ($org)")
			fi ;;
		ignored | unhonoured)
			# rcutorture's own stay on the command line: the run
			# lists them, and does not call a test it did not do a
			# SUCCESS (unhonoured).  Others (the RCU's, the
			# kernel's) are dropped with the note.
			# shellcheck disable=SC2034  # scen_check_write reads it by name
			[[ $msg != rcutorture.* ]] || drop[n - 1]=''
			notes+=("$msg ($org)") ;;
		note)
			if ((n == 0)); then
				notes+=("$msg")
			else
				# shellcheck disable=SC2034  # scen_check_write reads it by name
				drop[n - 1]=''
				notes+=("$msg ($org)")
			fi ;;
		skip) notes+=("skip $msg") ;;
		exit) [[ $n == [02] ]] || { echo "$org: $bin --check failed (exit $n)" >&2; rc=2; } ;;
		esac
	done
	((rc == 0)) || return "$rc"
	scen_check_write "$plan" toks drop notes
}

# scen_check_write PLANFILE TOKS DROP NOTES: the checked plan.
scen_check_write() {
	local plan=$1 i n
	local -n _t=$2 _d=$3 _n=$4
	{
		grep -v '^check ' "$plan"
		for ((i = 0; i < ${#_t[@]}; i++)); do
			[ -n "${_d[i]:-}" ] || echo "arg ${_t[i]}"
		done
		for n in ${_n[@]+"${_n[@]}"}; do
			if [[ $n == "skip "* ]]; then echo "$n"; else echo "note $n"; fi
		done
	} >"$plan.new" && mv "$plan.new" "$plan"
}

# plan_get FIELD < plan: the values of FIELD, one a line.
plan_get() {
	sed -n "s/^$1 //p"
}

# plan_has PLANFILE FIELD: does the plan have FIELD?
plan_has() {
	grep -q "^$2 " "$1"
}
