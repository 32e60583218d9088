#!/usr/bin/env bash
# test_many_files.sh - one workload over many files (issue 32, part 3):
# --directory DIR --nrfiles N --filesize SIZE, and a list of files as
# TARGET (several TARGET words, fio's --filename a:b:c), on an ext4 file
# system on a loop device this test makes.  Every run is byte-limited (-d
# as bytes or a share), so nothing depends on time:
#  - rr reads: every file exactly I/Os/N (the JSON's files array), the
#    files created (DIR/rebench.0.I, --filesize long) and kept after a
#    complete run, as a single new file is; with -c 2, naio and uring at
#    depth 8, stateful with -l: still exactly I/Os/N each;
#  - random: every file hit, the total exact, chi-square over the files
#    below its 0.1% point; zipf:1.2: file 0 the most, near its share
#    1/H(8, 1.2);
#  - sequential writes into sparse files (a list): each file written from
#    its own start, so its allocated bytes and its first hole are exactly
#    its bytes_written, which add up to the total;
#  - -d 100% over the set: one pass over every file, no wrap warning;
#  - a fault removes what the run created (a file system too small for
#    the files: the layout fails with ENOSPC, status 2, none left);
#  - safety: a file of the list that backs a mounted loop device is
#    refused (status 2, data unchanged); writes to existing files need
#    confirmation (status 1 without a terminal);
#  - refusals before any I/O, status 1, nothing created: --nrfiles without
#    --filesize on a new directory, a --directory that does not exist or is
#    on sysfs, --nrfiles 0, --filesize below -b, a TARGET and --directory
#    together, a list naming a block device or one file twice (also as a
#    hard link), -t mmap, --verify, --sync fsync:N, --nrfiles without
#    --directory, a bad --file-service.
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_cmd jq mkfs.ext4 python3 stat
S=$(realpath "$SCRATCH")
DEV=$(make_loop 64M)
mkfs.ext4 -q -F "$DEV" >/dev/null 2>&1 || fail "mkfs.ext4 $DEV"
mount_dev "$DEV" "$S/fs"
D=$S/fs/d
mkdir -p "$D"

# counts: the files' I/Os of the last JSON run, space-separated
counts() { jqr '[.workloads[0].results.files[].ios] | map(tostring) | join(" ")'; }
# nfiles DIR: the entries in DIR
nfiles() { find "$1" -mindepth 1 -maxdepth 1 | wc -l; }

section "rr reads over 8 new files of 1 MiB: 64 I/Os each"
rb --directory "$D" --nrfiles 8 --filesize 1m -b 4k -d 2m --seed 1 --json
assert_rc 0 "rr reads over 8 new files"
assert_eq "64 64 64 64 64 64 64 64" "$(counts)" "every file got 512/8 = 64 I/Os"
jq_later "$RB_OUT" 512 '.workloads[0].results.ios' "512 I/Os in all"
jq_later "$RB_OUT" rr '.workloads[0].results.file_service' "file_service rr"
jq_later "$RB_OUT" "$D/rebench.0.0 $D/rebench.0.7" '.workloads[0].results.files | "\(.[0].path) \(.[7].path)"' "the files are DIR/rebench.W.I"
jq_later "$RB_OUT" "true" '[.workloads[0].results.files[].created] | all' "each was created by the run"
jq_later "$RB_OUT" 262144 '.workloads[0].results.files[3].bytes_read' "file 3: 64 x 4 KiB read"
jq_later "$RB_OUT" 0 '[.workloads[0].results.files[].writes] | add' "no writes"
jq_flush
assert_match "^created 8 files in $D \\(rebench.0.0 to rebench.0.7\\) and laid out 8 MiB of non-zero data" "$(jqr '.workloads[0].warnings[]')" "the creation is said"
assert_eq "8" "$(nfiles "$D")" "the 8 files stay after a complete run (as a single new file does)"
assert_eq "1048576" "$(stat -c %s "$D/rebench.0.5")" "each --filesize long"
rb_ok "the human output" --directory "$D" --nrfiles 8 --filesize 1m -b 4k -d 2m --seed 1
assert_match "^Benchmarking results for \[8 files in $D \(rebench\.0\.0 to rebench\.0\.7\)\] \(1 MiB each\)" "$RB_OUT" "the header names the set"
assert_match "^Files: 8 files in $D .*--file-service rr; I/Os per file: min 64, max 64, mean 64\.0$" "$RB_OUT" "one Files: line: the service and the spread"
assert_no_match "created" "$RB_OUT" "files that exist are not created again"
rb_ok "-n" --directory "$D" --nrfiles 8 --filesize 1m -b 4k -d 2m --seed 1 -n
assert_eq "files 1 8 rr 64 64 64.0" "$(grep '^files ' <<<"$RB_OUT")" "-n: the files line (the Files: line's figures)"

