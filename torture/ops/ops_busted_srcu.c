/* SPDX-License-Identifier: MIT */
/*
 * ops_busted_srcu.c - SRCU types that must end in FAILURE:
 *
 *   srcu_busted       the kernel's busted_srcud: real SRCU grace periods,
 *                     but the readers' extendables count rcu_read_lock()
 *                     as protection.  An rcu flavor section holds off no
 *                     SRCU grace period, so a read that goes on under
 *                     rcu_read_lock() alone sees the element it holds go
 *                     through grace periods: Reader Pipe past index 1.
 *                     Its SRCU readers take rcutorture.reader_flavor, as
 *                     the kernel's do.
 *   srcu_busted_fast  SRCU-fast readers on a DEFINE_SRCU_FAST() domain
 *                     whose grace periods nobody waits for: the update
 *                     side kept the DEFINE_SRCU() domain the readers used
 *                     before they were converted to srcu_read_lock_fast().
 *                     The fast flavors are the ones whose domain must
 *                     change with the flavor (the kernel's rcutorture once
 *                     picked the fast domain for fast-updown readers); a
 *                     harness that tortures a fast reader without waiting
 *                     on its domain must say FAILURE, not SUCCESS.
 */
#include "ops_srcu.h"
#include "builtin.h"

/* ------------------------------------------------------------------ */
/* srcu_busted */

DEFINE_STATIC_SRCU(busted_ctl);
DEFINE_STATIC_SRCU_FAST(busted_ctlf);
DEFINE_STATIC_SRCU_FAST_UPDOWN(busted_ctlfud);
/* The domain of the reader flavors, and the flavors (set before init()). */
static struct srcu_struct *busted_ctlp = &busted_ctl;
static unsigned int busted_rf = SRCU_READ_FLAVOR_NORMAL;

static int busted_set_flavor(unsigned int mask)
{
	struct srcu_struct *doms[3] = { &busted_ctl, &busted_ctlf, &busted_ctlfud };

	busted_rf = mask;
	busted_ctlp = srcut_flavor_domain(mask, doms);
	return 0;
}

static int busted_lock(void) { return srcut_read_lock(busted_ctlp, busted_rf); }
static void busted_unlock(int v) { srcut_read_unlock(busted_ctlp, busted_rf, v); }
static void *busted_deref(void *const *pp) { return srcu_dereference_check(*pp, busted_ctlp, 1); }
static unsigned long busted_gp_seq(void) { return lrcu_srcu_get_gp_seq(busted_ctlp); }
static unsigned long busted_gps(void) { return srcu_batches_completed(busted_ctlp); }
static void busted_sync(void) { synchronize_srcu(busted_ctlp); }
static void busted_exp_sync(void) { synchronize_srcu_expedited(busted_ctlp); }
static void busted_call(struct torture_cb *cb) { call_srcu(busted_ctlp, srcut_head(cb), srcut_cb); }
static void busted_barrier(void) { srcu_barrier(busted_ctlp); }
static void busted_stats(FILE *out) { lrcu_srcu_torture_stats(busted_ctlp, out); }

static const struct torture_read_flavor flavors[] = {
	{ "SRCU", busted_lock, busted_unlock, 1 },
	{ "RCU", rcut_readlock, rcut_readunlock, 1 },	/* BROKEN on purpose: holds off no SRCU GP */
};

/* The update side of both types, on the domain `ctlp' points to. */
#define BUSTED_SRCU_UPDATE						\
	.get_gp_seq = busted_gp_seq,					\
	.gp_diff = rcut_gp_diff,					\
	.gps_completed = busted_gps,					\
	.sync = busted_sync,						\
	.exp_sync = busted_exp_sync,					\
	.call = busted_call,						\
	.cb_barrier = busted_barrier,					\
	.stats = busted_stats,						\
	.gp_state = busted_stats

const struct torture_ops srcu_busted_ops = {
	SRCUT_BASE,
	SRCUT_REGISTERED,
	BUSTED_SRCU_UPDATE,
	.init = rcut_init,
	.debug_objects = rcut_debug_objects,
	.name = "srcu_busted",
	.flags = TORTURE_OPS_BROKEN | TORTURE_OPS_IRQ_CAPABLE | TORTURE_OPS_SLEEPABLE,
	.readlock = busted_lock,
	.readunlock = busted_unlock,
	.dereference = busted_deref,
	.read_flavors = flavors,
	.n_read_flavors = 2,
	.reader_flavor = busted_set_flavor,
};

/* ------------------------------------------------------------------ */
/* srcu_busted_fast: the update side stays on busted_ctl */

DEFINE_STATIC_SRCU_FAST(busted_fast_ctl);

static int fast_lock(void)
{
	return __srcu_ptr_to_ctr(&busted_fast_ctl, srcu_read_lock_fast(&busted_fast_ctl));
}

static void fast_unlock(int v)
{
	srcu_read_unlock_fast(&busted_fast_ctl, __srcu_ctr_to_ptr(&busted_fast_ctl, v));
}

static void *fast_deref(void *const *pp) { return srcu_dereference(*pp, &busted_fast_ctl); }

static const struct torture_read_flavor fast_flavors[] = {
	{ "SRCU_FAST_1", fast_lock, fast_unlock, 1 },	/* BROKEN on purpose: */
	{ "SRCU_FAST_2", fast_lock, fast_unlock, 1 },	/* no GP waits on its domain */
};

const struct torture_ops srcu_busted_fast_ops = {
	SRCUT_BASE,
	BUSTED_SRCU_UPDATE,	/* busted_ctlp: busted_ctl, reader_flavor or not */
	.init = rcut_init,
	.debug_objects = rcut_debug_objects,
	.name = "srcu_busted_fast",
	.flags = TORTURE_OPS_BROKEN | TORTURE_OPS_IRQ_CAPABLE | TORTURE_OPS_SLEEPABLE,
	.readlock = fast_lock,
	.readunlock = fast_unlock,
	.dereference = fast_deref,
	.read_flavors = fast_flavors,
	.n_read_flavors = 2,
};
