/* SPDX-License-Identifier: MIT */
/*
 * srcu_lockdep.c - rcutorture.test_srcu_lockdep=DNNL, the kernel's
 * rcu_torture_init_srcu_lockdep(): at the start of a run, one thread
 * walks a cycle of L steps, each a read-side section of one SRCU domain
 * around a wait for the next one's grace period (NN=0), or the same
 * through a mutex (1) or an rwsem (2) per step, or with RCU Tasks Trace
 * as the first domain (3).  With D=1 the last step waits for the first
 * domain, closing the cycle: nothing hangs (the steps run one after the
 * other), but the library's lock-dependency checking (<rcu/lockdep.h>)
 * must report the possible deadlock, one kernel-style splat that makes
 * the run a FAILURE; D=0 leaves the chain open and must report nothing.
 * L=1 with D=1 waits for the domain the step is reading (NN=0, 3): a real
 * self-deadlock, which the checker reports ("possible recursive
 * locking") before the library stops the program ("rcu: BUG: ..."),
 * where the kernel hangs.
 *
 * The mutexes and rwsems are pthread ones, wrapped so that the checker
 * sees them as the kernel's lockdep sees its own (a map each: one class
 * per lock).  Built without CONFIG_PROVE_LOCKING there is nothing to
 * check with: the types leave the hook out and the core says the
 * parameter is not honoured.
 */
#include <pthread.h>
#include <rcu/lockdep.h>
#include <rcu/rcupdate_trace.h>
#include "ops_rcu.h"

#ifdef CONFIG_PROVE_LOCKING

#define NSTEPS	10

struct ld_mutex {
	pthread_mutex_t m;
	struct lockdep_map dep;
};

struct ld_rwsem {
	pthread_rwlock_t rw;
	struct lockdep_map dep;
};

#define LD_MUTEX(n)	{ PTHREAD_MUTEX_INITIALIZER, STATIC_LOCKDEP_MAP_INIT("mut" #n) }
#define LD_RWSEM(n)	{ PTHREAD_RWLOCK_INITIALIZER, STATIC_LOCKDEP_MAP_INIT("rwsem" #n) }

static struct ld_mutex muts[NSTEPS] = {
	LD_MUTEX(0), LD_MUTEX(1), LD_MUTEX(2), LD_MUTEX(3), LD_MUTEX(4),
	LD_MUTEX(5), LD_MUTEX(6), LD_MUTEX(7), LD_MUTEX(8), LD_MUTEX(9),
};
static struct ld_rwsem rwsems[NSTEPS] = {
	LD_RWSEM(0), LD_RWSEM(1), LD_RWSEM(2), LD_RWSEM(3), LD_RWSEM(4),
	LD_RWSEM(5), LD_RWSEM(6), LD_RWSEM(7), LD_RWSEM(8), LD_RWSEM(9),
};
DEFINE_STATIC_SRCU(srcu0);
DEFINE_STATIC_SRCU(srcu1);
DEFINE_STATIC_SRCU(srcu2);
DEFINE_STATIC_SRCU(srcu3);
DEFINE_STATIC_SRCU(srcu4);
DEFINE_STATIC_SRCU(srcu5);
DEFINE_STATIC_SRCU(srcu6);
DEFINE_STATIC_SRCU(srcu7);
DEFINE_STATIC_SRCU(srcu8);
DEFINE_STATIC_SRCU(srcu9);
static struct srcu_struct *const srcus[NSTEPS] = {
	&srcu0, &srcu1, &srcu2, &srcu3, &srcu4, &srcu5, &srcu6, &srcu7, &srcu8, &srcu9,
};

static void mutex_lock(struct ld_mutex *m)
{
	lock_map_acquire(&m->dep);
	pthread_mutex_lock(&m->m);
}

static void mutex_unlock(struct ld_mutex *m)
{
	pthread_mutex_unlock(&m->m);
	lock_map_release(&m->dep);
}

static void down_read(struct ld_rwsem *s)
{
	lock_map_acquire_read(&s->dep);
	pthread_rwlock_rdlock(&s->rw);
}

static void down_write(struct ld_rwsem *s)
{
	lock_map_acquire(&s->dep);
	pthread_rwlock_wrlock(&s->rw);
}

static void rwsem_up(struct ld_rwsem *s)
{
	pthread_rwlock_unlock(&s->rw);
	lock_map_release(&s->dep);
}

#define SAY(out, ...)	(fprintf(out, "rcu_torture_init_srcu_lockdep: " __VA_ARGS__), fflush(out))

/*
 * The test types (NN): what a step holds while it waits for the next
 * step's domain.  SRCU and Tasks Trace (0, 3) hold a read-side section
 * of their own domain (3: the first domain is Tasks Trace); SRCU/mutex
 * and SRCU/rwsem (1, 2) first nest the lock in their domain's section
 * ("read" form), then wait holding the lock alone ("write" form).  The
 * names are what the kernel prints for each call.
 */
struct ld_test {
	const char *what;
	bool trace_first;	/* domain 0 is Tasks Trace (NN=3) */
	const char *rd_lock, *rd_unlock, *wr_lock, *wr_unlock;	/* lock names */
	void (*read_lock)(int i), (*read_unlock)(int i);
	void (*write_lock)(int i), (*write_unlock)(int i);
};

