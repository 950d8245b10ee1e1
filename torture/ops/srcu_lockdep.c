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

/* The step after i (-1: none, the chain ends), said as the kernel says it. */
static int next_step(FILE *out, const char *fl, const char *fs, const char *fu, int i,
		     int cyclelen, int deadlock)
{
	int j = i + 1;

	if (j >= cyclelen)
		j = deadlock ? 0 : -1;
	if (j >= 0)
		SAY(out, "%s(%d), %s(%d), %s(%d)\n", fl, i, fs, j, fu, i);
	else
		SAY(out, "%s(%d), %s(%d)\n", fl, i, fu, i);
	return j;
}

static void intro(FILE *out, long val, const char *what, int cyclelen, int deadlock)
{
	SAY(out, "test_srcu_lockdep = %05ld: %s %d-way %sdeadlock.\n", val, what, cyclelen,
	    deadlock ? "" : "non-");
}

static void srcu_cycle(FILE *out, long val, int cyclelen, int deadlock)
{
	int i, j, idx;

	intro(out, val, "SRCU", cyclelen, deadlock);
	if (deadlock && cyclelen == 1)
		SAY(out, "Expect hang.\n");
	for (i = 0; i < cyclelen; i++) {
		j = next_step(out, "srcu_read_lock", "synchronize_srcu", "srcu_read_unlock", i,
			      cyclelen, deadlock);
		idx = srcu_read_lock(srcus[i]);
		if (j >= 0)
			synchronize_srcu(srcus[j]);
		srcu_read_unlock(srcus[i], idx);
	}
}

static void mutex_cycle(FILE *out, long val, int cyclelen, int deadlock)
{
	int i, j, idx;

	intro(out, val, "SRCU/mutex", cyclelen, deadlock);
	for (i = 0; i < cyclelen; i++) {
		SAY(out, "srcu_read_lock(%d), mutex_lock(%d), mutex_unlock(%d), "
		    "srcu_read_unlock(%d)\n", i, i, i, i);
		idx = srcu_read_lock(srcus[i]);
		mutex_lock(&muts[i]);
		mutex_unlock(&muts[i]);
		srcu_read_unlock(srcus[i], idx);
		j = next_step(out, "mutex_lock", "synchronize_srcu", "mutex_unlock", i,
			      cyclelen, deadlock);
		mutex_lock(&muts[i]);
		if (j >= 0)
			synchronize_srcu(srcus[j]);
		mutex_unlock(&muts[i]);
	}
}

static void rwsem_cycle(FILE *out, long val, int cyclelen, int deadlock)
{
	int i, j, idx;

	intro(out, val, "SRCU/rwsem", cyclelen, deadlock);
	for (i = 0; i < cyclelen; i++) {
		SAY(out, "srcu_read_lock(%d), down_read(%d), up_read(%d), srcu_read_unlock(%d)\n",
		    i, i, i, i);
		idx = srcu_read_lock(srcus[i]);
		down_read(&rwsems[i]);
		rwsem_up(&rwsems[i]);
		srcu_read_unlock(srcus[i], idx);
		j = next_step(out, "down_write", "synchronize_srcu", "up_write", i, cyclelen,
			      deadlock);
		down_write(&rwsems[i]);
		if (j >= 0)
			synchronize_srcu(srcus[j]);
		rwsem_up(&rwsems[i]);
	}
}

static void trace_cycle(FILE *out, long val, int cyclelen, int deadlock)
{
	int i, j, idx = 0;

	intro(out, val, "SRCU and Tasks Trace RCU", cyclelen, deadlock);
	if (deadlock && cyclelen == 1)
		SAY(out, "Expect hang.\n");
	for (i = 0; i < cyclelen; i++) {
		j = next_step(out, i ? "srcu_read_lock" : "rcu_read_lock_trace",
			      i == cyclelen - 1 ? "synchronize_rcu_tasks_trace" : "synchronize_srcu",
			      i ? "srcu_read_unlock" : "rcu_read_unlock_trace", i, cyclelen, deadlock);
		if (i)
			idx = srcu_read_lock(srcus[i]);
		else
			rcu_read_lock_trace();
		if (j >= 0) {
			if (i == cyclelen - 1)
				synchronize_rcu_tasks_trace();
			else
				synchronize_srcu(srcus[j]);
		}
		if (i)
			srcu_read_unlock(srcus[i], idx);
		else
			rcu_read_unlock_trace();
	}
}

int rcut_srcu_lockdep(long val, FILE *out)
{
	int deadlock = (int)(val / 1000), testtype = (int)(val / 10 % 100);
	int cyclelen = (int)(val % 10);

	if (deadlock == !!deadlock && cyclelen > 0) {
		switch (testtype) {
		case 0:
			srcu_cycle(out, val, cyclelen, deadlock);
			return 0;
		case 1:
			mutex_cycle(out, val, cyclelen, deadlock);
			return 0;
		case 2:
			rwsem_cycle(out, val, cyclelen, deadlock);
			return 0;
		case 3:
			trace_cycle(out, val, cyclelen, deadlock);
			return 0;
		}
	}
	SAY(out, "test_srcu_lockdep = %05ld does nothing.\n", val);
	SAY(out, "test_srcu_lockdep = DNNL.\n");
	SAY(out, "D: Deadlock if nonzero.\n");
	SAY(out, "NN: Test number, 0=SRCU, 1=SRCU/mutex, 2=SRCU/rwsem, 3=SRCU/Tasks Trace RCU.\n");
	SAY(out, "L: Cycle length.\n");
	return 0;
}

#endif /* CONFIG_PROVE_LOCKING */
