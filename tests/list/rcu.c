/* SPDX-License-Identifier: MIT */
/*
 * tests/list/rcu.c - struct list_head under concurrent RCU readers.
 *
 * One updater adds (head, tail, after an entry), deletes, replaces and
 * splices entries while reader threads traverse with every RCU traversal
 * form.  Removed entries are freed after a grace period with call_rcu()
 * (which poisons and quarantines them) or kfree_rcu().
 *
 * Readers check, in every pass:
 *   - every entry they reach is fully initialised (payload written before
 *     publication) and not yet freed (poisoned by the free path);
 *   - the permanent entries (never removed) are seen exactly once each,
 *     in order: adds, deletes, replaces and splices may not hide, repeat
 *     or reorder the entries around them;
 *   - traversal terminates (a step bound) - in particular readers of the
 *     list being spliced away, which would run forever round the other
 *     list if list_splice_init_rcu() did not wait for them.  Some splices
 *     start while a reader is known to stand on the list being spliced
 *     (a handshake), so that a splice that does not wait is caught every
 *     time, not by luck.
 * Under ThreadSanitizer, missing publication ordering or an early free
 * shows up as a data race on the payload's plain fields; under ASan, as a
 * use after free.
 */
#include <time.h>
#include <rcu/rculist.h>
#include "list_test.h"

#define NPERM		8	/* permanent entries */
#define MAX_TRANSIENT	48	/* transient entries on the main list */
#define MAX_STAGED	8	/* entries on the staging list */
#define NREADERS	3	/* plus one staging reader */
#define STEP_BOUND	100000	/* no traversal may take more steps */

struct elem {
	struct lt_elem base;	/* payload, rcu_head */
	long perm;		/* 0..NPERM-1 for permanent entries, else -1 */
	struct list_head node;
};

static LIST_HEAD(mainlist);
static LIST_HEAD(staging);
static pthread_mutex_t update_lock = PTHREAD_MUTEX_INITIALIZER;

static unsigned long seen_deleted;

enum { PASS_FULL, PASS_SPLIT, PASS_STEPWISE, PASS_STAGING, PASS_KINDS };
static const char *pass_name[PASS_KINDS] = {
	"list_for_each_entry_rcu", "list_for_each_entry_continue_rcu",
	"list_first_or_null_rcu/list_next_or_null_rcu", "staging list",
};

struct reader {
	pthread_t tid;
	int id;
	unsigned long passes[PASS_KINDS];
};

/* ------------------------------------------------------------------ */
/* Reader side                                                          */

struct walk {
	const char *what;
	long next_perm;		/* permanent entry expected next */
	unsigned long steps;
	int bad;
};

/* Check one entry of a main-list traversal; 0 stops the traversal. */
static int visit(struct walk *w, struct elem *e)
{
	if (++w->steps > STEP_BOUND) {
		lt_fail("%s: traversal does not terminate", w->what);
		w->bad = 1;
		return 0;
	}
	if (!lt_payload_check(&e->base.pl, w->what)) {
		w->bad = 1;
		return 0;
	}
	if (e->perm >= 0) {
		if (e->perm != w->next_perm) {
			lt_fail("%s: permanent entry %ld seen where %ld was expected",
				w->what, e->perm, w->next_perm);
			w->bad = 1;
			return 0;
		}
		w->next_perm++;
	}
	/* Readers may legitimately stand on deleted entries; count them.
	 * pairs with WRITE_ONCE() of ->prev in list_del_rcu() */
	if (READ_ONCE(e->node.prev) == LIST_POISON2)
		__atomic_fetch_add(&seen_deleted, 1, __ATOMIC_RELAXED);
	/* Now and then stay in the section a while, so that removals and
	 * grace periods happen while this reader holds entries. */
	if ((w->steps & 15) == 0)
		sched_yield();
	return 1;
}

static void walk_end(struct walk *w)
{
	if (!w->bad && w->next_perm != NPERM)
		lt_fail("%s: saw %ld of %d permanent entries", w->what, w->next_perm, NPERM);
}

static void pass_full(void)
{
	struct walk w = { .what = "list_for_each_entry_rcu" };
	struct elem *e;

	rcu_read_lock();
	list_for_each_entry_rcu(e, &mainlist, node)
		if (!visit(&w, e))
			break;
	walk_end(&w);
	rcu_read_unlock();
}

