/* SPDX-License-Identifier: MIT */
/*
 * torture/ops.h - the torture ops ABI: how rcutorture sees an RCU.
 *
 * The torture core never calls an RCU directly.  Each RCU is described by
 * one struct torture_ops (the kernel's struct rcu_torture_ops): a table of
 * function pointers plus a few flags.  Built-in types live in
 * torture/ops/ *.c; anyone can torture their own RCU without rebuilding
 * rcutorture by building a shared object that exports
 *
 *     const struct torture_ops *torture_plugin_ops(unsigned int core_abi);
 *
 * and running `rcutorture rcutorture.torture_type=lib:/path/to/plugin.so`.
 * The core passes its TORTURE_OPS_ABI_VERSION; the plugin returns its table
 * (or NULL to refuse).  The table's abi_version must equal the core's and
 * its size must be at least TORTURE_OPS_V1_SIZE (the first version-1
 * table); fields added at the end since then read as NULL for a plugin
 * built before them.  See torture/examples/plugin_example.c.
 *
 * Threads are CPUs.  Readers run on threads that the core registers with
 * thread_register() (CPU online) and may later take offline (extended
 * quiescent state, thread_offline()/thread_online()) or unregister (CPU
 * hotplug).  Update-side calls (sync, call, cb_barrier, polled grace
 * periods) come from the writer, fakewriter, barrier and forward-progress
 * threads, which are registered only if the RCU needs it
 * (TORTURE_OPS_UPDATERS_REGISTER); registered updaters are kept offline
 * except around call() and fqs().
 *
 * A NULL function pointer means "not supported": the tests that need it are
 * skipped (no expedited grace periods without exp_sync, no polled-cookie
 * checks without get_gp_state/poll_gp_state, ...).  Required: name,
 * readlock, readunlock, dereference and at least one of sync and call.
 */
#ifndef TORTURE_OPS_H
#define TORTURE_OPS_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped on every incompatible change of the structures below. */
#define TORTURE_OPS_ABI_VERSION	1
/* The first two fields of every table, as built: `{ TORTURE_OPS_HEAD, ... }'. */
#define TORTURE_OPS_HEAD						\
	.abi_version = TORTURE_OPS_ABI_VERSION,				\
	.size = sizeof(struct torture_ops)
/* The symbol a plugin exports (see torture_plugin_ops_fn). */
#define TORTURE_PLUGIN_SYMBOL	"torture_plugin_ops"

/*
 * A callback handed to ops->call().  The core fills ->func and never
 * touches ->rcu_space; the adapter keeps its own callback head (e.g.
 * struct rcu_head) in ->rcu_space and, once a grace period has elapsed,
 * calls cb->func(cb) exactly once, from any thread.
 */
#define TORTURE_CB_SPACE	4	/* pointers of room for the RCU's head */
struct torture_cb {
	void *rcu_space[TORTURE_CB_SPACE];	/* first member: the adapter may
						 * cast it to its head and back */
	void (*func)(struct torture_cb *cb);	/* set by the core */
};

/*
 * One way to enter a read-side critical section, for the readers'
 * "extendables": a read is a chain of segments, each holding a random set
 * of these (the next set is always acquired before the previous one is
 * released, so the read never has a gap).  At least one held entry with
 * ->protects set is required at every instant: an entry whose lock does
 * not hold off this RCU's grace periods (e.g. rcu_read_lock_sched() while
 * torturing rcu) may overlap the others but never protects alone.  The
 * same lock may be listed twice to nest it.  Where each lock is a section
 * of its own (SRCU: a grace period that starts during one section need not
 * wait for a later one), a hand-off between two protecting entries would
 * leave the read unprotected: mark only one entry as protecting, and the
 * reader holds it for the whole read.
 */
struct torture_read_flavor {
	const char *name;		/* shown in the segment dump: "RCU_1" */
	int (*lock)(void);		/* returns what unlock() needs (SRCU idx) */
	void (*unlock)(int idx);
	int protects;			/* 1: holding it alone holds off GPs */
};

/* ->flags */
#define TORTURE_OPS_QSBR		0x1	/* readers must call quiescent_state()
						 * between reads and be offline while
						 * they sleep */
#define TORTURE_OPS_UPDATERS_REGISTER	0x2	/* update-side callers must be
						 * registered threads */
#define TORTURE_OPS_IRQ_CAPABLE		0x4	/* readlock/readunlock are async-
						 * signal-safe: irqreader may read
						 * from a signal handler */
#define TORTURE_OPS_BROKEN		0x8	/* deliberately broken: expected to
						 * end in FAILURE (fwd_progress off) */
#define TORTURE_OPS_SLEEPABLE		0x10	/* readers may block: they sleep
						 * inside their sections now and then */
