/* report_probe.c - the --probe report: one aligned column of attributes,
 * then the partition or file section, then a verdict per boundary with
 * what a misalignment costs.  Lines stay within 80 columns. */
#include "report/report_probe.h"

#include <limits.h>
#include <stdarg.h>
#include <string.h>

#include "target/align.h"
#include "report/summary.h"
#include "report/report_target.h"
#include "core/units.h"

#define WIDTH 79

/* Print text wrapped to WIDTH: the cursor is at column col, and lines
 * after the first are indented to column indent. */
static void wrap_at(FILE *f, int col, int indent, const char *text)
{
	const char *p = text;
	int start = col;

	while (*p) {
		int w = (int)strcspn(p, " ");

		if (col > start && col + 1 + w > WIDTH) {
			fprintf(f, "\n%*s", indent, "");
			col = start = indent;
		} else if (col > start) {
			fputc(' ', f);
			col++;
		}
		/* a word wider than the line (a sysfs path) is cut where the
		 * line ends and goes on below */
		while (col + w > WIDTH && WIDTH - col > 0) {
			fprintf(f, "%.*s\n%*s", WIDTH - col, p, indent, "");
			p += WIDTH - col;
			w -= WIDTH - col;
			col = start = indent;
		}
		fprintf(f, "%.*s", w, p);
		col += w;
		p += w;
		while (*p == ' ')
			p++;
	}
	fputc('\n', f);
}

/* A paragraph indented by indent columns. */
static void wrap(FILE *f, int indent, const char *text)
{
	fprintf(f, "%*s", indent, "");
	wrap_at(f, indent, indent, text);
}

