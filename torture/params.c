/* SPDX-License-Identifier: MIT */
/*
 * params.c - the command line: rcutorture.NAME=VALUE by kernel name, the
 * RCU's own parameters passed through, a few --options.
 *
 * One table: name, storage, range, kernel default.  Every token is checked
 * before anything starts; a bad one is a one-line error naming it (exit 2).
 * Units follow the kernel, with a jiffy = 1 ms (onoff_interval) and the
 * gp_*_wi waits in microseconds.
 */
#include <ctype.h>
#include <errno.h>
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
	.span_reads = 1,
};

struct pdesc {
	const char *name;
	long *val;
	long min, max;
};

#define B(n) { #n, &tp.n, 0, 1 }
#define I(n, lo, hi) { #n, &tp.n, lo, hi }
static const struct pdesc ptab[] = {
	I(nreaders, -64, 4096), I(nfakewriters, 0, 1024), I(stat_interval, 0, 86400),
	I(verbose, 0, 2), I(shutdown_secs, 0, 100L * 86400), I(stutter, 0, 3600),
	I(shuffle_interval, 0, 3600), B(test_no_idle_hz), B(irqreader),
	I(extendables, 0, 0xff), I(n_barrier_cbs, 0, 1024), B(object_debug),
	I(onoff_interval, 0, 3600000), I(onoff_holdoff, 0, 3600),
	I(fqs_duration, 0, 100000000), I(fqs_holdoff, 0, 100000000), I(fqs_stutter, 0, 3600),
	I(stall_cpu, 0, 3600), I(stall_cpu_holdoff, 0, 3600), B(stall_cpu_block),
	B(stall_cpu_irqsoff), I(stall_cpu_repeat, 0, 100),
	I(fwd_progress, 0, 64), I(fwd_progress_holdoff, 0, 3600), I(fwd_progress_div, 1, 1000),
	B(gp_sync), B(gp_exp), B(gp_normal), B(gp_cond), B(gp_poll), B(gp_cond_exp), B(gp_poll_exp),
	I(gp_cond_wi, 0, 10000000), I(gp_poll_wi, 0, 10000000),
	I(gp_cond_wi_exp, 0, 10000000), I(gp_poll_wi_exp, 0, 10000000),
	I(read_exit_delay, 1, 3600), I(read_exit_burst, 0, 1024),
	B(stop_on_error),	/* ours: end the run at the first error */
	I(gp_hang_timeout, 0, 3600),	/* ours: oracle.c; 0 = off */
	B(span_reads),		/* ours: reader.c's GP-spanning reads */
	B(weak_mem),		/* ours: reader.c's store-buffer filling */
};
#undef B
#undef I

#define PREFIX "rcutorture."

static const struct pdesc *pfind(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(ptab) / sizeof(ptab[0]); i++)
		if (strlen(ptab[i].name) == len && !strncmp(ptab[i].name, name, len))
			return &ptab[i];
	return NULL;
}

static int bad(const char *fmt, const char *a, const char *b)
{
	fprintf(stderr, "rcutorture: ");
	fprintf(stderr, fmt, a, b);
	fputc('\n', stderr);
	return -1;
}

/* Integers (decimal, 0x hex) and, for booleans, y/n/true/false. */
static int parse_long(const struct pdesc *d, const char *v, long *out)
{
	char *end;
	long x;

	if (d->min == 0 && d->max == 1) {
		if (!strcmp(v, "y") || !strcmp(v, "Y") || !strcmp(v, "true")) {
			*out = 1;
			return 0;
		}
		if (!strcmp(v, "n") || !strcmp(v, "N") || !strcmp(v, "false")) {
			*out = 0;
			return 0;
		}
	}
	errno = 0;
	x = strtol(v, &end, 0);
	if (!*v || isspace((unsigned char)*v) || *end || errno) {
		fprintf(stderr, "rcutorture: " PREFIX "%s: bad value '%s' (expected an integer"
			" from %ld to %ld)\n", d->name, v, d->min, d->max);
		return -1;
	}
	if (x < d->min || x > d->max) {
		fprintf(stderr, "rcutorture: " PREFIX "%s: value %ld out of range (%ld to %ld)\n",
			d->name, x, d->min, d->max);
		return -1;
	}
	*out = x;
	return 0;
}

static int parse_seed(const char *v)
{
	char *end;

	errno = 0;
	tp.seed = strtoul(v, &end, 0);
	if (!*v || !isdigit((unsigned char)*v) || *end || errno)
		return bad(PREFIX "seed: bad value '%s'%s (expected an unsigned integer)", v, "");
	return 0;
}

