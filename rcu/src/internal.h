/* SPDX-License-Identifier: MIT */
/*
 * internal.h - the tree RCU's state: rcu_state, rcu_node, rcu_data.
 *
 * Every field says what it means, who writes it and under which lock.
 * "GP kthread" is the flavor's grace-period thread (tree.c); "owner" is
 * the registered thread that holds a slot.  Fields declared
 * __guarded_by(lock) are written only while that lock is held, which
 * debug builds check (lockdep.h; tests/rcu/lock_rules.t makes every write
 * go through its macros).
 *
 * Who calls whom among the files of rcu/src, lowest first; a file calls
 * the ones below it, never above, except where noted:
 *
 *   weakmem.c        the weak-memory emulation (make WEAKMEM=1): under
 *                    every access helper, so it calls nothing
 *   time.c, lock.c, params.c, segcblist.c, lockdep_graph.c (lock
 *                    dependencies), debug.c (messages, debug objects,
 *                    checks; one call up: registry.c says whether the
 *                    caller is in a read-side section)
 *   kthread.c        the library's threads (spawn, idle, park, stop)
 *   geometry.c, membarrier.c, and init.c's state (lrcu__states)
 *   tree.c           grace periods; tree_exp.c, tree_stall.c, boost.c
 *                    beside it
 *   registry.c       threads as CPUs: registration reports quiescent
 *                    states up the tree and, like the kernel's CPU
 *                    hotplug, moves a departing slot's callbacks
 *                    (callbacks.c) and onlines its rcuo threads
 *                    (tree_nocb.c): two deliberate calls up
 *   callbacks.c, lazy.c, tree_nocb.c    callbacks; they reach the grace
 *                    periods' ends through the GP hooks
 *                    (lrcu__gp_hook_add()), never called by tree.c
 *   update.c, barrier.c, stats.c, srcu*.c    the update-side API,
 *                    statistics, SRCU; tasks_trace.c: RCU Tasks Trace (on
 *                    SRCU); tasks*.c: RCU Tasks and Tasks Rude (their own
 *                    threads and queues, the stall reports)
 *   init.c's lrcu__start()/lrcu__stop(), which set every mechanism up,
 *                    and lifecycle.c: start, fork() and rcu_shutdown()
 *   inject.c         deliberate bugs (make INJECT=1), on top of the tree;
 *                    params.c hands it the bug asked for
 *
 * Every public entry point starts the library on first use through
 * lifecycle.c's lrcu__init_once(): the one call up from any level.
 * tests/rcu/layers.t reads the built objects and holds the files to this.
 */
#ifndef LRCU_INTERNAL_H
#define LRCU_INTERNAL_H

#define LRCU_TEST_HOOKS		/* their prototypes (<rcu/rcutree.h>): tree.c */
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <rcu/kernel.h>
#include <rcu/rcupdate.h>
#include "atomic.h"
#include "rcu_seq.h"
#include "segcblist.h"
#include "inject.h"
#include "lock.h"
#include "lockdep.h"

#ifdef LRCU_WEAKMEM
/*
 * The weak-memory build (weakmem.c): a pthread unlock, wait or wake
 * releases what came before it, but the emulation sees only the access
 * helpers, so without this a helper store made under a mutex could still
 * be pending for a helper load by the next holder (a false alarm: a
 * cblist length read as 0 by rcu_barrier()).  The calls drain the
 * caller's store buffer first: stronger than release, never weaker.
 * (pthread.h is in already: lock.h.)
 */
#define pthread_mutex_unlock(m)		(lrcu__wm_fence(), pthread_mutex_unlock(m))
#define pthread_rwlock_unlock(l)	(lrcu__wm_fence(), pthread_rwlock_unlock(l))
#define pthread_cond_wait(c, m)		(lrcu__wm_fence(), pthread_cond_wait(c, m))
#define pthread_cond_timedwait(c, m, t)	(lrcu__wm_fence(), pthread_cond_timedwait(c, m, t))
#define pthread_cond_clockwait(c, m, k, t) \
	(lrcu__wm_fence(), pthread_cond_clockwait(c, m, k, t))
#define pthread_cond_signal(c)		(lrcu__wm_fence(), pthread_cond_signal(c))
#define pthread_cond_broadcast(c)	(lrcu__wm_fence(), pthread_cond_broadcast(c))
#endif

#define LRCU_MAX_LEVELS		6	/* the kernel stops at 4; fanout 2
					 * with 16 threads + ours needs 5 */
#define LRCU_FANOUT_MAX		64	/* bits in a qsmask */
#define LRCU_JIFFY_US		1000	/* a jiffy is 1 ms here */
#define LRCU_TASKS_MAX_QUEUES	64	/* rcupdate.rcu_task_enqueue_lim's top */

/* ------------------------------------------------------------------ */
/* Parameters (params.c).  Read with READ_ONCE() where they may change at
 * run time; the geometry ones are fixed at init. */
