#!/usr/bin/env bash
# model-device.sh - a block device whose physics are known: a model SSD or
# disk served by rebench-modeldev (FUSE) under a loop device with direct I/O,
# so rebench reaches the model through the real kernel path.
#
#   sudo workloads/model-device.sh up [--size SIZE] [--partition-at SECTOR] MODEL
#   sudo workloads/model-device.sh down DEVICE
#   sudo workloads/model-device.sh cut DEVICE
#   sudo workloads/model-device.sh counters DEVICE
#   sudo workloads/model-device.sh list
#
#   up        start a model device; print its block device (with
#             --partition-at, the node of one partition starting at logical
#             sector SECTOR and running to the end) on stdout, and nothing else
#   down      remove the model device DEVICE (or the one DEVICE is a
#             partition of): partitions, loop device, mount and daemon
#   cut       a power cut: the device loses every write still in its write
#             cache (with flush=lie, also those it said were flushed) and
#             goes on serving, as a drive does once power is back
#   counters  what the model did so far ("key value" lines: requests, pages
#             read and programmed, garbage collection, time busy per channel)
#   list      the model devices up, a line each: device, model, state folder
#
#   --size SIZE          the device's size [256m]; its data lives in memory,
#                        only what is written takes room
#   --partition-at N     a DOS partition table with one partition at sector N
#
# MODEL is ssd:KEY=VALUE,... or hdd:KEY=VALUE,... (rebench-modeldev --help
# lists the keys and their defaults; man rebench-modeldev explains them).
#
# Each device's state is a folder in /run/rebench-modeldev; up removes what
# a device whose daemon died left behind.  Exit status: 0 done, 1 bad
# arguments or not a model device, 2 a step failed (what was made is
# removed again).
set -euo pipefail

prog='model-device.sh'
die() { printf '%s: %s\n' "$prog" "$*" >&2; exit 1; }
fail() { printf '%s: %s\n' "$prog" "$*" >&2; exit 2; }
usage() { sed -n '/^#   sudo/,/^# lists the keys/p' "$0" | sed 's/^# \{0,1\}//'; }

RUN=/run/rebench-modeldev

# The state folder of a live or dead model device: pid (the daemon's),
# loop (its block device), model (MODEL as given), mnt/ (the FUSE mount).

# teardown DIR: remove a model device's partitions, loop device, mount and
# folder, whatever of them exists.
teardown() {
	local d=$1 loop back pid
	loop=$(cat "$d/loop" 2>/dev/null || true)
	pid=
	alive "$d" && pid=$(cat "$d/pid")
	if [ -n "$loop" ] && [ -b "$loop" ]; then
		back=$(losetup -nO BACK-FILE "$loop" 2>/dev/null || true)
		if [ "$back" = "$d/mnt/disk" ]; then
			partx -d "$loop" 2>/dev/null || true
			losetup -d "$loop" 2>/dev/null || true
		fi
	fi
	# (the mount table, not mountpoint(1): a dead daemon's mount cannot be
	# stat'ed)
	if awk -v m="$d/mnt" '$2 == m { found = 1 } END { exit !found }' /proc/self/mounts; then
		# the daemon exits when its file system is unmounted; lazily if
		# something still has the loop device open
		umount "$d/mnt" 2>/dev/null || umount -l "$d/mnt" 2>/dev/null || true
	fi
	# a lazily unmounted file system can outlive its mount, and with it
	# the daemon: stop it (what still used the device gets errors)
	[ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null
	rm -rf -- "$d"
}

# alive DIR: its daemon runs (a zombie, ended but not yet reaped, does not).
alive() {
	local pid st
	pid=$(cat "$1/pid" 2>/dev/null || true)
	[ -n "$pid" ] && [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = rebench-modelde ] || return 1
	st=$(awk '{ sub(/^.*\) /, ""); print $1 }' "/proc/$pid/stat" 2>/dev/null)
	[ -n "$st" ] && [ "$st" != Z ]
}

# state_of DEVICE: the state folder of the model device DEVICE is (or is a
# partition of), from the loop device's backing file.
state_of() {
	local dev=$1 name back d
	[ -b "$dev" ] || die "$dev is not a block device"
	name=$(basename "$(readlink -f "$dev")")
	if [ -e "/sys/class/block/$name/partition" ]; then
		name=$(basename "$(dirname "$(readlink -f "/sys/class/block/$name")")")
	fi
	back=$(losetup -nO BACK-FILE "/dev/$name" 2>/dev/null || true)
	case $back in
	"$RUN"/md.*/mnt/disk) d=${back%/mnt/disk} ;;
	*) die "$dev is not a model device (model-device.sh list shows them)" ;;
	esac
	[ -d "$d" ] || die "$dev: its state folder $d is gone"
	printf '%s\n' "$d"
}

# Only one up or cleanup at a time: a folder being set up has no pid yet.
lock() {
	mkdir -p "$RUN"
	exec 9>"$RUN/.lock"
	flock 9
}

