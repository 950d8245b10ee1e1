/* SPDX-License-Identifier: MIT */
/*
 * tests/list/nulls.c - hlist_nulls with type-stable objects, in the style of
 * SLAB_DESTROY_BY_RCU (SLAB_TYPESAFE_BY_RCU): objects are reused for other
 * keys, and moved to other buckets, without waiting for a grace period.
 *
 * Part 1, deterministic (single thread; "another CPU" acts through a hook
 * called while the reader stands on an object):
 *   - a reader carried from its bucket to another one by a reused object
 *     returns a wrong "not found" without the nulls check, and restarts
 *     and finds the key with it;
 *   - why there is no hlist_nulls_add_tail_rcu(): if an object could be
 *     added at the tail, a reader carried away and back would reach its
 *     own bucket's end marker having skipped part of the bucket, and the
 *     nulls check could not tell; added at the head, it finds the key.
 * Part 2, concurrent: an updater keeps moving objects between buckets
 * through a pool that reuses them at once, while readers look keys up with
 * the full protocol (reference unless zero, key re-check, nulls check).
 * Keys that never move must always be found, found objects must carry the
 * value of their key, and every object met must be initialised.
 */
#include <time.h>
#include <rcu/rculist_nulls.h>
#include "list_test.h"

#define POOL_MAGIC	0x7079706f6f6c3031UL

struct obj {
	unsigned long key;	/* READ_ONCE/WRITE_ONCE: read without a reference */
	unsigned long value;	/* plain: read only with a reference held */
	int refcnt;		/* 0: free (in the pool) */
	unsigned long magic;	/* plain: written once, before first publication */
	struct hlist_nulls_node node;
};

static unsigned long value_of(unsigned long key)
{
	return key * 0x9e3779b97f4a7c15UL + 0x5a5a;
}

/* ------------------------------------------------------------------ */
/* References                                                           */

static int get_ref_unless_zero(struct obj *o)
{
	int r = __atomic_load_n(&o->refcnt, __ATOMIC_RELAXED);

	do {
		if (!r)
			return 0;	/* free: it may be reinitialised under us */
	} while (!__atomic_compare_exchange_n(&o->refcnt, &r, r + 1, true,
					      /* pairs with the release store of
					       * refcnt = 1 in obj_init() */
					      __ATOMIC_ACQUIRE, __ATOMIC_RELAXED));
	return 1;
}

/* ------------------------------------------------------------------ */
/* The lookup                                                           */

struct lookup_stats {
	unsigned long nulls_restarts;	/* ended in another bucket */
	unsigned long ref_restarts;	/* object freed or re-keyed under us */
	unsigned long steps;		/* of the current pass */
	unsigned long max_steps;
};

/* Called while the reader stands on an object (a deterministic "other
 * CPU" in part 1; NULL in part 2). */
typedef void (*step_hook_t)(struct obj *at);

/*
 * Look key up in bucket `slot' (inside rcu_read_lock()).  With take_ref,
 * the found object's reference count is raised (the caller drops it).
 * With check_nulls == 0 the end-marker check is skipped: wrong on purpose.
 */
static struct obj *lookup(struct hlist_nulls_head *table, unsigned long slot,
			  unsigned long key, int check_nulls, int take_ref,
			  step_hook_t hook, struct lookup_stats *st)
{
	struct hlist_nulls_node *pos;
	struct obj *o;

begin:
	st->steps = 0;
	hlist_nulls_for_each_entry_rcu(o, pos, &table[slot], node) {
		if (++st->steps > st->max_steps)
			st->max_steps = st->steps;
		if (st->steps > 100000) {
			lt_fail("lookup pass does not terminate");
			return NULL;
		}
		if (o->magic != POOL_MAGIC) {
			lt_fail("lookup met an uninitialised object %p", (void *)o);
			return NULL;
		}
		if (READ_ONCE(o->key) != key) {
			if (hook)
				hook(o);
			if (!hook && (st->steps & 3) == 0)
				sched_yield();	/* stand here a while */
			continue;
		}
		if (!take_ref)
			return o;
		if (!get_ref_unless_zero(o)) {
			st->ref_restarts++;
			goto begin;
		}
		/* The object may have been reused for another key between the
		 * key test and the reference: test again, now that it is ours. */
		if (READ_ONCE(o->key) != key) {
			if (__atomic_sub_fetch(&o->refcnt, 1, __ATOMIC_RELEASE) == 0)
				lt_fail("reader dropped the last reference of %p", (void *)o);
			st->ref_restarts++;
			goto begin;
		}
		return o;
	}
	if (check_nulls && get_nulls_value(pos) != slot) {
		st->nulls_restarts++;
		goto begin;
	}
	return NULL;
}

