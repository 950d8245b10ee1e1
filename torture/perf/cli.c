/* SPDX-License-Identifier: MIT */
/*
 * cli.c - the perf programs' command line: PROG.NAME=VALUE parameters by
 * the kernel's names (comma lists where a parameter is swept), the RCU's
 * own parameters passed through (rcutree.*, nr_cpus, ...), the torture
 * types to measure, and their initialisation.  Every token is checked
 * before anything runs; a bad one is a one-line error naming it (exit 2).
 */
#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "perf.h"

/* From torture/types.c (the torture core's type table). */
const struct torture_ops *torture_type_find(const char *name, char *err, size_t len,
					    int *status);
void torture_types_list(FILE *out);
int torture_param_known_elsewhere(const char *name);

/* Parameters every perf program has. */
static struct perf_pval p_nruns, p_verbose, p_timeout, p_holdoff = { { 0 }, 1 };
static char scale_type[1024] = "rcu";

static const struct perf_param common_params[] = {
	PERF_P("nruns", &p_nruns, 1, 100000, false, "rounds: every measurement is repeated this often"),
	PERF_P("verbose", &p_verbose, 0, 2, false, "1: a table row per round too; 2: and per thread"),
	PERF_P("holdoff", &p_holdoff, 0, 3600, false, "seconds to wait after initialisation"),
	PERF_P("timeout", &p_timeout, 1, 86400, false,
	  "ours: one measurement taking longer (s) is a failure"),
};
#define NCOMMON (sizeof(common_params) / sizeof(common_params[0]))

/*
 * The kernel's refscale and rcuscale parameters that mean nothing here
 * (prog NULL: both), accepted with a note so that the kernel's scenario
 * folders and their ver_functions run unmodified.
 */
static const struct {
	const char *prog, *name, *why;
} kernel_only[] = {
	{ NULL, "shutdown", "the kernel powers off when the test ends; this program exits" },
	{ "rcuscale", "shutdown_secs", "the kernel powers off when the test ends; this program exits" },
	{ "refscale", "verbose_batched", "the kernel's console batching: one table here" },
	{ "refscale", "lookup_instances", "the kernel's typesafe-lookup tests are not measured here" },
	{ "rcuscale", "minruntime", "each measurement runs until its gps are done" },
	{ "rcuscale", "writer_holdoff_jiffies", "use rcuscale.writer_holdoff (microseconds)" },
	{ "rcuscale", "writer_no_print", "no ring buffer here: the durations are summarised" },
	{ "rcuscale", "reader_cpu_offset", "readers are pinned from the last CPU (rcuscale.pin)" },
	{ "rcuscale", "writer_cpu_offset", "writers are pinned from the first CPU (rcuscale.pin)" },
	{ "rcuscale", "kfree_cpu_offset", "kfree threads are not pinned here" },
	{ "rcuscale", "kfree_mult", "one object size here" },
	{ "rcuscale", "kfree_by_call_rcu", "kfree_rcu_test frees through the type's call()" },
	{ "rcuscale", "kfree_rcu_test_double", "kfree_rcu_test frees through the type's call()" },
	{ "rcuscale", "kfree_rcu_test_single", "kfree_rcu_test frees through the type's call()" },
	{ "rcuscale", "nexp", "expedited writers: rcuscale.gp_exp=1" },
	{ "rcuscale", "exp_interval", "expedited writers: rcuscale.gp_exp=1" },
};

static const char *kernel_only_why(const struct perf_cli *cli, const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(kernel_only) / sizeof(kernel_only[0]); i++)
		if ((!kernel_only[i].prog || !strcmp(kernel_only[i].prog, cli->prog)) &&
		    strlen(kernel_only[i].name) == len && !strncmp(kernel_only[i].name, name, len))
			return kernel_only[i].why;
	return NULL;
}

static int fail(const struct perf_cli *cli, int status, const char *fmt, const char *a,
		const char *b)
{
	fprintf(stderr, "%s: ", cli->prog);
	fprintf(stderr, fmt, a, b);
	fputc('\n', stderr);
	return status;
}

bool perf_checked(const struct perf_cli *cli)
{
	if (cli->check_only)
		printf("%s: parameters ok\n", cli->prog);
	return cli->check_only;
}

