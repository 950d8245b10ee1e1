rcutorture.torture_type=trivial-preempt
rcutorture.onoff_interval=0
rcutorture.shuffle_interval=0
