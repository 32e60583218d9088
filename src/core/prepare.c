/* prepare.c - everything a workload needs before the start barrier: a file
 * created or laid out, descriptors opened with the right flags, the
 * exclusive claim that keeps a written device from being mounted under us,
 * aligned buffers and per-thread statistics.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include "target/readahead.h"
#include "core/fileset.h"
#include "core/signals.h"
#include "core/units.h"
#include "core/validate.h"
#include "core/workload.h"

#define LAYOUT_CHUNK (1U << 20)

/* One O_EXCL claim per written block device, shared by its workloads. */
static struct claim {
	dev_t dev;
	int fd;
} claims[64];
static int nclaims;

void workload_warn(struct workload *wl, const char *fmt, ...)
{
	va_list ap;
	char *msg;
	int i;

	if (wl->result.nwarn >= MAX_WARNINGS)
		return;
	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	if (!msg)
		return;
	for (i = 0; i < wl->result.nwarn; i++)
		if (!strcmp(wl->result.warnings[i], msg)) {
			free(msg);	/* said already (a repeat says it again) */
			return;
		}
	wl->result.warnings[wl->result.nwarn++] = msg;
}

bool workload_destroys_data(const struct workload *wl)
{
	if (wl->run.layout_confirm)
		return true;
	return spec_is_destructive(&wl->spec) && wl->tgt.exists;
}

/* Buffered reads of a region that fits in memory come from the page cache
 * after the first touch: say so, with the sizes.  --drop-caches empties
 * the cache only before the run, so it changes the advice, not the fact. */
void workload_warn_page_cache(struct workload *wl, bool drop_caches)
{
	const struct spec *s = &wl->spec;
	struct sysinfo si;
	char a[32], b[32], files[PATH_MAX + 64];
	/* many files: every file's region together, named as a set */
	uint64_t ram, region = s->region_len * (wl->files ? wl->files->n : 1);
	const char *name = wl->tgt.path;

	if (!s->paged || !SPEC_DOES(s, IO_READ) || sysinfo(&si))
		return;
	ram = (uint64_t)si.totalram * si.mem_unit;
	/* --cache: the limit, not the machine, decides what stays cached;
	 * the device reads in every format show how much did */
	if (s->cache_bytes)
		ram = s->cache_bytes < ram ? s->cache_bytes : ram;
	if (region > ram)
		return;
	if (wl->files) {
		fileset_label(wl, files, sizeof(files));
		name = files;
	}
	if (s->cache_bytes) {
		workload_warn(wl, "reads go through the page cache (-p) and the %s region fits in the %s of --cache: once read, blocks come from RAM, not from %s (the device reads say how many did not); give a --cache below the region to measure the device",
			      fmt_size_human(a, sizeof(a), region),
			      fmt_size_human(b, sizeof(b), s->cache_bytes),
			      name);
		return;
	}
	if (drop_caches)
		workload_warn(wl, "reads go through the page cache (-p) and the %s region fits in this machine's %s of memory: --drop-caches empties the cache only before the run, so once read, blocks come from RAM, not from %s; drop -p for O_DIRECT, or use a region larger than memory",
			      fmt_size_human(a, sizeof(a), region),
			      fmt_size_human(b, sizeof(b), ram), name);
	else
		workload_warn(wl, "reads go through the page cache (-p) and the %s region fits in this machine's %s of memory: once read, blocks come from RAM, not from %s; drop -p for O_DIRECT, or use --drop-caches and a region larger than memory",
			      fmt_size_human(a, sizeof(a), region),
			      fmt_size_human(b, sizeof(b), ram), name);
}

