/* SPDX-License-Identifier: MIT */
/*
 * tree_stall.c - RCU CPU stall warnings.
 *
 * Theory of operation
 *
 * There is no scheduler tick in userspace, so whoever is already awake
 * while a grace period waits for quiescent states is the watchdog: the
 * driver of the grace period (GP kthread or expedited caller) each time
 * it wakes in its wait, and every synchronize_*() waiter, which sleeps at
 * most until the next warning is due and reports a few ms after the
 * driver would have (so a starved GP kthread is still noticed).  With
 * nobody waiting (every updater polls), a poll of a cookie whose grace
 * period is not done finds a warning overdue and wakes the callback
 * thread, which reports as a waiter would (lrcu__gp_watch()); a program
 * that only uses call_rcu() has no such watchdog.
 * They reach us through the GP hooks (struct lrcu_gp_hooks,
 * tree.c): gp_start arms a deadline (start + rcupdate.rcu_cpu_stall_timeout,
 * or rcu_exp_cpu_stall_timeout for an expedited grace period), gp_check
 * compares it with the time, gp_end disarms.  That is all a grace period
 * pays when nothing stalls: a few stores at start and end, one comparison
 * per wakeup of a blocked grace period.
 *
 * The first checker past the deadline claims the warning with a CAS that
 * pushes the deadline 3 timeouts (+3 jiffies) further, as the kernel does,
 * so a stall that lasts is reported again at growing intervals and never
 * twice for the same interval.  The report names each holdout slot (the
 * bits still set in the leaves' ->qsmask for that grace period): slot,
 * thread id and name (recorded at registration), how long it has been in
 * its read-side critical section (rcu) or without a quiescent state
 * (rcu_sched), and how many grace periods started since.  Readers never
 * read a clock: their reader word holds the gp_seq they sampled, and a
 * ring of recent grace-period start and end times turns that sample into
 * a time ("at least N ms": the section began before gp_seq next moved).
 *
 * Care: the report takes each leaf's lock only to copy its holdouts (no
 * reader holds a leaf lock inside a section, and nothing slow runs under
 * it), never allocates (one static buffer, under report_lock, which only
 * reporters and notifier (un)registration take), and writes the whole
 * report to stderr with one write().  It then calls the notifiers
 * (rcu_stall_chain_notifier_register()) with the same report.
 *
 * Any source of grace periods can use this: lrcu__stall_arm()/_disarm()
 * around each grace period, lrcu__stall_due() when it wakes, and
 * lrcu__stall_report() with a struct lrcu_stall_source naming it and
 * printing its holdouts (SRCU domains will).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <rcu/rcu_notifier.h>
#include "internal.h"

#define STALL_RAT_US		(3 * LRCU_JIFFY_US)	/* pushed past 3 timeouts */
#define STARVED_MAX_US		2000000UL		/* the kernel's 2*HZ */
#define STALL_WAITER_GRACE_US	(5 * LRCU_JIFFY_US)	/* > jiffies_till_next_fqs */

/* ------------------------------------------------------------------ */
/* Timeouts */

static unsigned long stall_timeout_us(bool expedited)
{
	/* Parameters may change at run time (WRITE_ONCE() in params.c). */
	long ms = READ_ONCE(lrcu__params.cpu_stall_timeout_ms);
	long exp_ms = READ_ONCE(lrcu__params.exp_cpu_stall_timeout_ms);

	if (expedited && exp_ms > 0)
		ms = exp_ms;
	return (unsigned long)ms * 1000;
}

/* ------------------------------------------------------------------ */
/* Watching one source's grace periods */

void lrcu__stall_arm(struct lrcu_stall *st, unsigned long gp_seq, unsigned long now,
		    bool expedited)
{
	/* Relaxed: the release store of the deadline publishes them. */
	WRITE_ONCE(st->gp_seq, gp_seq);
	WRITE_ONCE(st->start_us, now);
	WRITE_ONCE(st->expedited, expedited);
	/* Pairs with the acquire load in lrcu__stall_due(). */
	smp_store_release(&st->deadline_us, now + stall_timeout_us(expedited));
}

