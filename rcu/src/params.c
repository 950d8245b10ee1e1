/* SPDX-License-Identifier: MIT */
/*
 * params.c - the library's parameters, by their kernel boot-parameter
 * names.  One table: name, storage, range, whether it is fixed at start,
 * and the unit: most are integers; a few are seconds with up to three
 * decimals (rcupdate.rcu_cpu_stall_timeout=0.5), stored as milliseconds;
 * and text ones (rcu_nocbs=1-3,7), checked by their mechanism.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <rcu/rcupdate_trace.h>
#include "internal.h"

#ifdef LRCU_DEBUG
#define DEFAULT_DEBUG_OBJECTS 1
#else
#define DEFAULT_DEBUG_OBJECTS 0
#endif

/* rcupdate.rcu_tasks_trace_read_mb: read by the inline Tasks Trace readers
 * (<rcu/rcupdate_trace.h>), so a variable of its own, not a field below. */
long lrcu_tasks_trace_read_mb;

struct lrcu__params lrcu__params = {
	.nr_cpus = 4096,
	.fanout = 64,
	.fanout_leaf = 16,
	.fanout_exact = 0,
	.jiffies_till_first_fqs = 3,	/* 1 + (HZ > 250) + (HZ > 500), HZ = 1000 */
	.jiffies_till_next_fqs = 3,
	.blimit = 10,
	.qhimark = 10000,
	.qlowmark = 100,
	.gp_preinit_delay = 0,
	.gp_init_delay = 0,
	.gp_cleanup_delay = 0,
	.debug_objects = DEFAULT_DEBUG_OBJECTS,
	.use_membarrier = 1,
	.self_register = 0,
	.fault_skip_leaf = -1,
	.rcu_expedited = 0,
	.rcu_normal = 0,
	.rcu_normal_after_boot = 0,
	.gp_caller_drives = 1,
	.gp_defer_fence = 1,
	.gp_start_delay = 0,
	.cpu_stall_timeout_ms = 21000,	/* CONFIG_RCU_CPU_STALL_TIMEOUT=21 */
	.cpu_stall_suppress = 0,
	.exp_cpu_stall_timeout_ms = 0,	/* CONFIG_RCU_EXP_CPU_STALL_TIMEOUT=0 */
	.cpu_stall_info = 0,
	.cpu_stall_verbose = 0,
	.fault_exp_skip_reader = 0,
	.fault_exp_skip_fence = 0,
	.rcu_nocbs = "",
	.nocbs_given = 0,		/* no rcu_nocbs: no offloading */
	.nocb_poll = 0,
	.nocb_gp_stride = -1,
	.lazy_gp_delay = 10000,		/* the kernel's LAZY_FLUSH_JIFFIES, 10 * HZ */
	.enable_lazy = 0,		/* CONFIG_RCU_LAZY=n */
	.kthread_prio = 0,		/* CONFIG_RCU_KTHREAD_PRIO=0 (RCU_BOOST=n) */
	.rcu_boost = 0,			/* CONFIG_RCU_BOOST=n */
	.rcu_boost_delay = 500,		/* CONFIG_RCU_BOOST_DELAY=500 */
	.task_stall_timeout = 600000,	/* the kernel's RCU_TASK_STALL_TIMEOUT, 10 min */
	.task_stall_info = 10000,	/* the kernel's RCU_TASK_STALL_INFO, 10 * HZ */
	.task_stall_info_mult = 3,
	.task_enqueue_lim = -1,		/* one queue */
#ifdef LRCU_WEAKMEM
	.wm_delay_us = 5000,
	.wm_mode = 1,
#endif
};

/* ------------------------------------------------------------------ */
/* CPU lists (rcu_nocbs=, read by tree_nocb.c): "1-3,7", "0-7:2/4" (groups,
 * as the kernel's cpulists), "N" for the last CPU, "all", or empty. */

/* One number, or N (the last CPU, nr_cpus - 1; unknown when checking). */
static const char *cpulist_num(const char *p, long last, long *v)
{
	char *end;

	if (*p == 'N') {
		*v = last;
		return p + 1;
	}
	if (*p < '0' || *p > '9')
		return NULL;
	*v = strtol(p, &end, 10);
	return end;
}

