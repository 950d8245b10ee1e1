/* SPDX-License-Identifier: MIT */
/* builtin.h - the built-in ops tables (torture/ops/ *.c), for types.c. */
#ifndef TORTURE_OPS_BUILTIN_H
#define TORTURE_OPS_BUILTIN_H

#include <torture/atomic.h>
#include <torture/ops.h>

extern const struct torture_ops rcu_ops, rcu_bh_ops, sched_ops, sched_free_ops;
extern const struct torture_ops busted_ops, busted_barrier_ops, busted_unlock_ops,
	busted_poll_ops, busted_poll_full_ops, busted_hang_ops, busted_lostcb_ops,
	busted_exp_ops, busted_exp_fence_ops;
extern const struct torture_ops trivial_ops, trivial_preempt_ops, trivial_preempt_busted_ops;
extern const struct torture_ops srcu_ops, srcud_ops, srcum_ops, srcu_busted_ops,
	srcu_busted_fast_ops;
extern const struct torture_ops tasks_tracing_ops, tasks_tracing_busted_ops;
extern const struct torture_ops tasks_ops, tasks_busted_ops, tasks_rude_ops,
	tasks_rude_busted_ops;
extern const struct torture_ops liburcu_memb_ops, liburcu_mb_ops, liburcu_signal_ops,
	liburcu_qsbr_ops, liburcu_bp_ops;

/* urcu_built.c or urcu_absent.c: the liburcu types (NULL-terminated), or
 * their names and why they are missing. */
extern const struct torture_ops *const torture_urcu_ops[];
extern const char *const torture_urcu_absent[];
extern const char torture_urcu_why[];

#endif