void lrcu__stall_disarm(struct lrcu_stall *st)
{
	/* Relaxed: a reporter that still claims reports a finished grace
	 * period as "Stall ended before state dump start". */
	WRITE_ONCE(st->deadline_us, 0);
}

bool lrcu__stall_due(struct lrcu_stall *st, unsigned long now, long *next_us)
{
	/* Acquire pairs with the release in lrcu__stall_arm(). */
	unsigned long d = smp_load_acquire(&st->deadline_us), nd;
	bool exp = READ_ONCE(st->expedited);	/* see arm */

	if (!d) {
		/* No grace period yet: look again in a timeout, in case one
		 * starts while nobody is awake to see it. */
		*next_us = (long)stall_timeout_us(false);
		return false;
	}
	if ((long)(d - now) > 0) {
		*next_us = (long)(d - now);
		return false;
	}
	nd = now + 3 * stall_timeout_us(exp) + STALL_RAT_US;
	*next_us = (long)(nd - now);
	if (READ_ONCE(lrcu__params.cpu_stall_suppress))	/* run-time parameter */
		return false;
	/* One reporter per interval; fails if the GP ended or someone else
	 * claimed it.  Fully ordered: its acquire pairs with the release in
	 * lrcu__stall_arm(), as the load above (what the report prints). */
	return try_cmpxchg(&st->deadline_us, &d, nd);
}

/*
 * Is the warning overdue even for a waiter (past the deadline and the
 * waiter's grace), with nobody having claimed it?  A load and a compare:
 * safe anywhere, in a signal handler too.
 */
bool lrcu__stall_overdue(struct lrcu_stall *st, unsigned long now)
{
	/* Acquire pairs with the release in lrcu__stall_arm(). */
	unsigned long d = smp_load_acquire(&st->deadline_us);

	/* Suppressed, nobody claims it: no reason to wake anyone. */
	return d && (long)(now - STALL_WAITER_GRACE_US - d) >= 0 &&
	       !READ_ONCE(lrcu__params.cpu_stall_suppress);	/* run-time parameter */
}

/* ------------------------------------------------------------------ */
/* Building a report (report_lock held) */

struct lrcu_stall_out {
	char body[12288];		/* holdout and detail lines */
	size_t blen;
	char text[16384];		/* the whole report */
	struct rcu_stall_holdout holdouts[RCU_STALL_MAX_HOLDOUTS];
	int nr_holdouts;		/* counted, even past the array */
	int starved;
};

static pthread_mutex_t report_lock = PTHREAD_MUTEX_INITIALIZER;
static struct lrcu_stall_out out;		/* report_lock */
static struct rcu_stall_notifier *chain;	/* report_lock */

static void vappend(char *buf, size_t size, size_t *len, const char *fmt, va_list ap)
{
	int n;

	if (*len + 1 >= size)
		return;
	n = vsnprintf(buf + *len, size - *len, fmt, ap);
	if (n > 0)
		*len += (size_t)n < size - *len ? (size_t)n : size - *len - 1;
}

void lrcu__stall_printf(struct lrcu_stall_out *o, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vappend(o->body, sizeof(o->body), &o->blen, fmt, ap);
	va_end(ap);
}

void lrcu__stall_holdout(struct lrcu_stall_out *o, int slot, int tid, const char *name,
			unsigned long ms, unsigned long gps_behind)
{
	struct rcu_stall_holdout *h;

	if (o->nr_holdouts < RCU_STALL_MAX_HOLDOUTS) {
		h = &o->holdouts[o->nr_holdouts];
		h->slot = slot;
		h->tid = tid;
		snprintf(h->name, sizeof(h->name), "%s", name);
		h->ms = ms;
		h->gps_behind = gps_behind;
	}
	o->nr_holdouts++;
}

static __attribute__((format(printf, 3, 4)))
void text_printf(struct lrcu_stall_out *o, size_t *len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vappend(o->text, sizeof(o->text), len, fmt, ap);
	va_end(ap);
}

