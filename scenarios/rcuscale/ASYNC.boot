rcuscale.scale_type=rcu,sched,srcu rcuscale.gp_async=1 rcuscale.nwriters=1,2 rcuscale.nreaders=1 rcuscale.gps=2000
