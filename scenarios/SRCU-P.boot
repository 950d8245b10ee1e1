rcutorture.torture_type=srcud
rcupdate.rcu_self_test=1
rcutorture.fwd_progress=3
# srcutree.big_cpu_lim=5 (the kernel's): no srcu_node tree here, nothing
# to convert to a big one: not applicable.
