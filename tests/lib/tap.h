/* SPDX-License-Identifier: MIT */
/*
 * tap.h - a small Test Anything Protocol emitter for the C tests, run by
 * prove.  Thread-safe (ok() may be called from any thread).
 */
#ifndef TESTS_TAP_H
#define TESTS_TAP_H

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int tap_count, tap_failed;
static pthread_mutex_t tap_lock = PTHREAD_MUTEX_INITIALIZER;

static inline void plan(int n)
{
	printf("1..%d\n", n);
	fflush(stdout);
}

__attribute__((format(printf, 2, 3)))
static inline int ok(int cond, const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&tap_lock);
	tap_count++;
	if (!cond)
		tap_failed++;
	printf("%sok %d - ", cond ? "" : "not ", tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	pthread_mutex_unlock(&tap_lock);
	return cond;
}

__attribute__((format(printf, 1, 2)))
static inline void diag(const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&tap_lock);
	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	pthread_mutex_unlock(&tap_lock);
}

#define is_long(got, want, ...) ({					\
	long __g = (long)(got), __w = (long)(want);			\
	int __r = ok(__g == __w, __VA_ARGS__);				\
	if (!__r)							\
		diag("  got %ld, expected %ld", __g, __w);		\
	__r;								\
})

/* One test not run, and why (TAP "ok N # SKIP why"). */
static inline void skip(const char *why)
{
	pthread_mutex_lock(&tap_lock);
	printf("ok %d # SKIP %s\n", ++tap_count, why);
	fflush(stdout);
	pthread_mutex_unlock(&tap_lock);
}

static inline void skip_all(const char *why)
{
	printf("1..0 # SKIP %s\n", why);
	exit(0);
}

static inline int done_testing(void)
{
	printf("1..%d\n", tap_count);
	fflush(stdout);
	return tap_failed ? 1 : 0;
}

static inline int tap_exit_status(void)
{
	return tap_failed ? 1 : 0;
}

#endif /* TESTS_TAP_H */
