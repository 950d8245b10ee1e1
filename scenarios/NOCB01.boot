maxcpus=8
rcu_nocbs=all
rcutree.rcu_nocb_gp_stride=3
rcutorture.nocbs_nthreads=8
rcutorture.nocbs_toggle=100
rcutorture.fwd_progress_holdoff=5
