/* replay_space.c - see replay_space.h. */
#include "trace/replay_space.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/statvfs.h>

#include "core/units.h"

int replay_space_check(const char *log, const char *dir, const char *first,
		       uint32_t nnew, uint64_t bytes)
{
	char a[32], b[32], what[PATH_MAX + 64];
	struct statvfs sv;
	uint64_t avail;

	if (!nnew)
		return 0;
	if (nnew == 1)
		snprintf(what, sizeof(what), "create %s and lay out", first);
	else
		snprintf(what, sizeof(what), "create %" PRIu32 " files in %s (%s, ...) and lay out",
			 nnew, dir, first);
	if (bytes > REPLAY_MAX_LAYOUT) {
		fprintf(stderr, "rebench: %s: the replay would %s %s (%" PRIu64 " bytes) of data, but a replay lays out at most %s in the files it creates; replay onto a block device, or onto files that exist and are long enough\n",
			log, what, fmt_size_human(a, sizeof(a), bytes), bytes,
			fmt_size_human(b, sizeof(b), REPLAY_MAX_LAYOUT));
		return -ENOSPC;
	}
	if (statvfs(dir, &sv)) {
		int e = errno;

		fprintf(stderr, "rebench: %s: the replay would %s %s of data, but the free space of %s cannot be read: %s; create the directory first, or give a target that exists\n",
			log, what, fmt_size_human(a, sizeof(a), bytes), dir,
			strerror(e));
		return -e;
	}
	/* a product too large for 64 bits is more than enough */
	if (__builtin_mul_overflow((uint64_t)sv.f_bavail,
				   (uint64_t)sv.f_frsize, &avail))
		avail = UINT64_MAX;
	if (bytes <= avail)
		return 0;
	fprintf(stderr, "rebench: %s: the replay would %s %s (%" PRIu64 " bytes) of data, but the file system of %s has %s (%" PRIu64 " bytes) free; free some space, or replay onto another file system or a block device\n",
		log, what, fmt_size_human(a, sizeof(a), bytes), bytes, dir,
		fmt_size_human(b, sizeof(b), avail), avail);
	return -ENOSPC;
}
