rcutorture.stall_cpu=8
rcutorture.stall_cpu_holdoff=3
rcutorture.shutdown_secs=20