/* ================================================================== */
/* Part 1: deterministic interleavings                                   */
/* ================================================================== */

static struct hlist_nulls_head demo_table[2];	/* bucket A = 0, B = 1 */
static struct obj X, Y, K;
static int demo_tail;		/* move Y back with a tail add (the hazard) */
static int demo_moves;

static void demo_obj(struct obj *o, unsigned long key)
{
	o->magic = POOL_MAGIC;
	WRITE_ONCE(o->key, key);
	o->value = value_of(key);
	o->refcnt = 1;
}

/* A: X -> K -> nulls(0);  B: Y -> nulls(1). */
static void demo_setup(void)
{
	INIT_HLIST_NULLS_HEAD(&demo_table[0], 0);
	INIT_HLIST_NULLS_HEAD(&demo_table[1], 1);
	demo_obj(&X, 10);
	demo_obj(&Y, 20);
	demo_obj(&K, 42);
	hlist_nulls_add_head_rcu(&Y.node, &demo_table[1]);
	hlist_nulls_add_head_rcu(&K.node, &demo_table[0]);
	hlist_nulls_add_head_rcu(&X.node, &demo_table[0]);
	demo_moves = 0;
}

/*
 * What a hypothetical hlist_nulls_add_tail_rcu() would do (this library
 * has none, on purpose): link n after the last node of h.
 */
static void demo_add_tail(struct hlist_nulls_node *n, struct hlist_nulls_head *h)
{
	struct hlist_nulls_node **link = &h->first;

	while (!is_a_nulls(*link))
		link = &(*link)->next;
	rcu_assign_pointer(hlist_nulls_next_rcu(n), *link);
	WRITE_ONCE(n->pprev, link);
	rcu_assign_pointer(*link, n);
}

/* Free object o, reuse it at once for `key' and put it in `bucket'. */
static void demo_reuse(struct obj *o, unsigned long key, int bucket, int tail)
{
	hlist_nulls_del_rcu(&o->node);
	WRITE_ONCE(o->key, key);
	o->value = value_of(key);
	if (tail)
		demo_add_tail(&o->node, &demo_table[bucket]);
	else
		hlist_nulls_add_head_rcu(&o->node, &demo_table[bucket]);
}

/* Transport: while the reader stands on X, X moves to bucket B. */
static void hook_move_x(struct obj *at)
{
	if (at == &X && demo_moves++ == 0)
		demo_reuse(&X, 11, 1, 0);	/* B: X -> Y -> nulls(1) */
}

/* Away and back: X moves to B as above; then, while the reader stands on
 * Y (in B), Y moves to bucket A - at the tail or at the head. */
static void hook_away_and_back(struct obj *at)
{
	if (at == &X && demo_moves == 0) {
		demo_moves++;
		demo_reuse(&X, 11, 1, 0);	/* B: X -> Y -> nulls(1) */
	} else if (at == &Y && demo_moves == 1) {
		demo_moves++;
		demo_reuse(&Y, 21, 0, demo_tail);	/* A: K -> Y or Y -> K */
	}
}

static void part1(void)
{
	struct lookup_stats st = { 0 };
	struct obj *found;

	rcu_read_lock();

	demo_setup();
	found = lookup(demo_table, 0, 42, 0, 0, hook_move_x, &st);
	ok(found == NULL && demo_moves == 1,
	   "without the nulls check, a reader carried to another bucket by a reused "
	   "object wrongly reports a present key as absent");

	demo_setup();
	memset(&st, 0, sizeof(st));
	found = lookup(demo_table, 0, 42, 1, 0, hook_move_x, &st);
	ok(found == &K && st.nulls_restarts == 1,
	   "with it, the reader sees the foreign end marker, restarts once and finds the key");

	demo_setup();
	demo_tail = 1;
	memset(&st, 0, sizeof(st));
	found = lookup(demo_table, 0, 42, 1, 0, hook_away_and_back, &st);
	ok(found == NULL && demo_moves == 2 && st.nulls_restarts == 0,
	   "why no hlist_nulls_add_tail_rcu(): carried away and added back at the tail, "
	   "the reader ends at its own marker having skipped the key");

	demo_setup();
	demo_tail = 0;
	memset(&st, 0, sizeof(st));
	found = lookup(demo_table, 0, 42, 1, 0, hook_away_and_back, &st);
	ok(found == &K && demo_moves == 2,
	   "added back at the head (the only RCU add there is), the same reader finds the key");

	rcu_read_unlock();
}

