/* SPDX-License-Identifier: MIT */
/*
 * lock_rules.c - in a debug build (make DEBUG=1), a write of a field
 * declared __guarded_by(lock) in rcu/src/internal.h or srcu_internal.h
 * without that lock held stops the program with a message naming the
 * field and the lock (rcu/src/lockdep.h); with the lock held, by this
 * thread, it goes through.  Each case runs in a fresh copy of the program
 * (run_self()).  Other builds: a TAP SKIP.
 *
 * By hand, from the top of the tree:
 *   make DEBUG=1 lib
 *   cc -std=gnu11 -O2 -g -DLRCU_DEBUG -DCONFIG_PROVE_RCU -D_GNU_SOURCE \
 *      -Ircu/include -Itests/lib -pthread tests/rcu/lock_rules.c \
 *      build/debug/librcu.a -o build/debug/lock_rules && build/debug/lock_rules
 */
#include "rcu_test.h"
#include <rcu/srcu.h>
#include "../../rcu/src/srcu_internal.h"

#ifndef LRCU_DEBUG
int main(void)
{
	skip_all("lock rules are checked in debug builds only (make DEBUG=1)");
	return 0;
}
#else

static struct lrcu_node node;
static struct lrcu_data data;

static void *hold_node_lock(void *arg)
{
	lrcu__node_lock(&node);
	set_flag(arg);
	for (;;)
		pause();
	return NULL;
}

/* The cases: each runs in a child, which prints "finished" if it got
 * through.  expect: NULL if it must get through, else what the
 * message must say. */
static void node_locked(void)
{
	lrcu__node_lock(&node);
	WRITE_ONCE_LOCKED(&node.lock, node.qsmask, 1UL);
	WRITE_LOCKED(&node.lock, node.qsmaskinit, 1UL);
	lrcu__node_unlock(&node);
}

static void node_unlocked(void)
{
	WRITE_ONCE_LOCKED(&node.lock, node.qsmask, 1UL);
}

static void node_locked_elsewhere(void)
{
	static int held;
	pthread_t t;

	pthread_create(&t, NULL, hold_node_lock, &held);
	wait_flag(&held, 20);
	WRITE_LOCKED(&node.lock, node.qsmaskinit, 1UL);	/* locked, not by us */
}

static void cblock_locked(void)
{
	pthread_mutex_init(&data.cblock, NULL);
	pthread_mutex_lock(&data.cblock);
	WRITE_LOCKED(&data.cblock, data.n_cbs_queued, data.n_cbs_queued + 1);
	pthread_mutex_unlock(&data.cblock);
}

static void cblock_unlocked(void)
{
	pthread_mutex_init(&data.cblock, NULL);
	WRITE_LOCKED(&data.cblock, data.n_cbs_queued, data.n_cbs_queued + 1);
}

static void cblock_after_unlock(void)
{
	pthread_mutex_init(&data.cblock, NULL);
	pthread_mutex_lock(&data.cblock);
	pthread_mutex_unlock(&data.cblock);
	WRITE_ONCE_LOCKED(&data.cblock, data.cb_owner, LRCU_CBO_NOCB);
}

/* The library's own write sites: an SRCU request without sup->lock. */
static void srcu_request_unlocked(void)
{
	static struct srcu_struct ss;
	struct lrcu_srcu_sup *sup;

	if (init_srcu_struct(&ss))
		exit(3);
	sup = lrcu__srcu_sup_get(&ss);
	lrcu__srcu_request(sup, sup->gp_seq + 8, false);
}

static void srcu_request_locked(void)
{
	static struct srcu_struct ss;
	struct lrcu_srcu_sup *sup;

	if (init_srcu_struct(&ss))
		exit(3);
	sup = lrcu__srcu_sup_get(&ss);
	pthread_mutex_lock(&sup->lock);
	lrcu__srcu_request(sup, sup->gp_seq + 8, false);
	pthread_mutex_unlock(&sup->lock);
	cleanup_srcu_struct(&ss);
}

/* A fork() child's thread holds the locks its parent's thread took. */
static void fork_child_keeps_lock(void)
{
	int status;
	pid_t pid;

	if (rcu_init())
		exit(3);
	lrcu__node_lock(&node);
	pid = fork();
	if (pid == 0) {
		WRITE_LOCKED(&node.lock, node.qsmaskinit, 2UL);
		lrcu__node_unlock(&node);
		lrcu__node_lock(&node);	/* its own, with its own id */
		WRITE_LOCKED(&node.lock, node.qsmaskinit, 3UL);
		lrcu__node_unlock(&node);
		_exit(0);
	}
	lrcu__node_unlock(&node);
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !exited_with(status, 0))
		exit(4);
}

static const struct {
	const char *what;
	void (*fn)(void);
	const char *expect;
} cases[] = {
	{ "rcu_node field written with its lock held", node_locked, NULL },
	{ "rcu_node field written without its lock", node_unlocked,
	  "lock rule broken: node.qsmask written without node.lock held" },
	{ "rcu_node field written while another thread holds its lock",
	  node_locked_elsewhere,
	  "lock rule broken: node.qsmaskinit written without node.lock held" },
	{ "cblock field written with cblock held", cblock_locked, NULL },
	{ "cblock field written without cblock", cblock_unlocked,
	  "lock rule broken: data.n_cbs_queued written without data.cblock held" },
	{ "cblock field written after the unlock", cblock_after_unlock,
	  "lock rule broken: data.cb_owner written without data.cblock held" },
	{ "srcu request (the library's own write) without sup->lock",
	  srcu_request_unlocked,
	  "lock rule broken: sup->gp_seq_needed written without sup->lock held" },
	{ "srcu request with sup->lock held", srcu_request_locked, NULL },
	{ "a fork() child writes under a lock its parent's thread took",
	  fork_child_keeps_lock, NULL },
};

int main(int argc, char **argv)
{
	static char out[8192];
	char arg[16];
	size_t i;
	int status;

	if (argc > 2) {			/* a child: run one case */
		i = strtoul(argv[2], NULL, 10);
		if (i >= LRCU_ARRAY_SIZE(cases))
			return 3;
		cases[i].fn();
		printf("finished\n");
		return 0;
	}
	for (i = 0; i < LRCU_ARRAY_SIZE(cases); i++) {
		snprintf(arg, sizeof(arg), "%zu", i);
		status = run_self("case", arg, NULL, out, sizeof(out));
		if (!cases[i].expect) {
			if (!ok(exited_with(status, 0) && strstr(out, "finished") &&
				!strstr(out, "lock rule broken"), "%s: goes through",
				cases[i].what))
				diag_output(out);
		} else {
			if (!ok(died_of(status, SIGABRT) && strstr(out, cases[i].expect) &&
				!strstr(out, "finished"), "%s: stops with \"%s\"",
				cases[i].what, cases[i].expect))
				diag_output(out);
		}
	}
	return done_testing();
}
#endif /* LRCU_DEBUG */
