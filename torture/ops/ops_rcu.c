/* SPDX-License-Identifier: MIT */
/*
 * ops_rcu.c - our library's flavors as torture types, through its public
 * API only: "rcu" (rcu_read_lock(), synchronize_rcu(), call_rcu(), the
 * polled API ...), "rcu_bh" (the _bh names, an alias of rcu in this
 * library as in post-consolidation kernels) and "sched" (QSBR:
 * rcu_read_lock_sched(), readers announce quiescent states).
 *
 * Readers' extendables: the protecting lock twice (nested), plus the other
 * flavors as overlapping sections.  rcu_read_lock_sched() does not hold
 * off rcu grace periods in this library (nor rcu_read_lock() sched ones),
 * so those entries never protect alone.
 *
 * Update-side threads stay unregistered: the library's update side works
 * from any thread.  Expedited grace periods (exp_sync, the expedited
 * polled calls), stall warnings (the library's stall notifier chain,
 * translated for the core) and switching callback offloading are there
 * for every type built on the library.
 */
#define LRCU_TEST_HOOKS		/* lrcu_inject_gp_kthread_wait() */
#include <stdlib.h>
#include <string.h>
#include <rcu/rcu_notifier.h>
#include <rcu/rcupdate.h>
#include "ops_rcu.h"
#include "builtin.h"

_Static_assert(sizeof(struct rcu_head) <= sizeof(((struct torture_cb *)0)->rcu_space),
	       "struct rcu_head must fit in torture_cb.rcu_space");
_Static_assert(sizeof(struct rcu_gp_oldstate) <= sizeof(struct torture_gp_full),
	       "struct rcu_gp_oldstate must fit in struct torture_gp_full");

int rcut_init(void)
{
	return lrcu_init();
}

int rcut_param_known(const char *name)
{
	return lrcu_param_known(name);
}

int rcut_boot_params(const char *args, char *err, size_t errlen)
{
	return lrcu_params_parse(args, err, errlen);
}

int rcut_register(void) { return rcu_register_thread(); }
int rcut_register_cpu(int cpu) { return rcu_register_thread_cpu(cpu); }
void rcut_unregister(void) { rcu_unregister_thread(); }
void rcut_online(void) { rcu_thread_online(); }
void rcut_offline(void) { rcu_thread_offline(); }
void rcut_qs(void) { rcu_quiescent_state(); }

int rcut_readlock(void)
{
	rcu_read_lock();
	return 0;
}

void rcut_readunlock(int idx)
{
	(void)idx;
	rcu_read_unlock();
}

void *rcut_dereference(void *const *pp)
{
	return rcu_dereference(*pp);
}

TORTURE_READ_SECTION(rcut_read_section, rcut_readlock, rcut_readunlock, rcut_dereference)

/* The grace-period sequence, sampled without a fence (inside every read). */
static unsigned long gp_seq_of(enum lrcu_flavor f)
{
	return f == LRCU_SCHED ? rcu_sched_get_gp_seq() : rcu_get_gp_seq();
}

unsigned long rcut_get_gp_seq(void) { return gp_seq_of(LRCU_PREEMPT); }

/* Grace periods that ended between two samples: the low two bits are the
 * state, each end rounds the counter up to the next multiple of 4. */
long rcut_gp_diff(unsigned long newer, unsigned long older)
{
	return (long)((newer & ~3UL) - (older & ~3UL)) / 4;
}

static unsigned long gps_of(enum lrcu_flavor f)
{
	struct lrcu_stats st;

	return lrcu_get_stats(f, &st) ? 0 : st.gps_completed;
}

unsigned long rcut_gps(void) { return gps_of(LRCU_PREEMPT); }
void rcut_sync(void) { synchronize_rcu(); }
void rcut_exp_sync(void) { synchronize_rcu_expedited(); }

/* The torture_cb's rcu_space holds our struct rcu_head (first member). */
static void rcut_cb(struct rcu_head *h)
{
	struct torture_cb *cb = (struct torture_cb *)(void *)h;

	cb->func(cb);
}

void rcut_call(struct torture_cb *cb)
{
	call_rcu((struct rcu_head *)(void *)cb->rcu_space, rcut_cb);
}

