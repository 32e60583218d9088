/* report_target.c - geometry and alignment of a target in JSON and in the
 * one-line human header.  Unknown values are null in JSON, with the reason
 * under "unknown"; never a made-up 0.  Field list: rebench(1).
 */
#include "report/report_target.h"

#include <string.h>

#include "core/units.h"

static const char *field_keys[TF_COUNT] = {
	[TF_LOGICAL] = "logical_sector",
	[TF_PHYSICAL] = "physical_sector",
	[TF_MIN_IO] = "min_io",
	[TF_OPT_IO] = "opt_io",
	[TF_ALIGN_OFF] = "drive_alignment_offset",
	[TF_ROTATIONAL] = "rotational",
	[TF_SCHEDULER] = "scheduler",
	[TF_WRITE_CACHE] = "write_cache",
	[TF_DISCARD] = "discard_granularity",
	[TF_MODEL] = "model",
	[TF_PART_START] = "partition_start",
	[TF_FUA] = "fua",
};

const char *target_field_key(enum target_field f)
{
	return field_keys[f];
}

static void put_u64_known(struct json *j, const struct target *t,
			  enum target_field f, uint64_t v)
{
	if (t->unknown[f][0])
		json_null(j, field_keys[f]);
	else
		json_u64(j, field_keys[f], v);
}

static void put_str_known(struct json *j, const struct target *t,
			  enum target_field f, const char *v)
{
	json_str(j, field_keys[f], t->unknown[f][0] || !v[0] ? NULL : v);
}

static void put_file(struct json *j, const struct target *t)
{
	const struct file_place *p = &t->place;
	uint32_t i;

	json_obj_begin(j, "file");
	json_str(j, "filesystem", p->fstype[0] ? p->fstype : NULL);
	if (p->fs_bsize)
		json_u64(j, "fs_block_size", p->fs_bsize);
	else
		json_null(j, "fs_block_size");
	json_str(j, "device", p->dev[0] ? p->dev : NULL);
	if (p->dev_start_known)
		json_u64(j, "device_start", p->dev_start);
	else
		json_null(j, "device_start");
	if (p->mapped) {
		json_u64(j, "extents_total", p->ext_total);
		json_arr_begin(j, "extents");
		for (i = 0; i < p->next; i++) {
			json_obj_begin(j, NULL);
			json_u64(j, "file_offset", p->ext[i].logical);
			json_u64(j, "device_offset", p->ext[i].physical);
			if (p->dev_start_known)
				json_u64(j, "drive_offset", p->dev_start + p->ext[i].physical);
			else
				json_null(j, "drive_offset");
			json_u64(j, "length", p->ext[i].length);
			json_u64(j, "fiemap_flags", p->ext[i].flags);
			json_obj_end(j);
		}
		json_arr_end(j);
		json_null(j, "why_unknown");
	} else {
		json_null(j, "extents_total");
		json_null(j, "extents");
		json_str(j, "why_unknown", p->why[0] ? p->why : "not mapped");
	}
	json_obj_end(j);
}

static void put_alignment(struct json *j, const struct target *t)
{
	struct alignment a;
	int b;

	align_compute(t, &a);
	json_obj_begin(j, "alignment");
	json_str(j, "verdict", align_summary(&a));
	json_str(j, "basis", a.basis);
	json_str(j, "drive", a.drive[0] ? a.drive : NULL);
	if (a.known) {
		json_u64(j, "drive_offset", a.offset);
		if (t->kind == TARGET_FILE) {
			json_u64(j, "file_offset", a.file_offset);
			json_u64(j, "extents_judged", a.extents);
			json_u64(j, "filesystem_start", a.fs_start);
		}
		json_u64(j, "drive_alignment_offset", a.grid);
		json_null(j, "why_unknown");
	} else {
		json_null(j, "drive_offset");
		json_str(j, "why_unknown", a.why);
	}
	json_obj_begin(j, "boundaries");
	for (b = 0; b < AB_COUNT; b++) {
		const struct align_verdict *v = &a.v[b];

		json_obj_begin(j, align_key(b));
		if (v->bytes)
			json_u64(j, "bytes", v->bytes);
		else
			json_null(j, "bytes");
		if (v->known) {
			json_bool(j, "aligned", !v->misalign && !v->extents_off);
			json_u64(j, "misaligned_by", v->misalign);
			if (t->kind == TARGET_FILE) {
				json_u64(j, "extents_misaligned", v->extents_off);
				json_str(j, "judged_by", align_judge_name(v->judged_by));
				json_u64(j, "filesystem_start_misaligned_by",
					 v->fs_misalign);
			}
			json_null(j, "why_unknown");
		} else {
			json_null(j, "aligned");
			json_null(j, "misaligned_by");
			json_str(j, "why_unknown", v->why);
		}
		json_obj_end(j);
	}
	json_obj_end(j);
	json_obj_end(j);
}