struct lrcu__params {
	long nr_cpus;			/* nr_cpus: thread-slot capacity */
	long fanout;			/* rcutree.rcu_fanout */
	long fanout_leaf;		/* rcutree.rcu_fanout_leaf */
	long fanout_exact;		/* rcutree.rcu_fanout_exact */
	long jiffies_till_first_fqs;	/* rcutree.jiffies_till_first_fqs */
	long jiffies_till_next_fqs;	/* rcutree.jiffies_till_next_fqs */
	long blimit;			/* rcutree.blimit */
	long qhimark;			/* rcutree.qhimark */
	long qlowmark;			/* rcutree.qlowmark */
	long gp_preinit_delay;		/* rcutree.gp_preinit_delay (jiffies) */
	long gp_init_delay;		/* rcutree.gp_init_delay (jiffies) */
	long gp_cleanup_delay;		/* rcutree.gp_cleanup_delay (jiffies) */
	long debug_objects;		/* debug_objects: DEBUG_OBJECTS_RCU_HEAD */
	long use_membarrier;		/* rcupdate.use_membarrier: 0 forces fences */
	long self_register;		/* rcupdate.self_register: a thread's first
					 * section registers it (registry.c,
					 * reader_self_register()) */
	long fault_skip_leaf;		/* rcutree.fault_skip_leaf: -1, or a leaf
					 * whose holdouts the GP ignores (a
					 * deliberately broken RCU for tests) */
	/* Expedited grace periods (tree_exp.c). */
	long rcu_expedited;		/* rcupdate.rcu_expedited */
	long rcu_normal;		/* rcupdate.rcu_normal (wins) */
	long rcu_normal_after_boot;	/* rcupdate.rcu_normal_after_boot */
	long gp_caller_drives;		/* rcutree.gp_caller_drives: synchronize_*()
					 * drives its normal grace period itself */
	long gp_defer_fence;		/* rcutree.gp_defer_fence: 0 never, 1
					 * when the heavy fence is membarrier(),
					 * 2 always (tree.c, gp_fence_deferred()) */
	long gp_start_delay;		/* rcutree.gp_start_delay (ms): request ->
					 * GP kthread start (widens the race
					 * with expedited callers) */
	long fault_exp_skip_reader;	/* FAULT INJECTION: expedited GPs end
					 * without waiting for readers */
	long fault_exp_skip_fence;	/* FAULT INJECTION: expedited GPs skip
					 * the heavy fence, and see the stale
					 * words that allows (tree.c) */
	/* Stall warnings (tree_stall.c). */
	long cpu_stall_timeout_ms;	/* rcupdate.rcu_cpu_stall_timeout (s) */
	long cpu_stall_suppress;	/* rcupdate.rcu_cpu_stall_suppress */
	long exp_cpu_stall_timeout_ms;	/* rcupdate.rcu_exp_cpu_stall_timeout (ms,
					 * 0: rcu_cpu_stall_timeout) */
	long cpu_stall_info;		/* per-thread detail in warnings */
	long cpu_stall_verbose;		/* rcu_node tree dump in warnings */
	/* Callback offloading (tree_nocb.c) and lazy callbacks (lazy.c). */
	char rcu_nocbs[256];		/* rcu_nocbs=: "1-3,7", "all" or "" */
	long nocbs_given;		/* rcu_nocbs appeared (even empty): every
					 * CPU may be offloaded at run time */
	long nocb_poll;			/* rcu_nocb_poll: enqueuers never wake the
					 * rcuog threads, which poll */
	long nocb_gp_stride;		/* rcutree.rcu_nocb_gp_stride: CPUs per
					 * rcuog group; -1: nr_cpus / sqrt(nr_cpus) */
	long lazy_gp_delay;		/* rcutree.jiffies_lazy_flush (ms) a lazy
					 * callback may wait for a GP request */
	long enable_lazy;		/* rcutree.enable_rcu_lazy: call_rcu() is lazy */
	/* Real-time RCU threads and priority boosting (boost.c). */
	long kthread_prio;		/* rcutree.kthread_prio: SCHED_FIFO priority */
	long rcu_boost;			/* rcutree.rcu_boost: CONFIG_RCU_BOOST */
	long rcu_boost_delay;		/* rcutree.rcu_boost_delay (ms) */
	/* RCU Tasks and Tasks Rude (tasks.c). */
	long task_stall_timeout;	/* rcupdate.rcu_task_stall_timeout (ms) */
	long task_stall_info;		/* rcupdate.rcu_task_stall_info (ms) */
	long task_stall_info_mult;	/* rcupdate.rcu_task_stall_info_mult */
	long task_enqueue_lim;		/* rcupdate.rcu_task_enqueue_lim: queues,
					 * -1: one (fixed when a flavor starts) */
#ifdef LRCU_WEAKMEM
	/* The weak-memory emulation (weakmem.c): read at each access. */
	long wm_delay_us;		/* weakmem.delay_us: a store's longest
					 * wait before others see it; 0: none */
	long wm_mode;			/* weakmem.mode: 0 TSO, 1 weak */
#endif
};
extern struct lrcu__params lrcu__params;

/* ------------------------------------------------------------------ */
/* rcu_node: one node of the combining tree, stored heap-ordered in
 * rcu_state.node[] (root first, then each level left to right). */
struct lrcu_node {
	struct lrcu_lock lock;		/* protects the fields below (lock.h) */
	/* GP this node last saw start/end (lock; READ_ONCE() for
	 * diagnostics; see lrcu__node_waits_for() for the writes without) */
	unsigned long __guarded_by(lock) gp_seq;
	/* children (or slots) still owing a QS for the current GP (lock;
	 * WRITE_ONCE() so the root can be peeked at) */
	unsigned long __guarded_by(lock) qsmask;
	/* loaded into qsmask at GP start; written by the GP kthread only
	 * (under lock), so it reads it without the lock */
	unsigned long __guarded_by(lock) qsmaskinit;
	/* leaves: registered slots for the next GP; registration edits only
	 * this (lock) */
	unsigned long __guarded_by(lock) qsmaskinitnext;
	unsigned long joinmask;		/* leaves: slots that joined the flavor
					 * (used it once since registering);
					 * the others owe no grace period anything.
					 * Set by the joining thread, cleared when
					 * it leaves (atomic) */
	unsigned long grpmask;		/* this node's bit in parent (const) */
	int grplo, grphi;		/* slots covered, inclusive (const) */
	int grpnum;			/* bit number in parent (const) */
	int level;			/* 0 = root (const) */
	struct lrcu_node *parent;	/* NULL at the root (const) */
	/* statistic: bits cleared here (lock; atomic, for lrcu_get_stats()) */
	unsigned long __guarded_by(lock) n_qs_reports;
} __attribute__((aligned(LRCU_CACHELINE)));

