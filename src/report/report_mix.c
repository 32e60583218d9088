/* report_mix.c - what the operation and size mixes asked for and what the
 * run achieved, in the human and JSON outputs. */
#include <stdio.h>

#include "core/units.h"

#include "core/json.h"
#include "report/report.h"
#include "report/summary.h"

const char *spec_op_text(const struct spec *s, char *buf, size_t len)
{
	if (s->op != OP_MIX)
		return op_name(s->op);
	return mix_ops_text(&s->opmix, buf, len);
}

bool spec_shows_stride(const struct spec *s)
{
	/* a size mix aligns to its smallest size on its own: only a stride
	 * the user gave is worth a mention */
	if (size_mix_active(&s->bsmix))
		return s->stride != 0;
	return s->stride_eff != s->bs;
}

/* "Sizes: 4k 10.0% (9.9%), 64k 50.0% (50.1%): chi-square 1.2 on 2 dof
 * (p 0.55)": intended, then achieved in brackets. */
void report_human_sizes(FILE *f, const struct workload *wl)
{
	const struct size_fit *fit = &wl->size_fit;
	const struct size_table *t = &wl->sizes;
	char label[64];
	unsigned i;

	if (!fit->present)
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

/* parameters.operation_mix and parameters.size_mix */
void report_json_mix_params(struct json *j, const struct spec *s)
{
	const struct size_mix *m = &s->bsmix;
	char text[512];
	unsigned i;
	int k;

	if (s->op == OP_MIX) {
		json_obj_begin(j, "operation_mix_pct");
		for (k = 0; k < IO_KINDS; k++)
			if (s->opmix.pct[k] > 0)
				json_num(j, io_kind_name(k), s->opmix.pct[k]);
		json_obj_end(j);
	}
	if (!size_mix_active(m)) {
		json_null(j, "size_mix");
		return;
	}
	json_obj_begin(j, "size_mix");
	json_str(j, "text", mix_sizes_text(m, s->bs, text, sizeof(text)));
	json_str(j, "kind", m->range ? "range" : "split");
	if (m->range) {
		json_u64(j, "min", m->size[0]);
		json_u64(j, "max", m->size[1]);
		json_u64(j, "step", m->step);
	} else {
		json_arr_begin(j, "sizes");
		for (i = 0; i < m->n; i++) {
			json_obj_begin(j, NULL);
			json_u64(j, "bytes", m->size[i]);
			json_num(j, "pct", m->pct[i]);
			json_obj_end(j);
		}
		json_arr_end(j);
	}
	json_obj_end(j);
}

/* results.sizes: each bin's intended and achieved share, and the fit */
void report_json_sizes(struct json *j, const struct workload *wl)
{
	const struct size_fit *fit = &wl->size_fit;
	const struct size_table *t = &wl->sizes;
	char label[64];
	unsigned i;

	if (!fit->present) {
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
