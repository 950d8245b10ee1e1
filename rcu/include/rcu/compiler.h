/* SPDX-License-Identifier: MIT */
/*
 * rcu/compiler.h - the library's compiler and memory-model helpers.
 *
 * Every name here carries the LRCU_ prefix, and the library's headers use
 * nothing else: a program's own READ_ONCE(), WRITE_ONCE(), smp_mb(),
 * barrier(), likely() (perfbook's api.h, a kernel-style header, liburcu's
 * helpers), defined before or after these headers, neither changes the
 * library's inlines nor clashes with them.  A program that wants the
 * kernel's spellings includes <rcu/kernel.h>.
 *
 * The helpers map onto GCC/clang __atomic builtins, which operate on plain
 * objects (so LRCU_READ_ONCE() works on any scalar lvalue) and which
 * ThreadSanitizer understands.  Every use of a barrier in this project
 * carries a comment naming the access it pairs with.
 */
#ifndef RCU_COMPILER_H
#define RCU_COMPILER_H

#include <stddef.h>

/* Exported entry points of the library: every other symbol is hidden
 * (-fvisibility=hidden, rcu/librcu.map). */
#define LRCU_API		__attribute__((visibility("default")))

#define LRCU_LIKELY(x)		__builtin_expect(!!(x), 1)
#define LRCU_UNLIKELY(x)	__builtin_expect(!!(x), 0)

/* Compiler-only barrier: no CPU ordering. */
#define LRCU_BARRIER()		__atomic_signal_fence(__ATOMIC_SEQ_CST)

/*
 * Every ordered access of the library goes through the helpers below:
 * this header is the only place that names a __atomic builtin or a
 * C11 memory order (docs/design/memory-ordering.md: the rule, and what
 * each helper compiles to).  x is an lvalue, p a pointer to the object.
 */

/* Single, untorn, relaxed accesses to a shared scalar: they order nothing
 * by themselves. */
#define LRCU_READ_ONCE(x)	__atomic_load_n(&(x), __ATOMIC_RELAXED)
#define LRCU_WRITE_ONCE(x, v)	__atomic_store_n(&(x), (v), __ATOMIC_RELAXED)

/* Acquire load, release store (one-way barriers). */
#define LRCU_LOAD_ACQUIRE(p)	__atomic_load_n((p), __ATOMIC_ACQUIRE)
#define LRCU_STORE_RELEASE(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)
/* The load of rcu_dereference(): consume (compilers implement it as
 * acquire). */
#define LRCU_LOAD_CONSUME(p)	__atomic_load_n((p), __ATOMIC_CONSUME)

/*
 * Sequentially consistent store and load: the two halves of a
 * store-buffering pair written without a stand-alone fence.  The store
 * is an xchg on x86 (as the kernel's smp_store_mb()), stlr on arm64; the
 * load a plain mov on x86, ldar on arm64.  They are ordered against each
 * other, smp_mb() and the fully ordered read-modify-writes below, not
 * against relaxed or release accesses on arm64: pair them only with
 * those.
 */
#define LRCU_STORE_MB(x, v)	__atomic_store_n(&(x), (v), __ATOMIC_SEQ_CST)
#define LRCU_LOAD_MB(p)		__atomic_load_n((p), __ATOMIC_SEQ_CST)

/*
 * Read-modify-writes on plain integers and pointers, in the kernel's
 * conventions: without a suffix fully ordered (sequentially consistent:
 * a full barrier before and after), else _RELAXED, _ACQUIRE or
 * _RELEASE.  A failed compare-and-exchange is relaxed.
 *
 *   LRCU_XCHG(p, v)              store v, return the old value
 *   LRCU_CMPXCHG(p, o, v)        store v if *p == o; return the old value
 *   LRCU_CMPXCHG_FULL(p, o, v)   the same, fully ordered when it fails too
 *   LRCU_TRY_CMPXCHG(p, op, v)   store v if *p == *op: true, else false
 *                                with *op = the value found
 *   LRCU_FETCH_ADD(p, v) ...     *p op= v, return the old value
 *   LRCU_ADD_RETURN(p, v) ...    *p op= v, return the new value
 */
