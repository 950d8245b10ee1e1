/* SPDX-License-Identifier: MIT */
/*
 * hashtable.c - an RCU-protected hash table: lock-free lookups running
 * concurrently with inserts, updates and deletes.
 *
 *   $(BUILD)/examples/hashtable [readers [updates]]
 *
 * The table maps string keys to values.  Buckets are hlists
 * (<rcu/rculist.h>); updaters serialise on one mutex, readers take no lock
 * at all:
 *
 *   lookup   rcu_read_lock(); hlist_for_each_entry_rcu() over the key's
 *            bucket; copy the value out; rcu_read_unlock().  The entry may
 *            be deleted meanwhile, but cannot be freed before the reader's
 *            rcu_read_unlock().
 *   insert   fill the whole entry in first, then hlist_add_head_rcu(): a
 *            reader that finds the entry finds it complete.
 *   update   build a new version and hlist_replace_rcu() the old one, so a
 *            reader sees either the old or the new version, never a
 *            half-written value; the old one goes to kfree_rcu().
 *   delete   hlist_del_rcu(), then kfree_rcu(): freed only after every
 *            reader that might still hold it has finished.
 *
 * Every thread that reads registers with rcu_register_thread() first.
 * The demo checks that readers never see a value that does not belong to
 * its key, and prints a summary; it exits 0 when everything held.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <rcu/kernel.h>
#include <rcu/rculist.h>
#include <rcu/rcupdate.h>

#define HT_BUCKETS	64
#define HT_KEYLEN	24

struct ht_entry {
	struct hlist_node node;
	char key[HT_KEYLEN];
	long value;
	struct rcu_head rcu;
};

struct hashtable {
	struct hlist_head buckets[HT_BUCKETS];
	pthread_mutex_t lock;		/* serialises updaters only */
};

static unsigned int ht_hash(const char *key)
{
	unsigned int h = 2166136261u;	/* FNV-1a */

	while (*key)
		h = (h ^ (unsigned char)*key++) * 16777619u;
	return h % HT_BUCKETS;
}

static void ht_init(struct hashtable *ht)
{
	int i;

	for (i = 0; i < HT_BUCKETS; i++)
		INIT_HLIST_HEAD(&ht->buckets[i]);
	pthread_mutex_init(&ht->lock, NULL);
}

/* Reader: copy key's value into *value.  Returns 1 if found. */
static int ht_lookup(struct hashtable *ht, const char *key, long *value)
{
	struct ht_entry *e;
	int found = 0;

	rcu_read_lock();
	hlist_for_each_entry_rcu(e, &ht->buckets[ht_hash(key)], node) {
		if (strcmp(e->key, key) == 0) {
			*value = e->value;	/* copy out before unlocking */
			found = 1;
			break;
		}
	}
	rcu_read_unlock();
	return found;
}

/* Updater side: the entry for key (ht->lock held). */
static struct ht_entry *ht_find_locked(struct hashtable *ht, const char *key)
{
	struct ht_entry *e;

	hlist_for_each_entry(e, &ht->buckets[ht_hash(key)], node)
		if (strcmp(e->key, key) == 0)
			return e;
	return NULL;
}

/* Insert key, or replace its entry with a new version.  0, or -1. */
static int ht_store(struct hashtable *ht, const char *key, long value)
{
	struct ht_entry *e = malloc(sizeof(*e)), *old;

	if (!e)
		return -1;
	/* Initialise everything before publishing. */
	snprintf(e->key, sizeof(e->key), "%s", key);
	e->value = value;

	pthread_mutex_lock(&ht->lock);
	old = ht_find_locked(ht, key);
	if (old)
		hlist_replace_rcu(&old->node, &e->node);
	else
		hlist_add_head_rcu(&e->node, &ht->buckets[ht_hash(key)]);
	pthread_mutex_unlock(&ht->lock);

	if (old)
		kfree_rcu(old, rcu);	/* readers may still be looking at it */
	return 0;
}

/* Delete key.  Returns 1 if it was there. */
static int ht_delete(struct hashtable *ht, const char *key)
{
	struct ht_entry *e;

	pthread_mutex_lock(&ht->lock);
	e = ht_find_locked(ht, key);
	if (e)
		hlist_del_rcu(&e->node);
	pthread_mutex_unlock(&ht->lock);

	if (e)
		kfree_rcu(e, rcu);
	return e != NULL;
}

/* Free everything; no reader may be running. */
static void ht_destroy(struct hashtable *ht)
{
	struct hlist_node *tmp;
	struct ht_entry *e;
	int i;

	for (i = 0; i < HT_BUCKETS; i++) {
		hlist_for_each_entry_safe(e, tmp, &ht->buckets[i], node) {
			hlist_del(&e->node);
			free(e);
		}
	}
	rcu_barrier();	/* wait for the kfree_rcu() frees still pending */
	pthread_mutex_destroy(&ht->lock);
}