void report_json_target(struct json *j, const struct target *t,
			const char *in_use)
{
	int f;

	json_obj_begin(j, "target");
	json_str(j, "path", t->path);
	json_str(j, "type", target_kind_name(t->kind));
	json_u64(j, "size", t->size);
	put_u64_known(j, t, TF_LOGICAL, t->logical);
	put_u64_known(j, t, TF_PHYSICAL, t->physical);
	put_u64_known(j, t, TF_MIN_IO, t->min_io);
	put_u64_known(j, t, TF_OPT_IO, t->opt_io);
	if (t->alignment_offset >= 0)
		json_i64(j, "alignment_offset", t->alignment_offset);
	else
		json_null(j, "alignment_offset");
	put_u64_known(j, t, TF_ALIGN_OFF, (uint64_t)t->disk_align_off);
	if (t->rotational >= 0)
		json_bool(j, "rotational", t->rotational);
	else
		json_null(j, "rotational");
	put_str_known(j, t, TF_SCHEDULER, t->scheduler);
	put_str_known(j, t, TF_WRITE_CACHE, t->write_cache);
	if (t->fua >= 0)
		json_bool(j, "fua", t->fua);
	else
		json_null(j, "fua");
	put_u64_known(j, t, TF_DISCARD, t->discard_granularity);
	if (t->unknown[TF_DISCARD][0])
		json_null(j, "discard_max");
	else
		json_u64(j, "discard_max", t->discard_max);
	put_str_known(j, t, TF_MODEL, t->model);
	json_str(j, "disk", t->disk[0] ? t->disk : NULL);
	if (t->kind == TARGET_PARTITION) {
		put_u64_known(j, t, TF_PART_START, t->part_start);
		if (!t->unknown[TF_PART_START][0])
			json_u64(j, "partition_start_sector", t->part_start / 512);
	}
	if (in_use)
		json_str(j, "in_use", in_use[0] ? in_use : NULL);
	if (t->kind == TARGET_FILE) {
		json_u64(j, "fs_block_size", t->fs_block);
		json_bool(j, "created", t->created);
		put_file(j, t);
	}
	put_alignment(j, t);
	json_obj_begin(j, "unknown");
	for (f = 0; f < TF_COUNT; f++) {
		if (!t->unknown[f][0])
			continue;
		if (f == TF_PART_START && t->kind == TARGET_DISK)
			continue;
		json_str(j, field_keys[f], t->unknown[f]);
	}
	json_obj_end(j);
	json_obj_end(j);
}

/* "physical sector (512 B), 4 KiB" into buf: the boundaries judged by j,
 * aligned or not. */
static void list_boundaries(const struct alignment *a, enum align_judge j,
			    bool misaligned, char *buf, size_t len)
{
	size_t n = 0;
	char sz[32], by[32];
	int b;

	buf[0] = '\0';
	for (b = 0; b < AB_COUNT; b++) {
		const struct align_verdict *v = &a->v[b];
		bool off = v->misalign || v->extents_off;

		if (!v->known || v->judged_by != j || off != misaligned ||
		    n >= len)
			continue;
		/* the device's own boundaries say their size; 4 KiB and
		 * 1 MiB are their size */
		if (b != AB_4K && b != AB_1M)
			snprintf(sz, sizeof(sz), " (%s)",
				 fmt_size_exact(by, sizeof(by), v->bytes));
		else
			sz[0] = '\0';
		if (!misaligned)
			n += (size_t)snprintf(buf + n, len - n, "%s%s%s",
					      n ? ", " : "", align_label(b), sz);
		else if (v->misalign)
			n += (size_t)snprintf(buf + n, len - n, "%s%s by %s",
					      n ? ", " : "", align_label(b),
					      fmt_size_exact(by, sizeof(by), v->misalign));
		else
			n += (size_t)snprintf(buf + n, len - n, "%s%s in %u of %u extents",
					      n ? ", " : "", align_label(b),
					      v->extents_off, a->extents);
	}
}

