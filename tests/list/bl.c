/* SPDX-License-Identifier: MIT */
/*
 * tests/list/bl.c - hlist_bl: per-bucket bit spin locks under contention,
 * with RCU readers.
 *
 * More updater threads than CPUs hammer a few buckets, each update under
 * the bucket's bit lock (hlist_bl_lock(), sometimes hlist_bl_trylock()),
 * sometimes yielding the CPU while holding it so that waiters must give
 * way too.  Inside the lock they check mutual exclusion (an owner field no
 * one else may change), bump a plain counter (a data race under TSan if
 * the lock does not order its holders), add (hlist_bl_add_head_rcu) and
 * delete (hlist_bl_del_rcu, hlist_bl_del_init_rcu) nodes, and check that
 * the bucket still matches their bookkeeping and still has its lock bit.
 * Readers traverse the buckets without the lock (hlist_bl_for_each_entry_rcu)
 * and check that each node is initialised, not freed, and in its bucket.
 */
#include <rcu/rculist_bl.h>
#include "list_test.h"

#define NBUCKETS	4
#define NUPDATERS	4
#define NREADERS	2
#define MAXLEN		16
#define STEP_BOUND	100000

struct bnode {
	struct lt_elem base;	/* payload, rcu_head */
	unsigned long bucket;
	struct hlist_bl_node node;
};

static struct hlist_bl_head heads[NBUCKETS];

/* Per-bucket bookkeeping, protected by the bucket's bit lock. */
static struct {
	unsigned long count;	/* plain: critical sections so far */
	int len;		/* plain: nodes in the bucket */
	int owner;		/* atomic: who holds the lock, -1 for nobody */
} bk[NBUCKETS];


/* ------------------------------------------------------------------ */

static void *reader_fn(void *arg)
{
	unsigned long *passes = arg;

	lt_register();
	while (!lt_stopped() && lt_error_count() < 100) {
		unsigned long b, steps = 0;

		rcu_read_lock();
		for (b = 0; b < NBUCKETS; b++) {
			struct hlist_bl_node *pos;
			struct bnode *n;

			hlist_bl_for_each_entry_rcu(n, pos, &heads[b], node) {
				if (++steps > STEP_BOUND) {
					lt_fail("hlist_bl traversal does not terminate");
					break;
				}
				if (!lt_payload_check(&n->base.pl, "hlist_bl_for_each_entry_rcu"))
					break;
				if (n->bucket != b) {
					lt_fail("node of bucket %lu found in bucket %lu", n->bucket, b);
					break;
				}
				if ((steps & 7) == 0)
					sched_yield();
			}
		}
		rcu_read_unlock();
		(*passes)++;
		sched_yield();
	}
	rcu_unregister_thread();
	return NULL;
}

/* ------------------------------------------------------------------ */

struct updater {
	pthread_t tid;
	int id;
	uint64_t rng;
	unsigned long nops, adds, dels, trylocks, trylock_busy;
};

/* Walk a bucket under its lock: length, back pointers, lock bit. */
static int bucket_consistent(unsigned long b)
{
	struct hlist_bl_node *pos, **pprev = &heads[b].first;
	struct bnode *n;
	int len = 0;

	hlist_bl_for_each_entry(n, pos, &heads[b], node) {
		if (pos->pprev != pprev || n->bucket != b)
			return 0;
		pprev = &pos->next;
		len++;
	}
	return len == bk[b].len && hlist_bl_is_locked(&heads[b]);
}

