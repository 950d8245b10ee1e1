rcutorture.fwd_progress=0
