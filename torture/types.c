/* SPDX-License-Identifier: MIT */
/*
 * types.c - torture_type -> ops table: the built-in types, the kernel's
 * names for some of them, and lib:PATH.so plugins loaded with dlopen()
 * (see torture/ops.h).
 */
#include <dlfcn.h>
#include <stdbool.h>
#include <string.h>
#include "torture.h"
#include "ops/builtin.h"

#ifdef CONFIG_TINY_RCU
/* Tiny RCU (make TINY=1): its flavors, and the kernel's busted type on it. */
static const struct torture_ops *const builtin[] = {
	&rcu_ops, &rcu_bh_ops, &sched_ops, &busted_ops,
};
#else
static const struct torture_ops *const builtin[] = {
	&rcu_ops, &rcu_bh_ops, &sched_ops, &sched_free_ops, &busted_ops, &busted_barrier_ops,
	&busted_unlock_ops, &busted_poll_ops, &busted_poll_full_ops, &busted_hang_ops,
	&busted_lostcb_ops, &busted_exp_ops, &busted_exp_fence_ops, &trivial_ops,
	&trivial_preempt_ops, &trivial_preempt_busted_ops, &srcu_ops, &srcud_ops, &srcum_ops,
	&srcu_busted_ops, &srcu_busted_fast_ops,
	&tasks_tracing_ops, &tasks_tracing_busted_ops,
	&tasks_ops, &tasks_busted_ops, &tasks_rude_ops, &tasks_rude_busted_ops,
};
#endif
#define NBUILTIN (sizeof(builtin) / sizeof(builtin[0]))

/*
 * The kernel's torture types, for the builds that lack some (the Tiny
 * build has only its own flavors).  A type that gets built (builtin[]
 * above) wins over its entry here.
 */
static const char *const kernel_only_types[][2] = {
	{ "srcu", "SRCU" }, { "srcud", "SRCU, dynamically initialized" },
	{ "trivial", "trivial RCU" }, { "trivial-preempt", "trivial preemptible RCU" },
	{ "tasks", "RCU Tasks" }, { "tasks-rude", "RCU Tasks Rude" },
	{ "tasks-tracing", "RCU Tasks Trace" },
};
#define NKERNEL_ONLY (sizeof(kernel_only_types) / sizeof(kernel_only_types[0]))

/*
 * The kernel's names for types built here under another name: { alias,
 * ours }.  rcu_busted is what older kernels (and their BUSTED.boot) call
 * busted; busted_srcud is srcu_busted, SRCU readers extended by
 * protection that holds off no SRCU grace period; rcu-tasks is what the
 * kernel's refscale calls RCU Tasks.
 */
static const char *const type_aliases[][2] = {
	{ "rcu_busted", "busted" }, { "busted_srcud", "srcu_busted" },
	{ "rcu-tasks", "tasks" },	/* the kernel's refscale name */
};
#define NALIASES (sizeof(type_aliases) / sizeof(type_aliases[0]))

/* The other projects' libraries, each built or not (builtin.h). */
static const struct torture_optional *const optional[] = {
	&torture_urcu, &torture_ck, &torture_dpdk,
};
#define NOPTIONAL (sizeof(optional) / sizeof(optional[0]))

/* The i-th built type (ours, then the optional ones built), or NULL. */
static const struct torture_ops *built_type(size_t i)
{
	size_t g, n;

	if (i < NBUILTIN)
		return builtin[i];
	i -= NBUILTIN;
	for (g = 0; g < NOPTIONAL; g++) {
		for (n = 0; optional[g]->ops[n]; n++)
			if (i-- == 0)
				return optional[g]->ops[n];
	}
	return NULL;
}

static const struct torture_ops *built_find(const char *name)
{
	const struct torture_ops *o;
	size_t i;

	for (i = 0; (o = built_type(i)); i++)
		if (!strcmp(o->name, name))
			return o;
	return NULL;
}

/* Each alias's type under its own name (one each: a perf run may measure
 * several in one process). */
static struct torture_ops alias_ops[NALIASES];

/* The built type that name is an alias of, named name (the kernel's
 * console prefix and verdict line), or NULL. */
static const struct torture_ops *alias_find(const char *name)
{
	const struct torture_ops *o;
	size_t i;

	for (i = 0; i < NALIASES; i++) {
		if (strcmp(type_aliases[i][0], name))
			continue;
		o = built_find(type_aliases[i][1]);
		if (!o)
			return NULL;
		alias_ops[i] = *o;
		alias_ops[i].name = type_aliases[i][0];
		return &alias_ops[i];
	}
	return NULL;
}

