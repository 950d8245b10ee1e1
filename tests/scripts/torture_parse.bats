#!/usr/bin/env bats
# SAN: plain build only (tests scripts, not the sanitized C code)
# Scenario folders laid out as the kernel's configs/rcu (CFcommon, CFLIST,
# NAME + NAME.boot): reading them, the Kconfig model and #CHECK#, the CPU
# count, the torture type, the kernel scripts' defaults; --duration,
# --configs and batch packing.  Small self-written files in the kernel's
# form (the kernel's own are tried by hand: docs/torture.md).

load ../lib/scripts

setup() {
	libs
}

plan_of() {	# plan_of NAME [BOOTARGS]: the plan, 60 s
	scen_resolve "$1" 60 --bootargs "${2:-}"
}

@test "every shipped scenario resolves, with a torture type and a build" {
	local s n=0
	for s in "$TOP"/scenarios/*; do
		[ -f "$s" ] || continue	# refscale/, rcuscale/: the perf suites' folders
		s=${s##*/}
		[[ $s != *.boot ]] && scen_exists "$s" || continue
		run plan_of "$s"
		[ "$status" -eq 0 ] || { echo "$s: $output"; false; }
		[[ $output == *"type "* && $output == *"build "* ]]
		n=$((n + 1))
	done
	((n >= 16))
}

@test "the shipped folder is laid out as the kernel's: CFcommon, CFLIST, NAME + NAME.boot" {
	local s
	for s in TREE01 TREE02 TREE03 TREE04 TREE05 TREE06 TREE07 TREE08 TRIVIAL BUSTED \
		URCU-MEMB URCU-MB URCU-SIGNAL URCU-QSBR URCU-BP; do
		[ -f "$TOP/scenarios/$s" ]
		# Kconfig files hold only Kconfig lines; boot arguments are in NAME.boot.
		! grep -vE '^(#|CONFIG_[A-Z0-9_]+=|$)' "$TOP/scenarios/$s" || { echo "$s"; false; }
	done
	grep -q '^rcutorture.torture_type=busted$' "$TOP/scenarios/BUSTED.boot"
	run list_expand CFLIST quick
	[ "$status" -eq 0 ]
	[[ $output == *TREE01* ]]
	# One name a line and nothing else: CI passes the quick list by name.
	! grep -qv '^[A-Z0-9-]*$' "$TOP/scenarios/CFLIST" "$TOP/scenarios/quick"
	scen_is_list quick && scen_is_list CFLIST && ! scen_is_list TREE01 && ! scen_exists CFcommon
}

