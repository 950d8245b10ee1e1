/* SPDX-License-Identifier: MIT */
/*
 * plugin_cbq.h - call() and cb_barrier() for the example plugins: a
 * queue that one thread drains, one grace period (the plugin's sync())
 * for each batch it takes.  Correct because the batch is taken before
 * the grace period starts: every call() in it came before.
 *
 * A plugin defines one `static struct plugin_cbq q = PLUGIN_CBQ(sync, NULL);'
 * and calls plugin_cbq_call(&q, cb) and plugin_cbq_barrier(&q) from its
 * ops.  ->after_gp, if set, runs after each batch, under nothing, and
 * returns how many more callbacks it ran (a deliberately broken plugin's
 * hook: plugin_slots.c).
 */
#ifndef TORTURE_PLUGIN_CBQ_H
#define TORTURE_PLUGIN_CBQ_H

#include <pthread.h>
#include <torture/ops.h>

struct plugin_cbq {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct torture_cb *head;	/* linked through rcu_space[0] (lock) */
	unsigned long queued, done;	/* lock */
	int started;			/* the thread runs (lock) */
	void (*sync)(void);		/* one grace period */
	unsigned long (*after_gp)(struct plugin_cbq *q);
};

#define PLUGIN_CBQ(sync_fn, after_gp_fn) { PTHREAD_MUTEX_INITIALIZER,	\
	PTHREAD_COND_INITIALIZER, NULL, 0, 0, 0, (sync_fn), (after_gp_fn) }

/* Take the whole queue (LIFO is fine: one grace period covers it all). */
static inline struct torture_cb *plugin_cbq_take(struct plugin_cbq *q)
{
	struct torture_cb *batch;

	pthread_mutex_lock(&q->lock);
	batch = q->head;
	q->head = NULL;
	pthread_mutex_unlock(&q->lock);
	return batch;
}

static inline unsigned long plugin_cbq_run(struct torture_cb *batch)
{
	struct torture_cb *next;
	unsigned long n = 0;

	for (; batch; batch = next, n++) {
		next = batch->rcu_space[0];
		batch->func(batch);
	}
	return n;
}

static inline void *plugin_cbq_thread(void *arg)
{
	struct plugin_cbq *q = arg;

	for (;;) {
		struct torture_cb *batch;
		unsigned long n;

		pthread_mutex_lock(&q->lock);
		while (!q->head)
			pthread_cond_wait(&q->cond, &q->lock);
		pthread_mutex_unlock(&q->lock);
		batch = plugin_cbq_take(q);
		q->sync();	/* starts after every call() of the batch */
		n = plugin_cbq_run(batch);
		if (q->after_gp)
			n += q->after_gp(q);
		pthread_mutex_lock(&q->lock);
		q->done += n;
		pthread_cond_broadcast(&q->cond);
		pthread_mutex_unlock(&q->lock);
	}
	return NULL;
}

static inline void plugin_cbq_call(struct plugin_cbq *q, struct torture_cb *cb)
{
	pthread_t t;

	pthread_mutex_lock(&q->lock);
	if (!q->started && !pthread_create(&t, NULL, plugin_cbq_thread, q)) {
		pthread_detach(t);
		q->started = 1;
	}
	cb->rcu_space[0] = q->head;
	q->head = cb;
	q->queued++;
	pthread_cond_broadcast(&q->cond);
	pthread_mutex_unlock(&q->lock);
}

/* Wait for every callback queued before us. */
static inline void plugin_cbq_barrier(struct plugin_cbq *q)
{
	unsigned long target;

	pthread_mutex_lock(&q->lock);
	target = q->queued;
	while (q->done < target)
		pthread_cond_wait(&q->cond, &q->lock);
	pthread_mutex_unlock(&q->lock);
}

#endif /* TORTURE_PLUGIN_CBQ_H */