/*
 * Whether o is a built type of another project's library (liburcu, ck,
 * DPDK).  Under ThreadSanitizer those are not run: the system library is
 * not instrumented, so TSan cannot see its ordering and reports races that
 * are not there (on liburcu's own callback thread, every night).
 */
static bool optional_built(const struct torture_ops *o)
{
	size_t g, i;

	for (g = 0; g < NOPTIONAL; g++)
		for (i = 0; optional[g]->ops[i]; i++)
			if (optional[g]->ops[i] == o)
				return true;
	return false;
}

#if defined(__SANITIZE_THREAD__)
static bool as_tsan = true;
#else
static bool as_tsan;
#endif

void torture_types_as_tsan(void)
{
	as_tsan = true;
}

/* Why name, an optional type, is not built; NULL if it is not one. */
static const char *optional_absent(const char *name)
{
	size_t g, i;

	for (g = 0; g < NOPTIONAL; g++)
		for (i = 0; optional[g]->absent[i]; i++)
			if (!strcmp(optional[g]->absent[i], name))
				return optional[g]->why;
	return NULL;
}

static const char *kernel_only(const char *name)
{
	size_t i;

	if (built_find(name))
		return NULL;
	for (i = 0; i < NKERNEL_ONLY; i++)
		if (!strcmp(kernel_only_types[i][0], name))
			return kernel_only_types[i][1];
	return NULL;
}

/* Built types by name; the others with why they cannot run. */
void torture_types_list(FILE *out)
{
	const struct torture_ops *o;
	size_t g, i;

	for (i = 0; (o = built_type(i)); i++)
		fprintf(out, "%s\n", o->name);
	for (i = 0; i < NALIASES; i++)
		if (built_find(type_aliases[i][1]))
			fprintf(out, "%s (alias of %s)\n", type_aliases[i][0],
				type_aliases[i][1]);
	for (g = 0; g < NOPTIONAL; g++)
		for (i = 0; optional[g]->absent[i]; i++)
			fprintf(out, "%s (%s)\n", optional[g]->absent[i], optional[g]->why);
	for (i = 0; i < NKERNEL_ONLY; i++)
		if (kernel_only(kernel_only_types[i][0]))
			fprintf(out, "%s (not in this build: the kernel's %s)\n",
				kernel_only_types[i][0], kernel_only_types[i][1]);
}

/* The flags, by the names --list-types=long gives them. */
static const struct { unsigned int flag; const char *name; } flag_names[] = {
	{ TORTURE_OPS_QSBR, "qsbr" }, { TORTURE_OPS_UPDATERS_REGISTER, "updaters-register" },
	{ TORTURE_OPS_IRQ_CAPABLE, "irq-capable" }, { TORTURE_OPS_BROKEN, "broken" },
	{ TORTURE_OPS_SLEEPABLE, "sleepable" }, { TORTURE_OPS_NO_BLOCK, "no-block" },
	{ TORTURE_OPS_UP, "up" }, { TORTURE_OPS_CB_ADAPTER, "cb-adapter" },
};

/* A read flavor listed twice: the reader nests it (reader.c). */
static bool ops_nests(const struct torture_ops *o)
{
	unsigned int i, j;

	for (i = 0; o->read_flavors && i < o->n_read_flavors; i++)
		for (j = i + 1; j < o->n_read_flavors; j++)
			if (o->read_flavors[i].protects &&
			    o->read_flavors[i].lock == o->read_flavors[j].lock)
				return true;
	return false;
}

/* The capabilities --list-types=long names: what the harness can check. */
static void ops_caps(const struct torture_ops *o, FILE *out, bool have)
{
	const struct { bool has; const char *name; } caps[] = {
		{ o->sync, "sync" }, { o->exp_sync, "exp" }, { o->call, "call" },
		{ o->cb_barrier, "barrier" }, { ops_nests(o), "nesting" },
		{ o->get_gp_state && o->poll_gp_state, "poll" },
		{ o->get_gp_state_full && o->poll_gp_state_full, "poll-full" },
		{ o->get_gp_seq, "gp-seq" }, { o->thread_register, "register" },
		{ o->thread_register_cpu, "numbered-cpus" },
		{ o->thread_online && o->thread_offline, "online-offline" },
		{ o->stall_notifier, "stall-warnings" }, { o->can_boost, "boost" },
		{ o->nocb_toggle, "nocb-toggle" }, { o->down_read, "up-down" },
	};
	const char *sep = "";
	size_t i;

	for (i = 0; i < sizeof(caps) / sizeof(caps[0]); i++)
		if (caps[i].has == have) {
			fprintf(out, "%s%s", sep, caps[i].name);
			sep = ",";
		}
	if (!*sep)
		fputs("-", out);
}

/* One line a built type: its flags, what it provides and what it lacks
 * (the checks that need a missing hook are skipped); then the others. */
