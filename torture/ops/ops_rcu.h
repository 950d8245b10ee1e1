/* SPDX-License-Identifier: MIT */
/*
 * ops_rcu.h - the pieces of our library's adapter (ops_rcu.c) that the
 * deliberately broken types (ops_busted*.c) reuse: everything but the
 * piece each one breaks.
 */
#ifndef TORTURE_OPS_RCU_H
#define TORTURE_OPS_RCU_H

#include <torture/ops.h>

/* Hidden: these objects are only linked into programs, and a call to a
 * hidden function of the same file can be inlined under -fPIC (the
 * read_section loops rely on it). */
#pragma GCC visibility push(hidden)
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
long rcut_read_section(long n, void *const *pp);
unsigned long rcut_get_gp_seq(void);
long rcut_gp_diff(unsigned long newer, unsigned long older);
unsigned long rcut_gps(void);
void rcut_sync(void);
void rcut_exp_sync(void);
void rcut_call(struct torture_cb *cb);
void rcut_barrier(void);
unsigned long rcut_get_gp_state(void);
unsigned long rcut_start_poll(void);
int rcut_poll(unsigned long cookie);
void rcut_cond_sync(unsigned long cookie);
unsigned long rcut_start_poll_exp(void);
void rcut_cond_sync_exp(unsigned long cookie);
int rcut_stall_notifier(void (*fn)(const struct torture_stall *s));
void rcut_stall_gp_kthread(unsigned long ms);
void rcut_sched_stall_gp_kthread(unsigned long ms);
unsigned long rcut_stall_timeout_ms(void);
unsigned long rcut_misuse(void);
int rcut_debug_objects(void);
void rcut_print_tree(FILE *out);
void rcut_gp_state(FILE *out);
long rcut_capacity(void);
int rcut_register_cpu(int cpu);
int rcut_cpu_group(int cpu);
int rcut_nocb_toggle(int cpu, int offload);
int rcut_kthreads_prio(void);
int rcut_can_boost(void);
unsigned long rcut_boosts(void);
unsigned long rcut_comp_state(void);
void rcut_get_state_full(struct torture_gp_full *c);
void rcut_start_poll_full(struct torture_gp_full *c);
void rcut_start_poll_exp_full(struct torture_gp_full *c);
int rcut_poll_full(struct torture_gp_full *c);
void rcut_cond_sync_full(struct torture_gp_full *c);
void rcut_cond_sync_exp_full(struct torture_gp_full *c);
void rcut_comp_state_full(struct torture_gp_full *c);
int rcut_same_state_full(struct torture_gp_full *c1, struct torture_gp_full *c2);
unsigned long rcut_sched_gp_seq(void);
unsigned long rcut_sched_gps(void);
void rcut_sched_sync(void);
void rcut_sched_exp_sync(void);
void rcut_sched_call(struct torture_cb *cb);
void rcut_sched_barrier(void);
unsigned long rcut_sched_get_state(void);
unsigned long rcut_sched_start_poll(void);
int rcut_sched_poll(unsigned long c);
void rcut_sched_cond_sync(unsigned long c);
unsigned long rcut_sched_start_poll_exp(void);
void rcut_sched_cond_sync_exp(unsigned long c);
void rcut_sched_stats(FILE *out);
void rcut_sched_fqs(void);

extern const struct torture_read_flavor rcut_nested_flavors[2];
/* srcu_lockdep.c: test_srcu_lockdep, in CONFIG_PROVE_LOCKING builds only. */
int rcut_srcu_lockdep(long val, FILE *out);
#pragma GCC visibility pop
#ifdef CONFIG_PROVE_LOCKING
#define RCUT_SRCU_LOCKDEP	rcut_srcu_lockdep
#else
#define RCUT_SRCU_LOCKDEP	NULL
#endif

/*
 * Groups of fields for the types built on our library's rcu flavor; a
 * broken type leaves out the group holding what it breaks and spells
 * that field itself.
 */
#define RCUT_BASE	RCUT_ADMIN, .init = rcut_init
#define RCUT_ADMIN	RCUT_ADMIN_NOREG,					\
	.thread_register = rcut_register,				\
	.thread_register_cpu = rcut_register_cpu
/* Without the registration calls (sched-free spells its own). */
#define RCUT_ADMIN_NOREG						\
	TORTURE_OPS_HEAD,						\
	.gp_name = "rcu",						\
	.param_known = rcut_param_known,				\
	.boot_params = rcut_boot_params,				\
	.thread_unregister = rcut_unregister,				\
	.misuse_count = rcut_misuse,					\
	RCUT_TREE_ADMIN
