/* SPDX-License-Identifier: MIT */
/*
 * rcu/rcu_notifier.h - RCU CPU stall warnings delivered to the program
 * (the kernel's rcu_stall_chain_notifier_register(), linux/rcu_notifier.h).
 *
 * When a grace period lasts longer than rcupdate.rcu_cpu_stall_timeout
 * seconds (an expedited one: rcupdate.rcu_exp_cpu_stall_timeout ms), the
 * library prints a warning on stderr in the kernel's shape:
 *
 *   rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:
 *   rcu: 	3-....: (0 GPs behind) P12345 worker: in a read-side critical section for at least 21004 ms fqs=7001
 *   	(detected by rcu_preempt, t=21004 jiffies, g=-1179, q=12 ncpus=4)
 *
 * one line per thread slot holding the grace period up ("P" and the
 * thread's id, then its name), repeated at growing intervals while the
 * stall lasts, and calls every registered notifier with the same report.
 * rcupdate.rcu_cpu_stall_suppress=1 silences both.
 *
 * A notifier runs in the thread that detected the stall (usually the
 * flavor's grace-period thread): it must not block for long, must not
 * wait for a grace period, and must not (un)register notifiers.
 */
#ifndef RCU_RCU_NOTIFIER_H
#define RCU_RCU_NOTIFIER_H

#include <rcu/compiler.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The notifier's action argument. */
#define RCU_STALL_NOTIFY_NORM	1	/* a normal grace period stalls */
#define RCU_STALL_NOTIFY_EXP	2	/* an expedited one */

#define RCU_STALL_MAX_HOLDOUTS	64	/* holdouts described in detail */

struct rcu_stall_holdout {
	int slot;			/* thread slot ("CPU") */
	int tid;			/* its OS thread id */
	char name[16];			/* its name when it registered */
	unsigned long ms;		/* in its read-side critical section (or,
					 * rcu_sched, without a quiescent state)
					 * for at least this long */
	unsigned long gps_behind;	/* grace periods started since then,
					 * before the stalled one */
};

/* The notifier's data argument. */
struct rcu_stall_info {
	const char *flavor;		/* "rcu_preempt", "rcu_sched", ... */
	int expedited;			/* 1: RCU_STALL_NOTIFY_EXP */
	long gp_seq;			/* the stalled grace period (g=) */
	unsigned long duration_ms;	/* its age (t=) */
	int nr_holdouts;		/* slots holding it up */
	const struct rcu_stall_holdout *holdouts; /* the first
					 * RCU_STALL_MAX_HOLDOUTS of them */
	int starved;			/* its grace-period thread did not run */
	const char *text;		/* the report as printed */
};

struct rcu_stall_notifier {
	/* action: RCU_STALL_NOTIFY_*; data: const struct rcu_stall_info *.
	 * The return value is ignored. */
	int (*notifier_call)(struct rcu_stall_notifier *nb, unsigned long action, void *data);
	struct rcu_stall_notifier *next;	/* the library's */
};

LRCU_API int lrcu_stall_notifier_register(struct rcu_stall_notifier *nb);
LRCU_API int lrcu_stall_notifier_unregister(struct rcu_stall_notifier *nb);

/* 0, or -1 with errno EEXIST (already registered) / ENOENT (not). */
static inline int rcu_stall_chain_notifier_register(struct rcu_stall_notifier *nb)
{
	return lrcu_stall_notifier_register(nb);
}
/* On return, nb is not running and will not be called again. */
static inline int rcu_stall_chain_notifier_unregister(struct rcu_stall_notifier *nb)
{
	return lrcu_stall_notifier_unregister(nb);
}

#ifdef __cplusplus
}
#endif

#endif /* RCU_RCU_NOTIFIER_H */
