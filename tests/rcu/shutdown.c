/* SPDX-License-Identifier: MIT */
/*
 * tests/rcu/shutdown.c - rcu_shutdown(): pending callbacks of every flavor
 * and SRCU domain run, the library's threads are stopped and joined, it
 * refuses while another thread is registered, and the library starts
 * again on its next use.  tests/rcu/shutdown_leaks.t runs the "use" child under
 * valgrind (and LeakSanitizer) to check that nothing is left allocated.
 */
#include <dirent.h>
#include <rcu/srcu.h>
#include "rcu_test.h"

#define NOBJ	100

static char out[16384];
static int freed;

struct obj {
	int v;
	struct rcu_head rh;
};

static void obj_free(struct rcu_head *rh)
{
	free(container_of(rh, struct obj, rh));
	__atomic_fetch_add(&freed, 1, __ATOMIC_RELAXED);	/* read after a barrier */
}

DEFINE_STATIC_SRCU(static_ss);

/* One scan of /proc/self/task: the threads that carry a library thread's
 * name; *sig sums the tids seen, so that two scans can be compared. */
static int scan_threads(long *sig)
{
	static const char *const names[] = {
		"rcu_preempt", "rcu_sched", "rcu_cb_preempt", "rcu_cb_sched", "srcu_worker",
	};
	DIR *d = opendir("/proc/self/task");
	char path[300], comm[32];
	struct dirent *e;
	size_t i;
	FILE *f;
	int n = 0;

	*sig = 0;
	while (d && (e = readdir(d))) {
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm", e->d_name);
		if (e->d_name[0] == '.' || !(f = fopen(path, "r")))
			continue;
		*sig += 1000003L * atol(e->d_name) + 1;
		if (fgets(comm, sizeof(comm), f))
			for (i = 0; i < ARRAY_SIZE(names); i++)
				n += !strncmp(comm, names[i], strlen(names[i])) &&
				     comm[strlen(names[i])] == '\n';
		fclose(f);
	}
	if (d)
		closedir(d);
	return n;
}

/* Threads of this process that carry a library thread's name.  A readdir
 * of /proc/self/task is no snapshot: a thread that exits during the scan
 * (a joined thread is reaped a little after pthread_join() returns) can
 * make it skip a live one, and the count come out one short.  So scan
 * until two scans in a row see the same threads (bounded). */
static int nr_threads(void)
{
	long sig, prev = -1;
	int n = 0, tries;

	for (tries = 0; tries < 100; tries++) {
		n = scan_threads(&sig);
		if (sig == prev)
			break;
		prev = sig;
	}
	return n;
}

static void *worker(void *arg)
{
	struct obj *o;
	int i;

	(void)arg;
	rcu_register_thread();
	for (i = 0; i < NOBJ; i++) {
		o = malloc(sizeof(*o));
		rcu_read_lock();
		rcu_read_unlock();
		if (i % 3 == 0)
			call_rcu(&o->rh, obj_free);
		else if (i % 3 == 1)
			call_rcu_sched(&o->rh, obj_free);
		else
			call_srcu(&static_ss, &o->rh, obj_free);
	}
	synchronize_rcu();
	rcu_unregister_thread();
	return NULL;
}

/* Child "use": everything a program does, then rcu_shutdown() with
 * callbacks still queued; again after a restart.  With "no-shutdown" the
 * same without the shutdown (the leak checkers' control). */
static int child_use(bool shutdown)
{
	struct srcu_struct *dyn = malloc(sizeof(*dyn));
	struct rcu_head head;
	pthread_t t[3];
	struct obj *o;
	int i, before = nr_threads(), running;

	rcu_register_thread();
	init_srcu_struct(dyn);
	for (i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	for (i = 0; i < NOBJ; i++) {
		o = malloc(sizeof(*o));
		if (i % 2)
			kfree_rcu(o, rh);
		else
			call_srcu(dyn, &o->rh, obj_free);
	}
	srcu_barrier(dyn);
	cleanup_srcu_struct(dyn);
	free(dyn);
	init_rcu_head(&head);	/* a debug object never destroyed */
	running = nr_threads();
	if (!shutdown)
		return 0;
	printf("shutdown=%d\n", rcu_shutdown());
	printf("threads: before=%d running=%d after=%d\n", before, running, nr_threads());
	printf("freed=%d of %d\n", __atomic_load_n(&freed, __ATOMIC_RELAXED), 3 * NOBJ + NOBJ / 2);
	printf("slot=%d\n", lrcu_thread_slot());
	/* The library starts again on its next use. */
	rcu_register_thread();
	o = malloc(sizeof(*o));
	call_rcu(&o->rh, obj_free);
	synchronize_rcu();
	synchronize_srcu(&static_ss);
	rcu_barrier();
	printf("again: freed=%d restarted=%d\n", __atomic_load_n(&freed, __ATOMIC_RELAXED),
	       nr_threads() > before);
	printf("shutdown=%d\n", rcu_shutdown());
	printf("threads: after=%d\n", nr_threads());
	fflush(stdout);
	return 0;
}

static void *stay_registered(void *arg)
{
	rcu_register_thread();
	set_flag(arg);
	for (;;)
		pause();
	return NULL;
}

/* Child "busy": another thread still registered. */
static int child_busy(void)
{
	static int registered;
	pthread_t t;
	int rc;

	rcu_register_thread();
	pthread_create(&t, NULL, stay_registered, &registered);
	wait_flag(&registered, 60);
	rc = rcu_shutdown();
	printf("shutdown=%d errno=%s\n", rc, errno == EBUSY ? "EBUSY" : "other");
	synchronize_rcu();
	printf("still works\n");
	fflush(stdout);
	_exit(0);
}

int main(int argc, char **argv)
{
	int st;

	if (argc > 1 && !strcmp(argv[1], "use"))
		return child_use(true);
	if (argc > 1 && !strcmp(argv[1], "no-shutdown"))
		return child_use(false);
	if (argc > 1 && !strcmp(argv[1], "busy"))
		return child_busy();

	alarm(120);
	st = run_self("use", NULL, "debug_objects=1", out, sizeof(out));
	ok(exited_with(st, 0) && strstr(out, "shutdown=0\n") && strstr(out, "slot=-1"),
	   "rcu_shutdown() returns 0 with callbacks queued and unregisters the caller");
	ok(strstr(out, "freed=350 of 350") != NULL,
	   "every pending callback ran first (call_rcu, call_rcu_sched, kfree_rcu, call_srcu)");
	{
		int before = -1, running = -1, after = -2;
		const char *p = strstr(out, "threads: before=");

		if (p)
			sscanf(p, "threads: before=%d running=%d after=%d", &before, &running, &after);
		ok(before == 0 && running == 5 && after == 0,
		   "the library's threads (2 GP, 2 callback, srcu_worker) are stopped and joined "
		   "(%d before, %d running, %d after)", before, running, after);
	}
	ok(strstr(out, "again: freed=351 restarted=1") && strstr(out, "threads: after="),
	   "the library starts again on its next use, and shuts down again");
	if (!strstr(out, "again: freed=351"))
		diag_output(out);

	st = run_self("busy", NULL, NULL, out, sizeof(out));
	if (!ok(exited_with(st, 0) && strstr(out, "shutdown=-1 errno=EBUSY") &&
		strstr(out, "1 other thread is still registered") && strstr(out, "still works"),
		"with another thread registered it refuses (EBUSY, a message) and stops nothing"))
		diag_output(out);
	return done_testing();
}
