/* spec_names.c - see spec_names.h. */
#include "core/spec_names.h"

#include <stddef.h>

#include "core/spec.h"

const struct opt_value verify_algo_values[] = {
	{ "off", VERIFY_NONE, "no verification (a workload line can turn off the command line's)" },
	{ "crc32c", VERIFY_CRC32C, "CRC-32C of each block's payload (SSE4.2 where the CPU has it), in the 48-byte header: the cheapest" },
	{ "xxh64", VERIFY_XXH64, "XXH64 of each block's payload (libxxhash), 8 bytes after the header: 64 bits at crc32c's speed" },
	{ "sha256", VERIFY_SHA256, "SHA-256 of each block's payload, 32 bytes after the header: no accident matches it, at about 8 times crc32c's time with the CPU's SHA extensions, 30 without (make bench)" },
	{ NULL, 0, NULL }
};

const struct opt_value verify_mode_values[] = {
	{ "after", VERIFY_AFTER, "read every block written back once the writes are done" },
	{ "inline", VERIFY_INLINE, "read each block back right after its write completes" },
	{ NULL, 0, NULL }
};

const struct opt_value op_values[] = {
	{ "read", OP_READ, "read blocks" },
	{ "write", OP_WRITE, "write blocks (destructive)" },
	{ "trim", OP_TRIM, "discard blocks: BLKDISCARD on devices, hole punching on files (destructive)" },
	{ "rw", OP_RW, "mix reads and writes, --rwmix % reads (destructive)" },
	{ "OP/PCT:OP/PCT...", OP_MIX, "a mix of read, write, trim, fsync and fdatasync, e.g. write/90:fsync/10; a blank share takes an equal part of the rest" },
	{ NULL, 0, NULL }
};

const struct opt_value workload_values[] = {
	{ "rnd", 0, "random offsets" },
	{ "seq", 1, "sequential offsets" },
	{ NULL, 0, NULL }
};

const struct opt_value direction_values[] = {
	{ "forward", DIR_FORWARD, "increasing offsets" },
	{ "backward", DIR_BACKWARD, "decreasing offsets" },
	{ NULL, 0, NULL }
};

const struct opt_value dist_values[] = {
	{ "uniform", DIST_UNIFORM, "every aligned offset equally likely" },
	{ "normal", DIST_NORMAL, "truncated normal around --center, sd = sigma % of the region" },
	{ "pow", DIST_POW, "the original Rebench's: exponential whose mean is sigma % into the region (beyond the region: its last block)" },
	{ "exp", DIST_POW, "the same as pow" },
	{ "powerlaw", DIST_POWERLAW, "power law U^a whose mean is sigma % into the region" },
	{ "zipf", DIST_ZIPF, "zipf:THETA (default 1.2), block k has weight k^-THETA" },
	{ "pareto", DIST_PARETO, "pareto:H (default 0.2), fio's: 1-H of the I/Os on H of the region" },
	{ "zoned", DIST_ZONED, "zoned:A/R[:A/R...]: A% of the I/Os on the next R% of the region" },
	{ "const", DIST_CONST, "every I/O at --center" },
	{ NULL, 0, NULL }
};

const struct opt_value fadvise_values[] = {
	{ "normal", FADVISE_NORMAL, "POSIX_FADV_NORMAL: the default read-ahead" },
	{ "sequential", FADVISE_SEQUENTIAL, "POSIX_FADV_SEQUENTIAL: twice the default read-ahead" },
	{ "random", FADVISE_RANDOM, "POSIX_FADV_RANDOM: no read-ahead" },
	{ "noreuse", FADVISE_NOREUSE, "POSIX_FADV_NOREUSE: data used once (acted on from Linux 6.3)" },
	{ NULL, 0, NULL }
};

const char *opt_values_name(const struct opt_value *v, int value)
{
	for (; v && v->name; v++)
		if (v->value == value)
			return v->name;
	return "?";
}
