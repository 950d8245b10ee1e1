/* SPDX-License-Identifier: MIT */
/*
 * params.c - the command line: rcutorture.NAME=VALUE by kernel name, the
 * RCU's own parameters passed through, a few --options.
 *
 * One table: name, storage, range, kernel default.  Every token is checked
 * before anything starts, and every problem is a "finding" naming the
 * token: an error (exit 2, nothing runs), a token that is ignored here
 * (the kernel's parameters of kparams.c, the RCU parameters of another
 * type), a foreign one (not a parameter at all), or a note.  --check
 * prints them all, one a line, and stops there (torture/INTERFACE.md).
 * Units follow the kernel, with a jiffy = 1 ms (onoff_interval) and the
 * gp_*_wi waits in microseconds.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "torture.h"

struct torture_params tp = {
	.torture_type = "rcu",
	.nreaders = -1, .nfakewriters = 4, .stat_interval = 60, .verbose = 1,
	.stutter = 5, .shuffle_interval = 3, .test_no_idle_hz = 1, .irqreader = 1,
	.extendables = 0xff, .fqs_stutter = 3, .stall_cpu_holdoff = 10,
	.fwd_progress = 1, .fwd_progress_holdoff = 60, .fwd_progress_div = 4,
	.gp_cond_wi = 16000, .gp_poll_wi = 16000, .gp_cond_wi_exp = 128, .gp_poll_wi_exp = 128,
	.read_exit_delay = 13, .read_exit_burst = 16, .gp_hang_timeout = 10,
	.nocbs_toggle = 1000,
	.test_boost = 1, .test_boost_duration = 4, .test_boost_interval = 7,
	.preempt_interval = 1000,
	.reader_flavor = 1, .n_up_down = 32,
	.span_reads = 1,
};

struct pdesc {
	const char *name;
	long *val;
	long min, max;
	bool mask;		/* a bit mask: shown in hex, as the kernel's files write it */
};

#define B(n) { #n, &tp.n, 0, 1, false }
#define I(n, lo, hi) { #n, &tp.n, lo, hi, false }
#define M(n, hi) { #n, &tp.n, 0, hi, true }
static const struct pdesc ptab[] = {
	I(nreaders, -64, 4096), I(nfakewriters, -1, 1024), I(stat_interval, 0, 86400),
	I(verbose, 0, 2), I(shutdown_secs, 0, 100L * 86400), I(stutter, 0, 3600),
	I(shuffle_interval, 0, 3600), B(test_no_idle_hz), B(irqreader),
	M(extendables, 0xff), I(n_barrier_cbs, 0, 1024), B(object_debug),
	I(onoff_interval, 0, 3600000), I(onoff_holdoff, 0, 3600),
	I(fqs_duration, 0, 100000000), I(fqs_holdoff, 0, 100000000), I(fqs_stutter, 0, 3600),
	I(stall_cpu, 0, 3600), I(stall_cpu_holdoff, 0, 3600), B(stall_cpu_block),
	B(stall_cpu_irqsoff), I(stall_cpu_repeat, 0, 100), I(stall_gp_kthread, 0, 3600),
	I(fwd_progress, -1, 4096), I(fwd_progress_holdoff, 0, 3600), I(fwd_progress_div, 1, 1000),
	B(gp_sync), B(gp_exp), B(gp_normal), B(gp_cond), B(gp_poll), B(gp_cond_exp), B(gp_poll_exp),
	B(gp_cond_full), B(gp_poll_full), B(gp_cond_exp_full), B(gp_poll_exp_full),
	I(gp_cond_wi, 0, 10000000), I(gp_poll_wi, 0, 10000000),
	I(gp_cond_wi_exp, 0, 10000000), I(gp_poll_wi_exp, 0, 10000000),
	I(read_exit_delay, 1, 3600), I(read_exit_burst, 0, 1024),
	I(nocbs_nthreads, 0, 64), I(nocbs_toggle, 1, 3600000),
	I(test_boost, 0, 2), I(test_boost_duration, 0, 3600), I(test_boost_interval, 0, 3600),
	I(test_boost_holdoff, 0, 3600), I(preempt_duration, 0, 10000),
	I(preempt_interval, 1, 3600000), I(leakpointer, 0, 1), I(test_nmis, 0, 1000),
	M(reader_flavor, 0xf), I(n_up_down, -1, 4096),
#ifdef CONFIG_PROVE_LOCKING
	/* Without lock-dependency checking: kparams.c's "not honoured". */
	I(test_srcu_lockdep, 0, 99999),
#endif
	B(stop_on_error),	/* ours: end the run at the first error */
	I(gp_hang_timeout, 0, 3600),	/* ours: oracle.c; 0 = off */
	B(span_reads),		/* ours: reader.c's GP-spanning reads */
	B(weak_mem),		/* ours: reader.c's store-buffer filling */
};
#undef B
#undef I
#undef M

