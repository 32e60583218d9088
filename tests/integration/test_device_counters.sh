#!/usr/bin/env bash
# test_device_counters.sh - device counters are device-wide and reported
# once per device per run: the human "Device NAME (device-wide: ...)" block,
# the -n "device" lines, the JSON "devices" array; a workload's own
# "Device reads" ratio (human), -n fields 96-97 and results.device only
# when it alone used its device.  Every count is checked against
# /sys/block/loopN/stat read by the test itself before and after: O_DIRECT
# 4 KiB requests on loop devices with 512-byte sectors, which the block
# layer neither splits nor merges (random offsets, one request at a time
# per thread).
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_cmd jq
require_cmd mkfs.ext4

A=$(make_loop 64M)
B=$(make_loop 64M)
a=${A#/dev/}
b=${B#/dev/}

# stat_of DEV: reads, read sectors, writes, write sectors of its stat file
stat_of() { awk '{ print $1, $3, $5, $7 }' "/sys/block/$1/stat"; }

section "(a) two workloads on one device: one device block, reads = their requests summed"
printf '%s\n' "-t stateless -b 4k $A" "-t stateless -b 4k -c 2 $A" >"$SCRATCH/two"
read -r r0 rs0 w0 ws0 <<<"$(stat_of "$a")"
rb -d 4000k --seed 3 --yes <"$SCRATCH/two"
read -r r1 rs1 w1 ws1 <<<"$(stat_of "$a")"
assert_rc 0 "two workloads on $A exit 0"
assert_eq 1 "$(<<<"$RB_OUT" grep -c "^Device $a (device-wide")" "one device block for $a"
assert_eq 0 "$(<<<"$RB_OUT" grep -c '^Device reads:')" "no workload claims the device's reads as its own"
ios=$(<<<"$RB_OUT" sed -nE 's/^Total: ([0-9]+) I\/Os.*/\1/p' | head -n 2 | awk "{ s += \$1 } END { print s }")
assert_eq 2000 "$ios" "the two workloads did 2000 reads"
assert_eq "$((r1 - r0))" "$ios" "/sys/block/$a/stat counted as many reads as the two workloads issued"
assert_match "^  reads $ios \\(7\\.8 MiB, 0 merged\\), writes 0 " "$(<<<"$RB_OUT" grep -A1 "^Device $a " | tail -n 1)" \
	"the device block: $ios reads, 7.8 MiB, none merged, no writes"
assert_match 'shared: no$' "$RB_OUT" "a loop device nothing else uses is not shared"

section "(a) -n and JSON: the device once, no per-workload ratio"
rb -n -d 4000k --seed 3 --yes <"$SCRATCH/two"
assert_eq 1 "$(<<<"$RB_OUT" awk '$1 == "device"' | wc -l)" "-n: one device line"
assert_eq "- - - - 2000 8192000" "$(<<<"$RB_OUT" awk '$1 != "device" { printf "%s%s %s", (NR > 1 ? " " : ""), $96, $97 }')" \
	"-n fields 96-97 are '- -' on both workload lines; the total line (the run alone on $a) has its 2000 reads"
rb --json -d 4000k --seed 3 --yes <"$SCRATCH/two"
assert_eq "1 $a 1,2" "$(jqr '[(.devices | length), .devices[0].name, (.devices[0].workloads | map(tostring) | join(","))] | map(tostring) | join(" ")')" \
	"JSON: one device, used by workloads 1 and 2"
assert_eq "null null" "$(jqr '[.workloads[].results.device] | map(tostring) | join(" ")')" "JSON: no results.device"
assert_eq 2000 "$(jqr '.devices[0].reads')" "JSON: devices[0].reads is the 2000 requests"

section "(b) a write-only workload: device writes, no reads claimed"
read -r r0 rs0 w0 ws0 <<<"$(stat_of "$b")"
# -f: no O_DSYNC, whose flush the block layer may count as a second write
rb -n -f -o write -t stateless -b 4k -d 2000k --seed 4 --yes "$B"
read -r r1 rs1 w1 ws1 <<<"$(stat_of "$b")"
assert_rc 0 "the write run exits 0"
dev=$(<<<"$RB_OUT" awk '$1 == "device"')
assert_eq "$(($(terse_field 34) + 0))" 500 "500 writes (-n field 34)"
assert_eq "$((w1 - w0)) $(((ws1 - ws0) * 512))" "$(awk '{ print $6, $8 }' <<<"$dev")" \
	"-n device line: writes and write bytes as /sys/block/$b/stat"
assert_eq "0 0" "$(awk '{ print $3, $5 }' <<<"$dev")" "-n device line: no reads"
rb -f -o write -t stateless -b 4k -d 2000k --seed 4 --yes "$B"
assert_eq 0 "$(<<<"$RB_OUT" grep -c '^Device reads:')" "human: no 'Device reads' line for a write-only workload"
assert_match '^Device writes: 500 \(1\.00 per write request\), 2\.0 MiB, '"$b"' \(this workload alone on it\)$' "$RB_OUT" \
	"human: its own writes, alone on $b"

section "(c) a workload alone on its device: its own ratio in every format"
rb -t stateless -b 4k -d 2000k --seed 5 "$A"
assert_match '^Device reads: 500 \(1\.00 per read request\), 2\.0 MiB, '"$a"' \(this workload alone on it\)$' "$RB_OUT" \
	"human: 'Device reads: 500 (1.00 per read request)'"
rb -n -t stateless -b 4k -d 2000k --seed 5 "$A"
assert_eq "500 2048000" "$(terse_field 96) $(terse_field 97)" "-n fields 96-97: 500 reads, 2048000 bytes"
rb --json -t stateless -b 4k -d 2000k --seed 5 "$A"
assert_eq "$a 500 2048000 1" "$(jqr '.workloads[0].results.device | [.name, .reads, .read_bytes, .reads_per_read_request] | map(tostring) | join(" ")')" \
	"JSON results.device: its 500 reads, 1 per read request"
assert_eq false "$(jqr '.devices[0].shared')" "JSON devices[0].shared is false"

section "(d) the -n device line: 16 fields, equal to the stat deltas"
read -r r0 rs0 w0 ws0 <<<"$(stat_of "$a")"
rb -n -f -o rw -t stateless -b 4k -d 4000k --seed 6 --yes "$A"
read -r r1 rs1 w1 ws1 <<<"$(stat_of "$a")"
dev=$(<<<"$RB_OUT" awk '$1 == "device"')
assert_eq 16 "$(awk '{ print NF }' <<<"$dev")" "16 fields"
assert_eq "device $a $((r1 - r0)) $(((rs1 - rs0) * 512)) $((w1 - w0)) $(((ws1 - ws0) * 512))" \
	"$(awk '{ print $1, $2, $3, $5, $6, $8 }' <<<"$dev")" "reads, read bytes, writes, write bytes as /sys/block/$a/stat"
assert_eq "$(terse_field 22) $(terse_field 34)" "$((r1 - r0)) $((w1 - w0))" \
	"the device counted the workload's reads and writes (-n fields 22, 34), no more"
assert_eq alone "$(awk '{ print $16 }' <<<"$dev")" "field 16: alone"

section "(e) a file on a file system: shared"
mkfs.ext4 -q -F "$B" || fail "mkfs.ext4 $B"
mount_dev "$B" "$SCRATCH/mnt"
rb -t stateless -b 4k -d 2000k -e 16m --seed 7 --yes "$SCRATCH/mnt/f"
assert_rc 0 "a run on a file on ext4 exits 0"
assert_match "^Device $b \\(device-wide" "$RB_OUT" "the device under the file system has its block"
assert_match "shared: yes: the target is a file on ext4" "$RB_OUT" "... and is shared: a file on ext4"
assert_eq 0 "$(<<<"$RB_OUT" grep -c '^Device reads:')" "no per-workload ratio"
rb --json -t stateless -b 4k -d 2000k -e 16m --seed 7 --yes "$SCRATCH/mnt/f"
assert_eq "true null" "$(jqr '[.devices[0].shared, .workloads[0].results.device] | map(tostring) | join(" ")')" \
	"JSON: shared true, no results.device"
assert_match 'file on ext4' "$(jqr '.devices[0].shared_reason')" "JSON: shared_reason names the file system"
rb -n -t stateless -b 4k -d 2000k -e 16m --seed 7 --yes "$SCRATCH/mnt/f"
assert_eq "- - shared" "$(terse_field 96) $(terse_field 97) $(<<<"$RB_OUT" awk '$1 == "device" { print $16 }')" \
	"-n: fields 96-97 '- -', the device line says shared"
