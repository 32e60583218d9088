/* durability.c - the durability verdict (durability.h): the stack under a
 * target, and the rules.
 *
 * The rules, in order (docs/design.md, DURABILITY):
 *  1. data that lands in RAM (zram, brd, tmpfs, ramfs, or a loop device
 *     over a file on one) is not durable, whatever the policy; and so is
 *     data under a file system mounted so that it never flushes
 *     (nobarrier, barrier=0) a device with a write-back cache: its fsync,
 *     fdatasync and O_DSYNC writes end in that cache;
 *  2. a policy that makes each write durable before it is acknowledged
 *     (dsync, sync, rwf-dsync, fsync:1, fdatasync:1) is durable, unless the
 *     file system makes no promise we can see (FUSE, network, overlay) or
 *     the stack could not be followed: unknown;
 *  3. otherwise writes are acknowledged before anything makes them stable:
 *     from the page cache (buffered, mmap), or from a device's write-back
 *     cache (O_DIRECT): not durable.  The one exception is O_DIRECT to a
 *     device that reports write through, where the device itself promises
 *     every acknowledged write: durable on a device, unknown on a file
 *     (its file system's metadata may still be in memory).
 * The verdict is what the stack promises; whether the device keeps its
 * promise is what the flush honesty warning and a power-cut test tell.
 */
#include "target/durability.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "target/mountinfo.h"
#include "core/spec.h"
#include "target/target.h"

/* File systems whose pages live only in memory. */
static const char *const ram_fs[] = { "tmpfs", "ramfs", "hugetlbfs", NULL };
/* File systems whose flushes go somewhere rebench cannot see: a daemon, a
 * server, another file system. */
static const char *const opaque_fs[] = {
	"fuse", "fuseblk", "nfs", "nfs4", "cifs", "smb3", "9p", "virtiofs",
	"overlay", "ceph", "glusterfs", NULL
};

static bool in_list(const char *const *list, const char *s)
{
	for (; *list; list++)
		if (!strcmp(*list, s) ||
		    (!strncmp(s, "fuse.", 5) && !strcmp(*list, "fuse")))
			return true;
	return false;
}

/* Block devices whose blocks are RAM. */
static bool ram_disk(const char *disk)
{
	return !strncmp(disk, "zram", 4) ||
	       (!strncmp(disk, "ram", 3) && disk[3] >= '0' && disk[3] <= '9');
}

static void add_chain(struct dur_stack *st, const char *fmt, const char *a,
		      const char *b)
{
	size_t n = strlen(st->chain);

	if (n < sizeof(st->chain))
		snprintf(st->chain + n, sizeof(st->chain) - n, fmt, a, b);
}

/* Mount options that stop a file system from sending cache flushes and
 * FUA writes to its device (ext3, ext4, btrfs, f2fs, gfs2: nobarrier;
 * ext3, ext4, ocfs2: barrier=0; reiserfs: barrier=none).  data=writeback
 * is not among them: it orders data against metadata, and an fsync still
 * writes and flushes both. */
static const char *no_flush_option(const char *opts)
{
	static const char *const words[] = {
		"nobarrier", "barrier=0", "barrier=none", NULL
	};
	const char *const *w;
	const char *p;
	size_t n;

	for (w = words; *w; w++) {
		n = strlen(*w);
		for (p = strstr(opts, *w); p; p = strstr(p + 1, *w))
			if ((p == opts || p[-1] == ',') &&
			    (p[n] == ',' || !p[n]))
				return *w;
	}
	return NULL;
}

/* A file on a file system of type fs mounted with super block options
 * opts: true when the walk goes on to the file system's device.  A
 * nobarrier mount is noted in *pending until that device's write cache
 * is known. */
static bool file_level(struct dur_stack *st, const char *fs,
		       const char *opts, const char **pending)
{
	const char *nb = no_flush_option(opts);

	if (nb && !*pending && !st->no_flush)
		*pending = nb;
	if (!fs[0]) {
		st->lost = true;
		snprintf(st->what, sizeof(st->what), "the file system under it was not found in mountinfo");
		return false;
	}
	add_chain(st, "%s%s", st->chain[0] ? " on " : "on ", fs);
	if (in_list(ram_fs, fs)) {
		st->ram = true;
		snprintf(st->what, sizeof(st->what), "%s", fs);
		return false;
	}
	if (in_list(opaque_fs, fs)) {
		st->no_promise = true;
		snprintf(st->what, sizeof(st->what), "%s %s file system",
			 fs[0] && strchr("aeiou", fs[0]) ? "an" : "a", fs);
		return false;
	}
	return true;
}