/* One critical section on bucket b (its lock held). */
static void locked_update(struct updater *u, unsigned long b)
{
	struct bnode *n;
	int other = -1;

	/* Relaxed: mutual exclusion itself is what this checks; the lock's
	 * acquire/release order the plain fields. */
	if (!__atomic_compare_exchange_n(&bk[b].owner, &other, u->id, false,
					 __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		lt_fail("bucket %lu locked by %d while %d holds it", b, u->id, other);
	bk[b].count++;
	if (bk[b].len < MAXLEN && (bk[b].len == 0 || lt_below(&u->rng, 2))) {
		n = lt_elem_new(sizeof(*n), u->nops, (unsigned long)u->id);
		n->bucket = b;
		hlist_bl_add_head_rcu(&n->node, &heads[b]);
		bk[b].len++;
		u->adds++;
	} else {
		struct hlist_bl_node *pos;
		unsigned long i = lt_below(&u->rng, (unsigned long)bk[b].len);

		for (pos = hlist_bl_first(&heads[b]); i--; pos = pos->next)
			;
		n = hlist_bl_entry(pos, struct bnode, node);
		if (lt_below(&u->rng, 2))
			hlist_bl_del_rcu(&n->node);
		else
			hlist_bl_del_init_rcu(&n->node);
		bk[b].len--;
		u->dels++;
		lt_retire(&n->base, &u->rng);
	}
	if (lt_below(&u->rng, 64) == 0)
		sched_yield();	/* hold the lock across a reschedule */
	if (!bucket_consistent(b))
		lt_fail("bucket %lu inconsistent (or lock bit lost) under its lock", b);
	other = u->id;
	if (!__atomic_compare_exchange_n(&bk[b].owner, &other, -1, false,
					 __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		lt_fail("bucket %lu owner changed to %d under %d's lock", b, other, u->id);
}

static void *updater_fn(void *arg)
{
	struct updater *u = arg;
	unsigned long i, todo = u->nops;

	for (i = 0, u->nops = 0; i < todo && lt_error_count() == 0; i++) {
		unsigned long b = lt_below(&u->rng, NBUCKETS);

		if (u->id == 0 && lt_below(&u->rng, 2)) {
			/* Updater 0 tries first, and counts the busy answers. */
			u->trylocks++;
			if (!hlist_bl_trylock(&heads[b])) {
				u->trylock_busy++;
				hlist_bl_lock(&heads[b]);
			}
		} else {
			hlist_bl_lock(&heads[b]);
		}
		locked_update(u, b);
		hlist_bl_unlock(&heads[b]);
		u->nops++;
	}
	return NULL;
}

int main(void)
{
	struct updater ups[NUPDATERS];
	pthread_t readers[NREADERS];
	unsigned long passes[NREADERS] = { 0 };
	uint64_t seed = lt_seed();
	unsigned long nops = lt_iters(20000, 10000), total = 0, adds = 0, dels = 0;
	unsigned long b;
	int i, good = 1;

	lt_register();
	for (b = 0; b < NBUCKETS; b++) {
		INIT_HLIST_BL_HEAD(&heads[b]);
		bk[b].owner = -1;
	}
	lt_start();
	for (i = 0; i < NREADERS; i++)
		lt_create(&readers[i], reader_fn, &passes[i]);
	for (i = 0; i < NUPDATERS; i++) {
		memset(&ups[i], 0, sizeof(ups[i]));
		ups[i].id = i;
		ups[i].rng = seed + 104729 * (uint64_t)(i + 1);
		ups[i].nops = nops;
		lt_create(&ups[i].tid, updater_fn, &ups[i]);
	}
	for (i = 0; i < NUPDATERS; i++) {
		pthread_join(ups[i].tid, NULL);
		total += ups[i].nops;
		adds += ups[i].adds;
		dels += ups[i].dels;
	}
	lt_stop();
	for (i = 0; i < NREADERS; i++)
		pthread_join(readers[i], NULL);

	diag("%d updaters on %d buckets: %lu critical sections, %lu adds, %lu deletes; "
	     "trylock busy %lu of %lu", NUPDATERS, NBUCKETS, total, adds, dels,
	     ups[0].trylock_busy, ups[0].trylocks);
	is_long(lt_error_count(), 0,
		"mutual exclusion held, buckets stayed consistent under their locks, and "
		"readers saw only live nodes of the bucket they traversed");
	is_long(total, NUPDATERS * nops, "every updater completed its critical sections");
	for (b = 0, total = 0; b < NBUCKETS; b++) {
		total += bk[b].count;
		good &= !hlist_bl_is_locked(&heads[b]) && bk[b].owner == -1;
	}
	is_long(total, NUPDATERS * nops,
		"the plain per-bucket counters add up: no increment was lost");
	ok(good, "all bucket locks are free at the end");
	ok(ups[0].trylocks > 0 && ups[0].trylocks > ups[0].trylock_busy,
	   "hlist_bl_trylock took free locks");
	for (i = 0; i < NREADERS; i++)
		ok(passes[i] > 0, "reader %d completed %lu passes", i, passes[i]);

	/* Empty the buckets (locks taken, as the API wants). */
	good = 1;
	for (b = 0; b < NBUCKETS; b++) {
		struct hlist_bl_node *pos, *tmp;
		struct bnode *n;

		hlist_bl_lock(&heads[b]);
		good &= bucket_consistent(b);
		hlist_bl_for_each_entry_safe(n, pos, tmp, &heads[b], node) {
			hlist_bl_del_rcu(&n->node);
			lt_retire(&n->base, &seed);
		}
		good &= hlist_bl_empty(&heads[b]);
		hlist_bl_unlock(&heads[b]);
	}
	ok(good, "final buckets match the bookkeeping and empty cleanly");
	lt_check_callbacks();
	rcu_unregister_thread();
	return done_testing();
}
