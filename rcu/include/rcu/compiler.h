/* SPDX-License-Identifier: MIT */
/*
 * rcu/compiler.h - compiler and memory-model helpers with the kernel's names.
 *
 * Everything here maps onto GCC/clang __atomic builtins, which operate on
 * plain objects (so READ_ONCE() works on any scalar lvalue) and are
 * understood by ThreadSanitizer.  Every use of a barrier in this project
 * carries a comment naming the access it pairs with.
 */
#ifndef RCU_COMPILER_H
#define RCU_COMPILER_H

#include <stddef.h>

#ifndef likely
#define likely(x)	__builtin_expect(!!(x), 1)
#endif
#ifndef unlikely
#define unlikely(x)	__builtin_expect(!!(x), 0)
#endif

/* Compiler-only barrier: no CPU ordering. */
#ifndef barrier
#define barrier()	__atomic_signal_fence(__ATOMIC_SEQ_CST)
#endif

#if defined(__SANITIZE_THREAD__)
#define LRCU_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define LRCU_TSAN 1
#endif
#endif

/*
 * READ_ONCE()/WRITE_ONCE(): single, untorn, relaxed accesses to a shared
 * scalar.  They order nothing by themselves.
 */
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

/*
 * smp_mb(): full fence.  ThreadSanitizer does not model stand-alone fences
 * (gcc refuses them under -fsanitize=thread), so a TSan build turns them
 * into compiler barriers and makes every access that relies on a fence
 * sequentially consistent instead (see LRCU_MO_SC below): the ordering
 * then comes from the accesses, where TSan can see it.
 */
#ifndef smp_mb
#ifdef LRCU_TSAN
#define smp_mb()	barrier()
#else
#define smp_mb()	__atomic_thread_fence(__ATOMIC_SEQ_CST)
#endif
#endif

/*
 * Memory order for an access whose ordering is provided by an adjacent
 * smp_mb() in normal builds: relaxed there, seq_cst under TSan.
 */
#ifdef LRCU_TSAN
#define LRCU_MO_SC	__ATOMIC_SEQ_CST
#else
#define LRCU_MO_SC	__ATOMIC_RELAXED
#endif

#ifndef container_of
#define container_of(ptr, type, member) \
	((type *)(void *)((char *)(ptr) - offsetof(type, member)))
#endif

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

#define LRCU_CACHELINE	64

#endif /* RCU_COMPILER_H */
