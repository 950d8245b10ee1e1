/* SPDX-License-Identifier: MIT */
/*
 * tests/rcu/threads.c - threads as CPUs: registration and its capacity,
 * extended quiescent states (offline/online), rcu_is_watching(),
 * RCU_NONIDLE(), and threads registering, unregistering and going offline
 * while grace periods run (none may stall a grace period or break one).
 */
#include <rcu/rcutree.h>
#include "rcu_test.h"

static char out[8192];

/* ------------------------------------------------------------------ */
/* Capacity (child process with nr_cpus=4). */

static int cap_go, cap_tried;

static void *cap_fn(void *arg)
{
	int *rc = arg;

	*rc = rcu_register_thread();
	if (*rc)
		*rc = errno;
	__atomic_fetch_add(&cap_tried, 1, __ATOMIC_RELEASE);	/* pairs with child_capacity() */
	wait_flag(&cap_go, 60);
	if (*rc == 0)
		rcu_unregister_thread();
	return NULL;
}

static int child_capacity(void)
{
	pthread_t t[5];
	int rc[5], i, nok = 0, nfull = 0;

	for (i = 0; i < 5; i++)
		pthread_create(&t[i], NULL, cap_fn, &rc[i]);
	/* All five try while the slots are held (a slow thread would else
	 * find one freed); acquire pairs with cap_fn()'s increment. */
	while (__atomic_load_n(&cap_tried, __ATOMIC_ACQUIRE) < 5)
		sleep_ms(1);
	set_flag(&cap_go);
	for (i = 0; i < 5; i++) {
		pthread_join(t[i], NULL);
		nok += rc[i] == 0;
		nfull += rc[i] == ENOSPC;
	}
	printf("registered=%d full=%d\n", nok, nfull);
	/* After they left, a slot is free again. */
	printf("again=%d\n", rcu_register_thread());
	return 0;
}

static void test_capacity(void)
{
	int st = run_self("capacity", NULL, "nr_cpus=4", out, sizeof(out));

	ok(exited_with(st, 0) && strstr(out, "registered=4 full=1"),
	   "nr_cpus=4: four threads register, the fifth gets ENOSPC");
	ok(strstr(out, "all 4 thread slots are in use (nr_cpus=4)") != NULL,
	   "... with a message naming the limit");
	ok(strstr(out, "again=0") != NULL, "slots are reused after unregistration");
	if (!strstr(out, "again=0"))
		diag_output(out);
}

/* ------------------------------------------------------------------ */

static void test_watching(void)
{
	int calls = 0, watching_inside = 0;

	ok(!rcu_is_watching(), "an unregistered thread is not watched");
	ok(rcu_register_thread() == 0, "rcu_register_thread()");
	{
		int saved = dup(2), rc, err;

		freopen("/dev/null", "w", stderr);	/* the expected message */
		rc = rcu_register_thread();
		err = errno;
		fflush(stderr);
		dup2(saved, 2);
		close(saved);
		ok(rc == -1 && err == EBUSY, "registering twice: EBUSY");
	}
	ok(rcu_is_watching(), "a registered thread is watched");
	ok(lrcu_thread_slot() >= 2, "it holds a user slot (%d)", lrcu_thread_slot());
	rcu_thread_offline();
	ok(!rcu_is_watching(), "offline: not watched (extended quiescent state)");
	RCU_NONIDLE(({ calls++; watching_inside = rcu_is_watching(); }));
	ok(calls == 1 && watching_inside, "RCU_NONIDLE() runs its statement momentarily online");
	ok(!rcu_is_watching(), "... and returns to the extended quiescent state");
	rcu_thread_online();
	ok(rcu_is_watching(), "online again");
	RCU_NONIDLE(calls++);
	ok(calls == 2 && rcu_is_watching(), "RCU_NONIDLE() on an online thread just runs");
	ok(rcu_unregister_thread() == 0 && !rcu_is_watching(), "rcu_unregister_thread()");
	ok(rcu_unregister_thread() == -1, "unregistering an unregistered thread fails");
}

/* ------------------------------------------------------------------ */
/*
 * Where the reader words live: a registered thread's on its slot's line
 * of one array (grace periods read consecutive lines, not each thread's
 * TLS block), an unregistered thread's in its own TLS.
 */