/* ------------------------------------------------------------------ */
/* rcu_data: one per thread slot per flavor (plus the unbound slot). */
struct lrcu_data {
	/* Scanner side: fields the GP kthread reads under mynode->lock. */
	/* the slot's reader word for this flavor (in lrcu__rwords[]), NULL
	 * while the slot is free (leaf lock) */
	unsigned long *__guarded_by(mynode->lock) word;
	int *__guarded_by(mynode->lock) need_qs;	/* the slot's need_qs flag (leaf lock) */
	struct lrcu_node *mynode;	/* leaf covering this slot (const) */
	unsigned long grpmask;		/* bit in mynode's masks (const) */
	int slot;			/* slot number; nr_slots = unbound (const) */
	struct lrcu_state *rsp;		/* flavor this belongs to (const) */
	unsigned long fault_word;	/* rcutree.fault_exp_skip_fence: the word
					 * as the last GP saw it (GP driver) */

	/* Callbacks: cblock protects cbl and the fields after it. */
	pthread_mutex_t cblock __attribute__((aligned(LRCU_CACHELINE)));
	struct lrcu_cblist cbl;		/* segmented callback list */
	/* LRCU_CBO_*: who invokes them (cblock; WRITE_ONCE() for unlocked
	 * peeks) */
	int __guarded_by(cblock) cb_owner;
	/* a batch is out being invoked (cblock): nobody else may start one */
	bool __guarded_by(cblock) cb_busy;
	/* lazy callbacks whose GP is not yet requested (cblock; lazy.c) */
	long __guarded_by(cblock) lazy_len;
	/* when the first of them came; 0: none (cblock; WRITE_ONCE() for
	 * unlocked peeks) */
	unsigned long __guarded_by(cblock) lazy_since_us;
	unsigned long __guarded_by(cblock) lazy_snap;	/* the GP they need */
	/* above qhimark: no batch limit until below qlowmark (cblock) */
	bool __guarded_by(cblock) blimit_lifted;
	struct rcu_head barrier_head;	/* entrained by rcu_barrier() (cblock) */
	/* stats (cblock) */
	unsigned long __guarded_by(cblock) n_cbs_queued;
	unsigned long __guarded_by(cblock) n_cbs_invoked;
	unsigned long __guarded_by(cblock) n_cbs_orphaned;
	unsigned long __guarded_by(cblock) n_lazy_flushes;	/* lazy GP requests */
} __attribute__((aligned(LRCU_CACHELINE)));

/* rdp->cb_owner: the flavor's callback thread, or (offloaded) the slot's
 * rcuo thread. */
enum { LRCU_CBO_THREAD, LRCU_CBO_NOCB };

/* ------------------------------------------------------------------ */
/* Slot registry (registry.c): which thread holds which slot. */
struct lrcu_slot {
	/* owner's TLS; NULL if free (slots_lock) */
	struct lrcu_reader *__guarded_by(lrcu__slots_lock) reader;
	int __guarded_by(lrcu__slots_lock) tid;	/* owner's kernel thread id */
	char name[16];			/* owner's thread name at registration */
	/* PI futex the booster makes the owner hold while boosted (boost.c;
	 * atomic) */
	uint32_t boost_pi;
};

/* ------------------------------------------------------------------ */
/* Stall warnings (tree_stall.c): one watch per source of grace periods
 * (a flavor; later an SRCU domain).  All fields atomic. */
struct lrcu_stall {
	unsigned long gp_seq;		/* the grace period watched (its start
					 * value); meaningful while armed */
	unsigned long start_us;		/* when it started */
	unsigned long deadline_us;	/* next warning due; 0: not armed */
	int expedited;			/* it runs the expedited way */
	unsigned long n_reports;	/* warnings printed (statistic) */
	unsigned long n_exp_reports;	/* ... of which expedited */
};

/* What a stall warning prints about the source it watches. */
struct lrcu_stall_out;
struct lrcu_stall_source {
	const char *name;		/* "rcu_preempt", an SRCU domain's name */
	/* One line per holdout (lrcu__stall_holdout()); returns how many. */
	int (*print_holdouts)(void *arg, struct lrcu_stall_out *o, unsigned long now);
	/* Values of the "(detected by ...)" line: gp_seq and callbacks queued. */
	unsigned long (*gp_seq)(void *arg);
	unsigned long (*cbs_queued)(void *arg);
	/* Optional: its GP thread's state, for the "starved" line (NULL: none). */
	void (*print_starved)(void *arg, struct lrcu_stall_out *o, unsigned long now);
	void *arg;
};

/* GP hooks: what a mechanism needs to see of every grace period, whoever
 * drives it (tree.c calls them; see its theory comment). */
struct lrcu_state;
struct lrcu_gp_hooks {
	void (*gp_start)(struct lrcu_state *rsp, unsigned long gstart, unsigned long now_us);
	/* Called by the driver (driver=true) or a waiter each time it wakes
	 * while a GP waits for quiescent states (and, for waiters, before
	 * they sleep): returns the µs it may sleep before the next call,
	 * -1 for no limit. */
	long (*gp_check)(struct lrcu_state *rsp, unsigned long now_us, bool driver);
	void (*gp_end)(struct lrcu_state *rsp, unsigned long gend, unsigned long now_us);
};
#define LRCU_MAX_HOOKS	4

/* The keeper of the timers of some slots' lazy callbacks (lazy.c): the
 * flavor's callback thread, or an offloaded slot's rcuo thread. */
struct lrcu_lazy_keeper {
	unsigned long armed;		/* it will look at a new deferral without
					 * being woken (atomic; see lazy.c) */
	unsigned long period_end_us;	/* end of its running period; 0: none
					 * (the keeper's own) */
};