void workload_plan(struct workload *wl)
{
	struct spec *s = &wl->spec;
	struct target *t = &wl->tgt;
	static bool said_m;	/* once per run: every line may inherit it */
	char b[32], mib[32];
	struct dur_stack st;

	dur_stack_probe(t, &st);
	dur_judge(s, &st, &wl->result.dur);
	/* a note on stderr, before anything runs and in every format (the
	 * header says "(10 MiB of data)" too): one who meant fio's
	 * --runtime=10m can stop the run at once */
	if (s->duration.kind == AMOUNT_BYTES && s->duration.bare_m && !said_m) {
		said_m = true;
		fprintf(stderr, "rebench: note: -d %s is %s of data (the original Rebench's byte duration), not minutes as fio's --runtime=%s; write -d %llumin for minutes\n",
			fmt_size_short(b, sizeof(b), s->duration.value),
			fmt_size_exact(mib, sizeof(mib), s->duration.value),
			fmt_size_short(b, sizeof(b), s->duration.value),
			(unsigned long long)(s->duration.value >> 20));
	}

	if (wl->files) {
		fileset_plan(wl);	/* each file as this one below */
		return;
	}
	if (t->kind != TARGET_FILE)
		return;
	if (!t->exists) {
		wl->run.needs_layout = true;
		wl->run.create_size = s->region_start + s->region_len;
		return;
	}
	/* Reading holes measures nothing: fill them first (asks first). */
	if (SPEC_DOES(s, IO_READ)) {
		int fd = open(t->path, O_RDONLY | O_CLOEXEC);

		if (fd >= 0) {
			if (file_has_hole(fd, s->region_start, s->region_len)) {
				wl->run.needs_layout = true;
				wl->run.layout_confirm = true;
			}
			close(fd);
		}
	} else if (SPEC_DOES(s, IO_WRITE) && t->allocated < t->size) {
		workload_warn(wl, "%s is sparse: writes into holes also measure block allocation by the filesystem",
			      t->path);
	}
}

static void fill_pattern(unsigned char *buf, size_t len, uint64_t seed)
{
	uint64_t x = seed ^ 0x5eedf00dULL;
	size_t i;

	for (i = 0; i + 8 <= len; i += 8) {
		uint64_t v = splitmix64(&x) | 0x0101010101010101ULL;

		memcpy(buf + i, &v, 8);
	}
	for (; i < len; i++)
		buf[i] = 0xa5;
}

/* Files this process created, removed again when a fault ends the run
 * (see workload_remove_created()); the inode guards against removing a
 * file someone put under the same name since. */
static struct created_file {
	char *path;
	dev_t dev;
	ino_t ino;
} *created;
static int ncreated, created_cap;

/* Room for one more: MAX_CREATED at first, doubled as many files
 * (core/fileset.h) need; false when there is no memory for it. */
static bool created_room(void)
{
	struct created_file *c;
	int cap = created_cap ? 2 * created_cap : MAX_CREATED;

	if (ncreated < created_cap)
		return true;
	c = realloc(created, (size_t)cap * sizeof(*c));
	if (!c)
		return false;
	created = c;
	created_cap = cap;
	return true;
}

static void remember_created(const char *path, int fd)
{
	struct stat st;

	if (!created_room() || fstat(fd, &st))
		return;
	created[ncreated].path = strdup(path);
	if (!created[ncreated].path)
		return;
	created[ncreated].dev = st.st_dev;
	created[ncreated++].ino = st.st_ino;
}

void workload_remove_created(bool remove)
{
	struct stat st;
	int i;

	for (i = 0; i < ncreated; i++) {
		if (remove && !stat(created[i].path, &st) &&
		    st.st_dev == created[i].dev && st.st_ino == created[i].ino &&
		    !unlink(created[i].path))
			fprintf(stderr, "rebench: removed %s, which this run created\n",
				created[i].path);
		free(created[i].path);
	}
	ncreated = 0;
	free(created);
	created = NULL;
	created_cap = 0;
}