/* ================================================================== */
/* Part 2: a type-stable pool under concurrent lookups                   */
/* ================================================================== */

#define NBUCKETS	8
#define NOBJ		64
#define NSTABLE		16	/* keys 0..NSTABLE-1 never move */
#define NKEYS		1024
#define NREADERS	3	/* plus one reader without the nulls check */

static struct hlist_nulls_head table[NBUCKETS];
static struct obj pool[NOBJ];

/* The pool's free list (LIFO, so a freed object is reused at once). */
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static struct obj *free_list[NOBJ];
static int nfree;
static unsigned long reuses;

static unsigned long bucket_of(unsigned long key)
{
	return key % NBUCKETS;
}

static void pool_free(struct obj *o)
{
	pthread_mutex_lock(&pool_lock);
	free_list[nfree++] = o;
	pthread_mutex_unlock(&pool_lock);
}

static void put_ref(struct obj *o)
{
	/* Acq_rel: our reads of o happen before whoever reuses it. */
	if (__atomic_sub_fetch(&o->refcnt, 1, __ATOMIC_ACQ_REL) == 0)
		pool_free(o);
}

static struct obj *pool_alloc(void)
{
	struct obj *o = NULL;

	pthread_mutex_lock(&pool_lock);
	if (nfree)
		o = free_list[--nfree];
	pthread_mutex_unlock(&pool_lock);
	return o;
}

/* (Re)initialise a free object for key; it is not in any bucket. */
static void obj_init(struct obj *o, unsigned long key)
{
	if (o->magic != POOL_MAGIC)
		o->magic = POOL_MAGIC;	/* first use: before first publication */
	else
		reuses++;
	WRITE_ONCE(o->key, key);	/* stale readers may be reading it */
	o->value = value_of(key);	/* nobody reads it without a reference */
	/* Release: key and value before the reference that lets readers use
	 * them; pairs with the acquire CAS in get_ref_unless_zero(). */
	__atomic_store_n(&o->refcnt, 1, __ATOMIC_RELEASE);
}

struct reader {
	pthread_t tid;
	uint64_t rng;
	int check_nulls;
	unsigned long lookups, stable_lookups, found, misses_of_stable;
	unsigned long looking;	/* stable_lookups, for part2()'s start (atomic) */
	struct lookup_stats st;
};

static void *reader_fn(void *arg)
{
	struct reader *r = arg;
	struct obj *o;

	lt_register();
	r->st.max_steps = 0;
	while (!lt_stopped() && lt_error_count() < 100) {
		int stable = lt_below(&r->rng, 2);
		unsigned long key = stable ? lt_below(&r->rng, NSTABLE) :
					     lt_below(&r->rng, NKEYS);

		rcu_read_lock();
		o = lookup(table, bucket_of(key), key, r->check_nulls, 1, NULL, &r->st);
		rcu_read_unlock();
		r->lookups++;
		r->stable_lookups += key < NSTABLE;
		/* Relaxed: a progress count the updater polls. */
		__atomic_store_n(&r->looking, r->stable_lookups, __ATOMIC_RELAXED);
		if (o) {
			/* Ours now: it cannot be reused until we let go. */
			if (READ_ONCE(o->key) != key || o->value != value_of(key))
				lt_fail("lookup of %lu returned key %lu value %#lx", key,
					READ_ONCE(o->key), o->value);
			put_ref(o);
			r->found++;
		} else if (key < NSTABLE) {
			if (r->check_nulls)
				lt_fail("lookup missed stable key %lu", key);
			else
				r->misses_of_stable++;	/* the expected failure mode */
		}
		if ((r->lookups & 15) == 0)
			sched_yield();
	}
	rcu_unregister_thread();
	return NULL;
}