/* A nobarrier file system (opt) on the disk name at sysfs dir: it drops
 * the flushes of every write above it unless the disk has no write-back
 * cache to flush. */
static void no_flush_level(struct dur_stack *st, const char *dir,
			   const char *name, const char *fs, const char *opt)
{
	char wc[32];

	if (read_first_line(dir, "queue/write_cache", wc, sizeof(wc)) &&
	    !strcmp(wc, "write through"))
		return;
	st->no_flush = true;
	snprintf(st->no_flush_what, sizeof(st->no_flush_what),
		 "%s on %s is mounted %s", fs, name, opt);
}

void dur_stack_probe(const struct target *t, struct dur_stack *st)
{
	char dir[PATH_MAX], name[64], backing[PATH_MAX], fs[32], opts[1024];
	char pending_fs[32] = "";
	const char *pending = NULL;
	struct stat sb;
	dev_t dev;
	int depth;

	memset(st, 0, sizeof(*st));
	/* the probe read the target's (or the file's) disk already: the
	 * flush honesty warning and --probe go by the same reading */
	st->top_write_cache = target_unknown(t, TF_WRITE_CACHE)[0] ? -1 :
			      !strcmp(t->write_cache, "write back");
	st->file = t->kind == TARGET_FILE;
	if (st->file) {
		fs[0] = '\0';
		mountinfo_find_fs(t->st_dev, fs, sizeof(fs), opts, sizeof(opts));
		if (t->place.fstype[0])
			snprintf(fs, sizeof(fs), "%s", t->place.fstype);
		snprintf(pending_fs, sizeof(pending_fs), "%s", fs);
		if (!file_level(st, fs, opts, &pending))
			return;
		dev = t->st_dev;
	} else {
		dev = t->rdev;
	}
	for (depth = 0; depth < DUR_STACK_DEPTH; depth++) {
		if (!sysfs_disk_of(dev, dir, name, sizeof(name))) {
			st->lost = true;
			snprintf(st->what, sizeof(st->what), "no block device %u:%u in /sys/dev/block",
				 major(dev), minor(dev));
			return;
		}
		add_chain(st, "%s%s", st->chain[0] ? " on " : "", name);
		if (pending) {
			no_flush_level(st, dir, name, pending_fs, pending);
			pending = NULL;
		}
		if (ram_disk(name)) {
			st->ram = true;
			snprintf(st->what, sizeof(st->what), "%s", name);
			return;
		}
		/* a loop device is as durable as the file behind it */
		if (!read_first_line(dir, "loop/backing_file", backing, sizeof(backing)))
			return;
		add_chain(st, " over %.120s%s", backing, "");
		if (stat(backing, &sb)) {
			st->lost = true;
			snprintf(st->what, sizeof(st->what), "the backing file of %.40s cannot be found (deleted?)",
				 name);
			return;
		}
		if (S_ISBLK(sb.st_mode)) {
			dev = sb.st_rdev;
			continue;
		}
		fs[0] = '\0';
		mountinfo_find_fs(sb.st_dev, fs, sizeof(fs), opts, sizeof(opts));
		snprintf(pending_fs, sizeof(pending_fs), "%s", fs);
		if (!file_level(st, fs, opts, &pending))
			return;
		dev = sb.st_dev;
	}
	st->lost = true;
	snprintf(st->what, sizeof(st->what), "more than %d devices stacked", DUR_STACK_DEPTH);
}

/* Does the policy make each write durable before acknowledging it?  Its
 * words for the reason, in how. */