# built NAME: this rebench has engine NAME (not "not available")
built() {
	"$REBENCH" --engines | awk -v e="$1" '
		$1 == e { found = 1; next }
		found == 1 { if (/not available/) found = 0; else found = 2 }
		END { exit !found }'
}
ENGINES=("-t stateful" "-t stateless -c 2" "-t stateful -c 2 -l" "-t paio -q 4")
built naio && ENGINES+=("-t naio -q 8 --batch 4")
built uring && ENGINES+=("-t uring -q 8")
for e in "${ENGINES[@]:1}"; do
	# shellcheck disable=SC2086
	rb_ok "rr with $e" --directory "$D" --nrfiles 8 --filesize 1m -b 4k -d 2m --seed 1 --json $e
	assert_eq "64 64 64 64 64 64 64 64" "$(counts)" "rr with $e: 64 I/Os each"
done

# a deadline cancels what is in flight: neither the total nor a file
# counts it (the sum is exact however many ran)
for e in "${ENGINES[@]}"; do
	case $e in *-q*) ;; *) continue ;; esac
	# shellcheck disable=SC2086
	rb_ok "200 ms with $e" --directory "$D" --nrfiles 8 --filesize 1m -b 4k -d 200ms --json $e
	assert_eq "$(jqr '.workloads[0].results.ios')" "$(jqr '[.workloads[0].results.files[].ios] | add')" "$e, timed: the files' I/Os add up to the total"
done

section "two stdin lines, two sets of files (W), a dry run"
printf -- '--directory %s --nrfiles 2 --filesize 1m -b 4k -d 64k\n--directory %s --nrfiles 3 --filesize 1m -b 4k -d 96k --file-service random\n' "$D" "$D" >"$S/lines"
rb_ok "two lines" --json --seed 5 <"$S/lines"
jq_later "$RB_OUT" "$D/rebench.0.1 $D/rebench.1.2" '"\(.workloads[0].results.files[1].path) \(.workloads[1].results.files[2].path)"' "line 1's files are rebench.0.I, line 2's rebench.1.I"
jq_later "$RB_OUT" "16 24" '"\([.workloads[0].results.files[].ios] | add) \([.workloads[1].results.files[].ios] | add)"' "each line's files add up to its own I/Os"
rb_ok "a dry run" --directory "$D" --nrfiles 8 --filesize 1m -o write --dry-run -y
assert_match "workload 1: 8 files in $D \(rebench.0.0 to rebench.0.7\): write \(writes: confirmed by --yes\)" "$RB_OUT" "the dry run names the set, and that it writes"

section "random and zipf:1.2: 4096 reads over 8 files"
rb_ok "random" --directory "$D" --nrfiles 8 --filesize 1m -b 4k -d 16m --seed 7 --file-service random --json
c=$(counts)
log "random: $c"
assert_num "every file hit" "$(<<<"$c" awk '{ m = $1; for (i = 2; i <= NF; i++) if ($i < m) m = $i; print m }') > 0"
assert_eq 4096 "$(<<<"$c" awk '{ s = 0; for (i = 1; i <= NF; i++) s += $i; print s }')" "the total is exact: 4096"
chi=$(<<<"$c" awk '{ e = 4096 / 8; x = 0; for (i = 1; i <= NF; i++) x += ($i - e) ^ 2 / e; print x }')
log "random: chi-square $chi on 7 dof"
assert_num "chi-square over the files below 24.32 (its 0.1% point on 7 dof)" "$chi < 24.32"
jq_later "$RB_OUT" random '.workloads[0].results.file_service' "file_service random"
rb_ok "zipf" --directory "$D" --nrfiles 8 --filesize 1m -b 4k -d 16m --seed 7 --file-service zipf:1.2 --json
c=$(counts)
log "zipf:1.2: $c"
assert_eq 4096 "$(<<<"$c" awk '{ s = 0; for (i = 1; i <= NF; i++) s += $i; print s }')" "the total is exact: 4096"
assert_num "file 0 gets the most" "$(<<<"$c" awk '{ for (i = 2; i <= NF; i++) if ($i >= $1) { print 0; exit } print 1 }') == 1"
want=$(awk 'BEGIN { for (k = 1; k <= 8; k++) h += k ^ -1.2; printf "%.1f", 4096 / h }')
got=${c%% *}
log "zipf:1.2: file 0 got $got, expected $want (4096 / H(8, 1.2))"
assert_num "file 0 within 10% of its share 1/H(8, 1.2)" "$got > 0.9 * $want && $got < 1.1 * $want"
jq_later "$RB_OUT" zipf:1.2 '.workloads[0].results.file_service' "file_service zipf:1.2"
rb_ok "fio's spelling of the service" --directory "$D" --nrfiles 8 --filesize 1m -b 4k -d 2m --seed 7 --file_service_type=roundrobin --json
assert_eq "64 64 64 64 64 64 64 64" "$(counts)" "--file_service_type=roundrobin is rr"

