rcuscale.scale_type=rcu,urcu-memb,sched,urcu-qsbr rcuscale.nwriters=1,2 rcuscale.nreaders=0,1,4,8 rcuscale.gps=100
