rcutorture.nreaders=4
rcutorture.fwd_progress=0