void rcut_barrier(void) { rcu_barrier(); }
unsigned long rcut_get_gp_state(void) { return get_state_synchronize_rcu(); }
unsigned long rcut_start_poll(void) { return start_poll_synchronize_rcu(); }
int rcut_poll(unsigned long cookie) { return poll_state_synchronize_rcu(cookie); }
void rcut_cond_sync(unsigned long cookie) { cond_synchronize_rcu(cookie); }
unsigned long rcut_start_poll_exp(void) { return start_poll_synchronize_rcu_expedited(); }
void rcut_cond_sync_exp(unsigned long cookie) { cond_synchronize_rcu_expedited(cookie); }
unsigned long rcut_comp_state(void) { return get_completed_synchronize_rcu(); }

/* Full-state cookies: our struct rcu_gp_oldstate in the core's room. */
static struct rcu_gp_oldstate *oldstate(struct torture_gp_full *c)
{
	return (struct rcu_gp_oldstate *)(void *)c->w;
}

void rcut_get_state_full(struct torture_gp_full *c) { get_state_synchronize_rcu_full(oldstate(c)); }
void rcut_start_poll_full(struct torture_gp_full *c) { start_poll_synchronize_rcu_full(oldstate(c)); }
void rcut_start_poll_exp_full(struct torture_gp_full *c)
{
	start_poll_synchronize_rcu_expedited_full(oldstate(c));
}
int rcut_poll_full(struct torture_gp_full *c) { return poll_state_synchronize_rcu_full(oldstate(c)); }
void rcut_cond_sync_full(struct torture_gp_full *c) { cond_synchronize_rcu_full(oldstate(c)); }
void rcut_cond_sync_exp_full(struct torture_gp_full *c)
{
	cond_synchronize_rcu_expedited_full(oldstate(c));
}
void rcut_comp_state_full(struct torture_gp_full *c)
{
	get_completed_synchronize_rcu_full(oldstate(c));
}
int rcut_same_state_full(struct torture_gp_full *c1, struct torture_gp_full *c2)
{
	return same_state_synchronize_rcu_full(oldstate(c1), oldstate(c2));
}
unsigned long rcut_misuse(void) { return lrcu_misuse_count(); }
#ifndef CONFIG_TINY_RCU	/* Tree RCU's administration (see ops_rcu.h) */
int rcut_cpu_group(int cpu) { return lrcu_cpu_leaf(cpu); }
void rcut_print_tree(FILE *out) { lrcu_print_tree(out); }

/* For hang reports: each flavor's state, and the holdouts of a grace
 * period in progress (named as a stall warning names them). */
void rcut_gp_state(FILE *out)
{
	lrcu_dump_gp_state(LRCU_PREEMPT, out);
	lrcu_dump_holdouts(LRCU_PREEMPT, out);
	lrcu_dump_gp_state(LRCU_SCHED, out);
	lrcu_dump_holdouts(LRCU_SCHED, out);
}

/* ------------------------------------------------------------------ */
/* Stall warnings: the library's notifier, translated for the core. */

static void (*stall_fn)(const struct torture_stall *s);

static int stall_nf(struct rcu_stall_notifier *nb, unsigned long action, void *data)
{
	const struct rcu_stall_info *i = data;
	int tids[RCU_STALL_MAX_HOLDOUTS], n, k;
	struct torture_stall s;

	(void)nb;
	(void)action;
	n = i->nr_holdouts < RCU_STALL_MAX_HOLDOUTS ? i->nr_holdouts : RCU_STALL_MAX_HOLDOUTS;
	for (k = 0; k < n; k++)
		tids[k] = i->holdouts[k].tid;
	s = (struct torture_stall){ .flavor = i->flavor, .expedited = i->expedited,
		.duration_ms = i->duration_ms, .nr_holdouts = i->nr_holdouts,
		.holdout_tids = tids, .n_tids = n, .starved = i->starved };
	stall_fn(&s);
	return 0;
}

static struct rcu_stall_notifier stall_nb = { .notifier_call = stall_nf };

int rcut_stall_notifier(void (*fn)(const struct torture_stall *s))
{
	stall_fn = fn;	/* before the registration publishes the notifier */
	return rcu_stall_chain_notifier_register(&stall_nb);
}

/* stall_gp_kthread: the library's test hook (librcu.a only). */
void rcut_stall_gp_kthread(unsigned long ms) { lrcu_inject_gp_kthread_wait(LRCU_PREEMPT, ms); }
void rcut_sched_stall_gp_kthread(unsigned long ms) { lrcu_inject_gp_kthread_wait(LRCU_SCHED, ms); }