static struct lrcu_rword *peer_rw;
static int peer_slot, peer_go;

static void *peer_fn(void *arg)
{
	(void)arg;
	rcu_register_thread();
	peer_rw = lrcu_reader.rw;
	peer_slot = lrcu_thread_slot();
	rcu_read_lock();	/* binds nothing new: still the slot's line */
	if (lrcu_reader.rw != peer_rw)
		peer_slot = -2;
	rcu_read_unlock();
	set_flag(&peer_go);
	rcu_unregister_thread();
	return NULL;
}

static void test_word_lines(void)
{
	struct lrcu_rword *mine;
	pthread_t t;
	int slot;

	rcu_register_thread();
	mine = lrcu_reader.rw;
	slot = lrcu_thread_slot();
	pthread_create(&t, NULL, peer_fn, NULL);
	wait_flag(&peer_go, 60);
	pthread_join(t, NULL);
	ok(mine != &lrcu_reader.own && peer_slot >= 0 && peer_slot != slot &&
	   (char *)peer_rw - (char *)mine ==
	   (long)(peer_slot - slot) * (long)sizeof(struct lrcu_rword),
	   "registered threads' reader words are their slots' lines of one array "
	   "(slots %d and %d)", slot, peer_slot);
	rcu_read_lock();
	ok(rcu_read_lock_held() &&
	   (__atomic_load_n(&mine->ctr[LRCU_PREEMPT], __ATOMIC_RELAXED) & LRCU_W_NEST_MASK) == 1,
	   "rcu_read_lock() counts in the slot's line");
	rcu_read_unlock();
	rcu_unregister_thread();
	ok(lrcu_reader.rw == &lrcu_reader.own,
	   "an unregistered thread's markers use its own words again");
}

/* ------------------------------------------------------------------ */
/* Churn: threads come, go, sleep offline, while an updater runs grace
 * periods and readers check a poisoned element. */

#define MAGIC 0xfeedL
struct elem {
	long magic;
};
static struct elem *__rcu cur;
static int stop, bad;

static void check_elem(int i)
{
	struct elem *e;

	rcu_read_lock();
	e = rcu_dereference(cur);
	if (e && READ_ONCE(e->magic) != MAGIC)
		__atomic_store_n(&bad, 1, __ATOMIC_RELAXED);
	if (i % 2)
		sched_yield();
	else
		nanosleep(&(struct timespec){ 0, 50000 }, NULL);	/* readers may block */
	if (e && READ_ONCE(e->magic) != MAGIC)
		__atomic_store_n(&bad, 1, __ATOMIC_RELAXED);
	rcu_read_unlock();
}

static void *churn_fn(void *arg)
{
	long id = (long)arg, n = 0;

	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
		if (rcu_register_thread())
			abort();
		for (int i = 0; i < 20; i++) {
			check_elem(i);
			if ((id + i) % 5 == 0) {
				rcu_thread_offline();
				sleep_ms(1);
				rcu_thread_online();
			}
			if ((id + i) % 7 == 0) {
				rcu_read_lock_sched();	/* join sched, then leave */
				rcu_read_unlock_sched();
				rcu_quiescent_state();
			}
		}
		rcu_unregister_thread();
		n++;
	}
	return (void *)n;
}

static void test_churn(void)
{
	pthread_t t[6];
	long i, gps, rounds = 0, n = scale(300);
	double t0 = now_s(), slowest = 0;

	for (i = 0; i < 6; i++)
		pthread_create(&t[i], NULL, churn_fn, (void *)i);
	/* At least n grace periods, and long enough for real overlap. */
	for (i = 0; i < n || now_s() - t0 < (getenv("SAN") && *getenv("SAN") ? 2.0 : 0.5); i++) {
		struct elem *e = malloc(sizeof(*e)), *old;
		double g = now_s();

		e->magic = MAGIC;
		old = rcu_dereference_protected(cur, 1);
		rcu_assign_pointer(cur, e);
		if (i % 2)
			synchronize_rcu();
		else
			synchronize_sched(), synchronize_rcu();
		if (now_s() - g > slowest)
			slowest = now_s() - g;
		if (old) {
			WRITE_ONCE(old->magic, 0);	/* poison: readers must be gone */
			free(old);
		}
	}
	gps = i;
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	for (i = 0; i < 6; i++) {
		void *r;

		pthread_join(t[i], &r);
		rounds += (long)r;
	}
	free(rcu_dereference_protected(cur, 1));
	RCU_INIT_POINTER(cur, NULL);
	ok(!bad, "%ld grace periods during %ld register/unregister rounds with offline "
	   "periods: no reader saw a poisoned element", gps, rounds);
	ok(rounds >= 6, "the threads did churn (%ld rounds in %.2fs)", rounds, now_s() - t0);
	/* Not a timing verdict: a stalled grace period would take forever. */
	ok(slowest < 30, "no grace period stalled (slowest %.3fs)", slowest);
}