/* Write the non-zero pattern over [off, end) of fd. */
static int write_range(int fd, unsigned char *buf, uint64_t off, uint64_t end)
{
	while (off < end) {
		size_t n = end - off < LAYOUT_CHUNK ? (size_t)(end - off) : LAYOUT_CHUNK;
		ssize_t w;

		/* Ctrl-C while laying out a large file: stop between chunks */
		if (signals_stop_requested())
			return -EINTR;
		w = pwrite(fd, buf, n, (off_t)off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		off += (uint64_t)w;
	}
	return 0;
}

/* Create path (exists false: [0, end) written), or fill the holes of its
 * [start, end), with non-zero data; *size: the bytes written.  A file
 * created is remembered (removed after a fault), and removed at once when
 * its layout fails. */
int workload_lay_out_path(struct workload *wl, const char *path, bool exists,
			  uint64_t start, uint64_t end, uint64_t *size)
{
	struct spec *s = &wl->spec;
	unsigned char *buf;
	uint64_t off;
	int fd, ret = 0;

	*size = 0;
	buf = malloc(LAYOUT_CHUNK);
	if (!buf)
		return -ENOMEM;
	fill_pattern(buf, LAYOUT_CHUNK, s->seed);
	if (!exists) {
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		start = 0;
	} else {
		fd = open(path, O_WRONLY | O_CLOEXEC);
	}
	if (fd < 0) {
		ret = -errno;
		spec_error(s, "cannot %s %s: %s", exists ? "open" : "create",
			   path, strerror(-ret));
		goto out_free;
	}
	if (!exists)
		remember_created(path, fd);
	for (off = start; off < end && !ret;) {
		off_t hole = exists ? lseek(fd, (off_t)off, SEEK_HOLE) : (off_t)off;
		off_t data;

		if (hole < 0 || (uint64_t)hole >= end)
			break;
		data = exists ? lseek(fd, hole, SEEK_DATA) : -1;
		if (data < 0 || (uint64_t)data > end)
			data = (off_t)end;
		ret = write_range(fd, buf, (uint64_t)hole, (uint64_t)data);
		*size += (uint64_t)(data - hole);
		off = (uint64_t)data;
	}
	if (!ret && fdatasync(fd))
		ret = -errno;
	if (ret) {
		/* never leave a partial file behind (a full filesystem would
		 * make the next run fail for a reason nobody sees) */
		if (!exists)
			unlink(path);
		if (ret == -EINTR)
			spec_error(s, "interrupted while laying out %s%s", path,
				   exists ? "; the holes filled so far stay filled" :
				   "; removed the partly written file");
		else
			spec_error(s, "cannot lay out %s: %s%s", path,
				   strerror(-ret),
				   exists ? "; the holes filled so far stay filled" :
				   "; removed the partly written file");
		goto out_close;
	}
	/* Measure the device, not the copies laying out left in memory. */
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
out_close:
	close(fd);
out_free:
	free(buf);
	return ret;
}

/* Create the file, or fill the holes of the region, with non-zero data. */
static int lay_out(struct workload *wl)
{
	struct spec *s = &wl->spec;
	struct target *t = &wl->tgt;
	uint64_t start, end, size;
	char sz[32];
	int ret;

	start = t->exists ? s->region_start : 0;
	end = t->exists ? s->region_start + s->region_len : wl->run.create_size;
	ret = workload_lay_out_path(wl, t->path, t->exists, start, end, &size);
	if (ret)
		return ret;
	if (!t->exists) {
		t->exists = true;
		t->created = true;
		t->size = end;
		t->allocated = end;
		workload_warn(wl, "created %s and laid out %s of non-zero data before measuring",
			      t->path, fmt_size_human(sz, sizeof(sz), size));
	} else {
		workload_warn(wl, "%s had holes in the region: filled %s with non-zero data before measuring, since reading holes measures nothing",
			      t->path, fmt_size_human(sz, sizeof(sz), size));
	}
	return 0;
}

static int claim_device(struct workload *wl)
{
	int i, fd;

	for (i = 0; i < nclaims; i++)
		if (claims[i].dev == wl->tgt.rdev)
			return 0;
	if (nclaims == (int)(sizeof(claims) / sizeof(claims[0])))
		return -EMFILE;
	fd = open(wl->tgt.path, O_RDONLY | O_EXCL | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;

		if (e == EBUSY)
			spec_error(&wl->spec, "%s is in use (mounted, or held by swap, LVM, RAID or another program that opened it exclusively); rebench never writes to a device in use. Unmount or release it first, or choose another device.",
				   wl->tgt.path);
		else
			spec_error(&wl->spec, "cannot open %s exclusively: %s",
				   wl->tgt.path, strerror(e));
		return -e;
	}
	claims[nclaims].dev = wl->tgt.rdev;
	claims[nclaims++].fd = fd;
	return 0;
}

static int open_flags(const struct workload *wl)
{
	const struct spec *s = &wl->spec;
	int flags = O_CLOEXEC;

	flags |= spec_is_destructive(s) ? O_RDWR : O_RDONLY;
	if (!s->paged)
		flags |= O_DIRECT;
	if (SPEC_DOES(s, IO_WRITE)) {
		struct sync_policy sp = spec_sync(s);

		flags |= sync_policy_open_flags(&sp);
	}
	if (s->append)
		flags |= O_APPEND;
	if (!s->atime && wl->tgt.kind == TARGET_FILE)
		flags |= O_NOATIME;
	return flags;
}

int workload_open_path(struct workload *wl, const char *path, int *out)
{
	int flags = open_flags(wl), fd;

	fd = open(path, flags);
	if (fd < 0 && errno == EPERM && (flags & O_NOATIME))
		fd = open(path, flags & ~O_NOATIME);
	if (fd < 0) {
		int e = errno;

		if (e == EINVAL && (flags & O_DIRECT))
			spec_error(&wl->spec, "cannot open %s with O_DIRECT: the filesystem does not support direct I/O; add -p for page cache I/O",
				   path);
		else
			spec_error(&wl->spec, "cannot open %s: %s%s%s", path,
				   strerror(e), e == EACCES ? " (run as root, or check the file's permissions)" : "",
				   e == EMFILE ? " (too many open files: raise the limit, ulimit -n)" : "");
		return -e;
	}
	if (fadvise_apply(wl, fd)) {
		close(fd);
		return -EINVAL;
	}
	*out = fd;
	return 0;
}

static int open_target(struct workload *wl, int *out)
{
	return workload_open_path(wl, wl->tgt.path, out);
}

/* Buffers: one of bs bytes (the largest I/O of the stream) for a sync
 * engine, qd for an async one, all filled with the write pattern once.  A
 * stream with reads and writes gets as many again
 * for its writes, so that a read never becomes the next write's data (on a
 * region of zeros, writes would otherwise put zeros back).  Pure reads and
 * pure writes use one set: a write buffer is never read into. */
static int prepare_units(struct workload *wl, struct worker *w, size_t align)
{
	const struct spec *s = &wl->spec;
	bool async = wl->run.eng->flags & ENGINE_ASYNC;
	bool mixed = SPEC_READS_AND_WRITES(s);
	unsigned n = async ? (unsigned)s->qd : 1, i;
	size_t set = (size_t)s->bs * n;

	if (posix_memalign(&w->io.buf, align, mixed ? 2 * set : set))
		return -ENOMEM;
	fill_pattern(w->io.buf, mixed ? 2 * set : set, s->seed + w->index);
	w->io.wbuf = mixed ? (char *)w->io.buf + set : w->io.buf;
	if (!async)
		return 0;
	w->io.units = calloc(n, sizeof(*w->io.units));
	w->free_units = calloc(n, sizeof(*w->free_units));
	w->done_units = calloc(n, sizeof(*w->done_units));
	if (!w->io.units || !w->free_units || !w->done_units)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		w->io.units[i].idx = i;
		w->io.units[i].buf = (char *)w->io.buf + (size_t)i * s->bs;
		w->io.units[i].wbuf = (char *)w->io.wbuf + (size_t)i * s->bs;
	}
	return 0;
}

