/* SPDX-License-Identifier: MIT */
/*
 * rcu/rcupdate.h - the RCU API with the Linux kernel's names.
 *
 * Flavors
 *   rcu      rcu_read_lock()/rcu_read_unlock(): preemptible readers that may
 *            block; nest; wait-free; no atomic read-modify-write and, where
 *            the kernel offers membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED),
 *            no fence (grace periods pay with one membarrier() instead).
 *   rcu_bh   an alias of rcu, as in kernels since the flavor consolidation.
 *   rcu_sched quiescent-state based (QSBR).  Contract:
 *            - A registered thread joins the sched flavor the first time it
 *              calls rcu_read_lock_sched() or rcu_quiescent_state().
 *            - From then on, sched grace periods wait for that thread to
 *              announce a quiescent state with rcu_quiescent_state(), to go
 *              offline with rcu_thread_offline(), or to unregister.  A
 *              joined thread that does none of these for a long time holds
 *              every sched grace period up.
 *            - rcu_read_lock_sched()/rcu_read_unlock_sched() only mark the
 *              section (cost: a thread-local increment); calling
 *              rcu_quiescent_state() inside one is a bug (reported).
 *            - Threads that never use the flavor never hold it up.
 *            - The blocking update-side calls (synchronize_*, rcu_barrier*,
 *              cond_synchronize_*) take a joined caller offline while they
 *              wait, so they cannot wait for the caller itself.
 *            Free markers: a program (or one file of it) that defines
 *            LRCU_SCHED_FREE_MARKERS before including this header gets
 *            rcu_read_lock_sched()/rcu_read_unlock_sched() that compile to
 *            a compiler barrier, as liburcu-qsbr's, and takes liburcu-qsbr's
 *            contract: a thread reads under them only while online in the
 *            flavor, i.e. after its first rcu_quiescent_state() since it
 *            registered and outside rcu_thread_offline()/_online() (no
 *            sections on offline threads or in their signal handlers), and
 *            nothing reports rcu_quiescent_state() or synchronize_sched()
 *            inside a section.  Built with CONFIG_PROVE_RCU the markers
 *            count again, and a section on a thread not online is
 *            reported.
 *
 * Threads
 *   A registered thread plays the role of a CPU: rcu_register_thread() and
 *   rcu_unregister_thread() are CPU online/offline; rcu_thread_offline() and
 *   rcu_thread_online() enter and leave an extended quiescent state (call
 *   them around blocking I/O).  Read-side sections need a registered
 *   thread; one entered on an offline thread (typically by a signal
 *   handler) is protected all the same, as an interrupt taken from the
 *   kernel's idle loop is.  A registered thread joins each flavor with
 *   its first section of it (a one-time slow path), so grace periods
 *   never wait for, nor look at, threads that registered and never read.
 *   Update-side calls work from any thread.
 *
 * Processes
 *   fork() is handled (pthread_atfork()): the child gets the library's
 *   threads again, keeps the calling thread's registration (and its open
 *   read-side section, if any), loses every other thread's (as if each
 *   had unregistered), and its pending callbacks, grace periods and
 *   barriers complete.  fork() waits for no grace period.  It must not be
 *   called from an RCU or SRCU callback.  rcu_shutdown() stops the
 *   library's threads and frees everything (<rcu/rcutree.h>).
 *
 * Callbacks
 *   call_rcu() queues on the caller's thread slot (unregistered callers
 *   share one extra slot).  Callbacks are invoked, in the order they were
 *   queued on a slot, by the flavor's callback thread ("rcu_cb_preempt" /
 *   "rcu_cb_sched") or, for an offloaded slot (rcu_nocbs=), by the slot's
 *   own "rcuop/N" / "rcuos/N" thread; never by the thread that queued
 *   them.  Those threads are registered, so callbacks may use
 *   rcu_read_lock(); they must not block for long and must not call
 *   synchronize_*() or rcu_barrier*().
 *
 * Errors
 *   Calling synchronize_*() or rcu_barrier*() inside a read-side section
 *   of the same flavor (or any blocking call inside an rcu_sched section),
 *   or from inside a callback, would deadlock: the library prints
 *   "rcu: BUG: ..." naming the call and aborts.
 */
#ifndef RCU_RCUPDATE_H
#define RCU_RCUPDATE_H

#include <stdbool.h>
#include <stddef.h>
#include <rcu/compiler.h>
#include <rcu/types.h>
#include <rcu/static/rcupdate.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/* Library entry points (exported, prefixed).  The kernel names below   */
/* are inline wrappers around these.                                    */

