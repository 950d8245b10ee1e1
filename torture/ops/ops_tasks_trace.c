/* SPDX-License-Identifier: MIT */
/*
 * ops_tasks_trace.c - RCU Tasks Trace (<rcu/rcupdate_trace.h>):
 *
 *   tasks-tracing         the kernel's tasks_tracing_ops: rcu_read_lock_trace()
 *                         readers, which may sleep (srcu_read_delay() in the
 *                         kernel), synchronize_rcu_tasks_trace() for both the
 *                         normal and the expedited waits (the kernel has no
 *                         expedited Tasks Trace call either),
 *                         call_rcu_tasks_trace(), rcu_barrier_tasks_trace();
 *                         no polled calls (the kernel has none).  The read
 *                         flavors nest rcu_read_lock_trace() (two entries,
 *                         both protecting: a hand-off from one to the other
 *                         is safe only if the nesting count keeps the
 *                         outermost section open) and overlap the kernel's
 *                         newer rcu_read_lock_tasks_trace() form.
 *   tasks-tracing-busted  the same readers, but the update side is the rcu
 *                         flavor's (synchronize_rcu(), call_rcu()): the
 *                         mistake of freeing what Tasks Trace readers use
 *                         after a plain RCU grace period, which waits for no
 *                         such reader.  Must end in FAILURE.
 *
 * No thread registers: Tasks Trace readers need none, so the torture's
 * readers, updaters and forward-progress threads are all threads RCU
 * never heard of.  CPU hotplug (the onoff thread, registration here) then
 * has nothing to act on, as a Tasks Trace reader in the kernel migrates
 * off a CPU going down and reads on.
 */
#include <rcu/rcupdate_trace.h>
#include "ops_srcu.h"
#include "builtin.h"

#define TRC_DOM	(&rcu_tasks_trace_srcu_struct)

static int trc_lock(void)
{
	rcu_read_lock_trace();
	return 0;
}

static void trc_unlock(int idx)
{
	(void)idx;
	rcu_read_unlock_trace();
}

static int trc_scp_lock(void) { return __srcu_ptr_to_ctr(TRC_DOM, rcu_read_lock_tasks_trace()); }
static void trc_scp_unlock(int v) { rcu_read_unlock_tasks_trace(__srcu_ctr_to_ptr(TRC_DOM, v)); }
static void *trc_deref(void *const *pp) { return rcu_dereference_trace(*pp); }
static TORTURE_READ_SECTION(trc_read_section, trc_lock, trc_unlock, trc_deref)
static unsigned long trc_gp_seq(void) { return lrcu_srcu_get_gp_seq(TRC_DOM); }
static unsigned long trc_gps(void) { return srcu_batches_completed(TRC_DOM); }
static void trc_sync(void) { synchronize_rcu_tasks_trace(); }
static void trc_call(struct torture_cb *cb) { call_rcu_tasks_trace(srcut_head(cb), srcut_cb); }
static void trc_barrier(void) { rcu_barrier_tasks_trace(); }
static void trc_stats(FILE *out) { lrcu_srcu_torture_stats(TRC_DOM, out); }

/*
 * A section of the newer form starts a section of its own: a grace
 * period that began before it need not wait for it, so it never
 * protects alone (see struct torture_read_flavor).
 */
static const struct torture_read_flavor trc_flavors[] = {
	{ "TRACE_1", trc_lock, trc_unlock, 1 },
	{ "TRACE_2", trc_lock, trc_unlock, 1 },
	{ "TRACE_SCP", trc_scp_lock, trc_scp_unlock, 0 },
};

/* What both types share: administration and readers. */
#define TRC_COMMON							\
	TORTURE_OPS_HEAD,						\
	.param_known = rcut_param_known,				\
	.boot_params = rcut_boot_params,				\
	.misuse_count = rcut_misuse,					\
	.srcu_lockdep = RCUT_SRCU_LOCKDEP,				\
	.init = rcut_init,						\
	.debug_objects = rcut_debug_objects,				\
	.readlock = trc_lock,						\
	.readunlock = trc_unlock,					\
	.dereference = trc_deref,					\
	.read_section = trc_read_section,				\
	.read_flavors = trc_flavors,					\
	.n_read_flavors = 3

const struct torture_ops tasks_tracing_ops = {
	TRC_COMMON,
	.name = "tasks-tracing",
	.gp_name = "rcu_tasks_trace",
	.flags = TORTURE_OPS_IRQ_CAPABLE | TORTURE_OPS_SLEEPABLE,
	.get_gp_seq = trc_gp_seq,
	.gp_diff = rcut_gp_diff,
	.gps_completed = trc_gps,
	.sync = trc_sync,
	.exp_sync = trc_sync,
	.call = trc_call,
	.cb_barrier = trc_barrier,
	.stats = trc_stats,
	.gp_state = trc_stats,
};

const struct torture_ops tasks_tracing_busted_ops = {
	TRC_COMMON,
	.name = "tasks-tracing-busted",
	.gp_name = "rcu",
	.flags = TORTURE_OPS_BROKEN | TORTURE_OPS_IRQ_CAPABLE | TORTURE_OPS_SLEEPABLE,
	RCUT_GP_SEQ,
	RCUT_UPDATE,	/* BROKEN on purpose: rcu grace periods ignore trace readers */
};
