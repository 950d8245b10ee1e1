/* SPDX-License-Identifier: MIT */
/*
 * liburcu_ops.h - one liburcu flavor as a torture type, included by each
 * ops_liburcu_<flavor>.c after it defines:
 *
 *   LU_FLAVOR   the flavor's name part (memb, mb, signal, qsbr, bp)
 *   LU_NAME     the torture_type ("urcu-memb")
 *   LU_FLAGS    extra TORTURE_OPS_* flags (QSBR for qsbr)
 *   LU_INIT()   the flavor's init call, or nothing
 *
 * and includes <urcu/urcu-LU_FLAVOR.h> with _LGPL_SOURCE.  liburcu 0.13
 * has synchronize_rcu, call_rcu and rcu_barrier but no polled grace
 * periods, no expedited ones and no grace-period counter.  Its call_rcu()
 * needs a registered (QSBR: online) caller, hence UPDATERS_REGISTER.
 */
#include <torture/ops.h>

#define LU_CAT2(a, b)	urcu_##a##_##b
#define LU_CAT(a, b)	LU_CAT2(a, b)
#define LU(x)		LU_CAT(LU_FLAVOR, x)

_Static_assert(sizeof(struct rcu_head) <= sizeof(((struct torture_cb *)0)->rcu_space),
	       "liburcu's struct rcu_head must fit in torture_cb.rcu_space");

static int lu_init(void)
{
	LU_INIT();
	return 0;
}

static int lu_register(void)
{
	LU(register_thread)();
	return 0;
}

static void lu_unregister(void) { LU(unregister_thread)(); }
static void lu_online(void) { LU(thread_online)(); }
static void lu_offline(void) { LU(thread_offline)(); }
static void lu_qs(void) { LU(quiescent_state)(); }

static int lu_readlock(void)
{
	LU(read_lock)();
	return 0;
}

static void lu_readunlock(int idx)
{
	(void)idx;
	LU(read_unlock)();
}

static void *lu_dereference(void *const *pp)
{
	void **p = (void **)pp;

	return rcu_dereference(*p);
}

static TORTURE_READ_SECTION(lu_read_section, lu_readlock, lu_readunlock, lu_dereference)

static void lu_sync(void) { LU(synchronize_rcu)(); }

/* The torture_cb's rcu_space holds liburcu's struct rcu_head. */
static void lu_cb(struct rcu_head *h)
{
	struct torture_cb *cb = (struct torture_cb *)(void *)h;

	cb->func(cb);
}

static void lu_call(struct torture_cb *cb)
{
	LU(call_rcu)((struct rcu_head *)(void *)cb->rcu_space, lu_cb);
}

static void lu_barrier(void) { LU(barrier)(); }

static const struct torture_read_flavor lu_flavors[] = {
	{ "RCU_1", lu_readlock, lu_readunlock, 1 },
	{ "RCU_2", lu_readlock, lu_readunlock, 1 },
};

#define LU_OPS_TABLE(var)						\
const struct torture_ops var = {					\
	TORTURE_OPS_HEAD,						\
	.name = LU_NAME,						\
	.flags = TORTURE_OPS_UPDATERS_REGISTER | (LU_FLAGS),		\
	.init = lu_init,						\
	.thread_register = lu_register,					\
	.thread_unregister = lu_unregister,				\
	.thread_online = lu_online,					\
	.thread_offline = lu_offline,					\
	.quiescent_state = lu_qs,					\
	.readlock = lu_readlock,					\
	.readunlock = lu_readunlock,					\
	.dereference = lu_dereference,					\
	.read_section = lu_read_section,				\
	.read_flavors = lu_flavors,					\
	.n_read_flavors = 2,						\
	.sync = lu_sync,						\
	.call = lu_call,						\
	.cb_barrier = lu_barrier,					\
}