/* rcupdate.rcu_cpu_stall_timeout, in ms (the text is seconds). */
unsigned long rcut_stall_timeout_ms(void)
{
	char v[32];

	return lrcu_param_get("rcupdate.rcu_cpu_stall_timeout", v, sizeof(v)) ? 0 :
	       (unsigned long)(strtod(v, NULL) * 1000 + 0.5);
}

/* nr_cpus: how many threads can be registered at once. */
long rcut_capacity(void)
{
	char v[32];

	return lrcu_param_get("nr_cpus", v, sizeof(v)) ? 0 : strtol(v, NULL, 0);
}

int rcut_nocb_toggle(int cpu, int offload)
{
	return offload ? rcu_nocb_cpu_offload(cpu) : rcu_nocb_cpu_deoffload(cpu);
}

int rcut_kthreads_prio(void)
{
	return rcu_get_gp_kthreads_prio();
}

/* rcutree.rcu_boost (boosting needs the real-time threads too, which
 * gp_kthreads_prio() tells apart, as the kernel's test does). */
int rcut_can_boost(void)
{
	char v[16];

	return !lrcu_param_get("rcutree.rcu_boost", v, sizeof(v)) && !strcmp(v, "1");
}

unsigned long rcut_boosts(void)
{
	struct lrcu_stats st;

	return lrcu_get_stats(LRCU_PREEMPT, &st) ? 0 : st.boosts;
}
#endif /* CONFIG_TINY_RCU */

int rcut_debug_objects(void)
{
	char v[16];

	return !lrcu_param_get("debug_objects", v, sizeof(v)) && !strcmp(v, "1");
}

static void stats_of(enum lrcu_flavor f, FILE *out)
{
	struct lrcu_stats st;

	if (lrcu_get_stats(f, &st))
		return;
	fprintf(out, "%s: g%ld gps: %lu gp_max: %lu us fqs: %lu cbs: %lu/%lu pending %lu "
		"max-batch %lu barriers: %lu orphaned: %lu registered: %d fenced: %lu boosts: %lu\n",
		lrcu_flavor_name(f), (long)st.gp_seq, st.gps_completed, st.gp_max_us, st.fqs_scans,
		st.cbs_queued, st.cbs_invoked, st.cbs_pending, st.cb_max_batch, st.barriers,
		st.cbs_orphaned, st.nr_registered, st.gps_fenced, st.boosts);
}

static void rcut_stats(FILE *out) { stats_of(LRCU_PREEMPT, out); }
static void rcut_fqs(void) { rcu_force_quiescent_state(); }

/* ------------------------------------------------------------------ */
/* rcu */

static int bh_lock(void) { rcu_read_lock_bh(); return 0; }
static void bh_unlock(int idx) { (void)idx; rcu_read_unlock_bh(); }
static int sched_lock(void) { rcu_read_lock_sched(); return 0; }
static void sched_unlock(int idx) { (void)idx; rcu_read_unlock_sched(); }

/* rcu_read_lock() nested in itself: the extendables of the broken types. */
const struct torture_read_flavor rcut_nested_flavors[2] = {
	{ "RCU_1", rcut_readlock, rcut_readunlock, 1 },
	{ "RCU_2", rcut_readlock, rcut_readunlock, 1 },
};

static const struct torture_read_flavor rcu_flavors[] = {
	{ "RCU_1", rcut_readlock, rcut_readunlock, 1 },
	{ "RCU_2", rcut_readlock, rcut_readunlock, 1 },
	{ "RBH", bh_lock, bh_unlock, 1 },
	{ "SCHED", sched_lock, sched_unlock, 0 },
};

#define RCU_FLAVOR_OPS							\
	RCUT_GP_SEQ,							\
	.get_gp_state = rcut_get_gp_state,				\
	.start_gp_poll = rcut_start_poll,				\
	.poll_gp_state = rcut_poll,					\
	.cond_sync = rcut_cond_sync,					\
	.start_gp_poll_exp = rcut_start_poll_exp,			\
	.cond_sync_exp = rcut_cond_sync_exp,				\
	.get_comp_state = rcut_comp_state,				\
	RCUT_FULL,							\
	RCUT_TREE_ONLY(.stall_gp_kthread = rcut_stall_gp_kthread)	\
	.fqs = rcut_fqs,						\
	.debug_objects = rcut_debug_objects,				\
	.stats = rcut_stats