#define LRCU_XCHG(p, v)			__atomic_exchange_n((p), (v), __ATOMIC_SEQ_CST)
#define LRCU_XCHG_RELAXED(p, v)		__atomic_exchange_n((p), (v), __ATOMIC_RELAXED)
#define LRCU_XCHG_ACQUIRE(p, v)		__atomic_exchange_n((p), (v), __ATOMIC_ACQUIRE)
#define LRCU_XCHG_RELEASE(p, v)		__atomic_exchange_n((p), (v), __ATOMIC_RELEASE)

#define LRCU__TRY_CMPXCHG(p, op, v, mo)	\
	__atomic_compare_exchange_n((p), (op), (v), 0, (mo), __ATOMIC_RELAXED)
#define LRCU_TRY_CMPXCHG(p, op, v)	LRCU__TRY_CMPXCHG(p, op, v, __ATOMIC_SEQ_CST)
#define LRCU_TRY_CMPXCHG_RELAXED(p, op, v) LRCU__TRY_CMPXCHG(p, op, v, __ATOMIC_RELAXED)
#define LRCU_TRY_CMPXCHG_ACQUIRE(p, op, v) LRCU__TRY_CMPXCHG(p, op, v, __ATOMIC_ACQUIRE)
#define LRCU_TRY_CMPXCHG_RELEASE(p, op, v) LRCU__TRY_CMPXCHG(p, op, v, __ATOMIC_RELEASE)

#define LRCU__CMPXCHG(p, o, v, mo) __extension__ ({			\
	__typeof__(*(p)) lrcu__old = (o);				\
	(void)LRCU__TRY_CMPXCHG(p, &lrcu__old, v, mo);			\
	lrcu__old;							\
})
#define LRCU_CMPXCHG(p, o, v)		LRCU__CMPXCHG(p, o, v, __ATOMIC_SEQ_CST)
#define LRCU_CMPXCHG_RELAXED(p, o, v)	LRCU__CMPXCHG(p, o, v, __ATOMIC_RELAXED)
#define LRCU_CMPXCHG_ACQUIRE(p, o, v)	LRCU__CMPXCHG(p, o, v, __ATOMIC_ACQUIRE)
#define LRCU_CMPXCHG_RELEASE(p, o, v)	LRCU__CMPXCHG(p, o, v, __ATOMIC_RELEASE)
/* Fully ordered whether or not it stores (liburcu's uatomic_cmpxchg()):
 * a caller may dereference the value found after a failure. */
#define LRCU_CMPXCHG_FULL(p, o, v) __extension__ ({			\
	__typeof__(*(p)) lrcu__old = (o);				\
	(void)__atomic_compare_exchange_n((p), &lrcu__old, (v), 0,	\
					  __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); \
	lrcu__old;							\
})

