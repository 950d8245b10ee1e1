rcuscale.scale_type=rcu,sched,srcu,srcud rcuscale.gp_exp=0,1 rcuscale.nwriters=1,2 rcuscale.nreaders=0,1 rcuscale.gps=200
