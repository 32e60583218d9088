/* section_device.c - the requests that reached the run's devices
 * (devstat.h): a workload's own, when it alone used its device (human
 * "Device reads:" lines, JSON results.device, -n fields 96-97, the sweep
 * table's device_reads), and each device of the run once, device-wide
 * (the human "Device" blocks, JSON "devices", the -n "device" lines). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/plan.h"
#include "core/units.h"
#include "core/json.h"
#include "report/report.h"
#include "report/section.h"
#include "report/summary.h"

/* "Device reads: 1234 (0.98 per read request), 4.8MB, loop3 (this
 * workload alone on it)": a workload's own requests to its device, per
 * request of the same kind, for each kind it issued; only when it alone
 * used the device (report_dev_own), else the device's block says all. */
static void device_human(FILE *f, const struct section_ctx *c)
{
	static const struct {
		const char *label, *req;
		int dev, io;
	} kinds[] = {
		{ "reads", "read", DEV_READ, IO_READ },
		{ "writes", "write", DEV_WRITE, IO_WRITE },
		{ "discards", "trim", DEV_DISCARD, IO_TRIM },
	};
	const struct result *r = c->res;
	struct dev_reads d;
	char size[32];
	size_t i;

	if (!c->wl || !report_dev_own(c->r, c->wl, &d))
		return;	/* the total's: the device blocks */
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		if (!r->ops[kinds[i].io] || !d.has[kinds[i].dev])
			continue;
		fprintf(f, "Device %s: %llu (%.2f per %s request), %s, %s (this workload alone on it)\n",
			kinds[i].label,
			(unsigned long long)d.ios[kinds[i].dev],
			(double)d.ios[kinds[i].dev] /
				(double)r->ops[kinds[i].io],
			kinds[i].req,
			fmt_size_human(size, sizeof(size), d.nbytes[kinds[i].dev]),
			d.name);
	}
}

/* One count of a device's block: "-" when the kernel does not keep it. */
static void put_count(FILE *f, const struct dev_reads *d, int k,
		      const char *what, bool merges)
{
	char size[32];

	if (!d->has[k]) {
		fprintf(f, "%s - (not counted by this kernel)", what);
		return;
	}
	fprintf(f, "%s %llu", what, (unsigned long long)d->ios[k]);
	if (k == DEV_FLUSH)
		return;
	fprintf(f, " (%s", fmt_size_human(size, sizeof(size), d->nbytes[k]));
	if (merges)
		fprintf(f, ", %llu merged", (unsigned long long)d->merges[k]);
	fputc(')', f);
}

/* Each device of the run once, after the workloads and their total:
 * device-wide counts, as iostat -x and fio's "Disk stats" give them. */
static void devices_human(FILE *f, const struct report *rep)
{
	const struct dev_reads *devs[MAX_WORKLOADS];
	size_t i, n = report_devices(rep, devs);
	char users[128];

	for (i = 0; i < n; i++) {
		const struct dev_reads *d = devs[i];

		if (!d->name[0] && !d->why[0])
			continue;	/* not looked for (no run) */
		fprintf(f, "---\n");
		report_dev_users(rep, d, users, sizeof(users));
		if (!d->name[0] || !d->known) {
			fprintf(f, "Device%s%s of workload%s %s: unknown (%s)\n",
				d->name[0] ? " " : "", d->name,
				strchr(users, ',') ? "s" : "", users, d->why);
			continue;
		}
		fprintf(f, "Device %s (device-wide: all requests to it during the run, by workload%s %s and any other user; over %.3f s)\n",
			d->name, strchr(users, ',') ? "s" : "", users,
			(double)d->elapsed_ns / 1e9);
		fprintf(f, "  ");
		put_count(f, d, DEV_READ, "reads", true);
		put_count(f, d, DEV_WRITE, ", writes", true);
		put_count(f, d, DEV_DISCARD, ", discards", true);
		put_count(f, d, DEV_FLUSH, ", flushes", false);
		fprintf(f, "\n  utilization %.1f%%, mean queue depth %.2f; shared: %s%s\n",
			devstat_util_pct(d), devstat_queue_depth(d),
			d->shared ? "yes: " : "no",
			d->shared ? d->shared_why : "");
	}
}