LRCU_API int lrcu_init(void);
LRCU_API int lrcu_shutdown(void);
LRCU_API int lrcu_register_thread(void);
LRCU_API int lrcu_register_thread_cpu(int cpu);
LRCU_API int lrcu_unregister_thread(void);
LRCU_API void lrcu_thread_offline(void);
LRCU_API void lrcu_thread_online(void);

LRCU_API void lrcu_synchronize(enum lrcu_flavor f, const char *caller);
LRCU_API void lrcu_call(enum lrcu_flavor f, struct rcu_head *head, rcu_callback_t func);
LRCU_API void lrcu_call_hurry(enum lrcu_flavor f, struct rcu_head *head, rcu_callback_t func);
LRCU_API void lrcu_kfree_call(struct rcu_head *head, size_t offset);
LRCU_API void lrcu_barrier(enum lrcu_flavor f, const char *caller);
LRCU_API unsigned long lrcu_get_state(enum lrcu_flavor f);
LRCU_API unsigned long lrcu_start_poll(enum lrcu_flavor f);
LRCU_API bool lrcu_poll_state(enum lrcu_flavor f, unsigned long cookie);
LRCU_API void lrcu_cond_sync(enum lrcu_flavor f, unsigned long cookie, const char *caller);
LRCU_API void lrcu_force_qs(enum lrcu_flavor f);
LRCU_API void lrcu_synchronize_expedited(enum lrcu_flavor f, const char *caller);
LRCU_API unsigned long lrcu_start_poll_expedited(enum lrcu_flavor f);
LRCU_API void lrcu_cond_sync_expedited(enum lrcu_flavor f, unsigned long cookie, const char *caller);
LRCU_API void lrcu_expedite_gp(void);
LRCU_API void lrcu_unexpedite_gp(void);
LRCU_API bool lrcu_gp_is_expedited(void);
LRCU_API bool lrcu_gp_is_normal(void);
LRCU_API void lrcu_end_inkernel_boot(void);
LRCU_API int lrcu_nocb_cpu_offload(int cpu);
LRCU_API int lrcu_nocb_cpu_deoffload(int cpu);

enum lrcu_head_op {
	LRCU_HEAD_INIT,
	LRCU_HEAD_INIT_ON_STACK,
	LRCU_HEAD_DESTROY,
	LRCU_HEAD_DESTROY_ON_STACK,
};
LRCU_API void lrcu_head_debug(struct rcu_head *head, enum lrcu_head_op op);
LRCU_API void lrcu_lockdep_splat(const char *file, int line, const char *msg, bool *once);

/* ------------------------------------------------------------------ */
/* Threads ("CPUs")                                                     */

/* Start the library now (otherwise it starts on first use): the name
 * liburcu and perfbook programs call.  Returns 0, or -1 after printing why
 * (see lrcu_init() in <rcu/rcutree.h>). */
static inline int rcu_init(void) { return lrcu_init(); }

/*
 * Take a thread slot.  Returns 0, or -1 with errno ENOSPC when all nr_cpus
 * slots are taken (a message naming the limit is printed) or EBUSY if the
 * thread is already registered.  Check it: a read-side section in a
 * thread whose registration failed would not be seen by grace periods, so
 * it stops the program ("rcu: BUG: ..."); register before reading.
 */
static inline int rcu_register_thread(void) { return lrcu_register_thread(); }
/* Register as "CPU" cpu (0 <= cpu < nr_cpus), as a CPU with a fixed number
 * comes online; -1 with errno EBUSY if that CPU is taken, EINVAL if there
 * is no such CPU.  Lets a test place threads in chosen rcu_node leaves. */
static inline int rcu_register_thread_cpu(int cpu) { return lrcu_register_thread_cpu(cpu); }
/* Give the slot back; queued callbacks move to another slot. */
static inline int rcu_unregister_thread(void) { return lrcu_unregister_thread(); }
/* Stop the library's threads and free everything (see lrcu_shutdown() in
 * <rcu/rcutree.h>): for a clean exit under valgrind or LeakSanitizer. */
static inline int rcu_shutdown(void) { return lrcu_shutdown(); }
static inline void rcu_thread_offline(void) { lrcu_thread_offline(); }
static inline void rcu_thread_online(void) { lrcu_thread_online(); }

#ifdef CONFIG_TINY_RCU
/* May this thread legally enter a read-side section?  Tiny RCU: anywhere
 * but between rcu_thread_offline() and rcu_thread_online(). */
static inline bool rcu_is_watching(void) { return lrcu_tiny_watching(); }
#define RCU_NONIDLE(stmt) do { stmt; } while (0)
#else
/* May this thread legally enter an rcu or rcu_sched read-side section? */
static inline bool rcu_is_watching(void)
{
	unsigned int fl = lrcu_reader.flags;

	return (fl & LRCU_R_REGISTERED) && !(fl & LRCU_R_OFFLINE);
}

