/* SPDX-License-Identifier: MIT */
/*
 * lockdep_graph.c - lock-dependency checking (<rcu/lockdep.h>), the
 * kernel's lockdep for SRCU domains and the locks around them.
 *
 * Theory of operation
 *
 * Each thread keeps the stack of locks it holds (key, how held, where
 * taken), thread-local.  An acquisition made while it holds others adds,
 * for each held lock H, the dependency H -> L to one global graph of lock
 * classes (a class is a key: a map's or a domain's address), labelled with
 * how H was held (exclusive or shared) and how L was acquired (recursive
 * read or not).  A new dependency H -> L is checked before it is added: a
 * path L -> ... -> H already in the graph closes a cycle, and the cycle
 * could deadlock unless some lock on it is both acquired as a recursive
 * reader (by the edge into it) and held shared (by the edge out of it):
 * recursive readers never wait for one another, so such a lock breaks the
 * wait chain (the kernel's "strong path" rule).  The search runs over
 * (lock, entered as a recursive reader?) states, so it finds a strong path
 * if there is one.  An exclusive acquisition of a lock the thread holds
 * (synchronize_srcu() inside a reader of the same domain) is the other
 * deadlock: "possible recursive locking".  Either prints one splat, counts
 * a misuse and turns the checking off for good, as the kernel's does.
 *
 * Cost.  An acquisition with nothing held pushes on the thread's stack
 * and returns: the common reader.  With locks held, each dependency is
 * looked up in a small per-thread cache first; only a dependency this
 * thread has not seen since the graph last changed takes the graph's
 * mutex.  Everything is static (no allocation): classes and dependencies
 * beyond the tables' size are not recorded, and the first such loss is
 * reported once.
 *
 * Signal handlers.  A thread's stack is touched only by the thread and
 * its handlers.  While the thread is inside the checker (->busy), a
 * handler's acquisitions and releases are neither recorded nor checked:
 * the handler runs whole sections, so each of its releases matches an
 * acquisition it skipped.  Outside, a handler pushes above the
 * interrupted code's entries and pops them again before it returns.
 */
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <rcu/lockdep.h>
#include "internal.h"

#define LD_MAX_HELD	48	/* the kernel's MAX_LOCK_DEPTH */
#define LD_CLASSES	4096	/* lock classes alive at once */
#define LD_CLASS_HASH	8192	/* open addressing, power of two */
#define LD_EDGES	32768	/* dependencies */
#define LD_CACHE	64	/* per-thread cache of known dependencies */

/* A dependency's labels: bit (held shared ? 2 : 0) + (acquired recursive ? 1 : 0). */
#define LD_COMBO(held_read, acq_read)	(((held_read) ? 2 : 0) | ((acq_read) == LRCU_LOCK_RECURSIVE))

struct ld_held {
	const void *key;
	const char *name;
	const char *at;
	int read;		/* LRCU_LOCK_* */
};

struct ld_thread {
	int n;				/* entries in held[] */
	int busy;			/* inside the checker (see the top) */
	unsigned long cache_gen;	/* ld_gen the cache is valid for */
	struct {
		const void *from, *to;
		unsigned int combos;
	} cache[LD_CACHE];
	struct ld_held held[LD_MAX_HELD];
};

static __thread struct ld_thread ld_self;

struct ld_class {
	const void *key;	/* NULL: free */
	const char *name;
	int first_edge;		/* index into ld_edges, -1: none */
};

struct ld_edge {
	int to;			/* class index */
	int next;		/* next edge of the same class, -1: last */
	unsigned int combos;	/* LD_COMBO() bits seen */
};

/* The graph: everything below under ld_lock. */
static pthread_mutex_t ld_lock = PTHREAD_MUTEX_INITIALIZER;
static struct ld_class ld_classes[LD_CLASSES];
static int ld_hash[LD_CLASS_HASH];	/* class index + 1; 0: empty */
static struct ld_edge ld_edges[LD_EDGES];
static int ld_nedges;			/* edges ever handed out (never reused) */
static int ld_free_edge = -1;		/* edges of forgotten classes */
static bool ld_full_said;

static int ld_off;		/* 1 after a splat: checking stops (atomic) */
static unsigned long ld_splats;	/* splats printed (atomic) */
static unsigned long ld_gen;	/* bumped when a class is forgotten (atomic) */

/* ------------------------------------------------------------------ */
/* Classes and edges (ld_lock held) */

static unsigned int ld_hash_of(const void *key)
{
	uintptr_t k = (uintptr_t)key;

	return (unsigned int)((k >> 4) ^ (k >> 17)) & (LD_CLASS_HASH - 1);
}

