rcu_nocbs=0-7
rcutorture.fwd_progress=1
rcutorture.fwd_progress_holdoff=10