int lrcu__cpulist_parse(const char *s, long nr_cpus, bool *set, long *beyond,
			char *err, size_t errlen)
{
	const char *p = s;
	long a, b, used, grp, c, last = nr_cpus > 0 ? nr_cpus - 1 : LONG_MAX / 4;

	if (!strcmp(s, "all")) {
		for (c = 0; set && c < nr_cpus; c++)
			set[c] = true;
		return 0;
	}
	while (*p) {
		if (!(p = cpulist_num(p, last, &a)))
			goto bad;
		b = a;
		used = grp = 1;
		if (*p == '-' && !(p = cpulist_num(p + 1, last, &b)))
			goto bad;
		if (*p == ':') {
			if (!(p = cpulist_num(p + 1, last, &used)) || *p != '/' ||
			    !(p = cpulist_num(p + 1, last, &grp)) || used < 1 || grp < used)
				goto bad;
		}
		if (b < a)
			goto bad;
		for (c = a; set && c <= b; c++) {
			if ((c - a) % grp >= used)
				continue;
			if (c < nr_cpus)
				set[c] = true;
			else
				(*beyond)++;
		}
		if (*p == ',' && p[1])
			p++;
		else if (*p)
			goto bad;
	}
	return 0;
bad:
	snprintf(err, errlen, "rcu_nocbs: bad CPU list '%s' (expected e.g. 1-3,7, 0-7:1/2, "
		 "all, or nothing)", s);
	return -1;
}

/* The check when rcu_nocbs is set (N unknown yet). */
static int cpulist_check(const char *s, char *err, size_t errlen)
{
	return lrcu__cpulist_parse(s, -1, NULL, NULL, err, errlen);
}

struct param_desc {
	const char *name;
	long *val;
	long min, max;		/* in stored units */
	bool fixed;		/* shapes the tree: only before start */
	const char *what;
	long scale;		/* 0: an integer; 1000: seconds, stored in ms */
	/* Text parameters (val: set to 1 once given; NULL for integers): */
	char *str;		/* the value, at most strsize - 1 characters */
	size_t strsize;
	int (*check)(const char *v, char *err, size_t errlen);
};

#define P(n, field, lo, hi, fx, w) { n, &lrcu__params.field, lo, hi, fx, w, 0, NULL, 0, NULL }
#define SECS(n, field, lo, hi, w) { n, &lrcu__params.field, lo, hi, false, w, 1000, NULL, 0, NULL }
#define TEXT(n, field, given, fx, chk, w) { n, &lrcu__params.given, 0, 1, fx, w, 0, \
	lrcu__params.field, sizeof(lrcu__params.field), chk }
