maxcpus=4
rcupdate.use_membarrier=0
rcutorture.fwd_progress=0