/* Who is reporting: a slot number, or a thread name (the GP kthread). */
static void detector(char *buf, size_t len)
{
	char name[16] = "?";

	if (lrcu_reader.slot >= 0) {
		snprintf(buf, len, "%d", lrcu_reader.slot);
		return;
	}
	pthread_getname_np(pthread_self(), name, sizeof(name));
	snprintf(buf, len, "%s", name);
}

static void write_all(const char *s, size_t len)
{
	ssize_t n;

	while (len && (n = write(STDERR_FILENO, s, len)) > 0) {
		s += n;
		len -= (size_t)n;
	}
}

void lrcu__stall_report(struct lrcu_stall *st, const struct lrcu_stall_source *src,
		       unsigned long now)
{
	/* Relaxed: published by the deadline the caller claimed (acquire). */
	unsigned long g = READ_ONCE(st->gp_seq);
	unsigned long start = READ_ONCE(st->start_us);
	bool exp = READ_ONCE(st->expedited);
	unsigned long age_ms = (now - start) / 1000;
	struct rcu_stall_info info;
	struct rcu_stall_notifier *nb;
	char who[32];
	size_t len = 0;
	int i, n;

	detector(who, sizeof(who));
	pthread_mutex_lock(&report_lock);
	out.blen = 0;
	out.body[0] = '\0';
	out.nr_holdouts = 0;
	out.starved = 0;
	n = src->print_holdouts(src->arg, &out, now);
	if (!exp) {
		text_printf(&out, &len, "rcu: INFO: %s detected stalls on CPUs/tasks:\n", src->name);
	} else {
		text_printf(&out, &len, "rcu: INFO: %s detected expedited stalls on CPUs/tasks: {",
			    src->name);
		for (i = 0; i < n && i < RCU_STALL_MAX_HOLDOUTS; i++)
			text_printf(&out, &len, " %d-....", out.holdouts[i].slot);
		text_printf(&out, &len, "%s } %lu jiffies s: %ld\n",
			    n > RCU_STALL_MAX_HOLDOUTS ? " ..." : "", age_ms, (long)g);
	}
	text_printf(&out, &len, "%s", out.body);
	if (!n && src->gp_seq(src->arg) != g)
		text_printf(&out, &len, "rcu: INFO: Stall ended before state dump start\n");
	text_printf(&out, &len, "\t(detected by %s, t=%lu jiffies, g=%ld, q=%lu)\n",
		    who, age_ms, (long)g, src->cbs_queued(src->arg));
	/* As the kernel: an expedited stall is the caller's wait, not the
	 * GP kthread's, so only a normal one asks whether it starved. */
	if (src->print_starved && !exp) {
		out.blen = 0;
		out.body[0] = '\0';
		src->print_starved(src->arg, &out, now);
		text_printf(&out, &len, "%s", out.body);
	}
	write_all(out.text, len);

	info = (struct rcu_stall_info){
		.flavor = src->name, .expedited = exp, .gp_seq = (long)g,
		.duration_ms = age_ms, .nr_holdouts = n, .holdouts = out.holdouts,
		.starved = out.starved, .text = out.text,
	};
	for (nb = chain; nb; nb = nb->next)
		nb->notifier_call(nb, exp ? RCU_STALL_NOTIFY_EXP : RCU_STALL_NOTIFY_NORM, &info);
	/* Statistics: relaxed. */
	atomic_inc(exp ? &st->n_exp_reports : &st->n_reports);
	pthread_mutex_unlock(&report_lock);
}

int lrcu_stall_notifier_register(struct rcu_stall_notifier *nb)
{
	struct rcu_stall_notifier *p;

	pthread_mutex_lock(&report_lock);
	for (p = chain; p && p != nb; p = p->next)
		;
	if (!p) {
		nb->next = chain;
		chain = nb;
	}
	pthread_mutex_unlock(&report_lock);
	if (p)
		errno = EEXIST;
	return p ? -1 : 0;
}

