/* SPDX-License-Identifier: MIT */
/*
 * init.c - the library's state and its start: one lrcu_state per flavor
 * (the kernel's rcu_state) and the grace-period numbers the read side
 * samples are defined here; starting fills them in: parameters from
 * RCU_BOOTARGS, tree geometry, per-slot data, membarrier detection, then
 * the GP and callback threads.  Runs on lrcu_init() or on the first
 * registration/update-side call (lifecycle.c), again after rcu_shutdown().
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

struct lrcu_gp_pub lrcu_gp_pub[LRCU_NR_FLAVORS] = {
	[LRCU_PREEMPT] = { .seq = RCU_SEQ_INIT, .word = LRCU_GP_WORD(RCU_SEQ_INIT) },
	[LRCU_SCHED] = { .seq = RCU_SEQ_INIT, .word = LRCU_GP_WORD(RCU_SEQ_INIT) },
};

#define STATE_INIT(f, n, gpn, cbn) {					\
	.flavor = (f), .name = (n), .gp_thread_name = (gpn),		\
	.cb_thread_name = (cbn),					\
	.gp_seq = &lrcu_gp_pub[f].seq,					\
	.gp_seq_needed = RCU_SEQ_INIT,					\
	.gp_exp_needed = RCU_SEQ_INIT,					\
	.gp_mutex = PTHREAD_MUTEX_INITIALIZER,				\
	.gp_wq_lock = PTHREAD_MUTEX_INITIALIZER,			\
	.gp_wq = PTHREAD_COND_INITIALIZER,				\
	.barrier_mutex = PTHREAD_MUTEX_INITIALIZER,			\
	.barrier_lock = PTHREAD_MUTEX_INITIALIZER,			\
	.barrier_seq = RCU_SEQ_INIT,					\
	.barrier_done_lock = PTHREAD_MUTEX_INITIALIZER,			\
	.barrier_done = PTHREAD_COND_INITIALIZER,			\
}

struct lrcu_state lrcu__states[LRCU_NR_FLAVORS] = {
	[LRCU_PREEMPT] = STATE_INIT(LRCU_PREEMPT, "rcu_preempt", "rcu_preempt", "rcu_cb_preempt"),
	[LRCU_SCHED] = STATE_INIT(LRCU_SCHED, "rcu_sched", "rcu_sched", "rcu_cb_sched"),
};

static int rda_init(struct lrcu_state *rsp)
{
	struct lrcu_node *leaf0 = rsp->node + rsp->level_first[rsp->levels - 1];
	int i, nleaves = rsp->level_count[rsp->levels - 1];

	rsp->rda = aligned_alloc(LRCU_CACHELINE, sizeof(*rsp->rda) * (size_t)(lrcu__nr_slots + 1));
	if (!rsp->rda)
		return -1;
	memset(rsp->rda, 0, sizeof(*rsp->rda) * (size_t)(lrcu__nr_slots + 1));
	rsp->cb_slots = calloc(lrcu_cb_slots_words(), sizeof(*rsp->cb_slots));
	if (!rsp->cb_slots)
		return -1;
	for (i = 0; i <= lrcu__nr_slots; i++) {
		struct lrcu_data *rdp = &rsp->rda[i];
		int j;

		rdp->slot = i;
		rdp->rsp = rsp;
		lrcu__mutex_init(&rdp->cblock);
		lrcu__cblist_init(&rdp->cbl);
		if (i == lrcu__nr_slots)
			continue;	/* the unbound rdp is in no leaf */
		for (j = 0; j < nleaves; j++)
			if (i >= leaf0[j].grplo && i <= leaf0[j].grphi)
				break;
		rdp->mynode = &leaf0[j];
		rdp->grpmask = 1UL << (i - leaf0[j].grplo);
	}
	return 0;
}

/* The mutexes the GP and callback threads share with other threads, of
 * the protocol boost.c chose (priority inheritance for real-time RCU
 * threads); nobody holds them before the library starts. */