static const struct param_desc param_table[] = {
	P("nr_cpus", nr_cpus, 1, 1L << 20, true, "thread-slot capacity (CONFIG_NR_CPUS)"),
	P("rcutree.rcu_fanout", fanout, 2, LRCU_FANOUT_MAX, true, "children per inner rcu_node"),
	P("rcutree.rcu_fanout_leaf", fanout_leaf, 2, LRCU_FANOUT_MAX, true, "slots per leaf rcu_node"),
	P("rcutree.rcu_fanout_exact", fanout_exact, 0, 1, true, "do not balance the tree"),
	P("rcutree.jiffies_till_first_fqs", jiffies_till_first_fqs, 0, 1000, false,
	  "ms from GP start to the first force-quiescent-state scan"),
	P("rcutree.jiffies_till_next_fqs", jiffies_till_next_fqs, 1, 1000, false,
	  "ms between later scans"),
	P("rcutree.blimit", blimit, 1, 1L << 30, false, "callbacks invoked per batch"),
	P("rcutree.qhimark", qhimark, 1, 1L << 30, false, "queue length that lifts blimit"),
	P("rcutree.qlowmark", qlowmark, 0, 1L << 30, false, "queue length that restores blimit"),
	P("rcutree.gp_preinit_delay", gp_preinit_delay, 0, 1000, false,
	  "ms to sleep before folding registrations into the tree"),
	P("rcutree.gp_init_delay", gp_init_delay, 0, 1000, false,
	  "ms to sleep between tree-initialisation phases"),
	P("rcutree.gp_cleanup_delay", gp_cleanup_delay, 0, 1000, false,
	  "ms to sleep during grace-period cleanup"),
	P("debug_objects", debug_objects, 0, 1, false, "DEBUG_OBJECTS_RCU_HEAD checks"),
	P("rcupdate.use_membarrier", use_membarrier, 0, 1, true,
	  "let readers rely on membarrier() when the kernel has it"),
	{ "rcupdate.rcu_tasks_trace_read_mb", &lrcu_tasks_trace_read_mb, 0, 1, false,
	  "Tasks Trace readers fence themselves (CONFIG_TASKS_TRACE_RCU_READ_MB)", 0, NULL, 0, NULL },
	P("rcutree.fault_skip_leaf", fault_skip_leaf, -1, 1L << 20, false,
	  "FAULT INJECTION: grace periods ignore this leaf's readers"),
	P("rcupdate.rcu_expedited", rcu_expedited, 0, 1, false,
	  "normal grace-period calls act expedited"),
	P("rcupdate.rcu_normal", rcu_normal, 0, 1, false,
	  "expedited grace-period calls act normal (wins over rcu_expedited)"),
	P("rcupdate.rcu_normal_after_boot", rcu_normal_after_boot, 0, 1, false,
	  "rcu_end_inkernel_boot() sets rcu_normal"),
	P("rcupdate.self_register", self_register, 0, 1, false,
	  "a read-side section on a thread that never registered registers it "
	  "(liburcu-bp's readers; unregistered at thread exit)"),
	P("rcutree.gp_caller_drives", gp_caller_drives, 0, 1, false,
	  "synchronize_*() drives its normal grace period itself when no one does "
	  "(0: asks the GP kthread, the kernel's way)"),
	P("rcutree.gp_defer_fence", gp_defer_fence, 0, 2, false,
	  "rcu grace periods first wait briefly for readers to show the new grace "
	  "period before the heavy fence (1: when it is membarrier(); 2: always; 0: never)"),
	P("rcutree.gp_start_delay", gp_start_delay, 0, 100000, false,
	  "ms the GP kthread waits between a request and starting the grace period"),
	SECS("rcupdate.rcu_cpu_stall_timeout", cpu_stall_timeout_ms, 10, 300000,
	     "seconds a grace period may last before a stall warning"),
	P("rcupdate.rcu_cpu_stall_suppress", cpu_stall_suppress, 0, 1, false,
	  "no RCU CPU stall warnings"),
	P("rcupdate.rcu_exp_cpu_stall_timeout", exp_cpu_stall_timeout_ms, 0, 21000, false,
	  "ms an expedited grace period may last before a warning (0: rcu_cpu_stall_timeout)"),
	P("rcupdate.rcu_cpu_stall_info", cpu_stall_info, 0, 1, false,
	  "stall warnings add per-thread detail (CONFIG_RCU_CPU_STALL_INFO)"),
	P("rcupdate.rcu_cpu_stall_verbose", cpu_stall_verbose, 0, 1, false,
	  "stall warnings dump the rcu_node tree (CONFIG_RCU_CPU_STALL_VERBOSE)"),
	P("rcutree.fault_exp_skip_reader", fault_exp_skip_reader, 0, 1, false,
	  "FAULT INJECTION: expedited grace periods ignore readers already inside"),
	P("rcutree.fault_exp_skip_fence", fault_exp_skip_fence, 0, 1, false,
	  "FAULT INJECTION: expedited grace periods skip the heavy fence (and see stale reader words)"),
	TEXT("rcu_nocbs", rcu_nocbs, nocbs_given, true, cpulist_check,
	     "CPUs whose callbacks rcuo threads invoke (\"1-3,7\", \"all\"); given at all: "
	     "every CPU can be switched at run time"),
	P("rcu_nocb_poll", nocb_poll, 0, 1, false,
	  "offloaded CPUs never wake the rcuog threads: those poll"),
	P("rcutree.rcu_nocb_gp_stride", nocb_gp_stride, -1, 1L << 20, true,
	  "CPUs per rcuog group (-1: nr_cpus / sqrt(nr_cpus))"),
	P("rcutree.rcu_nocb_leader_stride", nocb_gp_stride, -1, 1L << 20, true,
	  "the older name of rcutree.rcu_nocb_gp_stride"),
	P("rcutree.jiffies_lazy_flush", lazy_gp_delay, 0, 3600000, false,
	  "ms lazy callbacks (kfree_rcu()) may wait before their grace period is requested "
	  "(the kernel's jiffies_lazy_flush, set there by rcu_set_jiffies_lazy_flush())"),
	P("rcutree.rcu_idle_lazy_gp_delay", lazy_gp_delay, 0, 3600000, false,
	  "the older name of rcutree.jiffies_lazy_flush (RCU_FAST_NO_HZ's, 6 s there)"),
	P("rcutree.enable_rcu_lazy", enable_lazy, 0, 1, false,
	  "call_rcu() queues lazy callbacks (CONFIG_RCU_LAZY; call_rcu_hurry() never)"),
	P("rcutree.kthread_prio", kthread_prio, 0, 99, true,
	  "SCHED_FIFO priority of the RCU threads (0: ordinary threads; needs CAP_SYS_NICE)"),
	P("rcutree.rcu_boost", rcu_boost, 0, 1, true,
	  "boost readers that hold up a grace period (CONFIG_RCU_BOOST; raises kthread_prio to 1)"),
	P("rcutree.rcu_boost_delay", rcu_boost_delay, 0, 3600000, false,
	  "ms a grace period lasts before its readers are boosted (CONFIG_RCU_BOOST_DELAY)"),
	P("rcupdate.rcu_task_stall_timeout", task_stall_timeout, -1, 1L << 30, false,
	  "jiffies (ms) an RCU Tasks or Tasks Rude grace period lasts before a stall warning "
	  "naming its holdout threads, and between two (<= 0: none)"),
	P("rcupdate.rcu_task_stall_info", task_stall_info, -1, 1L << 30, false,
	  "jiffies (ms) before an RCU Tasks grace period's first \"is N jiffies old\" line "
	  "(<= 0: none)"),
	P("rcupdate.rcu_task_stall_info_mult", task_stall_info_mult, 1, 10, false,
	  "each such line waits this many times longer than the one before"),
	P("rcupdate.rcu_task_enqueue_lim", task_enqueue_lim, -1, LRCU_TASKS_MAX_QUEUES, true,
	  "callback queues of each Tasks flavor, picked by the caller's CPU (-1: one)"),
#ifdef LRCU_WEAKMEM
	P("weakmem.delay_us", wm_delay_us, 0, 1000000, false,
	  "WEAKMEM build: longest delay (us) before a store is visible to other threads"),
	P("weakmem.mode", wm_mode, 0, 1, false,
	  "WEAKMEM build: 0 TSO (stores visible in order), 1 weak (any order but release/fences)"),
#endif
};
#undef P
#undef SECS
#undef TEXT

