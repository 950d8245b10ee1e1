rcutorture.torture_type=srcu
rcutorture.fwd_progress=3
