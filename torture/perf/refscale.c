/* SPDX-License-Identifier: MIT */
/*
 * refscale.c - read-side cost of every torture type (the kernel's
 * refscale): nanoseconds per lock + dereference + unlock, per such pair
 * nested inside an outer section, and of the same loop without the RCU
 * (the baseline), with 1..N readers, with and without a concurrent
 * updater.  See perf.h for the sweep and usage() for the parameters.
 *
 * One measurement ("round") of one type: nreaders threads register,
 * wait at a start gate, and each times three passes of `loops'
 * iterations, each after a warm-up of a tenth of it: the baseline loop,
 * the read-side pairs, the nested pairs.  The cost is the readers' CPU
 * time (CLOCK_THREAD_CPUTIME_ID: a reader that is preempted on a busy
 * machine is not charged for it, as the kernel's refscale keeps
 * interrupts off) divided by nreaders x loops; the wall-clock figure is
 * printed beside it.  QSBR readers announce a quiescent state every
 * qs_interval pairs (not inside the nested pass), as a QSBR reader loop
 * must, so that a concurrent updater makes progress.
 *
 * The loop of pairs runs inside the type's adapter when it has
 * read_section() (no indirect call per pair, as in the kernel's
 * refscale); otherwise (or with read_section=0, readdelay or
 * read_flavor) each pair is three calls through the ops table.
 * read_flavor=NAME measures one of the type's extendables instead of its
 * readlock (srcu's SRCU_NMI: srcu_read_lock_nmisafe()).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "perf.h"

static struct perf_pval p_nreaders = { { -1 }, 1 }, p_loops = { { 100000 }, 1 },
	p_readdelay = { { 0 }, 1 }, p_updater = { { 0 }, 1 }, p_qs_interval = { { 1000 }, 1 },
	p_read_section = { { 1 }, 1 }, p_updater_holdoff = { { 0 }, 1 };
static char read_flavor[64];

static const struct perf_param params[] = {
	PERF_P("nreaders", &p_nreaders, -1, 4096, true,
	  "reader threads; -1: three quarters of the CPUs, at least 1"),
	PERF_P("loops", &p_loops, 1, 1000000000, false,
	  "pairs per reader per pass (the kernel's default is 10000; a userspace "
	  "thread-CPU clock read costs more)"),
	PERF_P("readdelay", &p_readdelay, 0, 1000000, false,
	  "ns spent inside each section (a busy wait; also in the baseline)"),
	PERF_P("updater", &p_updater, 0, 1, true,
	  "ours: a thread doing grace periods meanwhile (back to back unless updater_holdoff)"),
	PERF_P("updater_holdoff", &p_updater_holdoff, 0, 10000000, false,
	  "us the updater sleeps between grace periods (as rcuscale.writer_holdoff): "
	  "0, back to back, makes the faster RCU's readers share their lines with "
	  "more grace periods; a holdoff compares them at about the same rate"),
	PERF_P("qs_interval", &p_qs_interval, 1, 1000000000, false,
	  "ours: QSBR readers announce a quiescent state every this many pairs"),
	PERF_P("read_section", &p_read_section, 0, 1, false,
	  "ours: 1: the type's own loop of pairs where it has one; 0: three calls "
	  "through the ops table per pair"),
	PERF_S("read_flavor", read_flavor,
	       "ours: measure this entry of the type's read_flavors (e.g. SRCU_NMI) "
	       "instead of readlock/readunlock"),
};

static const struct perf_param *const lists[] = { &params[0], &params[3] };
enum { L_NREADERS, L_UPDATER };

enum { F_NS, F_NESTED, F_EMPTY, F_NET, F_WALL, F_UPD, NFIGS };
static const struct perf_fig figs[NFIGS] = {
	[F_NS] = { "ns", "ns/pair", PERF_LOWER, true },
	[F_NESTED] = { "nested_ns", "nested", PERF_LOWER, true },
	[F_EMPTY] = { "empty_ns", "baseline", PERF_LOWER, true },
	[F_NET] = { "net_ns", "net", PERF_LOWER, true },
	[F_WALL] = { "wall_ns", "wall", PERF_LOWER, true },
	[F_UPD] = { "updater_gps_per_s", "upd-GP/s", PERF_HIGHER, true },
};

/* ------------------------------------------------------------------ */
/* The passes */