static bool started;	/* set by lrcu__params_freeze() at init */

void lrcu__params_freeze(void)
{
	/* Pairs with the acquire loads in the setters below. */
	smp_store_release(&started, true);
}

void lrcu__params_thaw(void)
{
	smp_store_release(&started, false);	/* as above */
}

static const struct param_desc *param_find(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(param_table); i++)
		if (strlen(param_table[i].name) == len &&
		    !strncmp(param_table[i].name, name, len))
			return &param_table[i];
	return NULL;
}

/* rcutree.inject=NAME[:ARG] (inject.h): a name outside the table, known
 * only to an injection build. */
#define INJECT_PARAM	"rcutree.inject"

static bool is_inject(const char *name, size_t len)
{
	return len == strlen(INJECT_PARAM) && !strncmp(name, INJECT_PARAM, len);
}

int lrcu_param_known(const char *name)
{
#ifdef LRCU_INJECT
	if (is_inject(name, strlen(name)))
		return 1;
#endif
	return param_find(name, strlen(name)) != NULL;
}

static void errf(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!err || !len)
		return;
	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
}

/* "21", "0.5", "1.125": seconds with at most three decimals, in ms. */
static bool parse_secs(const char *buf, long *ms)
{
	const char *p = buf;
	long whole = 0, frac = 0, scale = 100;

	if (!isdigit((unsigned char)*p) && *p != '.')
		return false;
	for (; isdigit((unsigned char)*p); p++) {
		if (whole > LONG_MAX / 10000)
			return false;
		whole = whole * 10 + (*p - '0');
	}
	if (*p == '.') {
		if (!isdigit((unsigned char)p[1]) && p == buf)
			return false;
		for (p++; isdigit((unsigned char)*p); p++, scale /= 10) {
			if (!scale && *p != '0')
				return false;	/* finer than a millisecond */
			frac += (*p - '0') * scale;
		}
	}
	if (*p)
		return false;
	*ms = whole * 1000 + frac;
	return true;
}

