# shellcheck shell=bash
# lib-outpath.sh - the output path rule of the study scripts, sourced by
# them from their own folder (a clone's workloads/ or the installed copy):
#
#	. "$(dirname "$0")/lib-outpath.sh"            (scripts/: ../workloads/)
#
# Every path a study writes - tables, matrices, probes, lists, summaries,
# plots, images - is a regular file or a new name in an existing directory;
# never a device, a directory, a FIFO or a socket (DESIGN.md, Safety).  A
# script checks all of its paths with outpath_check before it runs rebench
# or creates anything, and exits 1 on the first refusal.

# outpath_check [-d] PATH WHAT: succeed when PATH (symbolic links followed)
# is a writable regular file, or does not exist and its directory exists
# and is writable.  With -d, PATH is an output directory: an existing
# writable directory, or a new name in an existing writable directory.
# Otherwise say why on stderr, naming WHAT, and return 1.
outpath_check() {
	local dir=0 path what why='' parent want
	if [ "$1" = -d ]; then
		dir=1
		shift
	fi
	path=$1 what=$2
	if [ "$dir" = 1 ]; then
		want="give a directory or a new name in an existing directory"
	else
		want="give a regular file or a new name in an existing directory"
	fi
	if [ -e "$path" ]; then
		if [ -b "$path" ]; then why="it is a block device"
		elif [ -c "$path" ]; then why="it is a character device"
		elif [ -p "$path" ]; then why="it is a FIFO"
		elif [ -S "$path" ]; then why="it is a socket"
		elif [ -d "$path" ]; then
			if [ "$dir" = 0 ]; then why="it is a directory"
			elif [ ! -w "$path" ] || [ ! -x "$path" ]; then why="it is a directory that cannot be written"
			fi
		elif [ ! -f "$path" ]; then why="it is not a regular file"
		elif [ "$dir" = 1 ]; then why="it is a regular file, not a directory"
		elif [ ! -w "$path" ]; then why="it is a regular file that cannot be written"
		fi
	else
		# a new name; a dangling symbolic link names its target
		if [ -L "$path" ]; then
			parent=$(readlink -m -- "$path")
			parent=$(dirname -- "$parent")
		else
			parent=$(dirname -- "$path")
		fi
		if [ ! -e "$parent" ]; then why="its directory $parent does not exist"
		elif [ ! -d "$parent" ]; then why="$parent is not a directory"
		elif [ ! -w "$parent" ] || [ ! -x "$parent" ]; then why="the directory $parent cannot be written"
		fi
	fi
	[ -z "$why" ] && return 0
	printf '%s: refusing to write %s to %s: %s; %s\n' \
		"$(basename -- "$0")" "$what" "$path" "$why" "$want" >&2
	return 1
}

# outpath_check_all DIR WHAT NAME...: outpath_check -d DIR, then, when DIR
# already exists, each DIR/NAME (a new DIR holds only new names).
outpath_check_all() {
	local dir=$1 what=$2 name
	shift 2
	outpath_check -d "$dir" "$what" || return 1
	[ -d "$dir" ] || return 0
	for name in "$@"; do
		outpath_check "$dir/$name" "$what" || return 1
	done
}