/* Stop at the middle permanent entry, resume with _continue_rcu. */
static void pass_split(void)
{
	struct walk w = { .what = "list_for_each_entry_continue_rcu" };
	struct elem *e, *mid = NULL;

	rcu_read_lock();
	list_for_each_entry_rcu(e, &mainlist, node) {
		if (!visit(&w, e))
			goto out;
		if (e->perm == NPERM / 2) {
			mid = e;
			break;
		}
	}
	if (!mid) {
		lt_fail("split traversal: no middle permanent entry");
		goto out;
	}
	e = mid;
	list_for_each_entry_continue_rcu(e, &mainlist, node)
		if (!visit(&w, e))
			goto out;
	walk_end(&w);
out:
	rcu_read_unlock();
}

static void pass_stepwise(void)
{
	struct walk w = { .what = "list_first_or_null_rcu/list_next_or_null_rcu" };
	struct elem *e;

	rcu_read_lock();
	e = list_first_or_null_rcu(&mainlist, struct elem, node);
	if (!e)
		lt_fail("list_first_or_null_rcu: NULL on a list with permanent entries");
	for (; e; e = list_next_or_null_rcu(&mainlist, &e->node, struct elem, node))
		if (!visit(&w, e))
			break;
	walk_end(&w);
	rcu_read_unlock();
}

/*
 * The staging list holds only transient entries.  A reader that finds a
 * permanent entry, or takes too many steps, was carried into the main
 * list by a splice that did not wait for it.
 */
static void pass_staging(void)
{
	struct walk w = { .what = "staging traversal" };
	struct elem *e;

	rcu_read_lock();
	list_for_each_entry_rcu(e, &staging, node) {
		if (!visit(&w, e))
			break;
		if (e->perm >= 0) {
			lt_fail("staging traversal reached permanent entry %ld: "
				"spliced away under a reader", e->perm);
			break;
		}
	}
	rcu_read_unlock();
}

/* ------------------------------------------------------------------ */
/* Splice handshake                                                     */
/*
 * The updater asks (HS_WANT); the staging reader enters a read-side
 * section, stands on the first staging entry and answers (HS_PARKED); the
 * updater splices, which must wait in sync() for this reader.  The reader
 * lingers a while (or until the splice returned, which only a broken
 * splice allows), then finishes its traversal: it must end at the
 * staging head without meeting any entry of the main list.
 */
enum { HS_NONE, HS_WANT, HS_PARKED, HS_DONE };
static int hs_state;
static unsigned long hs_parked;

static void staging_park(void)
{
	struct walk w = { .what = "staging traversal across a splice" };
	struct elem *e;
	int expect = HS_WANT;
	struct timespec t0, t;

	rcu_read_lock();
	e = list_first_or_null_rcu(&staging, struct elem, node);
	/* Acq_rel CAS pairs with the updater's CAS/stores of hs_state. */
	if (!e || !__atomic_compare_exchange_n(&hs_state, &expect, HS_PARKED, false,
					       __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		rcu_read_unlock();
		return;
	}
	hs_parked++;
	/*
	 * A correct splice is blocked in sync() now, waiting for us.  Linger
	 * a couple of milliseconds, so that a splice that does not wait has
	 * finished before we go on (the time only decides how surely a broken
	 * splice is caught; a correct one passes however long this takes).
	 */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		/* pairs with the release store of HS_DONE by the updater */
		if (__atomic_load_n(&hs_state, __ATOMIC_ACQUIRE) == HS_DONE)
			break;
		sched_yield();
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) < 2000000L);
	do {
		if (!visit(&w, e))
			break;
		if (e->perm >= 0) {
			lt_fail("staging traversal reached permanent entry %ld: "
				"spliced away under a reader", e->perm);
			break;
		}
	} while ((e = list_next_or_null_rcu(&staging, &e->node, struct elem, node)));
	rcu_read_unlock();
}

/*
 * Updater: get the staging reader to stand on the (non-empty) staging
 * list.  It always answers, unless it stopped on errors.
 */
