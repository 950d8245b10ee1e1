/* SPDX-License-Identifier: MIT */
/*
 * weakmem.c - the weak-memory emulation of a `make WEAKMEM=1` build
 * (docs/design/weakmem.md): <rcu/compiler.h>'s access and fence helpers
 * call in here, so that a missing fence shows on any machine.
 *
 * Theory of operation.  Each thread owns a store buffer: a small array
 * of the stores it made that other threads may not see yet.  A store
 * writes memory at once (so the thread's own loads, emulated or plain,
 * see it: store forwarding for free) and records the value it replaced
 * and a due time, now plus a uniform random delay of up to
 * weakmem.delay_us (5 ms by default).  Until the due time passes, an emulated load of
 * another thread returns the replaced value of the oldest pending store
 * to that object.  Nothing drains a buffer in the background: an entry
 * whose due time has passed is simply no longer pending, whoever looks.
 *
 * The ordering rules are all in the due times:
 *   - coherence: a store's due time is not before that of an earlier
 *     pending store of the same thread to the same object, and a store
 *     to an object another thread has a pending store to first makes
 *     that one (and what must precede it) visible, so at most one
 *     thread has pending stores to an object;
 *   - weakmem.mode=0 (TSO): due times never decrease within a thread,
 *     so stores become visible in program order (FIFO): only a store
 *     followed by a load of another object is reordered;
 *   - weakmem.mode=1 (weak): stores to different objects become visible
 *     in any order, except that a release store is not due before any
 *     earlier store of its thread;
 *   - a fence (smp_mb()), a sequentially consistent store and a fully
 *     ordered (or, in TSO, any) read-modify-write empty the caller's
 *     buffer first; membarrier() empties every thread's.  A weaker
 *     read-modify-write's store waits like a plain store of its order.  Making entry e visible early makes
 *     visible every entry of its thread due no later than e.
 * Loads are never delayed, so load-load and load-store reordering do
 * not happen: acquire loads keep their meaning without any work.
 *
 * Everything runs under one mutex: the emulation is for torture runs,
 * not for speed.  A load while no store is pending anywhere skips it.
 * A signal handler that interrupts the emulation accesses memory
 * directly (per-thread flag), rather than deadlock on the mutex.
 */
#ifdef LRCU_WEAKMEM
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "internal.h"

/* The emulation's own mutex is not a release to emulate (internal.h). */
#undef pthread_mutex_unlock

#define WM_CAP	32	/* pending stores a thread; a full buffer drains its oldest */

struct wm_entry {
	uintptr_t addr;		/* the object stored to */
	size_t size;		/* its size: 1, 2, 4 or 8 */
	unsigned long long old;	/* the value this store replaced */
	uint64_t due;		/* ns (CLOCK_MONOTONIC) it is visible from */
};

struct wm_buf {
	struct wm_buf *next;	/* wm_bufs list; never removed */
	int live;		/* owned by a running thread (else reusable) */
	int n;			/* pending entries; read unlocked by the owner */
	uint64_t rng;		/* xorshift state for the delays */
	struct wm_entry e[WM_CAP];
};

static pthread_mutex_t wm_lock = PTHREAD_MUTEX_INITIALIZER;	/* everything below */
static struct wm_buf *wm_bufs;
static unsigned long wm_pending;	/* entries over all buffers; read unlocked */
static unsigned long wm_gen;		/* stores made; read unlocked (lrcu__wm_load()) */
static pthread_once_t wm_once = PTHREAD_ONCE_INIT;
static pthread_key_t wm_key;		/* to free a buffer at thread exit */
static __thread struct wm_buf *wm_self;
static __thread int wm_inside;		/* in the emulation: a signal handler bypasses */

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Memory, by size: the emulation's own accesses are real ones. */
static unsigned long long raw_load(uintptr_t a, size_t size, int mo)
{
	switch (size) {
	case 1: return LRCU__RAW_LOAD((uint8_t *)a, mo);
	case 2: return LRCU__RAW_LOAD((uint16_t *)a, mo);
	case 4: return LRCU__RAW_LOAD((uint32_t *)a, mo);
	default: return LRCU__RAW_LOAD((uint64_t *)a, mo);
	}
}

static void raw_store(uintptr_t a, size_t size, unsigned long long v, int mo)
{
	switch (size) {
	case 1: LRCU__RAW_STORE((uint8_t *)a, (uint8_t)v, mo); break;
	case 2: LRCU__RAW_STORE((uint16_t *)a, (uint16_t)v, mo); break;
	case 4: LRCU__RAW_STORE((uint32_t *)a, (uint32_t)v, mo); break;
	default: LRCU__RAW_STORE((uint64_t *)a, (uint64_t)v, mo); break;
	}
}

static long param(const long *field)
{
	return LRCU__RAW_LOAD(field, LRCU__MO_RELAXED);	/* a run-time parameter */
}

static void drop(struct wm_buf *b, int i)
{
	b->e[i] = b->e[--b->n];
	wm_pending--;
}