/* Run stmt with an offline (idle) registered thread momentarily online. */
#define RCU_NONIDLE(stmt) do {						\
	bool __rcu_nonidle = (lrcu_reader.flags &			\
			      (LRCU_R_REGISTERED | LRCU_R_OFFLINE)) ==	\
			     (LRCU_R_REGISTERED | LRCU_R_OFFLINE);	\
	if (__rcu_nonidle)						\
		rcu_thread_online();					\
	do { stmt; } while (0);						\
	if (__rcu_nonidle)						\
		rcu_thread_offline();					\
} while (0)
#endif /* CONFIG_TINY_RCU */

/* ------------------------------------------------------------------ */
/* Read side                                                            */

static inline void rcu_read_lock(void) { lrcu_read_lock_inline(); }
static inline void rcu_read_unlock(void) { lrcu_read_unlock_inline(); }
static inline void rcu_read_lock_bh(void) { lrcu_read_lock_inline(); }
static inline void rcu_read_unlock_bh(void) { lrcu_read_unlock_inline(); }
static inline void rcu_read_lock_sched(void) { lrcu_read_lock_sched_inline(); }
static inline void rcu_read_unlock_sched(void) { lrcu_read_unlock_sched_inline(); }
static inline void rcu_read_lock_sched_notrace(void) { lrcu_read_lock_sched_inline(); }
static inline void rcu_read_unlock_sched_notrace(void) { lrcu_read_unlock_sched_inline(); }

/*
 * rcu_sched: announce a quiescent state (outside any sched section; not
 * from a signal handler, where its reporting path could take a lock the
 * interrupted code holds).  The read-side markers of both flavors, on the
 * other hand, are async-signal-safe.
 */
static inline void rcu_quiescent_state(void) { lrcu_quiescent_state_inline(); }

#ifdef CONFIG_TINY_RCU
/* Tiny RCU: the depths the markers count (one flavor in fact). */
static inline int rcu_read_lock_held(void) { return lrcu_tiny_reader.nesting != 0; }
static inline int rcu_read_lock_bh_held(void) { return rcu_read_lock_held(); }
static inline int rcu_read_lock_sched_held(void) { return lrcu_tiny_reader.sched_nesting != 0; }
#else
static inline int rcu_read_lock_held(void)
{
	return (LRCU_READ_ONCE(lrcu_reader.rw->ctr[LRCU_PREEMPT]) & LRCU_W_NEST_MASK) != 0;
}
static inline int rcu_read_lock_bh_held(void) { return rcu_read_lock_held(); }
static inline int rcu_read_lock_sched_held(void)
{
#ifdef CONFIG_PROVE_RCU
	return (lrcu_reader.sched_nesting & LRCU_SN_DEPTH) != 0;
#else
	/* Only CONFIG_PROVE_RCU builds count the depth: anywhere online
	 * may be inside. */
	return !(lrcu_reader.sched_nesting & LRCU_SN_OFFLINE);
#endif
}
#endif /* CONFIG_TINY_RCU */
/* Any flavor's reader: what the list macros accept. */
static inline int rcu_read_lock_any_held(void)
{
	return rcu_read_lock_held() || rcu_read_lock_sched_held();
}

/* ------------------------------------------------------------------ */
/* Update side                                                          */

static inline void synchronize_rcu(void) { lrcu_synchronize(LRCU_PREEMPT, "synchronize_rcu"); }
static inline void synchronize_net(void) { lrcu_synchronize(LRCU_PREEMPT, "synchronize_net"); }
static inline void synchronize_rcu_bh(void) { lrcu_synchronize(LRCU_PREEMPT, "synchronize_rcu_bh"); }
static inline void synchronize_sched(void) { lrcu_synchronize(LRCU_SCHED, "synchronize_sched"); }

static inline void call_rcu(struct rcu_head *head, rcu_callback_t func)
{
	lrcu_call(LRCU_PREEMPT, head, func);
}
static inline void call_rcu_bh(struct rcu_head *head, rcu_callback_t func)
{
	lrcu_call(LRCU_PREEMPT, head, func);
}
static inline void call_rcu_sched(struct rcu_head *head, rcu_callback_t func)
{
	lrcu_call(LRCU_SCHED, head, func);
}
/*
 * call_rcu() for a callback somebody waits for: never lazy.  With
 * rcutree.enable_rcu_lazy=1 (CONFIG_RCU_LAZY) call_rcu() and
 * call_rcu_sched() queue lazy callbacks, as kfree_rcu() always does: their
 * grace period is requested only rcutree.jiffies_lazy_flush (10 s) later,
 * or when many wait, or at rcu_barrier(), so that an otherwise
 * idle program is not woken for each one.  A grace period that happens
 * anyway takes them along.
 */