/* Thread i's share of the workload's I/O, as a synthetic stream. */
static void stream_init_worker(const struct workload *wl, struct worker *w,
			       unsigned i)
{
	const struct spec *s = &wl->spec;
	struct synth_params p = {
		.region_start = s->region_start,
		.region_len = s->region_len,
		.bs = s->bs,
		.stride = s->stride_eff,
		.random = !s->seq,
		.backward = s->direction == DIR_BACKWARD,
		.contiguous = s->seq && !s->stride && size_mix_active(&s->bsmix),
		.dist = s->seq ? NULL : &wl->run.dist,
		.ops = &s->opmix,
		.sizes = &wl->run.sizes,
		.seed = s->seed,
		.thread = i,
		.nthreads = (unsigned)s->threads,
	};
	struct sync_policy sp = spec_sync(s);

	if (SPEC_DOES(s, IO_WRITE) && sync_policy_flush_kind(&sp) >= 0) {
		p.flush_kind = sync_policy_flush_kind(&sp);
		p.flush_every = sp.every;
		p.end_flush = sp.mode == SYNC_END;
	}

	/* a byte-limited run: the threads split it, the first ones taking
	 * the remainder (in whole I/Os when every I/O has one size) */
	if (s->bytes_limit && !size_mix_active(&s->bsmix))
		p.budget = (s->ops_limit / s->threads +
			    (i < s->ops_limit % s->threads ? 1 : 0)) * s->bs;
	else if (s->bytes_limit)
		p.budget = s->bytes_limit / s->threads +
			   (i < s->bytes_limit % s->threads ? 1 : 0);
	stream_synth_init(&w->stream, &p);
}