/* The class of key (created if create), or -1. */
static int ld_class(const void *key, const char *name, bool create)
{
	unsigned int h = ld_hash_of(key), i;
	int c;

	for (i = 0; i < LD_CLASS_HASH; i++, h = (h + 1) & (LD_CLASS_HASH - 1)) {
		c = ld_hash[h] - 1;
		if (c < 0)
			break;
		if (ld_classes[c].key == key)
			return c;
	}
	if (!create || i == LD_CLASS_HASH)
		return -1;
	for (c = 0; c < LD_CLASSES && ld_classes[c].key; c++)
		;
	if (c == LD_CLASSES)
		return -1;
	ld_classes[c].key = key;
	ld_classes[c].name = name ? name : "?";
	ld_classes[c].first_edge = -1;
	ld_hash[h] = c + 1;
	return c;
}

static struct ld_edge *ld_edge_find(int from, int to)
{
	int e;

	for (e = ld_classes[from].first_edge; e >= 0; e = ld_edges[e].next)
		if (ld_edges[e].to == to)
			return &ld_edges[e];
	return NULL;
}

static bool ld_edge_add(int from, int to, unsigned int combo)
{
	struct ld_edge *ed = ld_edge_find(from, to);
	int e;

	if (ed) {
		ed->combos |= 1U << combo;
		return true;
	}
	if (ld_free_edge >= 0) {
		e = ld_free_edge;
		ld_free_edge = ld_edges[e].next;
	} else if (ld_nedges < LD_EDGES) {
		e = ld_nedges++;
	} else {
		return false;
	}
	ld_edges[e].to = to;
	ld_edges[e].combos = 1U << combo;
	ld_edges[e].next = ld_classes[from].first_edge;
	ld_classes[from].first_edge = e;
	return true;
}

/*
 * A path from class `from' (entered as a recursive reader if from_rec)
 * to class `to' that can deadlock, ending with `to' not both entered as a
 * recursive reader and then held shared (to_shared) by the new edge.
 * Breadth first over (class, entered recursive) states; the path found,
 * `to' first, goes to path[] (at most LD_CLASSES entries).  Its length,
 * or 0.
 */
static int ld_strong_path(int from, bool from_rec, int to, bool to_shared, int *path)
{
	static int queue[2 * LD_CLASSES], parent[2 * LD_CLASSES];
	int head = 0, tail = 0, s, e, n;
	unsigned int cb;

	for (s = 0; s < 2 * LD_CLASSES; s++)
		parent[s] = -2;
	s = from * 2 + from_rec;
	parent[s] = -1;
	queue[tail++] = s;
	while (head < tail) {
		s = queue[head++];
		if (s / 2 == to && !((s & 1) && to_shared))
			goto found;
		for (e = ld_classes[s / 2].first_edge; e >= 0; e = ld_edges[e].next) {
			for (cb = 0; cb < 4; cb++) {
				int t = ld_edges[e].to * 2 + (int)(cb & 1);

				if (!(ld_edges[e].combos & (1U << cb)))
					continue;
				if ((s & 1) && (cb & 2))	/* entered recursive, held shared */
					continue;
				if (parent[t] != -2)
					continue;
				parent[t] = s;
				queue[tail++] = t;
			}
		}
	}
	return 0;
found:
	for (n = 0; s >= 0 && n < LD_CLASSES; s = parent[s])
		path[n++] = s / 2;
	return n;
}

/* ------------------------------------------------------------------ */
/* Splats */

static void ld_thread_name(char *buf, size_t len)
{
	char name[16] = "?";

	pthread_getname_np(pthread_self(), name, sizeof(name));
	snprintf(buf, len, "%s/%ld", name, (long)syscall(SYS_gettid));
}

static void ld_held_locks(struct ld_thread *t, const char *who)
{
	int i;

	fprintf(stderr, "\n%d lock%s held by %s:\n", t->n, t->n == 1 ? "" : "s", who);
	for (i = 0; i < t->n; i++)
		fprintf(stderr, " #%d: (%s){%s}, at: %s\n", i, t->held[i].name,
			t->held[i].read == LRCU_LOCK_RECURSIVE ? "read, recursive" :
			t->held[i].read ? "read" : "write", t->held[i].at);
}

static void ld_splat_end(void)
{
	fprintf(stderr, "\n *** DEADLOCK ***\n\n"
		"INFO: lockdep is turned off (one report only, as the kernel's).\n");
	funlockfile(stderr);
	lrcu__misuse();
}

/* Stop checking; true if this caller is the one to report. */
static bool ld_turn_off(void)
{
	if (xchg_relaxed(&ld_off, 1))	/* only decides who reports */
		return false;
	WRITE_ONCE(ld_splats, 1);	/* one splat ever: the flag above */
	return true;
}