/* ------------------------------------------------------------------ */
/* rcu_state: one per flavor. */
struct lrcu_state {
	enum lrcu_flavor flavor;	/* LRCU_PREEMPT or LRCU_SCHED (const) */
	const char *name;		/* "rcu_preempt" / "rcu_sched" (const) */
	const char *gp_thread_name;	/* name of the GP kthread (const) */
	const char *cb_thread_name;	/* name of the callback thread (const) */

	unsigned long *gp_seq;		/* &lrcu_gp_pub[flavor].seq: written by
					 * the GP kthread only; read anywhere */
	unsigned long qsmaskinit_gen;	/* bumped after each ->qsmaskinitnext
					 * change (atomic; registry.c) */
	unsigned long qsmaskinit_seen;	/* value folded by the last GP init
					 * (GP kthread only) */
	unsigned long gp_seq_needed;	/* furthest GP end requested (atomic,
					 * only ever advanced, by CAS) */
	unsigned long gp_exp_needed;	/* furthest GP end asked for expedited by
					 * start_poll_synchronize_*_expedited()
					 * (atomic, advanced by CAS) */
	int gp_state;			/* LRCU_GPS_* (GP driver; READ_ONCE()) */
	unsigned long gp_start_us;	/* when the current GP started (driver) */
	unsigned long gp_activity_us;	/* last GP driver activity (WRITE_ONCE) */
	int gp_tid;			/* GP kthread's OS thread id (WRITE_ONCE) */
	unsigned long gp_torture_wait_ms;	/* test hook: the GP kthread sleeps
					 * this long in its next GP (atomic;
					 * lrcu_inject_gp_kthread_wait()) */

	/* The driver of the current grace period, the GP kthread or a
	 * caller of synchronize_*() (lrcu__gp_drive()), holds gp_mutex from
	 * init to cleanup; lrcu__gp_release() bumps gp_releases (atomic)
	 * and wakes gp_wq's waiters, if any, when it lets go. */
	pthread_mutex_t gp_mutex;
	int gp_expedited;		/* current GP runs expedited (driver;
					 * READ_ONCE() elsewhere) */
	int gp_by_caller;		/* a caller holds gp_mutex to drive
					 * (atomic: caller_drive_begin()) */
	/* the current GP's heavy fence is done: words outside a section
	 * count as quiescent (driver, gp_mutex) */
	bool __guarded_by(gp_mutex) gp_fenced;
	unsigned long gp_releases;
	int gp_wq_waiters;		/* threads in lrcu__gp_wq_wait() (atomic):
					 * a release with none broadcasts nothing */
	bool gp_driver_parked;		/* the driver is parked mid-GP for a
					 * fork() (kthread.c's lock) */

	/* Mechanisms that see every grace period (set at init). */
	const struct lrcu_gp_hooks *hooks[LRCU_MAX_HOOKS];
	int nr_hooks;
	struct lrcu_stall stall;	/* stall warnings (tree_stall.c) */

	/* Tree geometry (const after init). */
	struct lrcu_node *node;		/* nr_nodes nodes, heap order */
	int nr_nodes;
	int levels;
	int level_first[LRCU_MAX_LEVELS];	/* index of first node per level */
	int level_count[LRCU_MAX_LEVELS];	/* nodes per level */
	int levelspread[LRCU_MAX_LEVELS];	/* children per node per level */
	/* 1 + the highest leaf that ever had a registered slot (slots are
	 * taken lowest first, so usually a few leaves).  Grace periods look
	 * at no node to its right: their ->qsmaskinit stays 0.  Raised under
	 * lrcu__slots_lock before the ->qsmaskinit_gen bump that announces the
	 * slot (atomic). */
	int leaf_hwm;
	/* leaf_hwm as the current GP's init read it: what it walks (driver,
	 * gp_mutex) */
	int __guarded_by(gp_mutex) gp_leaves;

	struct lrcu_data *rda;		/* nr_slots + 1 (the last is unbound) */
	/*
	 * A bit per rda[] entry: set while it may hold callbacks.  Set
	 * under the slot's cblock whenever callbacks arrive, cleared under
	 * it when the last one has run (callbacks.c), so what walks it at
	 * every grace period's end costs the slots with callbacks, not
	 * every slot a thread ever held.  A stale set bit costs a peek; a
	 * missing one would strand callbacks.  (Atomic: slots share words.)
	 */
	unsigned long *cb_slots;

	/* Waking the driver of a grace period waiting for quiescent states
	 * (holdouts' reports, force_quiescent_state): a wake word. */
	uint32_t gp_wake;
	/* Waking the idle GP kthread (requests): a wake word. */
	uint32_t gp_req_wake;
	/* Waiting for a GP end: synchronize_*() sleeps here. */
	pthread_mutex_t gp_wq_lock;
	pthread_cond_t gp_wq;

	/* Callback invocation thread (callbacks.c). */
	uint32_t cb_wake;		/* futex word bumped by every waker */
	struct lrcu_lazy_keeper lazy;	/* it keeps the timers of the lazy
					 * callbacks of the slots it serves */

	/* Callback offloading (tree_nocb.c); NULL without rcu_nocbs. */
	struct lrcu_nocb *nocb;

	/* rcu_barrier() (barrier.c). */
	pthread_mutex_t barrier_mutex;	/* one rcu_barrier() at a time */
	pthread_mutex_t barrier_lock;	/* excludes callback migration while
					 * entraining (taken before cblock) */
	unsigned long barrier_seq;	/* rcu_seq of barrier passes */
	long barrier_cpu_count;		/* barrier callbacks outstanding (atomic) */
	pthread_mutex_t barrier_done_lock;
	pthread_cond_t barrier_done;

