rcutorture.torture_type=urcu-bp
