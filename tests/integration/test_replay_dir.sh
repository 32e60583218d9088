#!/usr/bin/env bash
# test_replay_dir.sh - rebench --replay LOG DIR (issue 14, Replay): every
# recorded file in a file of its own, on an ext4 filesystem on a loop
# device.  From logs written by hand:
#  - names: the recorded basename, ".2" for the second file of that name;
#    lengths: each file's extent (after --replay-align);
#  - routing: with a fixed --seed every write of one worker carries the
#    same bytes, so the blocks the log wrote hold them, in the right file
#    at the right offset, and the blocks it did not write hold the layout
#    (were every write sent to one file, the blocks would say so);
#  - two threads on two files, with the stateful engine (a descriptor per
#    worker and file) and the stateless one (shared descriptors);
#  - a flush of a file never read or written flushes the directory;
#  - files that exist are used when long enough, with confirmation;
#  - refusals that run nothing: no such directory, a file too short, one
#    that is not regular, an unmapped recorded file, writes without
#    confirmation, engines that bind one descriptor (uring, mmap).
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_cmd jq dd cksum mkfs.ext4 cmp
S=$(realpath "$SCRATCH")
DEV=$(make_loop 64M)
mkfs.ext4 -q -F "$DEV" >/dev/null 2>&1 || fail "mkfs.ext4 $DEV"
mount_dev "$DEV" "$S/fs"
D=$S/fs/r
mkdir -p "$D"

# blk FILE N: sha256 of 4 KiB block N of FILE
blk() { dd if="$1" bs=4096 skip="$2" count=1 status=none | data_sum; }

# Writes to /x/a (blocks 0 and 2), /y/a (block 1), a read of /z/b (block
# 0), and an fsync of /x, a directory the log never read or wrote.
cat >"$S/three.log" <<'EOF'
# rebench-trace 1
1000 1/1 pwrite 3 /x/a 0 4096 4096 1000 -
2000 1/1 pwrite 4 /y/a 4096 4096 4096 1000 -
3000 1/1 pread 5 /z/b 0 4096 4096 1000 -
4000 1/1 pwrite 3 /x/a 8192 4096 4096 1000 -
5000 1/1 fsync 6 /x - - 0 1000 -
EOF

section "three files, two of one name, O_DIRECT"
rb --replay "$S/three.log" --seed 11 -y --json "$D"
assert_rc 0 "replay onto $D"
assert_eq "12288 8192 4096" "$(stat -c %s "$D/a" "$D/a.2" "$D/b" | tr '\n' ' ' | sed 's/ $//')" "a, a.2 and b as long as their extents"
assert_eq "$D 3 1 5" "$(jqr '"\(.replay.target) \(.replay.files) \(.replay.workers) \(.replay.operations)"')" "the replay object: the directory, 3 files, one worker, 5 operations"
assert_eq "3 1 1" "$(jqr '.workloads[0].results.operations | "\(.write.ios) \(.read.ios) \(.fsync.ios)"')" "3 writes, a read and a fsync ran"
assert_eq 1 "$(jqr '.workloads | length')" "one workload reported: the replay"
assert_match "created $D/a.2 and laid out" "$(jqr '.workloads[0].warnings[]')" "the other files' creation is said"
digest=$(jqr .replay.digest)
# random bytes where the layout was: a worker's write buffer holds the
# same pattern as a layout of the same seed, so only other bytes tell
# written blocks from the rest
for f in a a.2 b; do
	dd if=/dev/urandom of="$D/$f" bs=4096 count=$(($(stat -c %s "$D/$f") / 4096)) conv=notrunc status=none
done
rb_ok "again, onto the files as they are" --replay "$S/three.log" --seed 11 -y "$D"
w=$(blk "$D/a" 0)
assert_eq "$w" "$(blk "$D/a" 2)" "a: blocks 0 and 2 hold the worker's write"
assert_eq "$w" "$(blk "$D/a.2" 1)" "a.2: block 1 holds the worker's write"
assert_ne "$w" "$(blk "$D/a" 1)" "a: block 1 was not written"
assert_ne "$w" "$(blk "$D/a.2" 0)" "a.2: block 0 was not written"
assert_ne "$w" "$(blk "$D/b" 0)" "b was only read"

