maxcpus=6
rcu_nocb_poll
rcutree.rcu_nocb_gp_stride=2
rcutorture.fwd_progress_holdoff=5
