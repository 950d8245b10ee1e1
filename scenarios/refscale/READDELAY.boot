refscale.scale_type=rcu,sched,srcu refscale.readdelay=1000 refscale.loops=2000 refscale.nreaders=1,4 refscale.updater=0,1
