#!/usr/bin/env bats
# Scenario parsing, the effective configuration and its mapping onto
# rcutorture parameters; --duration, --configs and batch packing.

load torture_sh_helpers

setup() {
	libs
}

plan_of() {	# plan_of NAME [BOOTARGS]: the plan, 60 s, 2 host CPUs
	scen_resolve "$1" 60 2 --bootargs "${2:-}"
}

@test "every shipped scenario resolves, with a torture type and a build" {
	local s n=0
	for s in "$TOP"/scenarios/*; do
		[ -f "$s" ] || continue	# refscale/, rcuscale/: the perf suites' folders
		run plan_of "${s##*/}"
		[ "$status" -eq 0 ] || { echo "${s##*/}: $output"; false; }
		[[ $output == *"type "* && $output == *"build "* ]]
		n=$((n + 1))
	done
	((n >= 16))
}

@test "the required scenarios exist and the lists name only scenarios" {
	local s
	for s in TREE01 TREE02 TREE03 TREE04 TREE05 TREE06 TREE07 TREE08 TRIVIAL BUSTED \
		URCU-MEMB URCU-MB URCU-SIGNAL URCU-QSBR URCU-BP; do
		[ -f "$TOP/scenarios/$s" ]
	done
	run list_expand CFLIST quick
	[ "$status" -eq 0 ]
	[[ $output == *TREE01* ]]
	# One name a line and nothing else: CI passes "$(tr '\n' ' ' <configs/quick)".
	! grep -qv '^[A-Z0-9-]*$' "$TOP/configs/CFLIST" "$TOP/configs/quick"
}

