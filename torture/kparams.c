/* SPDX-License-Identifier: MIT */
/*
 * kparams.c - the Linux kernel's boot parameters that rcutorture scenario
 * files use but that mean nothing here (priority boosting, adaptive
 * ticks, the kernel's self-tests ...).  They are
 * accepted, with a note saying why they are ignored, so the kernel's own
 * scenario files run unmodified.  A parameter that gets implemented (in
 * params.c's table, or as one of the RCU's own) wins over its entry here:
 * nothing needs to change in this file when that happens.
 *
 * Names under the namespaces of rcutorture and of the RCU (rcutorture.,
 * rcutree., rcupdate., srcutree., torture.) must be known: anything else
 * there is a typo.  Other names are the kernel's business ("foreign").
 *
 * Some of rcutorture's own parameters define what a scenario tests (the
 * boost test, reader preemption, NMIs): set to anything but
 * their `inert' value they ask for a test that does not run here, and the
 * run cannot be a plain SUCCESS (kparam_unhonoured(): --check reports
 * them as "unhonoured"; bin/torture.sh makes the run INCOMPLETE, naming
 * them).
 */
#include <stdlib.h>
#include <string.h>
#include "torture.h"

struct kparam {
	const char *name;	/* exact, or "prefix*" */
	const char *why;
};

#define BYPASS	"no bypass list here: call_rcu() queues on the slot's own list, " \
		"which its rcuo thread shares"
#define NOHZ	"no scheduling-clock ticks in userspace"
#define TASKS	"an RCU Tasks knob this project does not implement (docs/parameters.md)"
#define TASKS_QUEUES	"the Tasks callback queues are fixed at rcu_task_enqueue_lim: they " \
		"do not grow or shrink with lock contention"
#define TASKS_LAZY	"no lazy Tasks callbacks: each grace period takes every callback queued"
#define SELF	"the kernel's boot-time self-tests have no userspace counterpart"
#define STALL	"this stall-warning knob is not implemented"
#define KERNEL	"no userspace meaning"

