/* SPDX-License-Identifier: MIT */
/*
 * tests/list/hash.c - an RCU hash table of hlist buckets under concurrent
 * lookups.
 *
 * Two updaters, serialised per bucket by a mutex, insert keys with every
 * hlist insertion (head, tail, before and after a node, in both the
 * current and the pre-3.17 spellings), delete them (hlist_del_rcu,
 * hlist_del_init_rcu) and replace them (hlist_replace_rcu), freeing what
 * they remove with call_rcu() (poison + quarantine) or kfree_rcu().
 * Reader threads look keys up and scan whole buckets with every hlist
 * traversal form, and check that:
 *   - every item they reach is initialised and not freed, and hashes to
 *     the bucket they are scanning;
 *   - a permanent key (one that is only ever replaced, never deleted) is
 *     found exactly once by every lookup and every bucket scan;
 *   - traversals terminate.
 * At the end the table is compared with the updaters' model.
 */
#include <rcu/rculist.h>
#include "list_test.h"

#define NBUCKETS	16
#define NKEYS		256
#define PERMANENT(k)	((k) % 8 == 0)
#define NREADERS	3
#define NUPDATERS	2
#define STEP_BOUND	100000

struct item {
	struct lt_elem base;	/* payload, rcu_head */
	struct hlist_node node;
};

static struct hlist_head table[NBUCKETS];
static pthread_mutex_t bucket_lock[NBUCKETS];
static struct item *present[NKEYS];	/* the model; bucket lock */

static unsigned int bucket_of(unsigned long key)
{
	return (unsigned int)((key * 0x9e3779b1UL) >> 7) % NBUCKETS;
}

/* ------------------------------------------------------------------ */
/* Readers                                                              */

enum {
	R_LOOKUP_RCU, R_LOOKUP_BH, R_LOOKUP_NOTRACE, R_LOOKUP_NODES,
	R_LOOKUP_STEPWISE, R_SCAN_CONTINUE, R_SCAN_CONTINUE_BH, R_KINDS
};
static const char *kind_name[R_KINDS] = {
	"hlist_for_each_entry_rcu lookups", "hlist_for_each_entry_rcu_bh lookups",
	"hlist_for_each_entry_rcu_notrace lookups", "__hlist_for_each_rcu lookups",
	"hlist_first_rcu/hlist_next_rcu lookups",
	"hlist_for_each_entry_continue_rcu bucket scans",
	"hlist_for_each_entry_continue_rcu_bh bucket scans",
};

struct reader {
	pthread_t tid;
	uint64_t rng;
	unsigned long done[R_KINDS];
};

struct scan {
	const char *what;
	unsigned int bucket;
	unsigned long key;	/* looked-up key */
	int hits;		/* items with that key */
	unsigned long steps;
	int bad;
};

/* Check an item met in a scan of s->bucket; 0 stops the scan. */
static int visit(struct scan *s, struct item *it)
{
	unsigned long key;

	if (++s->steps > STEP_BOUND) {
		lt_fail("%s: traversal does not terminate", s->what);
		return !(s->bad = 1);
	}
	if (!lt_payload_check(&it->base.pl, s->what))
		return !(s->bad = 1);
	key = it->base.pl.key;
	if (key >= NKEYS || bucket_of(key) != s->bucket) {
		lt_fail("%s: key %lu found in bucket %u", s->what, key, s->bucket);
		return !(s->bad = 1);
	}
	if (key == s->key)
		s->hits++;
	if ((s->steps & 7) == 0)
		sched_yield();	/* hold the items a while */
	return 1;
}

/* A lookup of a permanent key must find it exactly once. */
static void lookup_end(struct scan *s)
{
	if (!s->bad && PERMANENT(s->key) && s->hits != 1)
		lt_fail("%s: permanent key %lu found %d times", s->what, s->key, s->hits);
}

static void lookup(struct reader *r, int kind)
{
	struct scan s = { .what = kind_name[kind] };
	struct hlist_head *head;
	struct hlist_node *n;
	struct item *it;

	s.key = lt_below(&r->rng, NKEYS);
	s.bucket = bucket_of(s.key);
	head = &table[s.bucket];
	if (kind == R_LOOKUP_BH) {
		rcu_read_lock_bh();
		hlist_for_each_entry_rcu_bh(it, head, node)
			if (!visit(&s, it))
				break;
		lookup_end(&s);
		rcu_read_unlock_bh();
		return;
	}
	rcu_read_lock();
	switch (kind) {
	case R_LOOKUP_RCU:
		hlist_for_each_entry_rcu(it, head, node)
			if (!visit(&s, it))
				break;
		break;
	case R_LOOKUP_NOTRACE:
		hlist_for_each_entry_rcu_notrace(it, head, node)
			if (!visit(&s, it))
				break;
		break;
	case R_LOOKUP_NODES:
		__hlist_for_each_rcu(n, head)
			if (!visit(&s, hlist_entry(n, struct item, node)))
				break;
		break;
	case R_LOOKUP_STEPWISE:
		for (n = rcu_dereference(hlist_first_rcu(head)); n;
		     n = rcu_dereference(hlist_next_rcu(n)))
			if (!visit(&s, hlist_entry(n, struct item, node)))
				break;
		break;
	}
	lookup_end(&s);
	rcu_read_unlock();
}