const struct torture_ops rcu_ops = {
	RCUT_COMMON,
	RCUT_READER,
	RCUT_UPDATE,
	RCU_FLAVOR_OPS,
	.name = "rcu",
	.flags = TORTURE_OPS_IRQ_CAPABLE | RCUT_UP,
	.read_flavors = rcu_flavors,
	.n_read_flavors = 4,
	RCUT_TREE_ONLY(.can_boost = rcut_can_boost)
};

/* ------------------------------------------------------------------ */
/* rcu_bh */

static void *bh_dereference(void *const *pp) { return rcu_dereference_bh(*pp); }
static TORTURE_READ_SECTION(bh_read_section, bh_lock, bh_unlock, bh_dereference)
static void bh_sync(void) { synchronize_rcu_bh(); }
static void bh_exp_sync(void) { synchronize_rcu_bh_expedited(); }
static void bh_call(struct torture_cb *cb)
{
	call_rcu_bh((struct rcu_head *)(void *)cb->rcu_space, rcut_cb);
}
static void bh_barrier(void) { rcu_barrier_bh(); }

static const struct torture_read_flavor bh_flavors[] = {
	{ "RBH_1", bh_lock, bh_unlock, 1 },
	{ "RBH_2", bh_lock, bh_unlock, 1 },
	{ "RCU", rcut_readlock, rcut_readunlock, 1 },
	{ "SCHED", sched_lock, sched_unlock, 0 },
};

const struct torture_ops rcu_bh_ops = {
	RCUT_COMMON,
	RCU_FLAVOR_OPS,
	.name = "rcu_bh",
	.flags = TORTURE_OPS_IRQ_CAPABLE | RCUT_UP,
	.readlock = bh_lock,
	.readunlock = bh_unlock,
	.dereference = bh_dereference,
	.read_section = bh_read_section,
	.read_flavors = bh_flavors,
	.n_read_flavors = 4,
	.sync = bh_sync,
	.exp_sync = bh_exp_sync,
	.call = bh_call,
	.cb_barrier = bh_barrier,
};

/* ------------------------------------------------------------------ */
/* sched (QSBR) */

static void *sched_dereference(void *const *pp) { return rcu_dereference_sched(*pp); }
static TORTURE_READ_SECTION(sched_read_section, sched_lock, sched_unlock, sched_dereference)
/* The update side, shared with sched-free (ops_sched_free.c). */
unsigned long rcut_sched_gp_seq(void) { return gp_seq_of(LRCU_SCHED); }
unsigned long rcut_sched_gps(void) { return gps_of(LRCU_SCHED); }
void rcut_sched_sync(void) { synchronize_sched(); }
void rcut_sched_exp_sync(void) { synchronize_sched_expedited(); }
void rcut_sched_call(struct torture_cb *cb)
{
	call_rcu_sched((struct rcu_head *)(void *)cb->rcu_space, rcut_cb);
}
void rcut_sched_barrier(void) { rcu_barrier_sched(); }
unsigned long rcut_sched_get_state(void) { return get_state_synchronize_sched(); }
unsigned long rcut_sched_start_poll(void) { return start_poll_synchronize_sched(); }
int rcut_sched_poll(unsigned long c) { return poll_state_synchronize_sched(c); }
void rcut_sched_cond_sync(unsigned long c) { cond_synchronize_sched(c); }
unsigned long rcut_sched_start_poll_exp(void) { return start_poll_synchronize_sched_expedited(); }
void rcut_sched_cond_sync_exp(unsigned long c) { cond_synchronize_sched_expedited(c); }
void rcut_sched_stats(FILE *out) { stats_of(LRCU_SCHED, out); }
void rcut_sched_fqs(void) { rcu_sched_force_quiescent_state(); }

static const struct torture_read_flavor sched_flavors[] = {
	{ "SCHED_1", sched_lock, sched_unlock, 1 },
	{ "SCHED_2", sched_lock, sched_unlock, 1 },
	{ "RCU", rcut_readlock, rcut_readunlock, 0 },
	{ "RBH", bh_lock, bh_unlock, 0 },
};

const struct torture_ops sched_ops = {
	RCUT_BASE,
	RCUT_EQS,
	RCUT_SCHED_UPDATE,
	.name = "sched",
	.flags = TORTURE_OPS_QSBR | TORTURE_OPS_IRQ_CAPABLE | RCUT_UP,
	.readlock = sched_lock,
	.readunlock = sched_unlock,
	.dereference = sched_dereference,
	.read_section = sched_read_section,
	.read_flavors = sched_flavors,
	.n_read_flavors = 4,
};