#define LRCU_FETCH_ADD(p, v)		__atomic_fetch_add((p), (v), __ATOMIC_SEQ_CST)
#define LRCU_FETCH_ADD_RELAXED(p, v)	__atomic_fetch_add((p), (v), __ATOMIC_RELAXED)
#define LRCU_FETCH_ADD_ACQUIRE(p, v)	__atomic_fetch_add((p), (v), __ATOMIC_ACQUIRE)
#define LRCU_FETCH_ADD_RELEASE(p, v)	__atomic_fetch_add((p), (v), __ATOMIC_RELEASE)
#define LRCU_FETCH_SUB(p, v)		__atomic_fetch_sub((p), (v), __ATOMIC_SEQ_CST)
#define LRCU_FETCH_SUB_RELAXED(p, v)	__atomic_fetch_sub((p), (v), __ATOMIC_RELAXED)
#define LRCU_FETCH_SUB_ACQUIRE(p, v)	__atomic_fetch_sub((p), (v), __ATOMIC_ACQUIRE)
#define LRCU_FETCH_SUB_RELEASE(p, v)	__atomic_fetch_sub((p), (v), __ATOMIC_RELEASE)
#define LRCU_FETCH_OR(p, v)		__atomic_fetch_or((p), (v), __ATOMIC_SEQ_CST)
#define LRCU_FETCH_OR_RELAXED(p, v)	__atomic_fetch_or((p), (v), __ATOMIC_RELAXED)
#define LRCU_FETCH_OR_ACQUIRE(p, v)	__atomic_fetch_or((p), (v), __ATOMIC_ACQUIRE)
#define LRCU_FETCH_OR_RELEASE(p, v)	__atomic_fetch_or((p), (v), __ATOMIC_RELEASE)
#define LRCU_FETCH_AND(p, v)		__atomic_fetch_and((p), (v), __ATOMIC_SEQ_CST)
#define LRCU_FETCH_AND_RELAXED(p, v)	__atomic_fetch_and((p), (v), __ATOMIC_RELAXED)
#define LRCU_FETCH_AND_ACQUIRE(p, v)	__atomic_fetch_and((p), (v), __ATOMIC_ACQUIRE)
#define LRCU_FETCH_AND_RELEASE(p, v)	__atomic_fetch_and((p), (v), __ATOMIC_RELEASE)
#define LRCU_ADD_RETURN(p, v)		__atomic_add_fetch((p), (v), __ATOMIC_SEQ_CST)
#define LRCU_ADD_RETURN_RELAXED(p, v)	__atomic_add_fetch((p), (v), __ATOMIC_RELAXED)
#define LRCU_ADD_RETURN_ACQUIRE(p, v)	__atomic_add_fetch((p), (v), __ATOMIC_ACQUIRE)
#define LRCU_ADD_RETURN_RELEASE(p, v)	__atomic_add_fetch((p), (v), __ATOMIC_RELEASE)
#define LRCU_SUB_RETURN(p, v)		__atomic_sub_fetch((p), (v), __ATOMIC_SEQ_CST)
#define LRCU_SUB_RETURN_RELAXED(p, v)	__atomic_sub_fetch((p), (v), __ATOMIC_RELAXED)
#define LRCU_SUB_RETURN_ACQUIRE(p, v)	__atomic_sub_fetch((p), (v), __ATOMIC_ACQUIRE)
#define LRCU_SUB_RETURN_RELEASE(p, v)	__atomic_sub_fetch((p), (v), __ATOMIC_RELEASE)

#define LRCU_CONTAINER_OF(ptr, type, member) \
	((type *)(void *)((char *)(ptr) - offsetof(type, member)))
#define LRCU_ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#define LRCU_CACHELINE	64

/*
 * Ordering under ThreadSanitizer: the one place where a TSan build differs.
 *
 * Every access has the same memory order in every build.  What TSan cannot
 * see is ordering that does not come from an access: a stand-alone fence
 * (which it does not model, and which gcc refuses under
 * -fsanitize=thread) and membarrier() (a system call that runs a fence on
 * the other threads).  So in a TSan build, and only there:
 *
 *  - LRCU_SMP_MB() is a sequentially consistent read-modify-write of one
 *    shared word, lrcu_tsan_fence: a full fence on the hardware (a locked
 *    instruction on x86, a fully ordered atomic on arm64), and to TSan an
 *    ordering between any two such fences, in the order they ran;
 *  - the library does not use membarrier() (LRCU_USE_MEMBARRIER is 0):
 *    readers fence themselves and grace periods use LRCU_SMP_MB(), a
 *    pairing TSan sees.
 *
 * Readers choose their fence at run time (lrcu_has_membarrier), so a
 * program and a library built one with TSan and one without still follow
 * the same protocol.
 */
#if defined(__SANITIZE_THREAD__)
#define LRCU_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define LRCU_TSAN 1
#endif
#endif