	/* Statistics (atomics, relaxed).  The first five have one writer,
	 * the GP driver (gp_mutex): no read-modify-write (lrcu__stat_add()). */
	unsigned long n_gps;
	unsigned long n_exp_gps;	/* ... of which run expedited */
	unsigned long n_gps_fenced;	/* grace periods that issued their heavy
					 * fence (the others ended before it) */
	unsigned long gp_max_us;
	unsigned long n_fqs_scans;
	unsigned long n_cb_batches;
	unsigned long cb_max_batch;
	unsigned long n_barriers;
};

extern struct lrcu_state lrcu__states[LRCU_NR_FLAVORS];	/* init.c: their home */
#define LRCU_NR_CB_THREADS	2	/* the flavors' callback threads */
extern int lrcu__nr_internal;		/* slots of library threads: those two,
					 * then the rcuo threads (const) */
extern int lrcu__nr_slots;		/* lrcu__nr_internal + nr_cpus (const) */
extern int lrcu__slots_hwm;		/* 1 + highest slot ever used (atomic) */
extern struct lrcu_slot *lrcu__slots;
/* The slots' reader words, one line each, indexed by slot: registered
 * threads' markers write there (lrcu_reader.rw), so one grace-period scan
 * reads consecutive lines instead of every thread's TLS block. */
extern struct lrcu_rword *lrcu__rwords;
extern pthread_mutex_t lrcu__slots_lock;

/* ------------------------------------------------------------------ */
/* Shared helpers */

/* init.c: set up and start the tree (init_lock held, lifecycle.c) /
 * stop it and free its memory (its threads already stopped). */
int lrcu__start(void);
void lrcu__stop(void);

/* lifecycle.c: starting the library, fork() and shutdown */
void lrcu__init_once(void);		/* lrcu_init() or die trying */

/* kthread.c: the library's threads */
/*
 * Start a library thread (joinable, every signal blocked).  It must call
 * lrcu__kthread_check() at the top of its loop and sleep only in
 * lrcu__kthread_idle(), holding no lock at either, and return from fn when
 * they return true; then fork() parks and restarts it and rcu_shutdown()
 * stops it.  Returns 0 or an errno value.  A mechanism that starts its
 * thread on demand sets its "started" flag and calls this under one lock
 * its fork step takes, so that a fork sees both or neither.
 */
int lrcu__spawn(void *(*fn)(void *), void *arg, const char *name);
bool lrcu__kthread_check(void);		/* parks for a fork; true: stop */
/* The idle sleep: futex wait on *word while it is val (sampled before
 * looking for work), at most timeout_us (< 0: no limit); true: stop. */
bool lrcu__kthread_idle(uint32_t *word, uint32_t val, long timeout_us);
bool lrcu__kthread_requested(void);	/* a park or stop is asked for */
bool lrcu__fork_pending(void);		/* a fork() is being prepared */
/* A GP driver parks here (holding gp_mutex only); *parked tells the
 * forking thread, which may then leave that flavor's gp_mutex alone. */
void lrcu__fork_park(bool *parked);
void lrcu__fork_notify(void);		/* a GP driver let go of gp_mutex */
/* Fork steps of a mechanism whose locks user threads may hold: PREPARE
 * takes them (in the library's lock order), PARENT and CHILD release them
 * (the child then re-initialises what dead threads may hold). */
enum lrcu_fork_phase { LRCU_FORK_PREPARE, LRCU_FORK_PARENT, LRCU_FORK_CHILD };
void lrcu__fork_mutex(pthread_mutex_t *m, enum lrcu_fork_phase ph);
void lrcu__fork_reclaim(pthread_mutex_t *m);	/* child: maybe a dead thread's */
/* For lifecycle.c's fork() and shutdown steps. */
enum lrcu_kt_request { LRCU_KT_RUN, LRCU_KT_PARK, LRCU_KT_STOP };
bool lrcu__in_kthread(void);		/* the caller is a library thread */
bool lrcu__kthread_tid(int tid);	/* tid is a library thread (RCU Tasks) */
/* Ask every library thread to run on, park or stop, and wake it. */
void lrcu__kthreads_request(enum lrcu_kt_request req);
/* Wait until every library thread is parked and held() (called under
 * the threads' lock, which also guards the GP drivers' parked flags). */
void lrcu__kthreads_wait_parked(bool (*held)(void));
void lrcu__kthreads_fork(enum lrcu_fork_phase ph);	/* the threads' lock */
void lrcu__kthreads_fork_child(void);	/* child: nobody parked, nothing asked */
void lrcu__kthreads_restart(void);	/* child: start every thread again */
void lrcu__kthreads_join(void);		/* after LRCU_KT_STOP: join and forget them */
extern int lrcu__kthread_prio;		/* the RCU threads' SCHED_FIFO priority,
					 * 0: ordinary (boost.c sets it at start) */
/* params.c */
void lrcu__params_freeze(void);		/* fixed parameters are now fixed */
void lrcu__params_thaw(void);		/* ... until the library stops */
/* time.c */
unsigned long lrcu__now_us(void);
unsigned long lrcu__now_coarse_us(void);	/* at the tick's resolution */
void lrcu__sleep_us(unsigned long us);
/* Wait on a wake word sampled as val (returns early on change/timeout);
 * bump one and wake its sleepers, if any (time.c: "Wake words"). */
void lrcu__futex_wait(uint32_t *word, uint32_t val, long timeout_us);
void lrcu__wake(uint32_t *word);
bool lrcu__woken_since(uint32_t *word, uint32_t val);	/* bumped since val */
#define LRCU_SPIN_US	50	/* poll this long before sleeping */
bool lrcu__spin_until(bool (*cond)(void *), void *arg, unsigned long us);
#define LRCU_POLLS	100	/* lrcu__poll_briefly(): polls before a sleep */
#define LRCU_RESCANS	16	/* ... that each scan the holdouts' words */
#define LRCU_UNFENCED_US 2	/* ... at most this long before the heavy
				 * fence (tree.c, gp_wait_unfenced()) */
