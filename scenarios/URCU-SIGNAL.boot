rcutorture.torture_type=urcu-signal
