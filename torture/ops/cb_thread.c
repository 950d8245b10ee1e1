/* SPDX-License-Identifier: MIT */
/* cb_thread.c - an adapter's callback thread (cb_thread.h). */
#include <stdio.h>
#include <string.h>
#include "cb_thread.h"

int cb_thread_start(struct cb_thread *t, void *(*fn)(void *), const char *who)
{
	int err;

	if (t->running)
		return 0;
	t->stop = 0;
	err = pthread_create(&t->tid, NULL, fn, NULL);
	if (err) {
		fprintf(stderr, "%s: cannot start the callback thread: %s\n", who, strerror(err));
		return -1;
	}
	t->running = 1;
	return 0;
}

void cb_thread_stop(struct cb_thread *t)
{
	if (!t->running)
		return;
	pthread_mutex_lock(&t->lock);
	t->stop = 1;
	pthread_cond_signal(&t->wake);
	pthread_mutex_unlock(&t->lock);
	pthread_join(t->tid, NULL);
	t->running = 0;
}