int lrcu_stall_notifier_unregister(struct rcu_stall_notifier *nb)
{
	struct rcu_stall_notifier **pp;
	bool found;

	pthread_mutex_lock(&report_lock);
	for (pp = &chain; *pp && *pp != nb; pp = &(*pp)->next)
		;
	found = *pp != NULL;
	if (found)
		*pp = nb->next;
	pthread_mutex_unlock(&report_lock);
	if (!found)
		errno = ENOENT;
	return found ? 0 : -1;
}

/* ------------------------------------------------------------------ */
/* The tree flavors as a source */

/* When recent grace periods started and ended, to date reader samples.
 * Written by the GP's driver (gp_mutex), read by reporters: every field
 * atomic, an entry is valid while its ->ctr matches. */
#define GP_RING	16
struct gp_time {
	unsigned long ctr;		/* gp_seq >> 2 of that grace period */
	unsigned long start_us, end_us;	/* end 0 until it ends */
};
static struct gp_time gp_ring[LRCU_NR_FLAVORS][GP_RING];
static unsigned long fqs_at_start[LRCU_NR_FLAVORS];	/* ->n_fqs_scans (atomic) */

/* When gp_seq moved past value s (0: not remembered). */
static unsigned long gp_seq_left(enum lrcu_flavor f, unsigned long s)
{
	unsigned long ctr = s >> RCU_SEQ_CTR_SHIFT, t;
	struct gp_time *e = &gp_ring[f][ctr % GP_RING];

	/* Acquire pairs with the release stores in the hooks below. */
	if (smp_load_acquire(&e->ctr) != ctr)
		return 0;
	/*
	 * Idle at s: it moved when GP ctr started; in progress: at its end.
	 * Acquire, so that the check below comes after it: a time that a
	 * later grace period stored in the entry (release, after its
	 * invalidation) makes the check fail.
	 */
	t = smp_load_acquire(rcu_seq_state(s) ? &e->end_us : &e->start_us);
	return smp_load_acquire(&e->ctr) == ctr ? t : 0;	/* as above */
}

/* A holdout as copied under its leaf lock. */
struct holdout_copy {
	int slot, tid, need_qs;
	unsigned long word;
	char name[16];
};
static struct holdout_copy copies[RCU_STALL_MAX_HOLDOUTS];	/* report_lock */

/* Copy the holdouts of grace period g out of the leaves; returns how
 * many there are (at most RCU_STALL_MAX_HOLDOUTS copied). */
static int copy_holdouts(struct lrcu_state *rsp, unsigned long g)
{
	struct lrcu_node *rnp;
	unsigned long m;
	int n = 0, i;

	lrcu_for_each_leaf(rsp, rnp) {
		if (!READ_ONCE(rnp->qsmask))	/* peek; rechecked under the lock */
			continue;
		lrcu__node_lock(rnp);
		for (m = READ_ONCE(rnp->gp_seq) == g ? rnp->qsmask : 0; m; m &= m - 1, n++) {
			struct lrcu_data *rdp;
			struct holdout_copy *c;

			if (n >= RCU_STALL_MAX_HOLDOUTS)
				continue;
			i = __builtin_ctzl(m);
			rdp = &rsp->rda[rnp->grplo + i];
			c = &copies[n];
			c->slot = rdp->slot;
			/* The slot's owner cannot change while we hold the
			 * leaf lock and ->word is set (slot_detach()). */
			c->word = rdp->word ? READ_ONCE(*rdp->word) : 0;
			c->need_qs = rdp->need_qs ? READ_ONCE(*rdp->need_qs) : 0;
			c->tid = rdp->word ? lrcu__slots[rdp->slot].tid : 0;
			snprintf(c->name, sizeof(c->name), "%s",
				 rdp->word ? lrcu__slots[rdp->slot].name : "(left)");
		}
		lrcu__node_unlock(rnp);
	}
	return n;
}

/* The thread's name now (it may have changed since it registered). */
static void task_comm(int tid, char *name, size_t len)
{
	char path[64], buf[32];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/self/task/%d/comm", tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 1)
		return;
	buf[n - 1] = '\0';	/* the newline */
	snprintf(name, len, "%.15s", buf);
}