/* results.device: the workload's own requests to its device during the
 * run, only when it alone used the device (report_dev_own), else null:
 * the top-level "devices" has the device-wide counts. */
static void device_json(struct json *j, const struct section_ctx *c)
{
	const struct result *r = c->res;
	struct dev_reads d;
	double per, per_read;

	if (!report_dev_own(c->r, c->wl, &d)) {
		json_null(j, "device");
		return;
	}
	json_obj_begin(j, "device");
	json_str(j, "name", d.name);
	json_u64(j, "reads", d.reads);
	json_u64(j, "read_bytes", d.bytes);
	per = devstat_per(&d, r->ops_total);
	per_read = devstat_per(&d, r->ops[IO_READ]);
	if (isnan(per))
		json_null(j, "reads_per_request");
	else
		json_num(j, "reads_per_request", per);
	if (isnan(per_read))
		json_null(j, "reads_per_read_request");
	else
		json_num(j, "reads_per_read_request", per_read);
	json_u64(j, "writes", d.ios[DEV_WRITE]);
	json_u64(j, "write_bytes", d.nbytes[DEV_WRITE]);
	json_obj_end(j);
}

/* One kind of a device's counts: requests, merges and bytes (null when
 * the kernel does not count the kind). */
static void put_dev_kind(struct json *j, const struct dev_reads *d, int k,
			 const char *ios, const char *merges,
			 const char *bytes)
{
	if (!d->known || !d->has[k]) {
		json_null(j, ios);
		if (merges)
			json_null(j, merges);
		if (bytes)
			json_null(j, bytes);
		return;
	}
	json_u64(j, ios, d->ios[k]);
	if (merges)
		json_u64(j, merges, d->merges[k]);
	if (bytes)
		json_u64(j, bytes, d->nbytes[k]);
}

static void put_num_or_null(struct json *j, const char *key, double v)
{
	if (isfinite(v))
		json_num(j, key, v);
	else
		json_null(j, key);
}

/* "devices": each device of the run once, device-wide. */
static void devices_json(struct json *j, const struct report *r)
{
	const struct dev_reads *devs[MAX_WORKLOADS];
	size_t i, k, n = report_devices(r, devs);

	json_arr_begin(j, "devices");
	for (i = 0; i < n; i++) {
		const struct dev_reads *d = devs[i];

		json_obj_begin(j, NULL);
		json_str(j, "name", d->name[0] ? d->name : NULL);
		json_arr_begin(j, "workloads");
		for (k = 0; k < r->n; k++)
			if (&r->wls[k].result.devr == d ||
			    (d->name[0] && !strcmp(r->wls[k].result.devr.name, d->name)))
				json_u64(j, NULL, k + 1);
		json_arr_end(j);
		put_dev_kind(j, d, DEV_READ, "reads", "read_merges", "read_bytes");
		put_dev_kind(j, d, DEV_WRITE, "writes", "write_merges",
			     "write_bytes");
		put_dev_kind(j, d, DEV_DISCARD, "discards", "discard_merges",
			     "discard_bytes");
		put_dev_kind(j, d, DEV_FLUSH, "flushes", NULL, NULL);
		if (d->known) {
			json_u64(j, "io_ticks_ms", d->io_ticks_ms);
			json_u64(j, "time_in_queue_ms", d->queue_ms);
			json_num(j, "elapsed_s", (double)d->elapsed_ns / 1e9);
		} else {
			json_null(j, "io_ticks_ms");
			json_null(j, "time_in_queue_ms");
			json_null(j, "elapsed_s");
		}
		put_num_or_null(j, "util_pct", devstat_util_pct(d));
		put_num_or_null(j, "mean_queue_depth", devstat_queue_depth(d));
		if (d->known)
			json_bool(j, "shared", d->shared);
		else
			json_null(j, "shared");
		json_str(j, "shared_reason", d->shared ? d->shared_why : NULL);
		json_str(j, "unknown", d->known ? NULL : d->why);
		json_obj_end(j);
	}
	json_arr_end(j);
}