#define PREFIX "rcutorture."

#define NPTAB	(sizeof(ptab) / sizeof(ptab[0]))

static const struct pdesc *pfind(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < NPTAB; i++)
		if (strlen(ptab[i].name) == len && !strncmp(ptab[i].name, name, len))
			return &ptab[i];
	return NULL;
}

/* ------------------------------------------------------------------ */
/* Findings */

#define MAX_FINDINGS 256
static struct {
	enum param_finding kind;
	int idx;
	char msg[300];
} findings[MAX_FINDINGS];
static int nfindings, nerrors, skip_idx = -1;
static bool check_mode;

/*
 * rcutorture's own parameters that this run does not honour (the tokens,
 * with why): those that define a test (unhonoured: the run cannot be a
 * plain SUCCESS) and the others (ignored), for the verdict and
 * summary.json.
 */
#define MAX_SAID 32
struct said {
	char tok[96];
	char why[200];
};
static struct said unhonoured[MAX_SAID], ignored[MAX_SAID];
static int nunhonoured, nignored;
/* The position of the token that set each ptab[] entry last (0: none),
 * and its value as written there ("0x4", "y"): a verdict names it so. */
static int given_at[NPTAB];
static char given_val[NPTAB][32];

static void say(struct said *list, int *n, const char *tok, const char *why)
{
	if (*n == MAX_SAID)
		return;
	snprintf(list[*n].tok, sizeof(list[0].tok), PREFIX "%s", tok);
	snprintf(list[*n].why, sizeof(list[0].why), "%s", why);
	(*n)++;
}

static void said_json(FILE *out, const struct said *list, int n)
{
	int i;

	fputc('[', out);
	for (i = 0; i < n; i++) {
		fprintf(out, "%s{\"param\":", i ? "," : "");
		json_string(out, list[i].tok);
		fprintf(out, ",\"why\":");
		json_string(out, list[i].why);
		fputc('}', out);
	}
	fputc(']', out);
}

void params_said_json(FILE *out)
{
	fprintf(out, "\"unhonoured\":");
	said_json(out, unhonoured, nunhonoured);
	fprintf(out, ",\"ignored\":");
	said_json(out, ignored, nignored);
}

/*
 * One of rcutorture's own parameters asks for a test that this run
 * cannot do (the torture type lacks a call, the machine a capability):
 * "not honoured", as kparams.c's defining parameters are, named as the
 * token that set it wrote it (its value when none did: bit masks in hex),
 * and at that token (--check lists it).
 * The caller says so on the console and turns the test off.
 */
static void param_tok(const struct pdesc *d, char *tok, size_t len)
{
	if (given_at[d - ptab])
		snprintf(tok, len, "%s=%s", d->name, given_val[d - ptab]);
	else
		snprintf(tok, len, d->mask ? "%s=%#lx" : "%s=%ld", d->name, *d->val);
}

static void said_param(struct said *list, int *n, enum param_finding kind, const char *what,
		       const char *name, const char *fmt, va_list ap)
{
	const struct pdesc *d = pfind(name, strlen(name));
	char tok[64], why[200];

	if (!d)
		return;
	vsnprintf(why, sizeof(why), fmt, ap);
	param_tok(d, tok, sizeof(tok));
	if (given_at[d - ptab])
		param_finding(kind, given_at[d - ptab], PREFIX "%s: %s: %s", tok, what, why);
	say(list, n, tok, why);
}