static int staging_handshake(void)
{
	int expect = HS_WANT;

	__atomic_store_n(&hs_state, HS_WANT, __ATOMIC_RELEASE);	/* pairs with the reader's CAS */
	while (lt_error_count() == 0) {
		/* pairs with the reader's acq_rel CAS to HS_PARKED */
		if (__atomic_load_n(&hs_state, __ATOMIC_ACQUIRE) == HS_PARKED)
			return 1;
		sched_yield();
	}
	/* The reader stopped: withdraw, unless it just parked. */
	if (__atomic_compare_exchange_n(&hs_state, &expect, HS_NONE, false,
					__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		return 0;
	return 1;
}

/* The staging reader: slow passes over the staging list, and handshakes. */
static void *staging_reader_fn(void *arg)
{
	struct reader *r = arg;

	lt_register();
	while (!lt_stopped() && lt_error_count() < 100) {
		/* pairs with the release store of HS_WANT */
		if (__atomic_load_n(&hs_state, __ATOMIC_ACQUIRE) == HS_WANT) {
			staging_park();
			continue;
		}
		pass_staging();
		r->passes[PASS_STAGING]++;
		sched_yield();
	}
	rcu_unregister_thread();
	return NULL;
}

static void *reader_fn(void *arg)
{
	struct reader *r = arg;
	unsigned long n = (unsigned long)r->id;

	lt_register();
	while (!lt_stopped() && lt_error_count() < 100) {
		int kind = (int)(n++ % PASS_KINDS);

		switch (kind) {
		case PASS_FULL:		pass_full(); break;
		case PASS_SPLIT:	pass_split(); break;
		case PASS_STEPWISE:	pass_stepwise(); break;
		case PASS_STAGING:	pass_staging(); break;
		}
		r->passes[kind]++;
		sched_yield();	/* let the updater and the GP thread run */
	}
	rcu_unregister_thread();
	return NULL;
}

/* ------------------------------------------------------------------ */
/* Update side                                                          */

static unsigned long next_key;

static struct elem *elem_new(long perm, unsigned long key, unsigned long gen)
{
	struct elem *e = lt_elem_new(sizeof(*e), key, gen);

	e->perm = perm;	/* plain: publication (list_add_rcu() etc.) orders it */
	return e;
}

/* The i-th transient entry of the main list (update side, lock held). */
static struct elem *nth_transient(int i)
{
	struct elem *e;

	list_for_each_entry(e, &mainlist, node)
		if (e->perm < 0 && i-- == 0)
			return e;
	return NULL;
}

/* A random insertion anchor: the head or any entry of the main list. */
static struct list_head *random_anchor(uint64_t *rng, int ntrans)
{
	unsigned long i = lt_below(rng, (unsigned long)(NPERM + ntrans + 1));
	struct list_head *p = &mainlist;

	while (i--)
		p = p->next;
	return p;
}

struct stats {
	unsigned long add, add_tail, add_after, del, replace, staged;
	unsigned long splice, splice_tail, splice_mid;
};

int main(void)
{
	unsigned long nops = lt_iters(20000, 10000), i;
	struct reader readers[NREADERS + 1];
	struct stats st = { 0 };
	uint64_t rng = lt_seed();
	int ntrans = 0, nstaged = 0, k, good;
	struct elem *e, *n;

	lt_register();
	for (k = 0; k < NPERM; k++)
		list_add_tail_rcu(&elem_new(k, next_key++, 0)->node, &mainlist);

	lt_start();
	for (k = 0; k <= NREADERS; k++) {
		memset(&readers[k], 0, sizeof(readers[k]));
		readers[k].id = k;
		lt_create(&readers[k].tid, k < NREADERS ? reader_fn : staging_reader_fn,
			  &readers[k]);
	}

	for (i = 0; i < nops && lt_error_count() == 0; i++) {
		unsigned long op = lt_below(&rng, 100);

		pthread_mutex_lock(&update_lock);
		if (op < 12 && ntrans < MAX_TRANSIENT) {
			list_add_rcu(&elem_new(-1, next_key++, 0)->node, &mainlist);
			ntrans++;
			st.add++;
		} else if (op < 24 && ntrans < MAX_TRANSIENT) {
			list_add_tail_rcu(&elem_new(-1, next_key++, 0)->node, &mainlist);
			ntrans++;
			st.add_tail++;
		} else if (op < 36 && ntrans < MAX_TRANSIENT) {
			/* after any entry, permanent ones included */
			list_add_rcu(&elem_new(-1, next_key++, 0)->node,
				     random_anchor(&rng, ntrans));
			ntrans++;
			st.add_after++;
		} else if (op < 62 && ntrans > 0) {
			e = nth_transient((int)lt_below(&rng, (unsigned long)ntrans));
			list_del_rcu(&e->node);
			lt_retire(&e->base, &rng);
			ntrans--;
			st.del++;
		} else if (op < 88 && ntrans > 0) {
			e = nth_transient((int)lt_below(&rng, (unsigned long)ntrans));
			n = elem_new(-1, e->base.pl.key, e->base.pl.gen + 1);
			list_replace_rcu(&e->node, &n->node);
			lt_retire(&e->base, &rng);
			st.replace++;
		} else if (op < 97 && nstaged < MAX_STAGED) {
			/* Readers traverse the staging list too. */
			if (lt_below(&rng, 2))
				list_add_rcu(&elem_new(-1, next_key++, 0)->node, &staging);
			else
				list_add_tail_rcu(&elem_new(-1, next_key++, 0)->node, &staging);
			nstaged++;
			st.staged++;
		} else if (nstaged > 0 && ntrans + nstaged <= MAX_TRANSIENT) {
			/* Blocks for a grace period: fewer of these. */
			unsigned long where = lt_below(&rng, 3);
			int hs = (st.splice + st.splice_tail + st.splice_mid) % 3 == 0 &&
				 staging_handshake();

			if (where == 0) {
				list_splice_init_rcu(&staging, &mainlist, synchronize_rcu);
				st.splice++;
			} else if (where == 1) {
				list_splice_tail_init_rcu(&staging, &mainlist, synchronize_rcu);
				st.splice_tail++;
			} else {
				list_splice_init_rcu(&staging, random_anchor(&rng, ntrans),
						     synchronize_rcu);
				st.splice_mid++;
			}
			ntrans += nstaged;
			nstaged = 0;
			if (hs)	/* pairs with the acquire loads in staging_park() */
				__atomic_store_n(&hs_state, HS_DONE, __ATOMIC_RELEASE);
		}
		pthread_mutex_unlock(&update_lock);
		if ((i & 7) == 0)
			sched_yield();
	}

	lt_stop();
	for (k = 0; k <= NREADERS; k++)
		pthread_join(readers[k].tid, NULL);

	diag("%lu ops: add %lu, add_tail %lu, add after entry %lu, del %lu, replace %lu, "
	     "staged %lu, splice head/tail/middle %lu/%lu/%lu",
	     i, st.add, st.add_tail, st.add_after, st.del, st.replace, st.staged,
	     st.splice, st.splice_tail, st.splice_mid);
	diag("readers stood on %lu already-deleted entries",
	     __atomic_load_n(&seen_deleted, __ATOMIC_RELAXED));
	ok(hs_parked > 0, "%lu splices ran while a reader stood on the spliced list",
	   hs_parked);
	is_long(lt_error_count(), 0,
		"readers saw only initialised, unfreed entries, every permanent entry once "
		"and in order, and every traversal terminated");
	ok(i == nops, "the updater completed all %lu operations", nops);
	ok(st.add && st.add_tail && st.add_after && st.del && st.replace &&
	   st.splice + st.splice_tail + st.splice_mid > 0,
	   "every kind of update ran concurrently with readers");
	for (k = 0; k < PASS_KINDS; k++) {
		unsigned long total = 0;
		int r;

		for (r = 0; r <= NREADERS; r++)
			total += readers[r].passes[k];
		ok(total > 0, "readers completed %lu %s passes", total, pass_name[k]);
	}

	/* Final state, single-threaded: the model is just the counts. */
	good = 1;
	k = 0;
	{
		long next_perm = 0;
		int count = 0;

		list_for_each_entry(e, &mainlist, node) {
			good &= e->base.pl.magic == LT_MAGIC_LIVE;
			if (e->perm >= 0)
				good &= e->perm == next_perm++;
			count++;
		}
		ok(good && next_perm == NPERM && count == NPERM + ntrans,
		   "final list: %d entries, permanent ones in order", count);
		k = count;
	}
	good = 1;
	list_for_each_entry(e, &staging, node)
		good = good && nstaged-- > 0;
	ok(good && nstaged == 0, "final staging list matches");

	/* Free everything and check that every callback ran. */
	list_for_each_entry_safe(e, n, &mainlist, node) {
		list_del_rcu(&e->node);
		lt_retire(&e->base, &rng);
	}
	list_for_each_entry_safe(e, n, &staging, node) {
		list_del_rcu(&e->node);
		lt_retire(&e->base, &rng);
	}
	lt_check_callbacks();
	rcu_unregister_thread();
	return done_testing();
}
