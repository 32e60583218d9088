/* section_files.c - what went to each file of a workload over many files
 * (core/fileset.h): the human "Files:" line, JSON "file_service" and
 * "files" (every file's I/Os and bytes) and a -n "files" line, only in
 * such a workload (no field of the workload's -n line, no sweep column: a
 * run over one target prints what it always did).  The total has none. */
#include <limits.h>
#include <stdio.h>

#include "core/fileset.h"
#include "core/json.h"
#include "core/workload.h"
#include "report/report.h"
#include "report/section.h"

static const struct fileset *files_of(const struct section_ctx *c)
{
	if (!c->wl || !c->wl->files || !c->wl->files->counted)
		return NULL;
	return c->wl->files;
}

/* The I/Os of every file together. */
static uint64_t files_ios(const struct fileset *fs)
{
	uint64_t total = 0;
	unsigned i;

	for (i = 0; i < fs->n; i++)
		total += fs->sum[i].reads + fs->sum[i].writes + fs->sum[i].trims;
	return total;
}

static void files_human(FILE *f, const struct section_ctx *c)
{
	const struct fileset *fs = files_of(c);
	char label[PATH_MAX + 64], service[32];
	uint64_t total;

	if (!fs)
		return;
	fileset_label(c->wl, label, sizeof(label));
	fileset_service_text(fs, service, sizeof(service));
	total = files_ios(fs);
	fprintf(f, "Files: %s, --file-service %s; I/Os per file: min %llu, max %llu, mean %.1f\n",
		label, service, (unsigned long long)fs->ios_min,
		(unsigned long long)fs->ios_max, (double)total / fs->n);
}

static void files_json(struct json *j, const struct section_ctx *c)
{
	const struct fileset *fs = files_of(c);
	char service[32];
	unsigned i;

	if (!fs)
		return;
	fileset_service_text(fs, service, sizeof(service));
	json_str(j, "file_service", service);
	json_arr_begin(j, "files");
	for (i = 0; i < fs->n; i++) {
		const struct file_count *k = &fs->sum[i];

		json_obj_begin(j, NULL);
		json_str(j, "path", fs->f[i].path);
		json_bool(j, "created", fs->f[i].created);
		json_u64(j, "ios", k->reads + k->writes + k->trims);
		json_u64(j, "reads", k->reads);
		json_u64(j, "writes", k->writes);
		json_u64(j, "trims", k->trims);
		json_u64(j, "bytes_read", k->bytes_read);
		json_u64(j, "bytes_written", k->bytes_written);
		json_u64(j, "bytes_trimmed", k->bytes_trimmed);
		json_obj_end(j);
	}
	json_arr_end(j);
}

/*
 * -n: after the workload lines, one line per workload over many files, 7
 * fields (rebench-output(5), RAW STATISTICS):
 *   files W N SERVICE MIN MAX MEAN
 * (the files, the service, the fewest, most and mean I/Os a file got),
 * and a sweep point's values after them.
 */
static void files_terse(FILE *f, const struct report *r, const char *suffix)
{
	size_t k;

	for (k = 0; k < r->n; k++) {
		const struct section_ctx c = { r, &r->wls[k], NULL };
		const struct fileset *fs = files_of(&c);
		char service[32];

		if (!fs)
			continue;
		fileset_service_text(fs, service, sizeof(service));
		fprintf(f, "files %zu %u %s %llu %llu %.1f%s\n", k + 1, fs->n,
			service, (unsigned long long)fs->ios_min,
			(unsigned long long)fs->ios_max,
			(double)files_ios(fs) / fs->n, suffix ? suffix : "");
	}
}

const struct section section_files = {
	.name = "files",
	.human = { [HUMAN_TOTALS] = files_human },
	.json = { [JSON_RESULTS_END] = files_json },
	.run_terse = files_terse,
};
