/* SPDX-License-Identifier: MIT */
/*
 * debug.c - misuse detection: PROVE_RCU-style splats, debug objects for
 * rcu_head (DEBUG_OBJECTS_RCU_HEAD), calls that would deadlock.
 *
 * Every detected misuse bumps one counter (lrcu_misuse_count()), which the
 * torture harness reads.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "internal.h"

static unsigned long misuse_count;

void lrcu__misuse(void)
{
	atomic_inc(&misuse_count);	/* a counter: no ordering */
}

unsigned long lrcu_misuse_count(void)
{
	return READ_ONCE(misuse_count);	/* see lrcu__misuse() */
}

void lrcu__fatal(const char *fmt, ...)
{
	va_list ap;

	fputs("rcu: BUG: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fflush(stderr);
	abort();
}

/*
 * Messages from paths that may run in a signal handler (the read-side
 * markers are async-signal-safe, and so are their misuse reports): built
 * on the stack and written with one write(2).  No stdio (its lock may be
 * held by the interrupted code), no allocation.
 */
void lrcu__msg_str(struct lrcu_msg *m, const char *s)
{
	while (*s && m->len < sizeof(m->buf) - 1)
		m->buf[m->len++] = *s++;
	m->buf[m->len] = '\0';
}

void lrcu__msg_num(struct lrcu_msg *m, long v)
{
	char d[24];
	unsigned long u = v < 0 ? 0UL - (unsigned long)v : (unsigned long)v;
	int i = (int)sizeof(d) - 1;

	d[i] = '\0';
	do {
		d[--i] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		d[--i] = '-';
	lrcu__msg_str(m, d + i);
}

void lrcu__msg_write(const struct lrcu_msg *m)
{
	size_t off = 0;
	ssize_t n;

	while (off < m->len) {
		n = write(STDERR_FILENO, m->buf + off, m->len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		off += (size_t)n;
	}
}

void lrcu__msg_fatal(const struct lrcu_msg *m)
{
	lrcu__msg_write(m);
	abort();
}

/* "name/tid (slot N, rcu nesting N, sched nesting N[, offline])" */
static void thread_desc(struct lrcu_msg *m)
{
	char name[16] = "?";

	prctl(PR_GET_NAME, name);	/* this thread's: a system call */
	name[sizeof(name) - 1] = '\0';
	lrcu__msg_str(m, name);
	lrcu__msg_str(m, "/");
	lrcu__msg_num(m, (long)syscall(SYS_gettid));
	lrcu__msg_str(m, " (slot ");
	lrcu__msg_num(m, lrcu_reader.slot);
	lrcu__msg_str(m, ", rcu nesting ");
	lrcu__msg_num(m, (long)(READ_ONCE(lrcu_reader.rw->ctr[LRCU_PREEMPT]) &
			       LRCU_W_NEST_MASK));	/* our own word */
	lrcu__msg_str(m, ", sched nesting ");
	lrcu__msg_num(m, (long)((lrcu_reader.sched_nesting & LRCU_SN_DEPTH) / LRCU_SN_DEPTH_ONE));
	lrcu__msg_str(m, (lrcu_reader.flags & LRCU_R_OFFLINE) ? ", offline)" : ")");
}

/* ------------------------------------------------------------------ */
/* Lock rules (lockdep.h) */

#ifdef LRCU_DEBUG
/*
 * The caller's thread id (lock.c's, cached), which lock.h and glibc
 * record as a lock's holder.  A fork() child's thread has a new one, but
 * holds the locks its parent's thread took before the fork until
 * fork_locks() lets go of them: it answers to both ids.
 */
static __thread int tid_before_fork;

int lrcu__debug_tid(void)
{
	return lrcu__tid();
}

bool lrcu__debug_held_by_me(int owner)
{
	return owner && (owner == lrcu__debug_tid() || owner == tid_before_fork);
}

static void debug_tid_fork(enum lrcu_fork_phase ph)
{
	if (ph == LRCU_FORK_PREPARE)
		tid_before_fork = lrcu__debug_tid();
	else if (ph == LRCU_FORK_PARENT)
		tid_before_fork = 0;
	/* (The child's own id: fork_child() reset lock.c's cache.) */
}

void lrcu__lock_rule_broken(const char *what, const char *lock, const char *file, int line)
{
	struct lrcu_msg m = { 0 };

	if (*lock == '&')
		lock++;
	lrcu__msg_str(&m, "rcu: lock rule broken: ");
	if (what) {
		lrcu__msg_str(&m, what);
		lrcu__msg_str(&m, " written without ");
		lrcu__msg_str(&m, lock);
		lrcu__msg_str(&m, " held");
	} else {
		lrcu__msg_str(&m, lock);
		lrcu__msg_str(&m, " not held");
	}
	lrcu__msg_str(&m, " at ");
	lrcu__msg_str(&m, file);
	lrcu__msg_str(&m, ":");
	lrcu__msg_num(&m, line);
	lrcu__msg_str(&m, ", thread ");
	thread_desc(&m);
	lrcu__msg_str(&m, "\n");
	lrcu__msg_fatal(&m);
}
#else
static void debug_tid_fork(enum lrcu_fork_phase ph)
{
	(void)ph;
}
#endif

/* The kernel's lockdep-RCU splat, once per call site unless once is NULL. */
void lrcu_lockdep_splat(const char *file, int line, const char *msg, bool *once)
{
	struct lrcu_msg who = { 0 };

	lrcu__misuse();
	/* Only decides who prints; orders nothing. */
	if (once && xchg_relaxed(once, true))
		return;
	thread_desc(&who);
	flockfile(stderr);
	fprintf(stderr, "\n=============================\n"
		"WARNING: suspicious RCU usage\n"
		"-----------------------------\n"
		"%s:%d %s!\n\n"
		"other info that might help us debug this:\n\n"
		"thread %s\n\n", file, line, msg, who.buf);
	funlockfile(stderr);
}

/*
 * Report a misuse at most once per distinct message (they come from fast
 * paths that would otherwise flood the log); always count it.  Async-
 * signal-safe: the read-side markers' misuse paths come here.
 */
static void report_once(const char *prefix, const char *what)
{
	static const char *seen[32];
	struct lrcu_msg m = { 0 };
	unsigned int i;

	lrcu__misuse();
	for (i = 0; i < ARRAY_SIZE(seen); i++) {
		/* Pairs with the CAS below (messages are string literals). */
		const char *s = smp_load_acquire(&seen[i]);

		if (s == what)
			return;
		if (!s) {
			const char *expected = NULL;

			if (try_cmpxchg(&seen[i], &expected, what))	/* see the load */
				break;
			if (expected == what)
				return;
		}
	}
	lrcu__msg_str(&m, "rcu: WARNING: ");
	lrcu__msg_str(&m, prefix);
	lrcu__msg_str(&m, what);
	lrcu__msg_str(&m, " in thread ");
	thread_desc(&m);
	lrcu__msg_str(&m, "\n");
	lrcu__msg_write(&m);
}

void lrcu_read_misuse(const char *what)
{
	report_once("", what);
}

void lrcu__read_lock_unregistered(const char *what)
{
	lrcu__reader_unprotected(what);
	report_once("read-side critical section outside RCU's view (call "
		    "rcu_register_thread() first): ", what);
}

/* Blocking calls that would deadlock or break a read-side section. */
void lrcu__check_blocking(enum lrcu_flavor f, const char *caller)
{
	struct lrcu_reader *r = &lrcu_reader;

	if (r->flags & LRCU_R_IN_CALLBACK)
		lrcu__fatal("%s() called from an RCU callback: it would wait for the "
			   "callback thread that is running it", caller);
	if (lrcu__sched_counted())
		lrcu__fatal("%s() called inside rcu_read_lock_sched(): an rcu_sched "
			   "read-side critical section must not block%s", caller,
			   f == LRCU_SCHED ? " (and it would wait for itself)" : "");
	if (f == LRCU_PREEMPT && rcu_read_lock_held())
		lrcu__fatal("%s() called inside rcu_read_lock(): it would wait for "
			   "its own read-side critical section", caller);
}

/* ------------------------------------------------------------------ */
/* Debug objects for rcu_head: an address-keyed table of tracked heads. */

enum { ODEBUG_INIT, ODEBUG_ACTIVE };

struct dobj {
	struct rcu_head *head;
	int state;
	bool on_stack;
	struct dobj *next;
};

#define DOBJ_BUCKETS 1024
static struct {
	pthread_mutex_t lock;
	struct dobj *chain;
} dobj_table[DOBJ_BUCKETS];
/*
 * Every bucket operation holds dobj_gate for reading (bucket_lock()), so a
 * fork() takes one lock, the gate for writing, instead of all the bucket
 * locks (more locks than ThreadSanitizer tracks for one thread): with the
 * gate held no bucket lock is, in the parent or in the child.  Writers
 * are preferred, so a stream of call_rcu() does not hold a fork() off.
 */
static pthread_rwlock_t dobj_gate;
static pthread_once_t dobj_once = PTHREAD_ONCE_INIT;
static bool dobj_ready;		/* the table's locks exist (set once) */

static void gate_init(void)
{
	pthread_rwlockattr_t a;

	pthread_rwlockattr_init(&a);
	pthread_rwlockattr_setkind_np(&a, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
	pthread_rwlock_init(&dobj_gate, &a);
	pthread_rwlockattr_destroy(&a);
}

static void dobj_init(void)
{
	int i;

	gate_init();
	for (i = 0; i < DOBJ_BUCKETS; i++)
		pthread_mutex_init(&dobj_table[i].lock, NULL);
	smp_store_release(&dobj_ready, true);	/* pairs with lrcu__debug_shutdown() */
}

static void bucket_lock(unsigned int b)
{
	pthread_once(&dobj_once, dobj_init);
	pthread_rwlock_rdlock(&dobj_gate);
	pthread_mutex_lock(&dobj_table[b].lock);
}

static void bucket_unlock(unsigned int b)
{
	pthread_mutex_unlock(&dobj_table[b].lock);
	pthread_rwlock_unlock(&dobj_gate);
}

/*
 * The gate is made ready here if nobody has used it yet: deciding by
 * dobj_ready at each phase would let a thread that initialises the table
 * between prepare and parent make the parent unlock a gate it never
 * locked (seen: the next fork() hung in its wrlock).
 */
void lrcu__debug_fork(enum lrcu_fork_phase ph)
{
	debug_tid_fork(ph);
	if (ph == LRCU_FORK_PREPARE) {
		pthread_once(&dobj_once, dobj_init);
		pthread_rwlock_wrlock(&dobj_gate);
	}
	else if (ph == LRCU_FORK_PARENT)
		pthread_rwlock_unlock(&dobj_gate);
	else
		gate_init();	/* the writer's thread id changed: a new, free one */
}

/* rcu_shutdown(): every callback has run; forget the objects left
 * (initialised heads never destroyed). */
void lrcu__debug_shutdown(void)
{
	struct dobj *o;
	int i;

	if (!smp_load_acquire(&dobj_ready))	/* see dobj_init() */
		return;
	for (i = 0; i < DOBJ_BUCKETS; i++) {
		bucket_lock((unsigned int)i);
		while ((o = dobj_table[i].chain)) {
			dobj_table[i].chain = o->next;
			free(o);
		}
		bucket_unlock((unsigned int)i);
	}
}

static unsigned int dobj_hash(const struct rcu_head *h)
{
	uintptr_t x = (uintptr_t)h >> 4;

	return (unsigned int)((x ^ (x >> 10) ^ (x >> 20)) % DOBJ_BUCKETS);
}

/* Find h's entry; with `create', add one.  Bucket lock held. */
static struct dobj *dobj_find(unsigned int b, struct rcu_head *h, bool create)
{
	struct dobj *o;

	for (o = dobj_table[b].chain; o; o = o->next)
		if (o->head == h)
			return o;
	if (!create)
		return NULL;
	o = calloc(1, sizeof(*o));
	if (!o)
		lrcu__fatal("debug_objects: out of memory");
	o->head = h;
	o->state = ODEBUG_INIT;
	o->next = dobj_table[b].chain;
	dobj_table[b].chain = o;
	return o;
}

static void dobj_remove(unsigned int b, struct rcu_head *h)
{
	struct dobj **pp, *o;

	for (pp = &dobj_table[b].chain; (o = *pp); pp = &o->next)
		if (o->head == h) {
			*pp = o->next;
			free(o);
			return;
		}
}

static void odebug_splat(const char *op, struct rcu_head *h)
{
	struct lrcu_msg who = { 0 };

	lrcu__misuse();
	thread_desc(&who);
	fprintf(stderr, "------------[ cut here ]------------\n"
		"ODEBUG: %s active (active state 0) object type: rcu_head hint: %p\n"
		"WARNING: rcu_head %p: %s\n"
		"thread %s\n"
		"---[ end trace ]---\n", op, (void *)h->func, (void *)h,
		!strcmp(op, "activate") ? "double call_rcu() (the head is already queued)" :
		"freed or re-initialised while queued for a callback", who.buf);
}

bool lrcu__debug_head_queue(struct rcu_head *head)
{
	unsigned int b = dobj_hash(head);
	struct dobj *o;
	bool ok = true;

	bucket_lock(b);
	o = dobj_find(b, head, true);
	if (o->state == ODEBUG_ACTIVE)
		ok = false;
	else
		o->state = ODEBUG_ACTIVE;
	bucket_unlock(b);
	if (!ok)
		odebug_splat("activate", head);
	return ok;
}

void lrcu__debug_head_unqueue(struct rcu_head *head)
{
	unsigned int b = dobj_hash(head);
	struct dobj *o;

	bucket_lock(b);
	o = dobj_find(b, head, false);
	if (o) {
		if (o->on_stack)
			o->state = ODEBUG_INIT;	/* kept until destroy_*_on_stack() */
		else
			dobj_remove(b, head);
	}
	bucket_unlock(b);
}

void lrcu_head_debug(struct rcu_head *head, enum lrcu_head_op op)
{
	unsigned int b = dobj_hash(head);
	struct dobj *o;
	bool active = false;

	if (!READ_ONCE(lrcu__params.debug_objects))
		return;
	bucket_lock(b);
	switch (op) {
	case LRCU_HEAD_INIT:
	case LRCU_HEAD_INIT_ON_STACK:
		o = dobj_find(b, head, true);
		active = o->state == ODEBUG_ACTIVE;
		o->on_stack = op == LRCU_HEAD_INIT_ON_STACK;
		break;
	case LRCU_HEAD_DESTROY:
	case LRCU_HEAD_DESTROY_ON_STACK:
		o = dobj_find(b, head, false);
		active = o && o->state == ODEBUG_ACTIVE;
		if (!active)
			dobj_remove(b, head);
		break;
	}
	bucket_unlock(b);
	if (active)
		odebug_splat(op <= LRCU_HEAD_INIT_ON_STACK ? "init" : "free", head);
}
