/* SPDX-License-Identifier: MIT */
/*
 * init.c - start the library: parameters from RCU_BOOTARGS, tree geometry,
 * per-slot data, membarrier detection, then the GP and callback threads.
 * Runs on lrcu_init() or on the first registration/update-side call
 * (lifecycle.c), again after rcu_shutdown().
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

static int rda_init(struct lrcu_state *rsp)
{
	struct lrcu_node *leaf0 = rsp->node + rsp->level_first[rsp->levels - 1];
	int i, nleaves = rsp->level_count[rsp->levels - 1];

	rsp->rda = aligned_alloc(LRCU_CACHELINE, sizeof(*rsp->rda) * (size_t)(lrcu_nr_slots + 1));
	if (!rsp->rda)
		return -1;
	memset(rsp->rda, 0, sizeof(*rsp->rda) * (size_t)(lrcu_nr_slots + 1));
	for (i = 0; i <= lrcu_nr_slots; i++) {
		struct lrcu_data *rdp = &rsp->rda[i];
		int j;

		rdp->slot = i;
		rdp->rsp = rsp;
		pthread_mutex_init(&rdp->cblock, NULL);
		lrcu_cblist_init(&rdp->cbl);
		if (i == lrcu_nr_slots)
			continue;	/* the unbound rdp is in no leaf */
		for (j = 0; j < nleaves; j++)
			if (i >= leaf0[j].grplo && i <= leaf0[j].grphi)
				break;
		rdp->mynode = &leaf0[j];
		rdp->grpmask = 1UL << (i - leaf0[j].grplo);
	}
	return 0;
}

/* Set up and start the tree; 0, or -1 after printing why (what was set up
 * stays for lrcu_stop(), or for the next try). */
int lrcu_start(void)
{
	const char *env = getenv("RCU_BOOTARGS");
	char err[256];
	int f;

	if (env && lrcu_params_parse(env, err, sizeof(err))) {
		fprintf(stderr, "rcu: RCU_BOOTARGS: %s\n", err);
		return -1;
	}
	lrcu_params_freeze();
	lrcu_nr_internal = LRCU_NR_CB_THREADS + lrcu_nocb_nr_slots();
	lrcu_nr_slots = (int)lrcu_params.nr_cpus + lrcu_nr_internal;
	lrcu_slots = calloc((size_t)lrcu_nr_slots, sizeof(*lrcu_slots));
	if (!lrcu_slots) {
		fprintf(stderr, "rcu: out of memory for %d thread slots\n", lrcu_nr_slots);
		return -1;
	}
	for (f = 0; f < LRCU_NR_FLAVORS; f++) {
		struct lrcu_state *rsp = &lrcu_states[f];

		if (lrcu_geometry_init(rsp, lrcu_nr_slots, err, sizeof(err))) {
			fprintf(stderr, "rcu: %s\n", err);
			return -1;
		}
		if (rda_init(rsp)) {
			fprintf(stderr, "rcu: out of memory for per-slot data\n");
			return -1;
		}
	}
	lrcu_registry_init();
	lrcu_membarrier_init();
	/* The GP hooks, before any thread can run a grace period. */
	for (f = 0; f < LRCU_NR_FLAVORS; f++) {
		lrcu_stall_init(&lrcu_states[f]);
		lrcu_cb_init(&lrcu_states[f]);
		if (lrcu_nocb_init(&lrcu_states[f]))
			return -1;
	}
	for (f = 0; f < LRCU_NR_FLAVORS; f++) {
		if (lrcu_tree_start(&lrcu_states[f]) ||
		    lrcu_cb_thread_start(&lrcu_states[f])) {
			fprintf(stderr, "rcu: cannot start the %s threads\n", lrcu_states[f].name);
			return -1;
		}
	}
	return 0;
}

/*
 * rcu_shutdown(): the threads are stopped and every slot is free; free the
 * tree and forget its shape, so that the next lrcu_start() begins afresh
 * (grace-period sequences and statistics go on).
 */
void lrcu_stop(void)
{
	int f;

	lrcu_registry_stop();
	for (f = 0; f < LRCU_NR_FLAVORS; f++) {
		struct lrcu_state *rsp = &lrcu_states[f];

		free(rsp->rda);
		rsp->rda = NULL;
		free(rsp->node);
		rsp->node = NULL;
		rsp->nr_nodes = 0;
		rsp->nr_hooks = 0;	/* lrcu_stall_init() adds them again */
	}
	lrcu_nocb_stop();
	free(lrcu_slots);
	lrcu_slots = NULL;
	lrcu_nr_slots = 0;
	lrcu_params_thaw();
}