void params_unhonour(const char *name, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	said_param(unhonoured, &nunhonoured, PF_UNHONOURED, "not honoured", name, fmt, ap);
	va_end(ap);
}

/*
 * The same for a parameter honoured only in part, where the rest of the
 * test still makes the run worth a SUCCESS: listed as ignored, with why,
 * in the verdict and summary.json.
 */
void params_ignore(const char *name, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	said_param(ignored, &nignored, PF_IGNORED, "ignored", name, fmt, ap);
	va_end(ap);
}

/*
 * One of rcutorture's own parameters asks for a test that this machine
 * cannot do for want of a privilege (SCHED_FIFO refused): the run is not
 * made, and a scenario that asks for it is SKIPPED, as a test needing a
 * missing privilege is (a skip finding at the token, 0 when the default
 * asks for it).
 */
void params_skip(const char *name, const char *fmt, ...)
{
	const struct pdesc *d = pfind(name, strlen(name));
	char tok[64], why[200];
	va_list ap;

	if (!d)
		return;
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	param_tok(d, tok, sizeof(tok));
	param_finding(PF_SKIP, given_at[d - ptab], PREFIX "%s: %s", tok, why);
}

bool params_given(const char *name)
{
	const struct pdesc *d = pfind(name, strlen(name));

	return d && given_at[d - ptab];
}

int params_unhonoured(char *buf, size_t len)
{
	size_t used;
	int i;

	used = (size_t)snprintf(buf, len, "not honoured:");
	for (i = 0; i < nunhonoured && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s %s (%s)",
					 i ? ";" : "", unhonoured[i].tok, unhonoured[i].why);
	return nunhonoured;
}

static const char *const finding_names[] = {
	[PF_ERROR] = "error", [PF_IGNORED] = "ignored", [PF_FOREIGN] = "foreign",
	[PF_NOTE] = "note", [PF_SKIP] = "skip", [PF_UNHONOURED] = "unhonoured",
};

void param_finding(enum param_finding kind, int idx, const char *fmt, ...)
{
	va_list ap;

	if (kind == PF_ERROR || kind == PF_FOREIGN)
		nerrors++;
	if (kind == PF_SKIP)
		skip_idx = nfindings;
	if (nfindings == MAX_FINDINGS)
		return;
	findings[nfindings].kind = kind;
	findings[nfindings].idx = idx;
	va_start(ap, fmt);
	vsnprintf(findings[nfindings].msg, sizeof(findings[0].msg), fmt, ap);
	va_end(ap);
	nfindings++;
}

/*
 * Say what was found: --check prints "KIND N: message" lines on stdout
 * (only the skip when the type cannot run here: its parameters are then
 * unknowable); a run prints errors on stderr and the rest on the console.
 * Returns the number of errors.
 */
int params_report(void)
{
	int i, j;

	/* In command-line order (stable), the findings about the whole last. */
	for (i = 1; i < nfindings; i++)
		for (j = i; j > 0 && (unsigned)findings[j].idx - 1 <
				     (unsigned)findings[j - 1].idx - 1; j--) {
			typeof(findings[0]) t = findings[j];

			findings[j] = findings[j - 1];
			findings[j - 1] = t;
			if (skip_idx == j)
				skip_idx = j - 1;
			else if (skip_idx == j - 1)
				skip_idx = j;
		}
	for (i = 0; i < nfindings; i++) {
		if (check_mode) {
			if (skip_idx < 0 || i == skip_idx)
				printf("%s %d: %s\n", finding_names[findings[i].kind],
				       findings[i].idx, findings[i].msg);
		} else if (findings[i].kind == PF_ERROR || findings[i].kind == PF_FOREIGN ||
			   findings[i].kind == PF_SKIP) {
			fprintf(stderr, "rcutorture: %s\n", findings[i].msg);
		} else {
			torout(" %s", findings[i].msg);
		}
	}
	nfindings = 0;
	if (check_mode && skip_idx >= 0)
		return 0;
	return nerrors + (skip_idx >= 0);
}

bool params_check_mode(void)
{
	return check_mode;
}

