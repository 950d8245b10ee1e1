/* The example of docs/api.md: an RCU-protected configuration pointer. */
#include <rcu/rcupdate.h>
#include <stdio.h>
#include <stdlib.h>

struct config {
	int value;
	struct rcu_head rh;
};
static struct config __rcu *current;

static int read_value(void)
{
	int v;

	rcu_read_lock();
	v = rcu_dereference(current)->value;
	rcu_read_unlock();
	return v;
}

static void update_value(int v)
{
	struct config *c = malloc(sizeof(*c)), *old;

	c->value = v;
	old = rcu_dereference_protected(current, 1);	/* single updater */
	rcu_assign_pointer(current, c);
	if (old)
		kfree_rcu(old, rh);	/* free after a grace period */
}

int main(void)
{
	if (rcu_register_thread()) {	/* readers must be registered */
		perror("rcu_register_thread (raise nr_cpus?)");
		return 1;
	}
	update_value(1);
	update_value(2);
	printf("value=%d\n", read_value());
	rcu_barrier();			/* wait for pending kfree_rcu() */
	rcu_unregister_thread();
	return 0;
}
