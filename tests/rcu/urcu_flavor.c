/* SPDX-License-Identifier: MIT */
/*
 * tests/rcu/urcu_flavor.c - liburcu's rculfhash hash table on our RCU
 * (<rcu/urcu_flavor.h>), tortured: for each of lrcu_flavor_rcu and
 * lrcu_flavor_sched, readers look keys up (and their duplicates) and now
 * and then iterate over the whole table, while writers add
 * (cds_lfht_add_unique), delete and replace nodes and resize the table
 * (which also resizes by itself: CDS_LFHT_AUTO_RESIZE, from a small
 * start), everything through the flavor descriptor as rculfhash sees
 * it.  A node a writer removed goes to the flavor's call_rcu(), whose
 * callback poisons it and frees it a grace period later; a reader that
 * reaches a node not whole (poisoned, or its publication not visible)
 * or holding another key fails the test, as a writer whose delete or
 * replace of a node it owned fails.  Then the table is emptied and
 * destroyed.  liburcu's struct rcu_head and ours must agree (the
 * header's build-time checks); nothing here includes <urcu/call-rcu.h>.
 *
 * Without liburcu-dev: a TAP SKIP naming it.  Figures are printed,
 * nothing is timed: each flavor runs LFHT_SECONDS (1.5) seconds.
 */
#include "rcu_test.h"

#if defined(TEST_LIBURCU) && TEST_LIBURCU == 0
#define LFHT_SKIP "built with LIBURCU=0: liburcu-dev ignored"
#elif !__has_include(<urcu/rculfhash.h>)
#define LFHT_SKIP "liburcu-dev not installed (Debian package liburcu-dev)"
#endif

#ifdef LFHT_SKIP
int main(void)
{
	skip_all(LFHT_SKIP);
}
#else
#include <rcu/urcu_flavor.h>
#include <urcu/rculfhash.h>

#ifdef LRCU_TSAN
/* liburcu-cds is not instrumented: ThreadSanitizer cannot see how its
 * resize worker hands memory over (futexes), so its own allocations and
 * frees are not reported.  The nodes' publication it sees through
 * ->published. */
const char *__tsan_default_suppressions(void);
const char *__tsan_default_suppressions(void)
{
	return "called_from_lib:liburcu-cds.so\n";
}

#endif

#define NREADERS	2
#define NWRITERS	2
#define NKEYS		512UL
#define MAGIC		0x5eedf00dUL
#define POISON		0xdeadbeefUL

struct node {
	struct cds_lfht_node lfht;
	unsigned long key, value;
	unsigned long check;	/* key ^ value ^ MAGIC while live, else POISON */
	int published;		/* 1 once whole (release), POISON when retired */
	struct rcu_head rh;
};

/* The run's figures (relaxed counters; read after the threads joined). */
struct counts {
	unsigned long lookups, hits, iterations, iterated, bad_node, wrong_key;
	unsigned long adds, add_dups, dels, replaces, resizes;
};

static const struct rcu_flavor_struct *fl;
static struct cds_lfht *ht;
static int go, stop;
static struct counts cnt;


static void count(unsigned long *c, unsigned long n)
{
	__atomic_fetch_add(c, n, __ATOMIC_RELAXED);
}

static unsigned long hash_key(unsigned long key)
{
	return key * 0x9e3779b97f4a7c15UL;	/* Fibonacci hashing */
}

static bool node_whole(struct node *n);

/* rculfhash compares keys before anything else reads the node: the
 * first check of every node a lookup passes. */
static int match_key(struct cds_lfht_node *ln, const void *key)
{
	struct node *n = container_of(ln, struct node, lfht);

	if (!node_whole(n)) {
		count(&cnt.bad_node, 1);
		return 0;
	}
	return n->key == *(const unsigned long *)key;
}