/* Write+flush latency (stats.h) where it can be measured: a policy that
 * flushes after every N writes, and one I/O in flight per thread, so each
 * flush follows the writes before it (a flush in flight beside writes
 * covers only those completed before it was submitted). */
static int durable_latency(struct workload *wl, struct worker *w)
{
	const struct spec *s = &wl->spec;
	struct sync_policy sp = spec_sync(s);

	if ((sp.mode != SYNC_FSYNC && sp.mode != SYNC_FDATASYNC) ||
	    !SPEC_DOES(s, IO_WRITE) ||
	    ((wl->run.eng->flags & ENGINE_ASYNC) && s->qd > 1))
		return 0;
	return thread_stats_durable(&w->st, sp.every);
}

static int prepare_worker(struct workload *wl, struct worker *w, unsigned i,
			  size_t align)
{
	struct spec *s = &wl->spec;
	struct sync_policy sync = spec_sync(s);
	unsigned track;
	int ret;

	w->wl = wl;
	w->index = i;
	w->io.bs = (size_t)s->bs;
	w->io.is_blkdev = wl->tgt.kind != TARGET_FILE;
	w->io.writable = spec_is_destructive(s);
	w->io.flush = sync_policy_per_write(&sync);
	w->io.rwf_dsync = sync.mode == SYNC_RWF_DSYNC;
	w->io.flushes = spec_kinds(s) & (1U << IO_FSYNC | 1U << IO_FDATASYNC);
	w->io.opts = s->eopts[s->engine];
	w->io.qd = (unsigned)s->qd;
	w->io.batch = (unsigned)s->batch;
	w->io.map_start = s->region_start;
	w->io.map_len = s->region_len;
	w->io.fd_per_io = wl->files != NULL;
	if (wl->files) {
		w->io.fd = fileset_thread_fd(wl, i);	/* the set's own */
	} else if (s->local_fd) {
		ret = open_target(wl, &w->io.fd);
		if (ret)
			return ret;
		w->own_fd = true;
	} else {
		w->io.fd = wl->run.shared_fd;
	}
	ret = prepare_units(wl, w, align);
	if (ret)
		return ret;
	stream_init_worker(wl, w, i);
	ret = thread_stats_init(&w->st,
				s->sample_ns ? s->sample_ns : NSEC_PER_SEC,
				s->time_limit_ns, s->sample_ns == 0);
	/* a series per kind of a mix, and for a policy's flushes with the
	 * writes: the headline series counts data I/Os only */
	track = mix_kinds(&s->opmix);
	if (sync_policy_flush_kind(&sync) >= 0 && SPEC_DOES(s, IO_WRITE))
		track |= spec_kinds(s);
	if (!ret && __builtin_popcount(track) > 1)
		ret = thread_stats_track_kinds(&w->st, track);
	thread_stats_headline(&w->st, spec_kinds(s));
	if (!ret)
		ret = durable_latency(wl, w);
	if (ret)
		return ret;
	if (wl->run.eng->init) {
		ret = wl->run.eng->init(&w->io);
		if (ret) {
			spec_error(s, "cannot set up the %s engine for thread %u on %s: %s",
				   wl->run.eng->name, i, wl->tgt.path,
				   w->io.err[0] ? w->io.err : strerror(-ret));
			w->engine_ready = true;	/* partial state to free */
			return ret == -ENOMEM ? -EAGAIN : ret;
		}
		w->engine_ready = true;
		if (w->io.note[0] && i == 0)
			workload_warn(wl, "%s", w->io.note);
	}
	return 0;
}