/* ------------------------------------------------------------------ */
/* Parsing */

/* Integers (decimal, 0x hex) and, for booleans, y/n/true/false. */
static void parse_long(int idx, const struct pdesc *d, const char *v, long *out)
{
	char *end;
	long x;

	if (d->min == 0 && d->max == 1) {
		if (!strcmp(v, "y") || !strcmp(v, "Y") || !strcmp(v, "true")) {
			*out = 1;
			return;
		}
		if (!strcmp(v, "n") || !strcmp(v, "N") || !strcmp(v, "false")) {
			*out = 0;
			return;
		}
	}
	errno = 0;
	x = strtol(v, &end, 0);
	if (!*v || isspace((unsigned char)*v) || *end || errno)
		param_finding(PF_ERROR, idx, PREFIX "%s: bad value '%s' (expected an integer"
			      " from %ld to %ld)", d->name, v, d->min, d->max);
	else if (x < d->min || x > d->max)
		param_finding(PF_ERROR, idx, PREFIX "%s: value %ld out of range (%ld to %ld)",
			      d->name, x, d->min, d->max);
	else
		*out = x;
}

static void parse_seed(int idx, const char *v)
{
	char *end;

	errno = 0;
	tp.seed = strtoul(v, &end, 0);
	if (!*v || !isdigit((unsigned char)*v) || *end || errno)
		param_finding(PF_ERROR, idx, PREFIX "seed: bad value '%s' (expected an unsigned "
			      "integer)", v);
}

static int type_idx;	/* the token that set torture_type (0: default) */

static void parse_type(int idx, const char *v)
{
	if (!*v || strlen(v) >= sizeof(tp.torture_type)) {
		param_finding(PF_ERROR, idx, PREFIX "torture_type: bad value '%s'", v);
		return;
	}
	strcpy(tp.torture_type, v);
	type_idx = idx;
}

int params_type_idx(void)
{
	return type_idx;
}

/* One rcutorture.NAME=VALUE token (tok without the prefix). */
static void parse_own(int idx, const char *tok)
{
	const char *eq = strchr(tok, '=');
	const struct pdesc *d;
	char name[128];

	if (!eq) {
		param_finding(PF_ERROR, idx, PREFIX "%s: missing value (expected " PREFIX
			      "NAME=VALUE)", tok);
		return;
	}
	if (!strncmp(tok, "torture_type=", 13))
		return parse_type(idx, eq + 1);
	if (!strncmp(tok, "seed=", 5))
		return parse_seed(idx, eq + 1);
	d = pfind(tok, (size_t)(eq - tok));
	if (d) {
		given_at[d - ptab] = idx;
		snprintf(given_val[d - ptab], sizeof(given_val[0]), "%s", eq + 1);
		return parse_long(idx, d, eq + 1, d->val);
	}
	snprintf(name, sizeof(name), PREFIX "%.*s", (int)(eq - tok), tok);
	if (kparam_unhonoured(name, eq + 1)) {
		param_finding(PF_UNHONOURED, idx, PREFIX "%s: not honoured: %s", tok,
			      kparam_ignored(name));
		say(unhonoured, &nunhonoured, tok, kparam_ignored(name));
	} else if (kparam_ignored(name)) {
		param_finding(PF_IGNORED, idx, PREFIX "%s: ignored: %s", tok, kparam_ignored(name));
		say(ignored, &nignored, tok, kparam_ignored(name));
	}
	else
		param_finding(PF_ERROR, idx, "unknown parameter '%s'", name);
}

/* maxcpus=N (the kernel's boot parameter): how many "CPUs" are online. */
static void parse_maxcpus(int idx, const char *v)
{
	char *end;
	long x;

	errno = 0;
	x = strtol(v, &end, 0);
	if (!*v || *end || errno || x < 1 || x > 4096)
		param_finding(PF_ERROR, idx, "maxcpus: bad value '%s' (expected an integer "
			      "from 1 to 4096)", v);
	else
		tp.maxcpus = x;
}

static int need_arg(int i, int argc, const char *opt)
{
	if (i + 1 < argc)
		return 0;
	param_finding(PF_ERROR, 0, "%s: missing argument", opt);
	return -1;
}

