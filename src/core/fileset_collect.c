/* fileset_collect.c - a workload over many files after it ran (see
 * fileset.h): what went to each file summed over the threads, the spread,
 * a sequential run's passes and wrap warning per file, the file of a
 * failed I/O named; then the descriptors and threads' state given back
 * (fileset_release_io) and the whole table (fileset_free).
 */
#include "core/fileset_priv.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/memory.h"
#include "core/units.h"
#include "core/workload.h"

/* A sequential run's passes over every file together, and the warning of
 * a run that wrapped, per file: the busiest file's passes. */
static void fix_passes(struct workload *wl, struct fileset *fs)
{
	struct seq_passes *p = &wl->result.passes;
	const struct spec *s = &wl->spec;
	uint64_t busiest = 0, bytes = 0, per;
	unsigned i, top = 0, k;
	double count;
	char size[32];

	if (!p->known)
		return;
	p->count /= fs->n;
	p->ios *= fs->n;
	p->bytes *= fs->n;
	for (i = 0; i < fs->n; i++) {
		const struct file_count *c = &fs->sum[i];
		uint64_t v = p->ios ? c->reads + c->writes + c->trims :
			     c->bytes_read + c->bytes_written + c->bytes_trimmed;

		if (v > busiest) {
			busiest = v;
			top = i;
		}
		bytes += v;
	}
	per = p->ios ? p->ios / fs->n : p->bytes / fs->n;
	count = per ? (double)busiest / (double)per : 0;
	k = wl->result.wrap_warning < 0 ? 0 : (unsigned)wl->result.wrap_warning;
	if (wl->result.wrap_warning < 0 && count <= 1)
		return;
	if (wl->result.wrap_warning >= 0) {
		/* said over one region: said again per file, or not at all */
		free(wl->result.warnings[k]);
		memmove(&wl->result.warnings[k], &wl->result.warnings[k + 1],
			(size_t)(wl->result.nwarn - (int)k - 1) *
			sizeof(wl->result.warnings[0]));
		wl->result.nwarn--;
		if (wl->result.few_ios_warning > (int)k)
			wl->result.few_ios_warning--;
		wl->result.wrap_warning = -1;
	}
	if (count <= 1)
		return;
	k = (unsigned)wl->result.nwarn;
	workload_warn(wl, "the sequential run wrapped: its busiest file, %s, was gone over %.2f times (%llu %s, %llu a pass of its %s region), so every pass after the first went to blocks already used, which a cache (the drive's, or the page cache with -p) may still hold; -d 100%% with --file-service rr makes one pass over every file",
		      fs->f[top].path, count, (unsigned long long)busiest,
		      p->ios ? "I/Os" : "bytes", (unsigned long long)per,
		      fmt_size_human(size, sizeof(size), s->region_len));
	if (wl->result.nwarn > (int)k)
		wl->result.wrap_warning = (int)k;
}

/* The file of a failed I/O, after the run's message (which names the
 * first file, the workload's target). */
static void name_failed_file(struct workload *wl, struct fileset *fs)
{
	size_t len = strlen(wl->result.errmsg);
	unsigned i;

	if (!wl->result.error)
		return;
	for (i = 0; i < fs->nthreads; i++) {
		const struct fileset_thread *t = &fs->threads[i];

		if (!t->failed || !wl->run.workers[i].error)
			continue;
		snprintf(wl->result.errmsg + len, sizeof(wl->result.errmsg) - len,
			 " (the I/O was to %.1000s, file %u of %u)",
			 fs->f[t->fail_file].path, t->fail_file + 1, fs->n);
		return;
	}
}

void fileset_collect(struct workload *wl)
{
	struct fileset *fs = wl->files;
	unsigned i, k;

	if (!fs || !fs->threads)
		return;
	if (!fs->sum)
		fs->sum = calloc(fs->n, sizeof(*fs->sum));
	if (!fs->sum) {
		workload_warn(wl, "no memory for the counts of the %u files", fs->n);
		return;
	}
	memset(fs->sum, 0, fs->n * sizeof(*fs->sum));
	for (k = 0; k < fs->nthreads; k++) {
		const struct file_count *c = fs->threads[k].count;

		for (i = 0; c && i < fs->n; i++) {
			fs->sum[i].reads += c[i].reads;
			fs->sum[i].writes += c[i].writes;
			fs->sum[i].trims += c[i].trims;
			fs->sum[i].bytes_read += c[i].bytes_read;
			fs->sum[i].bytes_written += c[i].bytes_written;
			fs->sum[i].bytes_trimmed += c[i].bytes_trimmed;
		}
	}
	fs->ios_min = UINT64_MAX;
	fs->ios_max = 0;
	for (i = 0; i < fs->n; i++) {
		uint64_t v = fs->sum[i].reads + fs->sum[i].writes +
			     fs->sum[i].trims;

		if (v < fs->ios_min)
			fs->ios_min = v;
		if (v > fs->ios_max)
			fs->ios_max = v;
	}
	fs->counted = true;
	fix_passes(wl, fs);
	name_failed_file(wl, fs);
}

void fileset_release_io(struct workload *wl)
{
	struct fileset *fs = wl->files;
	unsigned i;

	if (!fs)
		return;
	for (i = 0; fs->threads && i < fs->nthreads; i++) {
		struct fileset_thread *t = &fs->threads[i];

		free(t->count);
		free(t->pos);
		free(t->unit_file);
		if (wl->run.workers && i < wl->spec.threads) {
			wl->run.workers[i].files = NULL;
			wl->run.workers[i].io.fd = -1;
		}
	}
	free(fs->threads);
	fs->threads = NULL;
	fs->nthreads = 0;
	if (fs->real && wl->run.eng == &fs->wrap)
		wl->run.eng = fs->real;
	for (i = 0; fs->fds && i < fs->rows * fs->n; i++)
		if (fs->fds[i] >= 0)
			close(fs->fds[i]);
	free(fs->fds);
	fs->fds = NULL;
}

void fileset_free(struct workload *wl)
{
	struct fileset *fs = wl->files;
	unsigned i;

	if (!fs)
		return;
	fileset_release_io(wl);
	for (i = 0; fs->f && i < fs->n; i++)
		free(fs->f[i].path);
	free(fs->f);
	free(fs->sum);
	memory_give_held(&fs->held, fs->held);
	free(fs);
	wl->files = NULL;
}
