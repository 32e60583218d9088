# rebench(1) bash completion                               -*- shell-script -*-
#
# Installed as share/bash-completion/completions/rebench (make install), or
# for one shell: . completion/rebench.bash
#
# Everything that could drift is asked of rebench itself, the binary being
# completed (./rebench in a clone, else rebench on the PATH):
#
#	options         rebench --help: every "-x, --name" and "--name" entry
#	                (a value follows when --help shows one: "--type ENGINE")
#	-t, --type      rebench --engines: the engines this build can run
#	-u, --dist      rebench --help: the "one of:" line under --dist
#	--suite         rebench --suite list: the suites found, then files
#	TARGET          block devices (/sys/class/block: sd*, nvme*, vd*, loop*
#	                attached, ...) and files
#
# Fixed here: the values of -o (read, write, trim, rw), -w (rnd, seq), -r
# (forward, backward) and --fadvise (normal, sequential, random, noreuse);
# tests/integration/test_completion.sh checks that
# rebench takes each, and that the options equal rebench --help's.
#
# COMPREPLY=($(compgen ...)) splits on newlines only (IFS is set so in
# _rebench), as bash-completion's own scripts do.
# shellcheck disable=SC2207

# The rebench to ask: the command word when it runs, else the PATH's.
_rebench_bin()
{
	local c=${COMP_WORDS[0]}

	[[ $c == \~/* ]] && c=$HOME/${c#\~/}
	if [[ $c == */* && -x $c && ! -d $c ]]; then
		printf '%s\n' "$c"
	else
		command -v rebench 2>/dev/null
	fi
}

# rebench --help all of that binary, read once per binary and shell.
_rebench_help()
{
	local bin=$1

	if [[ ${_rebench_help_bin-} != "$bin" ]]; then
		_rebench_help_text=$("$bin" --help all 2>/dev/null)
		_rebench_help_bin=$bin
	fi
	printf '%s\n' "$_rebench_help_text"
}

# The options of --help, one per line as "WORD" or "WORD VALUE" (VALUE:
# the option takes one), short and long forms alike.
_rebench_options()
{
	local line re

	# "  -t, --type ENGINE   help" or "      --json   help": the value is
	# the word one space after the name; the help is further off
	re='^[[:space:]]+(-([[:alnum:]]),[[:space:]]+)?'
	re+='--([[:alnum:]][[:alnum:]-]*)( [^[:space:]]+)?'

	while IFS= read -r line; do
		[[ $line =~ $re ]] || continue
		[[ -n ${BASH_REMATCH[2]} ]] &&
			printf -- '-%s%s\n' "${BASH_REMATCH[2]}" "${BASH_REMATCH[4]}"
		printf -- '--%s%s\n' "${BASH_REMATCH[3]}" "${BASH_REMATCH[4]}"
	done < <(_rebench_help "$1")
}

# Engines this build can run: the first word of each --engines line, less
# those followed by a "not available" line.
_rebench_engines()
{
	"$1" --engines 2>/dev/null | awk '
		/^[^ \t]/ { if (name != "") print name; name = $1; next }
		/not available/ { name = "" }
		END { if (name != "") print name }'
}

# Distributions: the "one of:" line under --dist in --help.
_rebench_dists()
{
	_rebench_help "$1" | awk '
		/--dist / { want = 1; next }
		want && /one of:/ { sub(/.*one of:[ \t]*/, ""); gsub(/, */, "\n"); print; exit }
		want { exit }'
}

_rebench_suites()
{
	"$1" --suite list 2>/dev/null | awk '/^[^ \t]/ { print $1 }'
	echo list
}

# Block devices with a size (a loop device not attached has none).
_rebench_devices()
{
	local d n
	for d in /sys/class/block/*; do
		n=${d##*/}
		[[ -b /dev/$n && -r $d/size ]] || continue
		[[ $(<"$d/size") != 0 ]] && printf '/dev/%s\n' "$n"
	done
}

_rebench_files()
{
	compopt -o filenames 2>/dev/null
	COMPREPLY+=($(compgen -f -- "$1"))
}

# COMPREPLY for the value of option prev; false when prev takes none.
_rebench_value()
{
	local bin=$1 prev=$2 cur=$3 opt

	case $prev in
	-t | --type)
		COMPREPLY=($(compgen -W "$(_rebench_engines "$bin")" -- "$cur")) ;;
	-u | --dist)
		COMPREPLY=($(compgen -W "$(_rebench_dists "$bin")" -- "$cur")) ;;
	-o | --operation)
		COMPREPLY=($(compgen -W $'read\nwrite\ntrim\nrw' -- "$cur")) ;;
	-w | --workload)
		COMPREPLY=($(compgen -W $'rnd\nseq' -- "$cur")) ;;
	-r | --direction)
		COMPREPLY=($(compgen -W $'forward\nbackward' -- "$cur")) ;;
	--fadvise)
		COMPREPLY=($(compgen -W $'normal\nsequential\nrandom\nnoreuse' -- "$cur")) ;;
	--suite)
		COMPREPLY=($(compgen -W "$(_rebench_suites "$bin")" -- "$cur"))
		[[ $cur == */* || $cur == .* || $cur == "~"* ]] && _rebench_files "$cur" ;;
	--output | --plot)
		_rebench_files "$cur" ;;
	*)
		# another option with a value (a size, a count): none to offer
		for opt in "${opts[@]}"; do
			[[ $opt == "$prev "* ]] && return 0
		done
		return 1 ;;
	esac
	return 0
}

_rebench()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev='' pre='' opt bin
	local -a opts
	local IFS=$'\n'

	COMPREPLY=()
	bin=$(_rebench_bin)
	[[ -n $bin ]] || return 0
	((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
	# --name=value: bash splits it into "--name", "=" and the value, unless
	# '=' is not in COMP_WORDBREAKS: then the word is whole
	if [[ $cur == "=" ]]; then
		cur=
	elif [[ $prev == "=" ]] && ((COMP_CWORD > 1)); then
		prev=${COMP_WORDS[COMP_CWORD - 2]}
	elif [[ $cur == --*=* ]]; then
		prev=${cur%%=*}
		pre=$prev=
		cur=${cur#*=}
	fi
	opts=($(_rebench_options "$bin"))
	if _rebench_value "$bin" "$prev" "$cur"; then
		[[ -n $pre ]] && COMPREPLY=("${COMPREPLY[@]/#/$pre}")
		return 0
	fi
	if [[ $cur == -* ]]; then
		local -a words=()
		for opt in "${opts[@]}"; do
			[[ $cur == --* && $opt != --* ]] || words+=("${opt%% *}")
		done
		COMPREPLY=($(compgen -W "${words[*]}" -- "$cur"))
		return 0
	fi
	# the TARGET: block devices (attached), then files; under /dev/ itself
	# only the devices and the folders (/dev/disk/by-id/...)
	if [[ -z $cur || ( $cur == /d* && $cur != /dev/*/* ) ]]; then
		COMPREPLY=($(compgen -W "$(_rebench_devices)" -- "$cur"))
	fi
	if [[ $cur == /dev/* && $cur != /dev/*/* ]]; then
		compopt -o filenames 2>/dev/null
		COMPREPLY+=($(compgen -d -- "$cur"))
	else
		_rebench_files "$cur"
	fi
	return 0
}

complete -F _rebench rebench