#define TORTURE_OPS_NO_BLOCK		0x20	/* readers must not block: blocking
						 * ends a read (RCU Tasks), so the core
						 * spins where it would sleep inside one,
						 * and loops that never block call
						 * quiescent_state() between reads */
#define TORTURE_OPS_UP			0x40	/* uniprocessor RCU (Tiny): the
						 * threads share one CPU under
						 * SCHED_FIFO, readers never block or
						 * yield inside a section, and loops
						 * yield (torture/up.c) */
#define TORTURE_OPS_CB_ADAPTER		0x80	/* call()/cb_barrier() are the
						 * adapter's own deferral on the RCU's
						 * polled grace periods: the RCU has no
						 * callbacks the harness can use */

/* One RCU CPU stall warning, as the RCU hands it to stall_notifier()'s fn. */
struct torture_stall {
	const char *flavor;		/* the RCU's name for what stalls */
	int expedited;			/* an expedited grace period */
	unsigned long duration_ms;	/* its age */
	int nr_holdouts;		/* threads holding it up */
	const int *holdout_tids;	/* OS thread ids of (some of) them */
	int n_tids;			/* how many of those */
	/* Added with stall_gp_kthread below: read only from the RCUs that
	 * have that call. */
	int starved;			/* its grace-period thread starved (the
					 * kernel's "kthread starved for") */
};

/*
 * A full-state cookie (the kernel's struct rcu_gp_oldstate): room for the
 * RCU's own, which the core copies and hands back by pointer, never reads.
 */
#define TORTURE_GP_FULL_WORDS	4
struct torture_gp_full {
	unsigned long w[TORTURE_GP_FULL_WORDS];
};

struct torture_ops {
	unsigned int abi_version;	/* TORTURE_OPS_ABI_VERSION */
	unsigned int size;		/* sizeof(struct torture_ops) as built */
	const char *name;		/* torture_type; console prefix "<name>-torture:" */
	const char *gp_name;		/* GP-state lines prefix ("rcu"); NULL: name */
	unsigned int flags;		/* TORTURE_OPS_* */

	/* Life cycle.  init() runs after parameters, before any thread;
	 * returns 0, or -1 after printing why (the run exits with status 3). */
	int (*init)(void);
	void (*cleanup)(void);

	/* The RCU's own parameters (kernel boot-argument style, e.g.
	 * "rcutree.blimit=20 nr_cpus=8"), before init().  param_known()
	 * says whether a name is one of them; boot_params() validates and
	 * applies them all or none: 0, or -1 with a one-line message in err. */
	int (*param_known)(const char *name);
	int (*boot_params)(const char *args, char *err, size_t errlen);

	/* Threads as CPUs. */
	int (*thread_register)(void);		/* 0 or -1 */
	void (*thread_unregister)(void);
	void (*thread_online)(void);		/* leave an extended QS */
	void (*thread_offline)(void);		/* enter an extended QS */
	void (*quiescent_state)(void);		/* QSBR: announce a QS */

	/* Readers. */
	int (*readlock)(void);			/* returns what readunlock() needs */
	void (*readunlock)(int idx);
	void *(*dereference)(void *const *pp);	/* rcu_dereference(*pp) */
	const struct torture_read_flavor *read_flavors;	/* extendables; NULL:
							 * readlock only */
	unsigned int n_read_flavors;		/* at most 8 */

	/* Grace-period sequence (Reader Batch, stats).  get_gp_seq() must be
	 * cheap and fence-free (it runs inside every read).  gp_diff(newer,
	 * older) is the number of grace periods that ENDED between the two
	 * samples (the kernel's rcu_seq_diff()); a reader that saw 2 or more
	 * is a "close call".  An RCU whose counter counts grace-period STARTS
	 * maps it faithfully as: starts between the samples, minus one if a
	 * grace period was in progress at `newer' (it has not ended), plus one
	 * if one was in progress at `older' (it ended in between); if the
	 * counter cannot tell, return newer - older (an over-estimate: more
	 * close calls, never a missed one).  NULL: the core counts the
	 * writer's grace periods instead.  Correctness never depends on it:
	 * the oracle (torture/oracle.c) checks every grace-period wait. */
	unsigned long (*get_gp_seq)(void);
	long (*gp_diff)(unsigned long newer, unsigned long older);
	unsigned long (*gps_completed)(void);	/* since start, for stats */

	/* Update side. */
	void (*sync)(void);			/* synchronize_rcu() */
	void (*exp_sync)(void);			/* synchronize_rcu_expedited() */
	void (*call)(struct torture_cb *cb);	/* call_rcu() */
	/* rcu_barrier(): waits for the callbacks call()ed before it; like the
	 * kernel's, it need not wait for one a callback re-posts while it
	 * runs (rcutorture barriers again until such a callback stops). */
	void (*cb_barrier)(void);
	void (*fqs)(void);			/* force a quiescent-state scan */