/*
 * Scan a whole bucket in two parts (first item, then _continue_ from it)
 * and check that each permanent key of the bucket was seen exactly once.
 */
static void scan_bucket(struct reader *r, int bh)
{
	struct scan s = { .what = kind_name[bh ? R_SCAN_CONTINUE_BH : R_SCAN_CONTINUE] };
	int seen[NKEYS] = { 0 };
	struct item *it;
	unsigned long k;

	s.bucket = (unsigned int)lt_below(&r->rng, NBUCKETS);
	s.key = NKEYS;	/* no lookup */
	if (bh)
		rcu_read_lock_bh();
	else
		rcu_read_lock();
	/* The first item, if any (it is always there: permanent keys). */
	it = hlist_entry_safe(rcu_dereference_raw(hlist_first_rcu(&table[s.bucket])),
			      struct item, node);
	if (it && visit(&s, it)) {
		seen[it->base.pl.key]++;
		if (bh) {
			hlist_for_each_entry_continue_rcu_bh(it, node) {
				if (!visit(&s, it))
					break;
				seen[it->base.pl.key]++;
			}
		} else {
			hlist_for_each_entry_continue_rcu(it, node) {
				if (!visit(&s, it))
					break;
				seen[it->base.pl.key]++;
			}
		}
	}
	for (k = 0; k < NKEYS && !s.bad; k++)
		if (PERMANENT(k) && bucket_of(k) == s.bucket && seen[k] != 1)
			lt_fail("%s: permanent key %lu seen %d times in bucket %u",
				s.what, k, seen[k], s.bucket);
	if (bh)
		rcu_read_unlock_bh();
	else
		rcu_read_unlock();
}

static void *reader_fn(void *arg)
{
	struct reader *r = arg;
	unsigned long n = 0;

	lt_register();
	while (!lt_stopped() && lt_error_count() < 100) {
		int kind = (int)(n++ % R_KINDS);

		if (kind == R_SCAN_CONTINUE || kind == R_SCAN_CONTINUE_BH)
			scan_bucket(r, kind == R_SCAN_CONTINUE_BH);
		else
			lookup(r, kind);
		r->done[kind]++;
		if ((n & 3) == 0)
			sched_yield();
	}
	rcu_unregister_thread();
	return NULL;
}

/* ------------------------------------------------------------------ */
/* Updaters                                                             */

enum {
	U_ADD_HEAD, U_ADD_TAIL, U_ADD_BEFORE, U_ADD_BEHIND, U_ADD_AFTER,
	U_DEL, U_DEL_INIT, U_REPLACE, U_KINDS
};
static const char *update_name[U_KINDS] = {
	"hlist_add_head_rcu", "hlist_add_tail_rcu", "hlist_add_before_rcu",
	"hlist_add_behind_rcu", "hlist_add_after_rcu", "hlist_del_rcu",
	"hlist_del_init_rcu", "hlist_replace_rcu",
};

struct updater {
	pthread_t tid;
	uint64_t rng;
	unsigned long nops;
	unsigned long done[U_KINDS];
};

/* Payload in plain stores, ordered by the add that publishes the item. */
static struct item *item_new(unsigned long key, unsigned long gen)
{
	return lt_elem_new(sizeof(struct item), key, gen);
}

/* A random node of a non-empty bucket (bucket lock held). */
static struct hlist_node *random_node(struct hlist_head *head, uint64_t *rng)
{
	struct hlist_node *n, *pick = NULL;
	unsigned long i = 0;

	hlist_for_each(n, head)		/* reservoir sampling */
		if (lt_below(rng, ++i) == 0)
			pick = n;
	return pick;
}

