/* SPDX-License-Identifier: MIT */
/*
 * tests/rcu/register_full.c - a thread whose rcu_register_thread() failed
 * for lack of slots never reads unprotected: its next read-side section
 * (rcu or sched flavor) is a fatal "rcu: BUG:" naming the remedy, while a
 * thread that registers after a slot frees up reads normally.
 */
#include "rcu_test.h"

static char out[8192];

struct late_arg {
	const char *flavor;
	bool lock_stderr;
};

/* Child: nr_cpus=1; the main thread holds the only slot.  With
 * lock_stderr, another thread then holds stderr's stdio lock, so a report
 * written through stdio would never get out (nor would the process stop:
 * the alarm ends it instead). */
static void *late_reader(void *p)
{
	struct late_arg *a = p;
	int rc = rcu_register_thread();

	printf("register=%d errno=%s\n", rc, errno == ENOSPC ? "ENOSPC" : "other");
	fflush(stdout);
	if (a->lock_stderr)
		lock_stderr_for_good();
	if (!strcmp(a->flavor, "sched")) {
		rcu_read_lock_sched();
		rcu_read_unlock_sched();
	} else {
		rcu_read_lock();
		rcu_read_unlock();
	}
	printf("read unprotected and went on\n");
	fflush(stdout);
	return NULL;
}

static int child_full(const char *flavor, bool lock_stderr)
{
	struct late_arg a = { flavor, lock_stderr };
	pthread_t t;

	if (rcu_register_thread())
		return 3;
	pthread_create(&t, NULL, late_reader, &a);
	pthread_join(t, NULL);
	return 0;
}

/* Child: the registration fails, then succeeds once the slot is free.
 * flags[0]: set once the first attempt is made; flags[1]: the slot is free. */
static void *retry_reader(void *arg)
{
	int *flags = arg;

	printf("first=%d\n", rcu_register_thread());
	fflush(stdout);
	set_flag(&flags[0]);
	wait_flag(&flags[1], 60);
	printf("second=%d\n", rcu_register_thread());
	rcu_read_lock();
	rcu_read_unlock();
	rcu_unregister_thread();
	printf("read after a successful retry\n");
	return NULL;
}

static int child_retry(void)
{
	static int flags[2];
	pthread_t t;

	if (rcu_register_thread())
		return 3;
	pthread_create(&t, NULL, retry_reader, flags);
	/* The slot is freed only after the first attempt: on a busy machine
	 * the reader may not run within any fixed sleep. */
	wait_flag(&flags[0], 60);
	rcu_unregister_thread();
	set_flag(&flags[1]);
	pthread_join(t, NULL);
	return 0;
}

static void test_flavor(const char *flavor, const char *mode)
{
	int st = run_self(mode, flavor, "nr_cpus=1", out, sizeof(out));

	ok(strstr(out, "register=-1 errno=ENOSPC") != NULL,
	   "%s %s: the second thread's registration fails with ENOSPC", mode, flavor);
	ok(died_of(st, SIGABRT) && !strstr(out, "went on"),
	   "%s %s: its read-side section stops the program (status %#x)", mode, flavor, st);
	ok(strstr(out, "rcu: BUG: ") && strstr(out, "rcu_register_thread() failed") &&
	   strstr(out, "raise nr_cpus"),
	   "%s %s: with an rcu: BUG: line naming the failed registration and nr_cpus",
	   mode, flavor);
	if (!ok(!strstr(out, "WARNING"), "%s %s: not a mere warning", mode, flavor))
		diag_output(out);
}

int main(int argc, char **argv)
{
	int st;

	if (argc > 2 && !strcmp(argv[1], "full"))
		return child_full(argv[2], false);
	if (argc > 2 && !strcmp(argv[1], "full-stderr-locked"))
		return child_full(argv[2], true);
	if (argc > 1 && !strcmp(argv[1], "retry"))
		return child_retry();
	test_flavor("rcu", "full");
	test_flavor("sched", "full");
	/* Another thread holds stderr's lock: the stop is written with
	 * write(2) (no stdio), as the read side may run in a signal handler.
	 * (ThreadSanitizer's abort() flushes the stdio streams first: known
	 * from the build, LRCU_TSAN, not from the SAN variable of make.) */
#ifdef LRCU_TSAN
	for (int i = 0; i < 4; i++)
		skip("ThreadSanitizer's abort() flushes stdio (behind the lock held)");
#else
	test_flavor("rcu", "full-stderr-locked");
#endif
	st = run_self("retry", NULL, "nr_cpus=1", out, sizeof(out));
	if (!ok(exited_with(st, 0) && strstr(out, "first=-1") && strstr(out, "second=0") &&
		strstr(out, "read after a successful retry") && !strstr(out, "BUG"),
		"a thread that registers once a slot is free reads normally"))
		diag_output(out);
	return done_testing();
}