static inline void call_rcu_hurry(struct rcu_head *head, rcu_callback_t func)
{
	lrcu_call_hurry(LRCU_PREEMPT, head, func);
}

/*
 * Expedited grace periods: the same guarantee as synchronize_*(), with
 * less latency for more CPU.  The caller drives the grace period itself
 * (one membarrier() for the rcu flavor, then it waits for each reader
 * still inside to leave, woken by that reader's outermost unlock; rcu_sched
 * threads are asked to report at their next rcu_quiescent_state()) instead
 * of waiting for the grace-period thread.  Concurrent callers share grace
 * periods, and an expedited grace period is an ordinary one for everybody
 * else: synchronize_*() waiters, callbacks and polled cookies profit.
 * rcupdate.rcu_normal=1 makes these act like synchronize_*();
 * rcupdate.rcu_expedited=1 (or rcu_expedite_gp()) makes synchronize_*()
 * and cond_synchronize_*() act like these.
 */
static inline void synchronize_rcu_expedited(void)
{
	lrcu_synchronize_expedited(LRCU_PREEMPT, "synchronize_rcu_expedited");
}
static inline void synchronize_rcu_bh_expedited(void)
{
	lrcu_synchronize_expedited(LRCU_PREEMPT, "synchronize_rcu_bh_expedited");
}
static inline void synchronize_sched_expedited(void)
{
	lrcu_synchronize_expedited(LRCU_SCHED, "synchronize_sched_expedited");
}
/* Nestable: while any rcu_expedite_gp() is not yet undone by
 * rcu_unexpedite_gp(), normal grace-period calls act expedited. */
static inline void rcu_expedite_gp(void) { lrcu_expedite_gp(); }
static inline void rcu_unexpedite_gp(void) { lrcu_unexpedite_gp(); }
static inline bool rcu_gp_is_expedited(void) { return lrcu_gp_is_expedited(); }
static inline bool rcu_gp_is_normal(void) { return lrcu_gp_is_normal(); }
/* The program's start-up is over: with rcupdate.rcu_normal_after_boot=1,
 * expedited calls act normal from now on. */
static inline void rcu_end_inkernel_boot(void) { lrcu_end_inkernel_boot(); }

/*
 * Callback offloading (rcu_nocbs=): a "CPU" (registered thread slot) whose
 * callbacks are offloaded has them invoked by threads of its own, rcuop/N
 * (rcu) and rcuos/N (rcu_sched), whose group's rcuog/L thread waits for
 * their grace periods; not by the flavors' callback threads.  These switch
 * a CPU (0 <= cpu < nr_cpus), whether registered or not, at run time; the
 * switch loses, repeats or hurries no callback, and each thread's
 * callbacks still run in the order queued.  0, or -EINVAL without
 * rcu_nocbs (offloading off, as in the kernel) or for no such CPU, or
 * -EAGAIN if its threads cannot be started.
 */
static inline int rcu_nocb_cpu_offload(int cpu) { return lrcu_nocb_cpu_offload(cpu); }
static inline int rcu_nocb_cpu_deoffload(int cpu) { return lrcu_nocb_cpu_deoffload(cpu); }

static inline void rcu_barrier(void) { lrcu_barrier(LRCU_PREEMPT, "rcu_barrier"); }
static inline void rcu_barrier_bh(void) { lrcu_barrier(LRCU_PREEMPT, "rcu_barrier_bh"); }
static inline void rcu_barrier_sched(void) { lrcu_barrier(LRCU_SCHED, "rcu_barrier_sched"); }

/*
 * kfree_rcu(p, field): free(p) after a grace period; field is p's struct
 * rcu_head member.  The member's offset travels in place of the callback
 * function (offsets below 4096 are never valid function addresses).  A
 * lazy callback (see call_rcu_hurry()): rcu_barrier() waits for it.
 */
#define kfree_rcu(p, field) \
	lrcu_kfree_call(&(p)->field, offsetof(__typeof__(*(p)), field))
#define kvfree_rcu(p, field)	kfree_rcu(p, field)

/* Ask the grace-period thread for an immediate quiescent-state scan. */
static inline void rcu_force_quiescent_state(void) { lrcu_force_qs(LRCU_PREEMPT); }
static inline void rcu_sched_force_quiescent_state(void) { lrcu_force_qs(LRCU_SCHED); }

/*
 * The flavor's grace-period sequence number (low two bits: state), sampled
 * without ordering: for diagnostics and for counting grace periods that
 * elapsed across a read (rcutorture's Reader Batch).
 */