/* ------------------------------------------------------------------ */
/* The demo                                                             */

#define DEMO_KEYS	200
/* Values encode their key: value % 1000 is the key's number. */
#define DEMO_VALUE(keyno, version)	((long)(version) * 1000 + (keyno))

static struct hashtable demo_table;
static int demo_stop;

struct demo_reader {
	pthread_t tid;
	unsigned int seed;
	long lookups, hits, wrong;
};

static void demo_key(char *buf, size_t len, int keyno)
{
	snprintf(buf, len, "key-%d", keyno);
}

static void *demo_reader_fn(void *arg)
{
	struct demo_reader *r = arg;
	char key[HT_KEYLEN];
	long value;

	if (rcu_register_thread())
		return NULL;
	/* Acquire pairs with the release store that stops the demo. */
	while (!smp_load_acquire(&demo_stop)) {
		int keyno = (int)(rand_r(&r->seed) % DEMO_KEYS);

		demo_key(key, sizeof(key), keyno);
		if (ht_lookup(&demo_table, key, &value)) {
			r->hits++;
			if (value % 1000 != keyno)
				r->wrong++;
		}
		if (++r->lookups % 64 == 0)
			sched_yield();
	}
	rcu_unregister_thread();
	return NULL;
}

/*
 * Run nreaders readers against nupdates updates; 0 if all went well.
 * Call it from a thread that is not registered with RCU (it registers
 * for its own final lookups).
 */
static int hashtable_demo(int nreaders, long nupdates, FILE *out)
{
	struct demo_reader *readers = calloc((size_t)nreaders, sizeof(*readers));
	long version[DEMO_KEYS] = { 0 }, i, inserts = 0, updates = 0, deletes = 0;
	long lookups = 0, hits = 0, wrong = 0, value;
	unsigned int seed = 12345;
	char key[HT_KEYLEN];
	int n, errors = 0;

	if (!readers)
		return 1;
	ht_init(&demo_table);
	WRITE_ONCE(demo_stop, 0);	/* before the threads start */
	for (n = 0; n < nreaders; n++) {
		readers[n].seed = (unsigned int)n + 1;
		if (pthread_create(&readers[n].tid, NULL, demo_reader_fn, &readers[n])) {
			nreaders = n;	/* run with those we have */
			errors++;
			break;
		}
	}

	/* The updater: this thread. */
	for (i = 0; i < nupdates; i++) {
		int keyno = (int)(rand_r(&seed) % DEMO_KEYS);

		demo_key(key, sizeof(key), keyno);
		if (version[keyno] && rand_r(&seed) % 3 == 0) {
			deletes += ht_delete(&demo_table, key);
			version[keyno] = 0;
		} else {
			if (version[keyno])
				updates++;
			else
				inserts++;
			version[keyno]++;
			if (ht_store(&demo_table, key, DEMO_VALUE(keyno, version[keyno])))
				errors++;
		}
	}

	/* Release pairs with the readers' acquire loads. */
	smp_store_release(&demo_stop, 1);
	for (n = 0; n < nreaders; n++) {
		pthread_join(readers[n].tid, NULL);
		lookups += readers[n].lookups;
		hits += readers[n].hits;
		wrong += readers[n].wrong;
	}

	/* The table now holds exactly the latest versions. */
	if (rcu_register_thread() == 0) {
		for (n = 0; n < DEMO_KEYS; n++) {
			int found;

			demo_key(key, sizeof(key), n);
			found = ht_lookup(&demo_table, key, &value);
			if (found != (version[n] != 0) ||
			    (found && value != DEMO_VALUE(n, version[n])))
				errors++;
		}
		rcu_unregister_thread();
	} else {
		errors++;
	}
	ht_destroy(&demo_table);
	free(readers);

	fprintf(out, "hashtable: %d readers: %ld lookups, %ld hits, %ld wrong values\n",
		nreaders, lookups, hits, wrong);
	fprintf(out, "hashtable: updater: %ld inserts, %ld updates, %ld deletes\n",
		inserts, updates, deletes);
	fprintf(out, "hashtable: final contents %s\n", errors ? "WRONG" : "match");
	return wrong || errors;
}

#ifndef HASHTABLE_NO_MAIN
int main(int argc, char **argv)
{
	int nreaders = argc > 1 ? atoi(argv[1]) : 4;
	long nupdates = argc > 2 ? atol(argv[2]) : 100000;

	if (nreaders < 0 || nupdates < 0) {
		fprintf(stderr, "usage: %s [readers [updates]]\n", argv[0]);
		return 2;
	}
	return hashtable_demo(nreaders, nupdates, stdout);
}
#endif
