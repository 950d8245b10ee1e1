/* SPDX-License-Identifier: MIT */
/*
 * stall.c - stall_cpu and stall_gp_kthread (rcu_torture_stall), and the
 * RCU's stall warnings.
 *
 * After stall_cpu_holdoff seconds, an episode: with stall_gp_kthread=N
 * the RCU's grace-period thread sleeps N seconds in its next grace period
 * (ops->stall_gp_kthread(), the kernel's rcu_gp_set_torture_wait()) while
 * this thread waits N+2 s; then, with stall_cpu=N, one registered thread
 * enters a read-side critical section and stays there N seconds, spinning
 * (sleeping with stall_cpu_block; with stall_cpu_irqsoff every signal is
 * blocked meanwhile, the analogue of irqs off: nothing interrupts it).
 * Episodes repeat stall_cpu_repeat more times, stall_cpu_holdoff seconds
 * apart.  Grace periods cannot end meanwhile, so the RCU must warn: every
 * warning it prints reaches stall_warning_seen() through
 * ops->stall_notifier(), which counts it and says so on the console.  A
 * CPU stall must be named by a warning (the stalled reader among the
 * holdouts), a grace-period kthread stall by one that says the thread
 * starved; an episode that none named is a failure, and so is any warning
 * in a run that did not ask for a stall, as kvm-recheck counts "Stalls".
 * (In a run that asked, other warnings are counted, not failures: the
 * stall's aftermath may delay others.)  The writer stalls too; the stats
 * thread reports that as a deliberate stall, not a failure
 * (tc.stall_active).
 */
#include <limits.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "torture.h"

#define NAMED_GRACE_US	200000	/* a report claimed just before the
				 * reader left is still being delivered */

static int stall_tid;		/* the stalling thread (atomic), 0: none */

/* What a warning must show about each kind of episode. */
struct episode_kind {
	int seen;		/* a warning showed it, this episode (atomic) */
	unsigned long named;	/* episodes a warning showed (stall thread only) */
	unsigned long *unnamed;	/* the failure counter of those none did */
	const char *what;	/* what no warning did */
};
static struct episode_kind cpu_kind = {
	.unnamed = &tc.stall_unnamed, .what = "named the stalled reader",
};
static struct episode_kind gp_kind = {
	.unnamed = &tc.stall_gp_unnamed, .what = "said the grace-period kthread starved",
};

/* Did the run ask for stalls (then warnings are no failure by themselves)? */
static bool stalls_asked(void)
{
	return tp.stall_cpu > 0 || tp.stall_gp_kthread > 0;
}