extern LRCU_API unsigned long lrcu_tsan_fence;
#ifdef LRCU_TSAN
#define LRCU_SMP_MB()	((void)__atomic_fetch_add(&lrcu_tsan_fence, 0, __ATOMIC_SEQ_CST))
#define LRCU_USE_MEMBARRIER	0
#else
#define LRCU_SMP_MB()	__atomic_thread_fence(__ATOMIC_SEQ_CST)
#define LRCU_USE_MEMBARRIER	1
#endif

/*
 * The weak-memory emulation (make WEAKMEM=1, docs/design/weakmem.md,
 * rcu/src/weakmem.c): the one other build where these helpers differ.
 * Each relaxed, release or plain-store helper enters the calling
 * thread's store buffer: memory gets the new value at once (so the
 * thread's own plain and emulated loads see it), but the emulated loads
 * of every other thread see the value it replaced until the store's
 * random due time (weakmem.delay_us) passes or a fence drains it.
 * LRCU_SMP_MB(), the sequentially consistent store and every fully
 * ordered read-modify-write drain the caller's buffer; membarrier()
 * drains every thread's.  A read-modify-write works on memory: the
 * pending stores to its object drain first.  p of a read-modify-write
 * is evaluated once; x of READ_ONCE/WRITE_ONCE is a scalar lvalue no
 * wider than a pointer.
 */
#ifdef LRCU_WEAKMEM
#ifdef LRCU_TSAN
#error "WEAKMEM=1 and ThreadSanitizer do not combine: the emulation's lock hides every race"
#endif
/* The real accesses, for rcu/src/weakmem.c only: the orders by name. */
#define LRCU__MO_RELAXED	__ATOMIC_RELAXED
#define LRCU__MO_CONSUME	__ATOMIC_CONSUME
#define LRCU__MO_ACQUIRE	__ATOMIC_ACQUIRE
#define LRCU__MO_RELEASE	__ATOMIC_RELEASE
#define LRCU__MO_ACQ_REL	__ATOMIC_ACQ_REL
#define LRCU__MO_SEQ_CST	__ATOMIC_SEQ_CST
#define LRCU__RAW_LOAD(p, mo)		__atomic_load_n((p), (mo))
#define LRCU__RAW_STORE(p, v, mo)	__atomic_store_n((p), (v), (mo))
#define LRCU__RAW_FENCE()		__atomic_thread_fence(__ATOMIC_SEQ_CST)

unsigned long long lrcu__wm_load(const volatile void *p, size_t size, int mo);
void lrcu__wm_store(volatile void *p, size_t size, unsigned long long v, int mo);
void lrcu__wm_fence(void);
int lrcu__wm_rmw_begin(const volatile void *p, size_t size, int mo);
void lrcu__wm_rmw_end(int locked);
void lrcu__wm_membarrier(void);

#define LRCU__WM_LOAD(x, mo)						\
	((__typeof__(x))(__UINTPTR_TYPE__)lrcu__wm_load(&(x), sizeof(x), (mo)))
#define LRCU__WM_STORE(x, v, mo)					\
	lrcu__wm_store(&(x), sizeof(x),					\
		       (unsigned long long)(__UINTPTR_TYPE__)(__typeof__(x))(v), (mo))
/* op uses lrcu__p, p evaluated once. */
#define LRCU__WM_RMW(p, mo, op) __extension__ ({			\
	__typeof__(p) lrcu__p = (p);					\
	int lrcu__l = lrcu__wm_rmw_begin(lrcu__p, sizeof(*lrcu__p), (mo)); \
	__auto_type lrcu__r = (op);					\
	lrcu__wm_rmw_end(lrcu__l);					\
	lrcu__r;							\
})

