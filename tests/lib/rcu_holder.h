/* SPDX-License-Identifier: MIT */
/*
 * rcu_holder.h - a reader that holds its read-side section (asleep) until
 * told to leave, and the check every grace-period primitive must pass
 * against it: blocked while the reader is inside, back only after it left.
 */
#ifndef TESTS_RCU_HOLDER_H
#define TESTS_RCU_HOLDER_H

#include "rcu_test.h"

/* R_RCU_NESTED_LATE: inside, the reader keeps running nested pairs while
 * the grace period waits for it (their unlocks see need_qs). */
enum rmode { R_RCU, R_RCU_NESTED, R_RCU_NESTED_LATE, R_BH, R_SCHED };

struct holder {
	enum rmode mode;
	int in;		/* set once inside the section */
	int leave;	/* set by the test to end it */
	int out;	/* set after the section ended */
	int asked;	/* R_RCU_NESTED_LATE: need_qs seen set while nesting */
	int *need_qs;	/* the reader's request word in its flavor (set before in) */
	int reported;	/* need_qs set before the outermost end, clear right after */
};

/* The section's end: the outermost unlock, and for rcu_sched the quiescent
 * state, which reports to a grace period that asked (need_qs): the grace
 * period's rescans would end it anyway, only later, so nothing else shows
 * a report that never happens. */
static inline void holder_end(struct holder *h)
{
	int asked = READ_ONCE(*h->need_qs);	/* the owner's own word */

	switch (h->mode) {
	case R_RCU:
	case R_RCU_NESTED:
	case R_RCU_NESTED_LATE:
		rcu_read_unlock();
		break;
	case R_BH:
		rcu_read_unlock_bh();
		break;
	case R_SCHED:
		rcu_read_unlock_sched();
		rcu_quiescent_state();
		break;
	}
	/* The tests ask for no other grace period meanwhile, and the grace
	 * period never clears it: only the end's report can. */
	h->reported = asked && !READ_ONCE(*h->need_qs);
}

static inline void holder_fn(void *arg)
{
	struct holder *h = arg;

	switch (h->mode) {
	case R_RCU:
	case R_RCU_NESTED_LATE:
		rcu_read_lock();
		break;
	case R_RCU_NESTED:
		/* The inner unlock must not end the outer section. */
		rcu_read_lock();
		rcu_read_lock();
		rcu_read_lock();
		rcu_read_unlock();
		rcu_read_unlock();
		break;
	case R_BH:
		rcu_read_lock_bh();
		break;
	case R_SCHED:
		rcu_read_lock_sched();
		break;
	}
	h->need_qs = &lrcu_reader.rw->need_qs[h->mode == R_SCHED ? LRCU_SCHED : LRCU_PREEMPT];
	set_flag(&h->in);
	if (h->mode == R_RCU_NESTED_LATE) {
		/* Pairs with set_flag(&h->leave). */
		while (!smp_load_acquire(&h->leave)) {
			rcu_read_lock();
			/* Owner's own word (a test's look inside). */
			h->asked |= READ_ONCE(lrcu_reader.rw->need_qs[LRCU_PREEMPT]) != 0;
			rcu_read_unlock();
			sleep_ms(1);
		}
	} else {
		wait_flag(&h->leave, 1e9);	/* asleep in the section */
	}
	set_flag(&h->out);
	holder_end(h);
}

struct updater {
	void (*sync)(void);
	int done;
	int saw_reader_out;	/* the reader had left when sync returned */
	struct holder *h;
};

static inline void *updater_fn(void *arg)
{
	struct updater *u = arg;

	u->sync();
	/* Acquire pairs with set_flag(&h->out): if the GP was too short we
	 * return while the reader still holds its section. */
	u->saw_reader_out = smp_load_acquire(&u->h->out);
	set_flag(&u->done);
	return NULL;
}

/* sync() with a reader of the given mode inside: two ok() lines.
 * before(), if not NULL, runs once the reader is inside. */
static inline void reader_blocks(enum rmode mode, void (*sync)(void), void (*before)(void),
				 const char *what)
{
	struct holder h = { .mode = mode };
	struct updater u = { .sync = sync, .h = &h };
	struct reg_thread rt;
	pthread_t ut;

	reg_thread_start(&rt, holder_fn, &h);
	wait_flag(&h.in, 60);
	if (before)
		before();
	pthread_create(&ut, NULL, updater_fn, &u);
	/*
	 * A correct RCU never lets the updater through while the reader is
	 * inside; 200 ms gives a broken one ample time to show it.
	 */
	sleep_ms(200);
	ok(!smp_load_acquire(&u.done),	/* pairs with set_flag(&u->done) */
	   "%s: updater stays blocked while a pre-existing reader is inside", what);
	/* h.need_qs was published before h.in. */
	ok(wait_flag(h.need_qs, 60), "%s: the grace period asks the reader to report", what);
	set_flag(&h.leave);
	pthread_join(ut, NULL);
	ok(u.done && u.saw_reader_out, "%s: updater returns only after the reader left", what);
	reg_thread_join(&rt);
	ok(h.reported, "%s: the section's end reported (need_qs clear right after it)", what);
	if (mode == R_RCU_NESTED_LATE)
		ok(h.asked, "%s: the grace period asked the reader to report while it nested", what);
}

/* Concurrent callers: n threads call sync() while a reader holds a grace
 * period open, so that all of them arrive during it. */
#define NCALLERS_MAX 64

struct callers {
	void (*sync)(void);
	int go, in;
};

static inline void *caller_fn(void *arg)
{
	struct callers *c = arg;

	wait_flag(&c->go, 60);
	LRCU_FETCH_ADD_RELEASE(&c->in, 1);	/* pairs with the poll below */
	c->sync();
	return NULL;
}

static inline void callers_during_gp(void (*sync)(void), int n)
{
	struct holder h = { .mode = R_RCU };
	struct callers c = { .sync = sync };
	pthread_t t[NCALLERS_MAX];
	struct reg_thread rt;
	int i;

	reg_thread_start(&rt, holder_fn, &h);
	wait_flag(&h.in, 60);
	for (i = 0; i < n && i < NCALLERS_MAX; i++)
		pthread_create(&t[i], NULL, caller_fn, &c);
	set_flag(&c.go);
	while (smp_load_acquire(&c.in) < n)	/* pairs with caller_fn()'s add */
		sleep_ms(1);
	sleep_ms(100);	/* let the last ones reach their wait */
	set_flag(&h.leave);
	for (i = 0; i < n && i < NCALLERS_MAX; i++)
		pthread_join(t[i], NULL);
	reg_thread_join(&rt);
}

#endif /* TESTS_RCU_HOLDER_H */
