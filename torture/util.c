/* SPDX-License-Identifier: MIT */
/*
 * util.c - what every torture thread uses: random numbers, time, sleeps
 * that end early when the test stops, spawning and joining threads, and
 * registration of threads with the RCU under test ("CPUs").
 *
 * Registration state is remembered per thread so that a helper knows
 * whether this thread must go offline before it sleeps (QSBR readers) or
 * come online around call() (registered updaters of a QSBR RCU).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "torture.h"

/* ------------------------------------------------------------------ */
/* Random numbers: a 64-bit LCG per thread (the kernel's torture_random()
 * is also an LCG); the high bits are the good ones. */

void torture_random_init(struct torture_random *r, unsigned long salt)
{
	r->state = (uint64_t)tp.seed * 0x9e3779b97f4a7c15ULL + salt * 0xbf58476d1ce4e5b9ULL + 1;
	torture_random(r);
}

unsigned long torture_random(struct torture_random *r)
{
	r->state = r->state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned long)(r->state >> 33);
}

/* ------------------------------------------------------------------ */
/* Time */

static uint64_t mono_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

static uint64_t start_us;	/* set before any thread starts */

unsigned long torture_now_us(void)
{
	if (!start_us)
		start_us = mono_us();	/* main thread, first call */
	return (unsigned long)(mono_us() - start_us);
}

static void sleep_exact_us(unsigned long us)
{
	struct timespec ts = { (time_t)(us / 1000000), (long)(us % 1000000) * 1000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;	/* irqreader signals interrupt sleeps */
}

/* Sleep in slices so that a stop request is noticed within 50 ms. */
void torture_sleep_us(unsigned long us)
{
	while (us && !torture_must_stop()) {
		unsigned long slice = us < 50000 ? us : 50000;

		sleep_exact_us(slice);
		us -= slice;
	}
}

/* The kernel's torture_hrtimeout_us(): base plus up to fuzz. */
void torture_hrtimeout_us(unsigned long base, unsigned long fuzz, struct torture_random *r)
{
	torture_sleep_us(base + (fuzz ? torture_random(r) % fuzz : 0));
}

void torture_spin_us(unsigned long us)
{
	uint64_t end = mono_us() + us;

	while (mono_us() < end)
		;
}

/* ------------------------------------------------------------------ */
/* Stop flag: set once; every loop polls it. */

static int must_stop;

bool torture_must_stop(void)
{
	return __atomic_load_n(&must_stop, __ATOMIC_ACQUIRE);	/* pairs with the release below */
}

void torture_request_stop(void)
{
	__atomic_store_n(&must_stop, 1, __ATOMIC_RELEASE);	/* counters before the flag */
}

/* ------------------------------------------------------------------ */
/* Threads */

struct tthread {
	pthread_t t;
	char name[32];
	int alive;	/* cleared by torture_thread_exiting(); under threads_lock */
};

static pthread_mutex_t threads_lock = PTHREAD_MUTEX_INITIALIZER;
static struct tthread *threads;
static size_t nthreads, threads_cap;

struct spawn_arg {
	void *(*fn)(void *);
	void *arg;
};

/*
 * Every torture thread runs through here, so that it is marked dead
 * (under threads_lock) before it can be joined: the shuffler, which uses
 * pthread_t values under that lock, never touches a finished thread.
 */
static void *thread_trampoline(void *p)
{
	struct spawn_arg sa = *(struct spawn_arg *)p;
	void *ret;

	free(p);
	ret = sa.fn(sa.arg);
	torture_thread_exiting();
	return ret;
}

int torture_spawn(const char *name, void *(*fn)(void *), void *arg)
{
	struct spawn_arg *sa = malloc(sizeof(*sa));
	struct tthread *t;
	int rc;

	if (!sa)
		return -1;
	sa->fn = fn;
	sa->arg = arg;
	pthread_mutex_lock(&threads_lock);
	if (nthreads == threads_cap) {
		size_t cap = threads_cap ? 2 * threads_cap : 32;
		struct tthread *n = realloc(threads, cap * sizeof(*n));

		if (!n) {
			pthread_mutex_unlock(&threads_lock);
			free(sa);
			return -1;
		}
		threads = n;
		threads_cap = cap;
	}
	t = &threads[nthreads];
	snprintf(t->name, sizeof(t->name), "%s", name);
	t->alive = 1;
	rc = pthread_create(&t->t, NULL, thread_trampoline, sa);
	if (rc) {
		pthread_mutex_unlock(&threads_lock);
		free(sa);
		fprintf(stderr, "rcutorture: cannot create thread %s: %s\n", name, strerror(rc));
		return -1;
	}
	pthread_setname_np(t->t, name);
	nthreads++;
	pthread_mutex_unlock(&threads_lock);
	return 0;
}

void torture_thread_exiting(void)
{
	size_t i;

	pthread_mutex_lock(&threads_lock);
	for (i = 0; i < nthreads; i++)
		if (pthread_equal(threads[i].t, pthread_self()))
			threads[i].alive = 0;
	pthread_mutex_unlock(&threads_lock);
}

void torture_for_each_thread(void (*fn)(pthread_t t, void *arg), void *arg)
{
	size_t i;

	pthread_mutex_lock(&threads_lock);
	for (i = 0; i < nthreads; i++)
		if (threads[i].alive)
			fn(threads[i].t, arg);
	pthread_mutex_unlock(&threads_lock);
}

bool torture_join_all(unsigned long timeout_s, char *hung, size_t len)
{
	struct timespec dl;
	size_t i, n;
	bool ok = true;

	torture_request_stop();
	clock_gettime(CLOCK_REALTIME, &dl);
	dl.tv_sec += (time_t)timeout_s;
	hung[0] = '\0';
	pthread_mutex_lock(&threads_lock);
	n = nthreads;	/* no spawns after the stop request */
	pthread_mutex_unlock(&threads_lock);
	for (i = 0; i < n; i++) {
		if (pthread_timedjoin_np(threads[i].t, NULL, &dl)) {
			size_t used = strlen(hung);

			snprintf(hung + used, len - used, "%s%s", used ? " " : "", threads[i].name);
			ok = false;
		}
	}
	return ok;
}

/* ------------------------------------------------------------------ */
/* Threads as CPUs */

/*
 * This thread's state, also read by a signal handler on the same thread
 * (irqreader): relaxed accesses plus signal fences.  The state says
 * "cannot read" before the ops call that makes it true, and "can read"
 * only after the call that makes it so.
 */
static __thread int tls_registered;
static __thread int tls_offline;

static void tls_set(int *v, int val)
{
	__atomic_signal_fence(__ATOMIC_SEQ_CST);	/* pairs with torture_may_read() */
	__atomic_store_n(v, val, __ATOMIC_RELAXED);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);	/* ... and the ops call after us */
}