void stall_warning_seen(const struct torture_stall *s)
{
	int tid = READ_ONCE(stall_tid);	/* a hint */
	/* ->starved exists in the tables of adapters that can stall their
	 * grace-period thread (built with it: ops.h). */
	bool starved = OPS_HAS(stall_gp_kthread) && s->starved;
	bool named = false;
	int i;

	for (i = 0; i < s->n_tids; i++)
		named |= tid && s->holdout_tids[i] == tid;
	STAT_INC(tc.rcu_stalls);
	if (named)
		WRITE_ONCE(cpu_kind.seen, 1);	/* polled */
	if (starved)
		WRITE_ONCE(gp_kind.seen, 1);	/* polled */
	if (!stalls_asked())
		STAT_INC(tc.rcu_stalls_unexpected);
	torout(" rcu_torture_stall_nf: %s %sstall for %lu ms, %d holdout%s%s%s", s->flavor,
	       s->expedited ? "expedited " : "", s->duration_ms, s->nr_holdouts,
	       s->nr_holdouts == 1 ? "" : "s", named ? ", the stalled reader among them" : "",
	       starved ? ", the grace-period kthread starved" : "");
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

/*
 * After an episode: did a warning show it, within a moment (a report
 * claimed just before the stall ended is still being delivered)?  Checked
 * only with a notifier, and not when the end of the run cut the episode
 * short (a slow start: TSan, a busy machine), where a warning that showed
 * it still counts.  who: whom the message names, if any.
 */
static void episode_judge(struct episode_kind *k, const char *who)
{
	unsigned long t;

	if (!cur_ops->stall_notifier)
		return;		/* unchecked */
	if (torture_must_stop()) {
		if (READ_ONCE(k->seen))	/* see stall_warning_seen() */
			k->named++;
		return;
	}
	for (t = 0; t < NAMED_GRACE_US && !READ_ONCE(k->seen); t += 10000)
		torture_sleep_us(10000);
	STAT_INC(tc.stall_episodes);
	if (READ_ONCE(k->seen)) {
		k->named++;
		return;
	}
	STAT_INC(*k->unnamed);
	torout(" rcu_torture_stall: no RCU CPU stall warning %s%s", k->what, who);
}

/* The CPU stall (stall_cpu): the thread tid stays in a read-side section. */
static void cpu_episode(int tid)
{
	char who[32];

	WRITE_ONCE(cpu_kind.seen, 0);	/* see stall_warning_seen() */
	torout(" rcu_torture_stall begin CPU stall interval %ld secs (P%d%s)", tp.stall_cpu, tid,
	       tp.stall_cpu_irqsoff ? ", signals blocked" : "");
	STAT_SET(tc.stall_active, ULONG_MAX);
	stall_hold();
	STAT_SET(tc.stall_active, torture_now_us());
	torout(" rcu_torture_stall end.");
	snprintf(who, sizeof(who), " P%d", tid);
	episode_judge(&cpu_kind, who);
}

/*
 * The grace-period kthread stall (stall_gp_kthread): the RCU's grace-
 * period thread sleeps that long in its next grace period, and we wait as
 * the kernel's rcutorture does, two seconds more.
 */
static void gp_episode(void)
{
	unsigned long end;

	WRITE_ONCE(gp_kind.seen, 0);	/* see stall_warning_seen() */
	torout(" rcu_torture_stall begin GP kthread stall interval %ld secs", tp.stall_gp_kthread);
	STAT_SET(tc.stall_active, ULONG_MAX);
	cur_ops->stall_gp_kthread((unsigned long)tp.stall_gp_kthread * 1000);
	end = torture_now_us() + ((unsigned long)tp.stall_gp_kthread + 2) * 1000000;
	while (torture_now_us() < end && !torture_must_stop())
		torture_sleep_us(10000);
	STAT_SET(tc.stall_active, torture_now_us());
	torout(" rcu_torture_stall end GP kthread stall.");
	episode_judge(&gp_kind, "");
}

static void *rcu_torture_stall(void *arg)
{
	int tid = (int)syscall(SYS_gettid);
	long i;

	(void)arg;
	torture_sleep_us((unsigned long)tp.stall_cpu_holdoff * 1000000);
	if (torture_must_stop())
		return NULL;
	/* The CPU stall's thread is a reader: it needs a slot. */
	if (tp.stall_cpu > 0 && torture_aux_register("rcu_torture_stall", "no stall", true))
		return NULL;
	WRITE_ONCE(stall_tid, tid);	/* see stall_warning_seen() */
	for (i = 0; i <= tp.stall_cpu_repeat && !torture_must_stop(); i++) {
		if (i)
			torture_sleep_us((unsigned long)(tp.stall_cpu_holdoff > 0 ?
							 tp.stall_cpu_holdoff : 1) * 1000000);
		if (tp.stall_gp_kthread > 0)
			gp_episode();
		if (tp.stall_cpu > 0 && !torture_must_stop())
			cpu_episode(tid);
	}
	if (tp.stall_cpu > 0)
		torture_reader_unregister();
	return NULL;
}

/* A stall of secs seconds that the RCU's timeout (to ms) cannot see:
 * said at the start (the run will fail). */
static void too_short(const char *param, long secs, unsigned long to, const struct episode_kind *k)
{
	if (secs > 0 && to && (unsigned long)secs * 1000 <= to)
		torout(" %s=%ld s is not longer than the RCU's stall timeout (%lu ms): no warning "
		       "will have %s", param, secs, to, k->what);
}

int stall_start(void)
{
	unsigned long to;

	if (cur_ops->stall_notifier && cur_ops->stall_notifier(stall_warning_seen)) {
		torout(" could not register for the RCU's stall warnings");
		return -1;
	}
	if (!stalls_asked())
		return 0;
	if (!cur_ops->stall_notifier) {
		torout(" rcu_torture_stall: torture_type=%s has no stall warnings: the stall is "
		       "not checked", cur_ops->name);
	} else if (cur_ops->stall_timeout_ms) {
		to = cur_ops->stall_timeout_ms();
		too_short("stall_cpu", tp.stall_cpu, to, &cpu_kind);
		too_short("stall_gp_kthread", tp.stall_gp_kthread, to, &gp_kind);
	}
	return torture_spawn("rcu_torture_sta", rcu_torture_stall, NULL);
}

/* At the end: a checked stall run that no warning showed failed. */
static void final_check(struct episode_kind *k, long asked)
{
	if (asked > 0 && cur_ops->stall_notifier && !k->named && !STAT_READ(*k->unnamed)) {
		STAT_INC(*k->unnamed);
		torout(" rcu_torture_stall: no RCU CPU stall warning %s", k->what);
	}
}

void stall_final_check(void)
{
	final_check(&cpu_kind, tp.stall_cpu);
	final_check(&gp_kind, tp.stall_gp_kthread);
}
