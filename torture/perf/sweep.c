/* SPDX-License-Identifier: MIT */
/*
 * sweep.c - the perf programs' driver: every cell (a type and one value
 * of each list parameter) is measured once per round, the cells in turn,
 * for nruns rounds (A B A B ...: a change in the machine's load hits them
 * all alike).  Each measurement is a "run" JSON line as soon as it is
 * made; at the end come one "summary" line per cell (median, min, max of
 * every figure over the rounds), the readable table and the targets.
 * Also: progress on a terminal, and a watchdog that fails a measurement
 * that does not finish.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "perf.h"

static size_t cell_index(const struct perf_sweep *s, const struct perf_cell *c)
{
	return (size_t)(c - s->cells);
}

int perf_sweep_init(struct perf_sweep *s, const struct perf_test *t, const struct perf_cli *cli)
{
	char params[256];
	const char *why;
	int combos = 1, i, k, ti;

	s->t = t;
	s->ncells = 0;
	for (k = 0; k < t->nlists; k++)
		combos *= t->lists[k]->val->n;
	s->cells = calloc((size_t)(combos * cli->ntypes), sizeof(*s->cells));
	if (!s->cells)
		return -1;
	/* Parameters outer, types inner: the types of one combination are
	 * measured back to back. */
	for (i = 0; i < combos; i++) {
		for (ti = 0; ti < cli->ntypes; ti++) {
			struct perf_cell *c = &s->cells[s->ncells];
			int rest = i, r;

			c->ops = cli->types[ti];
			for (k = t->nlists - 1; k >= 0; k--) {
				const struct perf_pval *v = t->lists[k]->val;

				c->p[k] = v->v[rest % v->n];
				rest /= v->n;
			}
			if (t->cell_skip && (why = t->cell_skip(c))) {
				perf_cell_params_text(s, c, params, sizeof(params));
				fprintf(cli->table, "%s: %s %s not measured: %s\n", cli->prog,
					c->ops->name, params, why);
				continue;
			}
			s->ncells++;
			c->vals = malloc((size_t)(cli->nruns * t->nfigs) * sizeof(double));
			if (!c->vals)
				return -1;
			for (r = 0; r < cli->nruns * t->nfigs; r++)
				c->vals[r] = NAN;
		}
	}
	if (!s->ncells) {
		fprintf(stderr, "%s: %s: nothing to measure (see the notes above)\n", cli->prog,
			t->name);
		return -1;
	}
	return 0;
}

void perf_sweep_free(struct perf_sweep *s)
{
	int i;

	for (i = 0; i < s->ncells; i++)
		free(s->cells[i].vals);
	free(s->cells);
	s->cells = NULL;
}

static double *cell_row(const struct perf_sweep *s, const struct perf_cell *c, int run)
{
	return c->vals + (size_t)run * (size_t)s->t->nfigs;
}

double perf_cell_median(const struct perf_sweep *s, const struct perf_cell *c, int fig)
{
	double v[1024];
	int r, n = 0;

	for (r = 0; r < c->runs_done && n < 1024; r++)
		v[n++] = cell_row(s, c, r)[fig];
	return perf_median(v, (size_t)n);
}

const struct perf_cell *perf_cell_find(const struct perf_sweep *s, const char *name,
				       const long *p)
{
	int i;

	for (i = 0; i < s->ncells; i++)
		if (!strcmp(s->cells[i].ops->name, name) &&
		    !memcmp(s->cells[i].p, p, (size_t)s->t->nlists * sizeof(*p)))
			return &s->cells[i];
	return NULL;
}

void perf_cell_params_text(const struct perf_sweep *s, const struct perf_cell *c, char *buf,
			     size_t len)
{
	size_t used = 0;
	int k;

	buf[0] = '\0';
	for (k = 0; k < s->t->nlists && used < len; k++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s=%ld", k ? " " : "",
					 s->t->lists[k]->name, c->p[k]);
}

