rcutorture.torture_type=ck-epoch rcutorture.n_barrier_cbs=2 rcutorture.onoff_interval=1000