enum { PASS_EMPTY, PASS_READ, PASS_NESTED, NPASS };

static long target_val = 1;
static void *target = &target_val;	/* what the readers dereference */
static long sink;			/* keeps the loops' loads */

static long readdelay_ns;		/* p_readdelay, for the hot loops */

/* How a type's pairs are made: its own loop, or lock/unlock calls. */
struct rs_path {
	const struct torture_ops *o;
	long (*section)(long n, void *const *pp);	/* NULL: calls */
	int (*lock)(void);
	void (*unlock)(int idx);
};

static struct rs_path path_of(const struct torture_ops *o)
{
	struct rs_path p = { o, NULL, o->readlock, o->readunlock };
	unsigned int i;

	if (read_flavor[0]) {
		for (i = 0; i < o->n_read_flavors; i++)
			if (!strcmp(o->read_flavors[i].name, read_flavor)) {
				p.lock = o->read_flavors[i].lock;
				p.unlock = o->read_flavors[i].unlock;
			}
	} else if (p_read_section.v[0] && !readdelay_ns) {
		p.section = o->read_section;
	}
	return p;
}

/* n pairs, or the baseline: the same loop, no RCU. */
static long chunk(const struct rs_path *p, int pass, long n)
{
	const struct torture_ops *o = p->o;
	long i, s = 0;
	int idx;

	if (pass == PASS_EMPTY) {
		for (i = 0; i < n; i++) {
			/* Relaxed: the load a dereference would make. */
			s += *(long *)READ_ONCE(target);
			if (readdelay_ns)
				perf_spin_ns((double)readdelay_ns);
			__asm__ __volatile__("" ::: "memory");	/* one load per pair */
		}
		return s;
	}
	if (p->section)
		return p->section(n, &target);
	for (i = 0; i < n; i++) {
		idx = p->lock();
		s += *(long *)o->dereference(&target);
		if (readdelay_ns)
			perf_spin_ns((double)readdelay_ns);
		p->unlock(idx);
	}
	return s;
}

/* One pass of `loops' pairs, in chunks of qs_interval with a quiescent
 * state between them (QSBR types, outside the nested pass). */
static long pass_run(const struct rs_path *p, int pass, long loops)
{
	long done = 0, s = 0, k, every = p_qs_interval.v[0];
	int idx = 0;

	if (pass == PASS_NESTED)
		idx = p->lock();
	while (done < loops) {
		k = loops - done < every ? loops - done : every;
		s += chunk(p, pass, k);
		done += k;
		if (pass != PASS_NESTED)
			perf_qs(p->o);
	}
	if (pass == PASS_NESTED) {
		p->unlock(idx);
		perf_qs(p->o);
	}
	return s;
}

/* ------------------------------------------------------------------ */
/* Readers and the updater of one measurement */

struct rs_round {
	const struct torture_ops *o;
	struct perf_gate gate;
	long loops;
	int stop;			/* the updater stops; atomic */
	unsigned long updater_gps;	/* atomic */
};

struct rs_reader {
	struct rs_round *rd;
	pthread_t t;
	int ok;				/* registered */
	double cpu_ns[NPASS], wall_ns[NPASS];
};

static void *reader_main(void *arg)
{
	struct rs_reader *r = arg;
	const struct torture_ops *o = r->rd->o;
	struct rs_path p = path_of(o);
	long warm = r->rd->loops / 10 ? r->rd->loops / 10 : 1, s = 0;
	double c0, w0;
	int pass;

	r->ok = !perf_register(o);
	for (pass = 0; pass < NPASS; pass++) {
		perf_gate_wait(&r->rd->gate, r->ok ? o : NULL);
		if (!r->ok)
			continue;
		s += pass_run(&p, pass, warm);
		c0 = perf_thread_cpu_ns();
		w0 = perf_now_ns();
		s += pass_run(&p, pass, r->rd->loops);
		r->cpu_ns[pass] = perf_thread_cpu_ns() - c0;
		r->wall_ns[pass] = perf_now_ns() - w0;
	}
	atomic_add(s, &sink);	/* keep the loops */
	if (r->ok) {
		perf_offline(o);
		perf_unregister(o);
	}
	return NULL;
}

static void noop_cb(struct torture_cb *cb)
{
	(void)cb;
}

/* Grace periods until the readers are done: back to back, or
 * refscale.updater_holdoff microseconds apart. */
