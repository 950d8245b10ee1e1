rcuscale.scale_type=rcu,sched,srcu rcuscale.kfree_rcu_test=1 rcuscale.kfree_nthreads=1,-1
