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
/* ops_busted.c: a call() that runs the callback at once, its barrier. */
void busted_cb_now(struct torture_cb *cb);
void busted_cb_barrier(void);
extern const struct torture_ops trivial_ops, trivial_preempt_ops, trivial_preempt_busted_ops;
extern const struct torture_ops srcu_ops, srcud_ops, srcum_ops, srcu_busted_ops,
	srcu_busted_fast_ops;
extern const struct torture_ops tasks_tracing_ops, tasks_tracing_busted_ops;
extern const struct torture_ops tasks_ops, tasks_busted_ops, tasks_rude_ops,
	tasks_rude_busted_ops;
extern const struct torture_ops liburcu_memb_ops, liburcu_mb_ops, liburcu_signal_ops,
	liburcu_qsbr_ops, liburcu_bp_ops;
extern const struct torture_ops ck_epoch_ops, ck_epoch_busted_ops;
extern const struct torture_ops dpdk_qsbr_ops, dpdk_qsbr_scan_ops,
	dpdk_qsbr_busted_ops;

/*
 * The types built on another project's library, each optional: LIB_built.c
 * (linked when torture/torture.mk finds the library) lists them in ->ops,
 * LIB_absent.c (linked otherwise) only names them in ->absent, with ->why
 * naming the Debian package to install.
 */
struct torture_optional {
	const struct torture_ops *const *ops;	/* built types, NULL-terminated */
	const char *const *absent;		/* names not built, NULL-terminated */
	const char *why;			/* "not built: install PKG (and rebuild)" */
};
extern const struct torture_optional torture_urcu, torture_ck, torture_dpdk;

/*
 * Why an optional library's types are absent: its package is missing (or
 * the build said VAR=0), except in the Tiny RCU build, which has only Tiny
 * RCU's types whatever is installed.
 */
#ifdef CONFIG_TINY_RCU
#define TORTURE_ABSENT_WHY(pkg)	"not in this build: the Tiny RCU build has only Tiny RCU's types"
#else
#define TORTURE_ABSENT_WHY(pkg)	"not built: install " pkg " (and rebuild)"
#endif

#endif