#undef LRCU_READ_ONCE
#undef LRCU_WRITE_ONCE
#undef LRCU_LOAD_ACQUIRE
#undef LRCU_STORE_RELEASE
#undef LRCU_LOAD_CONSUME
#undef LRCU_STORE_MB
#undef LRCU_LOAD_MB
#undef LRCU_SMP_MB
#define LRCU_READ_ONCE(x)	LRCU__WM_LOAD(x, __ATOMIC_RELAXED)
#define LRCU_WRITE_ONCE(x, v)	LRCU__WM_STORE(x, v, __ATOMIC_RELAXED)
#define LRCU_LOAD_ACQUIRE(p)	LRCU__WM_LOAD(*(p), __ATOMIC_ACQUIRE)
#define LRCU_STORE_RELEASE(p, v) LRCU__WM_STORE(*(p), v, __ATOMIC_RELEASE)
#define LRCU_LOAD_CONSUME(p)	LRCU__WM_LOAD(*(p), __ATOMIC_CONSUME)
#define LRCU_STORE_MB(x, v)	LRCU__WM_STORE(x, v, __ATOMIC_SEQ_CST)
#define LRCU_LOAD_MB(p)		LRCU__WM_LOAD(*(p), __ATOMIC_SEQ_CST)
#define LRCU_SMP_MB()		lrcu__wm_fence()

#undef LRCU__TRY_CMPXCHG
#define LRCU__TRY_CMPXCHG(p, op, v, mo) LRCU__WM_RMW(p, mo,		\
	__atomic_compare_exchange_n(lrcu__p, (op), (v), 0, (mo), __ATOMIC_RELAXED))
#define LRCU__WM_XCHG(p, v, mo)	\
	LRCU__WM_RMW(p, mo, __atomic_exchange_n(lrcu__p, (v), (mo)))
#define LRCU__WM_FETCH(f, p, v, mo) LRCU__WM_RMW(p, mo, f(lrcu__p, (v), (mo)))