static void mut_lock(int i) { mutex_lock(&muts[i]); }
static void mut_unlock(int i) { mutex_unlock(&muts[i]); }
static void rw_down_read(int i) { down_read(&rwsems[i]); }
static void rw_down_write(int i) { down_write(&rwsems[i]); }
static void rw_up(int i) { rwsem_up(&rwsems[i]); }

static const struct ld_test ld_tests[] = {
	[0] = { .what = "SRCU" },
	[1] = { "SRCU/mutex", false, "mutex_lock", "mutex_unlock", "mutex_lock", "mutex_unlock",
		mut_lock, mut_unlock, mut_lock, mut_unlock },
	[2] = { "SRCU/rwsem", false, "down_read", "up_read", "down_write", "up_write",
		rw_down_read, rw_up, rw_down_write, rw_up },
	[3] = { .what = "SRCU and Tasks Trace RCU", .trace_first = true },
};

static bool is_trace(const struct ld_test *t, int i)
{
	return t->trace_first && i == 0;
}

static int domain_lock(const struct ld_test *t, int i)
{
	if (!is_trace(t, i))
		return srcu_read_lock(srcus[i]);
	rcu_read_lock_trace();
	return 0;
}

static void domain_unlock(const struct ld_test *t, int i, int idx)
{
	if (is_trace(t, i))
		rcu_read_unlock_trace();
	else
		srcu_read_unlock(srcus[i], idx);
}

static void domain_sync(const struct ld_test *t, int j)
{
	if (is_trace(t, j))
		synchronize_rcu_tasks_trace();
	else
		synchronize_srcu(srcus[j]);
}

/* The step after i (-1: none, the chain ends), said as the kernel says
 * it: "LOCK(i), SYNC(j), UNLOCK(i)". */
static int next_step(FILE *out, const struct ld_test *t, const char *fl, const char *fu, int i,
		     int cyclelen, int deadlock)
{
	int j = i + 1;

	if (j >= cyclelen)
		j = deadlock ? 0 : -1;
	if (j >= 0)
		SAY(out, "%s(%d), %s(%d), %s(%d)\n", fl, i,
		    is_trace(t, j) ? "synchronize_rcu_tasks_trace" : "synchronize_srcu", j, fu, i);
	else
		SAY(out, "%s(%d), %s(%d)\n", fl, i, fu, i);
	return j;
}

/* One cycle of test t: each step waits for the next step's domain while
 * it holds its own section (NN=0, 3) or its lock (NN=1, 2). */
static void ld_cycle(FILE *out, long val, const struct ld_test *t, int cyclelen, int deadlock)
{
	int i, j, idx;

	SAY(out, "test_srcu_lockdep = %05ld: %s %d-way %sdeadlock.\n", val, t->what, cyclelen,
	    deadlock ? "" : "non-");
	if (!t->read_lock && deadlock && cyclelen == 1)
		SAY(out, "Expect hang.\n");
	for (i = 0; i < cyclelen; i++) {
		if (!t->read_lock) {
			j = next_step(out, t, is_trace(t, i) ? "rcu_read_lock_trace" : "srcu_read_lock",
				      is_trace(t, i) ? "rcu_read_unlock_trace" : "srcu_read_unlock",
				      i, cyclelen, deadlock);
			idx = domain_lock(t, i);
			if (j >= 0)
				domain_sync(t, j);
			domain_unlock(t, i, idx);
			continue;
		}
		SAY(out, "srcu_read_lock(%d), %s(%d), %s(%d), srcu_read_unlock(%d)\n", i,
		    t->rd_lock, i, t->rd_unlock, i, i);
		idx = domain_lock(t, i);
		t->read_lock(i);
		t->read_unlock(i);
		domain_unlock(t, i, idx);
		j = next_step(out, t, t->wr_lock, t->wr_unlock, i, cyclelen, deadlock);
		t->write_lock(i);
		if (j >= 0)
			domain_sync(t, j);
		t->write_unlock(i);
	}
}

int rcut_srcu_lockdep(long val, FILE *out)
{
	int deadlock = (int)(val / 1000), testtype = (int)(val / 10 % 100);
	int cyclelen = (int)(val % 10);

	if (deadlock == !!deadlock && cyclelen > 0 &&
	    testtype < (int)(sizeof(ld_tests) / sizeof(ld_tests[0]))) {
		ld_cycle(out, val, &ld_tests[testtype], cyclelen, deadlock);
		return 0;
	}
	SAY(out, "test_srcu_lockdep = %05ld does nothing.\n", val);
	SAY(out, "test_srcu_lockdep = DNNL.\n");
	SAY(out, "D: Deadlock if nonzero.\n");
	SAY(out, "NN: Test number, 0=SRCU, 1=SRCU/mutex, 2=SRCU/rwsem, 3=SRCU/Tasks Trace RCU.\n");
	SAY(out, "L: Cycle length.\n");
	return 0;
}

#endif /* CONFIG_PROVE_LOCKING */
