/* placement.c - where a file's data sits on its drive: the filesystem and
 * its block size, the device under it, and the file's first extents from
 * FIEMAP.  A file's alignment is that of its extents, not of the partition.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "target/mountinfo.h"
#include "target/target.h"

/* FIEMAP of up to n extents from the start of the file. */
static int fiemap(int fd, struct fiemap *fm, uint32_t n)
{
	memset(fm, 0, sizeof(*fm) + n * sizeof(struct fiemap_extent));
	fm->fm_start = 0;
	fm->fm_length = FIEMAP_MAX_OFFSET;
	fm->fm_flags = FIEMAP_FLAG_SYNC;	/* place delayed allocations */
	fm->fm_extent_count = n;
	return ioctl(fd, FS_IOC_FIEMAP, fm) ? -errno : 0;
}

void target_map_file(struct target *t)
{
	struct file_place *p = &t->place;
	struct fiemap *fm;
	struct statfs sfs;
	uint32_t i;
	int fd, ret;

	p->mapped = false;
	p->next = 0;
	if (!p->fstype[0])
		mountinfo_find(t->st_dev, NULL, 0, p->fstype, sizeof(p->fstype));
	if (!statfs(t->path, &sfs))
		p->fs_bsize = (unsigned)sfs.f_bsize;
	if (!strcmp(p->fstype, "btrfs")) {
		/* Its FIEMAP addresses are btrfs logical addresses, which
		 * its chunk tree maps to device offsets; they are not
		 * offsets on the device. */
		snprintf(p->why, sizeof(p->why), "btrfs reports extents in its own address space, not as offsets on %s",
			 p->dev[0] ? p->dev : "the device");
		return;
	}
	fd = open(t->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(p->why, sizeof(p->why), "cannot open %.200s: %s",
			 t->path, strerror(errno));
		return;
	}
	fm = calloc(1, sizeof(*fm) + FILE_EXTENTS * sizeof(struct fiemap_extent));
	if (!fm) {
		close(fd);
		snprintf(p->why, sizeof(p->why), "out of memory");
		return;
	}
	ret = fiemap(fd, fm, 0);	/* count only */
	if (!ret) {
		p->ext_total = fm->fm_mapped_extents;
		ret = fiemap(fd, fm, FILE_EXTENTS);
	}
	close(fd);
	if (ret) {
		snprintf(p->why, sizeof(p->why), "FIEMAP failed: %s%s",
			 strerror(-ret),
			 ret == -EOPNOTSUPP || ret == -ENOTTY ?
			 " (the filesystem does not map its files to device offsets)" : "");
	} else if (!fm->fm_mapped_extents) {
		snprintf(p->why, sizeof(p->why), "the file has no data blocks yet (empty, or all holes)");
	} else {
		for (i = 0; i < fm->fm_mapped_extents; i++) {
			p->ext[i].logical = fm->fm_extents[i].fe_logical;
			p->ext[i].physical = fm->fm_extents[i].fe_physical;
			p->ext[i].length = fm->fm_extents[i].fe_length;
			p->ext[i].flags = fm->fm_extents[i].fe_flags;
		}
		p->next = fm->fm_mapped_extents;
		/* The count-only call may count unmerged pieces (ext2's
		 * block maps): when the last extent is in hand, the list
		 * is the truth. */
		if (p->ext_total < p->next ||
		    p->ext[p->next - 1].flags & FIEMAP_EXTENT_LAST)
			p->ext_total = p->next;
		p->mapped = true;
		p->why[0] = '\0';
	}
	free(fm);
}
