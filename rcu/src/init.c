/* SPDX-License-Identifier: MIT */
/*
 * init.c - start the library: parameters from RCU_BOOTARGS, tree geometry,
 * per-slot data, membarrier detection, then the GP and callback threads.
 * Runs once, on lrcu_init() or on the first registration/update-side call.
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static int init_rc;

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

static void do_init(void)
{
	const char *env = getenv("RCU_BOOTARGS");
	char err[256];
	int f;

	init_rc = -1;
	if (env && lrcu_params_parse(env, err, sizeof(err))) {
		fprintf(stderr, "rcu: RCU_BOOTARGS: %s\n", err);
		return;
	}
	lrcu_params_freeze();
	lrcu_nr_internal = LRCU_NR_CB_THREADS + lrcu_nocb_nr_slots();
	lrcu_nr_slots = (int)lrcu_params.nr_cpus + lrcu_nr_internal;
	lrcu_slots = calloc((size_t)lrcu_nr_slots, sizeof(*lrcu_slots));
	if (!lrcu_slots) {
		fprintf(stderr, "rcu: out of memory for %d thread slots\n", lrcu_nr_slots);
		return;
	}
	for (f = 0; f < LRCU_NR_FLAVORS; f++) {
		struct lrcu_state *rsp = &lrcu_states[f];

		if (lrcu_geometry_init(rsp, lrcu_nr_slots, err, sizeof(err))) {
			fprintf(stderr, "rcu: %s\n", err);
			return;
		}
		if (rda_init(rsp)) {
			fprintf(stderr, "rcu: out of memory for per-slot data\n");
			return;
		}
	}
	lrcu_registry_init();
	lrcu_membarrier_init();
	/* The GP hooks, before any thread can run a grace period. */
	for (f = 0; f < LRCU_NR_FLAVORS; f++) {
		lrcu_stall_init(&lrcu_states[f]);
		lrcu_cb_init(&lrcu_states[f]);
		if (lrcu_nocb_init(&lrcu_states[f]))
			return;
	}
	for (f = 0; f < LRCU_NR_FLAVORS; f++) {
		if (lrcu_tree_start(&lrcu_states[f]) ||
		    lrcu_cb_thread_start(&lrcu_states[f])) {
			fprintf(stderr, "rcu: cannot start the %s threads\n", lrcu_states[f].name);
			return;
		}
	}
	init_rc = 0;
}

int lrcu_init(void)
{
	pthread_once(&init_once, do_init);
	return init_rc;
}

void lrcu_init_once(void)
{
	if (lrcu_init())
		exit(2);	/* the reason was printed; nothing started */
}
