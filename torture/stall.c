/* SPDX-License-Identifier: MIT */
/*
 * stall.c - stall_cpu (rcu_torture_stall), and the RCU's stall warnings.
 *
 * After stall_cpu_holdoff seconds, one registered thread enters a
 * read-side critical section and stays there stall_cpu seconds, spinning
 * (sleeping with stall_cpu_block; with stall_cpu_irqsoff every signal is
 * blocked meanwhile, the analogue of irqs off: nothing interrupts it),
 * then does it again stall_cpu_repeat more times, stall_cpu_holdoff
 * seconds apart.  Grace periods cannot end meanwhile, so the RCU must
 * warn, and name that thread: every warning the RCU prints reaches
 * stall_warning_seen() through ops->stall_notifier(), which counts it and
 * says so on the console.  An episode that no warning named is a failure,
 * and so is any warning in a run that did not ask for one (stall_cpu=0),
 * as kvm-recheck counts "Stalls".  (In a run that asked, other warnings
 * are counted, not failures: the stall's aftermath may delay others.)  The writer stalls too; the stats thread
 * reports that as a deliberate stall, not a failure (tc.stall_active).
 */
#include <limits.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "torture.h"

#define NAMED_GRACE_US	200000	/* a report claimed just before the
				 * reader left is still being delivered */

static int stall_tid;		/* the stalling thread (atomic), 0: none */
static int episode_named;	/* a warning named it this episode (atomic) */
static unsigned long episodes_named;	/* (stall thread only) */

void stall_warning_seen(const struct torture_stall *s)
{
	int tid = READ_ONCE(stall_tid);	/* a hint */
	bool named = false;
	int i;

	for (i = 0; i < s->n_tids; i++)
		named |= tid && s->holdout_tids[i] == tid;
	STAT_INC(tc.rcu_stalls);
	if (named)
		WRITE_ONCE(episode_named, 1);	/* polled */
	else if (tp.stall_cpu <= 0)
		STAT_INC(tc.rcu_stalls_unexpected);
	torout(" rcu_torture_stall_nf: %s %sstall for %lu ms, %d holdout%s%s", s->flavor,
	       s->expedited ? "expedited " : "", s->duration_ms, s->nr_holdouts,
	       s->nr_holdouts == 1 ? "" : "s", named ? ", the stalled reader among them" : "");
}

static void stall_hold(void)
{
	unsigned long end = torture_now_us() + (unsigned long)tp.stall_cpu * 1000000;
	sigset_t all, old;
	int idx;

	sigfillset(&all);
	if (tp.stall_cpu_irqsoff)
		pthread_sigmask(SIG_BLOCK, &all, &old);
	idx = cur_ops->readlock();
	while (torture_now_us() < end && !torture_must_stop()) {
		if (tp.stall_cpu_block)
			torture_sleep_us(10000);
		else
			torture_spin_us(1000);
	}
	cur_ops->readunlock(idx);
	if (tp.stall_cpu_irqsoff)
		pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* One episode; did a warning name us (checked only with a notifier)? */
static void stall_episode(int tid)
{
	unsigned long t;

	WRITE_ONCE(episode_named, 0);	/* see above */
	torout(" rcu_torture_stall begin CPU stall interval %ld secs (P%d%s)", tp.stall_cpu, tid,
	       tp.stall_cpu_irqsoff ? ", signals blocked" : "");
	STAT_SET(tc.stall_active, ULONG_MAX);
	stall_hold();
	STAT_SET(tc.stall_active, torture_now_us());
	torout(" rcu_torture_stall end.");
	if (!cur_ops->stall_notifier)
		return;		/* unchecked */
	if (torture_must_stop()) {
		/* Cut short by the end of the run (a slow start: TSan, a busy
		 * machine): not judged, but a warning that named us counts. */
		if (READ_ONCE(episode_named))
			episodes_named++;
		return;
	}
	for (t = 0; t < NAMED_GRACE_US && !READ_ONCE(episode_named);
	     t += 10000)
		torture_sleep_us(10000);
	STAT_INC(tc.stall_episodes);
	if (READ_ONCE(episode_named)) {
		episodes_named++;
		return;
	}
	STAT_INC(tc.stall_unnamed);
	torout(" rcu_torture_stall: no RCU CPU stall warning named the stalled reader P%d", tid);
}

static void *rcu_torture_stall(void *arg)
{
	int tid = (int)syscall(SYS_gettid);
	long i;

	(void)arg;
	torture_sleep_us((unsigned long)tp.stall_cpu_holdoff * 1000000);
	if (torture_must_stop())
		return NULL;
	if (torture_aux_register("rcu_torture_stall", "no stall", true))
		return NULL;
	WRITE_ONCE(stall_tid, tid);	/* see stall_warning_seen() */
	for (i = 0; i <= tp.stall_cpu_repeat && !torture_must_stop(); i++) {
		if (i)
			torture_sleep_us((unsigned long)(tp.stall_cpu_holdoff > 0 ?
							 tp.stall_cpu_holdoff : 1) * 1000000);
		stall_episode(tid);
	}
	torture_reader_unregister();
	return NULL;
}

int stall_start(void)
{
	unsigned long to;

	if (cur_ops->stall_notifier && cur_ops->stall_notifier(stall_warning_seen)) {
		torout(" could not register for the RCU's stall warnings");
		return -1;
	}
	if (tp.stall_cpu <= 0)
		return 0;
	if (!cur_ops->stall_notifier)
		torout(" stall_cpu: torture_type=%s has no stall warnings: the stall is not checked",
		       cur_ops->name);
	else if (cur_ops->stall_timeout_ms && (to = cur_ops->stall_timeout_ms()) &&
		 (unsigned long)tp.stall_cpu * 1000 <= to)
		torout(" stall_cpu=%ld s is not longer than the RCU's stall timeout (%lu ms): "
		       "no warning will name the stalled reader", tp.stall_cpu, to);
	return torture_spawn("rcu_torture_sta", rcu_torture_stall, NULL);
}

/* At the end: a checked stall_cpu run that no warning named failed. */
void stall_final_check(void)
{
	if (tp.stall_cpu > 0 && cur_ops->stall_notifier && !episodes_named &&
	    !STAT_READ(tc.stall_unnamed)) {
		STAT_INC(tc.stall_unnamed);
		torout(" rcu_torture_stall: no RCU CPU stall warning named the stalled reader");
	}
}
