/* SPDX-License-Identifier: MIT */
/*
 * lockdep.h - the lock rules of internal.h and srcu_internal.h, checked.
 *
 * A field whose comment names the lock that protects it is declared
 * __guarded_by(lock) and written only through these macros, which in
 * a debug build (make DEBUG=1: LRCU_DEBUG) first check that the calling
 * thread holds that lock; if not, the program stops with a message that
 * names the field and the lock (lrcu__lock_rule_broken(), debug.c).
 * Reads are not checked.
 *
 *   WRITE_LOCKED(lock, x, v)        x = v
 *   WRITE_ONCE_LOCKED(lock, x, v)   WRITE_ONCE(x, v): x is also read
 *                                   without the lock
 *   STORE_RELEASE_LOCKED(lock, x, v)  smp_store_release(&x, v)
 *   LOCKED_PTR(lock, p)             p, a pointer to such a field, for a
 *                                   function that writes through it
 *                                   (rcu_seq_start(), lrcu__stat_add())
 *   WRITE_UNLOCKED(x, v), WRITE_ONCE_UNLOCKED(x, v)
 *                                   the exceptions, each with a comment:
 *                                   before the structure is shared, or
 *                                   where the field's comment allows it
 *   lockdep_assert_held(lock)       as the kernel's
 *
 * lock is a struct lrcu_lock * (lock.h records its holder in debug
 * builds) or a pthread_mutex_t * (glibc records its holder's thread id).
 *
 * With LRCU_LOCK_RULES_CHECK (tests/rcu/lock_rules.t compiles rcu/src so,
 * syntax only) a guarded field is const and these macros write nothing:
 * a write that bypasses them does not compile.
 */
#ifndef LRCU_LOCKDEP_H
#define LRCU_LOCKDEP_H

#include <pthread.h>
#include <stdbool.h>
#include <rcu/kernel.h>
#include "lock.h"

#ifdef LRCU_LOCK_RULES_CHECK

#define __guarded_by(lock)		const
#define WRITE_LOCKED(lock, x, v)	((void)(lock), (void)(x), (void)(v))
#define WRITE_ONCE_LOCKED(lock, x, v)	WRITE_LOCKED(lock, x, v)
#define STORE_RELEASE_LOCKED(lock, x, v) WRITE_LOCKED(lock, x, v)
#define LOCKED_PTR(lock, p)		((void)(lock), (void *)(p))
#define WRITE_UNLOCKED(x, v)		((void)(x), (void)(v))
#define WRITE_ONCE_UNLOCKED(x, v)	WRITE_UNLOCKED(x, v)
#define lockdep_assert_held(lock)	((void)(lock))

#else /* !LRCU_LOCK_RULES_CHECK */

#define __guarded_by(lock)
#define WRITE_UNLOCKED(x, v)		((x) = (v))
#define WRITE_ONCE_UNLOCKED(x, v)	WRITE_ONCE(x, v)

#ifdef LRCU_DEBUG
__attribute__((noreturn))
void lrcu__lock_rule_broken(const char *what, const char *lock, const char *file, int line);

static inline bool lrcu__mutex_held(pthread_mutex_t *m)
{
#ifdef __GLIBC__
	/* Set by glibc's lock, cleared by its unlock; ours only if we hold it. */
	return lrcu__debug_held_by_me(READ_ONCE(m->__data.__owner));
#else
	(void)m;
	return true;	/* no owner to look at */
#endif
}

#define lrcu__held(lock) _Generic((lock),				\
	struct lrcu_lock *: lrcu__lock_held,				\
	pthread_mutex_t *: lrcu__mutex_held)(lock)
/* An expression: stop unless lock is held; what names the access. */
#define lrcu__check_held(lock, what)					\
	((void)(lrcu__held(lock) ||					\
		(lrcu__lock_rule_broken(what, #lock, __FILE__, __LINE__), 0)))

#define lockdep_assert_held(lock)	lrcu__check_held(lock, NULL)
#define WRITE_LOCKED(lock, x, v)	(lrcu__check_held(lock, #x), (x) = (v))
#define WRITE_ONCE_LOCKED(lock, x, v)	(lrcu__check_held(lock, #x), WRITE_ONCE(x, v))
#define STORE_RELEASE_LOCKED(lock, x, v) \
	(lrcu__check_held(lock, #x), smp_store_release(&(x), v))
#define LOCKED_PTR(lock, p)		(lrcu__check_held(lock, #p), (p))
#else
#define lockdep_assert_held(lock)	((void)0)
#define WRITE_LOCKED(lock, x, v)	((x) = (v))
#define WRITE_ONCE_LOCKED(lock, x, v)	WRITE_ONCE(x, v)
#define STORE_RELEASE_LOCKED(lock, x, v) smp_store_release(&(x), v)
#define LOCKED_PTR(lock, p)		(p)
#endif /* LRCU_DEBUG */

#endif /* LRCU_LOCK_RULES_CHECK */

#endif /* LRCU_LOCKDEP_H */