/* /proc/self/task/TID/stat: state letter, last CPU, user+system ticks. */
static bool task_stat(int tid, char *state, int *cpu, unsigned long *ticks)
{
	char path[64], buf[1024], *p;
	unsigned long ut = 0, stt = 0;
	ssize_t len;
	int fd, field;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len <= 0)
		return false;
	buf[len] = '\0';
	p = strrchr(buf, ')');	/* the name may hold spaces */
	if (!p || p[1] != ' ')
		return false;
	*state = p[2];
	*cpu = -1;
	for (field = 3, p += 2; *p && field <= 39; field++) {
		if (field == 14)
			ut = strtoul(p, NULL, 10);
		else if (field == 15)
			stt = strtoul(p, NULL, 10);
		else if (field == 39)
			*cpu = (int)strtol(p, NULL, 10);
		p = strchr(p, ' ');
		if (!p)
			break;
		p++;
	}
	*ticks = ut + stt;
	return true;
}

static int tree_print_holdouts(void *arg, struct lrcu_stall_out *o, unsigned long now)
{
	struct lrcu_state *rsp = arg;
	unsigned long g = READ_ONCE(rsp->stall.gp_seq);
	unsigned long start = READ_ONCE(rsp->stall.start_us);
	unsigned long fqs = READ_ONCE(rsp->n_fqs_scans) -
			    READ_ONCE(fqs_at_start[rsp->flavor]);
	bool sched = rsp->flavor == LRCU_SCHED;
	struct lrcu_node *rnp;
	int n, i;

	n = copy_holdouts(rsp, g);
	for (i = 0; i < n && i < RCU_STALL_MAX_HOLDOUTS; i++) {
		struct holdout_copy *c = &copies[i];
		/* The sample's low 47 bits, widened to the value at or below g. */
		unsigned long s47 = c->word >> LRCU_W_SEQ_SHIFT;
		unsigned long s = g - ((g - s47) & (~0UL >> LRCU_W_SEQ_SHIFT));
		unsigned long left = gp_seq_left(rsp->flavor, s), behind, ms;
		unsigned long ticks;
		char state;
		int cpu;

		if (c->tid)
			task_comm(c->tid, c->name, sizeof(c->name));
		/* A holdout's word shows it quiescent: nobody rescanned it. */
		bool late = lrcu_word_qs(c->word, g);

		behind = late ? 0 : (g >> RCU_SEQ_CTR_SHIFT) -
				    ((s + RCU_SEQ_STATE_MASK) >> RCU_SEQ_CTR_SHIFT);
		/* It began before gp_seq moved past its sample, so before g. */
		ms = (!late && left && left <= start ? now - left : now - start) / 1000;
		lrcu__stall_holdout(o, c->slot, c->tid, c->name, ms, behind);
		lrcu__stall_printf(o, "rcu: \t%d-....: (%lu GPs behind) P%d %s: %s for at least %lu ms fqs=%lu",
				  c->slot, behind, c->tid, c->name,
				  late ? "quiescent but not reported" :
				  sched ? "no quiescent state" : "in a read-side critical section",
				  ms, fqs);
		if (READ_ONCE(lrcu__params.cpu_stall_info)) {	/* run-time parameter */
			lrcu__stall_printf(o, " nesting=%lu need_qs=%d", c->word & LRCU_W_NEST_MASK,
					  c->need_qs);
			if (c->tid && task_stat(c->tid, &state, &cpu, &ticks))
				lrcu__stall_printf(o, " state=%c cpu=%d cputime=%lu ticks", state,
						  cpu, ticks);
		}
		lrcu__stall_printf(o, "\n");
	}
	if (n > RCU_STALL_MAX_HOLDOUTS)
		lrcu__stall_printf(o, "rcu: \t... and %d more\n", n - RCU_STALL_MAX_HOLDOUTS);
	if (READ_ONCE(lrcu__params.cpu_stall_verbose)) {	/* run-time parameter */
		lrcu_for_each_node(rsp, rnp) {
			/* Diagnostics: unlocked peeks (WRITE_ONCE() in tree.c). */
			unsigned long qm = READ_ONCE(rnp->qsmask);

			if (qm)
				lrcu__stall_printf(o, "rcu: \trcu_node %d:%d-%d level %d ->gp_seq %ld "
						  "->qsmask 0x%lx\n", (int)(rnp - rsp->node),
						  rnp->grplo, rnp->grphi, rnp->level,
						  (long)READ_ONCE(rnp->gp_seq), qm);
		}
	}
	return n;
}