bool lrcu__poll_briefly(bool (*cond)(void *), void *arg, int polls);

/* membarrier.c */
void lrcu__membarrier_init(void);
void lrcu__membarrier_fork_child(void);
void lrcu__heavy_fence(void);	/* pairs with lrcu_reader_fence() */

/* geometry.c */
int lrcu__geometry_init(struct lrcu_state *rsp, int nr_slots, char *err, size_t len);
static inline bool lrcu_node_is_leaf(const struct lrcu_state *rsp, const struct lrcu_node *rnp)
{
	return rnp->level == rsp->levels - 1;
}
#define lrcu_for_each_node(rsp, rnp) \
	for ((rnp) = (rsp)->node; (rnp) < (rsp)->node + (rsp)->nr_nodes; (rnp)++)
#define lrcu_for_each_leaf(rsp, rnp) \
	for ((rnp) = (rsp)->node + (rsp)->level_first[(rsp)->levels - 1]; \
	     (rnp) < (rsp)->node + (rsp)->nr_nodes; (rnp)++)

/*
 * The nodes a grace period may involve, breadth-first (parents before
 * children): on each level, those covering a slot of the first `leaves'
 * leaves (lrcu_leaf_hwm()).  A tree sized for 4096 threads of which a
 * few are registered is walked in a few nodes, not hundreds.
 */
static inline int lrcu_leaf_hwm(struct lrcu_state *rsp)
{
	/* Acquire pairs with the release in registry.c's slot_attach(). */
	return smp_load_acquire(&rsp->leaf_hwm);
}

static inline struct lrcu_node *lrcu_node_next_used(struct lrcu_state *rsp,
						    struct lrcu_node *rnp, int leaves)
{
	struct lrcu_node *leaf0 = rsp->node + rsp->level_first[rsp->levels - 1];
	int l = rnp->level;

	if (rnp + 1 < rsp->node + rsp->level_first[l] + rsp->level_count[l] &&
	    leaves > 0 && rnp[1].grplo <= leaf0[leaves - 1].grphi)
		return rnp + 1;
	return l + 1 < rsp->levels ? rsp->node + rsp->level_first[l + 1] : NULL;
}
#define lrcu_for_each_node_used(rsp, rnp, leaves) \
	for ((rnp) = (rsp)->node; (rnp); (rnp) = lrcu_node_next_used((rsp), (rnp), (leaves)))
#define lrcu_for_each_leaf_used(rsp, rnp, leaves) \
	for ((rnp) = (rsp)->node + (rsp)->level_first[(rsp)->levels - 1]; \
	     (rnp) < (rsp)->node + (rsp)->level_first[(rsp)->levels - 1] + (leaves); (rnp)++)
/*
 * Lock a node.  The fence makes the previous unlock (of a child, on the
 * reporting path) plus this lock a full barrier, as the kernel's
 * smp_mb__after_unlock_lock() does: a QS reported at a child is ordered
 * before whatever the parent's holder does next, including ending the
 * grace period.  On x86 the lock already is one (lock.h takes it with a
 * locked read-modify-write, a full barrier there), so the fence would
 * only cost.
 */
static inline void lrcu__node_lock(struct lrcu_node *rnp)
{
	lrcu__lock(&rnp->lock);
#if !defined(__x86_64__) && !defined(__i386__)
	smp_mb();	/* pairs with the fences of the reporters' unlock+lock */
#else
	barrier();
#endif
}

static inline void lrcu__node_unlock(struct lrcu_node *rnp)
{
	lrcu__unlock(&rnp->lock);
}

/* Count one for a statistic that has a single writer (a relaxed load and
 * store: no locked instruction; readers load it relaxed). */
static inline void lrcu__stat_add(unsigned long *c, unsigned long n)
{
	WRITE_ONCE(*c, READ_ONCE(*c) + n);
}

/*
 * With rnp (rdp's leaf) locked: the grace period rnp is in, if that grace
 * period still waits for rdp's slot; else 0 (never a grace period in
 * progress).  ->gp_seq is read once: gp_cleanup() stamps it without the
 * lock, which it may because then no node waits for anything.
 */
static inline unsigned long lrcu__node_waits_for(struct lrcu_node *rnp, struct lrcu_data *rdp)
{
	unsigned long g = READ_ONCE(rnp->gp_seq);	/* pairs with WRITE_ONCE() in tree.c */

	return rcu_seq_state(g) && (rnp->qsmask & rdp->grpmask) ? g : 0;
}

/* tree.c */
int lrcu__tree_start(struct lrcu_state *rsp);
/* fork(): wake the GP drivers and kthreads; hold every flavor's grace
 * periods (a parked driver, or gp_mutex taken into own[]: false if not
 * yet); let go of them again in the parent or the child. */
void lrcu__tree_kick(void);
bool lrcu__tree_fork_hold(bool own[LRCU_NR_FLAVORS]);
void lrcu__tree_fork_release(bool own[LRCU_NR_FLAVORS], bool child);
void lrcu__gp_hook_add(struct lrcu_state *rsp, const struct lrcu_gp_hooks *h);
void lrcu__gp_request(struct lrcu_state *rsp, unsigned long snap);
void lrcu__gp_request_exp(struct lrcu_state *rsp, unsigned long snap);
void lrcu__gp_want_exp(struct lrcu_state *rsp, unsigned long snap);
void lrcu__gp_note_request(struct lrcu_state *rsp, unsigned long snap);
void lrcu__gp_wait(struct lrcu_state *rsp, unsigned long snap);
void lrcu__gp_wq_wait(struct lrcu_state *rsp, bool (*stop)(void *), void *arg);
void lrcu__gp_watch(struct lrcu_state *rsp);	/* the callback thread's stall check */
void lrcu__gp_run(struct lrcu_state *rsp, bool expedited);	/* gp_mutex held */
void lrcu__gp_drive(struct lrcu_state *rsp, unsigned long snap, bool expedited);
bool lrcu__gp_try_drive(struct lrcu_state *rsp, unsigned long snap);
/* May callers drive grace periods (normal ones: rcutree.gp_caller_drives),
 * or only the GP kthread (always with real-time RCU threads: boost.c)? */
