rcutorture.torture_type=tasks-tracing
