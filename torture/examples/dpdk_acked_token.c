/* SPDX-License-Identifier: MIT */
/*
 * dpdk_acked_token.c - DPDK's rte_rcu_qsbr_check() reports a token
 * complete while a reader that came online before the token was taken
 * has not reported a quiescent state (docs/other-rcus.md, "DPDK").
 *
 * The check's shortcut returns 1 when the token is at most acked_token,
 * the least counter the last complete scan saw among online threads.  A
 * scan reads the counters one by one: a reader it read as offline may
 * come online (with the token of that moment) before the scan reads the
 * other threads' newer counters, and the scan then stores an acked_token
 * above that reader's counter.  Here one reader goes online, takes a
 * token and checks it without reporting a quiescent state (the check
 * must say "not yet"), one thread reports quiescent states, three
 * threads start and check tokens.  It prints how often the reader's
 * token checked complete, and exits 1 if it ever did.
 *
 *   cc -O2 -o dpdk_acked_token torture/examples/dpdk_acked_token.c \
 *	$(pkg-config --cflags libdpdk) -lrte_rcu -pthread
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <rte_rcu_qsbr.h>

#define NTHREADS	128
#define SECONDS		5

static struct rte_rcu_qsbr *v;
static volatile int stop;
static unsigned long early, rounds;

static void *reader(void *arg)
{
	uint64_t t;
	int i;

	(void)arg;
	rte_rcu_qsbr_thread_register(v, 0);
	while (!stop) {
		rte_rcu_qsbr_thread_online(v, 0);
		t = rte_rcu_qsbr_start(v);	/* online, no quiescent state since */
		for (i = 0; i < 20000; i++)
			if (rte_rcu_qsbr_check(v, t, false)) {
				early++;
				break;
			}
		rounds++;
		rte_rcu_qsbr_thread_offline(v, 0);
		for (volatile int j = 0; j < 20000; j++)
			;			/* offline for a while */
	}
	return NULL;
}

static void *reporter(void *arg)
{
	unsigned int id = (unsigned int)(long)arg;

	rte_rcu_qsbr_thread_register(v, id);
	rte_rcu_qsbr_thread_online(v, id);
	while (!stop)
		rte_rcu_qsbr_quiescent(v, id);
	rte_rcu_qsbr_thread_offline(v, id);
	return NULL;
}

static void *checker(void *arg)
{
	(void)arg;
	while (!stop)
		rte_rcu_qsbr_check(v, rte_rcu_qsbr_start(v), false);
	return NULL;
}

int main(void)
{
	pthread_t th[5];
	int i;

	v = aligned_alloc(RTE_CACHE_LINE_SIZE, rte_rcu_qsbr_get_memsize(NTHREADS));
	if (!v || rte_rcu_qsbr_init(v, NTHREADS))
		return 2;
	pthread_create(&th[0], NULL, reader, NULL);
	pthread_create(&th[1], NULL, reporter, (void *)1L);
	for (i = 2; i < 5; i++)
		pthread_create(&th[i], NULL, checker, NULL);
	sleep(SECONDS);
	stop = 1;
	for (i = 0; i < 5; i++)
		pthread_join(th[i], NULL);
	printf("reader rounds %lu, its token checked complete before its quiescent state: %lu\n",
	       rounds, early);
	return early != 0;
}