#ifdef CONFIG_TINY_RCU
/* Tiny RCU: one sequence for both names, as in the kernel's. */
static inline unsigned long rcu_get_gp_seq(void)
{
	return LRCU_READ_ONCE(lrcu_tiny_gp_seq);	/* a sample */
}
static inline unsigned long rcu_sched_get_gp_seq(void) { return rcu_get_gp_seq(); }
#else
static inline unsigned long rcu_get_gp_seq(void)
{
	return LRCU_READ_ONCE(lrcu_gp_pub[LRCU_PREEMPT].seq);	/* a sample */
}
static inline unsigned long rcu_sched_get_gp_seq(void)
{
	return LRCU_READ_ONCE(lrcu_gp_pub[LRCU_SCHED].seq);	/* a sample */
}
#endif /* CONFIG_TINY_RCU */

/* ------------------------------------------------------------------ */
/* Polled grace periods                                                 */
/*
 * A cookie is a gp_seq value at which a full grace period will have
 * elapsed since the cookie was taken.  Polling one never gives a false
 * positive, and a completed cookie stays completed however old it gets
 * (only one within two grace periods of a whole turn of the 64-bit
 * counter, 2^62 grace periods, would read as pending again).
 * RCU_GET_STATE_COMPLETED is a cookie that always polls as completed.
 * At most NUM_ACTIVE_RCU_POLL_OLDSTATE distinct cookies are not yet
 * completed at any time: the grace period in progress's and the next's.
 */
#define RCU_GET_STATE_COMPLETED	0x1UL
#define NUM_ACTIVE_RCU_POLL_OLDSTATE	2

/* Cookie for the current state; starts nothing. */
static inline unsigned long get_state_synchronize_rcu(void) { return lrcu_get_state(LRCU_PREEMPT); }
/* Cookie, and make sure the grace period it needs will happen. */
static inline unsigned long start_poll_synchronize_rcu(void) { return lrcu_start_poll(LRCU_PREEMPT); }
/* Has a full grace period elapsed since the cookie was taken?  If so, the
 * caller is ordered after every reader that predates the cookie. */
static inline bool poll_state_synchronize_rcu(unsigned long c) { return lrcu_poll_state(LRCU_PREEMPT, c); }
/* Block only if that grace period has not yet elapsed. */
static inline void cond_synchronize_rcu(unsigned long c) { lrcu_cond_sync(LRCU_PREEMPT, c, "cond_synchronize_rcu"); }
static inline unsigned long get_completed_synchronize_rcu(void) { return RCU_GET_STATE_COMPLETED; }
/* Are two cookies the same (so that objects may share one, kept in
 * their list's head)?  Bitwise: a completed cookie and
 * RCU_GET_STATE_COMPLETED differ. */
static inline bool same_state_synchronize_rcu(unsigned long c1, unsigned long c2)
{
	return c1 == c2;
}
/* The same cookies, with the grace period run the expedited way: started
 * at once by the grace-period thread (start_poll_) or by the caller
 * (cond_, which blocks only if the cookie has not completed yet). */
static inline unsigned long start_poll_synchronize_rcu_expedited(void)
{
	return lrcu_start_poll_expedited(LRCU_PREEMPT);
}
static inline void cond_synchronize_rcu_expedited(unsigned long c)
{
	lrcu_cond_sync_expedited(LRCU_PREEMPT, c, "cond_synchronize_rcu_expedited");
}

/*
 * Full-state cookies (the kernel's struct rcu_gp_oldstate and its _full
 * calls).  The kernel's Tree RCU records two sequences in them, its
 * normal grace periods' and its expedited ones' (a machinery of their
 * own), so that either kind of grace period ending completes the cookie,
 * and none is missed when the two overlap.  Here an expedited grace
 * period is a grace period of the flavor's one sequence, run another way
 * (see synchronize_rcu_expedited() above), so one snapshot records both
 * kinds, as in the kernel's Tiny RCU: either ending satisfies it.
 * The same promises as the one-word cookies; treat the structure as
 * opaque (compare with same_state_synchronize_rcu_full()).
 */
struct rcu_gp_oldstate {
	unsigned long rgos_norm;	/* a one-word cookie */
};
#define NUM_ACTIVE_RCU_POLL_FULL_OLDSTATE	2	/* as NUM_ACTIVE_RCU_POLL_OLDSTATE */

