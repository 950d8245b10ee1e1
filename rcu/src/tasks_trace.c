/* SPDX-License-Identifier: MIT */
/*
 * tasks_trace.c - RCU Tasks Trace: its domain and its readers' state.
 *
 * Theory of operation
 *
 * The current kernel implements Tasks Trace as one SRCU-fast domain with
 * a per-task nesting count in front of it, and so does this library
 * (<rcu/rcupdate_trace.h>, docs/design/tasks-trace.md).  Every reader
 * and grace period is SRCU's (srcu.c, srcu_readers.c, srcu_cb.c): the
 * outermost rcu_read_lock_trace() is srcu_read_lock_fast() on the domain
 * below, synchronize_rcu_tasks_trace() is synchronize_srcu() on it.  What
 * is Tasks Trace's own lives in the header, inline: a thread's state
 * (struct lrcu_trc_reader: the outermost section's counter and how many
 * sections nest inside it), kept so that only the outermost lock and
 * unlock touch the domain and so that a signal handler can nest or run a
 * section of its own at any instant.  SRCU readers need no registration,
 * so neither do these: a thread that never called rcu_register_thread()
 * reads as well as any.
 *
 * The kernel's older implementation (a grace-period kthread that scans
 * every task's nesting count, IPIs the CPUs of those inside and waits on
 * a holdout list) gave way to SRCU-fast because the two wait for the same
 * readers and SRCU-fast's readers cost less; the same holds here, where
 * SRCU's readers already need no fence (membarrier()).
 */
#include <rcu/rcupdate_trace.h>
#include "internal.h"

/* The domain (DEFINE_SRCU_FAST(), under the kernel's name in messages). */
struct srcu_struct lrcu_rcu_tasks_trace_srcu_struct = {
	.srcu_name = "rcu_tasks_trace",
	.srcu_reader_flavor = SRCU_READ_FLAVOR_FAST,
};

__thread struct lrcu_trc_reader lrcu_trc_self;