bool torture_thread_registered(void)
{
	return tls_registered;
}

bool torture_may_read(void)
{
	/* Same thread as tls_set(): its signal fences order these. */
	return __atomic_load_n(&tls_registered, __ATOMIC_RELAXED) &&
	       !__atomic_load_n(&tls_offline, __ATOMIC_RELAXED);
}

/* ------------------------------------------------------------------ */
/* Thread slots: readers have theirs reserved; the stall and forward-
 * progress threads come next (they were asked for explicitly); the other
 * registered threads (barrier, read-exit, ...) share the rest, and do
 * without (or skip what needs one) when none is free. */

enum { POOL_NONE, POOL_SHARED, POOL_PRIO };
static long slots_free[3] = { 0, -1, 0 };	/* free slots; -1: no limit; atomic */
static __thread int tls_pool;			/* where this thread's slot came from */

int torture_slots_init(long readers)
{
	long cap = cur_ops->thread_capacity ? cur_ops->thread_capacity() : 0, prio;

	if (cap <= 0)
		return 0;
	if (readers > cap) {
		param_finding(PF_ERROR, 0, "rcutorture.nreaders=%ld needs %ld thread slots, but "
			      "%s has %ld (nr_cpus)", readers, readers, cur_ops->name, cap);
		return -1;
	}
	prio = (tp.stall_cpu > 0) + (tp.fwd_progress > 0);
	if (prio > cap - readers)
		prio = cap - readers;
	slots_free[POOL_PRIO] = prio;
	slots_free[POOL_SHARED] = cap - readers - prio;
	param_finding(PF_NOTE, 0, "thread slots: %ld: %ld readers, %ld for stall/forward-"
		      "progress, %ld shared by the other torture threads", cap, readers, prio,
		      slots_free[POOL_SHARED]);
	return 0;
}