static void tree_print_starved(void *arg, struct lrcu_stall_out *o, unsigned long now)
{
	struct lrcu_state *rsp = arg;
	/* Diagnostics: WRITE_ONCE() by the driver. */
	unsigned long act = READ_ONCE(rsp->gp_activity_us), thr = stall_timeout_us(false) / 2;
	int st = READ_ONCE(rsp->gp_state), tid = READ_ONCE(rsp->gp_tid), cpu = -1;
	unsigned long ticks;
	char state = '?';

	if (READ_ONCE(rsp->gp_by_caller))
		return;		/* driven by a caller, not the kthread */
	if (thr > STARVED_MAX_US)
		thr = STARVED_MAX_US;
	if (now - act <= thr) {
		if (!READ_ONCE(rsp->node[0].qsmask))
			lrcu__stall_printf(o, "rcu: All QSes seen, last %s kthread activity %lu "
					  "jiffies ago, root ->qsmask 0x0\n", rsp->gp_thread_name,
					  (now - act) / 1000);
		return;
	}
	if (tid)
		task_stat(tid, &state, &cpu, &ticks);
	o->starved = 1;
	lrcu__stall_printf(o, "rcu: %s kthread starved for %lu jiffies! g%ld f0x0 %s(%d) "
			  "->state=%c ->cpu=%d\n", rsp->gp_thread_name, (now - act) / 1000,
			  (long)rcu_seq_current(rsp->gp_seq), lrcu_gp_state_name(st), st, state, cpu);
	lrcu__stall_printf(o, "rcu: \tUnless %s kthread gets sufficient CPU time, OOM is now "
			  "expected behavior.\n", rsp->gp_thread_name);
}

static unsigned long tree_gp_seq(void *arg)
{
	return rcu_seq_current(((struct lrcu_state *)arg)->gp_seq);
}

static unsigned long tree_cbs_queued(void *arg)
{
	struct lrcu_state *rsp = arg;
	struct lrcu_data *rdp;
	unsigned long q = 0;
	int hwm;

	lrcu_for_each_used_rdp(rsp, rdp, hwm)
		q += (unsigned long)READ_ONCE(rdp->cbl.len);	/* WRITE_ONCE under cblock */
	return q;
}

static const struct lrcu_stall_source tree_sources[LRCU_NR_FLAVORS] = {
	[LRCU_PREEMPT] = { "rcu_preempt", tree_print_holdouts, tree_gp_seq, tree_cbs_queued,
			   tree_print_starved, &lrcu__states[LRCU_PREEMPT] },
	[LRCU_SCHED] = { "rcu_sched", tree_print_holdouts, tree_gp_seq, tree_cbs_queued,
			 tree_print_starved, &lrcu__states[LRCU_SCHED] },
};

/*
 * Holdouts on demand (lrcu_dump_holdouts(), for hang reports: a torture
 * run that saw no grace period end for seconds names the culprits before
 * the stall timeout): the stall report's holdout lines, plus the rcu_node
 * masks still set, for the grace period in progress.
 */
