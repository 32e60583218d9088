rb_target='model disk /dev/loopA: 7200 rpm, seek 0.5 ms to 8 ms, 341 tracks of 256 KiB to 128 KiB, switch 1 ms, read-ahead 128 KiB, 64 MiB'
rb_about='reads at QD 1, O_DIRECT'
rb_duration='2 runs of 100 random reads a point, 2 of 16 MiB sequential, each zone once (6 MiB)'
rb_made='rebench hdd-study.sh, 2026-11-28 17:38'