section "-d 100%: one pass over every file"
rb_ok "seq reads of the whole set" --directory "$D" --nrfiles 8 --filesize 1m -b 64k -w seq -d 100% --json
assert_eq "16 16 16 16 16 16 16 16" "$(counts)" "each file 1 MiB / 64 KiB = 16 I/Os"
jq_later "$RB_OUT" 1 '.workloads[0].results.passes' "passes: 1 over the set"
jq_later "$RB_OUT" 0 '[.workloads[0].warnings[] | select(test("wrapped"))] | length' "no wrap warning"
rb_ok "seq reads, twice over the set" --directory "$D" --nrfiles 8 --filesize 1m -b 64k -w seq -d 200% --json
jq_later "$RB_OUT" 2 '.workloads[0].results.passes' "passes: 2"
jq_later "$RB_OUT" 1 '[.workloads[0].warnings[] | select(test("busiest file, .*gone over 2.00 times"))] | length' "the wrap warning names the busiest file"

section "sequential writes into sparse files, zipf: each file from its own start"
# where each write lands: a file's allocated bytes and its first hole are
# its bytes_written only when its writes went to it, from its start
L=$S/fs/l
mkdir -p "$L"
for e in "${ENGINES[@]}"; do
	rm -f "$L"/f*
	for i in 0 1 2 3; do truncate -s 1M "$L/f$i"; done
	# shellcheck disable=SC2086
	rb_ok "seq writes over a list of 4 sparse files, $e" -o write -w seq -b 4k -d 512k --file-service zipf:1 --seed 3 -y --json $e "$L/f0" "$L/f1" "$L/f2" "$L/f3"
	total=$(jqr '.workloads[0].results.bytes')
	sumw=$(jqr '[.workloads[0].results.files[].bytes_written] | add')
	assert_eq 524288 "$total" "$e: 512 KiB written in all"
	assert_eq "$total" "$sumw" "$e: the files' bytes_written add up to the total"
	for i in 0 1 2 3; do
		w=$(jqr ".workloads[0].results.files[$i].bytes_written")
		alloc=$(($(stat -c %b "$L/f$i") * $(stat -c %B "$L/f$i")))
		hole=$(python3 -c 'import os, sys; fd = os.open(sys.argv[1], os.O_RDONLY); print(os.lseek(fd, 0, os.SEEK_HOLE))' "$L/f$i")
		case $e in
		*"-c 2"*)	# thread 1 starts half way into each file
			assert_eq "$w" "$alloc" "$e: f$i's allocated bytes are its bytes_written ($w)" ;;
		*)
			assert_eq "$w $w" "$alloc $hole" "$e: f$i's allocated bytes and first hole are its bytes_written ($w)" ;;
		esac
	done
done
assert_match "4 of the 4 files are sparse" "$(jqr '.workloads[0].warnings[]')" "the sparse files are said"
assert_refused "reads of files with holes, no --yes and no terminal" "refusing to fill the holes of 2 files \($L/f0, $L/f1\) without confirmation" -o read -b 4k -d 64k "--filename=$L/f0:$L/f1"
rb_ok "fio's --filename a:b, -y" -o read -b 4k -d 64k -y --json "--filename=$L/f0:$L/f1"
assert_eq "8 8" "$(counts)" "--filename a:b: two files, 8 I/Os each"
assert_match "2 of the 2 files \($L/f0, $L/f1\) had holes in the region: filled [0-9.]+ MiB" "$(jqr '.workloads[0].warnings[]')" "their holes were filled first"

section "a fault removes what the run created"
F=$S/fs/full
mkdir -p "$F"
rb --directory "$F" --nrfiles 8 --filesize 16m -b 4k -d 64k
assert_rc 2 "8 files of 16 MiB on a 64 MiB file system: the layout fails"
assert_match "No space left on device" "$RB_ERR" "ENOSPC is said"
assert_match "removed $F/rebench\.0\.0, which this run created" "$RB_ERR" "the files created are removed"
assert_eq 0 "$(nfiles "$F")" "none left"

