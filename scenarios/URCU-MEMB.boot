rcutorture.torture_type=urcu-memb