static void part2(void)
{
	unsigned long nmoves = lt_iters(300000, 80000), i, in_table = 0, k;
	static unsigned char key_used[NKEYS];
	struct obj *moving[NOBJ];
	struct reader readers[NREADERS + 1];
	uint64_t rng = lt_seed() ^ 0x55;
	int nmoving = 0, n, good = 1;
	unsigned long nulls_restarts = 0, ref_restarts = 0, max_steps = 0;

	for (i = 0; i < NBUCKETS; i++)
		INIT_HLIST_NULLS_HEAD(&table[i], i);
	for (i = 0; i < NOBJ; i++)
		pool_free(&pool[NOBJ - 1 - i]);
	/* Stable keys, then one moving object per remaining pool slot less
	 * a few spares. */
	for (k = 0; k < NSTABLE; k++) {
		struct obj *o = pool_alloc();

		obj_init(o, k);
		key_used[k] = 1;
		hlist_nulls_add_head_rcu(&o->node, &table[bucket_of(k)]);
	}

	lt_start();
	for (n = 0; n <= NREADERS; n++) {
		memset(&readers[n], 0, sizeof(readers[n]));
		readers[n].rng = rng + 1000003 * (uint64_t)(n + 1);
		readers[n].check_nulls = n < NREADERS;
		lt_create(&readers[n].tid, reader_fn, &readers[n]);
	}
	/* Every reader is looking stable keys up before the first move: on a
	 * loaded machine (a sanitizer build beside other tests) the moves
	 * could otherwise all be over before a reader first ran. */
	for (n = 0; n <= NREADERS; n++) {
		struct timespec t0, t;

		clock_gettime(CLOCK_MONOTONIC, &t0);
		do {
			sched_yield();
			clock_gettime(CLOCK_MONOTONIC, &t);
		} while (!__atomic_load_n(&readers[n].looking, __ATOMIC_RELAXED) &&
			 t.tv_sec - t0.tv_sec < 60);
	}

	for (i = 0; i < nmoves && lt_error_count() == 0; i++) {
		struct obj *o;

		/* Retire a random moving object: out of its bucket, drop the
		 * table's reference - no grace period. */
		if (nmoving == NOBJ - NSTABLE - 4 || (nmoving && lt_below(&rng, 2))) {
			int victim = (int)lt_below(&rng, (unsigned long)nmoving);

			o = moving[victim];
			moving[victim] = moving[--nmoving];
			key_used[READ_ONCE(o->key)] = 0;
			hlist_nulls_del_rcu(&o->node);
			put_ref(o);
		}
		/* Reuse whatever the pool gives back first (usually that one),
		 * for a new key, in its bucket, at the head. */
		o = pool_alloc();
		if (!o)
			continue;	/* readers hold them all for now */
		do
			k = NSTABLE + lt_below(&rng, NKEYS - NSTABLE);
		while (key_used[k]);
		key_used[k] = 1;
		obj_init(o, k);
		hlist_nulls_add_head_rcu(&o->node, &table[bucket_of(k)]);
		moving[nmoving++] = o;
		if ((i & 15) == 0)
			sched_yield();
	}
	lt_stop();
	for (n = 0; n <= NREADERS; n++)
		pthread_join(readers[n].tid, NULL);

	for (n = 0; n < NREADERS; n++) {
		nulls_restarts += readers[n].st.nulls_restarts;
		ref_restarts += readers[n].st.ref_restarts;
		if (readers[n].st.max_steps > max_steps)
			max_steps = readers[n].st.max_steps;
	}
	diag("%lu moves, %lu object reuses without a grace period", i, reuses);
	diag("checked readers: %lu restarts on a foreign end marker, %lu on a freed or "
	     "re-keyed object; longest pass %lu steps", nulls_restarts, ref_restarts,
	     max_steps);
	diag("the reader without the nulls check missed a present stable key %lu times "
	     "in %lu lookups", readers[NREADERS].misses_of_stable,
	     readers[NREADERS].stable_lookups);

	is_long(lt_error_count(), 0,
		"checked lookups always found the stable keys, found objects carried "
		"their key's value, and every object met was initialised");
	ok(i == nmoves, "the updater moved objects %lu times", nmoves);
	for (n = 0; n < NREADERS; n++)
		ok(readers[n].lookups > 0 && readers[n].stable_lookups > 0,
		   "reader %d completed %lu lookups (%lu of stable keys, %lu found)", n,
		   readers[n].lookups, readers[n].stable_lookups, readers[n].found);

	/* Final state: buckets hold exactly the stable and moving objects,
	 * each in its key's bucket, each with the table's reference only. */
	for (k = 0; k < NBUCKETS; k++) {
		struct hlist_nulls_node *pos, **pprev = &table[k].first;
		struct obj *o;

		hlist_nulls_for_each_entry(o, pos, &table[k], node) {
			good &= o->node.pprev == pprev && bucket_of(o->key) == k &&
				o->refcnt == 1 && o->value == value_of(o->key);
			pprev = &o->node.next;
			in_table++;
		}
		good &= get_nulls_value(pos) == k;
	}
	ok(good && in_table == (unsigned long)(NSTABLE + nmoving) &&
	   in_table + (unsigned long)nfree == NOBJ,
	   "final table: %lu objects in their buckets with one reference each, %d free",
	   in_table, nfree);
}

int main(void)
{
	lt_register();
	part1();
	part2();
	rcu_unregister_thread();
	return done_testing();
}