rb --replay "$S/three.log" --replay-mode grouped -y "$D"
assert_rc 0 "the files exist now and are long enough: used as they are"
assert_match "^Replay: grouped of $S/three.log \(rebench-trace, digest $digest\)" "$RB_OUT" "human: the same digest"
assert_match "^    /x/a -> $D/a \(12288 bytes\)" "$RB_OUT" "human: /x/a's file"
assert_match "^    /y/a -> $D/a.2 \(8192 bytes\)" "$RB_OUT" "human: /y/a's file"
assert_match "^    /z/b -> $D/b \(4096 bytes\)" "$RB_OUT" "human: /z/b's file"
assert_match "^  5 operations of 3 files onto $D, each file in a file of its own \(24576 bytes in all\)" "$RB_OUT" "human: the map"

section "files that exist: confirmation, and their other bytes kept"
rm -f "$D"/*
dd if=/dev/urandom of="$D/a" bs=4096 count=4 status=none
cp "$D/a" "$S/a.before"
rb --replay "$S/three.log" "$D"
assert_rc 1 "writes to an existing file without confirmation"
assert_match "refusing to write to $D/a without confirmation" "$RB_ERR" "it names the file"
cmp -s "$D/a" "$S/a.before" && pass "unconfirmed: a unchanged" || check_failed "unconfirmed: a changed"
[ ! -e "$D/b" ] && pass "unconfirmed: nothing created" || check_failed "unconfirmed: b created"
rb_ok "confirmed with -y" --replay "$S/three.log" --seed 11 -y "$D"
assert_eq 16384 "$(stat -c %s "$D/a")" "a keeps its length"
assert_eq "$(blk "$S/a.before" 1)" "$(blk "$D/a" 1)" "a: block 1 kept"
assert_eq "$(blk "$S/a.before" 3)" "$(blk "$D/a" 3)" "a: block 3 kept"
assert_ne "$(blk "$S/a.before" 0)" "$(blk "$D/a" 0)" "a: block 0 replaced"

section "two threads on two files, per-worker descriptors"
cat >"$S/two.log" <<'EOF'
# rebench-trace 1
1000 1/1 pwrite 3 /p/a 0 4096 4096 1000 -
1100 1/2 pwrite 4 /p/a 4096 4096 4096 1000 -
2000 1/1 pwrite 5 /p/b 0 4096 4096 1000 -
2100 1/2 pwrite 6 /p/b 4096 4096 4096 1000 -
EOF
for eng in stateful stateless; do
	rm -f "$D"/*
	rb_ok "two threads, -t $eng" --replay "$S/two.log" --seed 5 -t "$eng" -y --json "$D"
	assert_eq 2 "$(jqr .replay.workers)" "$eng: two workers"
	t1=$(blk "$D/a" 0) t2=$(blk "$D/a" 1)
	assert_ne "$t1" "$t2" "$eng: the threads wrote different bytes"
	assert_eq "$t1" "$(blk "$D/b" 0)" "$eng: thread 1/1's write of b in block 0"
	assert_eq "$t2" "$(blk "$D/b" 1)" "$eng: thread 1/2's write of b in block 1"
done
rb_ok "timed onto the directory, -t paio" --replay "$S/two.log" --replay-mode timed -t paio -y --json "$D"
assert_eq "4 true" "$(jqr '"\(.workloads[0].results.ios) \(.replay.timed | has("kept_up"))"')" "timed with an async engine"

section "refusals run nothing"
rm -rf "$D"/*
assert_refused "no such directory" "$S/nodir/: no such directory; .*mkdir -p" --replay "$S/three.log" -y "$S/nodir/"
mkdir "$D/a"
assert_refused "a file that is a directory" "$D/a \\(for the recorded /x/a of .*\\) is not a regular file" --replay "$S/three.log" -y "$D"
rmdir "$D/a"
printf 'short' >"$D/b"
assert_refused "a file too short" "$D/b has 5 bytes, but the recorded /z/b of .* reaches byte 4096" --replay "$S/three.log" -y "$D"
rm -f "$D/b"
printf '# rebench-trace 1\n1000 1/1 pwrite 3 /x/.. 0 4096 4096 1000 -\n' >"$S/dotdot.log"
assert_refused "an unmapped file" "the recorded file /x/\.\. is unmapped: its path has no last component" --replay "$S/dotdot.log" -y "$D"
for eng in uring mmap; do
	assert_refused "-t $eng" "-t $eng binds one file's descriptor" --replay "$S/three.log" -t "$eng" -p -y "$D"
done
assert_eq "" "$(ls "$D")" "refused replays created nothing"

pass