bool lrcu__callers_drive(bool expedited);
void lrcu__gp_release(struct lrcu_state *rsp);			/* drops gp_mutex */
void lrcu__report_qs_rnp(struct lrcu_state *rsp, unsigned long mask,
			struct lrcu_node *rnp, unsigned long gp_seq);
void lrcu__report_qs_slot(struct lrcu_state *rsp, struct lrcu_data *rdp);

/* registry.c */
/*
 * Inside an rcu_sched section the markers counted: any, in a program built
 * with CONFIG_PROVE_RCU, else only one entered while offline (the release
 * markers count nothing else).  What the library's own checks test, whatever
 * its build: rcu_read_lock_sched_held() says "maybe" online in a release one.
 */
static inline bool lrcu__sched_counted(void)
{
	return (lrcu_reader.sched_nesting & LRCU_SN_DEPTH) != 0;
}
extern const struct lrcu_rword lrcu__rword_unbound;	/* ->rw until bound */
void lrcu__registry_init(void);
void lrcu__registry_stop(void);
int lrcu__registry_others(void);		/* user threads registered but us */
void lrcu__registry_fork_child(void);	/* give up the other threads' slots */
int lrcu__register_internal(const char *name);
void lrcu__reader_unprotected(const char *what);	/* fatal after a failed registration */
void lrcu__sched_block_begin(bool *was_online);
void lrcu__sched_block_end(bool was_online);

/*
 * Walk the rcu_data of every slot that was ever used, then the unbound
 * one (slots above the high-water mark never held callbacks).  The
 * acquire load of the mark pairs with the release in register_slot(), so
 * the walked slots' rcu_data are initialised.
 */
static inline struct lrcu_data *lrcu_rdp_next(struct lrcu_state *rsp,
					      struct lrcu_data *rdp, int hwm)
{
	int i = (int)(rdp - rsp->rda) + 1;

	if (i == hwm)
		i = lrcu__nr_slots;
	return i <= lrcu__nr_slots ? &rsp->rda[i] : NULL;
}
#define lrcu_for_each_used_rdp(rsp, rdp, hwm)					\
	for ((hwm) = smp_load_acquire(&lrcu__slots_hwm),	/* see above */	\
	     (rdp) = &(rsp)->rda[(hwm) ? 0 : lrcu__nr_slots];			\
	     (rdp); (rdp) = lrcu_rdp_next((rsp), (rdp), (hwm)))

/* srcu*.c: fork() steps (domains, srcu_worker, reader records) and
 * shutdown (every domain's callbacks run, then its state freed). */
void lrcu__srcu_fork(enum lrcu_fork_phase ph);
void lrcu__srcu_fork_child(void);
unsigned long lrcu__srcu_shutdown_barrier(void);	/* callbacks queued so far */
/* tasks.c: RCU Tasks and Tasks Rude (their state: tasks_internal.h) */
void lrcu__tasks_fork(enum lrcu_fork_phase ph);
unsigned long lrcu__tasks_shutdown_barrier(void);	/* callbacks queued so far */
void lrcu__tasks_stop(void);		/* after their threads are joined */
void lrcu__srcu_shutdown_free(void);

/* update.c: the prelude of every blocking update-side call */
void lrcu__update_begin(enum lrcu_flavor f, const char *caller, bool *was_online);
void lrcu__update_end(bool was_online);

/* tree_exp.c: wait for the grace period ending at snap, expedited */
void lrcu__exp_wait(struct lrcu_state *rsp, unsigned long snap);

/* boost.c: real-time RCU threads and priority boosting.  Setup at start
 * (before any thread or lock), the rcu flavor's booster, and the
 * reader's half (the outermost rcu_read_unlock()'s slow path). */
void lrcu__boost_setup(void);
int lrcu__boost_init(struct lrcu_state *rsp);
unsigned long lrcu__boost_count(void);	/* readers boosted */
void lrcu__boost_unlock(void);

/* tree_stall.c: the flavors' hooks, and the API any source of grace
 * periods (a flavor, an SRCU domain) uses to get stall warnings. */
void lrcu__stall_init(struct lrcu_state *rsp);
void lrcu__stall_fork(enum lrcu_fork_phase ph);	/* report_lock */
void lrcu__stall_arm(struct lrcu_stall *st, unsigned long gp_seq, unsigned long now,
		    bool expedited);
void lrcu__stall_disarm(struct lrcu_stall *st);
/* Is a warning due?  If so the caller has claimed it (print it with
 * lrcu__stall_report()); *next_us: how long until the next check. */
bool lrcu__stall_due(struct lrcu_stall *st, unsigned long now, long *next_us);
bool lrcu__stall_overdue(struct lrcu_stall *st, unsigned long now);	/* signal-safe */
void lrcu__stall_report(struct lrcu_stall *st, const struct lrcu_stall_source *src,
		       unsigned long now);
__attribute__((format(printf, 2, 3)))
void lrcu__stall_printf(struct lrcu_stall_out *o, const char *fmt, ...);
void lrcu__stall_holdout(struct lrcu_stall_out *o, int slot, int tid, const char *name,
			unsigned long ms, unsigned long gps_behind);