/* The value as a user writes it: seconds for the scaled ones. */
static void param_format(const struct param_desc *d, long v, char *buf, size_t len)
{
	if (!d->scale || v % d->scale == 0)
		snprintf(buf, len, "%ld", d->scale ? v / d->scale : v);
	else if (v % 100 == 0)
		snprintf(buf, len, "%ld.%ld", v / 1000, v % 1000 / 100);
	else if (v % 10 == 0)
		snprintf(buf, len, "%ld.%02ld", v / 1000, v % 1000 / 10);
	else
		snprintf(buf, len, "%ld.%03ld", v / 1000, v % 1000);
}

static int param_parse_scaled(const struct param_desc *d, const char *buf, long *out,
			      char *err, size_t errlen)
{
	char lo[32], hi[32];
	long x;

	param_format(d, d->min, lo, sizeof(lo));
	param_format(d, d->max, hi, sizeof(hi));
	if (!parse_secs(buf, &x)) {
		errf(err, errlen, "%s: bad value '%s' (expected seconds from %s to %s, "
		     "at most three decimals)", d->name, buf, lo, hi);
		return -1;
	}
	if (x < d->min || x > d->max) {
		errf(err, errlen, "%s: value %s out of range (%s to %s seconds)",
		     d->name, buf, lo, hi);
		return -1;
	}
	*out = x;
	return 0;
}

/* Parse value text for d; booleans also take y/n/true/false. */
static int param_parse_value(const struct param_desc *d, const char *v, size_t vlen,
			     long *out, char *err, size_t errlen)
{
	char buf[64];
	char *end;
	long x;

	if (vlen == 0 || vlen >= sizeof(buf)) {
		errf(err, errlen, "%s: bad value '%.*s'", d->name, (int)vlen, v);
		return -1;
	}
	memcpy(buf, v, vlen);
	buf[vlen] = '\0';
	if (d->scale)
		return param_parse_scaled(d, buf, out, err, errlen);
	if (d->min == 0 && d->max == 1) {
		if (!strcmp(buf, "y") || !strcmp(buf, "Y") || !strcmp(buf, "true")) {
			*out = 1;
			return 0;
		}
		if (!strcmp(buf, "n") || !strcmp(buf, "N") || !strcmp(buf, "false")) {
			*out = 0;
			return 0;
		}
	}
	errno = 0;
	x = strtol(buf, &end, 0);
	if (errno || *end || end == buf || isspace((unsigned char)buf[0])) {
		errf(err, errlen, "%s: bad value '%s' (expected an integer from %ld to %ld)",
		     d->name, buf, d->min, d->max);
		return -1;
	}
	if (x < d->min || x > d->max) {
		errf(err, errlen, "%s: value %ld out of range (%ld to %ld)",
		     d->name, x, d->min, d->max);
		return -1;
	}
	*out = x;
	return 0;
}

struct pending {
	const struct param_desc *d;
	long v;
	const char *text;	/* text parameters: the value (not terminated) */
	size_t tlen;
};

/* A text parameter's value; `text' points into the token. */
static int param_parse_text(const struct param_desc *d, const char *v, size_t vlen,
			    struct pending *p, char *err, size_t errlen)
{
	char buf[512];

	if (vlen >= d->strsize || vlen >= sizeof(buf)) {
		errf(err, errlen, "%s: value too long (at most %zu characters)", d->name,
		     d->strsize - 1);
		return -1;
	}
	memcpy(buf, v, vlen);
	buf[vlen] = '\0';
	if (d->check && d->check(buf, err, errlen))
		return -1;
	p->v = 1;
	p->text = v;
	p->tlen = vlen;
	return 0;
}

/* Store a checked value (read with READ_ONCE(); text ones only before
 * start, as they are all fixed). */
static void param_apply(const struct pending *p)
{
	if (p->d->str) {
		memcpy(p->d->str, p->text, p->tlen);
		p->d->str[p->tlen] = '\0';
	}
	WRITE_ONCE(*p->d->val, p->v);
}

