rcutorture.torture_type=ck-epoch-busted
