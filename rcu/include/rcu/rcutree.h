/* SPDX-License-Identifier: MIT */
/*
 * rcu/rcutree.h - administration of the tree RCU: parameters, statistics,
 * tree shape and diagnostics.  Not kernel API, hence the lrcu_ names.
 */
#ifndef RCU_RCUTREE_H
#define RCU_RCUTREE_H

#include <stdbool.h>
#include <stdio.h>
#include <rcu/compiler.h>
#include <rcu/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Parameters use the kernel's boot-parameter names ("rcutree.blimit").
 * They are read from the environment variable RCU_BOOTARGS when the library
 * starts (first registration or update-side call, or lrcu_init()), and can
 * be set before that with lrcu_params_parse()/lrcu_param_set().  Parameters
 * that shape the tree (nr_cpus, rcutree.rcu_fanout*) are fixed once the
 * library has started; the others may change at any time.
 *
 * Both setters check everything before applying anything: on error they
 * return -1, apply nothing, and leave a one-line message naming the
 * parameter in err (if non-NULL).
 */
LRCU_API int lrcu_params_parse(const char *bootargs, char *err, size_t errlen);
LRCU_API int lrcu_param_set(const char *name, const char *value, char *err, size_t errlen);
/* 1 if name is a library parameter (rcutree.*, rcupdate.*, nr_cpus, ...). */
LRCU_API int lrcu_param_known(const char *name);
/* Current value of a parameter as text; -1 if unknown. */
LRCU_API int lrcu_param_get(const char *name, char *buf, size_t len);
/* Print "name=value" for every parameter, space-separated, one line. */
LRCU_API void lrcu_params_print(FILE *out);

/* Start the library explicitly (otherwise it starts on first use).
 * Returns 0, or -1 after printing why (e.g. a bad RCU_BOOTARGS). */
LRCU_API int lrcu_init(void);

/*
 * Stop the library and free everything it holds (rcu_shutdown()): run
 * every pending callback (call_rcu(), kfree_rcu(), call_srcu(); also the
 * callbacks those queue), unregister the calling thread, stop and join
 * the library's threads, free its memory.  Call it once no other thread
 * uses RCU or SRCU (they have unregistered and left their SRCU sections),
 * e.g. just before exit, for a clean valgrind or LeakSanitizer report.
 * Returns 0, or -1 with errno EBUSY (and a message) if another thread is
 * still registered; then nothing was stopped.  The library starts again
 * on its next use, reading RCU_BOOTARGS again.
 */
LRCU_API int lrcu_shutdown(void);

/*
 * The SCHED_FIFO priority the RCU threads run at (rcutree.kthread_prio),
 * 0 if they are ordinary threads (not asked for, or not allowed: no
 * CAP_SYS_NICE).  The kernel's rcu_get_gp_kthreads_prio(), which
 * rcutorture's boost test needs at 2 or more.
 */
LRCU_API int lrcu_get_gp_kthreads_prio(void);
static inline int rcu_get_gp_kthreads_prio(void) { return lrcu_get_gp_kthreads_prio(); }

/* Print the rcu_node tree: levels, nodes, which slots each leaf covers. */
LRCU_API void lrcu_print_tree(FILE *out);

struct lrcu_stats {
	unsigned long gp_seq;		/* current gp_seq */
	unsigned long gp_seq_needed;	/* furthest requested */
	unsigned long gps_completed;	/* since start */
	unsigned long gp_max_us;	/* longest grace period (at the kernel
					 * tick's resolution, as its jiffies) */
	unsigned long fqs_scans;	/* force-quiescent-state scans */
	unsigned long qs_reports;	/* slot reports that cleared a qsmask bit */
	unsigned long cbs_queued;	/* call_rcu() so far */
	unsigned long cbs_invoked;	/* callbacks invoked so far */
	unsigned long cbs_pending;	/* queued, not yet invoked */
	unsigned long cb_batches;	/* invocation batches */
	unsigned long cb_max_batch;	/* most callbacks invoked in one batch */
	unsigned long barriers;		/* rcu_barrier() passes performed */
	unsigned long cbs_orphaned;	/* callbacks moved off unregistered slots */
	int nr_registered;		/* registered threads (incl. library's) */
	int gp_state;			/* LRCU_GPS_* */
	unsigned long exp_gps;		/* grace periods run expedited */
	unsigned long stalls;		/* RCU CPU stall warnings printed */
	unsigned long exp_stalls;	/* ... for expedited grace periods */
	int nocb_offloaded;		/* CPUs whose callbacks are offloaded now */
	unsigned long lazy_pending;	/* lazy callbacks whose GP is not requested */
	unsigned long lazy_flushes;	/* lazy batches whose GP was requested */
	unsigned long gps_fenced;	/* grace periods that issued their heavy
					 * fence (membarrier() for rcu); the others
					 * ended on the scans before it
					 * (rcutree.gp_defer_fence) */
	unsigned long boosts;		/* readers boosted (rcutree.rcu_boost) */
};
LRCU_API int lrcu_get_stats(enum lrcu_flavor f, struct lrcu_stats *st);

