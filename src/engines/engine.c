/* engine.c - registry of I/O engines, and helpers they share. */
#include "engines/engine.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "engines/iokind.h"

static const struct engine_ops *const engines[] = {
	&engine_stateful,
	&engine_stateless,
	&engine_mmap,
	&engine_paio,
	&engine_naio,
	&engine_uring,
};

int engine_count(void)
{
	return (int)(sizeof(engines) / sizeof(engines[0]));
}

const struct engine_ops *engine_get(int index)
{
	if (index < 0 || index >= engine_count())
		return NULL;
	return engines[index];
}

int engine_lookup(const char *name)
{
	int i, a;

	for (i = 0; i < engine_count(); i++) {
		if (!strcasecmp(engines[i]->name, name))
			return i;
		for (a = 0; a < 4 && engines[i]->aliases[a]; a++)
			if (!strcasecmp(engines[i]->aliases[a], name))
				return i;
	}
	return -1;
}

bool engine_takes(const struct engine_ops *e, const char *name)
{
	int i;

	for (i = 0; e->opts && e->opts[i].name; i++)
		if (!strcmp(e->opts[i].name, name))
			return true;
	return false;
}

const char *engine_owners(const char *name, char *buf, size_t len)
{
	size_t n = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < engine_count() && n < len; i++)
		if (engine_takes(engines[i], name))
			n += (size_t)snprintf(buf + n, len - n, "%s-t %s",
					      n ? " or " : "", engines[i]->name);
	return buf;
}

bool engine_private_option(const char *name)
{
	int i;

	for (i = 0; i < engine_count(); i++)
		if (engine_takes(engines[i], name))
			return true;
	return false;
}

const struct engine_opt *engine_opt_get(int k, int *engine)
{
	int i, n;

	for (i = 0; i < engine_count() && k >= 0; i++) {
		for (n = 0; engines[i]->opts && engines[i]->opts[n].name; n++)
			;
		if (k < n) {
			*engine = i;
			return &engines[i]->opts[k];
		}
		k -= n;
	}
	return NULL;
}

void engine_word_flag(const struct engine_words *w, const char *key, bool on,
		      const char *fio_line)
{
	char text[64];

	if (w->flag)
		w->flag(w->arg, key, on);
	if (!on)
		return;
	snprintf(text, sizeof(text), ", %s", key);
	if (w->human)
		w->human(w->arg, text);
	if (w->fio)
		w->fio(w->arg, fio_line);
}

void engine_describe_all(int engine, const void *o,
			 const struct engine_words *w)
{
	static const struct engine_opts defaults;
	int i;

	for (i = 0; i < engine_count(); i++)
		if (engines[i]->describe)
			engines[i]->describe(i == engine ? o : &defaults, w);
}

int engine_registry_check(char *err, size_t len)
{
	int i;

	for (i = 0; i < engine_count(); i++) {
		const struct engine_ops *e = engines[i];
		const char *missing = NULL;

		if (!e->name) {
			snprintf(err, len, "engine #%d has no name", i);
			return -EINVAL;
		}
		if (i >= ENGINE_MAX || e->opts_size > ENGINE_OPTS_SIZE) {
			snprintf(err, len, "engine '%s': more than %d engines, or options over %d bytes (engine_opts.h)",
				 e->name, ENGINE_MAX, ENGINE_OPTS_SIZE);
			return -EINVAL;
		}
		if (e->unavailable)
			continue;
		if (!(e->flags & (ENGINE_SYNC | ENGINE_ASYNC)))
			missing = "flags (ENGINE_SYNC or ENGINE_ASYNC)";
		else if ((e->flags & ENGINE_SYNC) && !e->sync_io)
			missing = "sync_io";
		else if ((e->flags & ENGINE_ASYNC) && !e->queue)
			missing = "queue";
		else if ((e->flags & ENGINE_ASYNC) && !e->commit)
			missing = "commit";
		else if ((e->flags & ENGINE_ASYNC) && !e->reap)
			missing = "reap";
		if (missing) {
			snprintf(err, len, "engine '%s' is missing %s", e->name,
				 missing);
			return -EINVAL;
		}
	}
	return 0;
}

void engine_list(FILE *f)
{
	int i, a;

	for (i = 0; i < engine_count(); i++) {
		const struct engine_ops *e = engines[i];

		fprintf(f, "%-10s %-5s %s", e->name,
			e->flags & ENGINE_ASYNC ? "async" : "sync", e->summary);
		for (a = 0; a < 4 && e->aliases[a]; a++)
			fprintf(f, "%s%s", a ? ", " : " (fio: ", e->aliases[a]);
		fprintf(f, "%s\n", e->aliases[0] ? ")" : "");
		if (e->unavailable)
			fprintf(f, "%-16s not available: %s\n", "", e->unavailable);
	}
}

ssize_t io_trim(struct io_ctx *io, uint64_t off, size_t len)
{
	if (io->is_blkdev) {
		uint64_t range[2] = { off, len };

		if (ioctl(io->fd, BLKDISCARD, range))
			return -errno;
	} else if (fallocate(io->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
			     (off_t)off, (off_t)len)) {
		return -errno;
	}
	return (ssize_t)len;
}

ssize_t io_flush(struct io_ctx *io, int kind, uint64_t off, size_t len)
{
	int ret;

	if (kind == IO_SYNC_RANGE)
		ret = sync_file_range(io->fd, (off64_t)off, (off64_t)len,
				      IO_SYNC_RANGE_FLAGS);
	else if (kind == IO_FDATASYNC)
		ret = fdatasync(io->fd);
	else
		ret = fsync(io->fd);
	return ret ? -errno : 0;
}