static void ld_splat_circular(struct ld_thread *t, const struct ld_held *held,
			      const char *name, int read, const char *at, const int *path, int n)
{
	char who[64];
	int i;

	ld_thread_name(who, sizeof(who));
	flockfile(stderr);
	fprintf(stderr, "\n======================================================\n"
		"WARNING: possible circular locking dependency detected\n"
		"------------------------------------------------------\n"
		"%s is trying to acquire lock:\n (%s){%s}, at: %s\n\n"
		"but task is already holding lock:\n (%s){%s}, at: %s\n\n"
		"which lock already depends on the new lock.\n\n\n"
		"the existing dependency chain (in reverse order) is:\n",
		who, name, read ? "read" : "write", at, held->name,
		held->read ? "read" : "write", held->at);
	/* path[] runs from the held lock (path[0]) back to the new one. */
	for (i = 0; i < n; i++)
		fprintf(stderr, "\n-> #%d (%s):\n", n - 1 - i, ld_classes[path[i]].name);
	fprintf(stderr, "\nother info that might help us debug this:\n\n"
		" Chain exists of:\n   %s", ld_classes[path[n - 1]].name);
	for (i = n - 2; i >= 0; i--)
		fprintf(stderr, " --> %s", ld_classes[path[i]].name);
	fprintf(stderr, " --> %s\n", name);
	ld_held_locks(t, who);
	ld_splat_end();
}

static void ld_splat_recursive(struct ld_thread *t, const struct ld_held *held,
			       const char *name, const char *at)
{
	char who[64];

	ld_thread_name(who, sizeof(who));
	flockfile(stderr);
	fprintf(stderr, "\n============================================\n"
		"WARNING: possible recursive locking detected\n"
		"--------------------------------------------\n"
		"%s is trying to acquire lock:\n (%s){write}, at: %s\n\n"
		"but task is already holding lock:\n (%s){%s}, at: %s\n\n"
		"other info that might help us debug this:\n"
		" Possible unsafe locking scenario:\n\n"
		"       CPU0\n       ----\n  lock(%s);\n  lock(%s);\n",
		who, name, at, held->name, held->read ? "read" : "write", held->at, name, name);
	ld_held_locks(t, who);
	ld_splat_end();
}

/* ------------------------------------------------------------------ */
/* Checking one acquisition */

static bool ld_cached(struct ld_thread *t, const void *from, const void *to, unsigned int cb)
{
	unsigned int h = ld_hash_of((const char *)from + (uintptr_t)to) & (LD_CACHE - 1);

	return t->cache[h].from == from && t->cache[h].to == to && (t->cache[h].combos & (1U << cb));
}

static void ld_cache_add(struct ld_thread *t, const void *from, const void *to, unsigned int cb)
{
	unsigned int h = ld_hash_of((const char *)from + (uintptr_t)to) & (LD_CACHE - 1);

	if (t->cache[h].from != from || t->cache[h].to != to) {
		t->cache[h].from = from;
		t->cache[h].to = to;
		t->cache[h].combos = 0;
	}
	t->cache[h].combos |= 1U << cb;
}

/* The full check under ld_lock: false after a splat. */
static bool ld_check_locked(struct ld_thread *t, const void *key, const char *name, int read,
			    const char *at)
{
	static int path[LD_CLASSES];
	int i, to, from, n;
	unsigned int cb;

	to = ld_class(key, name, true);
	for (i = 0; i < t->n && to >= 0; i++) {
		const struct ld_held *h = &t->held[i];

		cb = LD_COMBO(h->read, read);
		if (ld_cached(t, h->key, key, cb))
			continue;
		from = ld_class(h->key, h->name, true);
		if (from < 0)
			break;
		if (!ld_edge_find(from, to) || !(ld_edge_find(from, to)->combos & (1U << cb))) {
			n = ld_strong_path(to, read == LRCU_LOCK_RECURSIVE, from, h->read != 0, path);
			if (n) {
				if (ld_turn_off())
					ld_splat_circular(t, h, name, read, at, path, n);
				return false;
			}
			if (!ld_edge_add(from, to, cb))
				break;
		}
		ld_cache_add(t, h->key, key, cb);
	}
	if ((to < 0 || i < t->n) && !ld_full_said) {
		ld_full_said = true;
		fprintf(stderr, "rcu: WARNING: lockdep: more than %d lock classes or %d "
			"dependencies: the rest are not checked\n", LD_CLASSES, LD_EDGES);
	}
	return true;
}

/* Is every dependency of this acquisition in the thread's cache? */
static bool ld_all_cached(struct ld_thread *t, const void *key, int read)
{
	int i;

	/* Relaxed: a generation; the graph's lock orders what it guards. */
	if (t->cache_gen != READ_ONCE(ld_gen)) {
		memset(t->cache, 0, sizeof(t->cache));
		t->cache_gen = READ_ONCE(ld_gen);
		return false;
	}
	for (i = 0; i < t->n; i++)
		if (!ld_cached(t, t->held[i].key, key, LD_COMBO(t->held[i].read, read)))
			return false;
	return true;
}

