rcutorture.torture_type=tasks
rcutorture.stat_interval=60
