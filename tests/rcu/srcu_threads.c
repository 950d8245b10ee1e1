/* SPDX-License-Identifier: MIT */
/*
 * tests/rcu/srcu_threads.c - SRCU under concurrency: signal handlers read
 * (also as a thread's first SRCU use, and nested into the reader's own
 * load/store of its counter), a small pipeline torture (readers must never
 * see a retired object), thousands of domains at once (and past the
 * per-thread id space), a domain created and destroyed in a loop (leaks
 * nothing: ASan; ids are reused), and short-lived reader threads.
 */
#include "srcu_test.h"

DEFINE_STATIC_SRCU(s_sig);
DEFINE_STATIC_SRCU(s_other);

/* ------------------------------------------------------------------ */
/* Signal handlers */

static int sig_mode;		/* 0: quick section; 1: stay until told */
static int sig_in, sig_leave, sig_leaving, sig_count;

static void sig_handler(int sig)
{
	int idx, idx2;

	(void)sig;
	idx = srcu_read_lock(&s_sig);
	idx2 = srcu_read_lock(&s_other);
	if (__atomic_load_n(&sig_mode, __ATOMIC_ACQUIRE)) {	/* set before the kill */
		set_flag(&sig_in);
		while (!flag(&sig_leave))
			sleep_ms(1);	/* nanosleep(): async-signal-safe */
		set_flag(&sig_leaving);
	}
	srcu_read_unlock(&s_other, idx2);
	srcu_read_unlock(&s_sig, idx);
	__atomic_fetch_add(&sig_count, 1, __ATOMIC_RELAXED);	/* a counter */
}

static int target_stop, target_running;

/* A thread that has never used SRCU: its first section is a handler's. */
static void *idle_target(void *p)
{
	(void)p;
	set_flag(&target_running);
	while (!flag(&target_stop))
		sleep_ms(1);
	return NULL;
}

/* A thread that reads in a tight loop, to be interrupted mid-section and
 * mid-lock (between the load and the store of its counter). */
static long busy_reads;

static void *busy_target(void *p)
{
	long n = 0;

	(void)p;
	while (!flag(&target_stop)) {
		int i = srcu_read_lock(&s_sig);
		int j = srcu_read_lock(&s_sig);

		srcu_read_unlock(&s_sig, j);
		srcu_read_unlock(&s_sig, i);
		n++;
	}
	__atomic_store_n(&busy_reads, n, __ATOMIC_RELAXED);
	return NULL;
}

static void *sync_main(void *p)
{
	synchronize_srcu(p);
	return NULL;
}

static void test_signal_handler_reader(void)
{
	struct sigaction sa;
	pthread_t t, s;
	int misuse_before = (int)lrcu_misuse_count();

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = sig_handler;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);

	/* 1. A handler's section on a thread that never used SRCU, held. */
	__atomic_store_n(&target_stop, 0, __ATOMIC_RELAXED);
	pthread_create(&t, NULL, idle_target, NULL);
	/* TSan may lose a signal sent to a thread that has not started. */
	if (!wait_flag(&target_running, 60))
		printf("Bail out! the target thread did not start\n"), exit(1);
	__atomic_store_n(&sig_mode, 1, __ATOMIC_RELEASE);	/* pairs with the handler */
	pthread_kill(t, SIGUSR1);
	ok(wait_flag(&sig_in, 60), "a signal handler enters a section (the thread's first SRCU use)");
	pthread_create(&s, NULL, sync_main, &s_sig);
	sleep_ms(50);
	watchdog_arm("synchronize_srcu() after the handler's section", 60);
	set_flag(&sig_leave);
	pthread_join(s, NULL);
	ok(watchdog_done() && flag(&sig_leaving),
	   "synchronize_srcu() waited for the handler's section");

	/* 2. Handlers nested into a reader's own lock and unlock, many times. */
	__atomic_store_n(&sig_mode, 0, __ATOMIC_RELEASE);
	set_flag(&target_stop);
	pthread_join(t, NULL);
	__atomic_store_n(&target_stop, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&sig_count, 0, __ATOMIC_RELAXED);
	pthread_create(&t, NULL, busy_target, NULL);
	{
		double end = now_s() + (getenv("SAN") && *getenv("SAN") ? 0.5 : 1.0);
		int n = 0, seen;

		/* One signal at a time (pending ones would merge), each sent
		 * once the last was handled. */
		while (now_s() < end) {
			pthread_kill(t, SIGUSR1);
			n++;
			do
				seen = __atomic_load_n(&sig_count, __ATOMIC_RELAXED);
			while (seen < n && now_s() < end);
		}
	}
	set_flag(&target_stop);
	pthread_join(t, NULL);
	diag("%d signal-handler sections interrupted %ld reads",
	     __atomic_load_n(&sig_count, __ATOMIC_RELAXED), __atomic_load_n(&busy_reads, __ATOMIC_RELAXED));
	watchdog_arm("synchronize_srcu() after signal-handler sections", 60);
	synchronize_srcu(&s_sig);
	synchronize_srcu(&s_other);
	ok(watchdog_done(), "grace periods still complete: no count was lost to a handler");
	{
		struct lrcu_srcu_stats st;

		lrcu_srcu_get_stats(&s_sig, &st);
		ok(st.readers[0] == 0 && st.readers[1] == 0 && lrcu_misuse_count() == (unsigned long)misuse_before,
		   "no section left open, no misuse reported (%lu %lu)", st.readers[0], st.readers[1]);
	}
}

