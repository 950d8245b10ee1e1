/* SPDX-License-Identifier: MIT */
/*
 * cb_thread.h - the callback thread of an adapter whose RCU has no thread
 * of its own to run callbacks (ck-epoch's ck_epoch_poll() loop,
 * dpdk-qsbr's queue): started by the adapter's init(), stopped by its
 * cleanup() once its loop sees ->stop and has nothing left to run.
 */
#ifndef TORTURE_OPS_CB_THREAD_H
#define TORTURE_OPS_CB_THREAD_H

#include <pthread.h>

struct cb_thread {
	pthread_mutex_t lock;	/* the adapter's callback state */
	pthread_cond_t wake;	/* work for the thread, or ->stop */
	int stop;		/* under ->lock: finish and end */
	int running;		/* the thread exists (init()/cleanup() only) */
	pthread_t tid;
};

#define CB_THREAD_INIT { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, 0 }

/* 0, or -1 after saying why on stderr (who: the torture type). */
int cb_thread_start(struct cb_thread *t, void *(*fn)(void *), const char *who);
void cb_thread_stop(struct cb_thread *t);

#endif