/* Fields 96-97 (TERSE_FIELD_DEV_READS, _BYTES): the workload's own read
 * requests and bytes that reached its device during the run, when it
 * alone used the device (the total line: when every device was the run's
 * alone), else "- -": the device lines have the device-wide counts. */
static void device_terse(FILE *f, const struct section_ctx *c)
{
	struct dev_reads d;

	if (report_dev_own(c->r, c->wl, &d))
		fprintf(f, " %llu %llu", (unsigned long long)d.reads,
			(unsigned long long)d.bytes);
	else
		fprintf(f, " - -");
}

/* A device count, "-" when the kernel does not keep that kind. */
static void put_dev_count(FILE *f, const struct dev_reads *d, int k,
			  bool bytes)
{
	if (!d->has[k]) {
		fprintf(f, bytes ? " - - -" : " -");
		return;
	}
	fprintf(f, " %llu", (unsigned long long)d->ios[k]);
	if (bytes)
		fprintf(f, " %llu %llu", (unsigned long long)d->merges[k],
			(unsigned long long)d->nbytes[k]);
}

/* One line per device of the run, after the workload and total lines:
 * "device", its name, then reads, read merges, read bytes, the same for
 * writes and discards, flushes (each "-" when the kernel does not count
 * it), utilization %, mean queue depth, the seconds between the two
 * readings and "shared" or "alone" (16 fields; rebench-output(5), RAW
 * STATISTICS).  A device whose counters are unknown has no line. */
static void devices_terse(FILE *f, const struct report *r, const char *suffix)
{
	const struct dev_reads *devs[MAX_WORKLOADS];
	size_t i, n = report_devices(r, devs);

	for (i = 0; i < n; i++) {
		const struct dev_reads *d = devs[i];

		if (!d->known)
			continue;
		fprintf(f, "device %s", d->name);
		put_dev_count(f, d, DEV_READ, true);
		put_dev_count(f, d, DEV_WRITE, true);
		put_dev_count(f, d, DEV_DISCARD, true);
		put_dev_count(f, d, DEV_FLUSH, false);
		fprintf(f, " %.3f %.3f %.6f %s%s\n", devstat_util_pct(d),
			devstat_queue_depth(d), (double)d->elapsed_ns / 1e9,
			d->shared ? "shared" : "alone", suffix ? suffix : "");
	}
}

/* The workload's own reads that reached its device and their share of its
 * reads (of all its requests when it did not read), when it alone used
 * the device; else "-": the table leaves the device-wide counts out (the
 * -n and JSON outputs have them). */
static void device_tsv(FILE *f, const struct section_ctx *c)
{
	const struct result *res = c->res;
	struct dev_reads d;
	double per;

	if (!report_dev_own(c->r, c->wl, &d)) {
		fprintf(f, "\t-\t-");
		return;
	}
	per = devstat_per(&d, res->ops[IO_READ] ? res->ops[IO_READ] :
						   res->ops_total);
	fprintf(f, "\t%llu", (unsigned long long)d.reads);
	if (isnan(per))
		fprintf(f, "\t-");
	else
		fprintf(f, "\t%.3f", per);
}

const struct section section_device = {
	.name = "device",
	.human = { [HUMAN_END] = device_human },
	.json = { [JSON_RATES] = device_json },
	.terse = { [TERSE_PASSES] = device_terse },
	.tsv_head = "\tdevice_reads\tdevice_reads_per_request",
	.tsv = device_tsv,
	.run_human = devices_human,
	.run_json = devices_json,
	.run_terse = devices_terse,
};