#undef LRCU_XCHG
#undef LRCU_XCHG_RELAXED
#undef LRCU_XCHG_ACQUIRE
#undef LRCU_XCHG_RELEASE
#define LRCU_XCHG(p, v)			LRCU__WM_XCHG(p, v, __ATOMIC_SEQ_CST)
#define LRCU_XCHG_RELAXED(p, v)		LRCU__WM_XCHG(p, v, __ATOMIC_RELAXED)
#define LRCU_XCHG_ACQUIRE(p, v)		LRCU__WM_XCHG(p, v, __ATOMIC_ACQUIRE)
#define LRCU_XCHG_RELEASE(p, v)		LRCU__WM_XCHG(p, v, __ATOMIC_RELEASE)
#undef LRCU_FETCH_ADD
#define LRCU_FETCH_ADD(p, v)	LRCU__WM_FETCH(__atomic_fetch_add, p, v, __ATOMIC_SEQ_CST)
#undef LRCU_FETCH_ADD_RELAXED
#define LRCU_FETCH_ADD_RELAXED(p, v)	LRCU__WM_FETCH(__atomic_fetch_add, p, v, __ATOMIC_RELAXED)
#undef LRCU_FETCH_ADD_ACQUIRE
#define LRCU_FETCH_ADD_ACQUIRE(p, v)	LRCU__WM_FETCH(__atomic_fetch_add, p, v, __ATOMIC_ACQUIRE)
#undef LRCU_FETCH_ADD_RELEASE
#define LRCU_FETCH_ADD_RELEASE(p, v)	LRCU__WM_FETCH(__atomic_fetch_add, p, v, __ATOMIC_RELEASE)
#undef LRCU_FETCH_SUB
#define LRCU_FETCH_SUB(p, v)	LRCU__WM_FETCH(__atomic_fetch_sub, p, v, __ATOMIC_SEQ_CST)
#undef LRCU_FETCH_SUB_RELAXED
#define LRCU_FETCH_SUB_RELAXED(p, v)	LRCU__WM_FETCH(__atomic_fetch_sub, p, v, __ATOMIC_RELAXED)
#undef LRCU_FETCH_SUB_ACQUIRE
#define LRCU_FETCH_SUB_ACQUIRE(p, v)	LRCU__WM_FETCH(__atomic_fetch_sub, p, v, __ATOMIC_ACQUIRE)
#undef LRCU_FETCH_SUB_RELEASE
#define LRCU_FETCH_SUB_RELEASE(p, v)	LRCU__WM_FETCH(__atomic_fetch_sub, p, v, __ATOMIC_RELEASE)
#undef LRCU_FETCH_OR
#define LRCU_FETCH_OR(p, v)	LRCU__WM_FETCH(__atomic_fetch_or, p, v, __ATOMIC_SEQ_CST)
#undef LRCU_FETCH_OR_RELAXED
#define LRCU_FETCH_OR_RELAXED(p, v)	LRCU__WM_FETCH(__atomic_fetch_or, p, v, __ATOMIC_RELAXED)
#undef LRCU_FETCH_OR_ACQUIRE
#define LRCU_FETCH_OR_ACQUIRE(p, v)	LRCU__WM_FETCH(__atomic_fetch_or, p, v, __ATOMIC_ACQUIRE)
#undef LRCU_FETCH_OR_RELEASE
#define LRCU_FETCH_OR_RELEASE(p, v)	LRCU__WM_FETCH(__atomic_fetch_or, p, v, __ATOMIC_RELEASE)
#undef LRCU_FETCH_AND
#define LRCU_FETCH_AND(p, v)	LRCU__WM_FETCH(__atomic_fetch_and, p, v, __ATOMIC_SEQ_CST)
#undef LRCU_FETCH_AND_RELAXED
#define LRCU_FETCH_AND_RELAXED(p, v)	LRCU__WM_FETCH(__atomic_fetch_and, p, v, __ATOMIC_RELAXED)
#undef LRCU_FETCH_AND_ACQUIRE
#define LRCU_FETCH_AND_ACQUIRE(p, v)	LRCU__WM_FETCH(__atomic_fetch_and, p, v, __ATOMIC_ACQUIRE)
#undef LRCU_FETCH_AND_RELEASE
#define LRCU_FETCH_AND_RELEASE(p, v)	LRCU__WM_FETCH(__atomic_fetch_and, p, v, __ATOMIC_RELEASE)
#undef LRCU_ADD_RETURN
#define LRCU_ADD_RETURN(p, v)	LRCU__WM_FETCH(__atomic_add_fetch, p, v, __ATOMIC_SEQ_CST)
#undef LRCU_ADD_RETURN_RELAXED
#define LRCU_ADD_RETURN_RELAXED(p, v)	LRCU__WM_FETCH(__atomic_add_fetch, p, v, __ATOMIC_RELAXED)
#undef LRCU_ADD_RETURN_ACQUIRE
#define LRCU_ADD_RETURN_ACQUIRE(p, v)	LRCU__WM_FETCH(__atomic_add_fetch, p, v, __ATOMIC_ACQUIRE)
#undef LRCU_ADD_RETURN_RELEASE
#define LRCU_ADD_RETURN_RELEASE(p, v)	LRCU__WM_FETCH(__atomic_add_fetch, p, v, __ATOMIC_RELEASE)
#undef LRCU_SUB_RETURN
#define LRCU_SUB_RETURN(p, v)	LRCU__WM_FETCH(__atomic_sub_fetch, p, v, __ATOMIC_SEQ_CST)
#undef LRCU_SUB_RETURN_RELAXED
#define LRCU_SUB_RETURN_RELAXED(p, v)	LRCU__WM_FETCH(__atomic_sub_fetch, p, v, __ATOMIC_RELAXED)
#undef LRCU_SUB_RETURN_ACQUIRE
#define LRCU_SUB_RETURN_ACQUIRE(p, v)	LRCU__WM_FETCH(__atomic_sub_fetch, p, v, __ATOMIC_ACQUIRE)
#undef LRCU_SUB_RETURN_RELEASE
#define LRCU_SUB_RETURN_RELEASE(p, v)	LRCU__WM_FETCH(__atomic_sub_fetch, p, v, __ATOMIC_RELEASE)
#endif /* LRCU_WEAKMEM */

#endif /* RCU_COMPILER_H */