/* The checks of one acquisition (sync: not pushed); false after a splat. */
static bool ld_check(struct ld_thread *t, const void *key, const char *name, int read,
		     const char *at)
{
	bool ok = true;
	int i;

	for (i = 0; i < t->n; i++) {
		if (t->held[i].key != key)
			continue;
		if (read == LRCU_LOCK_RECURSIVE && t->held[i].read)
			return true;	/* nested reader: nothing new */
		if (ld_turn_off())
			ld_splat_recursive(t, &t->held[i], name, at);
		return false;
	}
	if (!t->n || ld_all_cached(t, key, read))
		return true;
	pthread_mutex_lock(&ld_lock);
	ok = ld_check_locked(t, key, name, read, at);
	pthread_mutex_unlock(&ld_lock);
	return ok;
}

/* ------------------------------------------------------------------ */
/* Entry points */

/* Relaxed: a flag set once; a late reader checks one acquisition more. */
#define LD_ACTIVE()	(!READ_ONCE(ld_off))

void lrcu_lock_acquire(const void *key, const char *name, int read, const char *at)
{
	struct ld_thread *t = &ld_self;

	if (!LD_ACTIVE() || t->busy)
		return;
	WRITE_ONCE(t->busy, 1);
	barrier();	/* ->busy before the stack, for this thread's handlers */
	if (ld_check(t, key, name, read, at) && t->n < LD_MAX_HELD) {
		t->held[t->n] = (struct ld_held){ key, name ? name : "?", at ? at : "?", read };
		t->n++;
	}
	barrier();	/* the stack before ->busy, for this thread's handlers */
	WRITE_ONCE(t->busy, 0);
}

void lrcu_lock_release(const void *key)
{
	struct ld_thread *t = &ld_self;
	int i;

	if (t->busy)
		return;
	WRITE_ONCE(t->busy, 1);
	barrier();	/* as in lrcu_lock_acquire() */
	for (i = t->n - 1; i >= 0; i--) {
		if (t->held[i].key != key)
			continue;
		memmove(&t->held[i], &t->held[i + 1], (size_t)(t->n - 1 - i) * sizeof(t->held[0]));
		t->n--;
		break;
	}
	barrier();
	WRITE_ONCE(t->busy, 0);
}

void lrcu_lock_sync(const void *key, const char *name, const char *at)
{
	struct ld_thread *t = &ld_self;

	if (!LD_ACTIVE() || t->busy || !t->n)
		return;
	WRITE_ONCE(t->busy, 1);
	barrier();	/* as in lrcu_lock_acquire() */
	ld_check(t, key, name, LRCU_LOCK_EXCLUSIVE, at);
	barrier();
	WRITE_ONCE(t->busy, 0);
}

void lrcu_lockdep_forget(const void *key)
{
	int c, e, next, prev, i;

	pthread_mutex_lock(&ld_lock);
	c = ld_class(key, NULL, false);
	if (c >= 0) {
		/* Its own edges back to the free list; edges into it unlinked. */
		for (e = ld_classes[c].first_edge; e >= 0; e = next) {
			next = ld_edges[e].next;
			ld_edges[e].next = ld_free_edge;
			ld_free_edge = e;
		}
		for (i = 0; i < LD_CLASSES; i++) {
			if (!ld_classes[i].key)
				continue;
			for (prev = -1, e = ld_classes[i].first_edge; e >= 0; e = next) {
				next = ld_edges[e].next;
				if (ld_edges[e].to != c) {
					prev = e;
					continue;
				}
				if (prev < 0)
					ld_classes[i].first_edge = next;
				else
					ld_edges[prev].next = next;
				ld_edges[e].next = ld_free_edge;
				ld_free_edge = e;
			}
		}
		ld_classes[c].key = NULL;
		/* Rebuild the hash without it (deletion in open addressing). */
		memset(ld_hash, 0, sizeof(ld_hash));
		for (i = 0; i < LD_CLASSES; i++) {
			unsigned int h;

			if (!ld_classes[i].key)
				continue;
			for (h = ld_hash_of(ld_classes[i].key); ld_hash[h];
			     h = (h + 1) & (LD_CLASS_HASH - 1))
				;
			ld_hash[h] = i + 1;
		}
		/* Release: the threads' caches are stale from now on (pairs
		 * with the relaxed check in ld_all_cached(), which the lock
		 * then orders). */
		smp_store_release(&ld_gen, ld_gen + 1);
	}
	pthread_mutex_unlock(&ld_lock);
}

unsigned long lrcu_lockdep_splats(void)
{
	return READ_ONCE(ld_splats);	/* a counter */
}
