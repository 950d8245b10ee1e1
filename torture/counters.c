/* SPDX-License-Identifier: MIT */
/*
 * counters.c - every counter the run reports, declared once.
 *
 * Each row of counters[] is one reported value: where it is read (a field
 * of tc, a function, or an ops hook a type may lack: then JSON null), its
 * JSON key and the sub-object it sits in, its place on the console's stats
 * line with the text before it, its place in summary.json, and for a
 * failure counter the verdict's reason.  Generated from the table: the
 * kernel-format stats line (" rtc: ... nocb-toggles: x:y") and its
 * histogram lines, each stats.jsonl line, summary.json's counters and its
 * "errors" object, the " !!! Failures:" line and the verdict.  A new
 * counter is one row.
 *
 * The three outputs keep three orders, as the scripts read them:
 * stats.jsonl follows the table; the console follows the kernel's line,
 * which puts tfle after ver and onoff before barrier (con_at numbers its
 * labelled fields; JOIN rows continue the field of the row above, as in
 * "rtmbkf: 0/890"); summary.json has its own (sum_at, between the keys
 * write_summary() writes itself).  The failure rows come last, in the
 * order the verdict's reason is chosen.
 */
#include <limits.h>
#include <stddef.h>
#include <string.h>
#include "torture.h"

static unsigned long hist_sum_from(const unsigned long *a, int from)
{
	unsigned long s = 0;
	int i;

	for (i = from; i <= RCU_TORTURE_PIPE_LEN; i++)
		s += STAT_READ(a[i]);
	return s;
}

/* ------------------------------------------------------------------ */
/* Computed values */