#ifdef CONFIG_TINY_RCU
/*
 * Tiny RCU (make TINY=1): no rcu_node tree, stall warnings, offloading,
 * boosting or grace-period thread (the core skips what needs them), and
 * its threads on one CPU under SCHED_FIFO (TORTURE_OPS_UP).
 */
#define RCUT_TREE_ADMIN		.gp_kthreads_prio = NULL
#define RCUT_TREE_ONLY(...)
#define RCUT_UP			TORTURE_OPS_UP
#else
#define RCUT_TREE_ADMIN							\
	.thread_capacity = rcut_capacity,				\
	.print_tree = rcut_print_tree,					\
	.gp_state = rcut_gp_state,					\
	.cpu_group = rcut_cpu_group,					\
	.stall_notifier = rcut_stall_notifier,				\
	.stall_timeout_ms = rcut_stall_timeout_ms,			\
	.nocb_toggle = rcut_nocb_toggle,				\
	.gp_kthreads_prio = rcut_kthreads_prio,				\
	.boosts = rcut_boosts,						\
	.srcu_lockdep = RCUT_SRCU_LOCKDEP
/* Fields (with their trailing comma) that only Tree RCU fills. */
#define RCUT_TREE_ONLY(...)	__VA_ARGS__,
#define RCUT_UP			0
#endif
#define RCUT_EQS							\
	.thread_online = rcut_online,					\
	.thread_offline = rcut_offline,					\
	.quiescent_state = rcut_qs
#define RCUT_COMMON	RCUT_BASE, RCUT_EQS
#define RCUT_READER							\
	.readlock = rcut_readlock,					\
	.readunlock = rcut_readunlock,					\
	.dereference = rcut_dereference,				\
	.read_section = rcut_read_section
#define RCUT_GP_SEQ							\
	.get_gp_seq = rcut_get_gp_seq,					\
	.gp_diff = rcut_gp_diff,					\
	.gps_completed = rcut_gps
#define RCUT_UPDATE							\
	.sync = rcut_sync,						\
	.exp_sync = rcut_exp_sync,					\
	.call = rcut_call,						\
	.cb_barrier = rcut_barrier
/* The rcu flavor's full-state polled calls, but for the poll itself
 * (busted_poll_full breaks that one). */
#define RCUT_FULL_BUT_POLL						\
	.get_gp_state_full = rcut_get_state_full,			\
	.start_gp_poll_full = rcut_start_poll_full,			\
	.start_gp_poll_exp_full = rcut_start_poll_exp_full,		\
	.cond_sync_full = rcut_cond_sync_full,				\
	.cond_sync_exp_full = rcut_cond_sync_exp_full,			\
	.get_comp_state_full = rcut_comp_state_full,			\
	.same_gp_state_full = rcut_same_state_full,			\
	.poll_active_full = NUM_ACTIVE_RCU_POLL_FULL_OLDSTATE
#define RCUT_FULL	RCUT_FULL_BUT_POLL, .poll_gp_state_full = rcut_poll_full
/* The sched flavor's update side (sched and sched-free). */
#define RCUT_SCHED_UPDATE						\
	.get_gp_seq = rcut_sched_gp_seq,				\
	.gp_diff = rcut_gp_diff,					\
	.gps_completed = rcut_sched_gps,				\
	.sync = rcut_sched_sync,					\
	.exp_sync = rcut_sched_exp_sync,				\
	.call = rcut_sched_call,					\
	.cb_barrier = rcut_sched_barrier,				\
	.fqs = rcut_sched_fqs,						\
	RCUT_TREE_ONLY(.stall_gp_kthread = rcut_sched_stall_gp_kthread)	\
	.get_gp_state = rcut_sched_get_state,				\
	.start_gp_poll = rcut_sched_start_poll,				\
	.poll_gp_state = rcut_sched_poll,				\
	.cond_sync = rcut_sched_cond_sync,				\
	.start_gp_poll_exp = rcut_sched_start_poll_exp,			\
	.cond_sync_exp = rcut_sched_cond_sync_exp,			\
	.get_comp_state = rcut_comp_state,				\
	.debug_objects = rcut_debug_objects,				\
	.stats = rcut_sched_stats

#endif