/*
 * argv: options, then PARAM tokens numbered from 1 (the N of findings).
 * The RCU's tokens (anything not rcutorture.* or maxcpus=) go to lib[]
 * for lib_params() once the type is known.
 */
int params_parse(int argc, char **argv, struct lib_arg *lib, int *nlib,
		 const char **outdir, const char **scenario, int *list_types)
{
	int i, idx = 0;

	*nlib = 0;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--out") || !strcmp(a, "--scenario")) {
			if (need_arg(i, argc, a))
				break;
			*(a[2] == 'o' ? outdir : scenario) = argv[++i];
		} else if (!strcmp(a, "--list-types")) {
			*list_types = 1;
		} else if (!strcmp(a, "--list-types=long")) {
			*list_types = 2;
		} else if (!strcmp(a, "--check") || !strcmp(a, "--check=tsan")) {
			check_mode = true;
			if (a[7])
				torture_types_as_tsan();
		} else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			params_usage(stdout);
			exit(0);
		} else if (a[0] == '-' || a[0] == '=' || !a[0]) {
			param_finding(PF_ERROR, 0, "malformed argument '%s' (expected NAME=VALUE "
				      "or an option: see --help)", a);
		} else if (!strncmp(a, "maxcpus=", 8)) {
			parse_maxcpus(++idx, a + 8);
		} else if (!strncmp(a, PREFIX, strlen(PREFIX))) {
			parse_own(++idx, a + strlen(PREFIX));
		} else {
			lib[*nlib].idx = ++idx;
			lib[(*nlib)++].tok = a;
		}
	}
	return nerrors ? -1 : 0;
}

void params_print(FILE *out)
{
	size_t i;

	for (i = 0; i < NPTAB; i++)
		fprintf(out, "%s=%ld ", ptab[i].name, *ptab[i].val);
	fprintf(out, "torture_type=%s seed=%lu", tp.torture_type, tp.seed);
	if (tp.maxcpus)
		fprintf(out, " maxcpus=%ld", tp.maxcpus);
}

void params_json(FILE *out)
{
	size_t i;

	fputc('{', out);
	for (i = 0; i < NPTAB; i++)
		fprintf(out, "\"%s\":%ld,", ptab[i].name, *ptab[i].val);
	fprintf(out, "\"torture_type\":");
	json_string(out, tp.torture_type);
	fprintf(out, ",\"seed\":%lu,\"maxcpus\":%ld}", tp.seed, tp.maxcpus);
}

void params_usage(FILE *out)
{
	size_t i;

	fprintf(out, "usage: rcutorture [--out DIR] [--scenario NAME] [--list-types[=long]] [--check[=tsan]] [--help]\n"
		"                  [rcutorture.NAME=VALUE ...] [RCU parameters: rcutree.NAME=VALUE ...]\n"
		"--list-types=long: each built type with what it provides and lacks (the\n"
		"  checks that need a missing hook are skipped)\n"
		"--check: check every parameter, print one line a finding (\"error N: ...\",\n"
		"  \"ignored N: ...\", \"unhonoured N: ...\", \"foreign N: ...\", \"note N: ...\",\n"
		"  \"skip N: ...\"; N: the parameter's position, 0 for the whole) and exit 0,\n"
		"  or 2 if any is an error.  An unhonoured parameter asks for a test that does\n"
		"  not run here: the run's verdict is INCOMPLETE (exit 6).  --check=tsan: as\n"
		"  the ThreadSanitizer build would (it refuses other projects' libraries)\n"
		"rcutorture parameters (kernel names) and defaults:\n"
		"  torture_type=%s (see --list-types; lib:PATH.so loads a plugin)\n"
		"  seed=0 (0: pick one and print it)\n"
		"  maxcpus=N (no prefix): online \"CPUs\" (default: nr_cpus if given, else online processors)\n",
		tp.torture_type);
	for (i = 0; i < NPTAB; i++)
		fprintf(out, "  %s=%ld (%ld..%ld)\n", ptab[i].name, *ptab[i].val,
			ptab[i].min, ptab[i].max);
}
