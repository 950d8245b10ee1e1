rcuscale.scale_type=rcu,urcu-memb,ck-epoch,sched,urcu-qsbr,dpdk-qsbr rcuscale.nwriters=1 rcuscale.nreaders=0,1,4,8 rcuscale.gps=100