/* The CPUs "one per CPU" counts: one on a uniprocessor RCU (up.c). */
long perf_ncpus(void)
{
	long n = perf_up() ? 1 : sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? n : 1;
}

/* The CPUs the process may use, read at the first perf_pin() (before
 * it pins anybody): the main thread's mask, taskset's if it ran under it. */
static cpu_set_t pin_allowed;
static int pin_n;
static pthread_once_t pin_once = PTHREAD_ONCE_INIT;

static void pin_read_mask(void)
{
	if (!sched_getaffinity(0, sizeof(pin_allowed), &pin_allowed))
		pin_n = CPU_COUNT(&pin_allowed);
}

int perf_pin(long k)
{
	cpu_set_t one;
	long want, seen = -1;
	int cpu;

	if (perf_up())
		return 0;	/* every thread stays on the group's one CPU */
	pthread_once(&pin_once, pin_read_mask);
	if (pin_n <= 0)
		return -1;
	want = k >= 0 ? k % pin_n : pin_n - 1 - (-k - 1) % pin_n;
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &pin_allowed) && ++seen == want)
			break;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	return pthread_setaffinity_np(pthread_self(), sizeof(one), &one) ? -1 : 0;
}

static const struct perf_param *param_find(const struct perf_cli *cli, const char *name,
					   size_t len)
{
	size_t i;

	for (i = 0; i < NCOMMON + cli->nparams; i++) {
		const struct perf_param *p = i < NCOMMON ? &common_params[i] :
						 &cli->params[i - NCOMMON];

		if (strlen(p->name) == len && !strncmp(p->name, name, len))
			return p;
	}
	return NULL;
}

/* One value: decimal or 0x hex, y/n for 0..1 parameters. */
static int parse_one(const struct perf_cli *cli, const struct perf_param *p, const char *v,
		     size_t len, long *out)
{
	char buf[64], *end, msg[200];
	long x;

	snprintf(buf, sizeof(buf), "%.*s", (int)(len < 63 ? len : 63), v);
	if (p->min == 0 && p->max == 1 && (!strcmp(buf, "y") || !strcmp(buf, "n") ||
					   !strcmp(buf, "Y") || !strcmp(buf, "N"))) {
		*out = toupper((unsigned char)buf[0]) == 'Y';
		return 0;
	}
	errno = 0;
	x = strtol(buf, &end, 0);
	if (!buf[0] || len >= 63 || isspace((unsigned char)buf[0]) || *end || errno ||
	    x < p->min || x > p->max) {
		snprintf(msg, sizeof(msg), "%s.%s: bad value '%%s'%%s (expected an integer from "
			 "%ld to %ld)", cli->prog, p->name, p->min, p->max);
		return fail(cli, -1, msg, buf, "");
	}
	*out = x;
	return 0;
}

/* VALUE or, for list parameters, V1,V2,...; replaces the default. */
static int parse_value(const struct perf_cli *cli, const struct perf_param *p, const char *v)
{
	struct perf_pval nv = { { 0 }, 0 };
	const char *s = v;

	if (!p->val) {
		if (strlen(v) >= p->str_size)
			return fail(cli, -1, "%s: value too long ('%s')", p->name, v);
		strcpy(p->str, v);
		return 0;
	}
	for (;;) {
		size_t len = strcspn(s, ",");

		if (nv.n == PERF_MAXV)
			return fail(cli, -1, "%s: at most 16 values in '%s'", p->name, v);
		if (parse_one(cli, p, s, len, &nv.v[nv.n++]))
			return -1;
		if (!s[len])
			break;
		s += len + 1;
	}
	if (nv.n > 1 && !p->list)
		return fail(cli, -1, "%s: one value expected, not a list ('%s')", p->name, v);
	*p->val = nv;
	return 0;
}

static int append(char *buf, size_t size, const char *tok)
{
	size_t used = strlen(buf);

	if (used + strlen(tok) + 2 > size)
		return -1;
	snprintf(buf + used, size - used, "%s%s", used ? " " : "", tok);
	return 0;
}

