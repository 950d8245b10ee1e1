/* SPDX-License-Identifier: MIT */
/*
 * list_test.h - helpers shared by the tests of the RCU list APIs
 * (the programs of tests/list/): iteration scaling for sanitizer builds, a
 * seeded PRNG, error collection from reader threads, checked payloads,
 * and a poisoning quarantine for freed elements.
 */
#ifndef TESTS_LIST_TEST_H
#define TESTS_LIST_TEST_H

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <rcu/kernel.h>	/* the tests use the kernel's spellings */
#include <rcu/list.h>
#include <rcu/rcupdate.h>
#include "tap.h"

#if defined(__SANITIZE_ADDRESS__)
#define LT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LT_ASAN 1
#endif
#endif
#ifdef LT_ASAN
#include <sanitizer/asan_interface.h>
#endif

/* A node that can be on one list of each kind at once. */
struct lt_node {
	int id;
	struct list_head l;
	struct hlist_node h;
	struct hlist_nulls_node n;
	struct hlist_bl_node b;
};

/* ------------------------------------------------------------------ */
/* Scaling                                                              */

/* Running under a sanitizer (built with one, or SAN set by make check)? */
static inline int lt_sanitized(void)
{
	const char *san = getenv("SAN");

#if defined(LRCU_TSAN) || defined(LT_ASAN)
	return 1;
#endif
	return san && (!strcmp(san, "thread") || !strcmp(san, "address"));
}

/* Iteration count: `normal', or `sanitized' under TSan/ASan. */
static inline unsigned long lt_iters(unsigned long normal, unsigned long sanitized)
{
	return lt_sanitized() ? sanitized : normal;
}

/* ------------------------------------------------------------------ */
/* PRNG (xorshift64*), seeded from LIST_TEST_SEED or a fixed default     */

static inline uint64_t lt_seed(void)
{
	const char *s = getenv("LIST_TEST_SEED");
	uint64_t seed = s ? strtoull(s, NULL, 0) : 0x9e3779b97f4a7c15ULL;

	diag("seed %#llx (set LIST_TEST_SEED to change)", (unsigned long long)seed);
	return seed ? seed : 1;
}

static inline uint64_t lt_rand(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545f4914f6cdd1dULL;
}

/* Uniform-ish in [0, n). */
static inline unsigned long lt_below(uint64_t *state, unsigned long n)
{
	return n ? (unsigned long)((lt_rand(state) >> 16) % n) : 0;
}

/* ------------------------------------------------------------------ */
/* Errors seen by worker threads                                        */

static unsigned long lt_errors;

/* Count an error; describe the first few. */
__attribute__((format(printf, 1, 2)))
static inline void lt_fail(const char *fmt, ...)
{
	unsigned long n = __atomic_fetch_add(&lt_errors, 1, __ATOMIC_RELAXED);
	char buf[256];
	va_list ap;

	if (n >= 5)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	diag("error: %s", buf);
}

static inline unsigned long lt_error_count(void)
{
	return __atomic_load_n(&lt_errors, __ATOMIC_RELAXED);
}

/* ------------------------------------------------------------------ */
/* Stop flag for reader threads                                         */

static int lt_stop_flag;

static inline void lt_stop(void)
{
	/* Release pairs with the acquire in lt_stopped(); orders nothing the
	 * verdicts rely on (those come from pthread_join()). */
	__atomic_store_n(&lt_stop_flag, 1, __ATOMIC_RELEASE);
}

static inline void lt_start(void)
{
	__atomic_store_n(&lt_stop_flag, 0, __ATOMIC_RELAXED);	/* before pthread_create() */
}

static inline int lt_stopped(void)
{
	return __atomic_load_n(&lt_stop_flag, __ATOMIC_ACQUIRE);	/* pairs with lt_stop() */
}

/* ------------------------------------------------------------------ */
/* Checked payloads                                                     */
/*
 * An element's payload is written with plain stores before the element
 * is published, and poisoned with plain stores by the free path after a
 * grace period.  A reader that sees a payload that is not fully
 * initialised, or already poisoned, catches broken publication ordering
 * or an early free; under ThreadSanitizer the same mistakes are reported
 * as data races on these plain fields.
 */
