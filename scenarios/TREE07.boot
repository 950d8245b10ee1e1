nohz_full=2-9
rcutorture.fqs_duration=100
rcutorture.fqs_holdoff=50