static void line_head(struct jw *w, const struct perf_cli *cli, const struct perf_sweep *s,
		      const struct perf_cell *c, const char *kind)
{
	int k;

	jw_begin(w, cli->json);
	jw_str(w, "prog", cli->prog);
	jw_str(w, "test", s->t->name);
	jw_str(w, "kind", kind);
	jw_str(w, "flavor", c->ops->name);
	jw_obj(w, "params");
	for (k = 0; k < s->t->nlists; k++)
		jw_int(w, s->t->lists[k]->name, c->p[k]);
	if (s->t->fixed_json)
		s->t->fixed_json(w, c);
	jw_close(w);
}

static void run_line(const struct perf_cli *cli, const struct perf_sweep *s,
		     const struct perf_cell *c, int run)
{
	const double *row = cell_row(s, c, run);
	struct jw w;
	int f;

	if (!cli->json)
		return;
	line_head(&w, cli, s, c, "run");
	jw_int(&w, "run", run + 1);
	jw_obj(&w, "figures");
	for (f = 0; f < s->t->nfigs; f++)
		jw_num(&w, s->t->figs[f].name, row[f]);
	jw_close(&w);
	perf_host_json(&w);
	jw_close(&w);
}

struct spread {
	double median, min, max;
};

static struct spread fig_spread(const struct perf_sweep *s, const struct perf_cell *c, int f)
{
	struct spread sp = { perf_cell_median(s, c, f), NAN, NAN };
	int r;

	for (r = 0; r < c->runs_done; r++) {
		double v = cell_row(s, c, r)[f];

		if (isnan(v))
			continue;
		if (isnan(sp.min) || v < sp.min)
			sp.min = v;
		if (isnan(sp.max) || v > sp.max)
			sp.max = v;
	}
	return sp;
}

static void summary_line(const struct perf_cli *cli, const struct perf_sweep *s,
			 const struct perf_cell *c)
{
	struct jw w;
	int f;

	if (!cli->json)
		return;
	line_head(&w, cli, s, c, "summary");
	jw_int(&w, "runs", c->runs_done);
	jw_obj(&w, "figures");
	for (f = 0; f < s->t->nfigs; f++) {
		struct spread sp = fig_spread(s, c, f);

		jw_obj(&w, s->t->figs[f].name);
		jw_num(&w, "median", sp.median);
		jw_num(&w, "min", sp.min);
		jw_num(&w, "max", sp.max);
		jw_close(&w);
	}
	jw_close(&w);
	perf_host_json(&w);
	jw_close(&w);
}

/* ------------------------------------------------------------------ */
/* The table */

static void table_header(const struct perf_cli *cli, const struct perf_sweep *s)
{
	int f;

	fprintf(cli->table, "\n%s %s: %s\n%-12s %-40s", cli->prog, s->t->name, s->t->label,
		"type", "parameters");
	for (f = 0; f < s->t->nfigs; f++)
		if (s->t->figs[f].show)
			fprintf(cli->table, " %*s", f ? 10 : 28, s->t->figs[f].col);
	fputc('\n', cli->table);
}

static void fmt_num(char *buf, size_t len, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.4g", v);
}

/* A row: the first figure as "median (min..max)", the others' medians;
 * run >= 0: that round's values. */
static void table_row(const struct perf_cli *cli, const struct perf_sweep *s,
		      const struct perf_cell *c, int run)
{
	char params[256], a[32], b[32], m[32], cellbuf[100];
	int f;

	perf_cell_params_text(s, c, params, sizeof(params));
	if (run >= 0) {
		char tag[300];

		snprintf(tag, sizeof(tag), "%s #%d", params, run + 1);
		fprintf(cli->table, "%-12s %-40s", c->ops->name, tag);
	} else {
		fprintf(cli->table, "%-12s %-40s", c->ops->name, params);
	}
	for (f = 0; f < s->t->nfigs; f++) {
		struct spread sp;

		if (!s->t->figs[f].show)
			continue;
		if (run >= 0) {
			fmt_num(m, sizeof(m), cell_row(s, c, run)[f]);
			fprintf(cli->table, " %*s", f ? 10 : 28, m);
			continue;
		}
		sp = fig_spread(s, c, f);
		fmt_num(m, sizeof(m), sp.median);
		if (f) {
			fprintf(cli->table, " %10s", m);
			continue;
		}
		fmt_num(a, sizeof(a), sp.min);
		fmt_num(b, sizeof(b), sp.max);
		snprintf(cellbuf, sizeof(cellbuf), "%s (%s..%s)", m, a, b);
		fprintf(cli->table, " %28s", cellbuf);
	}
	fputc('\n', cli->table);
	fflush(cli->table);
}