void torture_types_list_long(FILE *out)
{
	const struct torture_ops *o;
	const char *sep;
	size_t g, i;

	for (i = 0; (o = built_type(i)); i++) {
		fprintf(out, "%s flags=", o->name);
		sep = "";
		for (g = 0; g < sizeof(flag_names) / sizeof(flag_names[0]); g++)
			if (o->flags & flag_names[g].flag) {
				fprintf(out, "%s%s", sep, flag_names[g].name);
				sep = ",";
			}
		fputs(*sep ? " has=" : "- has=", out);
		ops_caps(o, out, true);
		fputs(" lacks=", out);
		ops_caps(o, out, false);
		fputc('\n', out);
	}
	for (g = 0; g < NOPTIONAL; g++)
		for (i = 0; optional[g]->absent[i]; i++)
			fprintf(out, "%s (%s)\n", optional[g]->absent[i], optional[g]->why);
}

/* Is name a parameter of some built type's RCU (e.g. rcutree.*)? */
int torture_param_known_elsewhere(const char *name)
{
	const struct torture_ops *o;
	size_t i;

	for (i = 0; (o = built_type(i)); i++)
		if (o->param_known && o->param_known(name))
			return 1;
	return 0;
}

/* The fields the core cannot do without. */
static const char *ops_invalid(const struct torture_ops *o)
{
	if (o->abi_version != TORTURE_OPS_ABI_VERSION)
		return "ABI version mismatch";
	if (o->size < TORTURE_OPS_V1_SIZE)
		return "ops table too small for this ABI";
	if (!o->name || !o->name[0])
		return "no name";
	if (!o->readlock || !o->readunlock || !o->dereference)
		return "readlock, readunlock and dereference are required";
	if (!o->sync && !o->call)
		return "at least one of sync and call is required";
	return NULL;
}

static struct torture_ops plugin_ops;	/* a plugin's table, zero-extended */

static const struct torture_ops *plugin_load(const char *path, char *err, size_t len)
{
	torture_plugin_ops_fn fn;
	const struct torture_ops *o;
	const char *why;
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);

	if (!h) {
		snprintf(err, len, "torture_type=lib:%s: cannot load: %s", path, dlerror());
		return NULL;
	}
	*(void **)&fn = dlsym(h, TORTURE_PLUGIN_SYMBOL);
	if (!fn) {
		snprintf(err, len, "torture_type=lib:%s: no symbol %s", path, TORTURE_PLUGIN_SYMBOL);
		goto fail;
	}
	o = fn(TORTURE_OPS_ABI_VERSION);
	if (!o) {
		snprintf(err, len, "torture_type=lib:%s: plugin refused ABI version %d", path,
			 TORTURE_OPS_ABI_VERSION);
		goto fail;
	}
	why = ops_invalid(o);
	if (why) {
		snprintf(err, len, "torture_type=lib:%s: bad ops table: %s (plugin ABI %u, "
			 "ours %d)", path, why, o->abi_version, TORTURE_OPS_ABI_VERSION);
		goto fail;
	}
	/* Fields the plugin's table does not have read as NULL. */
	memcpy(&plugin_ops, o, o->size < sizeof(plugin_ops) ? o->size : sizeof(plugin_ops));
	plugin_ops.size = sizeof(plugin_ops);
	return &plugin_ops;	/* the handle stays open for the life of the run */
fail:
	dlclose(h);
	return NULL;
}

/*
 * *status: 2 for an unknown type, 3 for a plugin that failed to load, 4
 * for a type that exists but cannot run here (not built, or the kernel's
 * and not implemented): err then says why.
 */
const struct torture_ops *torture_type_find(const char *name, char *err, size_t len,
					    int *status)
{
	const struct torture_ops *o;
	const char *what;

	if (!strncmp(name, "lib:", 4)) {
		*status = 3;
		return plugin_load(name + 4, err, len);
	}
	o = built_find(name);
	if (!o)
		o = alias_find(name);
	*status = 4;
	if (o && as_tsan && optional_built(o)) {
		snprintf(err, len, "torture_type=%s is not run under ThreadSanitizer: its "
			 "library is not instrumented, so TSan cannot see its ordering "
			 "(its reports would be false)", name);
		return NULL;
	}
	if (o)
		return o;
	if ((what = optional_absent(name)))
		snprintf(err, len, "torture_type=%s is %s", name, what);
	else if ((what = kernel_only(name)))
		snprintf(err, len, "torture_type=%s is not in this build (the kernel's %s)",
			 name, what);
	else {
		*status = 2;
		snprintf(err, len, "rcutorture.torture_type: unknown type '%s' (see --list-types)",
			 name);
	}
	return NULL;
}
