maxcpus=7
rcu_nocbs=1,3-4
rcu_nocb_poll
rcutorture.nocbs_nthreads=2
rcutorture.nocbs_toggle=300
rcutorture.fwd_progress_holdoff=5
rcutree.jiffies_lazy_flush=100
