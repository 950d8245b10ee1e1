/* SPDX-License-Identifier: MIT */
/*
 * test_rcu_register_full.c - a thread whose rcu_register_thread() failed
 * for lack of slots never reads unprotected: its next read-side section
 * (rcu or sched flavor) is a fatal "rcu: BUG:" naming the remedy, while a
 * thread that registers after a slot frees up reads normally.
 */
#include "rcu_test.h"

static char out[8192];

/* Child: nr_cpus=1; the main thread holds the only slot. */
static void *late_reader(void *arg)
{
	const char *flavor = arg;
	int rc = rcu_register_thread();

	printf("register=%d errno=%s\n", rc, errno == ENOSPC ? "ENOSPC" : "other");
	fflush(stdout);
	if (!strcmp(flavor, "sched")) {
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

static int child_full(const char *flavor)
{
	pthread_t t;

	if (rcu_register_thread())
		return 3;
	pthread_create(&t, NULL, late_reader, (void *)flavor);
	pthread_join(t, NULL);
	return 0;
}

/* Child: the registration fails, then succeeds once the slot is free. */
static void *retry_reader(void *arg)
{
	int *go = arg;

	printf("first=%d\n", rcu_register_thread());
	fflush(stdout);
	wait_flag(go, 60);
	printf("second=%d\n", rcu_register_thread());
	rcu_read_lock();
	rcu_read_unlock();
	rcu_unregister_thread();
	printf("read after a successful retry\n");
	return NULL;
}

static int child_retry(void)
{
	static int go;
	pthread_t t;

	if (rcu_register_thread())
		return 3;
	pthread_create(&t, NULL, retry_reader, &go);
	sleep_ms(50);	/* let the first attempt fail (order does not matter) */
	rcu_unregister_thread();
	set_flag(&go);
	pthread_join(t, NULL);
	return 0;
}

static void test_flavor(const char *flavor)
{
	int st = run_self("full", flavor, "nr_cpus=1", out, sizeof(out));

	ok(strstr(out, "register=-1 errno=ENOSPC") != NULL,
	   "%s: the second thread's registration fails with ENOSPC", flavor);
	ok(died_of(st, SIGABRT) && !strstr(out, "went on"),
	   "%s: its read-side section stops the program (status %#x)", flavor, st);
	ok(strstr(out, "rcu: BUG: ") && strstr(out, "rcu_register_thread() failed") &&
	   strstr(out, "raise nr_cpus"),
	   "%s: with an rcu: BUG: line naming the failed registration and nr_cpus", flavor);
	if (!ok(!strstr(out, "WARNING"), "%s: not a mere warning", flavor))
		diag_output(out);
}

int main(int argc, char **argv)
{
	int st;

	if (argc > 2 && !strcmp(argv[1], "full"))
		return child_full(argv[2]);
	if (argc > 1 && !strcmp(argv[1], "retry"))
		return child_retry();
	test_flavor("rcu");
	test_flavor("sched");
	st = run_self("retry", NULL, "nr_cpus=1", out, sizeof(out));
	if (!ok(exited_with(st, 0) && strstr(out, "first=-1") && strstr(out, "second=0") &&
		strstr(out, "read after a successful retry") && !strstr(out, "BUG"),
		"a thread that registers once a slot is free reads normally"))
		diag_output(out);
	return done_testing();
}