/* Forget b's entries due by `due' (visible now). */
static void commit_upto(struct wm_buf *b, uint64_t due)
{
	for (int i = b->n - 1; i >= 0; i--)
		if (b->e[i].due <= due)
			drop(b, i);
}

static void commit_all(struct wm_buf *b)
{
	wm_pending -= (unsigned long)b->n;
	b->n = 0;
}

static int overlaps(const struct wm_entry *e, uintptr_t a, size_t size)
{
	return e->addr < a + size && a < e->addr + e->size;
}

/* Make every other thread's pending stores to [a, a+size) visible. */
static void commit_others(uintptr_t a, size_t size, uint64_t now)
{
	for (struct wm_buf *b = wm_bufs; b; b = b->next) {
		if (b == wm_self)
			continue;
		commit_upto(b, now);
		for (int i = 0; i < b->n; i++)
			if (overlaps(&b->e[i], a, size)) {
				commit_upto(b, b->e[i].due);
				i = -1;	/* the array changed: look again */
			}
	}
}

static void wm_thread_exit(void *arg)
{
	struct wm_buf *b = arg;

	pthread_mutex_lock(&wm_lock);
	commit_all(b);		/* a thread's stores are visible once it is gone */
	b->live = 0;
	pthread_mutex_unlock(&wm_lock);
}

static void wm_prepare(void) { pthread_mutex_lock(&wm_lock); }
static void wm_parent(void) { pthread_mutex_unlock(&wm_lock); }

/* A fork() child: the other threads are gone, and so are their buffers. */
static void wm_child(void)
{
	for (struct wm_buf *b = wm_bufs; b; b = b->next)
		if (b != wm_self) {
			commit_all(b);
			b->live = 0;
		}
	pthread_mutex_unlock(&wm_lock);
}

static void wm_setup(void)
{
	if (pthread_key_create(&wm_key, wm_thread_exit) ||
	    pthread_atfork(wm_prepare, wm_parent, wm_child))
		abort();
}

/* The caller's buffer, with wm_lock held. */
static struct wm_buf *self_buf(void)
{
	struct wm_buf *b;

	if (wm_self)
		return wm_self;
	for (b = wm_bufs; b && b->live; b = b->next)
		;
	if (!b) {
		b = calloc(1, sizeof(*b));
		if (!b)
			abort();
		b->next = wm_bufs;
		wm_bufs = b;
	}
	b->live = 1;
	b->n = 0;
	b->rng = (uintptr_t)b ^ now_ns() ^ 0x9e3779b97f4a7c15ull;
	wm_self = b;
	pthread_setspecific(wm_key, b);
	return b;
}

static uint64_t rnd(struct wm_buf *b)
{
	b->rng ^= b->rng << 13;
	b->rng ^= b->rng >> 7;
	b->rng ^= b->rng << 17;
	return b->rng;
}

static int enter(void)
{
	if (wm_inside)
		return 0;
	pthread_once(&wm_once, wm_setup);
	wm_inside = 1;
	pthread_mutex_lock(&wm_lock);
	return 1;
}

static void leave(void)
{
	pthread_mutex_unlock(&wm_lock);
	wm_inside = 0;
}

unsigned long long lrcu__wm_load(const volatile void *p, size_t size, int mo)
{
	uintptr_t a = (uintptr_t)p;
	unsigned long long v, old = 0;
	uint64_t now, first = UINT64_MAX;	/* due time of the oldest pending store */
	unsigned long gen;

	/*
	 * Nothing pending anywhere: memory is what everybody sees, unless a
	 * store came in meanwhile (its value may be in what we read while
	 * an earlier store of its thread is still pending).  The fences
	 * pair with the one in lrcu__wm_store(), between its wm_gen
	 * increment and its memory write.
	 */
	gen = LRCU__RAW_LOAD(&wm_gen, LRCU__MO_ACQUIRE);
	if (!LRCU__RAW_LOAD(&wm_pending, LRCU__MO_RELAXED)) {
		v = raw_load(a, size, mo);
		LRCU__RAW_FENCE();	/* the value before the recheck */
		if (LRCU__RAW_LOAD(&wm_gen, LRCU__MO_RELAXED) == gen)
			return v;
	}

	if (!enter())
		return raw_load(a, size, mo);	/* a signal handler inside */
	now = now_ns();
	for (struct wm_buf *b = wm_bufs; b; b = b->next) {
		if (b == wm_self)
			continue;	/* our own stores: memory has them */
		commit_upto(b, now);
		for (int i = 0; i < b->n; i++) {
			struct wm_entry *e = &b->e[i];

			if (!overlaps(e, a, size))
				continue;
			if (e->addr != a || e->size != size) {
				/* Mixed sizes: let it (and its elders) through. */
				commit_upto(b, e->due);
				i = -1;
				first = UINT64_MAX;
				continue;
			}
			if (e->due < first) {
				first = e->due;
				old = e->old;
			}
		}
	}
	v = raw_load(a, size, mo);
	if (first != UINT64_MAX)
		v = old;
	leave();
	return v;
}

