/* SPDX-License-Identifier: MIT */
/*
 * tests/rcu/lockdep_deps.c - lock-dependency checking (<rcu/lockdep.h>),
 * built here with CONFIG_PROVE_LOCKING whatever the library's build:
 * each case runs in a fresh copy of the program (the checker stops after
 * its first report) on one thread, so nothing can actually deadlock, and
 * says what the checker reported.  Readers of SRCU domains nested both
 * ways round are no deadlock (recursive readers never wait for one
 * another); a wait for a domain inside a reader of another, both ways
 * round, is; so are a cycle through a mutex, one through an rwsem's
 * shared (non-recursive) side, a wait for the domain the thread reads
 * (recursive locking), and one through Tasks Trace; a reader that only
 * nests its own domain is nothing; a forgotten class takes its
 * dependencies with it.
 */
#define CONFIG_PROVE_LOCKING 1
#include <rcu/lockdep.h>
#include <rcu/rcupdate_trace.h>
#include "srcu_test.h"

DEFINE_STATIC_SRCU(da);
DEFINE_STATIC_SRCU(db);
static struct lockdep_map mut = STATIC_LOCKDEP_MAP_INIT("mut");
static struct lockdep_map rwsem = STATIC_LOCKDEP_MAP_INIT("rwsem");

static void rr_nesting(void)		/* A(B) and B(A), readers only */
{
	int a = srcu_read_lock(&da), b = srcu_read_lock(&db);

	srcu_read_unlock(&db, b);
	srcu_read_unlock(&da, a);
	b = srcu_read_lock(&db);
	a = srcu_read_lock(&da);
	srcu_read_unlock(&da, a);
	srcu_read_unlock(&db, b);
}

static void ab_ba_sync(void)		/* reader A waits for B, reader B for A */
{
	int i = srcu_read_lock(&da);

	synchronize_srcu(&db);
	srcu_read_unlock(&da, i);
	i = srcu_read_lock(&db);
	synchronize_srcu(&da);
	srcu_read_unlock(&db, i);
}

static void one_way_sync(void)		/* reader A waits for B; B's readers nest A */
{
	int i = srcu_read_lock(&da), j;

	synchronize_srcu(&db);
	srcu_read_unlock(&da, i);
	j = srcu_read_lock(&db);
	i = srcu_read_lock(&da);
	srcu_read_unlock(&da, i);
	srcu_read_unlock(&db, j);
}

static void nested_self(void)		/* A inside A, twice */
{
	int i = srcu_read_lock(&da), j = srcu_read_lock(&da);

	srcu_read_unlock(&da, j);
	srcu_read_unlock(&da, i);
	synchronize_srcu(&da);		/* outside: fine */
}

static void self_wait(void)		/* A waits for A inside A */
{
	int i = srcu_read_lock(&da);

	synchronize_srcu(&da);		/* reported, then the library's BUG */
	srcu_read_unlock(&da, i);
}

static void mutex_cycle(void)		/* reader A takes mut; mut held waits for A */
{
	int i = srcu_read_lock(&da);

	lock_map_acquire(&mut);
	lock_map_release(&mut);
	srcu_read_unlock(&da, i);
	lock_map_acquire(&mut);
	synchronize_srcu(&da);
	lock_map_release(&mut);
}

static void rwsem_cycle(void)		/* reader A takes rwsem shared; writer waits for A */
{
	int i = srcu_read_lock(&da);

	lock_map_acquire_read(&rwsem);
	lock_map_release(&rwsem);
	srcu_read_unlock(&da, i);
	lock_map_acquire(&rwsem);
	synchronize_srcu(&da);
	lock_map_release(&rwsem);
}

static void trace_cycle(void)		/* trace reader waits for A; reader A for trace */
{
	int i;

	rcu_read_lock_trace();
	synchronize_srcu(&da);
	rcu_read_unlock_trace();
	i = srcu_read_lock(&da);
	synchronize_rcu_tasks_trace();
	srcu_read_unlock(&da, i);
}

static void forgotten(void)		/* the first half of ab_ba_sync() on a domain
					 * forgotten and re-made at the same address */
{
	static struct srcu_struct dyn;
	int i;

	init_srcu_struct(&dyn);
	i = srcu_read_lock(&da);
	synchronize_srcu(&dyn);
	srcu_read_unlock(&da, i);
	cleanup_srcu_struct(&dyn);
	init_srcu_struct(&dyn);
	i = srcu_read_lock(&dyn);
	synchronize_srcu(&da);
	srcu_read_unlock(&dyn, i);
	cleanup_srcu_struct(&dyn);
}

static const struct {
	const char *name;
	void (*fn)(void);
	const char *want;	/* the splat's WARNING line, or NULL: none */
	const char *what;
} cases[] = {
	{ "rr", rr_nesting, NULL, "readers of A and B nested both ways round: no report" },
	{ "abba", ab_ba_sync, "circular locking dependency",
	  "a reader of A waits for B, a reader of B for A: circular dependency" },
	{ "oneway", one_way_sync, NULL,
	  "a reader of A waits for B while B's readers nest A: no cycle that can deadlock" },
	{ "self", nested_self, NULL, "A nested in A, a wait for A outside: no report" },
	{ "selfwait", self_wait, "recursive locking",
	  "synchronize_srcu(A) inside a reader of A: recursive locking" },
	{ "mutex", mutex_cycle, "circular locking dependency",
	  "a reader of A takes a mutex that is held across synchronize_srcu(A)" },
	{ "rwsem", rwsem_cycle, "circular locking dependency",
	  "a reader of A takes an rwsem shared, its writer waits for A" },
	{ "trace", trace_cycle, "circular locking dependency",
	  "a Tasks Trace reader waits for A, a reader of A for Tasks Trace" },
	{ "forget", forgotten, NULL,
	  "a domain cleaned up and re-made at the same address starts with no dependencies" },
};
#define NCASES	(sizeof(cases) / sizeof(cases[0]))

int main(int argc, char **argv)
{
	static char buf[16384];
	unsigned int i;

	if (argc > 1) {
		for (i = 0; i < NCASES; i++)
			if (!strcmp(argv[1], cases[i].name))
				cases[i].fn();
		printf("splats %lu\n", lrcu_lockdep_splats());
		return 0;
	}
	for (i = 0; i < NCASES; i++) {
		char want[96];
		int st = run_self(cases[i].name, "", NULL, buf, sizeof(buf));
		bool ok_;

		snprintf(want, sizeof(want), "WARNING: possible %s detected", cases[i].want ?
			 cases[i].want : "");
		if (!cases[i].want)
			ok_ = exited_with(st, 0) && strstr(buf, "splats 0\n") &&
			      !strstr(buf, "WARNING: possible");
		else if (!strcmp(cases[i].name, "selfwait"))
			ok_ = died_of(st, SIGABRT) && strstr(buf, want) && strstr(buf, "rcu: BUG");
		else
			ok_ = exited_with(st, 0) && strstr(buf, want) && strstr(buf, "splats 1\n") &&
			      strstr(buf, "*** DEADLOCK ***");
		ok(ok_, "%s", cases[i].what);
		if (!ok_)
			diag_output(buf);
	}
	return done_testing();
}