/* ------------------------------------------------------------------ */
/* Readers in signal handlers nest inside the interrupted thread's own
 * sections (the read side is async-signal-safe). */

static long sig_reads;
static int sig_bad_nesting, sig_target_ready, sig_stop;

static void sig_reader(int sig)
{
	struct elem *e;

	(void)sig;
	check_elem(1);		/* a full read-side section, with a yield */
	/* A sched section too, possibly on an offline thread. */
	rcu_read_lock_sched();
	e = rcu_dereference_sched(cur);
	sched_yield();
	if (e && READ_ONCE(e->magic) != MAGIC)
		__atomic_store_n(&bad, 1, __ATOMIC_RELAXED);
	rcu_read_unlock_sched();
	__atomic_fetch_add(&sig_reads, 1, __ATOMIC_RELAXED);
}

static void *sig_target(void *arg)
{
	long n = 0;

	(void)arg;
	rcu_register_thread();
	signal(SIGUSR1, sig_reader);
	set_flag(&sig_target_ready);
	while (!__atomic_load_n(&sig_stop, __ATOMIC_ACQUIRE)) {
		rcu_read_lock();
		rcu_read_lock();
		rcu_read_unlock();
		if (!rcu_read_lock_held())
			__atomic_store_n(&sig_bad_nesting, 1, __ATOMIC_RELAXED);
		rcu_read_unlock();
		if (rcu_read_lock_held())
			__atomic_store_n(&sig_bad_nesting, 1, __ATOMIC_RELAXED);
		if (++n % 64 == 0)
			check_elem((int)n);
		if (n % 256 == 0) {
			/* Offline for a while: handlers still read safely. */
			rcu_thread_offline();
			sleep_ms(1);
			rcu_thread_online();
			if (!rcu_is_watching())
				__atomic_store_n(&sig_bad_nesting, 1, __ATOMIC_RELAXED);
		}
	}
	rcu_unregister_thread();
	return NULL;
}

static void test_signal_readers(void)
{
	unsigned long misuse = lrcu_misuse_count();
	pthread_t t;
	long i, n = scale(2000);

	__atomic_store_n(&stop, 0, __ATOMIC_RELEASE);
	pthread_create(&t, NULL, sig_target, NULL);
	wait_flag(&sig_target_ready, 60);
	for (i = 0; i < n; i++) {
		struct elem *e = malloc(sizeof(*e)), *old;

		e->magic = MAGIC;
		old = rcu_dereference_protected(cur, 1);
		rcu_assign_pointer(cur, e);
		pthread_kill(t, SIGUSR1);
		synchronize_rcu();
		synchronize_sched();
		if (old) {
			WRITE_ONCE(old->magic, 0);	/* poison: readers must be gone */
			free(old);
		}
	}
	__atomic_store_n(&sig_stop, 1, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
	free(rcu_dereference_protected(cur, 1));
	RCU_INIT_POINTER(cur, NULL);
	ok(!bad && !sig_bad_nesting, "%ld signal-handler readers (rcu and sched) interrupting "
	   "nested sections and offline periods: nesting intact, no poisoned element seen",
	   __atomic_load_n(&sig_reads, __ATOMIC_RELAXED));
	ok(lrcu_misuse_count() == misuse, "handlers reading on an offline thread are legal");
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "capacity"))
		return child_capacity();
	test_capacity();
	test_watching();
	test_word_lines();
	test_churn();
	test_signal_readers();
	return done_testing();
}