static unsigned long get_rtc(void)
{
	/* The address only, never dereferenced: relaxed. */
	return (unsigned long)READ_ONCE(rcu_torture_current);
}
static unsigned long get_tfle(void) { return (unsigned long)pool_freelist_empty(); }
static unsigned long get_close_calls(void) { return hist_sum_from(tc.batch, 2); }
static unsigned long min_or_zero(unsigned long m) { return m == ULONG_MAX ? 0 : m; }
static unsigned long get_min_on(void) { return min_or_zero(STAT_READ(tc.min_on)); }
static unsigned long get_min_off(void) { return min_or_zero(STAT_READ(tc.min_off)); }
static unsigned long get_stalls(void)
{
	return STAT_READ(tc.writer_stalls) + STAT_READ(tc.rcu_stalls);
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
static unsigned long misuse_unexpected(void)
{
	unsigned long m = cur_ops->misuse_count ? cur_ops->misuse_count() : 0;
	unsigned long e = STAT_READ(tc.misuse_expected);

	return m > e ? m - e : 0;
}

/* ------------------------------------------------------------------ */
/* The table */

enum counter_src {
	FROM_TC,	/* an unsigned long in tc */
	FROM_HIST,	/* a histogram in tc: a JSON array and a console line */
	FROM_FN,	/* computed */
	FROM_OPS,	/* an ops hook; JSON null for a type without it */
};
enum {
	C_HEX = 1,		/* console: 0x%016lx */
	C_SIGNED = 2,		/* a long (gp_seq starts below 0) */
	C_BANG = 4,		/* its console line reads "!!! NAME:" while failing */
	C_SUMMARY_ONLY = 8,	/* not in stats.jsonl */
};

struct counter {
	const char *key;		/* JSON key; NULL: on the console only */
	const char *group;		/* the JSON sub-object it is in, or NULL */
	enum counter_src from;
	size_t off;			/* FROM_TC/HIST: in tc; FROM_OPS: the hook */
	unsigned long (*get)(void);	/* FROM_FN */
	const char *con;		/* console: the text before the value (label,
					 * or the separator of a JOIN row); a
					 * histogram's line name; NULL: not shown */
	int con_at;			/* the kernel's field this label starts, 1..;
					 * 0 with con: JOIN (or a histogram) */
	int sum_at;			/* its place in summary.json, 0: not there */
	unsigned flags;			/* C_* */
	const char *reason;		/* a failure counter: the verdict's reason */
};

#define TC(f)		.from = FROM_TC, .off = offsetof(struct torture_counters, f)
#define HIST(f)		.from = FROM_HIST, .off = offsetof(struct torture_counters, f)
#define FN(fn)		.from = FROM_FN, .get = fn
#define OPS(hook)	.from = FROM_OPS, .off = offsetof(struct torture_ops, hook)
#define IN(g)		.group = g
#define CON(at, label)	.con_at = at, .con = label
#define JOIN(sep)	.con = sep
#define LINE(name)	.con = name
#define SUM(at)		.sum_at = at
#define FAIL(why)	.group = "failures", .reason = why
#define XSTR(x)		STR(x)
#define STR(x)		#x

static const struct counter counters[] = {
	{ NULL, FN(get_rtc), CON(1, " rtc: "), .flags = C_HEX },
	{ "ver", TC(ver), CON(2, " ver: "), SUM(3) },
	{ "rta", TC(rta), CON(4, " rta: ") },
	{ "rtaf", TC(rtaf), CON(5, " rtaf: ") },
	{ "rtf", TC(rtf), CON(6, " rtf: ") },
	{ "rtmbe", TC(rtmbe), CON(7, " rtmbe: ") },
	{ "rtmbkf_fail", TC(rtmbkf_fail), CON(8, " rtmbkf: ") },
	{ "rtmbkf_try", TC(rtmbkf_try), JOIN("/") },
	{ "rtbe", TC(rtbe), CON(9, " rtbe: ") },
	/* The priority-boost test (boost.c). */
	{ "rtbke", TC(boost_ktrerror), CON(10, " rtbke: ") },
	{ "rtbf", TC(boost_failure), CON(11, " rtbf: ") },
	{ "rtb", TC(boosts), CON(12, " rtb: ") },
	{ "nt", TC(nt), CON(13, " nt: ") },
	{ "tfle", FN(get_tfle), CON(3, " tfle: ") },
	{ "pipe", HIST(pipe), LINE("Reader Pipe"), .flags = C_BANG },
	{ "batch", HIST(batch), LINE("Reader Batch") },
	{ "fbc", HIST(wcount), LINE("Free-Block Circulation") },
	{ "gps", OPS(gps_completed), SUM(2) },
	{ "gp_seq", OPS(get_gp_seq), .flags = C_SIGNED },
	{ "reads", TC(reads), SUM(4) },
	{ "updown_reads", TC(updown_reads) },
	{ "close_calls", FN(get_close_calls), SUM(5) },
	{ "cookie_errors", TC(cookie_errors) },
	{ "leaks", TC(leaks) },
	{ "writer_stalls", TC(writer_stalls) },
	/* As kvm-recheck counts "Stalls". */
	{ "stalls", FN(get_stalls), SUM(6), .flags = C_SUMMARY_ONLY },
	{ "rcu_stalls", TC(rcu_stalls), SUM(7) },
	/* The priority-boost test and reader preemption (boost.c, preempt.c). */
	{ "boost_tests", TC(boosts), SUM(8), .flags = C_SUMMARY_ONLY },
	{ "readers_boosted", OPS(boosts), SUM(9) },
	{ "preemptions", TC(preemptions), SUM(10) },
	{ "boost_holds", TC(boost_holds) },
	{ "nmi_dumps", TC(nmi_dumps) },
	/* The kernel's onoff field ends with its HZ. */
	{ "barrier_ok", TC(barrier_ok), CON(15, " (HZ=" XSTR(TORTURE_HZ) ") barrier: ") },
	{ "barrier_attempts", TC(barrier_attempts), JOIN("/") },
	{ "barrier_errors", TC(rtbe), JOIN(":") },
	{ "on_ok", IN("onoff"), TC(on_ok), CON(14, " onoff: ") },
	{ "on_try", IN("onoff"), TC(on_try), JOIN("/") },
	{ "off_ok", IN("onoff"), TC(off_ok), JOIN(":") },
	{ "off_try", IN("onoff"), TC(off_try), JOIN("/") },
	{ "min_on", IN("onoff"), FN(get_min_on), JOIN(" ") },
	{ "max_on", IN("onoff"), TC(max_on), JOIN(",") },
	{ "min_off", IN("onoff"), FN(get_min_off), JOIN(":") },
	{ "max_off", IN("onoff"), TC(max_off), JOIN(",") },
	{ "sum_on", IN("onoff"), TC(sum_on), JOIN(" ") },
	{ "sum_off", IN("onoff"), TC(sum_off), JOIN(":") },
	{ "failures", IN("onoff"), TC(onoff_fail) },
	{ "read_exits", TC(read_exits), CON(16, " read-exits: ") },
	{ "offload", IN("nocb_toggles"), TC(nocb_offload), CON(17, " nocb-toggles: ") },
	{ "deoffload", IN("nocb_toggles"), TC(nocb_deoffload), JOIN(":") },
	{ "floods", IN("fwd"), TC(fwd_floods) },
	{ "n_max_cbs", IN("fwd"), TC(fwd_max_cbs) },
	{ "launders", IN("fwd"), TC(fwd_launders) },
	{ "errors", IN("fwd"), TC(fwd_errors) },
	{ "misuse", OPS(misuse_count) },
	{ "oracle_checks", TC(gpo_checks), SUM(1) },

	/* Failure counters: stats.jsonl's "failures", summary.json's "errors". */
	{ "rtbf", TC(boost_failure),
	  FAIL("boost failure: a grace period outlasted test_boost_duration while real-time "
	       "threads kept every processor busy: its readers were not boosted (rtbf)") },
	{ "rtbke", TC(boost_ktrerror), FAIL("a boost-test thread could not start (rtbke)") },
	{ "rtbre", TC(boost_rterror),
	  FAIL("a boost-test thread could not be made SCHED_FIFO (rtbre)") },
	{ "reader_pipe", FN(get_pipe),
	  FAIL("too-short grace period (Reader Pipe entries past index 1)") },
	{ "gp_oracle", TC(gpo_fail),
	  FAIL("too-short grace period: a grace period that began after a reader's element "
	       "was removed ended while the reader still held it (oracle)") },
	{ "cb_early", TC(gpo_cb_early),
	  FAIL("callback invoked before its grace period ended (oracle)") },
	{ "fbc10", FN(get_fbc10),
	  FAIL("element used after its last grace period (Free-Block Circulation[10])") },
	{ "rtmbe", TC(rtmbe), FAIL("reader saw an uninitialised or recycled element (rtmbe)") },
	{ "rtmbkf", TC(rtmbkf_fail), FAIL("grace period failed to order readers (rtmbkf)") },
	{ "rtbe", TC(rtbe), FAIL("callback barrier error (rtbe)") },
	{ "cookie", TC(cookie_errors), FAIL("polled grace-period cookie check failed") },
	{ "leaks", TC(leaks), FAIL("callback lost (leak check)") },
	{ "leakpointer", TC(leaked_used),
	  FAIL("leakpointer: a pointer leaked out of a read-side section was used after its "
	       "element's grace period (expected with rcutorture.leakpointer=1)") },
	{ "gp_hang", FN(get_hang),
	  FAIL("grace-period hang: no grace period ended within gp_hang_timeout while an "
	       "updater waited") },
	{ "writer_stalls", FN(get_wstall), FAIL("writer stall (grace-period hang)") },
	{ "hang_at_stop", FN(get_hung_at_stop), FAIL("grace-period hang at shutdown") },
	{ "fwd", TC(fwd_errors), FAIL("forward-progress failure") },
	{ "rcu_stalls", TC(rcu_stalls_unexpected),
	  FAIL("RCU CPU stall warning (not asked for by stall_cpu or stall_gp_kthread)") },
	{ "stall_unnamed", TC(stall_unnamed),
	  FAIL("stall_cpu: no RCU CPU stall warning named the stalled reader") },
	{ "stall_gp_unnamed", TC(stall_gp_unnamed),
	  FAIL("stall_gp_kthread: no RCU CPU stall warning said the grace-period kthread "
	       "starved") },
	{ "misuse", FN(misuse_unexpected), FAIL("RCU reported misuse") },
	{ "objdebug", TC(objdebug_fail), FAIL("object_debug: duplicate call() not detected") },
	{ "register", TC(register_fail),
	  FAIL("a torture thread could not register (raise nr_cpus)") },
	{ "onoff", TC(onoff_fail), FAIL("RCU_HOTPLUG") },
};
#define NCOUNTERS	(sizeof(counters) / sizeof(counters[0]))

/* ------------------------------------------------------------------ */
/* Reading a row */

static const unsigned long *tc_at(size_t off)
{
	return (const unsigned long *)((const char *)&tc + off);
}

/* False (and 0) when the type cannot tell (an ops hook it lacks). */
static bool counter_value(const struct counter *c, unsigned long *v)
{
	unsigned long (*hook)(void);

	*v = 0;
	switch (c->from) {
	case FROM_TC:
		*v = STAT_READ(*(unsigned long *)tc_at(c->off));
		return true;
	case FROM_FN:
		*v = c->get();
		return true;
	case FROM_OPS:
		hook = *(unsigned long (*const *)(void))((const char *)cur_ops + c->off);
		if (hook)
			*v = hook();
		return hook != NULL;
	case FROM_HIST:
		break;
	}
	return false;
}

static unsigned long value_of(const struct counter *c)
{
	unsigned long v;

	counter_value(c, &v);
	return v;
}

/* The row that starts console field `at' (summary: is at place `at'). */
static const struct counter *placed(int at, bool summary)
{
	size_t i;

	for (i = 0; i < NCOUNTERS; i++)
		if ((summary ? counters[i].sum_at : counters[i].con_at) == at)
			return &counters[i];
	return NULL;
}

/* ------------------------------------------------------------------ */
/* Console */

static size_t con_put(char *buf, size_t len, const struct counter *c)
{
	unsigned long v = value_of(c);
	int n;

	if (c->flags & C_HEX)
		n = snprintf(buf, len, "%s0x%016lx", c->con, v);
	else if (c->flags & C_SIGNED)
		n = snprintf(buf, len, "%s%ld", c->con, (long)v);
	else
		n = snprintf(buf, len, "%s%lu", c->con, v);
	return n < 0 ? 0 : (size_t)n;
}

static bool joined(const struct counter *c)
{
	return c->con && !c->con_at && c->from != FROM_HIST;
}

/* " NAME:  n0 n1 ... n10" */
static void hist_line(const struct counter *c, bool bang)
{
	const unsigned long *a = tc_at(c->off);
	char buf[512];
	size_t used = 0;
	int i;

	for (i = 0; i <= RCU_TORTURE_PIPE_LEN; i++)
		used += (size_t)snprintf(buf + used, sizeof(buf) - used, " %lu", STAT_READ(a[i]));
	torout(" %s%s: %s", bang ? "!!! " : "", c->con, buf);
}

/* " !!! Failures: key=N ..." with the non-zero ones, if any. */
static void failures_console(void)
{
	char buf[512];
	size_t i, used = 0;
	unsigned long n;

	buf[0] = '\0';
	for (i = 0; i < NCOUNTERS; i++) {
		if (!counters[i].reason || !(n = value_of(&counters[i])))
			continue;
		if (used < sizeof(buf))
			used += (size_t)snprintf(buf + used, sizeof(buf) - used, " %s=%lu",
						 counters[i].key, n);
	}
	if (buf[0])
		torout(" !!! Failures:%s", buf);
}

void counters_console(bool failing)
{
	const struct counter *c;
	char line[1024];
	size_t used = 0, i;
	int at;

	line[0] = '\0';
	for (at = 1; (c = placed(at, false)); at++)
		do
			if (used < sizeof(line))
				used += con_put(line + used, sizeof(line) - used, c);
		while (++c < counters + NCOUNTERS && joined(c));
	torout("%s", line);
	failures_console();	/* before Reader Pipe: the judges read the last "!!!" line */
	for (i = 0; i < NCOUNTERS; i++)
		if (counters[i].from == FROM_HIST && counters[i].con)
			hist_line(&counters[i], failing && (counters[i].flags & C_BANG));
}

/* ------------------------------------------------------------------ */
/* JSON */

static void json_value(FILE *f, const struct counter *c)
{
	const unsigned long *a;
	unsigned long v;
	int i;

	if (c->from == FROM_HIST) {
		a = tc_at(c->off);
		for (i = 0; i <= RCU_TORTURE_PIPE_LEN; i++)
			fprintf(f, "%s%lu", i ? "," : "[", STAT_READ(a[i]));
		fputc(']', f);
	} else if (!counter_value(c, &v)) {
		fputs("null", f);
	} else if (c->flags & C_SIGNED) {
		fprintf(f, "%ld", (long)v);
	} else {
		fprintf(f, "%lu", v);
	}
}

static bool same_group(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* "key":value,... of the stats.jsonl rows (failures_only: the failure
 * rows, without their sub-object); a run of rows of one group makes its
 * sub-object. */
static void json_rows(FILE *f, bool failures_only)
{
	const char *open = NULL, *sep = "";
	size_t i;

	for (i = 0; i < NCOUNTERS; i++) {
		const struct counter *c = &counters[i];

		if (!c->key || (c->flags & C_SUMMARY_ONLY) || (failures_only && !c->reason))
			continue;
		if (open && !same_group(open, c->group)) {
			fputc('}', f);
			open = NULL;
		}
		if (c->group && !open && !failures_only) {
			fprintf(f, "%s\"%s\":{", sep, c->group);
			open = c->group;
			sep = "";
		}
		fprintf(f, "%s\"%s\":", sep, c->key);
		json_value(f, c);
		sep = ",";
	}
	if (open)
		fputc('}', f);
}

void counters_json(FILE *f)
{
	json_rows(f, false);
}

void failures_json(FILE *f)
{
	fputc('{', f);
	json_rows(f, true);
	fputc('}', f);
}

void counters_summary(FILE *f, int from, int to)
{
	const struct counter *c;
	int at;

	for (at = from; (!to || at <= to) && (c = placed(at, true)); at++) {
		fprintf(f, ",\"%s\":", c->key);
		json_value(f, c);
	}
}

/* ------------------------------------------------------------------ */
/* The verdict */

unsigned long torture_errors(char *reason, size_t len)
{
	unsigned long total = 0, n;
	size_t i;

	reason[0] = '\0';
	for (i = 0; i < NCOUNTERS; i++) {
		if (!counters[i].reason)
			continue;
		n = value_of(&counters[i]);
		if (n && !reason[0])
			snprintf(reason, len, "%s", counters[i].reason);
		total += n;
	}
	return total;
}
