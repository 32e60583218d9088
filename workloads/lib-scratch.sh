# shellcheck shell=bash
# lib-scratch.sh - a scratch directory and, when the user names no target,
# a loop device over a new image in it, for the studies that write
# (sourced by sync-policies.sh and cache-pressure.sh from their folder).
# Both are removed on every way out: the EXIT trap, which Ctrl-C and
# SIGTERM reach through exit 130.
#
#	scratch_begin NAME         scratch_dir=${TMPDIR:-/var/tmp}/NAME.XXXXXX
#	scratch_loop SIZE [ARGS]   scratch_dev=/dev/loopN over SIZE bytes
#	                           (ARGS go to losetup: --direct-io=on)

scratch_dir='' scratch_dev=''

scratch_end() {
	[ -n "$scratch_dev" ] && losetup -d "$scratch_dev" 2>/dev/null
	[ -n "$scratch_dir" ] && rm -rf -- "$scratch_dir"
	return 0
}

scratch_begin() {
	scratch_dir=$(mktemp -d "${TMPDIR:-/var/tmp}/$1.XXXXXX") || {
		echo "${0##*/}: cannot make a scratch directory in ${TMPDIR:-/var/tmp}" >&2
		exit 1
	}
	trap scratch_end EXIT
	trap 'exit 130' INT TERM
}

scratch_loop() {
	local size=$1
	shift
	truncate -s "$size" "$scratch_dir/image" || exit 1
	scratch_dev=$(losetup -f --show "$@" "$scratch_dir/image") || {
		echo "${0##*/}: cannot attach a loop device over $scratch_dir/image (root is needed; or name a TARGET)" >&2
		exit 1
	}
}