static unsigned long rnd(unsigned long *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static struct node *node_new(unsigned long key, unsigned long value)
{
	struct node *n = malloc(sizeof(*n));

	cds_lfht_node_init(&n->lfht);
	n->key = key;
	n->value = value;
	n->check = key ^ value ^ MAGIC;
	/* Everything above before the flag: pairs with node_whole()'s
	 * acquire (rculfhash's own publication is not instrumented, so
	 * ThreadSanitizer sees the node published through this flag). */
	__atomic_store_n(&n->published, 1, __ATOMIC_RELEASE);
	return n;
}

/* Is the node a reader reached whole? */
static bool node_whole(struct node *n)
{
	if (__atomic_load_n(&n->published, __ATOMIC_ACQUIRE) != 1)	/* pairs with node_new() */
		return false;
	return n->check == (n->key ^ n->value ^ MAGIC);
}

static void node_free(struct rcu_head *rh)
{
	free(container_of(rh, struct node, rh));
}

/* A grace period after its removal no reader holds it: poison it, and
 * free it one more grace period later (a reader that still reached it
 * then is an AddressSanitizer report). */
static void node_poison(struct rcu_head *rh)
{
	struct node *n = container_of(rh, struct node, rh);

	n->check = POISON;
	n->value = POISON;
	__atomic_store_n(&n->published, (int)POISON, __ATOMIC_RELAXED);
	fl->update_call_rcu(&n->rh, node_free);
}

static void retire(struct node *n)
{
	fl->update_call_rcu(&n->rh, node_poison);
}

static void start_gate(void)
{
	while (!__atomic_load_n(&go, __ATOMIC_ACQUIRE))	/* pairs with run() */
		sched_yield();
}

static bool stopping(void)
{
	return __atomic_load_n(&stop, __ATOMIC_RELAXED);
}

static void check_node(struct node *n, unsigned long key, bool any_key)
{
	if (!node_whole(n))
		count(&cnt.bad_node, 1);
	else if (!any_key && n->key != key)
		count(&cnt.wrong_key, 1);
}

static void read_lookup(unsigned long key)
{
	struct cds_lfht_iter it;
	struct cds_lfht_node *ln;

	fl->read_lock();
	cds_lfht_lookup(ht, hash_key(key), match_key, &key, &it);
	for (ln = cds_lfht_iter_get_node(&it); ln; ln = cds_lfht_iter_get_node(&it)) {
		count(&cnt.hits, 1);
		check_node(container_of(ln, struct node, lfht), key, false);
		cds_lfht_next_duplicate(ht, match_key, &key, &it);
	}
	fl->read_unlock();
	count(&cnt.lookups, 1);
}

static void read_all(void)
{
	struct cds_lfht_iter it;
	struct node *n;
	unsigned long seen = 0;

	fl->read_lock();
	cds_lfht_for_each_entry(ht, &it, n, lfht) {
		check_node(n, 0, true);
		seen++;
	}
	fl->read_unlock();
	count(&cnt.iterations, 1);
	count(&cnt.iterated, seen);
}

static void *reader(void *arg)
{
	unsigned long s = (unsigned long)arg * 7919 + 1, i;

	fl->register_thread();
	start_gate();
	for (i = 0; !stopping(); i++) {
		if (i % 256 == 255)
			read_all();
		else
			read_lookup(rnd(&s) % NKEYS);
		fl->read_quiescent_state();	/* rcu_sched: between sections */
	}
	fl->unregister_thread();
	return NULL;
}

static void write_add(unsigned long key, unsigned long value)
{
	struct node *n = node_new(key, value);
	struct cds_lfht_node *got;

	fl->read_lock();
	got = cds_lfht_add_unique(ht, hash_key(key), match_key, &key, &n->lfht);
	fl->read_unlock();
	if (got == &n->lfht) {
		count(&cnt.adds, 1);
	} else {
		free(n);	/* never published */
		count(&cnt.add_dups, 1);
	}
}

/* Delete the key's node, or replace it with one of a new value. */
static void write_remove(unsigned long key, unsigned long value, bool replace)
{
	struct cds_lfht_iter it;
	struct cds_lfht_node *ln;
	struct node *old, *n = NULL;

	fl->read_lock();
	cds_lfht_lookup(ht, hash_key(key), match_key, &key, &it);
	ln = cds_lfht_iter_get_node(&it);
	if (!ln) {
		fl->read_unlock();
		return;
	}
	old = container_of(ln, struct node, lfht);
	check_node(old, key, false);
	if (replace) {
		n = node_new(key, value);
		if (cds_lfht_replace(ht, &it, hash_key(key), match_key, &key, &n->lfht)) {
			free(n);	/* another writer removed it first */
			n = NULL;
			old = NULL;
		}
	} else if (cds_lfht_del(ht, ln)) {
		old = NULL;	/* another writer removed it first */
	}
	fl->read_unlock();
	if (old) {
		count(replace ? &cnt.replaces : &cnt.dels, 1);
		retire(old);
	}
}

static void *writer(void *arg)
{
	unsigned long s = (unsigned long)arg * 104729 + 3, i, r, key;

	fl->register_thread();
	start_gate();
	for (i = 0; !stopping(); i++) {
		r = rnd(&s);
		key = (r >> 8) % NKEYS;
		switch (r % 3) {
		case 0: write_add(key, r); break;
		case 1: write_remove(key, r, false); break;
		default: write_remove(key, r, true); break;
		}
		if (i % 4096 == 4095) {
			/* Grow or shrink by hand too.  Offline: another
			 * writer may hold the resize mutex and wait for a
			 * grace period (liburcu-qsbr's rule too). */
			fl->thread_offline();
			cds_lfht_resize(ht, (r >> 20) & 1 ? 8 : 256);
			fl->thread_online();
			count(&cnt.resizes, 1);
		}
		fl->read_quiescent_state();
	}
	fl->unregister_thread();
	return NULL;
}

/* Remove every node (after the run: no concurrent writer). */
static unsigned long empty_table(void)
{
	struct cds_lfht_iter it;
	struct node *n;
	unsigned long left = 0;

	fl->read_lock();
	cds_lfht_for_each_entry(ht, &it, n, lfht) {
		if (cds_lfht_del(ht, &n->lfht) == 0) {
			retire(n);
			left++;
		}
	}
	fl->read_unlock();
	return left;
}

static double run_seconds(void)
{
	const char *e = getenv("LFHT_SECONDS");

	return e && atof(e) > 0 ? atof(e) : 1.5;
}

static void run(const char *name, const struct rcu_flavor_struct *flavor)
{
	pthread_t rd[NREADERS], wr[NWRITERS];
	unsigned long i, left, nodes;
	long before, after;
	double secs = run_seconds();

	fl = flavor;
	memset(&cnt, 0, sizeof(cnt));
	go = stop = 0;
	ht = cds_lfht_new_flavor(1, 1, 0, CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING, fl, NULL);
	if (!ok(ht != NULL, "%s: cds_lfht_new_flavor()", name))
		return;
	for (i = 0; i < NREADERS; i++)
		pthread_create(&rd[i], NULL, reader, (void *)(i + 1));
	for (i = 0; i < NWRITERS; i++)
		pthread_create(&wr[i], NULL, writer, (void *)(i + 1));
	__atomic_store_n(&go, 1, __ATOMIC_RELEASE);	/* pairs with start_gate() */
	sleep_ms((long)(secs * 1000));
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < NWRITERS; i++)
		pthread_join(wr[i], NULL);
	for (i = 0; i < NREADERS; i++)
		pthread_join(rd[i], NULL);

	diag("%s: %lu lookups (%lu hits), %lu iterations (%lu nodes), %lu adds (%lu duplicates "
	     "refused), %lu deletes, %lu replaces, %lu resizes by hand, in %.1f s",
	     name, cnt.lookups, cnt.hits, cnt.iterations, cnt.iterated, cnt.adds, cnt.add_dups,
	     cnt.dels, cnt.replaces, cnt.resizes, secs);
	ok(cnt.lookups > 0 && cnt.iterations > 0 && cnt.dels > 0 && cnt.replaces > 0,
	   "%s: readers looked up and iterated, writers deleted and replaced", name);
	is_long(cnt.bad_node, 0, "%s: no reader or writer reached a poisoned or unpublished node", name);
	is_long(cnt.wrong_key, 0, "%s: every node a lookup returned has its key", name);

	fl->register_thread();
	left = empty_table();
	fl->read_lock();
	cds_lfht_count_nodes(ht, &before, &nodes, &after);
	fl->read_unlock();
	is_long(nodes, 0, "%s: emptied (%lu nodes removed at the end)", name, left);
	/* Not online in rcu_sched while destroy waits for a resize, whose
	 * grace periods would wait for this thread (liburcu-qsbr's rule). */
	fl->unregister_thread();
	is_long(cds_lfht_destroy(ht, NULL), 0, "%s: cds_lfht_destroy()", name);
	/* The poisoning callbacks, then the frees they queued. */
	(fl->barrier)();	/* not <rcu/kernel.h>'s barrier() */
	(fl->barrier)();	/* not <rcu/kernel.h>'s barrier() */
}

