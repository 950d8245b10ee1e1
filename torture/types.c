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

/* The i-th built type (ours, then liburcu's when built), or NULL. */
static const struct torture_ops *built_type(size_t i)
{
	if (i < NBUILTIN)
		return builtin[i];
	return torture_urcu_ops[i - NBUILTIN];	/* NULL-terminated */
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

static bool urcu_absent(const char *name)
{
	size_t i;

	for (i = 0; torture_urcu_absent[i]; i++)
		if (!strcmp(torture_urcu_absent[i], name))
			return true;
	return false;
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
	size_t i;

	for (i = 0; (o = built_type(i)); i++)
		fprintf(out, "%s\n", o->name);
	for (i = 0; i < NALIASES; i++)
		if (built_find(type_aliases[i][1]))
			fprintf(out, "%s (alias of %s)\n", type_aliases[i][0],
				type_aliases[i][1]);
	for (i = 0; torture_urcu_absent[i]; i++)
		fprintf(out, "%s (%s)\n", torture_urcu_absent[i], torture_urcu_why);
	for (i = 0; i < NKERNEL_ONLY; i++)
		if (kernel_only(kernel_only_types[i][0]))
			fprintf(out, "%s (not in this build: the kernel's %s)\n",
				kernel_only_types[i][0], kernel_only_types[i][1]);
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
	if (o)
		return o;
	*status = 4;
	if (urcu_absent(name))
		snprintf(err, len, "torture_type=%s is %s", name, torture_urcu_why);
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
