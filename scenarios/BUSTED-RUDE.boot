rcutorture.torture_type=tasks-rude-busted