#define LT_MAGIC_LIVE	0x4c495645a11fe5edUL
#define LT_MAGIC_FREED	0xdeaddeaddeaddeadUL
#define LT_POISON_BYTE	0x6b
#define LT_POISON_WORD	0x6b6b6b6b6b6b6b6bUL

struct lt_payload {
	unsigned long magic;
	unsigned long key;
	unsigned long gen;
	unsigned long check[4];
};

static inline unsigned long lt_mix(unsigned long key, unsigned long gen, int i)
{
	unsigned long x = key * 0x9e3779b97f4a7c15UL ^ (gen + 1) * 0xc2b2ae3d27d4eb4fUL;

	return x ^ ((unsigned long)i << 56) ^ (x >> 29);
}

static inline void lt_payload_init(struct lt_payload *p, unsigned long key,
				   unsigned long gen)
{
	int i;

	p->key = key;
	p->gen = gen;
	for (i = 0; i < 4; i++)
		p->check[i] = lt_mix(key, gen, i);
	p->magic = LT_MAGIC_LIVE;
}

/* 1 if the payload is live and consistent; otherwise records an error. */
static inline int lt_payload_check(const struct lt_payload *p, const char *where)
{
	unsigned long key = p->key, gen = p->gen;
	int i;

	if (p->magic != LT_MAGIC_LIVE) {
		int freed = p->magic == LT_MAGIC_FREED || p->magic == LT_POISON_WORD;

		lt_fail("%s: element %p has magic %#lx (%s)", where, (const void *)p,
			p->magic, freed ? "freed" : "not initialised");
		return 0;
	}
	for (i = 0; i < 4; i++) {
		if (p->check[i] != lt_mix(key, gen, i)) {
			lt_fail("%s: element %p key %lu gen %lu: check[%d] is %#lx",
				where, (const void *)p, key, gen, i, p->check[i]);
			return 0;
		}
	}
	return 1;
}

static inline void lt_payload_poison(struct lt_payload *p)
{
	memset(p, LT_POISON_BYTE, sizeof(*p));
	p->magic = LT_MAGIC_FREED;
}

/* ------------------------------------------------------------------ */
/* Quarantine                                                           */
/*
 * Freed elements are poisoned (the whole object) and kept for a while
 * before free(), so that a late reader finds poison rather than a
 * reallocated, valid-looking element.  Under ASan the quarantined memory
 * is also made inaccessible, so such a read is reported at once.
 */
#define LT_QUARANTINE	1024

static struct {
	pthread_mutex_t lock;
	void *ptr[LT_QUARANTINE];
	size_t size[LT_QUARANTINE];
	unsigned long head, count;
	unsigned long total;
} lt_q = { .lock = PTHREAD_MUTEX_INITIALIZER };

static inline void lt_quarantine_release(unsigned long slot)
{
#ifdef LT_ASAN
	__asan_unpoison_memory_region(lt_q.ptr[slot], lt_q.size[slot]);
#endif
	free(lt_q.ptr[slot]);
	lt_q.ptr[slot] = NULL;
}

/* Poison and quarantine an element of `size' bytes (instead of free()). */
static inline void lt_quarantine(void *p, size_t size)
{
	unsigned long slot;

	memset(p, LT_POISON_BYTE, size);
	pthread_mutex_lock(&lt_q.lock);
	if (lt_q.count == LT_QUARANTINE) {
		lt_quarantine_release(lt_q.head % LT_QUARANTINE);
		lt_q.head++;
		lt_q.count--;
	}
	slot = (lt_q.head + lt_q.count) % LT_QUARANTINE;
	lt_q.ptr[slot] = p;
	lt_q.size[slot] = size;
	lt_q.count++;
	lt_q.total++;
#ifdef LT_ASAN
	__asan_poison_memory_region(p, size);
#endif
	pthread_mutex_unlock(&lt_q.lock);
}