/* ------------------------------------------------------------------ */
/* A small pipeline torture: a retired object is never seen by a reader. */

struct obj {
	int alive;			/* 1 until retired; atomic */
	struct rcu_head rh;
	struct obj *next;		/* zombie list (updater only) */
};

static struct obj *__rcu cur_obj;
static struct srcu_struct *pipe_ss;
static int pipe_stop;
static long pipe_bad, pipe_reads;

static void retire_cb(struct rcu_head *rh)
{
	/* After a grace period: no reader holds it.  (Freed at the end, so a
	 * broken SRCU shows as a counted error, not only as an ASan report.) */
	__atomic_store_n(&container_of(rh, struct obj, rh)->alive, 0, __ATOMIC_RELAXED);
}

static void *pipe_reader(void *p)
{
	unsigned long seed = (unsigned long)p;

	while (!flag(&pipe_stop)) {
		int idx = srcu_read_lock(pipe_ss);
		struct obj *o = srcu_dereference(cur_obj, pipe_ss);

		seed = seed * 6364136223846793005UL + 1;
		if (!(seed >> 60))
			sleep_ms(1);		/* SRCU readers may sleep */
		else if (!((seed >> 50) & 7))
			sched_yield();
		if (o && !__atomic_load_n(&o->alive, __ATOMIC_RELAXED))
			__atomic_fetch_add(&pipe_bad, 1, __ATOMIC_RELAXED);
		srcu_read_unlock(pipe_ss, idx);
		__atomic_fetch_add(&pipe_reads, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

static void test_pipeline(void)
{
	struct obj *zombies = NULL, *o, *old;
	pthread_t r[3];
	double end;
	long i, n = 0;

	pipe_ss = malloc(sizeof(*pipe_ss));
	init_srcu_struct(pipe_ss);
	for (i = 0; i < 3; i++)
		pthread_create(&r[i], NULL, pipe_reader, (void *)(i + 1));
	end = now_s() + (getenv("SAN") && *getenv("SAN") ? 1.0 : 2.0);
	while (now_s() < end) {
		o = calloc(1, sizeof(*o));
		o->alive = 1;
		old = rcu_dereference_protected(cur_obj, 1);
		rcu_assign_pointer(cur_obj, o);
		if (!old)
			continue;
		old->next = zombies;
		zombies = old;
		switch (n++ % 4) {
		case 0: synchronize_srcu(pipe_ss); retire_cb(&old->rh); break;
		case 1: synchronize_srcu_expedited(pipe_ss); retire_cb(&old->rh); break;
		case 2: call_srcu(pipe_ss, &old->rh, retire_cb); break;
		default: {
			unsigned long c = start_poll_synchronize_srcu(pipe_ss);

			while (!poll_state_synchronize_srcu(pipe_ss, c))
				sched_yield();
			retire_cb(&old->rh);
		}
		}
	}
	set_flag(&pipe_stop);
	for (i = 0; i < 3; i++)
		pthread_join(r[i], NULL);
	srcu_barrier(pipe_ss);
	ok(!__atomic_load_n(&pipe_bad, __ATOMIC_RELAXED),
	   "pipeline: %ld reads, %ld retirements (sync, expedited, call_srcu, polled): no "
	   "reader saw a retired object (%ld did)", pipe_reads, n, pipe_bad);
	while ((o = zombies)) {
		zombies = o->next;
		free(o);
	}
	free(rcu_dereference_protected(cur_obj, 1));
	cleanup_srcu_struct(pipe_ss);
	free(pipe_ss);
}

/* ------------------------------------------------------------------ */
/* Many domains at once */

static struct srcu_struct *many;
static int many_n;

static void *many_reader(void *p)
{
	long off = (long)p;
	int i;

	for (i = 0; i < many_n; i++) {
		struct srcu_struct *ssp = &many[(i + off) % many_n];
		int idx = srcu_read_lock(ssp);

		srcu_read_unlock(ssp, idx);
	}
	return NULL;
}

static void test_many_domains(void)
{
	int n = scale(4000), i, distinct = 1, shared = 0;
	unsigned long *cookies = calloc((size_t)n, sizeof(*cookies));
	struct lrcu_srcu_stats st;
	pthread_t t[2];

	many = calloc((size_t)n, sizeof(*many));
	many_n = n;
	for (i = 0; i < n; i++)
		init_srcu_struct(&many[i]);
	for (i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, many_reader, (void *)(long)(i * n / 2));
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	for (i = 0; i < n; i++) {
		lrcu_srcu_get_stats(&many[i], &st);
		shared += st.id == LRCU_SRCU_ID_SHARED;
		if (i && st.id == many[i - 1].srcu_id)
			distinct = 0;
	}
	ok(distinct && !shared, "%d domains alive at once, each with its own id", n);
	watchdog_arm("start_poll_synchronize_srcu() on every domain at once", 120);
	for (i = 0; i < n; i++)
		cookies[i] = start_poll_synchronize_srcu(&many[i]);
	for (i = 0; i < n; i++)
		while (!poll_state_synchronize_srcu(&many[i], cookies[i]))
			sleep_ms(1);
	ok(watchdog_done(), "the srcu_worker drove %d domains' grace periods at once", n);
	for (i = 0; i < n; i++)
		cleanup_srcu_struct(&many[i]);
	free(many);
	free(cookies);
}

/* More domains than per-thread ids: the rest use shared counters. */
static void test_past_the_ids(void)
{
	int n = (int)(LRCU_SRCU_MAX_IDS - LRCU_SRCU_PER_PAGE) + 8, i, first_shared = -1;
	struct srcu_struct *d = calloc((size_t)n, sizeof(*d));
	struct lrcu_srcu_stats st;
	struct holder h;

	for (i = 0; i < n; i++) {
		init_srcu_struct(&d[i]);
		if (first_shared < 0 && d[i].srcu_id == LRCU_SRCU_ID_SHARED)
			first_shared = i;
	}
	ok(first_shared >= 0, "past %lu domains, new ones fall back to shared counters (from #%d)",
	   LRCU_SRCU_MAX_IDS - LRCU_SRCU_PER_PAGE, first_shared);
	if (first_shared >= 0) {
		struct srcu_struct *ssp = &d[n - 1];

		hold(&h, ssp, 100);
		lrcu_srcu_get_stats(ssp, &st);
		ok(st.readers[0] + st.readers[1] == 1, "a reader of such a domain is counted");
		watchdog_arm("synchronize_srcu() on a shared-counter domain", 60);
		synchronize_srcu(ssp);
		ok(watchdog_done() && flag(&h.leaving), "and waited for (it slept 100 ms)");
		pthread_join(h.tid, NULL);
	}
	for (i = 0; i < n; i++)
		cleanup_srcu_struct(&d[i]);
	free(d);
}

/* ------------------------------------------------------------------ */
/* Create and destroy in a loop */

static int loop_cbs;

static void loop_cb(struct rcu_head *rh)
{
	__atomic_fetch_add(&loop_cbs, 1, __ATOMIC_RELAXED);
	free(rh);
}

static void test_create_destroy_loop(void)
{
	int n = scale(2000), i, idx;
	unsigned long max_id = 0, min_id = ULONG_MAX, misuse = lrcu_misuse_count();

	for (i = 0; i < n; i++) {
		struct srcu_struct *ssp = malloc(sizeof(*ssp));

		if (init_srcu_struct(ssp))
			break;
		if (ssp->srcu_id > max_id)
			max_id = ssp->srcu_id;
		if (ssp->srcu_id < min_id)
			min_id = ssp->srcu_id;
		idx = srcu_read_lock(ssp);
		srcu_read_unlock(ssp, idx);
		if (i % 4 == 0)
			synchronize_srcu(ssp);
		if (i % 8 == 1) {
			call_srcu(ssp, malloc(sizeof(struct rcu_head)), loop_cb);
			srcu_barrier(ssp);
		}
		if (i % 16 == 2)
			(void)start_poll_synchronize_srcu(ssp);	/* left to the worker */
		cleanup_srcu_struct(ssp);
		free(ssp);
	}
	ok(i == n && __atomic_load_n(&loop_cbs, __ATOMIC_RELAXED) == (n + 6) / 8,
	   "%d domains created, used and destroyed (%d callbacks ran)", i,
	   __atomic_load_n(&loop_cbs, __ATOMIC_RELAXED));
	ok(max_id - min_id < 128, "their ids were reused (all within %lu..%lu)", min_id, max_id);
	ok(lrcu_misuse_count() == misuse, "no misuse reported");
}

/* ------------------------------------------------------------------ */
/* Short-lived reader threads */

static void *short_reader(void *p)
{
	int i = srcu_read_lock(&s_sig), j = srcu_read_lock((struct srcu_struct *)p);

	srcu_read_unlock((struct srcu_struct *)p, j);
	srcu_read_unlock(&s_sig, i);
	return NULL;
}

static void test_thread_churn(void)
{
	int n = scale(400), i;
	unsigned long misuse = lrcu_misuse_count();
	pthread_t t[8];

	for (i = 0; i < n; i += 8) {
		int k;

		for (k = 0; k < 8; k++)
			pthread_create(&t[k], NULL, short_reader, &s_other);
		for (k = 0; k < 8; k++)
			pthread_join(t[k], NULL);
	}
	watchdog_arm("synchronize_srcu() after thread churn", 60);
	synchronize_srcu(&s_sig);
	synchronize_srcu(&s_other);
	ok(watchdog_done() && lrcu_misuse_count() == misuse,
	   "%d short-lived reader threads: grace periods complete, nothing reported", n);
}

int main(void)
{
	test_signal_handler_reader();
	test_pipeline();
	test_many_domains();
	test_past_the_ids();
	test_create_destroy_loop();
	test_thread_churn();
	return done_testing();
}