void lrcu_dump_holdouts(enum lrcu_flavor f, FILE *o)
{
	struct lrcu_state *rsp;
	struct lrcu_node *rnp;
	unsigned long g, now;
	int n;

	if (f >= LRCU_NR_FLAVORS)
		return;
	lrcu__init_once();
	rsp = &lrcu__states[f];
	g = READ_ONCE(rsp->stall.gp_seq);	/* while armed */
	if (!smp_load_acquire(&rsp->stall.deadline_us) ||	/* see arm */
	    !rcu_seq_state(rcu_seq_current(rsp->gp_seq))) {
		fprintf(o, "%s: no grace period in progress\n", rsp->name);
		return;
	}
	now = lrcu__now_us();
	pthread_mutex_lock(&report_lock);
	out.blen = 0;
	out.body[0] = '\0';
	out.nr_holdouts = 0;
	n = tree_print_holdouts(rsp, &out, now);
	fprintf(o, "%s: grace period g%ld, %lu ms old: %d holdout(s)\n%s", rsp->name, (long)g,
		(now - READ_ONCE(rsp->stall.start_us)) / 1000, n, out.body);
	pthread_mutex_unlock(&report_lock);
	lrcu_for_each_node(rsp, rnp) {
		/* Diagnostics: unlocked peeks (WRITE_ONCE() in tree.c). */
		unsigned long qm = READ_ONCE(rnp->qsmask);

		if (qm)
			fprintf(o, "%s: \trcu_node %d:%d-%d level %d ->gp_seq %ld ->qsmask 0x%lx%s\n",
				rsp->name, (int)(rnp - rsp->node), rnp->grplo, rnp->grphi,
				rnp->level, (long)READ_ONCE(rnp->gp_seq), qm,
				lrcu_node_is_leaf(rsp, rnp) ? "" : " (children still owing)");
	}
}

/* The hooks (the GP's driver calls start/end, with gp_mutex held). */

static void stall_gp_start(struct lrcu_state *rsp, unsigned long gstart, unsigned long now)
{
	struct gp_time *e = &gp_ring[rsp->flavor][(gstart >> RCU_SEQ_CTR_SHIFT) % GP_RING];

	/*
	 * Invalidate, fill, then publish (release: pairs with gp_seq_left()'s
	 * acquire loads).  The fills are releases too, so that the
	 * invalidation is seen before them (a seqlock's write barrier).
	 */
	smp_store_release(&e->ctr, ~0UL);
	smp_store_release(&e->start_us, now);	/* see above */
	smp_store_release(&e->end_us, 0);	/* see above */
	smp_store_release(&e->ctr, gstart >> RCU_SEQ_CTR_SHIFT);	/* see above */
	WRITE_ONCE(fqs_at_start[rsp->flavor], READ_ONCE(rsp->n_fqs_scans));	/* statistic snapshot */
	lrcu__stall_arm(&rsp->stall, gstart, now, READ_ONCE(rsp->gp_expedited));
}

/*
 * The grace period's driver reports; a waiter only a little later (the
 * kernel's RCU_STALL_RAT_DELAY), when the driver did not: it is then the
 * one that notices a starved GP kthread.
 */
static long stall_gp_check(struct lrcu_state *rsp, unsigned long now, bool driver)
{
	unsigned long grace = driver ? 0 : STALL_WAITER_GRACE_US;
	long next;

	if (lrcu__stall_due(&rsp->stall, now - grace, &next))
		lrcu__stall_report(&rsp->stall, &tree_sources[rsp->flavor], now);
	return next;
}

static void stall_gp_end(struct lrcu_state *rsp, unsigned long gend, unsigned long now)
{
	/* gend is the idle value after the GP: the entry of GP ctr - 1. */
	struct gp_time *e = &gp_ring[rsp->flavor][((gend >> RCU_SEQ_CTR_SHIFT) - 1) % GP_RING];

	lrcu__stall_disarm(&rsp->stall);
	WRITE_ONCE(e->end_us, now);	/* ctr unchanged */
}

static const struct lrcu_gp_hooks stall_hooks = {
	.gp_start = stall_gp_start,
	.gp_check = stall_gp_check,
	.gp_end = stall_gp_end,
};

void lrcu__stall_init(struct lrcu_state *rsp)
{
	lrcu__gp_hook_add(rsp, &stall_hooks);
}

void lrcu__stall_fork(enum lrcu_fork_phase ph)
{
	lrcu__fork_mutex(&report_lock, ph);
}
