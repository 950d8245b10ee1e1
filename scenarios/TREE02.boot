rcutorture.n_barrier_cbs=8
