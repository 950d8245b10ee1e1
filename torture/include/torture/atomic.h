/* SPDX-License-Identifier: MIT */
/*
 * torture/atomic.h - the harness's memory-ordering helpers, with the
 * kernel's names and orders (as rcu/'s, docs/design/memory-ordering.md),
 * defined here on GCC/clang __atomic builtins: the one file of torture/
 * that names a builtin or a C11 memory order.  The harness has its own
 * (it does not borrow the library's <rcu/kernel.h>): its checks must not
 * depend on the RCU under test.  p points to a plain object, x is one.
 *
 *   READ_ONCE(x), WRITE_ONCE(x, v)         relaxed
 *   smp_load_acquire(p), smp_store_release(p, v)
 *   smp_load_mb(p), smp_store_mb(x, v)     sequentially consistent load
 *                                          and store (x86: mov, xchg)
 *   smp_mb()                               full fence
 *   barrier()                              compiler only (signal handlers)
 *   xchg(p, v), try_cmpxchg(p, &old, v)    fully ordered; _relaxed,
 *                                          _acquire, _release variants (a
 *                                          failed try_cmpxchg is relaxed)
 *   atomic_inc(p), atomic_dec(p), atomic_add(i, p), atomic_sub(i, p)
 *                                          relaxed, no value
 *   atomic_fetch_add(i, p), atomic_add_return(i, p), atomic_sub_return(i, p),
 *   atomic_inc_return(p), atomic_dec_return(p)
 *                                          fully ordered; _relaxed (and
 *                                          for fetch_add _acquire,
 *                                          _release) variants
 *
 * A name defined already (by <rcu/kernel.h>, with the same meaning) is
 * kept.  liburcu's headers, which the liburcu adapters include, define
 * none of these.
 */
#ifndef TORTURE_ATOMIC_H
#define TORTURE_ATOMIC_H

#ifndef READ_ONCE
#define READ_ONCE(x)		__atomic_load_n(&(x), __ATOMIC_RELAXED)
#endif
#ifndef WRITE_ONCE
#define WRITE_ONCE(x, v)	__atomic_store_n(&(x), (v), __ATOMIC_RELAXED)
#endif
#ifndef smp_load_acquire
#define smp_load_acquire(p)	__atomic_load_n((p), __ATOMIC_ACQUIRE)
#endif
#ifndef smp_store_release
#define smp_store_release(p, v)	__atomic_store_n((p), (v), __ATOMIC_RELEASE)
#endif
#ifndef smp_load_mb
#define smp_load_mb(p)		__atomic_load_n((p), __ATOMIC_SEQ_CST)
#endif
#ifndef smp_store_mb
#define smp_store_mb(x, v)	__atomic_store_n(&(x), (v), __ATOMIC_SEQ_CST)
#endif
#ifndef smp_mb
#if defined(__SANITIZE_THREAD__)
/* ThreadSanitizer does not model fences (and refuses them): a fully
 * ordered RMW of a word of this file's own orders the same on the
 * hardware, and TSan sees it. */
static unsigned long torture__mb_word __attribute__((unused));
#define smp_mb()	((void)__atomic_fetch_add(&torture__mb_word, 0, __ATOMIC_SEQ_CST))
#else
#define smp_mb()		__atomic_thread_fence(__ATOMIC_SEQ_CST)
#endif
#endif
#ifndef barrier
#define barrier()		__atomic_signal_fence(__ATOMIC_SEQ_CST)
#endif

#define TORTURE__XCHG(p, v, mo)	__atomic_exchange_n((p), (v), (mo))
#ifndef xchg
#define xchg(p, v)		TORTURE__XCHG(p, v, __ATOMIC_SEQ_CST)
#define xchg_relaxed(p, v)	TORTURE__XCHG(p, v, __ATOMIC_RELAXED)
#define xchg_acquire(p, v)	TORTURE__XCHG(p, v, __ATOMIC_ACQUIRE)
#define xchg_release(p, v)	TORTURE__XCHG(p, v, __ATOMIC_RELEASE)
#endif

#define TORTURE__TRY_CMPXCHG(p, op, v, mo) \
	__atomic_compare_exchange_n((p), (op), (v), 0, (mo), __ATOMIC_RELAXED)
#ifndef try_cmpxchg
#define try_cmpxchg(p, op, v)		TORTURE__TRY_CMPXCHG(p, op, v, __ATOMIC_SEQ_CST)
#define try_cmpxchg_relaxed(p, op, v)	TORTURE__TRY_CMPXCHG(p, op, v, __ATOMIC_RELAXED)
#define try_cmpxchg_acquire(p, op, v)	TORTURE__TRY_CMPXCHG(p, op, v, __ATOMIC_ACQUIRE)
#define try_cmpxchg_release(p, op, v)	TORTURE__TRY_CMPXCHG(p, op, v, __ATOMIC_RELEASE)
#endif

#define atomic_add(i, p)		((void)__atomic_fetch_add((p), (i), __ATOMIC_RELAXED))
#define atomic_sub(i, p)		((void)__atomic_fetch_sub((p), (i), __ATOMIC_RELAXED))
#define atomic_inc(p)			atomic_add(1, p)
#define atomic_dec(p)			atomic_sub(1, p)

#define atomic_fetch_add(i, p)		__atomic_fetch_add((p), (i), __ATOMIC_SEQ_CST)
#define atomic_fetch_add_relaxed(i, p)	__atomic_fetch_add((p), (i), __ATOMIC_RELAXED)
#define atomic_fetch_add_acquire(i, p)	__atomic_fetch_add((p), (i), __ATOMIC_ACQUIRE)
#define atomic_fetch_add_release(i, p)	__atomic_fetch_add((p), (i), __ATOMIC_RELEASE)
#define atomic_add_return(i, p)		__atomic_add_fetch((p), (i), __ATOMIC_SEQ_CST)
#define atomic_add_return_relaxed(i, p)	__atomic_add_fetch((p), (i), __ATOMIC_RELAXED)
#define atomic_sub_return(i, p)		__atomic_sub_fetch((p), (i), __ATOMIC_SEQ_CST)
#define atomic_sub_return_relaxed(i, p)	__atomic_sub_fetch((p), (i), __ATOMIC_RELAXED)
#define atomic_inc_return(p)		atomic_add_return(1, p)
#define atomic_inc_return_relaxed(p)	atomic_add_return_relaxed(1, p)
#define atomic_dec_return(p)		atomic_sub_return(1, p)
#define atomic_dec_return_relaxed(p)	atomic_sub_return_relaxed(1, p)

#endif /* TORTURE_ATOMIC_H */
