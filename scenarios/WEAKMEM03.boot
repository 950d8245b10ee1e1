maxcpus=4
rcupdate.rcu_expedited=1
rcutorture.fwd_progress=0
