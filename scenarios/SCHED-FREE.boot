rcutorture.torture_type=sched-free
rcutorture.onoff_holdoff=1
rcutorture.onoff_interval=100
