refscale.scale_type=rcu,rcu_bh,sched,srcu,srcud refscale.nreaders=1,2,4 refscale.updater=0,1