static const struct kparam kparams[] = {
	/* rcutorture's own */
	{ "rcutorture.fwd_progress_need_resched", "no cond_resched() in userspace" },
	{ "rcutorture.test_srcu_lockdep", "the kernel's lockdep deadlock scenarios need "
	  "lock-dependency checking: a CONFIG_PROVE_LOCKING build (make DEBUG=1)" },
	{ "rcutorture.stall_no_softlockup", "no softlockup watchdog in userspace" },
	{ "rcutorture.gpwrap_lag*", "the kernel's recovery from a CPU's gp_seq lagging far "
	  "behind (rdp->gpwrap) has no counterpart: a slot's grace-period sample is compared "
	  "exactly for up to 2^44 grace periods, and an idle slot is quiescent whatever it holds" },
	/* torture.c's */
	{ "torture.disable_onoff_at_boot", "no boot here: hotplug starts with the run" },
	{ "torture.ftrace_dump_at_shutdown", "no ftrace in userspace" },
	{ "torture.verbose_sleep_frequency", "the console is a file here: no need to slow it" },
	{ "torture.verbose_sleep_duration", "the console is a file here: no need to slow it" },
	/* Tree RCU's */
	{ "rcutree.use_softirq", "no softirqs in userspace" },
	{ "rcutree.nocb_nobypass_lim_per_jiffy", BYPASS },
	{ "rcutree.rcu_nocb_poll", "not a kernel parameter: the kernel's is rcu_nocb_poll" },
	{ "rcutree.rcu_normal_wake_from_gp", "a kernel wake-up optimisation of synchronize_rcu()" },
	{ "rcutree.rcu_kick_kthreads", STALL },
	{ "rcutree.rcu_resched_ns", KERNEL }, { "rcutree.rcu_divisor", KERNEL },
	{ "rcutree.jiffies_till_sched_qs", KERNEL }, { "rcutree.dump_tree", KERNEL },
	{ "rcutree.qovld", KERNEL }, { "rcutree.rcu_min_cached_objs", KERNEL },
	{ "rcutree.rcu_delay_page_cache_fill_msec", KERNEL }, { "rcutree.sysrq_rcu", KERNEL },
	{ "rcutree.csd_lock_suppress_rcu_stall", KERNEL }, { "rcutree.rcu_unlock_delay", KERNEL },
	/* rcupdate's */
	{ "rcupdate.rcu_self_test*", SELF },
	{ "rcupdate.rcu_cpu_stall_suppress_at_boot", STALL },
	{ "rcupdate.rcu_cpu_stall_ftrace_dump", STALL }, { "rcupdate.rcu_cpu_stall_cputime", STALL },
	{ "rcupdate.rcu_task_contend_lim", TASKS_QUEUES },
	{ "rcupdate.rcu_task_collapse_lim", TASKS_QUEUES },
	{ "rcupdate.rcu_task_lazy_lim", TASKS_LAZY }, { "rcupdate.rcu_tasks_lazy_ms", TASKS_LAZY },
	{ "rcupdate.rcu_tasks_rude_lazy_ms", TASKS_LAZY },
	{ "rcupdate.rcu_task*", TASKS }, { "rcupdate.rcu_tasks*", TASKS },
	/* Tree SRCU's */
	{ "srcutree.*", "Tree SRCU's tuning: SRCU here has no srcu_node tree" },
	/* the kernel's own */
	{ "nohz_full", NOHZ " (bin/torture.sh offloads its CPUs' callbacks, as the kernel does)" },
	{ "nohz", NOHZ },
	{ "threadirqs", "no interrupt threads in userspace" }, { "isolcpus", KERNEL },
	{ "irqaffinity", KERNEL }, { "preempt", "the preemption model comes from the "
	  "scenario's CONFIG_PREEMPT* options" }, { "nokaslr", KERNEL }, { "panic", KERNEL },
	{ "panic_on_warn", KERNEL }, { "ftrace_dump_on_oops", KERNEL }, { "ftrace", KERNEL },
	{ "ftrace_graph_filter", KERNEL }, { "trace_event", KERNEL },
	{ "trace_buf_size", KERNEL }, { "console", KERNEL }, { "initcall_debug", KERNEL },
	{ "debug", KERNEL }, { "selinux", KERNEL }, { "debug_boot_weak_hash", KERNEL },
	{ "tsc", KERNEL }, { "clocksource", KERNEL }, { "mitigations", KERNEL },
	{ "idle", KERNEL }, { "skew_tick", NOHZ },
};

/* rcutorture's parameters that define a test, and the value of each
 * that asks for none (the kernel's default). */
static const struct {
	const char *name, *inert;
} defining[] = {
	{ "rcutorture.test_srcu_lockdep", "0" },
};

static const char *const owned[] = {
	"rcutorture.", "rcutree.", "rcupdate.", "srcutree.", "torture.",
};

static bool kparam_match(const char *pattern, const char *name)
{
	size_t n = strlen(pattern);

	if (n && pattern[n - 1] == '*')
		return !strncmp(pattern, name, n - 1);
	return !strcmp(pattern, name);
}

const char *kparam_ignored(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(kparams) / sizeof(kparams[0]); i++)
		if (kparam_match(kparams[i].name, name))
			return kparams[i].why;
	return NULL;
}

/*
 * NAME=VALUE asks for a test that does not run here: a defining
 * parameter set to anything but its inert value (numbers compared as
 * numbers: 0x0 is 0).
 */
bool kparam_unhonoured(const char *name, const char *value)
{
	char *end;
	size_t i;
	long v;

	for (i = 0; i < sizeof(defining) / sizeof(defining[0]); i++) {
		if (strcmp(defining[i].name, name))
			continue;
		v = strtol(value, &end, 0);
		if (*value && !*end)
			return v != strtol(defining[i].inert, NULL, 0);
		return strcmp(value, defining[i].inert) != 0;
	}
	return false;
}

bool kparam_owned(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(owned) / sizeof(owned[0]); i++)
		if (!strncmp(owned[i], name, strlen(owned[i])))
			return true;
	return false;
}
