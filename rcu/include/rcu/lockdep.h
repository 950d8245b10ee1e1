/* SPDX-License-Identifier: MIT */
/*
 * rcu/lockdep.h - lock-dependency checking (the kernel's lockdep), for
 * SRCU domains and the locks a program takes around them.
 *
 * What it checks
 *   Built with -DCONFIG_PROVE_LOCKING (make DEBUG=1 builds the library
 *   and its programs so), every read-side section of an SRCU domain (and
 *   of RCU Tasks Trace, one such domain) is a recursive read acquisition
 *   of the domain, and synchronize_srcu() (synchronize_srcu_expedited(),
 *   synchronize_rcu_tasks_trace()) an exclusive acquisition and release
 *   of it, as the kernel's lockdep models them (srcu_lock_acquire(),
 *   lock_sync()).  Each acquisition made while the thread holds others
 *   records "held -> acquired" dependencies; one that closes a cycle that
 *   could deadlock, or an exclusive acquisition of a domain the thread
 *   holds, prints one kernel-style splat
 *
 *     ======================================================
 *     WARNING: possible circular locking dependency detected
 *     ...
 *      *** DEADLOCK ***
 *
 *   counts a misuse (lrcu_misuse_count()) and turns the checking off, as
 *   the kernel's does after its first report.  Recursive readers do not
 *   block one another: a cycle is reported only if it could deadlock with
 *   them (the kernel's rule: no edge that acquires a lock as a recursive
 *   reader followed by one that holds it shared).
 *
 *   Other locks join the same graph through a struct lockdep_map and the
 *   calls below (rcutorture's test_srcu_lockdep wraps its pthread mutexes
 *   and rwlocks so), as the kernel's mutexes and rwsems do.  A map is its
 *   own class: one map per lock.
 *
 *     static struct lockdep_map m = STATIC_LOCKDEP_MAP_INIT("my_lock");
 *     lock_map_acquire(&m); pthread_mutex_lock(&mu); ...
 *     pthread_mutex_unlock(&mu); lock_map_release(&m);
 *
 *   Without CONFIG_PROVE_LOCKING the calls compile to nothing (the
 *   library's own synchronize_srcu() checks only what the thread's
 *   annotated sections recorded: nothing).  Async-signal-safe: a signal
 *   handler's sections are recorded, except those that interrupt the
 *   checker itself on that thread (not recorded, not checked).
 */
#ifndef RCU_LOCKDEP_H
#define RCU_LOCKDEP_H

#include <rcu/compiler.h>

#ifdef __cplusplus
extern "C" {
#endif

/* How a lock is acquired (the kernel's lock_acquire() "read" argument). */
#define LRCU_LOCK_EXCLUSIVE	0	/* mutex, down_write(), synchronize_srcu() */
#define LRCU_LOCK_SHARED	1	/* down_read(): a shared, non-recursive hold */
#define LRCU_LOCK_RECURSIVE	2	/* srcu_read_lock(): readers never block readers */

/*
 * The checker's entry points: key names the lock class (a map, or an SRCU
 * domain's address), name is how splats call it, at names the caller.
 * lrcu_lock_sync() is the kernel's lock_sync(): an exclusive acquisition
 * and release at once (a wait for the lock's holders).
 * lrcu_lockdep_forget() drops a class whose memory is about to be reused
 * (cleanup_srcu_struct() calls it).
 */
LRCU_API void lrcu_lock_acquire(const void *key, const char *name, int read, const char *at);
LRCU_API void lrcu_lock_release(const void *key);
LRCU_API void lrcu_lock_sync(const void *key, const char *name, const char *at);
LRCU_API void lrcu_lockdep_forget(const void *key);
/* Splats printed so far (0 or 1: the checking stops after one). */
LRCU_API unsigned long lrcu_lockdep_splats(void);

struct lockdep_map {
	const char *name;
};
#define STATIC_LOCKDEP_MAP_INIT(_name)	{ .name = (_name) }

#ifdef CONFIG_PROVE_LOCKING
/* Macros, so that a splat names the function that took the lock. */
#define lock_map_acquire(m)						\
	lrcu_lock_acquire((m), (m)->name, LRCU_LOCK_EXCLUSIVE, __func__)
#define lock_map_acquire_read(m)					\
	lrcu_lock_acquire((m), (m)->name, LRCU_LOCK_SHARED, __func__)
#define lock_map_release(m)		lrcu_lock_release(m)
/* The kernel's lock_sync(): a wait for the lock's holders. */
#define lock_map_sync(m)	lrcu_lock_sync((m), (m)->name, __func__)
/* SRCU's annotations (<rcu/srcu.h>, <rcu/rcupdate_trace.h>). */
#define lrcu_srcu_dep_acquire(ssp, at)					\
	lrcu_lock_acquire((ssp), (ssp)->srcu_name, LRCU_LOCK_RECURSIVE, (at))
#define lrcu_srcu_dep_release(ssp)	lrcu_lock_release(ssp)
#else
static inline void lock_map_acquire(struct lockdep_map *m) { (void)m; }
static inline void lock_map_acquire_read(struct lockdep_map *m) { (void)m; }
static inline void lock_map_release(struct lockdep_map *m) { (void)m; }
static inline void lock_map_sync(struct lockdep_map *m) { (void)m; }
#define lrcu_srcu_dep_acquire(ssp, at)	((void)(ssp), (void)(at))
#define lrcu_srcu_dep_release(ssp)	((void)(ssp))
#endif

#ifdef __cplusplus
}
#endif

#endif /* RCU_LOCKDEP_H */
