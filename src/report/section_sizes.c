/* section_sizes.c - what a size mix (-b 4k/10:64k/90, 4k-64k/4k)
 * achieved, bin by bin, against what it asked for: the human "Sizes"
 * line and JSON "sizes"; no -n field.  A workload without a size mix and
 * the total have none (null). */
#include <stdio.h>

#include "core/json.h"
#include "core/units.h"
#include "report/section.h"
#include "report/summary.h"

/* "Sizes: 4k 10.0% (9.9%), 64k 50.0% (50.1%): chi-square 1.2 on 2 dof
 * (p 0.55)": intended, then achieved in brackets. */
static void sizes_human(FILE *f, const struct section_ctx *c)
{
	const struct workload *wl = c->wl;
	const struct size_fit *fit = wl ? &wl->result.size_fit : NULL;
	const struct size_table *t = wl ? &wl->run.sizes : NULL;
	char label[64];
	unsigned i;

	if (!fit || !fit->present)
		return;
	if (fit->nbins > 8) {
		/* a long range: the spread of the bins, each in --json */
		double lo = 1, hi = 0, share;
		char a[32], b[32];

		for (i = 0; i < fit->nbins; i++) {
			/* a full bin's share: the last bin may hold fewer
			 * sizes, so scale it by what it was meant to get */
			share = (double)fit->hits[i] / (double)fit->n *
				((double)t->per_bin / (double)t->nsizes) /
				t->intended[i];
			if (share < lo)
				lo = share;
			if (share > hi)
				hi = share;
		}
		fprintf(f, "Sizes: %llu sizes %s-%s in %u bins of %llu: achieved %.2f%%..%.2f%% per bin against %.2f%% each",
			(unsigned long long)t->nsizes,
			fmt_size_short(a, sizeof(a), t->min),
			fmt_size_short(b, sizeof(b), t->min + (t->nsizes - 1) * t->step),
			fit->nbins, (unsigned long long)t->per_bin, 100 * lo,
			100 * hi, 100.0 * (double)t->per_bin / (double)t->nsizes);
	} else {
		fprintf(f, "Sizes (intended, achieved):");
		for (i = 0; i < fit->nbins; i++)
		fprintf(f, "%s %s %.1f%% (%.1f%%)", i ? "," : "",
			size_bin_label(t, i, label, sizeof(label)),
			100 * t->intended[i],
			100.0 * (double)fit->hits[i] / (double)fit->n);
	}
	if (fit->dof)
		fprintf(f, "; chi-square %.1f on %u dof (p %.3g)", fit->chi2,
			fit->dof, fit->p_value);
	fputc('\n', f);
}

/* results.sizes: each bin's intended and achieved share, and the fit */
static void sizes_json(struct json *j, const struct section_ctx *c)
{
	const struct workload *wl = c->wl;
	const struct size_fit *fit = wl ? &wl->result.size_fit : NULL;
	const struct size_table *t = wl ? &wl->run.sizes : NULL;
	char label[64];
	unsigned i;

	if (!fit || !fit->present) {
		json_null(j, "sizes");
		return;
	}
	json_obj_begin(j, "sizes");
	json_arr_begin(j, "bins");
	for (i = 0; i < fit->nbins; i++) {
		json_obj_begin(j, NULL);
		json_str(j, "sizes", size_bin_label(t, i, label, sizeof(label)));
		json_u64(j, "ios", fit->hits[i]);
		json_num(j, "intended_pct", 100 * t->intended[i]);
		json_num(j, "achieved_pct",
			 100.0 * (double)fit->hits[i] / (double)fit->n);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_num(j, "chi_square", fit->chi2);
	json_u64(j, "dof", fit->dof);
	if (fit->dof)
		json_num(j, "p_value", fit->p_value);
	else
		json_null(j, "p_value");
	json_obj_end(j);
}

const struct section section_sizes = {
	.name = "sizes",
	.human = { [HUMAN_TOTALS] = sizes_human },
	.json = { [JSON_RESULTS_END] = sizes_json },
};