/* Free everything in quarantine; returns how many elements went through. */
static inline unsigned long lt_quarantine_drain(void)
{
	unsigned long total;

	pthread_mutex_lock(&lt_q.lock);
	while (lt_q.count) {
		lt_quarantine_release(lt_q.head % LT_QUARANTINE);
		lt_q.head++;
		lt_q.count--;
	}
	total = lt_q.total;
	pthread_mutex_unlock(&lt_q.lock);
	return total;
}

/* ------------------------------------------------------------------ */
/* Elements freed after a grace period                                  */
/*
 * Test elements start with a struct lt_elem: a checked payload, the
 * rcu_head for freeing and the allocation size.  lt_retire() frees a
 * removed element after a grace period, either with call_rcu() (the
 * callback poisons and quarantines it) or with kfree_rcu().
 */
struct lt_elem {
	struct lt_payload pl;
	struct rcu_head rcu;
	size_t size;
};

static unsigned long lt_cb_queued, lt_cb_done, lt_kfreed;

/* Allocate an element of `size' bytes (struct lt_elem first) with a
 * payload for key/gen; plain stores, to be ordered by its publication. */
static inline void *lt_elem_new(size_t size, unsigned long key, unsigned long gen)
{
	struct lt_elem *e = malloc(size);

	if (!e)
		abort();
	lt_payload_init(&e->pl, key, gen);
	e->size = size;
	return e;
}

static inline void lt_elem_free_cb(struct rcu_head *head)
{
	struct lt_elem *e = container_of(head, struct lt_elem, rcu);

	lt_payload_poison(&e->pl);
	lt_quarantine(e, e->size);
	/* Relaxed: read after rcu_barrier(), which orders it. */
	__atomic_fetch_add(&lt_cb_done, 1, __ATOMIC_RELAXED);
}

static inline void lt_retire(struct lt_elem *e, uint64_t *rng)
{
	if (lt_below(rng, 2)) {
		__atomic_fetch_add(&lt_cb_queued, 1, __ATOMIC_RELAXED);
		call_rcu(&e->rcu, lt_elem_free_cb);
	} else {
		__atomic_fetch_add(&lt_kfreed, 1, __ATOMIC_RELAXED);
		kfree_rcu(e, rcu);
	}
}

/* rcu_barrier(), then check that every call_rcu() callback ran. */
static inline void lt_check_callbacks(void)
{
	rcu_barrier();
	is_long(__atomic_load_n(&lt_cb_done, __ATOMIC_RELAXED),
		__atomic_load_n(&lt_cb_queued, __ATOMIC_RELAXED),
		"after rcu_barrier() every call_rcu() callback has run (plus %lu kfree_rcu)",
		__atomic_load_n(&lt_kfreed, __ATOMIC_RELAXED));
	lt_quarantine_drain();
}

/* ------------------------------------------------------------------ */
/* Threads                                                              */

static inline void lt_register(void)
{
	if (rcu_register_thread())
		lt_fail("rcu_register_thread: %s", strerror(errno));
}

static inline void lt_create(pthread_t *t, void *(*fn)(void *), void *arg)
{
	int err = pthread_create(t, NULL, fn, arg);

	if (err) {
		fprintf(stderr, "pthread_create: %s\n", strerror(err));
		exit(2);
	}
}

/*
 * ThreadSanitizer options for children started with run_self():
 *   atexit_sleep_ms=0  children that use RCU would each sit out TSan's
 *                      one-second exit delay for the library's threads;
 *                      nothing of ours runs then.
 *   handle_segv=0      a fault inside an atomic builtin (a store through a
 *                      poisoned link) deadlocks clang 14's TSan runtime in
 *                      its SEGV report (the handler reallocs while the
 *                      interrupted atomic holds TSan's slot lock); let the
 *                      fault kill the child plainly instead.
 */
static inline void lt_tsan_child_options(void)
{
#ifdef LRCU_TSAN
	const char *old = getenv("TSAN_OPTIONS");
	char buf[1024];

	snprintf(buf, sizeof(buf), "%s%satexit_sleep_ms=0 handle_segv=0",
		 old ? old : "", old ? " " : "");
	setenv("TSAN_OPTIONS", buf, 1);
#endif
}

#endif /* TESTS_LIST_TEST_H */