static int parse_type(const char *v)
{
	if (!*v || strlen(v) >= sizeof(tp.torture_type))
		return bad(PREFIX "torture_type: bad value '%s'%s", v, "");
	strcpy(tp.torture_type, v);
	return 0;
}

/* One rcutorture.NAME=VALUE token (without the prefix). */
static int parse_own(const char *tok)
{
	const char *eq = strchr(tok, '=');
	const struct pdesc *d;

	if (!eq)
		return bad("%s%s: missing value (expected " PREFIX "NAME=VALUE)", PREFIX, tok);
	if (!strncmp(tok, "torture_type=", 13))
		return parse_type(eq + 1);
	if (!strncmp(tok, "seed=", 5))
		return parse_seed(eq + 1);
	d = pfind(tok, (size_t)(eq - tok));
	if (!d) {
		fprintf(stderr, "rcutorture: unknown parameter '" PREFIX "%.*s'\n",
			(int)(eq - tok), tok);
		return -1;
	}
	return parse_long(d, eq + 1, d->val);
}

/* maxcpus=N (the kernel's boot parameter): how many "CPUs" are online. */
static int parse_maxcpus(const char *v)
{
	char *end;
	long x;

	errno = 0;
	x = strtol(v, &end, 0);
	if (!*v || *end || errno || x < 1 || x > 4096)
		return bad("maxcpus: bad value '%s'%s (expected an integer from 1 to 4096)", v, "");
	tp.maxcpus = x;
	return 0;
}

static int append(char *buf, size_t len, const char *tok)
{
	size_t used = strlen(buf);

	if (used + strlen(tok) + 2 > len)
		return bad("too many parameters at '%s'%s", tok, "");
	snprintf(buf + used, len - used, "%s%s", used ? " " : "", tok);
	return 0;
}

static int need_arg(int i, int argc, const char *opt)
{
	if (i + 1 >= argc)
		return bad("%s: missing argument%s", opt, "");
	return 0;
}

int params_parse(int argc, char **argv, char *libargs, size_t liblen,
		 const char **outdir, const char **scenario, int *list_types)
{
	int i;

	libargs[0] = '\0';
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--out") || !strcmp(a, "--scenario")) {
			if (need_arg(i, argc, a))
				return -1;
			*(a[2] == 'o' ? outdir : scenario) = argv[++i];
		} else if (!strcmp(a, "--list-types")) {
			*list_types = 1;
		} else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			params_usage(stdout);
			exit(0);
		} else if (!strncmp(a, "maxcpus=", 8)) {
			if (parse_maxcpus(a + 8))
				return -1;
		} else if (!strncmp(a, PREFIX, strlen(PREFIX))) {
			if (parse_own(a + strlen(PREFIX)))
				return -1;
		} else if (a[0] == '-' || !strchr(a, '=') || a[0] == '=') {
			return bad("malformed argument '%s'%s (expected NAME=VALUE)", a, "");
		} else if (append(libargs, liblen, a)) {
			return -1;
		}
	}
	return 0;
}

void params_print(FILE *out)
{
	size_t i;

	for (i = 0; i < sizeof(ptab) / sizeof(ptab[0]); i++)
		fprintf(out, "%s=%ld ", ptab[i].name, *ptab[i].val);
	fprintf(out, "torture_type=%s seed=%lu", tp.torture_type, tp.seed);
	if (tp.maxcpus)
		fprintf(out, " maxcpus=%ld", tp.maxcpus);
}

void params_json(FILE *out)
{
	size_t i;

	fputc('{', out);
	for (i = 0; i < sizeof(ptab) / sizeof(ptab[0]); i++)
		fprintf(out, "\"%s\":%ld,", ptab[i].name, *ptab[i].val);
	fprintf(out, "\"torture_type\":");
	json_string(out, tp.torture_type);
	fprintf(out, ",\"seed\":%lu,\"maxcpus\":%ld}", tp.seed, tp.maxcpus);
}

void params_usage(FILE *out)
{
	size_t i;

	fprintf(out, "usage: rcutorture [--out DIR] [--scenario NAME] [--list-types] [--help]\n"
		"                  [rcutorture.NAME=VALUE ...] [RCU parameters: rcutree.NAME=VALUE ...]\n"
		"rcutorture parameters (kernel names) and defaults:\n"
		"  torture_type=%s (see --list-types; lib:PATH.so loads a plugin)\n"
		"  seed=0 (0: pick one and print it)\n"
		"  maxcpus=N (no prefix): online \"CPUs\" (default: nr_cpus if given, else online processors)\n",
		tp.torture_type);
	for (i = 0; i < sizeof(ptab) / sizeof(ptab[0]); i++)
		fprintf(out, "  %s=%ld (%ld..%ld)\n", ptab[i].name, *ptab[i].val,
			ptab[i].min, ptab[i].max);
}