	/* Polled grace periods.  A cookie from get_gp_state() or
	 * start_gp_poll() must not poll as complete while a reader that was
	 * running when it was taken is still running, and must poll as
	 * complete once sync() (or exp_sync()/cond_sync()) called after it
	 * returned.  get_comp_state() is a cookie that always polls complete. */
	unsigned long (*get_gp_state)(void);
	unsigned long (*start_gp_poll)(void);
	int (*poll_gp_state)(unsigned long cookie);
	void (*cond_sync)(unsigned long cookie);
	unsigned long (*get_comp_state)(void);

	/* Diagnostics.  misuse_count(): misuses the RCU detected so far.
	 * debug_objects(): 1 if a duplicate call() on a queued callback is
	 * detected, reported and dropped (object_debug may then try it). */
	unsigned long (*misuse_count)(void);
	int (*debug_objects)(void);
	/* Each prints whole lines; the core adds the "<type>-torture:" prefix. */
	void (*print_tree)(FILE *out);	/* geometry (rcu_node tree) */
	void (*gp_state)(FILE *out);	/* GP state, for hang reports */
	void (*stats)(FILE *out);	/* flavor-specific stats line */

	/* How many threads can be registered at once (our library's
	 * nr_cpus); NULL or <= 0: no limit.  Readers get their slots first;
	 * the other torture threads share what is left (see INTERFACE.md). */
	long (*thread_capacity)(void);

	/* ---- Added after the first version-1 table (NULL for older
	 * plugins: see TORTURE_OPS_V1_SIZE). ---- */

	/* Expedited polled grace periods, with the same cookies as
	 * get_gp_state()/poll_gp_state(): start_poll_synchronize_rcu_expedited()
	 * and cond_synchronize_rcu_expedited(). */
	unsigned long (*start_gp_poll_exp)(void);
	void (*cond_sync_exp)(unsigned long cookie);

	/* RCU CPU stall warnings.  stall_notifier(fn): from now on the RCU
	 * calls fn (from any thread, fn does not block) with every stall
	 * warning it prints; 0 or -1.  stall_timeout_ms(): the current stall
	 * timeout (the kernel's stall_dur).  NULL: the RCU has no stall
	 * warnings; stall_cpu runs are then not checked for one. */
	int (*stall_notifier)(void (*fn)(const struct torture_stall *s));
	unsigned long (*stall_timeout_ms)(void);

	/* Threads as numbered CPUs: thread_register_cpu(cpu) registers the
	 * calling thread as "CPU" cpu (0 <= cpu < thread_capacity()), -1 if
	 * that CPU is taken or does not exist; cpu_group(cpu) names the group
	 * the CPU reports through (our library: its leaf rcu_node), -1 if
	 * unknown.  With them the core spreads readers over every group and
	 * CPU hotplug sometimes empties a whole group. */
	int (*thread_register_cpu)(int cpu);
	int (*cpu_group)(int cpu);

	/* Callback offloading (the kernel's rcu_nocb_cpu_offload() and
	 * rcu_nocb_cpu_deoffload()): nocb_toggle(cpu, 1) has "CPU" cpu's
	 * callbacks invoked by threads of their own, nocb_toggle(cpu, 0) by
	 * the RCU's usual ones; 0, or a negative errno (-EINVAL: the RCU was
	 * started without offloading, or no such CPU).  May be called from
	 * any thread at any time; no callback may be lost, repeated or run
	 * early meanwhile.  NULL: nocbs_nthreads is ignored. */
	int (*nocb_toggle)(int cpu, int offload);

	/* refscale's read-side loop (the kernel's readsection()): n times
	 * readlock(), a load of the long that dereference(pp) returns,
	 * readunlock(), all in the adapter, where the compiler inlines them,
	 * so that no call through this table is made per section (the cost
	 * measured is the RCU's, not three indirect calls').  Returns the sum
	 * of the longs loaded.  TORTURE_READ_SECTION() below defines one from
	 * an adapter's own functions.  NULL: refscale calls the three through
	 * the table. */
	long (*read_section)(long n, void *const *pp);

	/* Priority boosting (the boost test, rcutorture.test_boost):
	 * gp_kthreads_prio(), the SCHED_FIFO priority the RCU's own threads
	 * run at (the kernel's rcu_get_gp_kthreads_prio(); 0: ordinary
	 * threads); can_boost(), 1 if it lends readers that hold up a grace
	 * period a real-time priority (the kernel's CONFIG_RCU_BOOST).
	 * boosts(): readers boosted so far.  NULL: 0. */
	int (*gp_kthreads_prio)(void);
	int (*can_boost)(void);
	unsigned long (*boosts)(void);

