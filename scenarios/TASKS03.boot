rcutorture.torture_type=tasks nohz_full=1
