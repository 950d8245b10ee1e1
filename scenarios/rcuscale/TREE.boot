rcuscale.scale_type=rcu,sched,srcu rcuscale.nwriters=1,2 rcuscale.nreaders=0,1,4 rcuscale.gps=200
