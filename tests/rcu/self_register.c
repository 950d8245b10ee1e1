/* SPDX-License-Identifier: MIT */
/*
 * tests/rcu/self_register.c - self-registering readers
 * (rcupdate.self_register=1, liburcu-bp's model): without the option a
 * section on a thread that never registered is reported and takes no
 * slot; with it (set at run time) the section registers the thread, and
 * grace periods of both flavors wait for it; the thread's exit gives the
 * slot back.  Then a churn of short-lived reader threads that never
 * register, in a process with 4 slots (so that a slot not given back
 * stops the run), while an updater replaces the object they read and
 * poisons the old one after grace periods of both flavors: no reader
 * sees poison.
 */
#include "rcu_test.h"

#define POISON	0xdeadbeefUL
#define NCHURN	600	/* short-lived reader threads */
#define WAVE	3	/* of them at once (4 slots) */

struct obj {
	unsigned long v;
	int stage;	/* of its retirement (retire_step()) */
	struct rcu_head rh;
};

static int reader_in, reader_out, slot_seen = -2;
static bool use_sched;

static void *holder(void *arg)
{
	(void)arg;
	if (use_sched)
		rcu_read_lock_sched();
	else
		rcu_read_lock();
	slot_seen = lrcu_thread_slot();
	set_flag(&reader_in);
	sleep_ms(100);	/* holds grace periods meanwhile */
	__atomic_store_n(&reader_out, 1, __ATOMIC_RELEASE);	/* pairs with waits_for() */
	if (use_sched)
		rcu_read_unlock_sched();
	else
		rcu_read_unlock();
	return NULL;	/* exits registered: the exit unregisters it */
}

/* The flavor's synchronize_*(), under the watchdog (a hang is a bail
 * out); true when it returned. */
static bool sync_watched(bool sched, const char *when)
{
	static char what[128];

	snprintf(what, sizeof(what), "%s %s", sched ? "synchronize_sched()" : "synchronize_rcu()", when);
	watchdog_arm(what, 30);
	if (sched)
		synchronize_sched();
	else
		synchronize_rcu();
	return watchdog_done();
}

/* A never-registered thread's section holds the flavor's grace period. */
static void waits_for(bool sched)
{
	pthread_t t;

	use_sched = sched;
	reader_in = reader_out = 0;
	pthread_create(&t, NULL, holder, NULL);
	wait_flag(&reader_in, 30);
	/* rcu_sched: ends only when the reader's exit unregisters it. */
	sync_watched(sched, "with the reader inside");
	ok(__atomic_load_n(&reader_out, __ATOMIC_ACQUIRE) && slot_seen >= 0,	/* pairs with holder() */
	   "%s on a thread that never registered: registered it (slot %d), and %s waited for it",
	   sched ? "rcu_read_lock_sched()" : "rcu_read_lock()", slot_seen,
	   sched ? "synchronize_sched()" : "synchronize_rcu()");
	pthread_join(t, NULL);
	/* Exited online in the flavor: only its unregistration lets the
	 * next grace period end. */
	ok(sync_watched(sched, "after the reader's exit"),
	   "its exit unregistered it: the next grace period ends");
}

static void *unregistered_section(void *arg)
{
	(void)arg;
	rcu_read_lock();
	slot_seen = lrcu_thread_slot();
	rcu_read_unlock();
	return NULL;
}

/* ---- the churn (a child process: nr_cpus=4) ---- */

static struct obj *__rcu cur;
static int stop, bad;

/*
 * A replaced object is read by readers of both flavors, so each step
 * waits for a grace period of each (the two flavors' grace periods are
 * separate here): rcu, then rcu_sched, then it is poisoned; rcu, then
 * rcu_sched again, then freed (a reader that reached it then is an
 * AddressSanitizer report).
 */
static void retire_step(struct rcu_head *rh)
{
	struct obj *o = container_of(rh, struct obj, rh);

	switch (o->stage++) {
	case 0: call_rcu_sched(rh, retire_step); break;
	case 1: WRITE_ONCE(o->v, POISON); call_rcu(rh, retire_step); break;
	case 2: call_rcu_sched(rh, retire_step); break;
	default: free(o); break;
	}
}

static void *updater(void *arg)
{
	unsigned long n = 1;

	(void)arg;
	while (!READ_ONCE(stop)) {
		struct obj *o = malloc(sizeof(*o)), *old;

		o->v = n++;
		o->stage = 0;
		old = rcu_replace_pointer(cur, o, 1);
		call_rcu(&old->rh, retire_step);
		sched_yield();
	}
	return NULL;
}

static void *churn_reader(void *arg)
{
	int i;

	for (i = 0; i < 50; i++) {
		struct obj *o;

		if ((long)arg & 1) {
			rcu_read_lock_sched();
			o = rcu_dereference_sched(cur);
			if (READ_ONCE(o->v) == POISON)
				__atomic_fetch_add(&bad, 1, __ATOMIC_RELAXED);
			rcu_read_unlock_sched();
			rcu_quiescent_state();
		} else {
			rcu_read_lock();
			o = rcu_dereference(cur);
			if (READ_ONCE(o->v) == POISON)
				__atomic_fetch_add(&bad, 1, __ATOMIC_RELAXED);
			rcu_read_unlock();
		}
	}
	return NULL;	/* never unregistered by hand */
}

static int churn(void)
{
	pthread_t up, t[WAVE];
	struct obj *o = malloc(sizeof(*o));
	long i, j;

	alarm(60);	/* a hang (a slot never given back) ends the child */
	o->v = 0;
	RCU_INIT_POINTER(cur, o);
	pthread_create(&up, NULL, updater, NULL);
	for (i = 0; i < NCHURN; i += WAVE) {
		for (j = 0; j < WAVE; j++)
			pthread_create(&t[j], NULL, churn_reader, (void *)(i + j));
		for (j = 0; j < WAVE; j++)
			pthread_join(t[j], NULL);
	}
	WRITE_ONCE(stop, 1);
	pthread_join(up, NULL);
	for (i = 0; i < 4; i++) {	/* each step of retire_step() */
		rcu_barrier();
		rcu_barrier_sched();
	}
	printf("churn: %d reader threads, %d saw poison, %lu misuse reports\n", NCHURN, bad,
	       lrcu_misuse_count());
	return bad || lrcu_misuse_count() ? 1 : 0;
}

int main(int argc, char **argv)
{
	char err[256], out[8192];
	unsigned long before;
	pthread_t t;
	int st;

	if (argc > 1 && !strcmp(argv[1], "churn"))
		return churn();

	rcu_init();
	before = lrcu_misuse_count();
	pthread_create(&t, NULL, unregistered_section, NULL);
	pthread_join(t, NULL);
	ok(slot_seen == -1 && lrcu_misuse_count() == before + 1,
	   "without rcupdate.self_register: a section on a thread that never registered is reported, "
	   "takes no slot (%d)", slot_seen);

	ok(lrcu_param_set("rcupdate.self_register", "1", err, sizeof(err)) == 0,
	   "rcupdate.self_register=1 at run time%s%s", *err ? ": " : "", err);
	waits_for(false);
	waits_for(true);
	ok(lrcu_misuse_count() == before + 1, "no misuse reported for them");

	st = run_self("churn", NULL, "nr_cpus=4 rcupdate.self_register=1", out, sizeof(out));
	if (!ok(exited_with(st, 0) && strstr(out, "0 saw poison, 0 misuse"),
		"%d short-lived readers that never register, %d at a time, 4 slots: each exit gave its "
		"slot back, none saw poison (status %#x)", NCHURN, WAVE, st))
		diag_output(out);
	return done_testing();
}