int perf_sweep_run(struct perf_sweep *s, const struct perf_cli *cli)
{
	char params[256], what[400];
	int run, i;

	if (cli->verbose)
		table_header(cli, s);
	for (run = 0; run < cli->nruns; run++) {
		for (i = 0; i < s->ncells; i++) {
			struct perf_cell *c = &s->cells[i];

			perf_cell_params_text(s, c, params, sizeof(params));
			snprintf(what, sizeof(what), "%s %s %s (round %d of %ld)", s->t->name,
				 c->ops->name, params, run + 1, cli->nruns);
			perf_progress("%s: %s: %s %s, round %d/%ld, measurement %zu/%d", cli->prog,
				      s->t->name, c->ops->name, params, run + 1, cli->nruns,
				      cell_index(s, c) + 1, s->ncells);
			perf_watchdog_arm(cli, what);
			if (s->t->measure(c, run, cell_row(s, c, run))) {
				perf_progress_done();
				fprintf(stderr, "%s: %s failed\n", cli->prog, what);
				return 1;
			}
			perf_watchdog_disarm();
			c->runs_done = run + 1;
			run_line(cli, s, c, run);
			if (cli->verbose) {
				perf_progress_done();
				table_row(cli, s, c, run);
			}
		}
	}
	perf_progress_done();
	for (i = 0; i < s->ncells; i++)
		summary_line(cli, s, &s->cells[i]);
	fprintf(cli->table, "%s", cli->verbose ? "\nMedians over the rounds:" : "");
	table_header(cli, s);
	for (i = 0; i < s->ncells; i++)
		table_row(cli, s, &s->cells[i], -1);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Targets */

static bool target_met(const struct perf_target *t)
{
	return !isnan(t->value) && (t->at_least ? t->value >= t->limit : t->value <= t->limit);
}

static const char *target_verdict(const struct perf_target *t)
{
	if (isnan(t->value))
		return "not measured";
	if (target_met(t))
		return "met";
	return t->within_spread ? "MISSED (within the rounds' spread: not resolved)" : "MISSED";
}

void perf_targets_print(const struct perf_cli *cli, const char *test,
			const struct perf_target *t, int n)
{
	struct jw w;
	int i;

	if (!n)
		return;
	fprintf(cli->table, "\nTargets (printed, not asserted; the machine may be busy):\n");
	for (i = 0; i < n; i++)
		fprintf(cli->table, "  %-60s %10.4g %s (%s %.4g): %s\n", t[i].what, t[i].value,
			t[i].unit, t[i].at_least ? "at least" : "at most", t[i].limit,
			target_verdict(&t[i]));
	if (!cli->json)
		return;
	jw_begin(&w, cli->json);
	jw_str(&w, "prog", cli->prog);
	jw_str(&w, "test", test);
	jw_str(&w, "kind", "targets");
	jw_arr(&w, "targets");
	for (i = 0; i < n; i++) {
		jw_obj(&w, NULL);
		jw_str(&w, "what", t[i].what);
		jw_num(&w, "value", t[i].value);
		jw_str(&w, "unit", t[i].unit);
		jw_num(&w, "limit", t[i].limit);
		jw_bool(&w, "at_least", t[i].at_least);
		jw_bool(&w, "met", target_met(&t[i]));
		jw_bool(&w, "within_spread", t[i].within_spread);
		jw_close(&w);
	}
	jw_arr_close(&w);
	perf_host_json(&w);
	jw_close(&w);
}

void perf_ratio_target(struct perf_target *t, const struct perf_sweep *s,
		       const struct perf_cell *a, int fa, const struct perf_cell *b, int fb,
		       double limit, bool at_least)
{
	struct spread x = fig_spread(s, a, fa), y = fig_spread(s, b, fb);

	t->value = x.median / y.median;
	t->limit = limit;
	t->at_least = at_least;
	/* The ratios the rounds allow reach the limit (false on a NaN). */
	t->within_spread = x.min / y.max <= limit && limit <= x.max / y.min;
	t->unit = "x";
}

int perf_pair_targets(const struct perf_sweep *s, const char *const (*pairs)[2], int npairs,
		      int fig, const char *figname, double limit, bool at_least,
		      const char *(*prefix)(const struct perf_cell *c), struct perf_target *t,
		      int n, int max)
{
	const char *pre;
	char params[120];
	int i, k;

	for (i = 0; i < s->ncells; i++) {
		const struct perf_cell *c = &s->cells[i], *l;

		for (k = 0; k < npairs && n < max; k++) {
			if (strcmp(c->ops->name, pairs[k][0]) ||
			    !(l = perf_cell_find(s, pairs[k][1], c->p)))
				continue;
			perf_cell_params_text(s, c, params, sizeof(params));
			pre = prefix ? prefix(c) : "";
			snprintf(t[n].what, sizeof(t[n].what), "%s%s%s/%s %s (%s)", pre,
				 pre[0] ? " " : "", pairs[k][0], pairs[k][1], figname, params);
			perf_ratio_target(&t[n++], s, c, fig, l, fig, limit, at_least);
		}
	}
	return n;
}

/* ------------------------------------------------------------------ */
/* Progress: one line on a terminal, rewritten in place. */

static bool progress_shown;

void perf_progress(const char *fmt, ...)
{
	va_list ap;

	if (!isatty(STDERR_FILENO))
		return;
	fputs("\r\033[K", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fflush(stderr);
	progress_shown = true;
}

void perf_progress_done(void)
{
	if (!progress_shown)
		return;
	fputs("\r\033[K", stderr);
	fflush(stderr);
	progress_shown = false;
}

/* ------------------------------------------------------------------ */
/* Watchdog: a measurement that outlives cli->timeout_s fails the run
 * (an RCU whose grace periods never end must not hang the program). */

static pthread_mutex_t wd_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wd_cond = PTHREAD_COND_INITIALIZER;
static double wd_deadline_ns;		/* 0: disarmed (wd_lock) */
static char wd_what[400];		/* wd_lock */
static const char *wd_prog;
static long wd_timeout_s;
static bool wd_started;

static void *watchdog(void *arg)
{
	(void)arg;
	perf_up_watcher();	/* it must see a thread of the group that spins */
	pthread_mutex_lock(&wd_lock);
	for (;;) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_sec += 1;
		pthread_cond_timedwait(&wd_cond, &wd_lock, &ts);
		if (wd_deadline_ns && perf_now_ns() > wd_deadline_ns) {
			perf_progress_done();
			fprintf(stderr, "%s: %s did not finish within %ld s (%s.timeout): a grace "
				"period or callback that never ends?\n", wd_prog, wd_what,
				wd_timeout_s, wd_prog);
			fflush(NULL);
			_exit(1);
		}
	}
	return NULL;
}

void perf_watchdog_arm(const struct perf_cli *cli, const char *what)
{
	pthread_t t;

	pthread_mutex_lock(&wd_lock);
	if (!wd_started) {
		wd_started = true;
		wd_prog = cli->prog;
		if (!pthread_create(&t, NULL, watchdog, NULL))
			pthread_detach(t);
	}
	wd_timeout_s = cli->timeout_s;
	wd_deadline_ns = perf_now_ns() + (double)cli->timeout_s * 1e9;
	snprintf(wd_what, sizeof(wd_what), "%s", what);
	pthread_mutex_unlock(&wd_lock);
}

void perf_watchdog_disarm(void)
{
	pthread_mutex_lock(&wd_lock);
	wd_deadline_ns = 0;
	pthread_mutex_unlock(&wd_lock);
}