cleanup_dead() {
	local d
	for d in "$RUN"/md.*; do
		[ -d "$d" ] || continue
		alive "$d" || teardown "$d"
	done
}

cmd_up() {
	local size=256m part='' model='' dir sector loop dio rot
	while [ $# -gt 0 ]; do
		case $1 in
		--size) size=${2:?--size needs a size}; shift ;;
		--partition-at) part=${2:?--partition-at needs a sector}; shift ;;
		-h|--help) usage; exit 0 ;;
		-*) die "up: unknown option $1 (see $prog --help)" ;;
		*) [ -z "$model" ] || die "up: one MODEL only: $model and $1"
		   model=$1 ;;
		esac
		shift
	done
	[ -n "$model" ] || die "up: give a MODEL, such as ssd:read=1ms or hdd:rpm=5400 (see $prog --help)"
	if [ -n "$part" ]; then
		case $part in ''|*[!0-9]*) die "--partition-at $part: give a sector number, such as 63 or 2048" ;; esac
		[ "$part" -ge 1 ] || die "--partition-at $part: the partition table is in sector 0; give 1 or more"
	fi
	[ "$(id -u)" = 0 ] || die "needs root: it mounts a file system and attaches a loop device (run with sudo)"
	[ -c /dev/fuse ] || fail "/dev/fuse is missing (modprobe fuse)"
	# shellcheck source=SCRIPTDIR/lib-locate.sh
	. "$(dirname "$0")/lib-locate.sh"
	modeldev_locate || exit 1
	lock
	cleanup_dead
	dir=$(mktemp -d "$RUN/md.XXXXXX") || fail "cannot make a folder in $RUN"
	trap 'teardown "$dir"' EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	mkdir "$dir/mnt"
	printf '%s\n' "$model" >"$dir/model"
	# the daemon says what is wrong with MODEL or SIZE itself
	"$modeldev" --pidfile "$dir/pid" --size "$size" "$model" "$dir/mnt" 9>&- ||
		exit 1
	sector=$(awk '$1 == "key.sector" { print $2 }' "$dir/mnt/counters")
	loop=$(losetup --direct-io=on --sector-size "$sector" -f --show "$dir/mnt/disk") ||
		fail "cannot attach a loop device over $dir/mnt/disk"
	printf '%s\n' "$loop" >"$dir/loop"
	dio=$(losetup -nO DIO "$loop" | tr -d ' ')
	[ "$dio" = 1 ] || fail "$loop: direct I/O over the model's file is off; the page cache would hide the model"
	# a loop device over a FUSE file says it is not rotational; a model
	# disk is (rebench's flush-honesty and advice read it)
	rot=0
	[ "${model%%:*}" = hdd ] && rot=1
	printf '%s\n' "$rot" >"/sys/block/${loop#/dev/}/queue/rotational" ||
		fail "cannot set $loop's rotational flag"
	if [ -n "$part" ]; then
		printf 'start=%s\n' "$part" | sfdisk -q --label dos "$loop" >/dev/null 2>&1 ||
			fail "sfdisk could not put a partition at sector $part on $loop"
		partx -a "$loop" 2>/dev/null || partx -u "$loop" ||
			fail "partx could not add $loop's partition"
		[ -b "${loop}p1" ] || fail "${loop}p1 did not appear"
		loop=${loop}p1
	fi
	trap - EXIT INT TERM
	printf '%s\n' "$loop"
}

cmd_down() {
	local d
	[ $# -eq 1 ] || die "down: give one DEVICE"
	[ "$(id -u)" = 0 ] || die "needs root (run with sudo)"
	d=$(state_of "$1")
	lock
	teardown "$d"
}

cmd_cut() {
	local d
	[ $# -eq 1 ] || die "cut: give one DEVICE"
	d=$(state_of "$1")
	alive "$d" || fail "$1: its daemon is not running"
	printf 'cut\n' >"$d/mnt/control" || fail "$1: the cut failed"
}

cmd_counters() {
	local d
	[ $# -eq 1 ] || die "counters: give one DEVICE"
	d=$(state_of "$1")
	alive "$d" || fail "$1: its daemon is not running"
	cat "$d/mnt/counters"
}

cmd_list() {
	local d
	for d in "$RUN"/md.*; do
		[ -d "$d" ] || continue
		printf '%s\t%s\t%s%s\n' "$(cat "$d/loop" 2>/dev/null || echo -)" \
			"$(cat "$d/model" 2>/dev/null || echo -)" "$d" \
			"$(alive "$d" || echo ' (daemon dead: the next up removes it)')"
	done
}

[ $# -ge 1 ] || { usage >&2; exit 1; }
sub=$1
shift
case $sub in
up) cmd_up "$@" ;;
down) cmd_down "$@" ;;
cut) cmd_cut "$@" ;;
counters) cmd_counters "$@" ;;
list) cmd_list "$@" ;;
-h|--help|help) usage ;;
*) die "$sub: give up, down, cut, counters or list (see $prog --help)" ;;
esac