static void *updater_main(void *arg)
{
	struct rs_round *rd = arg;
	const struct torture_ops *o = rd->o;
	struct torture_cb cb;

	if (perf_updater_start(o)) {
		WRITE_ONCE(rd->updater_gps, ~0UL);	/* failed */
		return NULL;
	}
	/* Acquire: pairs with the release store that stops us. */
	while (!smp_load_acquire(&rd->stop)) {
		if (o->sync) {
			o->sync();
		} else {
			perf_call(o, &cb, noop_cb);
			o->cb_barrier();
		}
		atomic_inc(&rd->updater_gps);	/* a count */
		if (p_updater_holdoff.v[0])
			perf_sleep_us((unsigned long)p_updater_holdoff.v[0]);
		else
			perf_up_yield();	/* one CPU: let the readers run */
	}
	perf_updater_stop(o);
	return NULL;
}

static long nreaders_of(long n)
{
	if (n > 0)
		return n;
	n = perf_ncpus() * 3 / 4;
	return n > 0 ? n : 1;
}

static int measure(const struct perf_cell *c, int run, double *out)
{
	long n = nreaders_of(c->p[L_NREADERS]), i;
	struct rs_round rd = { .o = c->ops, .loops = p_loops.v[0] };
	struct rs_reader *r = calloc((size_t)n, sizeof(*r));
	double sum[NPASS] = { 0 }, wall = 0, w0, w1;
	pthread_t upd;
	int rc = 0, pass;

	(void)run;
	if (!r)
		return -1;
	perf_gate_init(&rd.gate, (unsigned int)n + 1);
	w0 = perf_now_ns();
	if (c->p[L_UPDATER] && perf_spawn(&upd, "rs_updater", updater_main, &rd)) {
		free(r);
		return -1;
	}
	for (i = 0; i < n; i++) {
		r[i].rd = &rd;
		if (perf_spawn(&r[i].t, "rs_reader", reader_main, &r[i]))
			exit(3);	/* the others wait at the gate */
	}
	for (pass = 0; pass < NPASS; pass++)
		perf_gate_wait(&rd.gate, NULL);	/* the main thread releases each pass */
	for (i = 0; i < n; i++)
		perf_join(r[i].t);
	smp_store_release(&rd.stop, 1);	/* pairs with updater_main() */
	w1 = perf_now_ns();
	if (c->p[L_UPDATER])
		perf_join(upd);
	for (i = 0; i < n; i++) {
		if (!r[i].ok)
			rc = -1;
		for (pass = 0; pass < NPASS; pass++)
			sum[pass] += r[i].cpu_ns[pass];
		wall += r[i].wall_ns[PASS_READ];
	}
	perf_gate_destroy(&rd.gate);
	free(r);
	if (rd.updater_gps == ~0UL)
		rc = -1;
	out[F_EMPTY] = sum[PASS_EMPTY] / (double)(n * rd.loops);
	out[F_NS] = sum[PASS_READ] / (double)(n * rd.loops);
	out[F_NESTED] = sum[PASS_NESTED] / (double)(n * rd.loops);
	out[F_NET] = out[F_NS] - out[F_EMPTY];
	out[F_WALL] = wall / (double)(n * rd.loops);
	out[F_UPD] = c->p[L_UPDATER] ? (double)rd.updater_gps / ((w1 - w0) / 1e9) : NAN;
	return rc;
}

static void fixed_json(struct jw *w, const struct perf_cell *c)
{
	jw_int(w, "loops", p_loops.v[0]);
	jw_int(w, "readdelay", p_readdelay.v[0]);
	jw_int(w, "qs_interval", p_qs_interval.v[0]);
	jw_int(w, "updater_holdoff", p_updater_holdoff.v[0]);
	jw_bool(w, "read_section", path_of(c->ops).section != NULL);	/* used */
	jw_str(w, "read_flavor", read_flavor[0] ? read_flavor : NULL);
}

static const struct perf_test read_test = {
	.name = "read",
	.label = "ns per lock + dereference + unlock (CPU time), nested pair inside an outer "
		 "section, the loop without RCU (baseline), net = ns - baseline; medians over "
		 "the rounds, the first column with (min..max)",
	.figs = figs,
	.nfigs = NFIGS,
	.lists = lists,
	.nlists = 2,
	.fixed_json = fixed_json,
	.measure = measure,
};

