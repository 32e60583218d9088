/* dry_run.c - see dry_run.h. */
#include "report/dry_run.h"

#include <limits.h>

#include <stdio.h>

#include "engines/iokind.h"
#include "core/fileset.h"
#include "core/json.h"
#include "core/outpath.h"
#include "core/plan.h"
#include "report/summary.h"

/* "read", "read+write", ... of the kinds a workload issues */
static void kinds_words(const struct spec *s, char *buf, size_t len)
{
	unsigned kinds = spec_kinds(s);
	size_t n = 0;
	int k;

	buf[0] = '\0';
	for (k = 0; k < IO_KINDS && n < len; k++)
		if (kinds & (1U << k))
			n += (size_t)snprintf(buf + n, len - n, "%s%s",
					      n ? "+" : "", io_kind_name(k));
}

int dry_run_report(const struct workload *wls, size_t n, size_t points,
		   bool destroys, const struct run_opts *run)
{
	struct json jw, *j = &jw;
	char kinds[128];
	size_t k;

	for (k = 0; k < n; k++)
		destroys = destroys || workload_destroys_data(&wls[k]);
	if (run->json) {
		json_init(j, stdout);
		report_json_head(j);
		json_obj_begin(j, "dry_run");
		json_u64(j, "points", points);
		json_bool(j, "destroys", destroys);
		json_arr_begin(j, "workloads");
		for (k = 0; k < n; k++) {
			kinds_words(&wls[k].spec, kinds, sizeof(kinds));
			json_obj_begin(j, NULL);
			json_u64(j, "workload", k + 1);
			json_str(j, "target", wls[k].tgt.path);
			json_str(j, "operations", kinds);
			json_bool(j, "destroys", workload_destroys_data(&wls[k]));
			json_obj_end(j);
		}
		json_arr_end(j);
		json_obj_end(j);
		json_obj_end(j);
		putchar('\n');
	} else if (run->silent) {
		for (k = 0; k < n; k++) {
			kinds_words(&wls[k].spec, kinds, sizeof(kinds));
			printf("dry-run 1 %zu %s %s %d %zu\n", k + 1,
			       wls[k].tgt.path, kinds,
			       workload_destroys_data(&wls[k]), points);
		}
	} else {
		printf("Dry run: %zu workload%s%s checked against %s target%s; nothing ran.\n",
		       n, n == 1 ? "" : "s", points > 1 ? " at every sweep point" : "",
		       n == 1 ? "its" : "their", n == 1 ? "" : "s");
		for (k = 0; k < n; k++) {
			char files[PATH_MAX + 64];

			if (wls[k].files)	/* many files: the set */
				fileset_label(&wls[k], files, sizeof(files));
			kinds_words(&wls[k].spec, kinds, sizeof(kinds));
			printf("  workload %zu: %s: %s%s\n", k + 1,
			       wls[k].files ? files : wls[k].tgt.path,
			       kinds, !workload_destroys_data(&wls[k]) ? "" :
			       run->yes || run->silent ?
			       " (writes: confirmed by --yes)" :
			       " (writes: it would ask first)");
		}
		if (points > 1)
			printf("  %zu points%s\n", points, destroys ?
			       "; some write" : "");
	}
	return outpath_flush_stdout() ? EXIT_OUTPUT_FAILED : EXIT_OK;
}
