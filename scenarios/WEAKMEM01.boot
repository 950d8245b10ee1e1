maxcpus=4
rcutorture.fwd_progress=0