/* ------------------------------------------------------------------ */
/* Targets: ours against liburcu's, at every combination measured. */

static void targets(const struct perf_sweep *s, const struct perf_cli *cli)
{
	/* sched's markers test the thread's state, urcu-qsbr's compile to
	 * nothing: at most 1.5x there, 1x for the others. */
	static const char *const pairs[][2] = {
		{ "rcu", "urcu-memb" }, { "rcu_bh", "urcu-memb" }, { "sched-free", "urcu-qsbr" },
	}, *const checked[][2] = { { "sched", "urcu-qsbr" } };
	static const char *const ours[] = { "rcu", "rcu_bh", "sched", "sched-free", "srcu",
					    "srcud" };
	struct perf_target t[64] = { 0 };
	char text[120];
	int n = perf_pair_targets(s, pairs, 3, F_NS, "ns", 1, false, NULL, t, 0, 48), i, k;

	n = perf_pair_targets(s, checked, 1, F_NS, "ns", 1.5, false, NULL, t, n, 48);

	/* The SRCU issue's: an SRCU read at most twice an rcu one. */
	for (i = 0; i < s->ncells && n < 56; i++) {
		const struct perf_cell *c = &s->cells[i], *r;

		if (strcmp(c->ops->name, "srcu") || !(r = perf_cell_find(s, "rcu", c->p)))
			continue;
		perf_cell_params_text(s, c, text, sizeof(text));
		snprintf(t[n].what, sizeof(t[n].what), "srcu/rcu ns (%s)", text);
		perf_ratio_target(&t[n++], s, c, F_NS, r, F_NS, 2, false);
	}
	for (i = 0; i < s->ncells && n < 64; i++) {
		const struct perf_cell *c = &s->cells[i];

		for (k = 0; k < 6 && n < 64; k++) {
			if (strcmp(c->ops->name, ours[k]))
				continue;
			perf_cell_params_text(s, c, text, sizeof(text));
			snprintf(t[n].what, sizeof(t[n].what), "%s nested/outer pair (%s)", ours[k],
				 text);
			perf_ratio_target(&t[n++], s, c, F_NESTED, c, F_NS, 1, false);
		}
	}
	perf_targets_print(cli, "read", t, n);
}

int main(int argc, char **argv)
{
	struct perf_cli cli = {
		.prog = "refscale", .params = params,
		.nparams = sizeof(params) / sizeof(params[0]),
		.nruns = 30, .verbose = 0, .timeout_s = 120,
	};
	struct perf_sweep s;
	int rc, i;

	rc = perf_setup(&cli, argc, argv,
			"Read-side cost of torture types: ns per rcu_read_lock() + "
			"rcu_dereference() +\nrcu_read_unlock() (or the type's own), nested "
			"and not, beside the loop without\nRCU, with 1..N readers and "
			"optionally a concurrent updater.");
	if (rc)
		return rc < 0 ? 0 : rc;
	for (i = 0; i < p_nreaders.n; i++)
		if (!p_nreaders.v[i]) {
			fprintf(stderr, "refscale: refscale.nreaders=0: at least one reader "
				"(-1: three quarters of the CPUs)\n");
			return 2;
		}
	for (i = 0; i < cli.ntypes; i++)
		if (p_updater.v[0] + p_updater.v[p_updater.n - 1] && !cli.types[i]->sync &&
		    !(cli.types[i]->call && cli.types[i]->cb_barrier)) {
			fprintf(stderr, "refscale: refscale.updater=1: %s has neither sync nor "
				"call and cb_barrier\n", cli.types[i]->name);
			return 2;
		}
	readdelay_ns = p_readdelay.v[0];
	for (i = 0; i < cli.ntypes && read_flavor[0]; i++)
		if (path_of(cli.types[i]).lock == cli.types[i]->readlock) {
			fprintf(stderr, "refscale: refscale.read_flavor=%s: torture type %s has no "
				"such read flavor\n", read_flavor, cli.types[i]->name);
			return 2;
		}
	if (perf_checked(&cli))
		return 0;
	if (perf_sweep_init(&s, &read_test, &cli))
		return 3;
	rc = perf_sweep_run(&s, &cli);
	if (!rc)
		targets(&s, &cli);
	perf_sweep_free(&s);
	return rc;
}