static inline void get_state_synchronize_rcu_full(struct rcu_gp_oldstate *rgosp)
{
	rgosp->rgos_norm = lrcu_get_state(LRCU_PREEMPT);
}
static inline void start_poll_synchronize_rcu_full(struct rcu_gp_oldstate *rgosp)
{
	rgosp->rgos_norm = lrcu_start_poll(LRCU_PREEMPT);
}
static inline void start_poll_synchronize_rcu_expedited_full(struct rcu_gp_oldstate *rgosp)
{
	rgosp->rgos_norm = lrcu_start_poll_expedited(LRCU_PREEMPT);
}
static inline bool poll_state_synchronize_rcu_full(struct rcu_gp_oldstate *rgosp)
{
	return lrcu_poll_state(LRCU_PREEMPT, rgosp->rgos_norm);
}
static inline void cond_synchronize_rcu_full(struct rcu_gp_oldstate *rgosp)
{
	lrcu_cond_sync(LRCU_PREEMPT, rgosp->rgos_norm, "cond_synchronize_rcu_full");
}
static inline void cond_synchronize_rcu_expedited_full(struct rcu_gp_oldstate *rgosp)
{
	lrcu_cond_sync_expedited(LRCU_PREEMPT, rgosp->rgos_norm,
				 "cond_synchronize_rcu_expedited_full");
}
static inline void get_completed_synchronize_rcu_full(struct rcu_gp_oldstate *rgosp)
{
	rgosp->rgos_norm = RCU_GET_STATE_COMPLETED;
}
static inline bool same_state_synchronize_rcu_full(struct rcu_gp_oldstate *rgosp1,
						   struct rcu_gp_oldstate *rgosp2)
{
	return same_state_synchronize_rcu(rgosp1->rgos_norm, rgosp2->rgos_norm);
}

static inline unsigned long get_state_synchronize_sched(void) { return lrcu_get_state(LRCU_SCHED); }
static inline unsigned long start_poll_synchronize_sched(void) { return lrcu_start_poll(LRCU_SCHED); }
static inline bool poll_state_synchronize_sched(unsigned long c) { return lrcu_poll_state(LRCU_SCHED, c); }
static inline void cond_synchronize_sched(unsigned long c) { lrcu_cond_sync(LRCU_SCHED, c, "cond_synchronize_sched"); }
static inline unsigned long start_poll_synchronize_sched_expedited(void)
{
	return lrcu_start_poll_expedited(LRCU_SCHED);
}
static inline void cond_synchronize_sched_expedited(unsigned long c)
{
	lrcu_cond_sync_expedited(LRCU_SCHED, c, "cond_synchronize_sched_expedited");
}

/* ------------------------------------------------------------------ */
/* Validation (PROVE_RCU)                                               */
/*
 * Build the calling code with -DCONFIG_PROVE_RCU to evaluate the lockdep
 * conditions of rcu_dereference_check() and friends and rcu_lockdep_assert();
 * a failed check prints a "suspicious RCU usage" splat naming file and line
 * once per call site (every time with -DCONFIG_PROVE_RCU_REPEATEDLY) and
 * bumps the misuse counter (lrcu_misuse_count()).  Without PROVE_RCU the
 * conditions are not evaluated.
 */
#ifdef CONFIG_PROVE_RCU_REPEATEDLY
#define __RCU_SPLAT_ONCE_PTR	((bool *)0)
#else
#define __RCU_SPLAT_ONCE_PTR	(&__rcu_splat_once)
#endif

#ifdef CONFIG_PROVE_RCU
/* Splat if `c' (the bad condition) holds. */
#define RCU_LOCKDEP_WARN(c, msg) do {					\
	static bool __rcu_splat_once;					\
	(void)__rcu_splat_once;						\
	if (LRCU_UNLIKELY(c))						\
		lrcu_lockdep_splat(__FILE__, __LINE__, (msg),		\
				   __RCU_SPLAT_ONCE_PTR);		\
} while (0)
#else
#define RCU_LOCKDEP_WARN(c, msg)	do { (void)sizeof(c); } while (0)
#endif
/* The 2014 spelling: assert that `c' holds. */
#define rcu_lockdep_assert(c, msg)	RCU_LOCKDEP_WARN(!(c), (msg))

/* ------------------------------------------------------------------ */
/* Pointers                                                             */

#define RCU_INITIALIZER(v)		((__typeof__(*(v)) __force __rcu *)(v))
/* Compile-time initialisation of an RCU-protected pointer member. */
#define RCU_POINTER_INITIALIZER(p, v)	.p = RCU_INITIALIZER(v)

/*
 * The library's own spellings (LRCU_*), which its list headers use, then
 * the kernel's names for them.  liburcu's <urcu/pointer.h> (and so
 * perfbook's api.h) defines rcu_dereference() and rcu_assign_pointer()
 * too: included before this file, its two are replaced here quietly;
 * included after, they replace these (the same meaning: a consume load, a
 * release store).  The library's headers never use the kernel names.
 *
 * LRCU_ASSIGN_POINTER(p, v): publish v in p.  Release store: everything
 * written to *v before is visible to a reader that loads p with
 * rcu_dereference() (consume/acquire load).
 */
