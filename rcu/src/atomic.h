/* SPDX-License-Identifier: MIT */
/*
 * atomic.h - arithmetic read-modify-writes on plain integers, with the
 * kernel's atomic_*() names, argument order (i, v) and orders: one that
 * returns nothing is relaxed; one that returns a value is fully ordered
 * unless its name ends in _relaxed, _acquire or _release.  v points to
 * an ordinary int, long or unsigned long (the kernel's take an
 * atomic_t).
 *
 * Internal to rcu/src: a program's own atomic_*() (perfbook's api.h
 * defines them as functions on atomic_t, <stdatomic.h> has
 * atomic_fetch_add()) would clash with these in the public
 * <rcu/kernel.h>.  They map onto <rcu/compiler.h>'s LRCU_ helpers.
 */
#ifndef LRCU_ATOMIC_H
#define LRCU_ATOMIC_H

#include <rcu/kernel.h>

/* Relaxed, no value: counts, statistics, bits nobody orders against. */
#define atomic_add(i, v)		((void)LRCU_FETCH_ADD_RELAXED(v, i))
#define atomic_sub(i, v)		((void)LRCU_FETCH_SUB_RELAXED(v, i))
#define atomic_inc(v)			atomic_add(1, v)
#define atomic_dec(v)			atomic_sub(1, v)
#define atomic_or(i, v)			((void)LRCU_FETCH_OR_RELAXED(v, i))
#define atomic_and(i, v)		((void)LRCU_FETCH_AND_RELAXED(v, i))

/* The new value. */
#define atomic_add_return(i, v)		LRCU_ADD_RETURN(v, i)
#define atomic_add_return_relaxed(i, v)	LRCU_ADD_RETURN_RELAXED(v, i)
#define atomic_add_return_acquire(i, v)	LRCU_ADD_RETURN_ACQUIRE(v, i)
#define atomic_add_return_release(i, v)	LRCU_ADD_RETURN_RELEASE(v, i)
#define atomic_sub_return(i, v)		LRCU_SUB_RETURN(v, i)
#define atomic_sub_return_relaxed(i, v)	LRCU_SUB_RETURN_RELAXED(v, i)
#define atomic_sub_return_acquire(i, v)	LRCU_SUB_RETURN_ACQUIRE(v, i)
#define atomic_sub_return_release(i, v)	LRCU_SUB_RETURN_RELEASE(v, i)
#define atomic_inc_return(v)		atomic_add_return(1, v)
#define atomic_inc_return_relaxed(v)	atomic_add_return_relaxed(1, v)
#define atomic_dec_return(v)		atomic_sub_return(1, v)
#define atomic_dec_return_relaxed(v)	atomic_sub_return_relaxed(1, v)

/* The old value. */
#define atomic_fetch_add(i, v)		LRCU_FETCH_ADD(v, i)
#define atomic_fetch_add_relaxed(i, v)	LRCU_FETCH_ADD_RELAXED(v, i)
#define atomic_fetch_add_acquire(i, v)	LRCU_FETCH_ADD_ACQUIRE(v, i)
#define atomic_fetch_add_release(i, v)	LRCU_FETCH_ADD_RELEASE(v, i)
#define atomic_fetch_sub(i, v)		LRCU_FETCH_SUB(v, i)
#define atomic_fetch_sub_relaxed(i, v)	LRCU_FETCH_SUB_RELAXED(v, i)
#define atomic_fetch_sub_acquire(i, v)	LRCU_FETCH_SUB_ACQUIRE(v, i)
#define atomic_fetch_sub_release(i, v)	LRCU_FETCH_SUB_RELEASE(v, i)
#define atomic_fetch_or(i, v)		LRCU_FETCH_OR(v, i)
#define atomic_fetch_or_relaxed(i, v)	LRCU_FETCH_OR_RELAXED(v, i)
#define atomic_fetch_or_acquire(i, v)	LRCU_FETCH_OR_ACQUIRE(v, i)
#define atomic_fetch_or_release(i, v)	LRCU_FETCH_OR_RELEASE(v, i)
#define atomic_fetch_and(i, v)		LRCU_FETCH_AND(v, i)
#define atomic_fetch_and_relaxed(i, v)	LRCU_FETCH_AND_RELAXED(v, i)
#define atomic_fetch_and_acquire(i, v)	LRCU_FETCH_AND_ACQUIRE(v, i)
#define atomic_fetch_and_release(i, v)	LRCU_FETCH_AND_RELEASE(v, i)

#endif /* LRCU_ATOMIC_H */
