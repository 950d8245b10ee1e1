/* SPDX-License-Identifier: MIT */
/*
 * lfht.c - liburcu's rculfhash hash table on one RCU: lookups and updates
 * per second.  One source, built once per RCU with the same plain flags:
 * ours through <rcu/urcu_flavor.h> (LF_RCU: lrcu_flavor_rcu, LF_SCHED:
 * lrcu_flavor_sched), liburcu's through its flavor header with
 * _LGPL_SOURCE (LF_URCU_MEMB, LF_URCU_QSBR); the table code is the same
 * liburcu-cds in every build, so the figures differ by the RCU only.
 *
 *   build/bench/lfht-FLAVOR [seconds [run [readers [writers]]]]
 *
 * The table (auto-resizing, from 1 bucket) starts with half of its 4096
 * keys.  Readers look random keys up, each in its own read-side section
 * (QSBR flavors announce a quiescent state every 64 lookups); writers
 * delete a random key's node or add it back (cds_lfht_add_unique), and
 * replace another key's node, giving removed nodes to call_rcu() (a
 * free).  Every thread counts its operations over `seconds' (default
 * 0.5) after a start gate; prints one JSON line:
 *   {"kind":"run","prog":"lfht","flavor":"rcu","run":1,
 *    "params":{"readers":1,"writers":1},
 *    "figures":{"lookups_per_s":..,"updates_per_s":..},
 *    "host":{"cores":..,"kernel":..,"membarrier":..,"liburcu":..,"loadavg":..}}
 * (an update is one add, delete or replace that took effect).  Exit 1 if
 * a lookup returned a node of another key.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <sys/utsname.h>

#if defined(LF_URCU_MEMB) || defined(LF_URCU_QSBR)
#define _LGPL_SOURCE
#endif

#if defined(LF_RCU) || defined(LF_SCHED)
#include <rcu/rcupdate.h>
#include <rcu/urcu_flavor.h>
#define lf_register()	(void)rcu_register_thread()
#define lf_unregister()	rcu_unregister_thread()
#define lf_call(h, f)	LF_CALL(h, f)
#define lf_barrier()	LF_BARRIER()
#ifdef LF_RCU
#define LF_NAME		"rcu"
#define LF_FLAVOR	(&lrcu_flavor_rcu)
#define lf_lock()	rcu_read_lock()
#define lf_unlock()	rcu_read_unlock()
#define lf_qs()		do { } while (0)
#define LF_CALL(h, f)	call_rcu(h, f)
#define LF_BARRIER()	rcu_barrier()
#else
#define LF_NAME		"sched"
#define LF_FLAVOR	(&lrcu_flavor_sched)
#define lf_lock()	rcu_read_lock_sched()
#define lf_unlock()	rcu_read_unlock_sched()
#define lf_qs()		rcu_quiescent_state()
#define LF_CALL(h, f)	call_rcu_sched(h, f)
#define LF_BARRIER()	rcu_barrier_sched()
#endif
#define lf_offline()	rcu_thread_offline()
#define lf_online()	rcu_thread_online()
#elif defined(LF_URCU_MEMB)
#include <urcu/urcu-memb.h>
#define LF_NAME		"urcu-memb"
#define LF_FLAVOR	(&urcu_memb_flavor)
#define lf_register()	urcu_memb_register_thread()
#define lf_unregister()	urcu_memb_unregister_thread()
#define lf_lock()	urcu_memb_read_lock()
#define lf_unlock()	urcu_memb_read_unlock()
#define lf_qs()		do { } while (0)
#define lf_call(h, f)	urcu_memb_call_rcu(h, f)
#define lf_barrier()	urcu_memb_barrier()
#define lf_offline()	urcu_memb_thread_offline()
#define lf_online()	urcu_memb_thread_online()
#elif defined(LF_URCU_QSBR)
#include <urcu/urcu-qsbr.h>
#define LF_NAME		"urcu-qsbr"
#define LF_FLAVOR	(&urcu_qsbr_flavor)
#define lf_register()	urcu_qsbr_register_thread()
#define lf_unregister()	urcu_qsbr_unregister_thread()
#define lf_lock()	urcu_qsbr_read_lock()
#define lf_unlock()	urcu_qsbr_read_unlock()
#define lf_qs()		urcu_qsbr_quiescent_state()
#define lf_call(h, f)	urcu_qsbr_call_rcu(h, f)
#define lf_barrier()	urcu_qsbr_barrier()
#define lf_offline()	urcu_qsbr_thread_offline()
#define lf_online()	urcu_qsbr_thread_online()
#else
#error "define one of LF_RCU, LF_SCHED, LF_URCU_MEMB, LF_URCU_QSBR"
#endif
#include <urcu/rculfhash.h>
#include <torture/atomic.h>

#define NKEYS	4096UL
#define MAXTHR	16

struct node {
	struct cds_lfht_node lfht;
	unsigned long key;
	struct rcu_head rh;
};

static struct cds_lfht *ht;
static double seconds = 0.5;
static int go, stop, wrong;
static unsigned long ops[2][MAXTHR];	/* [0] lookups, [1] updates, by thread */