/* Check one "name=value" token; fills *p. */
static int param_check_token(const char *tok, size_t len, struct pending *p,
			     char *err, size_t errlen)
{
	const char *eq = memchr(tok, '=', len);
	size_t nlen = eq ? (size_t)(eq - tok) : len;
	const struct param_desc *d = param_find(tok, nlen);

	if (is_inject(tok, nlen)) {	/* chosen now: the run stops on any error */
		p->d = NULL;
		return lrcu__inject_select(eq ? eq + 1 : "", eq ? len - nlen - 1 : 0, err, errlen);
	}
	if (!d) {
		errf(err, errlen, "unknown parameter '%.*s'", (int)nlen, tok);
		return -1;
	}
	p->d = d;
	p->text = NULL;
	/* Acquire pairs with lrcu__params_freeze()'s release. */
	if (d->fixed && smp_load_acquire(&started)) {
		errf(err, errlen, "%s: cannot be changed after RCU has started", d->name);
		return -1;
	}
	if (d->str)	/* bare: the empty text (rcu_nocbs alone) */
		return param_parse_text(d, eq ? eq + 1 : "", eq ? len - nlen - 1 : 0, p,
					err, errlen);
	if (!eq) {
		if (d->min == 0 && d->max == 1) {	/* bare boolean: on */
			p->d = d;
			p->v = 1;
			return 0;
		}
		errf(err, errlen, "%s: missing value (expected %s=N)", d->name, d->name);
		return -1;
	}
	return param_parse_value(d, eq + 1, len - nlen - 1, &p->v, err, errlen);
}

int lrcu_params_parse(const char *args, char *err, size_t errlen)
{
	struct pending *pend;
	size_t n = 0, cap = 8, i;
	const char *s = args ? args : "";

	pend = malloc(cap * sizeof(*pend));
	if (!pend) {
		errf(err, errlen, "out of memory");
		return -1;
	}
	while (*s) {
		const char *t;

		while (isspace((unsigned char)*s))
			s++;
		if (!*s)
			break;
		t = s;
		while (*s && !isspace((unsigned char)*s))
			s++;
		if (n == cap) {
			struct pending *np = realloc(pend, 2 * cap * sizeof(*pend));

			if (!np) {
				free(pend);
				errf(err, errlen, "out of memory");
				return -1;
			}
			pend = np;
			cap *= 2;
		}
		if (param_check_token(t, (size_t)(s - t), &pend[n], err, errlen)) {
			free(pend);
			return -1;
		}
		n++;
	}
	for (i = 0; i < n; i++)
		if (pend[i].d)	/* not rcutree.inject */
			param_apply(&pend[i]);
	free(pend);
	return 0;
}

int lrcu_param_set(const char *name, const char *value, char *err, size_t errlen)
{
	const struct param_desc *d = param_find(name, strlen(name));
	struct pending p = { .d = d };

	if (!d) {
		errf(err, errlen, "unknown parameter '%s'", name);
		return -1;
	}
	if (d->fixed && smp_load_acquire(&started)) {	/* as above */
		errf(err, errlen, "%s: cannot be changed after RCU has started", d->name);
		return -1;
	}
	if (d->str ? param_parse_text(d, value, strlen(value), &p, err, errlen) :
		     param_parse_value(d, value, strlen(value), &p.v, err, errlen))
		return -1;
	param_apply(&p);
	return 0;
}

int lrcu_param_get(const char *name, char *buf, size_t len)
{
	const struct param_desc *d = param_find(name, strlen(name));

	if (!d)
		return -1;
	if (d->str)
		snprintf(buf, len, "%s", d->str);	/* fixed: no race */
	else
		param_format(d, READ_ONCE(*d->val), buf, len);
	return 0;
}

void lrcu_params_print(FILE *out)
{
	char v[32];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(param_table); i++) {
		const struct param_desc *d = &param_table[i];

		if (d->str && !*d->val)
			continue;	/* never given (rcu_nocbs alone means something) */
		if (d->str)
			fprintf(out, "%s%s=%s", i ? " " : "", d->name, d->str);
		else {
			param_format(d, READ_ONCE(*d->val), v, sizeof(v));
			fprintf(out, "%s%s=%s", i ? " " : "", d->name, v);
		}
	}
	fputc('\n', out);
}