#ifndef __CHECKER__
/* The typed temporary makes the compiler check v against p's type. */
#define LRCU_STORE_POINTER(p, v, release) do {				\
	__typeof__(p) __rsp_v = RCU_INITIALIZER(v);			\
	if (release)	/* pairs with LRCU_DEREFERENCE_LOAD() */	\
		LRCU_STORE_RELEASE(&(p), __rsp_v);			\
	else								\
		LRCU_WRITE_ONCE(p, __rsp_v);				\
} while (0)
#else
/* sparse: typeof() drops the __rcu address space; cast instead. */
#define LRCU_STORE_POINTER(p, v, release) do {				\
	__typeof__(p) __rsp_v = (__typeof__(p))(v);			\
	if (release)	/* pairs with LRCU_DEREFERENCE_LOAD() */	\
		LRCU_STORE_RELEASE(&(p), __rsp_v);			\
	else								\
		LRCU_WRITE_ONCE(p, __rsp_v);				\
} while (0)
#endif
/* Release: pairs with LRCU_DEREFERENCE_LOAD()'s consume load. */
#define LRCU_ASSIGN_POINTER(p, v)	LRCU_STORE_POINTER(p, v, 1)

/*
 * The dereference load.  Consume ordering pairs with the release store in
 * LRCU_ASSIGN_POINTER(): the pointed-to object is seen initialised.  (GCC
 * implements consume as acquire: free on x86, ldar on arm64.)
 */
#define LRCU_DEREFERENCE_LOAD(p) \
	((__typeof__(*(p)) __force *)LRCU_LOAD_CONSUME(&(p)))

#define LRCU_DEREFERENCE_CHECK(p, c) ({					\
	RCU_LOCKDEP_WARN(!((c) || rcu_read_lock_held()),		\
			 "suspicious rcu_dereference_check() usage");	\
	LRCU_DEREFERENCE_LOAD(p);					\
})
#define LRCU_DEREFERENCE_BH_CHECK(p, c) ({				\
	RCU_LOCKDEP_WARN(!((c) || rcu_read_lock_bh_held()),		\
			 "suspicious rcu_dereference_bh_check() usage"); \
	LRCU_DEREFERENCE_LOAD(p);					\
})
#define LRCU_DEREFERENCE_SCHED_CHECK(p, c) ({				\
	RCU_LOCKDEP_WARN(!((c) || rcu_read_lock_sched_held()),		\
			 "suspicious rcu_dereference_sched_check() usage"); \
	LRCU_DEREFERENCE_LOAD(p);					\
})
#define LRCU_DEREFERENCE(p)		LRCU_DEREFERENCE_CHECK(p, 0)
#define LRCU_DEREFERENCE_BH(p)		LRCU_DEREFERENCE_BH_CHECK(p, 0)
#define LRCU_DEREFERENCE_RAW(p)		LRCU_DEREFERENCE_LOAD(p)

#undef rcu_assign_pointer
#define rcu_assign_pointer(p, v)	LRCU_ASSIGN_POINTER(p, v)
/* Store without ordering: NULL, or a structure readers cannot yet reach
 * or whose reader-visible contents did not change since publication. */
#define RCU_INIT_POINTER(p, v)		LRCU_STORE_POINTER(p, v, 0)

#undef rcu_dereference
#define rcu_dereference(p)		LRCU_DEREFERENCE(p)
#define rcu_dereference_bh(p)		LRCU_DEREFERENCE_BH(p)
#define rcu_dereference_sched(p)	LRCU_DEREFERENCE_SCHED_CHECK(p, 0)
#define rcu_dereference_check(p, c)	LRCU_DEREFERENCE_CHECK(p, c)
#define rcu_dereference_bh_check(p, c)	LRCU_DEREFERENCE_BH_CHECK(p, c)
#define rcu_dereference_sched_check(p, c) LRCU_DEREFERENCE_SCHED_CHECK(p, c)
#define rcu_dereference_raw(p)		LRCU_DEREFERENCE_RAW(p)
#define rcu_dereference_raw_notrace(p)	LRCU_DEREFERENCE_RAW(p)

/* Update side, protected by something else (c says what): no ordering. */
#define rcu_dereference_protected(p, c) ({				\
	RCU_LOCKDEP_WARN(!(c),						\
			 "suspicious rcu_dereference_protected() usage"); \
	(__typeof__(*(p)) __force *)LRCU_READ_ONCE(p);			\
})

