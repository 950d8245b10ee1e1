refscale.scale_type=rcu,urcu-memb,sched,urcu-qsbr,urcu-mb,urcu-signal,urcu-bp refscale.nreaders=1,4