/*
 * Record that b's thread just replaced `old' at [a, a+size) with a store
 * of order mo (memory is written by the caller, after wm_gen moves on):
 * its due time, after what must become visible before it.
 */
static void push(struct wm_buf *b, uintptr_t a, size_t size, unsigned long long old,
		 int mo, uint64_t now)
{
	long delay = param(&lrcu__params.wm_delay_us);
	uint64_t due = now + rnd(b) % ((uint64_t)delay * 1000 + 1), latest = 0;
	struct wm_entry *e;

	for (int i = 0; i < b->n; i++) {
		e = &b->e[i];
		if (e->due > latest &&
		    (param(&lrcu__params.wm_mode) == 0 || mo == LRCU__MO_RELEASE ||
		     overlaps(e, a, size)))
			latest = e->due;	/* must be visible before this one */
	}
	if (due < latest)
		due = latest;
	if (b->n == WM_CAP) {
		uint64_t oldest = b->e[0].due;

		for (int i = 1; i < b->n; i++)
			if (b->e[i].due < oldest)
				oldest = b->e[i].due;
		commit_upto(b, oldest);
	}
	e = &b->e[b->n++];
	wm_pending++;
	e->addr = a;
	e->size = size;
	e->old = old;
	e->due = due;
	LRCU__RAW_STORE(&wm_gen, wm_gen + 1, LRCU__MO_RELAXED);
	LRCU__RAW_FENCE();	/* pairs with lrcu__wm_load()'s unlocked path */
}

void lrcu__wm_store(volatile void *p, size_t size, unsigned long long v, int mo)
{
	uintptr_t a = (uintptr_t)p;
	struct wm_buf *b;
	uint64_t now;

	if (!param(&lrcu__params.wm_delay_us) || !enter()) {
		raw_store(a, size, v, mo);
		return;
	}
	b = self_buf();
	now = now_ns();
	commit_upto(b, now);
	if (mo == LRCU__MO_SEQ_CST) {
		/* smp_store_mb(): after all our earlier stores, and before
		 * any later load (the caller's fence, as an xchg). */
		commit_all(b);
		raw_store(a, size, v, mo);
		leave();
		return;
	}
	commit_others(a, size, now);
	push(b, a, size, raw_load(a, size, LRCU__MO_RELAXED), mo, now);
	raw_store(a, size, v, mo);
	leave();
}

void lrcu__wm_fence(void)
{
	/* The owner alone adds entries: none now, none to drain. */
	if (wm_self && LRCU__RAW_LOAD(&wm_self->n, LRCU__MO_RELAXED) && enter()) {
		commit_all(wm_self);
		leave();
	}
	LRCU__RAW_FENCE();	/* and the hardware's: what smp_mb() is */
}

void lrcu__wm_membarrier(void)
{
	if (!enter())
		return;
	for (struct wm_buf *b = wm_bufs; b; b = b->next)
		commit_all(b);
	leave();
}

/*
 * A read-modify-write works on memory: first every pending store to its
 * object becomes visible (ours too: it must follow them), then as its
 * order asks, our other stores.  The lock is held until
 * lrcu__wm_rmw_end(), so that no store to the object slips between; the
 * return value says whether we took it (not in a signal handler that
 * interrupted the emulation).  In the weak mode the store of a relaxed,
 * acquire or release one then waits in our buffer like a plain store
 * (an arm64 stxr's does): wm_rmw says so, with the value it replaced.
 */
static __thread struct {
	uintptr_t a;		/* 0: the RMW's store is visible at once */
	size_t size;
	unsigned long long old;
	int mo;
} wm_rmw;

int lrcu__wm_rmw_begin(const volatile void *p, size_t size, int mo)
{
	uintptr_t a = (uintptr_t)p;
	struct wm_buf *b;
	bool weak = param(&lrcu__params.wm_mode) != 0;

	if (!enter())
		return 0;
	commit_others(a, size, now_ns());
	wm_rmw.a = 0;
	b = self_buf();
	if (mo == LRCU__MO_SEQ_CST || mo == LRCU__MO_ACQ_REL || !weak) {
		commit_all(b);	/* x86's locked instructions are full fences */
		return 1;
	}
	for (int i = 0; i < b->n; i++)
		if (overlaps(&b->e[i], a, size)) {
			commit_upto(b, b->e[i].due);
			i = -1;
		}
	if (param(&lrcu__params.wm_delay_us)) {
		wm_rmw.a = a;
		wm_rmw.size = size;
		wm_rmw.old = raw_load(a, size, LRCU__MO_RELAXED);
		wm_rmw.mo = mo;
	}
	return 1;
}

void lrcu__wm_rmw_end(int locked)
{
	if (!locked)
		return;
	/* A failed compare-and-exchange stored nothing. */
	if (wm_rmw.a && raw_load(wm_rmw.a, wm_rmw.size, LRCU__MO_RELAXED) != wm_rmw.old)
		push(wm_self, wm_rmw.a, wm_rmw.size, wm_rmw.old, wm_rmw.mo, now_ns());
	leave();
}
#endif /* LRCU_WEAKMEM */
