maxcpus=4
rcutorture.torture_type=srcu
