rcuscale.scale_type=rcu,sched,srcu rcuscale.gp_barrier=1 rcuscale.nwriters=1 rcuscale.nreaders=0,1 rcuscale.gps=200