/* callbacks.c */
void lrcu__cb_init(struct lrcu_state *rsp);	/* its GP hook; before threads */
int lrcu__cb_thread_start(struct lrcu_state *rsp);
void lrcu__cb_wake(struct lrcu_state *rsp);
void lrcu__cb_slot_busy(struct lrcu_state *rsp, struct lrcu_data *rdp);	/* cblock held */
#define LRCU_LONG_BITS	(8 * (int)sizeof(unsigned long))
static inline size_t lrcu_cb_slots_words(void)
{
	return (size_t)(lrcu__nr_slots + 1 + LRCU_LONG_BITS - 1) / LRCU_LONG_BITS;
}
void lrcu__migrate_callbacks(struct lrcu_state *rsp, struct lrcu_data *rdp);
struct lrcu_data *lrcu__this_rdp(struct lrcu_state *rsp);
/* Invoke one batch of rdp's ready callbacks (advanced to `cur') if
 * `invoker' owns the slot and no batch is out; true if more are ready. */
bool lrcu__cb_invoke(struct lrcu_state *rsp, struct lrcu_data *rdp, unsigned long cur,
		    int invoker);
/* Sleep until *wake moves from w, offline for rcu_sched (callback threads). */
bool lrcu__cb_sleep(uint32_t *wake, uint32_t w, long timeout_us);	/* true: stop */

/* lazy.c: lazy callbacks (kfree_rcu(), call_rcu() with enable_rcu_lazy)
 * wait up to rcutree.jiffies_lazy_flush before their GP is requested.
 * defer and covered with rdp->cblock held. */
enum lrcu_lazy { LRCU_LAZY_NOW, LRCU_LAZY_DEFERRED, LRCU_LAZY_ARMED };
enum lrcu_lazy lrcu__lazy_defer(struct lrcu_state *rsp, struct lrcu_data *rdp,
			       unsigned long snap, unsigned long now);
void lrcu__lazy_covered(struct lrcu_data *rdp, unsigned long snap);
/* Request the GP of every slot's deferred lazy callbacks (rcu_barrier()). */
void lrcu__lazy_flush_all(struct lrcu_state *rsp);
/* A slot's first deferral (LRCU_LAZY_ARMED): true if its keeper must be
 * woken to time it. */
bool lrcu__lazy_keeper_wake(struct lrcu_lazy_keeper *k);
/* A keeper's pass over the slots it serves: begin, each slot, end. */
struct lrcu_lazy_pass {
	struct lrcu_lazy_keeper *k;
	unsigned long now;
	bool flush;			/* its period is over: flush them all */
	bool due;			/* some were flushed, needing GP snap */
	unsigned long snap;
	bool deferred;			/* some still wait, for GP deferred_gp */
	unsigned long deferred_gp;
	long sleep_us;			/* until the first deferral is due */
};
void lrcu__lazy_pass_begin(struct lrcu_lazy_keeper *k, struct lrcu_lazy_pass *p);
void lrcu__lazy_pass_slot(struct lrcu_state *rsp, struct lrcu_lazy_pass *p,
			 struct lrcu_data *rdp, int owner);	/* takes cblock */
/* Drive (or request) the GP of those flushed: true if it has ended, so
 * that the keeper invokes them now; *sleep_us: how long it may sleep. */
bool lrcu__lazy_pass_end(struct lrcu_state *rsp, struct lrcu_lazy_pass *p, long *sleep_us);

/* tree_nocb.c: callback offloading */
int lrcu__nocb_nr_slots(void);			/* internal slots it needs */
int lrcu__nocb_init(struct lrcu_state *rsp);	/* before threads; 0 or -1 */
void lrcu__nocb_cpu_online(int slot);		/* a slot was registered */
/* call_rcu() queued on an offloaded slot (after dropping cblock). */
void lrcu__nocb_queued(struct lrcu_state *rsp, struct lrcu_data *rdp, enum lrcu_lazy lz);
/* Wake every rcuo thread of the flavor (rcu_barrier(), lazy flushes). */
void lrcu__nocb_kick_all(struct lrcu_state *rsp);
/* A batch of an offloaded slot ended with another owner: wake it. */
void lrcu__nocb_wake_invoker(struct lrcu_state *rsp, struct lrcu_data *rdp);
int lrcu__nocb_nr_offloaded(struct lrcu_state *rsp);	/* statistics */
void lrcu__nocb_fork(enum lrcu_fork_phase ph);	/* toggle_lock: before the tree's */
void lrcu__nocb_stop(void);			/* rcu_shutdown(): free, forget */
/* params.c: parse CPU list s ("1-3,7", "0-7:2/4", "N", "all", "").  With
 * set (nr_cpus entries), mark its CPUs, ignoring and counting (*beyond)
 * those at or above nr_cpus.  Returns 0, or -1 with a message in err. */
int lrcu__cpulist_parse(const char *s, long nr_cpus, bool *set, long *beyond,
			char *err, size_t errlen);

/* debug.c */
void lrcu__debug_fork(enum lrcu_fork_phase ph);		/* the object table */
void lrcu__debug_shutdown(void);				/* forget every object */
bool lrcu__debug_head_queue(struct rcu_head *head);	/* false: reject */
void lrcu__debug_head_unqueue(struct rcu_head *head);
void lrcu__misuse(void);
void lrcu__check_blocking(enum lrcu_flavor f, const char *caller);
/* A section begun on a thread that never registered: reported once. */
void lrcu__read_lock_unregistered(const char *what);
__attribute__((noreturn, format(printf, 1, 2))) void lrcu__fatal(const char *fmt, ...);
/* Messages from async-signal-safe paths: no stdio, one write(2). */
struct lrcu_msg {
	size_t len;
	char buf[480];
};
void lrcu__msg_str(struct lrcu_msg *m, const char *s);
void lrcu__msg_num(struct lrcu_msg *m, long v);
void lrcu__msg_write(const struct lrcu_msg *m);			/* to stderr */
__attribute__((noreturn)) void lrcu__msg_fatal(const struct lrcu_msg *m);	/* + abort() */

#endif /* LRCU_INTERNAL_H */
