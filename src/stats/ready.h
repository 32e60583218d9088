/* ready.h - --ready-fd FD: the line "ready" on file descriptor FD when the
 * first measured run starts (its threads released, after the preparation,
 * the layout and any warm-up), then FD closed.  A script or a test that
 * signals rebench, or reads the device while it runs, waits for that line
 * instead of sleeping: the line comes when the run is under way, on a
 * loaded machine too.  FD closed without the line: rebench ended before
 * any run started (refused, failed to prepare, interrupted). */
#ifndef REBENCH_READY_H
#define REBENCH_READY_H

struct run_ctx;
struct run_opts;

/* Watch ctx's runs for --ready-fd, when run gives it: 0, or -EINVAL after
 * a message (FD is not open for writing), -ENOMEM. */
int ready_watch(struct run_ctx *ctx, const struct run_opts *run);

#endif
