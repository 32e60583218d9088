rb_target='model SSD ssd:block=16,op=7,read=100us,program=400us,erase=1ms,channels=4, 4m'
rb_about='random 4 KiB writes (--sync none), QD 1'
rb_duration='rounds of 0.5 s'
rb_made='rebench 0.1.0, 2026-11-28 17:38'
round_s='0.5'; ss_fresh='steady 12 16 9.463268654 6.658290319'; ss_pre='steady 3 7 11.13515339 4.608220535'
fresh_ops=2214.116614; steady_wa=6.184; steady_ops=277.9616457; steady_implied=291.5