static unsigned long hash_key(unsigned long key)
{
	return key * 0x9e3779b97f4a7c15UL;	/* Fibonacci hashing */
}

static int match_key(struct cds_lfht_node *n, const void *key)
{
	return caa_container_of(n, struct node, lfht)->key == *(const unsigned long *)key;
}

static unsigned long rnd(unsigned long *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void node_free(struct rcu_head *rh)
{
	free(caa_container_of(rh, struct node, rh));
}

static struct node *node_new(unsigned long key)
{
	struct node *n = malloc(sizeof(*n));

	cds_lfht_node_init(&n->lfht);
	n->key = key;
	return n;
}

static void gate(void)
{
	while (!smp_load_acquire(&go))	/* pairs with main()'s release */
		sched_yield();
}

static int running(void)
{
	return !READ_ONCE(stop);
}

static void *reader(void *arg)
{
	long id = (long)arg;
	unsigned long s = (unsigned long)id * 7919 + 1, n = 0, key;
	struct cds_lfht_iter it;
	struct cds_lfht_node *ln;

	lf_register();
	gate();
	while (running()) {
		key = rnd(&s) % NKEYS;
		lf_lock();
		cds_lfht_lookup(ht, hash_key(key), match_key, &key, &it);
		ln = cds_lfht_iter_get_node(&it);
		if (ln && caa_container_of(ln, struct node, lfht)->key != key)
			WRITE_ONCE(wrong, 1);
		lf_unlock();
		if (++n % 64 == 0)
			lf_qs();
	}
	ops[0][id] = n;
	lf_unregister();
	return NULL;
}

static void *writer(void *arg)
{
	long id = (long)arg;
	unsigned long s = (unsigned long)id * 104729 + 3, n = 0, key;
	struct cds_lfht_iter it;
	struct cds_lfht_node *ln;
	struct node *nd, *old;

	lf_register();
	gate();
	while (running()) {
		/* Delete the key's node, or add it back. */
		key = rnd(&s) % NKEYS;
		old = NULL;
		lf_lock();
		cds_lfht_lookup(ht, hash_key(key), match_key, &key, &it);
		ln = cds_lfht_iter_get_node(&it);
		if (ln) {
			if (!cds_lfht_del(ht, ln)) {
				old = caa_container_of(ln, struct node, lfht);
				n++;
			}
		} else {
			nd = node_new(key);
			if (cds_lfht_add_unique(ht, hash_key(key), match_key, &key, &nd->lfht) == &nd->lfht)
				n++;
			else
				free(nd);
		}
		lf_unlock();
		if (old)
			lf_call(&old->rh, node_free);

		/* Replace another key's node. */
		key = rnd(&s) % NKEYS;
		old = NULL;
		nd = node_new(key);
		lf_lock();
		cds_lfht_lookup(ht, hash_key(key), match_key, &key, &it);
		ln = cds_lfht_iter_get_node(&it);
		if (ln && !cds_lfht_replace(ht, &it, hash_key(key), match_key, &key, &nd->lfht)) {
			old = caa_container_of(ln, struct node, lfht);
			n++;
		}
		lf_unlock();
		if (old)
			lf_call(&old->rh, node_free);
		else
			free(nd);
		lf_qs();
	}
	ops[1][id] = n;
	lf_unregister();
	return NULL;
}

#ifndef LF_LIBURCU_VERSION
#define LF_LIBURCU_VERSION "?"
#endif

/* The host facts the perf programs record (compare-liburcu.sh's table
 * heading), and the load, which says how noisy the figures are. */
static void print_host(void)
{
	struct utsname u;
	double load[1] = { -1 };
	long mb = syscall(__NR_membarrier, MEMBARRIER_CMD_QUERY, 0);

	if (uname(&u))
		strcpy(u.release, "?");
	if (getloadavg(load, 1) != 1)
		load[0] = -1;
	printf(",\"host\":{\"cores\":%ld,\"kernel\":\"%s\",\"membarrier\":%s,\"liburcu\":\"%s\","
	       "\"loadavg\":%.2f}", sysconf(_SC_NPROCESSORS_ONLN), u.release,
	       mb > 0 && (mb & MEMBARRIER_CMD_PRIVATE_EXPEDITED) ? "true" : "false",
	       LF_LIBURCU_VERSION, load[0]);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	long run = argc > 2 ? atol(argv[2]) : 1, nr = argc > 3 ? atol(argv[3]) : 1;
	long nw = argc > 4 ? atol(argv[4]) : 1, i;
	unsigned long k, sum[2] = { 0, 0 };
	pthread_t t[2 * MAXTHR];
	struct cds_lfht_iter it;
	struct node *nd;
	struct timespec ts = { 0, 0 };
	double t0, el;

	if (argc > 1)
		seconds = atof(argv[1]);
	if (seconds <= 0 || seconds > 60 || run < 1 || nr < 0 || nr > MAXTHR || nw < 0 || nw > MAXTHR) {
		fprintf(stderr, "usage: %s [seconds (0-60, default 0.5) [run (1..) [readers (0-%d, default 1) "
			"[writers (0-%d, default 1)]]]]\n", argv[0], MAXTHR, MAXTHR);
		return 2;
	}
	ht = cds_lfht_new_flavor(1, 1, 0, CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING, LF_FLAVOR, NULL);
	if (!ht) {
		fprintf(stderr, "lfht: cds_lfht_new_flavor() failed\n");
		return 2;
	}
	lf_register();
	for (k = 0; k < NKEYS; k += 2) {
		nd = node_new(k);
		lf_lock();
		cds_lfht_add(ht, hash_key(k), &nd->lfht);
		lf_unlock();
	}
	lf_offline();	/* QSBR: not holding the others' grace periods */
	for (i = 0; i < nr; i++)
		pthread_create(&t[i], NULL, reader, (void *)i);
	for (i = 0; i < nw; i++)
		pthread_create(&t[nr + i], NULL, writer, (void *)i);
	t0 = now();
	smp_store_release(&go, 1);	/* pairs with gate()'s acquire */
	ts.tv_sec = (time_t)seconds;
	ts.tv_nsec = (long)((seconds - (double)ts.tv_sec) * 1e9);
	nanosleep(&ts, NULL);
	WRITE_ONCE(stop, 1);
	el = now() - t0;
	for (i = 0; i < nr + nw; i++)
		pthread_join(t[i], NULL);
	for (i = 0; i < MAXTHR; i++) {
		sum[0] += ops[0][i];
		sum[1] += ops[1][i];
	}
	lf_online();
	lf_lock();
	cds_lfht_for_each_entry(ht, &it, nd, lfht)
		if (!cds_lfht_del(ht, &nd->lfht))
			lf_call(&nd->rh, node_free);
	lf_unlock();
	lf_unregister();
	cds_lfht_destroy(ht, NULL);
	lf_barrier();

	printf("{\"kind\":\"run\",\"prog\":\"lfht\",\"flavor\":\"%s\",\"run\":%ld,"
	       "\"params\":{\"readers\":%ld,\"writers\":%ld},\"figures\":{\"lookups_per_s\":%.0f,"
	       "\"updates_per_s\":%.0f,\"wall_s\":%.3f}", LF_NAME, run, nr, nw,
	       (double)sum[0] / el, (double)sum[1] / el, el);
	print_host();
	printf("}\n");
	if (wrong)
		fprintf(stderr, "lfht: %s: a lookup returned a node of another key\n", LF_NAME);
	return wrong ? 1 : 0;
}