static void row(FILE *f, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void row(FILE *f, const char *name, const char *fmt, ...)
{
	char buf[1024], line[1200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	snprintf(line, sizeof(line), "%-20s%s", name, buf);
	if (strlen(line) + 2 <= WIDTH) {
		fprintf(f, "  %s\n", line);
		return;
	}
	/* long values (reasons) wrap under the value column */
	fprintf(f, "  %-20s", name);
	wrap_at(f, 22, 22, buf);
}

/* A size row: the value, or unknown with the reason. */
static void size_row(FILE *f, const struct target *t, const char *name,
		     enum target_field fld, uint64_t v, const char *zero)
{
	char b[32];

	if (t->unknown[fld][0])
		row(f, name, "unknown: %s", t->unknown[fld]);
	else if (!v && zero)
		row(f, name, "%s", zero);
	else
		row(f, name, "%s", fmt_size_exact(b, sizeof(b), v));
}

static void str_row(FILE *f, const struct target *t, const char *name,
		    enum target_field fld, const char *v)
{
	if (t->unknown[fld][0])
		row(f, name, "unknown: %s", t->unknown[fld]);
	else
		row(f, name, "%s", v);
}

static void print_device(FILE *f, const struct target *t, const char *in_use)
{
	char a[32], b[32];

	size_row(f, t, "logical sector", TF_LOGICAL, t->logical, NULL);
	size_row(f, t, "physical sector", TF_PHYSICAL, t->physical, NULL);
	size_row(f, t, "minimum I/O", TF_MIN_IO, t->min_io, NULL);
	size_row(f, t, "optimal I/O", TF_OPT_IO, t->opt_io, "none reported");
	if (t->unknown[TF_ALIGN_OFF][0])
		row(f, "alignment offset", "unknown: %s", t->unknown[TF_ALIGN_OFF]);
	else
		row(f, "alignment offset", "%d B (where %s's physical grid starts)",
		    t->disk_align_off, t->disk);
	if (t->rotational < 0)
		row(f, "rotational", "unknown: %s", t->unknown[TF_ROTATIONAL]);
	else
		row(f, "rotational", "%s", t->rotational ? "yes" : "no");
	str_row(f, t, "scheduler", TF_SCHEDULER, t->scheduler);
	str_row(f, t, "write cache", TF_WRITE_CACHE, t->write_cache);
	if (t->fua < 0)
		row(f, "FUA", "unknown: %s", t->unknown[TF_FUA]);
	else
		row(f, "FUA", "%s", t->fua ?
		    "yes (a write can be made durable without a cache flush)" :
		    "no");
	if (t->unknown[TF_DISCARD][0])
		row(f, "discard", "unknown: %s", t->unknown[TF_DISCARD]);
	else if (!t->discard_granularity || !t->discard_max)
		row(f, "discard", "not supported");
	else
		row(f, "discard", "granularity %s, up to %s per request",
		    fmt_size_exact(a, sizeof(a), t->discard_granularity),
		    fmt_size_human(b, sizeof(b), t->discard_max));
	str_row(f, t, "model", TF_MODEL, t->model);
	if (in_use)
		row(f, "in use", "%s", in_use[0] ? in_use : "no");
}

static void print_partition(FILE *f, const struct target *t)
{
	fprintf(f, "\nPartition\n");
	row(f, "disk", "/dev/%s", t->disk);
	if (t->unknown[TF_PART_START][0])
		row(f, "start", "unknown: %s", t->unknown[TF_PART_START]);
	else
		row(f, "start", "byte %llu: sector %llu of 512 B",
		    (unsigned long long)t->part_start,
		    (unsigned long long)(t->part_start / 512));
	if (!t->unknown[TF_PART_START][0] && t->logical > 512 &&
	    !(t->part_start % t->logical))
		row(f, "", "= sector %llu of %u B (the disk's logical sector)",
		    (unsigned long long)(t->part_start / t->logical), t->logical);
	if (t->alignment_offset >= 0)
		row(f, "alignment offset", "%d B (the kernel's: bytes to the next physical or minimum-I/O boundary)",
		    t->alignment_offset);
}

static void print_file(FILE *f, const struct target *t)
{
	const struct file_place *p = &t->place;
	char a[32], b[32];
	uint32_t i;

	fprintf(f, "\nFile\n");
	if (p->fstype[0] && p->fs_bsize)
		row(f, "filesystem", "%s, %s blocks", p->fstype,
		    fmt_size_exact(a, sizeof(a), p->fs_bsize));
	else
		row(f, "filesystem", "%s", p->fstype[0] ? p->fstype : "unknown: not in /proc/self/mountinfo");
	if (!p->dev[0])
		row(f, "device", "unknown: %s", t->unknown[TF_PART_START]);
	else if (p->dev_start_known)
		row(f, "device", "/dev/%s, from byte %llu of %s", p->dev,
		    (unsigned long long)p->dev_start, t->disk);
	else
		row(f, "device", "/dev/%s, start on %s unknown: %s", p->dev, t->disk,
		    t->unknown[TF_PART_START]);
	if (!p->mapped) {
		row(f, "extents", "unknown: %s", p->why);
		return;
	}
	row(f, "extents", "%llu%s", (unsigned long long)p->ext_total,
	    p->ext_total > p->next ? " (the first ones below)" : "");
	fprintf(f, "    %-14s %-12s %-16s %s\n", "file offset", "length",
		"device offset", "drive offset");
	for (i = 0; i < p->next; i++)
		fprintf(f, "    %-14llu %-12s %-16llu %llu%s\n",
			(unsigned long long)p->ext[i].logical,
			fmt_size_exact(b, sizeof(b), p->ext[i].length),
			(unsigned long long)p->ext[i].physical,
			(unsigned long long)(p->dev_start + p->ext[i].physical),
			p->dev_start_known ? "" : " (device start unknown)");
}

/* The closing sentence: what to do about it. */
static void print_advice(FILE *f, const struct target *t,
			 const struct alignment *a)
{
	const char *s = align_summary(a);
	char msg[PATH_MAX + 512];

	if (!strcmp(s, "aligned")) {
		snprintf(msg, sizeof(msg), "Verdict: aligned. I/O aligned within %s is aligned on %s for every boundary checked.",
			 t->path, a->drive);
	} else if (!strcmp(s, "unknown")) {
		snprintf(msg, sizeof(msg), "Verdict: unknown: %s", a->why[0] ? a->why :
			 "no boundary could be checked");
	} else if (t->kind == TARGET_PARTITION) {
		unsigned sec = t->logical ? t->logical : 512;

		snprintf(msg, sizeof(msg), "Verdict: misaligned. I/O aligned within %s is misaligned on %s. Start the partition at a multiple of 1 MiB (sector %u of %u B) to fix it; this means re-creating it.",
			 t->path, a->drive, (1u << 20) / sec, sec);
	} else if (t->kind == TARGET_FILE &&
		   t->place.dev_start % 4096 && t->place.dev_start_known) {
		snprintf(msg, sizeof(msg), "Verdict: misaligned. The partition under this filesystem starts at byte %llu, so its blocks are misaligned on %s; fix the partition.",
			 (unsigned long long)t->place.dev_start, a->drive);
	} else if (t->kind == TARGET_FILE) {
		snprintf(msg, sizeof(msg), "Verdict: misaligned. The filesystem placed this file's data off the boundaries above (its block size is %u B); aligned I/O in the file is misaligned on %s.",
			 t->place.fs_bsize, a->drive);
	} else {
		snprintf(msg, sizeof(msg), "Verdict: misaligned. The drive reports an alignment offset: its LBA 0 is not on its physical grid; partitions should start at the offsets above, not at 0.");
	}
	fputc('\n', f);
	wrap(f, 0, msg);
}

static void print_alignment(FILE *f, const struct target *t)
{
	struct alignment a;
	char sz[32], by[32], msg[512];
	int b;

	align_compute(t, &a);
	fprintf(f, "\nAlignment of the %s", a.basis);
	if (a.known)
		fprintf(f, ", byte %llu of %s", (unsigned long long)a.offset,
			a.drive);
	if (a.known && a.file_offset)	/* files only */
		fprintf(f, " (file offset %llu)", (unsigned long long)a.file_offset);
	fputc('\n', f);
	for (b = 0; b < AB_COUNT; b++) {
		const struct align_verdict *v = &a.v[b];

		if (v->bytes)
			fmt_size_exact(sz, sizeof(sz), v->bytes);
		else
			snprintf(sz, sizeof(sz), "-");
		if (!v->known) {
			snprintf(msg, sizeof(msg), "not checked: %s", v->why);
		} else if (v->judged_by == AJ_FIRST_EXTENT) {
			char fs[32];

			snprintf(msg, sizeof(msg), "%s%s (the first extent; the filesystem's start, byte %llu, %s%s)",
				 v->misalign ? "misaligned by " : "aligned",
				 v->misalign ? fmt_size_exact(by, sizeof(by), v->misalign) : "",
				 (unsigned long long)a.fs_start,
				 v->fs_misalign ? "misaligned by " : "aligned",
				 v->fs_misalign ? fmt_size_exact(fs, sizeof(fs), v->fs_misalign) : "");
		} else if (v->misalign) {
			snprintf(msg, sizeof(msg), "misaligned by %s",
				 fmt_size_exact(by, sizeof(by), v->misalign));
			if (t->kind == TARGET_FILE)
				snprintf(msg + strlen(msg), sizeof(msg) - strlen(msg),
					 " (%u of %u extents)", v->extents_off, a.extents);
		} else if (v->extents_off) {
			snprintf(msg, sizeof(msg), "the first extent is aligned; %u of %u extents are not",
				 v->extents_off, a.extents);
		} else {
			snprintf(msg, sizeof(msg), "aligned%s", t->kind == TARGET_FILE && a.extents > 1 ? " (every extent)" : "");
		}
		fprintf(f, "  %-20s%-9s ", align_label(b), sz);
		wrap_at(f, 32, 32, msg);
		if (v->known && (v->misalign || v->extents_off))
			wrap(f, 6, align_cost(b));
	}
	print_advice(f, t, &a);
}

void report_probe_human(FILE *f, const struct target *t, const char *in_use)
{
	char hs[32];

	fprintf(f, "%s: %s", t->path, target_kind_name(t->kind));
	if (t->kind == TARGET_PARTITION)
		fprintf(f, " of %s", t->disk);
	else if (t->kind == TARGET_DISK)
		fprintf(f, " %s", t->name);
	fprintf(f, ", %s (%llu bytes)\n", fmt_size_human(hs, sizeof(hs), t->size),
		(unsigned long long)t->size);
	if (t->kind == TARGET_FILE)
		fprintf(f, "Drive under the filesystem: %s\n", t->disk[0] ? t->disk : "unknown");
	print_device(f, t, t->kind == TARGET_FILE ? NULL : in_use);
	if (t->kind == TARGET_PARTITION)
		print_partition(f, t);
	if (t->kind == TARGET_FILE)
		print_file(f, t);
	print_alignment(f, t);
}

void report_probe_json(FILE *f, const struct target *t, const char *in_use)
{
	struct json j;

	json_init(&j, f);
	report_json_head(&j);
	report_json_target(&j, t, t->kind == TARGET_FILE ? NULL : in_use);
	json_obj_end(&j);
}
