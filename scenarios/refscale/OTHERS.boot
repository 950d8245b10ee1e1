refscale.scale_type=rcu,urcu-memb,ck-epoch,sched,urcu-qsbr,dpdk-qsbr refscale.nreaders=1,4
