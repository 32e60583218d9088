#!/usr/bin/env bash
# test_dry_run.sh - a dry run applies every check a real run applies, but
# the I/O (issue 26, item 5).  Before, `-o write -y --dry-run` on a
# mounted, swap or read-only device answered 0 ("it would ask first"), and
# --hosts, whose check before any host starts is each host's --dry-run,
# started every host: the one with a mounted target was refused at run
# time and the other wrote.  Each case checks that nothing was written.
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_rebench
require_cmd mkfs.ext4 mkswap swapon swapoff jq

S=$SCRATCH
FREE=$(make_loop 32M)
MOUNTED=$(make_loop 32M)
mkfs.ext4 -q -F -E nodiscard "$MOUNTED" >/dev/null 2>&1 || fail "mkfs.ext4 $MOUNTED"
# read-only: a mounted ext4 writes its own device (lazy init, commits),
# which would hide what rebench did or did not write
mount_dev "$MOUNTED" "$S/mnt" ro
RO=$(losetup -f --show -r "$(make_image 16M)") || fail "losetup -r"
_register loops "$RO"
SWAP=$(make_loop 16M)
mkswap "$SWAP" >/dev/null 2>&1 || fail "mkswap $SWAP"
swapon "$SWAP" || fail "swapon $SWAP"
swapped() { swapoff "$SWAP" 2>/dev/null; }
trap 'swapped; cleanup' EXIT

sums() { dev_sum "$FREE"; dev_sum "$MOUNTED"; dev_sum "$RO"; }
sum0=$(sums)

section "a dry run refuses what the run refuses"
for case in "$MOUNTED:is mounted on" "$SWAP:swap" "$RO:read-only"; do
	dev=${case%%:*} why=${case#*:}
	for fmt in "" -n --json; do
		rb -o write -b 4k -y --dry-run $fmt "$dev"
		assert_rc 2 "--dry-run -o write -y $fmt on $dev ($why): exit 2, as the run"
		assert_match "refusing to write to $dev: .*$why" "$RB_ERR" \
			"--dry-run $fmt on $dev: the run's reason"
		assert_no_match "Dry run|dry_run|^dry-run" "$RB_OUT" "--dry-run $fmt on $dev: no report of a run that could go"
	done
	rb -o write -b 4k -y --dry-run -b 4k,8k -n "$dev"
	assert_rc 2 "--dry-run of a sweep on $dev ($why): exit 2"
done
rb -o write -b 4k --dry-run "$FREE" </dev/null
assert_rc 1 "--dry-run of a write without --yes and without a terminal: exit 1, as the run"
assert_match "without confirmation: there is no terminal to ask on" "$RB_ERR" "... with the run's reason"
rb -o write -b 4k -y --dry-run "$FREE"
assert_rc 0 "--dry-run -y on a free device: exit 0"
assert_match "^  workload 1: $FREE: write \(writes: confirmed by --yes\)$" "$RB_OUT" \
	"... and the report, which says --yes confirmed the write"
assert_eq "$sum0" "$(sums)" "nothing written by any dry run"

section "--hosts: a host whose target is in use stops every host before any starts"
# A fake ssh that runs the remote command here: ssh [-o opt|-p port|-F
# file|-flag]... HOST COMMAND...
cat >"$S/ssh" <<'EOF'
#!/bin/sh
while [ $# -gt 0 ]; do
	case $1 in
	-[oplFiJ]) shift 2 ;;
	-*) shift ;;
	*) break ;;
	esac
done
shift	# the host
exec sh -c "$*"
EOF
chmod +x "$S/ssh"
printf '%s\n' "127.0.0.2 $FREE" "127.0.0.3 $MOUNTED" >"$S/hosts.txt"
rb --hosts-file "$S/hosts.txt" --ssh "$S/ssh" --remote-rebench "$REBENCH" -o write -b 4k -d 4m -y
assert_rc 1 "--hosts, one host's target mounted: refused before any host starts"
assert_match "host 127.0.0.3: .*refusing to write to $MOUNTED: .*is mounted on" "$RB_ERR" \
	"the host and its reason are named"
assert_match "no host started" "$RB_ERR" "no host started"
assert_eq "$sum0" "$(sums)" "the free host's device is unchanged (before: 4 MiB written)"
