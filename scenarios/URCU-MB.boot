rcutorture.torture_type=urcu-mb
