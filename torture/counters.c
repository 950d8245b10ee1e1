/* SPDX-License-Identifier: MIT */
/*
 * counters.c - the failure counters, declared once.
 *
 * Each row names a failure counter: its JSON key (summary.json "errors",
 * stats.jsonl "failures"), the verdict's reason when it is the first
 * non-zero one, and how to read it.  The verdict (torture_errors()), both
 * JSON objects and the console's "!!! Failures:" line are all generated
 * from this table, so a new check is one row here.
 */
#include <stddef.h>
#include "torture.h"

unsigned long hist_sum_from(const unsigned long *a, int from)
{
	unsigned long s = 0;
	int i;

	for (i = from; i <= RCU_TORTURE_PIPE_LEN; i++)
		s += STAT_READ(a[i]);
	return s;
}

static unsigned long get_pipe(void) { return hist_sum_from(tc.pipe, 2); }
static unsigned long get_fbc10(void) { return STAT_READ(tc.wcount[RCU_TORTURE_PIPE_LEN]); }
static unsigned long get_wstall(void)
{
	return STAT_READ(tc.writer_stalls) - STAT_READ(tc.deliberate_stalls);
}
static unsigned long get_hang(void)
{
	return STAT_READ(tc.gp_hangs) - STAT_READ(tc.gp_hangs_deliberate);
}
static unsigned long get_hung_at_stop(void)
{
	return (unsigned long)STAT_READ(torture_hung_at_stop);
}

unsigned long misuse_unexpected(void)
{
	unsigned long m = cur_ops->misuse_count ? cur_ops->misuse_count() : 0;
	unsigned long e = STAT_READ(tc.misuse_expected);

	return m > e ? m - e : 0;
}

#define TC(field)	offsetof(struct torture_counters, field), NULL
#define FN(fn)		0, fn
static const struct failure_counter {
	const char *key;		/* JSON key */
	const char *reason;		/* the verdict's reason */
	size_t off;			/* a plain counter in tc ... */
	unsigned long (*get)(void);	/* ... or computed */
} failures[] = {
	{ "reader_pipe", "too-short grace period (Reader Pipe entries past index 1)", FN(get_pipe) },
	{ "gp_oracle", "too-short grace period: a grace period that began after a reader's "
	  "element was removed ended while the reader still held it (oracle)", TC(gpo_fail) },
	{ "cb_early", "callback invoked before its grace period ended (oracle)", TC(gpo_cb_early) },
	{ "fbc10", "element used after its last grace period (Free-Block Circulation[10])",
	  FN(get_fbc10) },
	{ "rtmbe", "reader saw an uninitialised or recycled element (rtmbe)", TC(rtmbe) },
	{ "rtmbkf", "grace period failed to order readers (rtmbkf)", TC(rtmbkf_fail) },
	{ "rtbe", "callback barrier error (rtbe)", TC(rtbe) },
	{ "cookie", "polled grace-period cookie check failed", TC(cookie_errors) },
	{ "leaks", "callback lost (leak check)", TC(leaks) },
	{ "gp_hang", "grace-period hang: no grace period ended within gp_hang_timeout while "
	  "an updater waited", FN(get_hang) },
	{ "writer_stalls", "writer stall (grace-period hang)", FN(get_wstall) },
	{ "hang_at_stop", "grace-period hang at shutdown", FN(get_hung_at_stop) },
	{ "fwd", "forward-progress failure", TC(fwd_errors) },
	{ "rcu_stalls", "RCU CPU stall warning (not asked for by stall_cpu)",
	  TC(rcu_stalls_unexpected) },
	{ "stall_unnamed", "stall_cpu: no RCU CPU stall warning named the stalled reader",
	  TC(stall_unnamed) },
	{ "misuse", "RCU reported misuse", FN(misuse_unexpected) },
	{ "objdebug", "object_debug: duplicate call() not detected", TC(objdebug_fail) },
	{ "register", "a torture thread could not register (raise nr_cpus)", TC(register_fail) },
	{ "onoff", "RCU_HOTPLUG", TC(onoff_fail) },
};
#undef TC
#undef FN
#define NFAILURES	(sizeof(failures) / sizeof(failures[0]))

static unsigned long failure_value(const struct failure_counter *f)
{
	if (f->get)
		return f->get();
	return STAT_READ(*(unsigned long *)((char *)&tc + f->off));
}

unsigned long torture_errors(char *reason, size_t len)
{
	unsigned long total = 0, n;
	size_t i;

	reason[0] = '\0';
	for (i = 0; i < NFAILURES; i++) {
		n = failure_value(&failures[i]);
		if (n && !reason[0])
			snprintf(reason, len, "%s", failures[i].reason);
		total += n;
	}
	return total;
}

void failures_json(FILE *out)
{
	size_t i;

	fputc('{', out);
	for (i = 0; i < NFAILURES; i++)
		fprintf(out, "%s\"%s\":%lu", i ? "," : "", failures[i].key,
			failure_value(&failures[i]));
	fputc('}', out);
}

/* " !!! Failures: key=N ..." with the non-zero ones, if any. */
void failures_console(void)
{
	char buf[512];
	size_t i, used = 0;
	unsigned long n;

	buf[0] = '\0';
	for (i = 0; i < NFAILURES; i++) {
		n = failure_value(&failures[i]);
		if (n && used < sizeof(buf))
			used += (size_t)snprintf(buf + used, sizeof(buf) - used, " %s=%lu",
						 failures[i].key, n);
	}
	if (buf[0])
		torout(" !!! Failures:%s", buf);
}