static void state_mutexes_init(void)
{
	struct lrcu_state *rsp;

	lrcu__mutex_init(&lrcu__slots_lock);
	for (rsp = lrcu__states; rsp < lrcu__states + LRCU_NR_FLAVORS; rsp++) {
		lrcu__mutex_init(&rsp->gp_wq_lock);
		lrcu__mutex_init(&rsp->barrier_mutex);
		lrcu__mutex_init(&rsp->barrier_lock);
		lrcu__mutex_init(&rsp->barrier_done_lock);
	}
}

/* Set up and start the tree; 0, or -1 after printing why (what was set up
 * stays for lrcu__stop(), or for the next try). */
int lrcu__start(void)
{
	const char *env = getenv("RCU_BOOTARGS");
	char err[256];
	int f;

	if (env && lrcu_params_parse(env, err, sizeof(err))) {
		fprintf(stderr, "rcu: RCU_BOOTARGS: %s\n", err);
		return -1;
	}
	lrcu__params_freeze();
	lrcu__boost_setup();	/* the locks' protocol: before any is made */
	state_mutexes_init();
	lrcu__nr_internal = LRCU_NR_CB_THREADS + lrcu__nocb_nr_slots();
	lrcu__nr_slots = (int)lrcu__params.nr_cpus + lrcu__nr_internal;
	lrcu__slots = calloc((size_t)lrcu__nr_slots, sizeof(*lrcu__slots));
	lrcu__rwords = aligned_alloc(LRCU_CACHELINE, sizeof(*lrcu__rwords) * (size_t)lrcu__nr_slots);
	if (!lrcu__slots || !lrcu__rwords) {
		fprintf(stderr, "rcu: out of memory for %d thread slots\n", lrcu__nr_slots);
		return -1;
	}
	for (f = 0; f < LRCU_NR_FLAVORS; f++) {
		struct lrcu_state *rsp = &lrcu__states[f];

		if (lrcu__geometry_init(rsp, lrcu__nr_slots, err, sizeof(err))) {
			fprintf(stderr, "rcu: %s\n", err);
			return -1;
		}
		if (rda_init(rsp)) {
			fprintf(stderr, "rcu: out of memory for per-slot data\n");
			return -1;
		}
	}
	lrcu__registry_init();
	lrcu__membarrier_init();
	/* The GP hooks, before any thread can run a grace period. */
	for (f = 0; f < LRCU_NR_FLAVORS; f++) {
		lrcu__stall_init(&lrcu__states[f]);
		lrcu__cb_init(&lrcu__states[f]);
		if (lrcu__nocb_init(&lrcu__states[f]))
			return -1;
		if (lrcu__boost_init(&lrcu__states[f])) {
			fprintf(stderr, "rcu: cannot start the booster\n");
			return -1;
		}
	}
	for (f = 0; f < LRCU_NR_FLAVORS; f++) {
		if (lrcu__tree_start(&lrcu__states[f]) ||
		    lrcu__cb_thread_start(&lrcu__states[f])) {
			fprintf(stderr, "rcu: cannot start the %s threads\n", lrcu__states[f].name);
			return -1;
		}
	}
	return 0;
}

/*
 * rcu_shutdown(): the threads are stopped and every slot is free; free the
 * tree and forget its shape, so that the next lrcu__start() begins afresh
 * (grace-period sequences and statistics go on).
 */
void lrcu__stop(void)
{
	int f;

	lrcu__registry_stop();
	for (f = 0; f < LRCU_NR_FLAVORS; f++) {
		struct lrcu_state *rsp = &lrcu__states[f];

		free(rsp->rda);
		rsp->rda = NULL;
		free(rsp->cb_slots);
		rsp->cb_slots = NULL;
		free(rsp->node);
		rsp->node = NULL;
		rsp->nr_nodes = 0;
		rsp->nr_hooks = 0;	/* lrcu__stall_init() adds them again */
	}
	lrcu__nocb_stop();
	free(lrcu__slots);
	lrcu__slots = NULL;
	free(lrcu__rwords);	/* every thread's ->rw is back on its own words */
	lrcu__rwords = NULL;
	lrcu__nr_slots = 0;
	lrcu__params_thaw();
}
