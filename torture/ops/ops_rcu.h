/* SPDX-License-Identifier: MIT */
/*
 * ops_rcu.h - the pieces of our library's adapter (ops_rcu.c) that the
 * deliberately broken types (ops_busted*.c) reuse: everything but the
 * piece each one breaks.
 */
#ifndef TORTURE_OPS_RCU_H
#define TORTURE_OPS_RCU_H

#include <torture/ops.h>

int rcut_init(void);
int rcut_param_known(const char *name);
int rcut_boot_params(const char *args, char *err, size_t errlen);
int rcut_register(void);
void rcut_unregister(void);
void rcut_online(void);
void rcut_offline(void);
void rcut_qs(void);
int rcut_readlock(void);
void rcut_readunlock(int idx);
void *rcut_dereference(void *const *pp);
unsigned long rcut_get_gp_seq(void);
long rcut_gp_diff(unsigned long newer, unsigned long older);
unsigned long rcut_gps(void);
void rcut_sync(void);
void rcut_call(struct torture_cb *cb);
void rcut_barrier(void);
unsigned long rcut_get_gp_state(void);
unsigned long rcut_start_poll(void);
int rcut_poll(unsigned long cookie);
void rcut_cond_sync(unsigned long cookie);
unsigned long rcut_misuse(void);
void rcut_print_tree(FILE *out);
void rcut_gp_state(FILE *out);

/* The fields shared by every type built on our library's rcu flavor. */
#define RCUT_COMMON							\
	.abi_version = TORTURE_OPS_ABI_VERSION,				\
	.size = sizeof(struct torture_ops),				\
	.init = rcut_init,						\
	.param_known = rcut_param_known,				\
	.boot_params = rcut_boot_params,				\
	.thread_register = rcut_register,				\
	.thread_unregister = rcut_unregister,				\
	.thread_online = rcut_online,					\
	.thread_offline = rcut_offline,					\
	.quiescent_state = rcut_qs,					\
	.misuse_count = rcut_misuse,					\
	.print_tree = rcut_print_tree,					\
	.gp_state = rcut_gp_state

#endif
