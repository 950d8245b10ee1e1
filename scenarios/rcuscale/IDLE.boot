rcuscale.scale_type=rcu,sched rcuscale.nidle=1,16,256,1024 rcuscale.nwriters=1 rcuscale.nreaders=0 rcuscale.gps=200
