rcutorture.torture_type=urcu-qsbr