static void update_one(struct updater *u)
{
	unsigned long key = lt_below(&u->rng, NKEYS);
	unsigned int b = bucket_of(key);
	struct hlist_head *head = &table[b];
	struct item *it, *old;
	int kind;

	pthread_mutex_lock(&bucket_lock[b]);
	old = present[key];
	if (old) {
		if (PERMANENT(key) || lt_below(&u->rng, 2)) {
			it = item_new(key, old->base.pl.gen + 1);
			hlist_replace_rcu(&old->node, &it->node);
			present[key] = it;
			kind = U_REPLACE;
		} else {
			kind = lt_below(&u->rng, 2) ? U_DEL : U_DEL_INIT;
			if (kind == U_DEL)
				hlist_del_rcu(&old->node);
			else
				hlist_del_init_rcu(&old->node);
			present[key] = NULL;
		}
		lt_retire(&old->base, &u->rng);
	} else {
		it = item_new(key, 0);
		kind = hlist_empty(head) ? U_ADD_HEAD :
			(int)lt_below(&u->rng, U_ADD_AFTER + 1);
		switch (kind) {
		case U_ADD_HEAD:   hlist_add_head_rcu(&it->node, head); break;
		case U_ADD_TAIL:   hlist_add_tail_rcu(&it->node, head); break;
		case U_ADD_BEFORE: hlist_add_before_rcu(&it->node, random_node(head, &u->rng)); break;
		case U_ADD_BEHIND: hlist_add_behind_rcu(&it->node, random_node(head, &u->rng)); break;
		case U_ADD_AFTER:  hlist_add_after_rcu(random_node(head, &u->rng), &it->node); break;
		}
		present[key] = it;
	}
	pthread_mutex_unlock(&bucket_lock[b]);
	u->done[kind]++;
}

static void *updater_fn(void *arg)
{
	struct updater *u = arg;
	unsigned long i;

	for (i = 0; i < u->nops && lt_error_count() == 0; i++) {
		update_one(u);
		if ((i & 7) == 0)
			sched_yield();
	}
	u->nops = i;
	return NULL;
}

/* ------------------------------------------------------------------ */

/* Final check, single-threaded: each bucket holds exactly its present keys. */
static int table_matches_model(void)
{
	int count[NKEYS] = { 0 };
	unsigned int b;
	unsigned long k;
	struct item *it;

	for (b = 0; b < NBUCKETS; b++) {
		struct hlist_node **pprev = &table[b].first;

		hlist_for_each_entry(it, &table[b], node) {
			unsigned long key = it->base.pl.key;

			if (it->node.pprev != pprev || it->base.pl.magic != LT_MAGIC_LIVE ||
			    key >= NKEYS || bucket_of(key) != b || present[key] != it)
				return 0;
			pprev = &it->node.next;
			count[key]++;
		}
	}
	for (k = 0; k < NKEYS; k++)
		if (count[k] != (present[k] != NULL))
			return 0;
	return 1;
}

int main(void)
{
	struct reader readers[NREADERS];
	struct updater updaters[NUPDATERS];
	uint64_t seed = lt_seed();
	unsigned long k, total, nperm = 0;
	int i, kind;

	lt_register();
	for (i = 0; i < NBUCKETS; i++) {
		INIT_HLIST_HEAD(&table[i]);
		pthread_mutex_init(&bucket_lock[i], NULL);
	}
	for (k = 0; k < NKEYS; k++) {
		if (!PERMANENT(k))
			continue;
		present[k] = item_new(k, 0);
		hlist_add_head_rcu(&present[k]->node, &table[bucket_of(k)]);
		nperm++;
	}

	lt_start();
	for (i = 0; i < NREADERS; i++) {
		memset(&readers[i], 0, sizeof(readers[i]));
		readers[i].rng = seed + 101 * (uint64_t)(i + 1);
		lt_create(&readers[i].tid, reader_fn, &readers[i]);
	}
	for (i = 0; i < NUPDATERS; i++) {
		memset(&updaters[i], 0, sizeof(updaters[i]));
		updaters[i].rng = seed + 7919 * (uint64_t)(i + 1);
		updaters[i].nops = lt_iters(40000, 15000);
		lt_create(&updaters[i].tid, updater_fn, &updaters[i]);
	}
	for (i = 0; i < NUPDATERS; i++)
		pthread_join(updaters[i].tid, NULL);
	lt_stop();
	for (i = 0; i < NREADERS; i++)
		pthread_join(readers[i].tid, NULL);

	is_long(lt_error_count(), 0,
		"lookups and scans saw only live, initialised items in their bucket, "
		"every permanent key exactly once, and terminated");
	for (i = 0, total = 0; i < NUPDATERS; i++)
		total += updaters[i].nops;
	is_long(total, NUPDATERS * lt_iters(40000, 15000), "the updaters completed their operations");
	for (kind = 0; kind < U_KINDS; kind++) {
		for (i = 0, total = 0; i < NUPDATERS; i++)
			total += updaters[i].done[kind];
		ok(total > 0, "%s ran %lu times under concurrent readers",
		   update_name[kind], total);
	}
	for (kind = 0; kind < R_KINDS; kind++) {
		for (i = 0, total = 0; i < NREADERS; i++)
			total += readers[i].done[kind];
		ok(total > 0, "readers completed %lu %s", total, kind_name[kind]);
	}
	ok(table_matches_model(), "final table matches the updaters' model (%lu permanent keys)",
	   nperm);

	for (k = 0; k < NKEYS; k++) {
		if (!present[k])
			continue;
		hlist_del_rcu(&present[k]->node);
		lt_retire(&present[k]->base, &seed);
		present[k] = NULL;
	}
	lt_check_callbacks();
	rcu_unregister_thread();
	return done_testing();
}
