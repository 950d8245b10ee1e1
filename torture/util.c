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
	return smp_load_acquire(&must_stop);	/* pairs with the release below */
}

void torture_request_stop(void)
{
	smp_store_release(&must_stop, 1);	/* counters before the flag */
}

/* ------------------------------------------------------------------ */
/* Threads */

struct tthread {
	pthread_t t;
	char name[32];
	int alive;	/* cleared by torture_thread_exiting(); under threads_lock */
	bool bound;	/* keeps its affinity (torture_spawn_bound()) */
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

static int spawn(const char *name, void *(*fn)(void *), void *arg, bool bound)
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
	t->bound = bound;
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

int torture_spawn(const char *name, void *(*fn)(void *), void *arg)
{
	return spawn(name, fn, arg, false);
}

int torture_spawn_bound(const char *name, void *(*fn)(void *), void *arg)
{
	return spawn(name, fn, arg, true);
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
		if (threads[i].alive && !threads[i].bound)
			fn(threads[i].t, arg);
	pthread_mutex_unlock(&threads_lock);
}

/* Join thread t by `end' (torture_now_us() time), in 250 ms slices,
 * giving up early once give_up() says so; true if joined. */
static bool join_until(pthread_t t, unsigned long end, bool (*give_up)(void))
{
	struct timespec dl;

	for (;;) {
		unsigned long now = torture_now_us();
		unsigned long slice = end > now ? end - now : 0;

		if (slice > 250000)
			slice = 250000;
		clock_gettime(CLOCK_REALTIME, &dl);
		dl.tv_nsec += (long)(slice % 1000000) * 1000;
		dl.tv_sec += (time_t)(dl.tv_nsec / 1000000000);
		dl.tv_nsec %= 1000000000;
		if (!pthread_timedjoin_np(t, NULL, &dl))
			return true;
		if (torture_now_us() >= end || (give_up && give_up()))
			return false;
	}
}

bool torture_join_all(unsigned long timeout_s, bool (*give_up)(void), char *hung, size_t len)
{
	unsigned long end;
	size_t i, n;
	bool ok = true;

	torture_request_stop();
	end = torture_now_us() + timeout_s * 1000000;
	hung[0] = '\0';
	pthread_mutex_lock(&threads_lock);
	n = nthreads;	/* no spawns after the stop request */
	pthread_mutex_unlock(&threads_lock);
	for (i = 0; i < n; i++) {
		if (!join_until(threads[i].t, ok ? end : 0, give_up)) {
			size_t used = strlen(hung);

			/* Given up on: if it ends after all, nobody joins
			 * it (the run exits with it hung), so let it go
			 * rather than leak it (ThreadSanitizer reports a
			 * finished thread never joined, after the verdict). */
			pthread_detach(threads[i].t);
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
	barrier();	/* pairs with torture_may_read() */
	WRITE_ONCE(*v, val);
	barrier();	/* ... and the ops call after us */
}

bool torture_thread_registered(void)
{
	return tls_registered;
}

bool torture_may_read(void)
{
	/* Same thread as tls_set(): its signal fences order these. */
	return READ_ONCE(tls_registered) &&
	       !READ_ONCE(tls_offline);
}

/* ------------------------------------------------------------------ */
/* Thread slots: readers have theirs reserved; the stall and forward-
 * progress threads come next (they were asked for explicitly); the other
 * registered threads (barrier, read-exit, ...) share the rest, and do
 * without (or skip what needs one) when none is free. */

enum { POOL_NONE, POOL_SHARED, POOL_PRIO };
static long slots_free[3] = { 0, -1, 0 };	/* free slots; -1: no limit; atomic */
static __thread int tls_pool;			/* where this thread's slot came from */

/*
 * Numbered CPUs (ops->thread_register_cpu): which CPU each registered
 * torture thread is, so that readers sit in every group (leaf) and a
 * re-registering thread lands anywhere, not always in the lowest free
 * slot.  cpu_order lists the CPUs round-robin over their groups, each
 * group shuffled: reader i's first CPU is cpu_order[i].
 */
static pthread_mutex_t cpus_lock = PTHREAD_MUTEX_INITIALIZER;
static char *cpu_taken;		/* ncpu_nums entries (cpus_lock) */
static int *cpu_order;		/* ncpu_nums entries (const after init) */
static int ncpu_nums;		/* 0: the RCU does not number CPUs */
static __thread int tls_cpu = -1;
static struct torture_random cpus_rng;	/* cpus_lock */

int torture_cpu_group(int cpu)
{
	return ncpu_nums && OPS_HAS(cpu_group) ? cur_ops->cpu_group(cpu) : -1;
}

int torture_thread_cpu(void)
{
	return tls_cpu;
}

int torture_reader_cpu_plan(int reader)
{
	return ncpu_nums ? cpu_order[reader % ncpu_nums] : -1;
}

/* cpu_order: round-robin over the groups, each group in random order. */
static int cpus_init(long cap)
{
	int c, g, ngroups = 0, n = 0, *grp;

	if (!OPS_HAS(thread_register_cpu) || cap <= 0 || cap > 65536)
		return 0;
	cpu_taken = calloc((size_t)cap, 1);
	cpu_order = malloc((size_t)cap * sizeof(*cpu_order));
	grp = malloc((size_t)cap * sizeof(*grp));
	if (!cpu_taken || !cpu_order || !grp) {
		free(grp);
		return -1;
	}
	torture_random_init(&cpus_rng, 0xc9c9);
	for (c = 0; c < cap; c++) {
		grp[c] = OPS_HAS(cpu_group) ? cur_ops->cpu_group(c) : 0;
		if (grp[c] < 0)
			grp[c] = 0;
		if (grp[c] + 1 > ngroups)
			ngroups = grp[c] + 1;
	}
	/* Round r takes one not yet listed CPU from each group, at random. */
	while (n < cap) {
		for (g = 0; g < ngroups; g++) {
			int left = 0, pick;

			for (c = 0; c < cap; c++)
				left += grp[c] == g;
			if (!left)
				continue;
			pick = (int)(torture_random(&cpus_rng) % (unsigned long)left);
			for (c = 0; c < cap; c++)
				if (grp[c] == g && !pick--)
					break;
			cpu_order[n++] = c;
			grp[c] = -1;	/* listed */
		}
	}
	free(grp);
	ncpu_nums = (int)cap;
	return 0;
}

/* Claim a free CPU: `want' if it is free, the lowest free one for
 * CPU_LOWEST, else one at random; -1 if all are taken. */
#define CPU_ANY		(-1)
#define CPU_LOWEST	(-2)
static int cpu_claim(int want)
{
	int c, start, i;

	pthread_mutex_lock(&cpus_lock);
	if (want >= 0 && want < ncpu_nums && !cpu_taken[want]) {
		c = want;
	} else {
		start = want == CPU_LOWEST ? 0 :
			(int)(torture_random(&cpus_rng) % (unsigned long)ncpu_nums);
		for (i = 0, c = -1; i < ncpu_nums && c < 0; i++)
			if (!cpu_taken[(start + i) % ncpu_nums])
				c = (start + i) % ncpu_nums;
	}
	if (c >= 0)
		cpu_taken[c] = 1;
	pthread_mutex_unlock(&cpus_lock);
	return c;
}

static void cpu_release(int c)
{
	pthread_mutex_lock(&cpus_lock);
	cpu_taken[c] = 0;
	pthread_mutex_unlock(&cpus_lock);
}

/*
 * A random "CPU" in use by a torture thread (the kernel's toggles pick
 * among the online CPUs), or a random one of the first torture_ncpus if
 * the RCU does not number them or none is in use.
 */
int torture_random_online_cpu(struct torture_random *r)
{
	int c, n = 0, pick = -1;

	pthread_mutex_lock(&cpus_lock);
	for (c = 0; c < ncpu_nums; c++)
		n += cpu_taken[c];
	if (n) {
		n = (int)(torture_random(r) % (unsigned long)n);
		for (c = 0; c < ncpu_nums && pick < 0; c++)
			if (cpu_taken[c] && !n--)
				pick = c;
	}
	pthread_mutex_unlock(&cpus_lock);
	return pick >= 0 ? pick : (int)(torture_random(r) % (unsigned long)torture_ncpus);
}

/* Register as CPU `want' (or another free one); 0 or -1. */
static int register_numbered(int want)
{
	int tries, c;

	for (tries = 0; tries < ncpu_nums; tries++) {
		c = cpu_claim(tries && want >= 0 ? CPU_ANY : want);
		if (c < 0)
			return -1;
		if (!cur_ops->thread_register_cpu(c)) {
			tls_cpu = c;
			return 0;
		}
		/* Taken by someone outside the harness: keep it marked, pick
		 * again. */
	}
	return -1;
}

int torture_slots_init(long readers)
{
	long cap = cur_ops->thread_capacity ? cur_ops->thread_capacity() : 0, prio;

	if (cap <= 0)
		return 0;
	if (cpus_init(cap))
		return -1;
	if (readers > cap) {
		param_finding(PF_ERROR, 0, "rcutorture.nreaders=%ld needs %ld thread slots, but "
			      "%s has %ld (nr_cpus)", readers, readers, cur_ops->name, cap);
		return -1;
	}
	prio = (tp.stall_cpu > 0) + tp.fwd_progress;
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
	long n = READ_ONCE(slots_free[p]);

	/* A counter of tokens: the CAS orders nothing else. */
	do {
		if (n == 0)
			return false;
		if (n < 0)
			return true;
	} while (!try_cmpxchg_relaxed(&slots_free[p], &n, n - 1));
	return true;
}

static void slots_give(int p)
{
	if (p != POOL_NONE && READ_ONCE(slots_free[p]) >= 0)	/* tokens */
		atomic_inc(&slots_free[p]);
}

/* Say once per kind of thread that it had to do without a slot. */
static void no_slot_note(const char *who, const char *what)
{
	static const char *seen[16];
	unsigned int i;

	for (i = 0; i < 16; i++) {
		const char *expect = NULL;

		if (READ_ONCE(seen[i]) == who)	/* pointer identity */
			return;
		if (try_cmpxchg_relaxed(&seen[i], &expect, who))
			break;
	}
	torout(" %s: no free thread slot (nr_cpus): %s", who, what);
}

static int do_register(int cpu)
{
	if (ncpu_nums ? register_numbered(cpu) : cur_ops->thread_register()) {
		if (STAT_INC(tc.register_fail) == 0)
			torout(" a torture thread could not register with %s", cur_ops->name);
		return -1;
	}
	tls_set(&tls_offline, 0);
	tls_set(&tls_registered, 1);
	return 0;
}

int torture_reader_register(int cpu)
{
	if (!cur_ops->thread_register)
		return 0;
	return do_register(cpu);
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
	/* Helpers keep to the lowest CPUs, so that the readers' groups above
	 * can empty when the readers leave. */
	if (do_register(CPU_LOWEST)) {
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
	if (tls_cpu >= 0) {
		cpu_release(tls_cpu);
		tls_cpu = -1;
	}
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