static void usage(const struct perf_cli *cli, const char *intro)
{
	size_t i;

	printf("usage: %s [--json FILE] [--check] [--list-types] [--help] [%s.NAME=VALUE ...]\n"
	       "       [RCU parameters: rcutree.NAME=VALUE nr_cpus=N ...]\n\n%s\n"
	       "  --json FILE    JSON lines (one per measurement and round, then one summary\n"
	       "                 per measurement, then the targets) to FILE; '-' is stdout,\n"
	       "                 and the table then goes to stderr\n"
	       "  --check        check the arguments (and the types) and exit: 0 if all are\n"
	       "                 good, else 2 (3: a plugin does not load; 4: a type cannot\n"
	       "                 run here: not built, or Tiny RCU without SCHED_FIFO) with a\n"
	       "                 one-line error\n"
	       "  --list-types   the torture types that can be measured\n\n"
	       "Parameters (kernel names where it has them; 'list' ones take V1,V2,...\n"
	       "and every combination is measured, round by round):\n"
	       "  %s.scale_type=%s (list: torture types, see --list-types; lib:PATH.so "
	       "loads a plugin)\n", cli->prog, cli->prog, intro, cli->prog, scale_type);
	for (i = 0; i < NCOMMON + cli->nparams; i++) {
		const struct perf_param *p = i < NCOMMON ? &common_params[i] :
						 &cli->params[i - NCOMMON];

		if (p->val)
			printf("  %s.%s=%ld (%ld..%ld%s) %s\n", cli->prog, p->name, p->val->v[0],
			       p->min, p->max, p->list ? ", list" : "", p->help);
		else
			printf("  %s.%s=%s %s\n", cli->prog, p->name, p->str, p->help);
	}
}

static int parse_args(struct perf_cli *cli, int argc, char **argv, char *libargs, size_t liblen,
		      const char *intro)
{
	size_t plen = strlen(cli->prog);
	int i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *eq = strchr(a, '='), *why;
		const struct perf_param *p;

		if (!strcmp(a, "--json")) {
			if (i + 1 >= argc)
				return fail(cli, 2, "--json: missing file name%s%s", "", "");
			a = argv[++i];
			cli->json = strcmp(a, "-") ? fopen(a, "w") : stdout;
			if (!cli->json)
				return fail(cli, 2, "--json %s: %s", a, strerror(errno));
			if (cli->json == stdout)
				cli->table = stderr;
		} else if (!strcmp(a, "--check")) {
			cli->check_only = true;
		} else if (!strcmp(a, "--list-types")) {
			torture_types_list(stdout);
			return -1;
		} else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(cli, intro);
			return -1;
		} else if (!strncmp(a, cli->prog, plen) && a[plen] == '.') {
			a += plen + 1;
			if (!eq)
				return fail(cli, 2, "%s.%s: missing value (expected NAME=VALUE)",
					    cli->prog, a);
			if (!strncmp(a, "scale_type=", 11)) {
				if (!eq[1] || strlen(eq + 1) >= sizeof(scale_type))
					return fail(cli, 2, "%s.scale_type: bad value '%s'", cli->prog,
						    eq + 1);
				strcpy(scale_type, eq + 1);
				continue;
			}
			p = param_find(cli, a, (size_t)(eq - a));
			if (!p && (why = kernel_only_why(cli, a, (size_t)(eq - a)))) {
				fprintf(stderr, "%s: note: %s.%s: ignored: %s\n", cli->prog, cli->prog,
					a, why);
				continue;
			}
			if (!p) {
				fprintf(stderr, "%s: unknown parameter '%s.%.*s' (see --help)\n",
					cli->prog, cli->prog, (int)(eq - a), a);
				return 2;
			}
			if (parse_value(cli, p, eq + 1))
				return 2;
		} else if (a[0] == '-' || !eq || eq == a) {
			return fail(cli, 2, "malformed argument '%s'%s (expected NAME=VALUE; see --help)",
				    a, "");
		} else if (append(libargs, liblen, a)) {
			return fail(cli, 2, "too many parameters at '%s'%s", a, "");
		}
	}
	return 0;
}

/* The kernel's refscale names for types built here under rcutorture's
 * name: { prog, kernel's, ours }. */
static const char *const perf_aliases[][3] = {
	{ "refscale", "rcu-trace", "tasks-tracing" },
};

static const char *perf_alias(const struct perf_cli *cli, const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(perf_aliases) / sizeof(perf_aliases[0]); i++)
		if (!strcmp(perf_aliases[i][0], cli->prog) && !strcmp(perf_aliases[i][1], name))
			return perf_aliases[i][2];
	return name;
}