	/* rcutorture.reader_flavor, the kernel's SRCU_READ_FLAVOR_* bits
	 * (0x1 srcu_read_lock(), 0x2 _nmisafe(), 0x4 _fast(), 0x8
	 * _fast_updown(); 0 means 0x1), called before init(): from then on
	 * readlock()/readunlock() (and the read flavors built on them) enter
	 * every flavor in mask, the lowest bit first, on the domain defined
	 * for them, and the update side works on that domain: the kernel's
	 * srcu_torture_read_lock().  0, or -1 for a mask it cannot do.  NULL:
	 * the RCU has one reader flavor (a mask other than 0x1 is then not
	 * honoured). */
	int (*reader_flavor)(unsigned int mask);

	/* Up/down readers (rcutorture.n_up_down): down_read() begins a
	 * read-side section that up_read(its value) ends, on another thread
	 * (the kernel's srcu_down_read()/srcu_up_read()); have_up_down: the
	 * reader_flavor bits with which they exist (the kernel's field; none:
	 * no up/down readers).  dereference_updown() is dereference() inside
	 * such a section, which belongs to no thread (lockdep-style checks of
	 * "this thread holds a section" do not apply); NULL: dereference(). */
	int (*down_read)(void);
	void (*up_read)(int idx);
	void *(*dereference_updown)(void *const *pp);
	unsigned int have_up_down;

	/* Full-state polled grace periods (the kernel's _full calls): the
	 * same contract as the one-word cookies above, a cookie held in a
	 * struct torture_gp_full.  get_comp_state_full(): a cookie that always
	 * polls complete; same_gp_state_full(): whether two cookies are
	 * identical (same_state_synchronize_rcu_full()); poll_active_full: the
	 * most distinct cookies that can be pending at once
	 * (NUM_ACTIVE_RCU_POLL_FULL_OLDSTATE), which the writer checks; 0:
	 * unchecked.  As in the kernel, gp_poll_full needs start_gp_poll_full,
	 * poll_gp_state_full, get_comp_state_full and same_gp_state_full. */
	void (*get_gp_state_full)(struct torture_gp_full *c);
	void (*start_gp_poll_full)(struct torture_gp_full *c);
	void (*start_gp_poll_exp_full)(struct torture_gp_full *c);
	int (*poll_gp_state_full)(struct torture_gp_full *c);
	void (*cond_sync_full)(struct torture_gp_full *c);
	void (*cond_sync_exp_full)(struct torture_gp_full *c);
	void (*get_comp_state_full)(struct torture_gp_full *c);
	int (*same_gp_state_full)(struct torture_gp_full *c1, struct torture_gp_full *c2);
	int poll_active_full;

	/* stall_gp_kthread (the kernel's rcu_gp_set_torture_wait()): the
	 * RCU's grace-period thread sleeps ms milliseconds in its next grace
	 * period, holding grace periods up as if starved; its stall warnings
	 * then say so (struct torture_stall's ->starved).  NULL: a
	 * stall_gp_kthread run is not honoured (INCOMPLETE). */
	void (*stall_gp_kthread)(unsigned long ms);

	/* rcutorture.test_srcu_lockdep=DNNL (the kernel's
	 * rcu_torture_init_srcu_lockdep()): run deadlock scenario NN (0 SRCU,
	 * 1 SRCU/mutex, 2 SRCU/rwsem, 3 SRCU/Tasks Trace) over a cycle of L
	 * steps, closed if D=1, once before the run starts, saying each step
	 * on out; the RCU's lock-dependency checking must report a closed
	 * cycle (as a misuse: the run fails) and nothing else.  Returns 0.
	 * NULL: a test_srcu_lockdep run is not honoured (INCOMPLETE). */
	int (*srcu_lockdep)(long val, FILE *out);
};

/*
 * long NAME(long n, void *const *pp): a read_section made of the
 * adapter's readlock, readunlock and dereference functions (defined
 * before it in the same file, so that the compiler can inline them).
 * Usually `static TORTURE_READ_SECTION(my_read_section, ...)'.
 */
#define TORTURE_READ_SECTION(name, lock, unlock, deref)			\
long name(long n, void *const *pp)					\
{									\
	long s_ = 0;							\
									\
	while (n-- > 0) {						\
		int idx_ = lock();					\
									\
		s_ += *(const long *)deref(pp);				\
		unlock(idx_);						\
	}								\
	return s_;							\
}

/* The size of the first version-1 table: plugins may stop there. */
#define TORTURE_OPS_V1_SIZE	offsetof(struct torture_ops, start_gp_poll_exp)

typedef const struct torture_ops *(*torture_plugin_ops_fn)(unsigned int core_abi);

#ifdef __cplusplus
}
#endif

#endif /* TORTURE_OPS_H */
