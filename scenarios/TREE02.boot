rcutorture.n_barrier_cbs=8
rcupdate.rcu_expedited=1