static bool per_write(const struct spec *s, const struct sync_policy *sp,
		      char *how, size_t len)
{
	switch (sp->mode) {
	case SYNC_DSYNC:
		snprintf(how, len, "every write is opened O_DSYNC");
		return true;
	case SYNC_OSYNC:
		snprintf(how, len, "every write is opened O_SYNC");
		return true;
	case SYNC_RWF_DSYNC:
		snprintf(how, len, "every write carries RWF_DSYNC");
		return true;
	case SYNC_FSYNC:
	case SYNC_FDATASYNC:
		if (sp->every == 1) {
			snprintf(how, len, "every write is followed by %s",
				 sp->mode == SYNC_FSYNC ? "fsync" : "fdatasync");
			return true;
		}
		snprintf(how, len, "%s follows every %u writes, so up to %u acknowledged writes wait for it",
			 sp->mode == SYNC_FSYNC ? "fsync" : "fdatasync",
			 sp->every, sp->every - 1);
		return false;
	case SYNC_SFR:
		snprintf(how, len, "sync_file_range every %u writes starts and waits for their writeback but flushes neither the device's cache nor the file's metadata",
			 sp->every);
		return false;
	case SYNC_END:
		snprintf(how, len, "the one fsync comes after the last write (--sync end), so every write is acknowledged before it");
		return false;
	default:
		if (SPEC_DOES(s, IO_FSYNC) || SPEC_DOES(s, IO_FDATASYNC) ||
		    SPEC_DOES(s, IO_SYNC_RANGE))
			snprintf(how, len, "the mix's flushes follow some writes, not each (--sync none)");
		else
			snprintf(how, len, "nothing flushes the writes (--sync none)");
		return false;
	}
}

/* The device whose write cache a verdict speaks of, as a noun: a
 * device's chain names it ("loop3 over /tmp/img on ext4 on vda"); a
 * file's starts with "on" ("on ext4 on vda"), and needs one. */
static void device_noun(const struct dur_stack *st, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s", st->file ? "the device of a file " : "",
		 st->chain);
}

void dur_judge(const struct spec *s, const struct dur_stack *st,
	       struct dur_verdict *v)
{
	struct sync_policy sp = spec_sync(s);
	char how[160], dev[sizeof(st->chain) + 32];
	bool each;

	v->reason[0] = '\0';
	if (!SPEC_DOES(s, IO_WRITE)) {
		v->verdict = DUR_NA;
		return;
	}
	each = per_write(s, &sp, how, sizeof(how));
	device_noun(st, dev, sizeof(dev));
	if (st->ram) {
		v->verdict = DUR_NOT_DURABLE;
		snprintf(v->reason, sizeof(v->reason), "the data lands in RAM (%s): nothing written survives power loss",
			 st->chain);
		return;
	}
	if (st->no_flush) {
		v->verdict = DUR_NOT_DURABLE;
		snprintf(v->reason, sizeof(v->reason), "%s: it sends no cache flush or FUA write to its device, so %s ends in a write-back cache (%s)",
			 st->no_flush_what,
			 each ? "even a write that is flushed" : "every write",
			 st->chain);
		return;
	}
	if (!each && s->paged) {
		v->verdict = DUR_NOT_DURABLE;
		snprintf(v->reason, sizeof(v->reason), "writes are acknowledged from the page cache and %s",
			 how);
		return;
	}
	if (!each && st->top_write_cache == 1) {
		v->verdict = DUR_NOT_DURABLE;
		snprintf(v->reason, sizeof(v->reason), "O_DIRECT writes are acknowledged from the write-back cache of %s and %s",
			 dev, how);
		return;
	}
	if (st->no_promise || st->lost) {
		v->verdict = each ? DUR_UNKNOWN : DUR_NOT_DURABLE;
		snprintf(v->reason, sizeof(v->reason), "%s, but %s%s",
			 how, st->no_promise ? "the file is on " : "", st->what);
		if (st->no_promise)
			snprintf(v->reason + strlen(v->reason),
				 sizeof(v->reason) - strlen(v->reason),
				 ", whose flushes rebench cannot follow");
		return;
	}
	if (each) {
		v->verdict = DUR_DURABLE;
		snprintf(v->reason, sizeof(v->reason), "%s (%s)", how, st->chain);
		return;
	}
	if (st->top_write_cache == 0 && !st->file) {
		v->verdict = DUR_DURABLE;
		snprintf(v->reason, sizeof(v->reason), "O_DIRECT writes to %s, which reports write through: the device promises each acknowledged write",
			 st->chain);
		return;
	}
	v->verdict = DUR_UNKNOWN;
	if (st->top_write_cache == 0)
		snprintf(v->reason, sizeof(v->reason), "O_DIRECT writes reach %s, which reports write through, but %s and the file system's metadata may still be in memory",
			 dev, how);
	else
		snprintf(v->reason, sizeof(v->reason), "O_DIRECT writes and %s, and the write cache mode of %s is unknown",
			 how, dev);
}

const char *dur_name(int verdict)
{
	switch (verdict) {
	case DUR_DURABLE:
		return "durable";
	case DUR_NOT_DURABLE:
		return "not-durable";
	case DUR_UNKNOWN:
		return "unknown";
	default:
		return "-";
	}
}
