# shellcheck shell=bash
# lib-locate.sh - which rebench binary and which plots/ folder a study
# script uses, sourced by the scripts from their own folder.  The same
# script runs from a clone (workloads/ beside the built ./rebench and
# plots/) and installed (share/rebench/workloads beside share/rebench/plots,
# rebench on the PATH), so both are looked up from the script's folder
# first and from the PATH after:
#
#	rebench: $REBENCH, else the clone's ../rebench, else rebench on the PATH
#	plots:   $REBENCH_PLOTS, else ../plots beside this folder, else the
#	         share/rebench/plots of the rebench found

# rebench_locate [GP-FILE]: set $rebench and $plots (exported as
# REBENCH_PLOTS, for rebench --plot); say what is missing on
# stderr and return 1 when either cannot be found (GP-FILE is the plot
# script the caller needs, to check the folder holds it).
rebench_locate() {
	local here need=${1:-heatmap.gp} p
	here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
	if [ -n "${REBENCH:-}" ]; then
		rebench=$REBENCH
	elif [ -x "$here/../rebench" ] && [ -f "$here/../rebench" ]; then
		rebench=$here/../rebench
	else
		rebench=$(command -v rebench || true)
	fi
	if [ -z "$rebench" ] || [ ! -x "$rebench" ]; then
		echo "${0##*/}: cannot find rebench: run make in the clone, install it (make install), or set REBENCH=/path/to/rebench" >&2
		return 1
	fi
	plots=
	for p in "${REBENCH_PLOTS:-}" "$here/../plots" \
		"$(dirname "$rebench")/../share/rebench/plots" "$(dirname "$rebench")/plots"; do
		if [ -n "$p" ] && [ -f "$p/$need" ]; then
			plots=$p
			break
		fi
	done
	if [ -z "$plots" ]; then
		echo "${0##*/}: cannot find the plots/ folder (with $need) beside this script or rebench: set REBENCH_PLOTS" >&2
		return 1
	fi
	# rebench's own --plot draws with the same folder
	export REBENCH_PLOTS=$plots
}

# modeldev_locate: set $modeldev to rebench-modeldev (the model device's
# daemon): $REBENCH_MODELDEV, else the clone's ../rebench-modeldev, else on
# the PATH; say what is missing on stderr and return 1 when not found.
modeldev_locate() {
	local here
	here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
	if [ -n "${REBENCH_MODELDEV:-}" ]; then
		modeldev=$REBENCH_MODELDEV
	elif [ -x "$here/../rebench-modeldev" ] && [ -f "$here/../rebench-modeldev" ]; then
		modeldev=$here/../rebench-modeldev
	else
		modeldev=$(command -v rebench-modeldev || true)
	fi
	if [ -z "$modeldev" ] || [ ! -x "$modeldev" ]; then
		echo "${0##*/}: cannot find rebench-modeldev: run make in the clone (it needs libfuse3-dev: make deps), install it, or set REBENCH_MODELDEV" >&2
		return 1
	fi
}