/*
 * Callback offloading, seen from one CPU (rcu_nocbs=): its group's rcuog
 * thread (the leader, rcuog/leader_cpu) and its own rcuop/rcuos invoker.
 * A wakeup is a return from a sleep, whoever caused it; the leader's are
 * also counted by cause.  -1 without rcu_nocbs or for no such CPU.
 */
struct lrcu_nocb_info {
	int offloaded;			/* its callbacks go to its rcuo thread now */
	int leader_cpu;			/* first CPU of its group: rcuog/leader_cpu */
	int cb_tid, gp_tid;		/* the threads' ids, 0 until they run */
	unsigned long cb_wakeups;	/* its invoker woke */
	unsigned long gp_wakeups;	/* its group's rcuog thread woke, */
	unsigned long gp_end_wakes;	/* ... woken by the end of a grace period */
	unsigned long enqueue_wakes;	/* ... woken by call_rcu() */
};
LRCU_API int lrcu_nocb_info(enum lrcu_flavor f, int cpu, struct lrcu_nocb_info *info);

/* GP thread state, the kernel's RCU_GP_* names (lrcu_gp_state_name()). */
enum {
	LRCU_GPS_IDLE,		/* RCU_GP_IDLE: no GP in progress */
	LRCU_GPS_WAIT_GPS,	/* RCU_GP_WAIT_GPS: waiting for a request */
	LRCU_GPS_INIT,		/* RCU_GP_INIT: initialising the tree */
	LRCU_GPS_WAIT_FQS,	/* RCU_GP_WAIT_FQS: waiting for QSes/FQS time */
	LRCU_GPS_DOING_FQS,	/* RCU_GP_DOING_FQS: scanning holdouts */
	LRCU_GPS_CLEANUP,	/* RCU_GP_CLEANUP: ending the GP */
	LRCU_GPS_CLEANED,	/* RCU_GP_CLEANED: done, about to sleep */
};
LRCU_API const char *lrcu_gp_state_name(int state);
LRCU_API const char *lrcu_flavor_name(enum lrcu_flavor f);

/* One-line dump of a flavor's grace-period state (for hang reports):
 * "rcu_preempt: g<seq> f0x<flags> RCU_GP_WAIT_FQS(3) ... root ->qsmask 0x.." */
LRCU_API void lrcu_dump_gp_state(enum lrcu_flavor f, FILE *out);

/* The grace period in progress, on demand: its holdouts (slot, P<tid>,
 * name, how long, as a stall warning lists them) and the rcu_node masks
 * still set; "no grace period in progress" otherwise. */
LRCU_API void lrcu_dump_holdouts(enum lrcu_flavor f, FILE *out);

/* Count of detected misuses (lockdep splats, double call_rcu(), ...). */
LRCU_API unsigned long lrcu_misuse_count(void);

/* This thread's slot number, or -1 if it is not registered. */
LRCU_API int lrcu_thread_slot(void);

/* The leaf rcu_node (0 = leftmost) that "CPU" cpu (rcu_register_thread_cpu())
 * reports to, or -1 if there is no such CPU. */
LRCU_API int lrcu_cpu_leaf(int cpu);

#ifdef LRCU_TEST_HOOKS
/*
 * Test hooks for rcutorture (the kernel's CONFIG_RCU_TORTURE_TEST calls),
 * for a program that defines LRCU_TEST_HOOKS before including this
 * header: in librcu.a only (librcu.so does not export them), and not in
 * the installed headers (`make install` leaves this block out).
 *
 * lrcu_inject_gp_kthread_wait(): the kernel's rcu_gp_set_torture_wait(),
 * for rcutorture.stall_gp_kthread.  The flavor's grace-period thread
 * sleeps ms milliseconds in the next grace period it drives, after its
 * start, as if starved; until then callers leave their grace periods to
 * it (as the kernel's do), so that the next grace period anybody needs is
 * the one held, and every grace period waits behind it.  The stall
 * warning names the starved thread ("rcu_preempt kthread starved for").
 */
void lrcu_inject_gp_kthread_wait(enum lrcu_flavor f, unsigned long ms);
#endif

#ifdef __cplusplus
}
#endif

#endif /* RCU_RCUTREE_H */