@test "reading: Kconfig lines, not-set lines, comments, #CHECK#; a .boot file's tokens and comments" {
	scenario_file GOOD '# a comment
CONFIG_NR_CPUS=4

# CONFIG_HOTPLUG_CPU is not set
#CHECK#CONFIG_NR_CPUS=4
  CONFIG_RCU_FANOUT=3  '
	scenario_file GOOD.boot 'rcutorture.stutter=3 rcutree.gp_init_delay=2
# a comment in a .boot file
threadirqs'
	run scen_read_kconfig "$SCENARIO_DIR/GOOD"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "$SCENARIO_DIR/GOOD:2"$'\t'"set"$'\t'"CONFIG_NR_CPUS"$'\t'"4" ]
	[[ ${lines[1]} == *":4"$'\t'"set"$'\t'"CONFIG_HOTPLUG_CPU"$'\t'"n" ]]
	[[ ${lines[2]} == *":5"$'\t'"check"$'\t'"CONFIG_NR_CPUS"$'\t'"4" ]]
	[[ ${lines[3]} == *":6"$'\t'"set"$'\t'"CONFIG_RCU_FANOUT"$'\t'"3" ]]
	[ ${#lines[@]} -eq 4 ]
	run scen_read_boot "$SCENARIO_DIR/GOOD.boot"
	[ "$status" -eq 0 ]
	[ ${#lines[@]} -eq 3 ]
	[[ ${lines[0]} == *"GOOD.boot:1"$'\t'"boot"$'\t'"rcutorture.stutter=3"$'\t' ]]
	[[ ${lines[2]} == *"GOOD.boot:3"$'\t'"boot"$'\t'"threadirqs"$'\t' ]]
}

@test "a Kconfig line that is not CONFIG_X=value, a comment or #CHECK# is an error naming file and line; all are reported" {
	scenario_file BAD 'CONFIG_NR_CPUS=4
CONFIG_PREEMPT
rcutorture.stutter=3
CONFIG_PREEMPT=maybe
CONFIG_NR_CPUS=abc
CONFIG_NR_CPUS=4 # a trailing comment'
	run scen_resolve BAD 60
	[ "$status" -eq 2 ]
	[[ $output == *"scenarios/BAD:2: CONFIG_PREEMPT: not CONFIG_X=value, a comment or #CHECK#CONFIG_X=value"* ]]
	[[ $output == *"scenarios/BAD:3: rcutorture.stutter=3: not CONFIG_X=value"* ]]
	[[ $output == *"scenarios/BAD:4: CONFIG_PREEMPT=maybe: bad value 'maybe'"* ]]
	[[ $output == *"scenarios/BAD:5: CONFIG_NR_CPUS=abc: bad value 'abc'"* ]]
	[[ $output == *"scenarios/BAD:6: CONFIG_NR_CPUS=4 # a trailing comment: bad value"* ]]
	[ "$(grep -c 'scenarios/BAD:' <<<"$output")" -eq 5 ]
}

@test "Kconfig options this project does not know, and new kernel ones, are noted, never fatal" {
	scenario_file NEW 'CONFIG_SMP=y
CONFIG_NR_CPUS=4
CONFIG_PREEMPT_LAZY=y
CONFIG_PREEMPT_RT=y
CONFIG_PREEMPT_DYNAMIC=n
CONFIG_EXPERT=y
CONFIG_KPROBES=n
CONFIG_FTRACE=n
CONFIG_RCU_DYNTICKS_TORTURE=y
CONFIG_SOMETHING_FROM_2030=y
CONFIG_STRING_OPTION="a b"
CONFIG_NEGATIVE=-1'
	run plan_of NEW
	[ "$status" -eq 0 ]
	[[ $output == *"note CONFIG_SOMETHING_FROM_2030=y: a Kconfig option this project does not know: ignored ("*"/scenarios/NEW:10)"* ]]
	[[ $output == *'note CONFIG_STRING_OPTION="a b": a Kconfig option this project does not know'* ]]
	[[ $output == *"note CONFIG_RCU_DYNTICKS_TORTURE=y: no userspace meaning: ignored"* ]]
	[[ $output == *"note CONFIG_EXPERT=y: no userspace meaning"* ]]
	[[ $output != *"CONFIG_KPROBES=n: "* ]]	# =n of a kernel-only option is no news
	[[ $output == *"type rcu"* ]]	# PREEMPT_RT: preemptible RCU
}

@test "#CHECK# is judged with the kernel's derivations; what cannot be evaluated is noted" {
	scenario_file DER 'CONFIG_SMP=y
CONFIG_PREEMPT_NONE=n
CONFIG_PREEMPT=n
CONFIG_PREEMPT_LAZY=y
CONFIG_PREEMPT_RT=y
CONFIG_PROVE_LOCKING=y
CONFIG_FORCE_TASKS_RCU=y
#CHECK#CONFIG_PREEMPT_RCU=y
#CHECK#CONFIG_TREE_RCU=y
#CHECK#CONFIG_TINY_RCU=n
#CHECK#CONFIG_PROVE_RCU=y
#CHECK#CONFIG_PREEMPT_COUNT=y
#CHECK#CONFIG_TASKS_RCU=y
#CHECK#CONFIG_RCU_EXPERT=n
#CHECK#CONFIG_HOTPLUG_CPU=y
#CHECK#CONFIG_TREE_PREEMPT_RCU=y'
	run plan_of DER
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[[ $output == *"note #CHECK#CONFIG_TREE_PREEMPT_RCU=y: not checked (no model of CONFIG_TREE_PREEMPT_RCU here) ("*"/scenarios/DER:16)"* ]]
	# PREEMPT_LAZY alone is not preemptible RCU (PREEMPT || PREEMPT_RT || PREEMPT_DYNAMIC).
	scenario_file LAZY 'CONFIG_PREEMPT_LAZY=y
CONFIG_PREEMPT=n
#CHECK#CONFIG_TREE_RCU=y
#CHECK#CONFIG_PREEMPT_RCU=y'
	run plan_of LAZY
	[ "$status" -eq 2 ]
	[[ $output == *"/scenarios/LAZY:4: #CHECK#CONFIG_PREEMPT_RCU=y: effective value is n (the kernel derives it: PREEMPT || PREEMPT_RT || PREEMPT_DYNAMIC)" ]]
	# SMP=n without preemptible RCU is Tiny RCU; a derived option set by hand has no effect.
	scenario_file UP 'CONFIG_SMP=n
CONFIG_PREEMPT_NONE=y
CONFIG_TINY_RCU=n
#CHECK#CONFIG_TINY_RCU=y
#CHECK#CONFIG_TREE_RCU=y
#CHECK#CONFIG_RCU_STALL_COMMON=n'
	run plan_of UP
	[ "$status" -eq 2 ]
	[[ $output == *"scenarios/UP:5: #CHECK#CONFIG_TREE_RCU=y: effective value is n (the kernel derives it: SMP || PREEMPT_RCU)"* ]]
	[ "$(grep -c '#CHECK#' <<<"$output")" -eq 1 ]
}

@test "#CHECK# of a setting: the effective value and where it came from, --kconfig after the files" {
	scenario_copy TREE01
	run plan_of TREE01 "CONFIG_HOTPLUG_CPU=n"
	[ "$status" -eq 2 ]
	[[ $output == *"/scenarios/TREE01:"*": #CHECK#CONFIG_HOTPLUG_CPU=y: effective value is n (from --bootargs)" ]]
	run scen_resolve TREE01 60 --kconfig "CONFIG_PREEMPT=n CONFIG_PREEMPT_NONE=y"
	[ "$status" -eq 2 ]
	[[ $output == *"/scenarios/TREE01:"*": #CHECK#CONFIG_PREEMPT=y: effective value is n (from --kconfig)" ]]
	run scen_resolve TREE01 60 --kconfig "#CHECK#CONFIG_SMP=n"
	[ "$status" -eq 2 ]
	[[ $output == "--kconfig: #CHECK#CONFIG_SMP=n: effective value is y (from "*"/scenarios/TREE01:"* ]]
}

@test "later wins, in the kernel's order: CFcommon, NAME, --kconfig; NAME.boot, --bootargs" {
	scenario_file CFcommon 'CONFIG_NR_CPUS=2
CONFIG_RCU_EXPERT=y
CONFIG_RCU_FANOUT=5'
	scenario_file ORD 'CONFIG_NR_CPUS=3
CONFIG_RCU_FANOUT_LEAF=4'
	scenario_file ORD.boot 'rcutorture.stutter=7 rcutree.rcu_fanout_leaf=6
rcutorture.stutter=8'
	run scen_resolve ORD 60 --kconfig CONFIG_NR_CPUS=4 --bootargs rcutorture.stutter=9
	[ "$status" -eq 0 ]
	[[ $output == *"ncpus 4"* ]]
	[[ $output == *"check rcutree.rcu_fanout=5"$'\t'*"/scenarios/CFcommon:3 (CONFIG_RCU_FANOUT=5)"* ]]
	[[ $output != *"rcutree.rcu_fanout_leaf=4"* ]]	# the boot argument wins over its Kconfig default
	# The boot arguments in order: the program's parser makes the last one win.
	[ "$(grep '^check rcutorture.stutter' <<<"$output" | cut -f1 | tr '\n' ' ')" = \
		"check rcutorture.stutter=7 check rcutorture.stutter=8 check rcutorture.stutter=9 " ]
	[[ $output == *"fragment CONFIG_NR_CPUS=4"* ]]
}

@test "CPUs as kvm.sh counts them: 1 without SMP, CONFIG_NR_CPUS (the kernel's default, never this host's), then nr_cpus= and maxcpus=" {
	scenario_file K1 'CONFIG_SMP=y
CONFIG_PREEMPT=y'
	scenario_file K1.boot 'maxcpus=8 nr_cpus=17'
	run plan_of K1
	[[ $output == *"ncpus 8"* && $output == *"check nr_cpus=17"* && $output == *"check maxcpus=8"* ]]
	# Unset NR_CPUS is the kernel's 64 (or MAXSMP's 8192), not the 2 here.
	scenario_file K2 'CONFIG_SMP=y'
	run plan_of K2
	[[ $output == *"ncpus 64"* && $output == *"check nr_cpus=64"* ]]
	scenario_file K3 'CONFIG_SMP=y
CONFIG_MAXSMP=y
CONFIG_NR_CPUS=8'
	scenario_file K3.boot 'maxcpus=8 nr_cpus=43'
	run plan_of K3
	[[ $output == *"ncpus 8"* && $output == *"check nr_cpus=43"* ]]
	[[ $output == *"note CONFIG_NR_CPUS=8: CONFIG_MAXSMP=y makes it 8192"* ]]
	# nr_cpus above NR_CPUS: NR_CPUS bounds it (the last word says so).
	scenario_file K4 'CONFIG_NR_CPUS=4'
	scenario_file K4.boot 'nr_cpus=16'
	run plan_of K4
	[[ $output == *"ncpus 4"* ]]
	[ "$(grep '^check nr_cpus=' <<<"$output" | tail -n1 | cut -f1)" = "check nr_cpus=4" ]
	scenario_file K5 'CONFIG_SMP=n
CONFIG_NR_CPUS=8
CONFIG_PREEMPT=y'
	run plan_of K5
	[[ $output == *"ncpus 1"* && $output == *"check nr_cpus=1"* ]]
}

@test "callback offloading as the kernel sets it up: CONFIG_RCU_NOCB_CPU (or NO_HZ_FULL) needed, one rcu_nocbs= with nohz_full= and the Kconfig defaults" {
	scenario_file N1 'CONFIG_SMP=y
CONFIG_NR_CPUS=8'
	scenario_file N1.boot 'rcu_nocbs=1-2 rcu_nocb_poll nohz_full=3'
	run plan_of N1
	[ "$status" -eq 0 ]
	# Without CONFIG_RCU_NOCB_CPU the kernel has no such parameters.
	[[ $output == *"note rcu_nocbs=1-2: needs CONFIG_RCU_NOCB_CPU=y"*"ignored ("*"/N1.boot:1)"* ]]
	[[ $output == *"note rcu_nocb_poll: needs CONFIG_RCU_NOCB_CPU=y"* ]]
	! grep -q '^check rcu_nocb' <<<"$output"
	# With it: the list given, plus the nohz_full= CPUs, as one argument.
	run plan_of N1 CONFIG_RCU_NOCB_CPU=y
	[[ $output == *"check rcu_nocb_poll"$'\t'* ]]
	[[ $output == *"check rcu_nocbs=1-2,3"$'\t'*"/N1.boot:1; nohz_full=3: the kernel offloads its CPUs"* ]]
	[ "$(grep -c '^check rcu_nocbs' <<<"$output")" -eq 1 ]
	# NO_HZ_FULL selects it; the last rcu_nocbs= wins; ZERO adds CPU 0.
	run plan_of N1 "CONFIG_NO_HZ_FULL=y CONFIG_RCU_NOCB_CPU_ZERO=y rcu_nocbs=5"
	[[ $output == *"check rcu_nocbs=5,3,0"$'\t'* ]]
	# ALL wins; DEFAULT_ALL only without rcu_nocbs and nohz_full; bare
	# rcu_nocbs: none offloaded, every CPU switchable.
	run plan_of N1 "CONFIG_RCU_NOCB_CPU=y CONFIG_RCU_NOCB_CPU_ALL=y"
	[[ $output == *"check rcu_nocbs=all"$'\t'*"CONFIG_RCU_NOCB_CPU_ALL=y"* ]]
	scenario_file N2 'CONFIG_SMP=y
CONFIG_RCU_NOCB_CPU=y
CONFIG_RCU_NOCB_CPU_DEFAULT_ALL=y'
	run plan_of N2
	[[ $output == *"check rcu_nocbs=all"$'\t'*"CONFIG_RCU_NOCB_CPU_DEFAULT_ALL=y"* ]]
	run plan_of N2 rcu_nocbs
	[[ $output == *"check rcu_nocbs="$'\t'* ]]
	# No rcu_nocbs at all: nothing passed (nothing can be offloaded).
	run plan_of N2 "CONFIG_RCU_NOCB_CPU_DEFAULT_ALL=n"
	! grep -q '^check rcu_nocbs' <<<"$output"
	# CONFIG_RCU_LAZY stands for rcutree.enable_rcu_lazy.
	run plan_of N2 CONFIG_RCU_LAZY=y
	[[ $output == *"check rcutree.enable_rcu_lazy=1"$'\t'* ]]
}

@test "the torture type: the boot arguments' (later wins), rcu without PREEMPT_RCU is sched, Tiny RCU runs the Tiny build" {
	scenario_file T1 'CONFIG_PREEMPT=y'
	scenario_file T1.boot 'rcutorture.torture_type=trivial
rcutorture.torture_type=busted'
	run plan_of T1
	[[ $output == *"type busted"* ]]
	[ "$(grep -c '^check rcutorture.torture_type' <<<"$output")" -eq 2 ]
	scenario_file T2 'CONFIG_PREEMPT_NONE=y'
	run plan_of T2
	[[ $output == *"type sched"* && $output == *"check rcutorture.torture_type=sched"$'\t'"(the torture type)"* ]]
	[[ $output == *"note torture_type=rcu without PREEMPT_RCU: the non-preemptible flavor, torture_type=sched"* ]]
	scenario_file T3 'CONFIG_SMP=n
CONFIG_PREEMPT_NONE=y'
	run plan_of T3
	# Tiny RCU: the kernel's rcu type on the Tiny build, no skip.
	[[ $output != *"skip "* && $output == *"type rcu"* && $output == *"build tiny"* ]]
	[[ $output == *"make TINY=1"* && $output == *"note CONFIG_TINY_RCU=y (SMP=n without PREEMPT_RCU): Tiny RCU (make TINY=1)"* ]]
	# Other types under SMP=n keep Tree's build (SRCU-T).
	scenario_file T5 'CONFIG_SMP=n
CONFIG_PREEMPT_NONE=y'
	scenario_file T5.boot 'rcutorture.torture_type=srcu'
	run plan_of T5
	[[ $output == *"type srcu"* && $output == *"build plain"* && $output != *"TINY"* ]]
	# A uniprocessor with preemptible RCU is Tree RCU: it runs.
	scenario_file T4 'CONFIG_SMP=n
CONFIG_PREEMPT=y'
	run plan_of T4
	[[ $output != *"skip "* && $output == *"type rcu"* ]]
}

@test "ver_functions defaults: onoff with HOTPLUG_CPU (the default with SMP), n_barrier_cbs, stat_interval, shutdown_secs, unless given" {
	scenario_file D1 'CONFIG_SMP=y
CONFIG_NR_CPUS=4'
	run plan_of D1
	[[ $output == *"check rcutorture.onoff_interval=1000"$'\t'"(default)"* && $output == *"check rcutorture.onoff_holdoff=15"* ]]
	[[ $output == *"check rcutorture.n_barrier_cbs=4"* && $output == *"check rcutorture.stat_interval=15"* ]]
	[[ $output == *"check rcutorture.shutdown_secs=60"* && $output == *"duration 60"* ]]
	scenario_file D2 'CONFIG_NR_CPUS=4
CONFIG_HOTPLUG_CPU=n'
	scenario_file D2.boot 'rcutorture.n_barrier_cbs=8 rcutorture.shutdown_secs=7'
	run plan_of D2
	[[ $output != *onoff* && $output != *"n_barrier_cbs=4"* && $output == *"duration 7"* ]]
	[[ $output != *"shutdown_secs=60"* ]]
	scenario_file D3 'CONFIG_NR_CPUS=4'
	scenario_file D3.boot 'rcutorture.onoff_interval=200'
	run plan_of D3
	[[ $output == *"check rcutorture.onoff_interval=200"* && $output != *onoff_holdoff* ]]
	# 10 s longer than a stutter pause (3 s here; the default: 5 s).
	run scen_resolve D1 10 --bootargs rcutorture.stutter=3
	[[ $output == *"check rcutorture.stat_interval=13"* ]]
	run scen_resolve D1 10 --bootargs rcutorture.stutter=0
	[[ $output == *"check rcutorture.stat_interval=2"* ]]
}

@test "CONFIG_RCU_BOOST=y (with PREEMPT_RCU and RCU_EXPERT, as the kernel requires) turns boosting on, with RCU threads at real-time priority 2 at least" {
	scenario_file B1 'CONFIG_NR_CPUS=4
CONFIG_PREEMPT=y
CONFIG_RCU_EXPERT=y
CONFIG_RCU_BOOST=y'
	run plan_of B1
	[[ $output == *"check rcutree.rcu_boost=1"$'\t'"(CONFIG_RCU_BOOST=y)"* ]]
	[[ $output == *"check rcutree.kthread_prio=2"$'\t'"(CONFIG_RCU_BOOST=y in an rcutorture kernel: at least 2, as sanitize_kthread_prio())"* ]]
	[[ $output != *test_boost* ]]	# rcutorture's default (1) runs the test
	scenario_file B1.boot 'rcutorture.test_boost=0 rcutree.kthread_prio=3'
	run plan_of B1
	[[ $output == *"check rcutorture.test_boost=0"* && $output == *"check rcutree.kthread_prio=3"* ]]
	[[ $output != *"kthread_prio=2"* ]]
	scenario_file B1.boot 'rcutree.kthread_prio=1'
	run plan_of B1
	[[ $output == *"check rcutree.kthread_prio=1"*"check rcutree.kthread_prio=2"* ]]	# the last wins
	scenario_file B2 'CONFIG_NR_CPUS=4
CONFIG_PREEMPT=y
CONFIG_RCU_BOOST=y'
	run plan_of B2
	[[ $output != *rcu_boost* && $output != *kthread_prio* ]]
	[[ $output == *"note CONFIG_RCU_BOOST=y: needs PREEMPT_RCU and RCU_EXPERT (the kernel ignores it without): ignored"* ]]
}

@test "stall-warning Kconfig options become the library's parameters (no model rule needed)" {
	scenario_file STALLCFG 'CONFIG_NR_CPUS=2
CONFIG_RCU_CPU_STALL_TIMEOUT=5
CONFIG_RCU_CPU_STALL_INFO=y'
	scenario_file STALLCFG.boot 'rcutorture.stall_cpu=3'
	run scen_resolve STALLCFG 60
	[ "$status" -eq 0 ]
	[[ $output == *"check rcupdate.rcu_cpu_stall_timeout=5"$'\t'*"STALLCFG:2 (CONFIG_RCU_CPU_STALL_TIMEOUT=5)"* ]]
	[[ $output == *"check rcupdate.rcu_cpu_stall_info=1"* ]]
}

@test "debug objects, PROVE_LOCKING and sanitizers choose parameters and build folders" {
	scenario_copy TREE02 TREE05 TREE04
	run plan_of TREE02
	[[ $output == *"check debug_objects=1"* && $output == *"build plain"* ]]
	run plan_of TREE05
	[[ $output == *"build debug"* && $output == *"make DEBUG=1"* ]]
	run plan_of TREE04 "CONFIG_KASAN=y"
	[[ $output == *"build asan"* && $output == *"make SAN=address"* ]]
	run plan_of TREE05 "CONFIG_KCSAN=y"
	[[ $output == *"build tsan-debug"* && $output == *"make SAN=thread"* ]]
	run plan_of TREE04 "CONFIG_KASAN=y CONFIG_KCSAN=y"
	[ "$status" -eq 2 ]
	[[ $output == *"--bootargs: CONFIG_KCSAN=y: cannot be combined with CONFIG_KASAN=y"* ]]
}

@test "CONFIG_WEAKMEM=y (torture.sh --weakmem) chooses the weak-memory build; no sanitizer with it" {
	scenario_copy TREE02 TREE05 WEAKMEM01
	run plan_of WEAKMEM01
	[[ $output == *"build weakmem"* && $output == *"make WEAKMEM=1"* ]]
	run plan_of TREE02 "CONFIG_WEAKMEM=y"
	[[ $output == *"build weakmem"* && $output == *"make WEAKMEM=1"* ]]
	run plan_of TREE05 "CONFIG_WEAKMEM=y"
	[[ $output == *"build weakmem-debug"* && $output == *"make DEBUG=1"* && $output == *"make WEAKMEM=1"* ]]
	run plan_of TREE02
	[[ $output != *WEAKMEM=1* ]]
	run plan_of TREE02 "CONFIG_WEAKMEM=y CONFIG_KCSAN=y"
	[ "$status" -eq 2 ]
	[[ $output == *"CONFIG_WEAKMEM=y: cannot be combined with CONFIG_KCSAN=y"* ]]
}

@test "the program checks the boot arguments: errors name file:line or --bootargs, ignored ones are noted and dropped, a foreign one is a note from a file" {
	need_real
	scenario_file C1 'CONFIG_NR_CPUS=4
CONFIG_RCU_EXPERT=y
CONFIG_RCU_FANOUT=1'
	scenario_file C1.boot 'rcutorture.nosuch=1
nohz_full=1-3 frobnicate=2
rcutorture.test_boost=0'
	scen_resolve C1 60 --bootargs "rcutree.blimit=0" >"$BATS_TEST_TMPDIR/C1.plan"
	run scen_check "$BATS_TEST_TMPDIR/C1.plan" "$REAL"
	[ "$status" -eq 2 ]
	[[ $output == *"scenarios/C1:3 (CONFIG_RCU_FANOUT=1): rcutree.rcu_fanout: value 1 out of range (2 to 64)"* ]]
	[[ $output == *"scenarios/C1.boot:1: unknown parameter 'rcutorture.nosuch'"* ]]
	[[ $output == *"--bootargs: rcutree.blimit: value 0 out of range"* ]]
	[ "$(wc -l <<<"$output")" -eq 3 ]
	scenario_file C1 'CONFIG_NR_CPUS=4'
	scenario_file C1.boot 'nohz_full=1-3 frobnicate=2 tree.use_softirq=0
rcutorture.test_boost=0 rcutorture.stutter=3'
	scen_resolve C1 60 >"$BATS_TEST_TMPDIR/C1.plan"
	run scen_check "$BATS_TEST_TMPDIR/C1.plan" "$REAL"
	[ "$status" -eq 0 ]
	run cat "$BATS_TEST_TMPDIR/C1.plan"
	[[ $output == *"note nohz_full=1-3: ignored: no scheduling-clock ticks in userspace ("*"/scenarios/C1.boot:1)"* ]]
	[[ $output == *"note frobnicate=2: unknown kernel parameter (the kernel would pass it to init): ignored ("*"/scenarios/C1.boot:1)"* ]]
	[[ $output == *"note tree.use_softirq=0: unknown module parameter (the kernel drops it): ignored ("*"/scenarios/C1.boot:1)"* ]]
	[[ $output == *"arg rcutorture.stutter=3"* && $output != *"arg nohz_full"* && $output != *"arg frobnicate"* ]]
	[[ $output == *"arg rcutorture.test_boost=0"* ]]
	# The boost and preemption parameters are honoured: no note.
	scenario_file C1.boot 'rcutorture.preempt_duration=10 rcutree.kthread_prio=2'
	scen_resolve C1 60 >"$BATS_TEST_TMPDIR/C1.plan"
	run scen_check "$BATS_TEST_TMPDIR/C1.plan" "$REAL"
	[ "$status" -eq 0 ]
	run cat "$BATS_TEST_TMPDIR/C1.plan"
	[[ $output == *"arg rcutorture.preempt_duration=10"* && $output == *"arg rcutree.kthread_prio=2"* ]]
	[[ $output != *"note rcutorture.preempt_duration"* && $output != *"note rcutree.kthread_prio"* ]]
	[[ $output != *"check "* ]]
	# From the command line, a foreign parameter is a mistake.
	scen_resolve C1 60 --bootargs "frobnicate=3" >"$BATS_TEST_TMPDIR/C1.plan"
	run scen_check "$BATS_TEST_TMPDIR/C1.plan" "$REAL"
	[ "$status" -eq 2 ]
	[[ $output == "--bootargs: unknown parameter 'frobnicate'" ]]
}

@test "an unknown torture type is a mistake, named at its line" {
	need_real
	scenario_file S1 'CONFIG_NR_CPUS=2'
	scenario_file S1.boot 'rcutorture.torture_type=taskz'
	scen_resolve S1 60 >"$BATS_TEST_TMPDIR/S1.plan"
	run scen_check "$BATS_TEST_TMPDIR/S1.plan" "$REAL"
	[ "$status" -eq 2 ]
	[[ $output == *"/scenarios/S1.boot:1: rcutorture.torture_type: unknown type 'taskz' (see --list-types)" ]]
}

@test "a torture type the program does not have is a skip, with the program's reason" {
	missing_type
	scenario_file S1 'CONFIG_NR_CPUS=2'
	scenario_file S1.boot "rcutorture.torture_type=$MT rcutorture.reader_flavor=0x4"
	scen_resolve S1 60 >"$BATS_TEST_TMPDIR/S1.plan"
	run scen_check "$BATS_TEST_TMPDIR/S1.plan" "$REAL"
	[ "$status" -eq 0 ]
	run plan_get skip <"$BATS_TEST_TMPDIR/S1.plan"
	[ "$output" = "$MT_WHY" ]
}

@test "--duration parsing: bare minutes, s/m/h/d suffixes; bad values refused" {
	[ "$(parse_duration 7)" = 420 ]
	[ "$(parse_duration 30s)" = 30 ]
	[ "$(parse_duration 5m)" = 300 ]
	[ "$(parse_duration 2h)" = 7200 ]
	[ "$(parse_duration 1d)" = 86400 ]
	local bad
	for bad in 0 0s 5x -1 "" 1.5h 3ms "5 m" 99999999999; do
		run parse_duration "$bad"
		[ "$status" -ne 0 ] || { echo "accepted '$bad'"; false; }
	done
}

@test "--configs expansion: N*NAME repeats, lists stand for their scenarios" {
	scenario_copy TREE01 TREE03
	scenario_file CFLIST 'TREE01
TREE03'
	scenario_file quick '# a list of the project
TREE03'
	run list_expand 2*TREE01 TREE03
	[ "$output" = $'TREE01\nTREE01\nTREE03' ]
	run list_expand quick
	[ "$output" = TREE03 ]
	run list_expand 2*CFLIST
	[ "$output" = $'TREE01\nTREE03\nTREE01\nTREE03' ]
	run list_expand 0*TREE01
	[ "$status" -eq 2 ]
	[[ $output == "0*TREE01: repeat count must be at least 1" ]]
	run list_expand TREE01 3*NOSUCH
	[ "$status" -eq 2 ]
	[[ $output == *"3*NOSUCH: no such scenario"* ]]
	run list_expand TREE01.boot
	[ "$status" -eq 2 ]
}

@test "batches: largest first, side by side while they fit, too big runs alone" {
	run sched_batches 4 <<<$'A 2\nB 1\nC 4\nD 1\nE 8'
	[ "$status" -eq 0 ]
	[ "$output" = $'1 E 4\n2 C 4\n3 A 2\n3 B 1\n3 D 1' ]
	[ "$(sched_cpus 1 2 0 1 2 3)" = 1,2 ]
	[ "$(sched_cpus 1 3 0 1)" = 1,0,1 ]
}