/* "misaligned to A by 2 KiB; aligned to B" for the boundaries judged by j;
 * false when there are none. */
static bool print_verdicts(FILE *f, const struct alignment *a,
			   enum align_judge j)
{
	char ok[512], bad[512];

	list_boundaries(a, j, false, ok, sizeof(ok));
	list_boundaries(a, j, true, bad, sizeof(bad));
	if (bad[0])
		fprintf(f, "misaligned to %s", bad);
	if (bad[0] && ok[0])
		fprintf(f, "; ");
	if (ok[0])
		fprintf(f, "aligned to %s", ok);
	return ok[0] || bad[0];
}

/* A file's verdicts, each group said with what it is judged by: its
 * extents, its first extent; and where the filesystem starts, for the
 * boundaries the first extent is judged by. */
static void file_verdicts(FILE *f, const struct alignment *a)
{
	bool first = false, fs_off = false;
	char by[32];
	int b;

	fprintf(f, "; judged by its %u extent%s: ", a->extents,
		a->extents == 1 ? "" : "s");
	print_verdicts(f, a, AJ_EXTENTS);
	for (b = 0; b < AB_COUNT; b++)
		if (a->v[b].known && a->v[b].judged_by == AJ_FIRST_EXTENT)
			first = true;
	if (!first)
		return;
	fprintf(f, "; judged by its first extent: ");
	print_verdicts(f, a, AJ_FIRST_EXTENT);
	fprintf(f, "; the filesystem starts at byte %llu of %s:",
		(unsigned long long)a->fs_start, a->drive);
	for (b = 0; b < AB_COUNT; b++) {
		const struct align_verdict *v = &a->v[b];

		if (!v->known || v->judged_by != AJ_FIRST_EXTENT)
			continue;
		if (v->fs_misalign)
			fprintf(f, "%s misaligned to %s by %s", fs_off ? "," : "",
				align_label(b), fmt_size_exact(by, sizeof(by), v->fs_misalign));
		else
			fprintf(f, "%s aligned to %s", fs_off ? "," : "",
				align_label(b));
		fs_off = true;
	}
}

void report_layout_line(FILE *f, const struct target *t)
{
	struct alignment a;
	char bs[32];

	align_compute(t, &a);
	fprintf(f, "Layout: ");
	switch (t->kind) {
	case TARGET_DISK:
		fprintf(f, "whole device %s", t->name);
		break;
	case TARGET_PARTITION:
		fprintf(f, "partition %s of %s", t->name, t->disk);
		break;
	case TARGET_FILE:
		fprintf(f, "file on %s", t->place.fstype[0] ? t->place.fstype : "an unknown filesystem");
		if (t->place.fs_bsize)
			fprintf(f, " (%s blocks)", fmt_size_exact(bs, sizeof(bs), t->place.fs_bsize));
		if (t->place.dev[0])
			fprintf(f, " on %s", t->place.dev);
		break;
	}
	if (!a.known) {
		fprintf(f, "; alignment unknown: %s\n", a.why);
		return;
	}
	if (t->kind == TARGET_FILE)
		fprintf(f, ", first extent at byte %llu of %s",
			(unsigned long long)a.offset, a.drive);
	else
		fprintf(f, " at byte %llu", (unsigned long long)a.offset);
	if (a.grid)
		fprintf(f, " (grid offset %llu)", (unsigned long long)a.grid);
	if (t->kind == TARGET_FILE) {
		file_verdicts(f, &a);
	} else {
		fprintf(f, ": ");
		print_verdicts(f, &a, AJ_START);
	}
	if (!a.v[AB_OPT_IO].known)
		fprintf(f, "; no optimal I/O size");
	fprintf(f, "\n");
}