section "safety: a file in use, writes without confirmation"
U=$S/fs/u
mkdir -p "$U"
for i in 0 1 2; do dd if=/dev/urandom of="$U/f$i" bs=1M count=4 status=none; done
ILOOP=$(losetup -f --show "$U/f1") || fail "losetup over $U/f1"
_register loops "$ILOOP"
mkfs.ext4 -q -F "$ILOOP" >/dev/null 2>&1 || fail "mkfs.ext4 $ILOOP"
mount_dev "$ILOOP" "$S/inner"
before=$(file_sum "$U/f1")
rb -o write -b 4k -d 64k -y "$U/f0" "$U/f1" "$U/f2"
assert_rc 2 "a list with a file that backs a mounted loop device: refused"
assert_match "refusing to write to $U/f1 \(file 2 of 3\): $U/f1 backs $ILOOP, and $ILOOP is mounted" "$RB_ERR" "the file in use is named"
assert_eq "$before" "$(file_sum "$U/f1")" "its data unchanged"
rb -o write -b 4k -d 64k --directory "$D" --nrfiles 8 --filesize 1m
assert_rc 1 "writes to existing files without --yes and no terminal"
assert_match "refusing to write to 8 files in $D \(rebench.0.0 to rebench.0.7\) without confirmation" "$RB_ERR" "the set is named"
if command -v script >/dev/null; then
	before=$(cat "$D"/rebench.0.* | data_sum)
	rb_pty n -o write -b 4k -d 64k --directory "$D" --nrfiles 8 --filesize 1m
	assert_rc 1 "the question on a terminal, answered n"
	assert_match "^  WRITE to 8 files in $D \(rebench.0.0 to rebench.0.7\), 1 MiB each: the data will be lost from 0 B to 1 MiB of each$" "$RB_OUT" "the question names the set, its size and region"
	assert_match "not confirmed; nothing was written" "$RB_ERR" "not confirmed"
	assert_eq "$before" "$(cat "$D"/rebench.0.* | data_sum)" "the files unchanged"
fi

section "refusals before any I/O"
N=$S/fs/new
mkdir -p "$N"
assert_refused "--nrfiles without --filesize on a new directory" "rebench\.0\.0 does not exist.*without --filesize its size is not known; add --filesize" --directory "$N" --nrfiles 4
assert_refused "a --directory that does not exist" "no such directory; create it first" --directory "$S/nope" --nrfiles 4 --filesize 1m
assert_refused "a --directory on sysfs" "on sysfs, a pseudo file system" --directory /sys/kernel --nrfiles 4 --filesize 1m
assert_refused "--nrfiles 0" "--nrfiles 0: a run over no files measures nothing" --directory "$N" --nrfiles 0 --filesize 1m
assert_refused "--filesize below -b" "--filesize 2k: smaller than one block \(-b 4k\)" --directory "$N" --nrfiles 4 --filesize 2k -b 4k
assert_refused "a TARGET and --directory" "a TARGET \($L/f0\) and --directory $N together" --directory "$N" --nrfiles 4 --filesize 1m "$L/f0"
assert_refused "a list naming a block device" "$DEV \(file 2 of 2\) is a block device" "$L/f0" "$DEV"
assert_refused "one file twice" "$L/f0 and $L/f0 \(files 1 and 2 of 3\) are the same file" "$L/f0" "$L/f0" "$L/f1"
ln "$L/f2" "$L/link2"
assert_refused "a file and its hard link" "are the same file \(two names of one inode\)" "$L/f2" "$L/link2"
assert_refused "a list naming a file that does not exist" "$L/nope \(file 2 of 2\): No such file" "$L/f0" "$L/nope"
assert_refused "-t mmap" "-t mmap with many files: the mmap engine binds one file" --directory "$N" --nrfiles 4 --filesize 1m -t mmap -p
assert_refused "--verify" "--verify with many files: not supported yet" --directory "$N" --nrfiles 4 --filesize 1m -o write --verify crc32c
assert_refused "--sync fsync:N" "--sync with flushes .* with many files" --directory "$N" --nrfiles 4 --filesize 1m -o write --sync fsync:4
assert_refused "--nrfiles without --directory" "--nrfiles goes with --directory" --nrfiles 4 "$L/f0"
assert_refused "a bad --file-service" "--file-service sequential: fio's sequential is not supported yet" --directory "$N" --nrfiles 4 --filesize 1m --file-service sequential
assert_refused "--file-service random:4" "fio's :N \(switch file after N I/Os\) is not supported" --directory "$N" --nrfiles 4 --filesize 1m --file-service random:4
assert_refused "--precondition" "--precondition with many files" --directory "$N" --nrfiles 4 --filesize 1m -o write --precondition -y
assert_refused "-e beyond --filesize" "region beyond the files: -j 0 \\+ -e 2097152 = 2097152 bytes, but each file has 1048576 \\(--filesize\\)" --directory "$N" --nrfiles 4 --filesize 1m -e 2m
assert_refused "--hosts" "--hosts with many files \\(--directory\\): not supported yet" --hosts h1,h2 --directory "$N" --nrfiles 4 --filesize 1m
assert_refused "--fio" "--fio with many files: no fio job file yet" --directory "$N" --nrfiles 4 --filesize 1m --fio
assert_refused "--suite" "--suite runs on one TARGET, and this command line names many files \(--directory\)" --directory "$N" --nrfiles 4 --filesize 1m --suite quick
assert_eq 0 "$(nfiles "$N")" "no refusal created a file"
