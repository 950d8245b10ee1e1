/* SPDX-License-Identifier: MIT */
/*
 * types.c - torture_type -> ops table: the built-in types, and
 * lib:PATH.so plugins loaded with dlopen() (see torture/ops.h).
 */
#include <dlfcn.h>
#include <string.h>
#include "torture.h"
#include "ops/builtin.h"

static const struct torture_ops *const builtin[] = {
	&rcu_ops, &rcu_bh_ops, &sched_ops, &busted_ops, &busted_barrier_ops,
	&busted_unlock_ops, &busted_poll_ops, &busted_hang_ops, &busted_lostcb_ops,
	&busted_exp_ops, &busted_exp_fence_ops, &trivial_ops, &srcu_ops, &srcud_ops, &srcum_ops,
	&srcu_busted_ops,
#ifdef TORTURE_HAVE_LIBURCU
	&liburcu_memb_ops, &liburcu_mb_ops, &liburcu_signal_ops, &liburcu_qsbr_ops,
	&liburcu_bp_ops,
#endif
};
#define NBUILTIN (sizeof(builtin) / sizeof(builtin[0]))

void torture_types_list(FILE *out)
{
	size_t i;

	for (i = 0; i < NBUILTIN; i++)
		fprintf(out, "%s\n", builtin[i]->name);
}

/* Is name a parameter of some built-in type's RCU (e.g. rcutree.*)? */
int torture_param_known_elsewhere(const char *name)
{
	size_t i;

	for (i = 0; i < NBUILTIN; i++)
		if (builtin[i]->param_known && builtin[i]->param_known(name))
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

/* *status: 2 for an unknown type, 3 for a plugin that failed to load. */
const struct torture_ops *torture_type_find(const char *name, char *err, size_t len,
					    int *status)
{
	size_t i;

	if (!strncmp(name, "lib:", 4)) {
		*status = 3;
		return plugin_load(name + 4, err, len);
	}
	for (i = 0; i < NBUILTIN; i++)
		if (!strcmp(builtin[i]->name, name))
			return builtin[i];
	*status = 2;
	snprintf(err, len, "rcutorture.torture_type: unknown type '%s' (see --list-types)", name);
	return NULL;
}
