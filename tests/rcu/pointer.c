/* SPDX-License-Identifier: MIT */
/*
 * tests/rcu/pointer.c - the update-side pointer calls: the kernel's
 * rcu_replace_pointer() and liburcu's rcu_set_pointer(),
 * rcu_xchg_pointer() and rcu_cmpxchg_pointer() (which take the pointer's
 * address).  First what each returns and stores, then two updaters
 * racing without a lock while readers dereference: a counter kept in
 * the published object and advanced by rcu_cmpxchg_pointer() loses no
 * step, objects swapped in by rcu_xchg_pointer() come back out exactly
 * once, and every object a reader reaches is whole (each replaced one is
 * poisoned by its call_rcu() callback, so a reader that reaches one
 * after its grace period sees the poison).
 */
#include "rcu_test.h"

#define POISON	0xdeadbeefUL
#define NSTEPS	20000	/* per updater */
#define NUPD	2
#define NREAD	2

struct obj {
	unsigned long count;	/* cmpxchg: the counter; xchg: the owner's tag */
	unsigned long check;	/* ~count while live, POISON once freed */
	int retired;		/* replaced: only once, if no update is lost */
	struct rcu_head rh;
};

static struct obj *__rcu counter;	/* advanced by rcu_cmpxchg_pointer() */
static struct obj *__rcu slot;		/* swapped by rcu_xchg_pointer() */
static int go, stop, bad_reads, bad_swaps, twice_retired;
static unsigned long reads;
static unsigned long xchg_out[NUPD + 1];	/* objects swapped out, by tag */

static struct obj *obj_new(unsigned long count)
{
	struct obj *o = malloc(sizeof(*o));

	o->count = count;
	o->check = ~count;
	o->retired = 0;
	return o;
}

static void obj_poison(struct rcu_head *rh)
{
	struct obj *o = container_of(rh, struct obj, rh);

	WRITE_ONCE(o->check, POISON);
	WRITE_ONCE(o->count, POISON);
	/* Kept, not freed: a late reader must find the poison, not a new
	 * allocation.  Freed at the end of the test. */
}

static bool obj_whole(struct obj *o)
{
	return o && READ_ONCE(o->check) == ~READ_ONCE(o->count);
}

/* A reader holds what it reached a while (long enough for a callback
 * that ran too early to poison it) and checks it all along. */
static bool obj_stays_whole(struct obj *o)
{
	int i;

	for (i = 0; i < 64; i++)
		if (!obj_whole(o))
			return false;
	return true;
}

/* Every thread starts at once, so that the updaters race. */
static void start_gate(void)
{
	while (!__atomic_load_n(&go, __ATOMIC_ACQUIRE))
		sched_yield();
}

static void *reader(void *arg)
{
	unsigned long n = 0;

	(void)arg;
	rcu_register_thread();
	start_gate();
	while (!READ_ONCE(stop)) {
		rcu_read_lock();
		if (!obj_stays_whole(rcu_dereference(counter)) ||
		    !obj_stays_whole(rcu_dereference(slot)))
			__atomic_fetch_add(&bad_reads, 1, __ATOMIC_RELAXED);
		rcu_read_unlock();
		n++;
	}
	__atomic_fetch_add(&reads, n, __ATOMIC_RELAXED);
	rcu_unregister_thread();
	return NULL;
}

/* The retired objects, freed after the last grace period. */
static struct obj *retired[2 * NUPD * NSTEPS + 8];
static unsigned long nretired;

/* An object two updaters both replaced is a lost update (and its
 * rcu_head must not be queued twice). */
static void retire(struct obj *o)
{
	if (__atomic_exchange_n(&o->retired, 1, __ATOMIC_RELAXED)) {
		__atomic_fetch_add(&twice_retired, 1, __ATOMIC_RELAXED);
		return;
	}
	retired[__atomic_fetch_add(&nretired, 1, __ATOMIC_RELAXED)] = o;
	call_rcu(&o->rh, obj_poison);
}

