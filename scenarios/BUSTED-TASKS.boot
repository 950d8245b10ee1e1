rcutorture.torture_type=tasks-busted