/* Fill the table with n keys from base and empty it again (its worker
 * grows and shrinks it meanwhile); 0 if every add and delete worked. */
static int fill_and_empty(unsigned long base, unsigned long n)
{
	unsigned long i, bad = 0;

	fl->register_thread();
	for (i = 0; i < n; i++) {
		struct node *nd = node_new(base + i, i);

		fl->read_lock();
		if (cds_lfht_add_unique(ht, hash_key(base + i), match_key, &nd->key,
					&nd->lfht) != &nd->lfht)
			bad++;
		fl->read_unlock();
	}
	bad += n - empty_table();
	fl->unregister_thread();
	return bad != 0;
}

/*
 * fork() with a table whose resize worker runs: the child gets a worker
 * again (rculfhash's fork handlers, which the header installs), so that
 * its own automatic resizes complete and cds_lfht_destroy(), which waits
 * for them, returns.  An alarm bounds the child: a missing worker is a
 * hang, reported as the child's death.
 */
static void fork_child_table(void)
{
	pid_t pid;
	int st = -1;

#ifdef LRCU_TSAN
	/* Its child dies of "dup thread with used id" when rculfhash's
	 * worker starts again (liburcu-cds is not instrumented). */
	skip("fork() with rculfhash's worker: not under ThreadSanitizer");
	skip("fork() with rculfhash's worker: not under ThreadSanitizer");
	return;
#endif
	fl = &lrcu_flavor_rcu;
	ht = cds_lfht_new_flavor(1, 1, 0, CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING, fl, NULL);
	fill_and_empty(0, 4096);
	pid = fork();
	if (pid == 0) {
		alarm(60);
		if (fill_and_empty(1UL << 20, 8192))
			_exit(1);
		_exit(cds_lfht_destroy(ht, NULL) == 0 ? 0 : 2);
	}
	waitpid(pid, &st, 0);
	ok(pid > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	   "fork(): the child's table grows, shrinks and is destroyed (status %#x)", st);
	fill_and_empty(2UL << 20, 4096);
	is_long(cds_lfht_destroy(ht, NULL), 0, "fork(): the parent's table still resizes and is destroyed");
	(fl->barrier)();	/* not <rcu/kernel.h>'s barrier() */
	(fl->barrier)();
}

int main(void)
{
	run("lrcu_flavor_rcu", &lrcu_flavor_rcu);
	run("lrcu_flavor_sched", &lrcu_flavor_sched);
	fork_child_table();
	return done_testing();
}
#endif