static void *updater(void *arg)
{
	unsigned long tag = (unsigned long)arg, i;

	rcu_register_thread();
	start_gate();
	for (i = 0; i < NSTEPS; i++) {
		struct obj *cur, *old, *mine;

		/* One step of the counter, retried until no other updater
		 * got in between. */
		do {
			rcu_read_lock();
			cur = rcu_dereference(counter);
			mine = obj_new(cur->count + 1);
			rcu_read_unlock();
			old = rcu_cmpxchg_pointer(&counter, cur, mine);
			if (old != cur)
				free(mine);
		} while (old != cur);
		retire(cur);

		/* Swap one of ours in; whatever comes out is retired. */
		old = rcu_xchg_pointer(&slot, obj_new(tag));
		if (obj_whole(old) && old->count <= NUPD) {
			__atomic_fetch_add(&xchg_out[old->count], 1, __ATOMIC_RELAXED);
			retire(old);
		} else {
			__atomic_fetch_add(&bad_swaps, 1, __ATOMIC_RELAXED);
		}
	}
	rcu_unregister_thread();
	return NULL;
}

static void semantics(void)
{
	struct obj *a = obj_new(1), *b = obj_new(2), *c = obj_new(3), *r;
	struct obj *__rcu p = NULL;
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	bool held;

	rcu_set_pointer(&p, a);
	ok(rcu_access_pointer(p) == a, "rcu_set_pointer(&p, v) publishes v");

	r = rcu_xchg_pointer(&p, b);
	ok(r == a && rcu_access_pointer(p) == b, "rcu_xchg_pointer() returns the old pointer, stores the new");
	ok(__builtin_types_compatible_p(__typeof__(rcu_xchg_pointer(&p, b)), struct obj *) &&
	   __builtin_types_compatible_p(__typeof__(rcu_cmpxchg_pointer(&p, b, a)), struct obj *),
	   "rcu_xchg_pointer() and rcu_cmpxchg_pointer() return the pointer's type");

	r = rcu_cmpxchg_pointer(&p, a, c);
	ok(r == b && rcu_access_pointer(p) == b,
	   "rcu_cmpxchg_pointer() with a stale old: returns what it found, stores nothing");
	r = rcu_cmpxchg_pointer(&p, b, c);
	ok(r == b && rcu_access_pointer(p) == c, "rcu_cmpxchg_pointer() with the current old: stores, returns old");

	pthread_mutex_lock(&lock);
	held = true;
	r = rcu_replace_pointer(p, a, held);
	pthread_mutex_unlock(&lock);
	ok(r == c && rcu_access_pointer(p) == a, "rcu_replace_pointer() returns the old pointer, publishes the new");
	r = rcu_replace_pointer(p, NULL, 1);
	ok(r == a && rcu_access_pointer(p) == NULL, "rcu_replace_pointer(p, NULL, 1)");
	free(a);
	free(b);
	free(c);
}

int main(void)
{
	pthread_t rd[NREAD], up[NUPD];
	unsigned long i, total = 0;
	struct obj *last;

	rcu_register_thread();
	semantics();

	RCU_INIT_POINTER(counter, obj_new(0));
	RCU_INIT_POINTER(slot, obj_new(0));	/* tag 0: the initial object */
	for (i = 0; i < NREAD; i++)
		pthread_create(&rd[i], NULL, reader, NULL);
	for (i = 0; i < NUPD; i++)
		pthread_create(&up[i], NULL, updater, (void *)(i + 1));
	__atomic_store_n(&go, 1, __ATOMIC_RELEASE);	/* pairs with start_gate() */
	for (i = 0; i < NUPD; i++)
		pthread_join(up[i], NULL);
	WRITE_ONCE(stop, 1);
	for (i = 0; i < NREAD; i++)
		pthread_join(rd[i], NULL);
	rcu_barrier();

	last = rcu_dereference_protected(counter, 1);
	is_long(last->count, NUPD * NSTEPS,
		"%d updaters x %d rcu_cmpxchg_pointer() steps: none lost", NUPD, NSTEPS);
	is_long(twice_retired, 0, "no object was replaced twice (by both updaters)");
	for (i = 0; i <= NUPD; i++)
		total += xchg_out[i];
	ok(total == NUPD * NSTEPS && xchg_out[0] == 1 && bad_swaps == 0,
	   "rcu_xchg_pointer(): %lu objects came out for %d swaps, the initial one once (%lu), "
	   "none twice (%d)", total, NUPD * NSTEPS, xchg_out[0], bad_swaps);
	ok(bad_reads == 0, "readers saw no poisoned or torn object (%d bad of %lu reads)",
	   bad_reads, reads);

	for (i = 0; i < nretired; i++)
		free(retired[i]);
	free(last);
	free(rcu_dereference_protected(slot, 1));
	rcu_unregister_thread();
	return done_testing();
}