@test "a good file: comments, not-set lines, #CHECK#, several boot args a line" {
	scenario_file GOOD '# a comment
CONFIG_NR_CPUS=4   # trailing comment

# CONFIG_HOTPLUG_CPU is not set
#CHECK#CONFIG_NR_CPUS=4
rcutorture.stutter=3 rcutree.gp_init_delay=2 threadirqs'
	run scen_parse_file "$SCENARIO_DIR/GOOD"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "$SCENARIO_DIR/GOOD:2"$'\t'"set"$'\t'"CONFIG_NR_CPUS"$'\t'"4" ]
	[[ ${lines[1]} == *":4"$'\t'"set"$'\t'"CONFIG_HOTPLUG_CPU"$'\t'"n" ]]
	[[ ${lines[2]} == *":5"$'\t'"check"$'\t'"CONFIG_NR_CPUS"$'\t'"4" ]]
	[[ ${lines[5]} == *":6"$'\t'"set"$'\t'"threadirqs"$'\t' ]]
	[ ${#lines[@]} -eq 6 ]
}

@test "malformed lines: each error names file, line and token; all are reported" {
	scenario_file BAD 'CONFIG_NR_CPUS=4
CONFIG_FOO=y
CONFIG_PREEMPT
CONFIG_PREEMPT=maybe
rcutorture.stutter= nohz_full=1-3
CONFIG_NR_CPUS=0
frobnicate=1'
	run scen_resolve BAD 60 2
	[ "$status" -eq 2 ]
	[[ $output == *"scenarios/BAD:2: CONFIG_FOO=y: unknown option"* ]]
	[[ $output == *"scenarios/BAD:3: CONFIG_PREEMPT: no '=' (expected NAME=VALUE)"* ]]
	[[ $output == *"scenarios/BAD:4: CONFIG_PREEMPT=maybe: bad value 'maybe' (expected y or n)"* ]]
	[[ $output == *"scenarios/BAD:5: rcutorture.stutter=: empty value"* ]]
	[[ $output == *"scenarios/BAD:6: CONFIG_NR_CPUS=0: bad value '0' (expected an integer >= 1)"* ]]
	[[ $output == *"scenarios/BAD:7: frobnicate=1: unknown option"* ]]
	[[ $output != *nohz_full* ]]
}

@test "an unknown scenario is named" {
	run scen_resolve NOSUCH 60 2
	[ "$status" -eq 2 ]
	[[ $output == "NOSUCH: no such scenario"* ]]
}

@test "later wins: CFcommon, then the scenario, then --bootargs" {
	run plan_of TREE02 "CONFIG_RCU_FANOUT_LEAF=4 rcutorture.n_barrier_cbs=2"
	[ "$status" -eq 0 ]
	[[ $output == *"arg rcutree.rcu_fanout=3"* ]]
	[[ $output == *"arg rcutree.rcu_fanout_leaf=4"* ]]
	[[ $output == *"arg rcutorture.n_barrier_cbs=2"* ]]
	[[ $output != *"n_barrier_cbs=8"* ]]
	[[ $output == *"fragment CONFIG_RCU_TORTURE_TEST=y"* ]]
}

@test "a boot argument overrides the Kconfig default it maps from (TREE04 leaf 4)" {
	run plan_of TREE04
	[[ $output == *"arg rcutree.rcu_fanout_leaf=4"* ]]
	[[ $output != *"rcu_fanout_leaf=3"* ]]
}

@test "PREEMPT picks rcu or sched unless torture_type is given" {
	run plan_of TREE01
	[[ $output == *"type rcu"* && $output == *"arg rcutorture.torture_type=rcu"* ]]
	run plan_of TREE04
	[[ $output == *"type sched"* ]]
	run plan_of TREE01 "CONFIG_PREEMPT=n CONFIG_PREEMPT_NONE=y"
	[ "$status" -eq 2 ]	# TREE01 asserts #CHECK#CONFIG_PREEMPT=y
	run plan_of BUSTED
	[[ $output == *"type busted"* ]]
	[ "$(grep -c '^arg rcutorture.torture_type' <<<"$output")" -eq 1 ]
}

@test "CPUs: NR_CPUS, maxcpus= and SMP=n; nreaders is CPUs-1; nr_cpus from NR_CPUS or the boot line" {
	run plan_of TREE01
	[[ $output == *"ncpus 8"* && $output == *"arg rcutorture.nreaders=7"* && $output == *"arg nr_cpus=43"* ]]
	run plan_of TREE03
	[[ $output == *"ncpus 16"* && $output == *"arg nr_cpus=16"* && $output == *"nreaders=15"* ]]
	run plan_of TREE09
	[[ $output == *"ncpus 1"* && $output == *"arg rcutorture.nreaders=1"* && $output == *"arg nr_cpus=1"* ]]
	run plan_of TREE04 "rcutorture.nreaders=2"
	[[ $output == *"arg rcutorture.nreaders=2"* && $output != *"nreaders=7"* ]]
}

@test "HOTPLUG_CPU=y sets onoff defaults unless the scenario sets onoff_*" {
	run plan_of TREE05
	[[ $output == *"arg rcutorture.onoff_interval=1000"* && $output == *"arg rcutorture.onoff_holdoff=15"* ]]
	run plan_of TREE03
	[[ $output == *"arg rcutorture.onoff_interval=200"* && $output != *onoff_holdoff* ]]
	run plan_of TREE04
	[[ $output != *onoff* ]]
}

@test "ver_functions defaults: stat_interval, n_barrier_cbs, shutdown_secs = duration, unless given" {
	run plan_of TREE04
	[[ $output == *"arg rcutorture.stat_interval=15"* && $output == *"arg rcutorture.n_barrier_cbs=4"* ]]
	[[ $output == *"arg rcutorture.shutdown_secs=60"* && $output == *"duration 60"* ]]
	run scen_resolve TREE02 40 2 --bootargs rcutorture.stutter=0
	[[ $output == *"arg rcutorture.stat_interval=10"* && $output == *"duration 40"* ]]
	# 10 s longer than a stutter pause (TREE04: 3 s; the default: 5 s).
	run scen_resolve TREE04 10 2
	[[ $output == *"arg rcutorture.stat_interval=13"* ]]
	run scen_resolve TREE02 10 2
	[[ $output == *"arg rcutorture.stat_interval=15"* ]]
	run scen_resolve TREE02 10 2 --bootargs rcutorture.stutter=0
	[[ $output == *"arg rcutorture.stat_interval=2"* ]]
	run plan_of TREE04 "rcutorture.shutdown_secs=7 rcutorture.stat_interval=2"
	[[ $output == *"duration 7"* && $output == *"arg rcutorture.stat_interval=2"* ]]
	[ "$(grep -c shutdown_secs <<<"$output")" -eq 2 ]	# the arg and its fragment line
}

@test "debug objects, PROVE_* and sanitizers choose parameters and build folders" {
	run plan_of TREE02
	[[ $output == *"arg debug_objects=1"* && $output == *"build plain"* ]]
	run plan_of TREE05
	[[ $output == *"build debug"* && $output == *"make DEBUG=1"* ]]
	run plan_of TREE04 "CONFIG_KASAN=y"
	[[ $output == *"build asan"* && $output == *"make SAN=address"* ]]
	run plan_of TREE05 "CONFIG_KCSAN=y"
	[[ $output == *"build tsan-debug"* && $output == *"make SAN=thread"* ]]
	run plan_of TREE04 "CONFIG_KASAN=y CONFIG_KCSAN=y"
	[ "$status" -eq 2 ]
	[[ $output == *"--bootargs: CONFIG_KCSAN=y: cannot be combined with another sanitizer"* ]]
}

@test "kernel-only options are noted as ignored, never passed; =n is not noted" {
	run plan_of TREE03
	[ "$status" -eq 0 ]
	[[ $output == *"note CONFIG_RCU_BOOST=y: no userspace meaning: ignored (scenarios/TREE03:"* ]]
	[[ $output == *"note threadirqs: no userspace meaning: ignored"* ]]
	[[ $output == *"note rcutree.kthread_prio=2: no userspace meaning: ignored"* ]]
	[[ $output != *"arg threadirqs"* && $output != *"arg rcutree.kthread_prio"* ]]
	[[ $output != *"CONFIG_NO_HZ_FULL=n: no userspace"* ]]
	[[ $output == *"fragment CONFIG_NO_HZ_FULL=n"* ]]
}

@test "#CHECK# failures name the assertion, the effective value and where it came from" {
	run plan_of TREE01 "CONFIG_HOTPLUG_CPU=n"
	[ "$status" -eq 2 ]
	[[ $output == "scenarios/TREE01:"*": #CHECK#CONFIG_HOTPLUG_CPU=y: effective value is n (from --bootargs)" ]]
	scenario_file CHK '#CHECK#CONFIG_RCU_BOOST=y
#CHECK#CONFIG_PREEMPT=n
#CHECK#rcutorture.stutter=3'
	run scen_resolve CHK 60 2
	[ "$status" -eq 2 ]
	[[ $output == *"CHK:1: #CHECK#CONFIG_RCU_BOOST=y: effective value is n"* ]]
	[[ $output != *"CHK:2"* ]]	# an unset bool reads as n
	[[ $output == *"CHK:3: #CHECK#rcutorture.stutter=3: effective value is (not set)"* ]]
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

@test "--configs expansion: N*NAME repeats, list files stand for their scenarios" {
	run list_expand 2*TREE01 TREE03
	[ "$output" = $'TREE01\nTREE01\nTREE03' ]
	run list_expand quick
	[ "$output" = "$(grep -v '^#' "$TOP/configs/quick")" ]
	run list_expand 2*quick
	[ "${#lines[@]}" -eq $((2 * $(grep -vc '^#' "$TOP/configs/quick"))) ]
	run list_expand 0*TREE01
	[ "$status" -eq 2 ]
	[[ $output == "0*TREE01: repeat count must be at least 1" ]]
	run list_expand TREE01 3*NOSUCH
	[ "$status" -eq 2 ]
	[[ $output == *"3*NOSUCH: no such scenario"* ]]
}

@test "batches: largest first, side by side while they fit, too big runs alone" {
	run sched_batches 4 <<<$'A 2\nB 1\nC 4\nD 1\nE 8'
	[ "$status" -eq 0 ]
	[ "$output" = $'1 E 4\n2 C 4\n3 A 2\n3 B 1\n3 D 1' ]
	[ "$(sched_cpus 1 2 0 1 2 3)" = 1,2 ]
	[ "$(sched_cpus 1 3 0 1)" = 1,0,1 ]
}