/* Take a slot from pool p; false if none is free. */
static bool slots_take(int p)
{
	long n = __atomic_load_n(&slots_free[p], __ATOMIC_RELAXED);

	/* A counter of tokens: the CAS orders nothing else. */
	do {
		if (n == 0)
			return false;
		if (n < 0)
			return true;
	} while (!__atomic_compare_exchange_n(&slots_free[p], &n, n - 1, false,
					      __ATOMIC_RELAXED, __ATOMIC_RELAXED));
	return true;
}

static void slots_give(int p)
{
	if (p != POOL_NONE && __atomic_load_n(&slots_free[p], __ATOMIC_RELAXED) >= 0)	/* tokens */
		__atomic_fetch_add(&slots_free[p], 1, __ATOMIC_RELAXED);
}

/* Say once per kind of thread that it had to do without a slot. */
static void no_slot_note(const char *who, const char *what)
{
	static const char *seen[16];
	unsigned int i;

	for (i = 0; i < 16; i++) {
		const char *expect = NULL;

		if (__atomic_load_n(&seen[i], __ATOMIC_RELAXED) == who)	/* pointer identity */
			return;
		if (__atomic_compare_exchange_n(&seen[i], &expect, who, false,
						__ATOMIC_RELAXED, __ATOMIC_RELAXED))
			break;
	}
	torout(" %s: no free thread slot (nr_cpus): %s", who, what);
}

static int do_register(void)
{
	if (cur_ops->thread_register()) {
		if (STAT_INC(tc.register_fail) == 0)
			torout(" a torture thread could not register with %s", cur_ops->name);
		return -1;
	}
	tls_set(&tls_offline, 0);
	tls_set(&tls_registered, 1);
	return 0;
}

int torture_reader_register(void)
{
	if (!cur_ops->thread_register)
		return 0;
	return do_register();
}

int torture_aux_register(const char *who, const char *what, bool prio)
{
	int p = POOL_SHARED;

	if (!cur_ops->thread_register)
		return 0;
	if (prio && slots_take(POOL_PRIO))
		p = POOL_PRIO;
	else if (!slots_take(POOL_SHARED)) {
		no_slot_note(who, what);
		return -1;
	}
	if (do_register()) {
		slots_give(p);
		return -1;
	}
	tls_pool = p;
	return 0;
}

void torture_reader_unregister(void)
{
	if (!tls_registered)
		return;
	if (tls_offline)
		torture_online();	/* leave as we came */
	tls_set(&tls_registered, 0);
	if (cur_ops->thread_unregister)
		cur_ops->thread_unregister();
	slots_give(tls_pool);
	tls_pool = POOL_NONE;
}

void torture_offline(void)
{
	if (!tls_registered || tls_offline)
		return;
	tls_set(&tls_offline, 1);
	if (cur_ops->thread_offline)
		cur_ops->thread_offline();
}

void torture_online(void)
{
	if (!tls_registered || !tls_offline)
		return;
	if (cur_ops->thread_online)
		cur_ops->thread_online();
	tls_set(&tls_offline, 0);
}

void torture_idle_sleep_us(unsigned long us)
{
	int was_online = tls_registered && !tls_offline;

	if (was_online)
		torture_offline();
	torture_sleep_us(us);
	if (was_online)
		torture_online();
}

/*
 * Update-side threads register only if the RCU needs registered callers
 * (or the caller wants its own slot, e.g. barrier threads spreading
 * callbacks over "CPUs"), and then stay offline between calls.
 */
bool torture_updater_start(int want, const char *who, const char *what)
{
	if (!(cur_ops->flags & TORTURE_OPS_UPDATERS_REGISTER) && want == UPD_NO_SLOT)
		return false;
	if (torture_aux_register(who, what, want == UPD_PRIO_SLOT)) {
		if (cur_ops->flags & TORTURE_OPS_UPDATERS_REGISTER)
			STAT_INC(tc.register_fail);	/* cannot call() at all */
		return false;
	}
	torture_offline();
	return true;
}

void torture_updater_stop(void)
{
	torture_reader_unregister();
}

void torture_call(struct torture_cb *cb, void (*func)(struct torture_cb *))
{
	int was_offline = tls_registered && tls_offline;

	cb->func = func;
	if (was_offline)
		torture_online();
	cur_ops->call(cb);
	if (was_offline)
		torture_offline();
}
