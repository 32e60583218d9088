/* replay_space.h - what a replay may lay out in the files it creates.
 *
 * A new file (the one TARGET, or a file of a DIR) is created as long as
 * its place in the file map and laid out with non-zero data before the
 * run (prepare.c).  Together they may take at most REPLAY_MAX_LAYOUT, and
 * no more than their file system has free for an unprivileged user
 * (statvfs: f_bavail x f_frsize, so root's reserve stays free): a log
 * that asks for more is refused before anything is created, with the
 * reason, so that it can neither fill a file system nor keep rebench
 * writing for days.  Files that exist are used as they are (a target must
 * hold the map: replay.c, replay_dir.c).
 */
#ifndef REBENCH_REPLAY_SPACE_H
#define REBENCH_REPLAY_SPACE_H

#include <stdint.h>

#define REPLAY_MAX_LAYOUT (1ULL << 40)	/* 1 TiB */

/* nnew new files in dir (first named first) need bytes together: 0, or
 * -ENOSPC (or -errno when dir's file system cannot be asked) after saying
 * why and how to proceed. */
int replay_space_check(const char *log, const char *dir, const char *first,
		       uint32_t nnew, uint64_t bytes);

#endif
