/* SPDX-License-Identifier: MIT */
/* builtin.h - the built-in ops tables (torture/ops/ *.c), for types.c. */
#ifndef TORTURE_OPS_BUILTIN_H
#define TORTURE_OPS_BUILTIN_H

#include <torture/ops.h>

extern const struct torture_ops rcu_ops, rcu_bh_ops, sched_ops;
extern const struct torture_ops busted_ops, busted_barrier_ops, busted_unlock_ops,
	busted_poll_ops, busted_hang_ops, busted_lostcb_ops, busted_exp_ops,
	busted_exp_fence_ops;
extern const struct torture_ops trivial_ops;
extern const struct torture_ops srcu_ops, srcud_ops, srcum_ops, srcu_busted_ops;
#ifdef TORTURE_HAVE_LIBURCU
extern const struct torture_ops liburcu_memb_ops, liburcu_mb_ops, liburcu_signal_ops,
	liburcu_qsbr_ops, liburcu_bp_ops;
#endif

#endif
