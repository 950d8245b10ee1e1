rcutorture.torture_type=tasks-tracing
rcutorture.fwd_progress=2