int workload_prepare(struct workload *wl)
{
	struct spec *s = &wl->spec;
	size_t align = (size_t)sysconf(_SC_PAGESIZE);
	unsigned i;
	int ret;

	wl->run.shared_fd = -1;
	ret = workload_result_alloc(wl);
	if (ret)
		return ret;
	if (wl->run.creator) {
		/* an earlier workload of this run created the file */
		wl->tgt.exists = true;
		wl->tgt.created = true;
		wl->tgt.size = wl->run.creator->tgt.size;
	}
	ret = verify_prepare(&wl->run.verify, s);
	if (ret)
		return ret;
	if (wl->files) {
		/* every file laid out and opened as the one target below */
		ret = fileset_prepare(wl);
		if (ret)
			return ret;
	}
	if (wl->run.needs_layout && !wl->files) {
		ret = lay_out(wl);
		if (ret)
			return ret;
	}
	if (wl->tgt.kind == TARGET_FILE)
		target_map_file(&wl->tgt);	/* where the data sits, for reports */
	if (spec_is_destructive(s) && wl->tgt.kind != TARGET_FILE) {
		ret = claim_device(wl);
		if (ret)
			return ret;
	}
	if (!s->local_fd && !wl->files) {
		ret = open_target(wl, &wl->run.shared_fd);
		if (ret)
			return ret;
	}
	if (wl->tgt.logical > align)
		align = wl->tgt.logical;
	size_table_build(&wl->run.sizes, &s->bsmix);
	wl->run.workers = calloc(s->threads, sizeof(*wl->run.workers));
	if (!wl->run.workers)
		return -ENOMEM;
	for (i = 0; i < s->threads; i++) {
		wl->run.workers[i].io.fd = -1;
		ret = prepare_worker(wl, &wl->run.workers[i], i, align);
		if (ret) {
			if (ret == -ENOMEM)
				spec_error(s, "out of memory preparing thread %u", i);
			return ret;
		}
	}
	return wl->files ? fileset_attach(wl) : 0;
}

void workload_release_io(struct workload *wl)
{
	unsigned i;

	for (i = 0; wl->run.workers && i < wl->spec.threads; i++) {
		struct worker *w = &wl->run.workers[i];

		if (w->engine_ready && wl->run.eng->cleanup)
			wl->run.eng->cleanup(&w->io);
		w->engine_ready = false;
		if (w->own_fd && w->io.fd >= 0)
			close(w->io.fd);
		w->own_fd = false;
		free(w->io.buf);
		free(w->io.units);
		free(w->free_units);
		free(w->done_units);
		w->io.buf = NULL;
		w->io.units = NULL;
		w->free_units = w->done_units = NULL;
	}
	if (wl->run.shared_fd >= 0)
		close(wl->run.shared_fd);
	wl->run.shared_fd = -1;
	verify_free(&wl->run.verify);
	if (wl->files)
		fileset_release_io(wl);
}

void workload_cleanup(struct workload *wl)
{
	unsigned i;
	int c;

	workload_release_io(wl);
	if (wl->run.workers) {
		for (i = 0; i < wl->spec.threads; i++)
			thread_stats_free(&wl->run.workers[i].st);
		free(wl->run.workers);
		wl->run.workers = NULL;
	}
	if (wl->result.stats) {
		result_free(wl->result.stats);
		free(wl->result.stats);
		wl->result.stats = NULL;
	}
	wl->result.have_result = false;
	free(wl->result.rate);
	wl->result.rate = NULL;
	for (c = 0; c < wl->result.nwarn; c++)
		free(wl->result.warnings[c]);
	wl->result.nwarn = 0;
	fileset_free(wl);
	spec_free(&wl->spec);
}

int workload_result_alloc(struct workload *wl)
{
	if (wl->result.stats)
		return 0;
	wl->result.stats = calloc(1, sizeof(*wl->result.stats));
	if (wl->result.stats)
		return 0;
	fprintf(stderr, "rebench: no memory for a workload's result (%zu bytes)\n",
		sizeof(*wl->result.stats));
	return -ENOMEM;
}

void workload_release_claims(void)
{
	int c;

	for (c = 0; c < nclaims; c++)
		close(claims[c].fd);
	nclaims = 0;
}
