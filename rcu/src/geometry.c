/* SPDX-License-Identifier: MIT */
/*
 * geometry.c - shape of the rcu_node tree.
 *
 * Leaves cover up to rcutree.rcu_fanout_leaf slots, inner nodes up to
 * rcutree.rcu_fanout children; the depth is the smallest (at most 4) that
 * covers every slot.  Unless rcutree.rcu_fanout_exact=1, the children are
 * then spread evenly over the nodes of each level (the kernel's
 * rcu_init_levelspread()), so 20 slots with a leaf fanout of 16 make two
 * leaves of 10 rather than one of 16 and one of 4.  Nodes are stored
 * heap-ordered: root first, then each level left to right, so walking the
 * array is a breadth-first walk.
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

int lrcu__geometry_init(struct lrcu_state *rsp, int nr, char *err, size_t len)
{
	long leaf = lrcu__params.fanout_leaf, fan = lrcu__params.fanout;
	long cap[LRCU_MAX_LEVELS], stride;
	int levels, i, j, k, cprv;
	struct lrcu_node *rnp;

	cap[0] = leaf;
	for (i = 1; i < LRCU_MAX_LEVELS; i++)
		cap[i] = cap[i - 1] * fan;
	for (levels = 1; levels <= LRCU_MAX_LEVELS; levels++)
		if (nr <= cap[levels - 1])
			break;
	if (levels > LRCU_MAX_LEVELS) {
		snprintf(err, len, "nr_cpus: %d slots need more than %d levels with "
			 "rcutree.rcu_fanout=%ld rcutree.rcu_fanout_leaf=%ld",
			 nr, LRCU_MAX_LEVELS, fan, leaf);
		return -1;
	}
	rsp->levels = levels;

	/* Nodes per level, from the leaves up. */
	cprv = nr;
	for (i = levels - 1; i >= 0; i--) {
		long per = i == levels - 1 ? leaf : fan;

		rsp->level_count[i] = (int)((cprv + per - 1) / per);
		cprv = rsp->level_count[i];
	}
	/* Children per node: the maximum, or spread evenly. */
	cprv = nr;
	for (i = levels - 1; i >= 0; i--) {
		int ccur = rsp->level_count[i];

		if (lrcu__params.fanout_exact)
			rsp->levelspread[i] = (int)(i == levels - 1 ? leaf : fan);
		else
			rsp->levelspread[i] = (cprv + ccur - 1) / ccur;
		cprv = ccur;
	}
	rsp->nr_nodes = 0;
	for (i = 0; i < levels; i++) {
		rsp->level_first[i] = rsp->nr_nodes;
		rsp->nr_nodes += rsp->level_count[i];
	}
	rsp->node = aligned_alloc(LRCU_CACHELINE, sizeof(*rsp->node) * rsp->nr_nodes);
	if (!rsp->node) {
		snprintf(err, len, "out of memory for %d rcu_nodes", rsp->nr_nodes);
		return -1;
	}
	memset(rsp->node, 0, sizeof(*rsp->node) * rsp->nr_nodes);

	stride = 1;
	for (i = levels - 1; i >= 0; i--) {
		stride *= rsp->levelspread[i];
		for (j = 0; j < rsp->level_count[i]; j++) {
			rnp = &rsp->node[rsp->level_first[i] + j];
			rnp->lock = (struct lrcu_lock)LRCU_LOCK_INIT;
			WRITE_UNLOCKED(rnp->gp_seq, *rsp->gp_seq);	/* init: not shared yet */
			/* A registered thread joins each flavor on its
			 * first use of it (registry.c). */
			rnp->joinmask = 0;
			rnp->level = i;
			rnp->grplo = (int)(j * stride);
			rnp->grphi = (int)((j + 1) * stride - 1);
			if (rnp->grphi >= nr)
				rnp->grphi = nr - 1;	/* may leave grphi < grplo: empty */
			if (i == 0) {
				rnp->grpnum = 0;
				rnp->grpmask = 0;
				rnp->parent = NULL;
			} else {
				k = rsp->levelspread[i - 1];
				rnp->grpnum = j % k;
				rnp->grpmask = 1UL << rnp->grpnum;
				rnp->parent = &rsp->node[rsp->level_first[i - 1] + j / k];
			}
		}
	}
	return 0;
}

/*
 * One line per level, each node as "grplo:grphi ^grpnum" as in the
 * kernel's rcu_node tree layout dump.
 */
void lrcu_print_tree(FILE *out)
{
	struct lrcu_state *rsp = &lrcu__states[LRCU_PREEMPT];
	int i, j;

	lrcu__init_once();
	fprintf(out, "rcu: rcu_node tree: %d level%s, %d nodes, %d slots (nr_cpus=%ld + %d library threads), "
		"rcu_fanout=%ld rcu_fanout_leaf=%ld%s\n",
		rsp->levels, rsp->levels > 1 ? "s" : "", rsp->nr_nodes, lrcu__nr_slots,
		lrcu__params.nr_cpus, lrcu__nr_slots - (int)lrcu__params.nr_cpus,
		lrcu__params.fanout, lrcu__params.fanout_leaf,
		lrcu__params.fanout_exact ? " (exact)" : " (balanced)");
	for (i = 0; i < rsp->levels; i++) {
		fprintf(out, "rcu:  level %d (%d node%s, up to %d %s each):", i,
			rsp->level_count[i], rsp->level_count[i] > 1 ? "s" : "",
			rsp->levelspread[i], i == rsp->levels - 1 ? "slots" : "children");
		for (j = 0; j < rsp->level_count[i]; j++) {
			struct lrcu_node *rnp = &rsp->node[rsp->level_first[i] + j];

			fprintf(out, " %d:%d ^%d", rnp->grplo, rnp->grphi, rnp->grpnum);
		}
		fputc('\n', out);
	}
}