static int find_types(struct perf_cli *cli)
{
	char buf[sizeof(scale_type)], err[512], *tok, *save = NULL;
	int status = 2, i;

	snprintf(buf, sizeof(buf), "%s", scale_type);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		const struct torture_ops *o = torture_type_find(perf_alias(cli, tok), err,
								 sizeof(err), &status);

		if (!o)
			return fail(cli, status, "%s.scale_type: %s", cli->prog, err);
		for (i = 0; i < cli->ntypes; i++)
			if (cli->types[i] == o)
				return fail(cli, 2, "%s.scale_type: '%s' named twice", cli->prog, tok);
		if (cli->ntypes == PERF_MAXT)
			return fail(cli, 2, "%s.scale_type: at most 16 types%s", cli->prog, "");
		cli->types[cli->ntypes++] = o;
	}
	if (!cli->ntypes)
		return fail(cli, 2, "%s.scale_type: no type given%s", cli->prog, "");
	return 0;
}

/*
 * The RCU's own parameters: each goes to the types whose RCU knows it; one
 * that only an unmeasured type knows is noted and ignored; one nobody
 * knows is an error.  Types sharing an RCU (the same boot_params) get
 * their parameters once.
 */
static int lib_params(struct perf_cli *cli, const char *libargs)
{
	static char own[PERF_MAXT][4096];
	char buf[8192], na[4096] = "", *tok, *save = NULL, err[512];
	int i, j;

	snprintf(buf, sizeof(buf), "%s", libargs);
	for (tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		char name[256];
		bool known = false;

		snprintf(name, sizeof(name), "%.*s", (int)strcspn(tok, "="), tok);
		for (i = 0; i < cli->ntypes; i++) {
			const struct torture_ops *o = cli->types[i];

			if (o->param_known && o->param_known(name)) {
				known = true;
				if (append(own[i], sizeof(own[i]), tok))
					return fail(cli, 2, "too many parameters at '%s'%s", tok, "");
			}
		}
		if (known)
			continue;
		if (!torture_param_known_elsewhere(name))
			return fail(cli, 2, "unknown parameter '%s'%s (see --help)", name, "");
		if (append(na, sizeof(na), tok))
			return fail(cli, 2, "too many parameters at '%s'%s", tok, "");
	}
	if (na[0])
		fprintf(cli->table, "%s: not applicable to the types measured, ignored: %s\n",
			cli->prog, na);
	for (i = 0; i < cli->ntypes; i++) {
		const struct torture_ops *o = cli->types[i];

		for (j = 0; j < i; j++)
			if (cli->types[j]->boot_params == o->boot_params)
				break;
		if (j < i || !own[i][0] || !o->boot_params)
			continue;
		if (o->boot_params(own[i], err, sizeof(err)))
			return fail(cli, 2, "%s%s", err, "");
	}
	return 0;
}

static int init_types(struct perf_cli *cli)
{
	int i, j;

	for (i = 0; i < cli->ntypes; i++) {
		const struct torture_ops *o = cli->types[i];

		for (j = 0; j < i; j++)
			if (cli->types[j]->init == o->init)
				break;
		if (j == i && o->init && o->init())
			return fail(cli, 3, "torture_type %s: initialisation failed%s", o->name, "");
	}
	return 0;
}

int perf_setup(struct perf_cli *cli, int argc, char **argv, const char *intro)
{
	static char libargs[8192];
	int rc;

	cli->table = stdout;
	p_nruns = (struct perf_pval){ { cli->nruns }, 1 };
	p_verbose = (struct perf_pval){ { cli->verbose }, 1 };
	p_timeout = (struct perf_pval){ { cli->timeout_s }, 1 };
	rc = parse_args(cli, argc, argv, libargs, sizeof(libargs), intro);
	if (rc)
		return rc;
	cli->nruns = p_nruns.v[0];
	cli->verbose = p_verbose.v[0];
	cli->timeout_s = p_timeout.v[0];
	rc = find_types(cli);
	if (!rc)
		rc = lib_params(cli, libargs);
	if (!rc)
		rc = perf_up_check(cli);
	if (!rc && !cli->check_only)
		rc = perf_up_setup(cli);
	if (!rc && !cli->check_only)
		rc = init_types(cli);
	if (!rc && !cli->check_only && p_holdoff.v[0])
		sleep((unsigned int)p_holdoff.v[0]);
	return rc;
}
