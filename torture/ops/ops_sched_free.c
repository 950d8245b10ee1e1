/* SPDX-License-Identifier: MIT */
/*
 * ops_sched_free.c - "sched-free": the sched flavor read through free
 * markers (LRCU_SCHED_FREE_MARKERS, see <rcu/rcupdate.h>): the markers
 * compile to a compiler barrier, as liburcu-qsbr's, and the thread takes
 * liburcu-qsbr's contract: it reads only while online in the flavor.  So
 * registering (or coming back online) joins the flavor at once with a
 * quiescent state, as liburcu-qsbr's registration puts a thread online,
 * and a registered thread that will not announce quiescent states goes
 * offline, as the harness's helpers do.  The update side is sched's.
 */
#define LRCU_SCHED_FREE_MARKERS 1
#include <rcu/rcupdate.h>
#include "ops_rcu.h"
#include "builtin.h"

static int free_register(void)
{
	int rc = rcu_register_thread();

	if (!rc)
		rcu_quiescent_state();	/* joins: online in rcu_sched from now */
	return rc;
}

static int free_register_cpu(int cpu)
{
	int rc = rcu_register_thread_cpu(cpu);

	if (!rc)
		rcu_quiescent_state();	/* as free_register() */
	return rc;
}

static void free_online(void)
{
	rcu_thread_online();
	rcu_quiescent_state();	/* joins, if this thread had not yet */
}

static int free_lock(void) { rcu_read_lock_sched(); return 0; }
static void free_unlock(int idx) { (void)idx; rcu_read_unlock_sched(); }
static void *free_dereference(void *const *pp) { return rcu_dereference_sched(*pp); }
static TORTURE_READ_SECTION(free_read_section, free_lock, free_unlock, free_dereference)

static const struct torture_read_flavor free_flavors[] = {
	{ "SCHED_1", free_lock, free_unlock, 1 },
	{ "SCHED_2", free_lock, free_unlock, 1 },
	{ "RCU", rcut_readlock, rcut_readunlock, 0 },
};

const struct torture_ops sched_free_ops = {
	RCUT_ADMIN_NOREG,
	RCUT_SCHED_UPDATE,
	.init = rcut_init,
	.thread_register = free_register,
	.thread_register_cpu = free_register_cpu,
	.thread_online = free_online,
	.thread_offline = rcut_offline,
	.quiescent_state = rcut_qs,
	.name = "sched-free",
	/* Not IRQ_CAPABLE: a signal handler may run while its thread is
	 * offline, where free markers do not protect. */
	.flags = TORTURE_OPS_QSBR,
	.readlock = free_lock,
	.readunlock = free_unlock,
	.dereference = free_dereference,
	.read_section = free_read_section,
	.read_flavors = free_flavors,
	.n_read_flavors = 3,
};
