/* SPDX-License-Identifier: MIT */
/*
 * rcu/kernel.h - the Linux kernel's spellings of the memory-model and
 * compiler helpers, for programs that want them (opt-in: the library's
 * headers never include this file and never use these names).
 *
 *   READ_ONCE(x), WRITE_ONCE(x, v)      single relaxed accesses (expressions)
 *   smp_load_acquire(p), smp_store_release(p, v)
 *   smp_mb()                            full fence
 *   smp_store_mb(x, v), smp_load_mb(p)  sequentially consistent store and
 *                                       load (<rcu/compiler.h>: the halves
 *                                       of a store-buffering pair)
 *   xchg(p, v), cmpxchg(p, o, v), try_cmpxchg(p, &o, v)
 *                                       fully ordered; _relaxed, _acquire
 *                                       and _release variants (a failed
 *                                       cmpxchg is relaxed)
 *   barrier()                           compiler-only barrier
 *   likely(x), unlikely(x)              branch hints
 *   container_of(ptr, type, member), ARRAY_SIZE(a)
 *
 * Each is defined only if the program has not defined it already: a
 * program that brings its own (perfbook's api.h, say) keeps them.  Include
 * this file after such a header: one that defines the helpers without
 * #ifndef guards (perfbook's does) would otherwise redefine them, with a
 * warning.  The library's other headers define none of these names, so
 * they go before or after anything (tests/rcu/headers.t).
 */
#ifndef RCU_KERNEL_H
#define RCU_KERNEL_H

#include <rcu/compiler.h>

#ifndef READ_ONCE
#define READ_ONCE(x)		LRCU_READ_ONCE(x)
#endif
#ifndef WRITE_ONCE
#define WRITE_ONCE(x, v)	LRCU_WRITE_ONCE(x, v)
#endif
#ifndef smp_load_acquire
#define smp_load_acquire(p)	LRCU_LOAD_ACQUIRE(p)
#endif
#ifndef smp_store_release
#define smp_store_release(p, v)	LRCU_STORE_RELEASE(p, v)
#endif
#ifndef smp_mb
#define smp_mb()		LRCU_SMP_MB()
#endif
#ifndef smp_store_mb
#define smp_store_mb(x, v)	LRCU_STORE_MB(x, v)
#endif
#ifndef smp_load_mb
#define smp_load_mb(p)		LRCU_LOAD_MB(p)
#endif
#ifndef xchg
#define xchg(p, v)		LRCU_XCHG(p, v)
#endif
#ifndef xchg_relaxed
#define xchg_relaxed(p, v)	LRCU_XCHG_RELAXED(p, v)
#endif
#ifndef xchg_acquire
#define xchg_acquire(p, v)	LRCU_XCHG_ACQUIRE(p, v)
#endif
#ifndef xchg_release
#define xchg_release(p, v)	LRCU_XCHG_RELEASE(p, v)
#endif
#ifndef cmpxchg
#define cmpxchg(p, o, v)	LRCU_CMPXCHG(p, o, v)
#endif
#ifndef cmpxchg_relaxed
#define cmpxchg_relaxed(p, o, v)	LRCU_CMPXCHG_RELAXED(p, o, v)
#endif
#ifndef cmpxchg_acquire
#define cmpxchg_acquire(p, o, v)	LRCU_CMPXCHG_ACQUIRE(p, o, v)
#endif
#ifndef cmpxchg_release
#define cmpxchg_release(p, o, v)	LRCU_CMPXCHG_RELEASE(p, o, v)
#endif
#ifndef try_cmpxchg
#define try_cmpxchg(p, op, v)	LRCU_TRY_CMPXCHG(p, op, v)
#endif
#ifndef try_cmpxchg_relaxed
#define try_cmpxchg_relaxed(p, op, v)	LRCU_TRY_CMPXCHG_RELAXED(p, op, v)
#endif
#ifndef try_cmpxchg_acquire
#define try_cmpxchg_acquire(p, op, v)	LRCU_TRY_CMPXCHG_ACQUIRE(p, op, v)
#endif
#ifndef try_cmpxchg_release
#define try_cmpxchg_release(p, op, v)	LRCU_TRY_CMPXCHG_RELEASE(p, op, v)
#endif
#ifndef barrier
#define barrier()		LRCU_BARRIER()
#endif
#ifndef likely
#define likely(x)		LRCU_LIKELY(x)
#endif
#ifndef unlikely
#define unlikely(x)		LRCU_UNLIKELY(x)
#endif
#ifndef container_of
#define container_of(ptr, type, member)	LRCU_CONTAINER_OF(ptr, type, member)
#endif
#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)		LRCU_ARRAY_SIZE(a)
#endif

#endif /* RCU_KERNEL_H */
