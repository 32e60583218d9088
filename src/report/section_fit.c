/* section_fit.c - how well a random workload's offsets fit the
 * distribution asked for (fit.h): the human "Distribution:" line, JSON
 * "distribution" and -n fields 19-21.  A sequential workload and the
 * total have none ("-", null). */
#include <stdio.h>

#include "core/json.h"
#include "report/section.h"
#include "report/summary.h"

static const struct fit *fit_of(const struct section_ctx *c)
{
	return c->wl && c->wl->result.fit.present ? &c->wl->result.fit : NULL;
}

static void fit_human(FILE *f, const struct section_ctx *c)
{
	const struct fit *d = fit_of(c);

	if (!d)
		return;
	fprintf(f, "Distribution: %s: ", d->name);
	if (d->dof)
		fprintf(f, "chi-square %.1f on %u dof (p %.3g), ", d->chi2,
			d->dof, d->p_value);
	fprintf(f, "KS D %.4f over %d slices%s\n", d->ks_d, DIST_SLICES,
		d->rank_space ? " (before scatter)" : "");
}

static void put_shares(struct json *j, const char *key, const uint64_t *c,
		       uint64_t n)
{
	int i;

	json_arr_begin(j, key);
	for (i = 0; i < DIST_SLICES; i++)
		json_num(j, NULL, (double)c[i] / (double)n);
	json_arr_end(j);
}

static void fit_json(struct json *j, const struct section_ctx *c)
{
	const struct fit *f = fit_of(c);
	int i;

	if (!f) {
		json_null(j, "distribution");
		return;
	}
	json_obj_begin(j, "distribution");
	json_str(j, "name", f->name);
	json_u64(j, "ios", f->n);
	json_u64(j, "slices", DIST_SLICES);
	json_str(j, "fit_space", f->rank_space ? "rank" : "offset");
	put_shares(j, "achieved", f->slices, f->n);
	if (f->rank_space)
		put_shares(j, "achieved_rank", f->fitted, f->n);
	json_arr_begin(j, "intended");
	for (i = 0; i < DIST_SLICES; i++)
		json_num(j, NULL, f->intended[i]);
	json_arr_end(j);
	json_num(j, "chi2", f->chi2);
	json_u64(j, "dof", f->dof);
	json_num(j, "p_value", f->p_value);
	json_num(j, "ks_d", f->ks_d);
	json_obj_end(j);
}

/* Fields 19-21: KS D, the chi-square p-value ("-" with no dof) and dof. */
static void fit_terse(FILE *f, const struct section_ctx *c)
{
	const struct fit *fit = fit_of(c);

	if (!fit)
		fprintf(f, " - - -");
	else if (!fit->dof)
		fprintf(f, " %.6f - 0", fit->ks_d);
	else
		fprintf(f, " %.6f %.6f %u", fit->ks_d, fit->p_value, fit->dof);
}

const struct section section_fit = {
	.name = "distribution fit",
	.human = { [HUMAN_TOTALS] = fit_human },
	.json = { [JSON_INTERVALS] = fit_json },
	.terse = { [TERSE_STATUS] = fit_terse },
};