/* Fetch without dereferencing (compare, test for NULL): legal anywhere. */
#define rcu_access_pointer(p) \
	((__typeof__(*(p)) __force *)LRCU_READ_ONCE(p))
#define rcu_access_index(p)		LRCU_READ_ONCE(p)

/*
 * Replace the pointer: publish ptr in rcu_ptr (as rcu_assign_pointer())
 * and return the value it held, read as rcu_dereference_protected() with
 * condition c (the update-side lock that makes the read and the store
 * one step).  The kernel's rcu_replace_pointer().
 */
#define rcu_replace_pointer(rcu_ptr, ptr, c) __extension__ ({		\
	__typeof__(ptr) __rrp_prev = rcu_dereference_protected(rcu_ptr, c); \
	LRCU_ASSIGN_POINTER(rcu_ptr, ptr);				\
	__rrp_prev;							\
})

/*
 * liburcu's pointer API (<urcu/pointer.h>), with its meaning: unlike
 * rcu_assign_pointer(), these take the address of the RCU-protected
 * pointer.  Without a lock around the update:
 *
 *   rcu_set_pointer(pp, v)            rcu_assign_pointer(*pp, v)
 *   rcu_xchg_pointer(pp, v)           publish v, return the pointer it
 *                                     replaced
 *   rcu_cmpxchg_pointer(pp, old, v)   publish v if *pp is old; return
 *                                     what *pp held (old if it stored)
 *
 * Both read-modify-writes are fully ordered, the failed compare too, as
 * liburcu's: what the caller wrote to *v is published with it (the
 * release half, paired with rcu_dereference()'s consume load), and the
 * pointer returned may be dereferenced or handed to call_rcu() (the
 * acquire half, paired with the release half of whoever stored it).  As
 * in liburcu, v and old must have *pp's type.  Included before this
 * header, liburcu's own definitions (the same meaning) are replaced.
 */
#undef rcu_set_pointer
#define rcu_set_pointer(pp, v)		LRCU_ASSIGN_POINTER(*(pp), v)
#undef rcu_xchg_pointer
#define rcu_xchg_pointer(pp, v) __extension__ ({			\
	__typeof__(*(pp)) __rxp_v = (v);				\
	/* Fully ordered: see above (pairs with rcu_dereference()) */	\
	LRCU_XCHG((pp), __rxp_v);					\
})
#undef rcu_cmpxchg_pointer
#define rcu_cmpxchg_pointer(pp, old, v) __extension__ ({		\
	__typeof__(*(pp)) __rcp_old = (old);				\
	__typeof__(*(pp)) __rcp_v = (v);				\
	/* Fully ordered, failing or not: see above (pairs with	\
	 * rcu_dereference() and with the store of the value found) */	\
	LRCU_CMPXCHG_FULL((pp), __rcp_old, __rcp_v);			\
})

/* An RCU-protected array index (the array's contents depend on it). */
#define rcu_dereference_index_check(p, c) ({				\
	RCU_LOCKDEP_WARN(!((c) || rcu_read_lock_held()),		\
			 "suspicious rcu_dereference_index_check() usage"); \
	LRCU_LOAD_CONSUME(&(p));	/* as LRCU_DEREFERENCE_LOAD() */	\
})

/* ------------------------------------------------------------------ */
/* Debug objects for rcu_head (DEBUG_OBJECTS_RCU_HEAD)                  */
/*
 * Active when the library runs with debug_objects=1 (the default in
 * `make DEBUG=1` builds).  call_rcu() on a head that is already queued is
 * reported ("ODEBUG: activate active") and the second call is dropped.
 */
static inline void init_rcu_head(struct rcu_head *h) { lrcu_head_debug(h, LRCU_HEAD_INIT); }
static inline void destroy_rcu_head(struct rcu_head *h) { lrcu_head_debug(h, LRCU_HEAD_DESTROY); }
static inline void init_rcu_head_on_stack(struct rcu_head *h) { lrcu_head_debug(h, LRCU_HEAD_INIT_ON_STACK); }
static inline void destroy_rcu_head_on_stack(struct rcu_head *h) { lrcu_head_debug(h, LRCU_HEAD_DESTROY_ON_STACK); }
static inline void debug_init_rcu_head(struct rcu_head *h) { lrcu_head_debug(h, LRCU_HEAD_INIT); }
static inline void debug_rcu_head_free(struct rcu_head *h) { lrcu_head_debug(h, LRCU_HEAD_DESTROY); }

#ifdef __cplusplus
}
#endif

#include <rcu/rcutree.h>
#ifndef CONFIG_TINY_RCU		/* Tiny has its own flavors only (docs/design/tiny.md) */
#include <rcu/tasks.h>
#endif

#endif /* RCU_RCUPDATE_H */
