# engines.sh - sourced by bench/run.sh and bench/instructions.sh: the
# engines each contender runs, at the depth and batch of each, as far as
# this rebench ($rebench) was built with them.

# engine_built NAME: rebench lists NAME and not as "not available" (said
# on the line after the engine's).
engine_built() {
	"$rebench" --engines | awk -v e="$1" '
		$1 == e { found = 1; next }
		found == 1 { if (/not available/) found = 0; else found = 2 }
		END { exit !found }'
}

# cases: "ENGINE QD BATCH" each: pread at depth 1, libaio at 32 in
# batches of 8, io_uring at 128 in batches of 32
cases=("stateless 1 1")
engine_built naio && cases+=("naio 32 8")
engine_built uring && cases+=("uring 128 32")
