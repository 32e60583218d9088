/* characterize_out.c - --characterize's document (characterize.h): the
 * human report, and JSON whose names (characterize.page_bytes ...) other
 * tools can read; rebench-output(5) has every field.
 */
#include "characterize/characterize.h"

#include <math.h>
#include <stdio.h>

#include "core/json.h"
#include "core/units.h"
#include "report/summary.h"

static const char *const verdict_names[] = {
	[CHAR_SAME] = "same", [CHAR_MORE] = "costs more",
	[CHAR_UNSURE] = "within noise", [CHAR_LESS] = "costs less",
};

static const char *sz(char *buf, size_t len, double bytes)
{
	return fmt_size_exact(buf, len, (uint64_t)bytes);
}

static void human_head(FILE *f, const struct characterize_result *r)
{
	const struct target *t = &r->tgt;
	char a[32], b[32], c[32], d[32];

	fprintf(f, "Characterizing %s: %s, %s%s%s\n", t->path,
		t->kind == TARGET_PARTITION ? "a partition" : "a whole device",
		fmt_size_human(a, sizeof(a), t->size), t->model[0] ? ", " : "",
		t->model);
	fprintf(f, "  it reports: logical sector %s, physical %s, minimum I/O %s, optimal I/O %s, rotational %s, write cache %s\n",
		sz(a, sizeof(a), t->logical), sz(b, sizeof(b), t->physical),
		sz(c, sizeof(c), t->min_io),
		t->opt_io ? sz(d, sizeof(d), t->opt_io) : "none",
		t->rotational < 0 ? "unknown" : t->rotational ? "yes" : "no",
		t->write_cache[0] ? t->write_cache : "unknown");
}

/* How a figure reads: a number, bytes exactly (a unit is a power of
 * two), or bytes to three digits (a cache size is an estimate). */
enum fig_kind { FIG_NUMBER, FIG_BYTES, FIG_ABOUT_BYTES };

static const char *fig_size(char *buf, size_t len, double v, enum fig_kind k)
{
	return k == FIG_BYTES ? sz(buf, len, v) :
	       fmt_size_human(buf, len, (uint64_t)v);
}

static void human_figure(FILE *f, const char *name,
			 const struct char_figure *g, enum fig_kind k)
{
	char v[32], l[32], h[32];

	if (!g->known) {
		fprintf(f, "%s: none concluded\n", name);
	} else if (k != FIG_NUMBER) {
		if (g->low < g->high)
			fprintf(f, "%s: %s (between %s and %s)\n", name,
				fig_size(v, sizeof(v), g->value, k),
				fig_size(l, sizeof(l), g->low, k),
				fig_size(h, sizeof(h), g->high, k));
		else
			fprintf(f, "%s: %s\n", name,
				fig_size(v, sizeof(v), g->value, k));
	} else {
		fprintf(f, "%s: %.1f (95%%: %.1f-%.1f)\n", name, g->value,
			g->low, g->high);
	}
	fprintf(f, "  %s\n", g->basis);
}

static void human_boundaries(FILE *f, const struct characterize_result *r)
{
	char a[32];
	size_t i;

	human_figure(f, "Unit (page, alignment)", &r->page, FIG_BYTES);
	if (!r->nb)
		return;
	fprintf(f, "  %s random reads, median latency with its 95%% interval; inside a unit: %.1f us (%.1f-%.1f), %llu reads\n",
		sz(a, sizeof(a), (double)r->read_bytes), r->inside_p50_us,
		r->inside_lo_us, r->inside_hi_us,
		(unsigned long long)r->inside_reads);
	fprintf(f, "  %d rounds of %llu reads each way a boundary, up to %d while the verdict is open\n",
		CHAR_ROUNDS, (unsigned long long)r->round_reads,
		CHAR_MAX_ROUNDS);
	fprintf(f, "  %-10s %10s %22s %6s  %s\n", "boundary", "p50 (us)",
		"crossing / inside", "rounds", "verdict");
	for (i = 0; i < r->nb; i++) {
		const struct char_boundary *b = &r->b[i];
		char ratio[48];

		snprintf(ratio, sizeof(ratio), "%.2f (%.2f-%.2f)", b->ratio,
			 b->low, b->high);
		fprintf(f, "  %-10s %10.1f %22s %6u  %s\n",
			sz(a, sizeof(a), (double)b->bytes), b->p50_us, ratio,
			b->rounds, verdict_names[b->verdict]);
	}
}

static void human_qd(FILE *f, const struct characterize_result *r)
{
	char a[32];
	size_t i;

	human_figure(f, "Parallelism (I/Os served at once)", &r->parallelism, FIG_NUMBER);
	if (!r->nq)
		return;
	fprintf(f, "  %s random reads, %s; each depth until its ops/s are known to +-%d%% (%d s at most); the 95%% interval of batch means\n",
		sz(a, sizeof(a), (double)r->qd_bytes), r->engine,
		CHAR_QD_PRECISION, CHAR_QD_SECONDS);
	fprintf(f, "  %-6s %10s %22s %10s %6s\n", "QD", "ops/s", "95% interval",
		"p50 (us)", "s");
	for (i = 0; i < r->nq; i++) {
		const struct char_qd *q = &r->q[i];
		char iv[48] = "-";

		if (q->known)
			snprintf(iv, sizeof(iv), "%.0f-%.0f", q->low, q->high);
		fprintf(f, "  %-6u %10.0f %22s %10.1f %6.2f%s\n", q->qd, q->iops,
			iv, q->p50_us, q->seconds,
			q->qd == r->knee_qd ? "  <- knee" : "");
	}
}

static void human_cache(FILE *f, const struct characterize_result *r)
{
	char a[32];
	size_t i;

	human_figure(f, "Read cache", &r->read_cache, FIG_ABOUT_BYTES);
	if (!r->ncs)
		return;
	if (r->hit_below_us > 0)
		fprintf(f, "  %s random reads over a working set after one pass over it, depth 1; a hit: under %.1f us\n",
			sz(a, sizeof(a), (double)r->qd_bytes), r->hit_below_us);
	else
		fprintf(f, "  %s random reads over a working set after one pass over it, depth 1; no read faster than a third of one across the target\n",
			sz(a, sizeof(a), (double)r->qd_bytes));
	fprintf(f, "  %-10s %8s %22s %10s\n", "set", "reads", "hits (95%)",
		"p50 (us)");
	for (i = 0; i < r->ncs; i++) {
		const struct char_cacheset *s = &r->cs[i];
		char h[48];

		snprintf(h, sizeof(h), "%.0f%% (%.0f-%.0f%%)", s->share * 100,
			 s->low * 100, s->high * 100);
		fprintf(f, "  %-10s %8llu %22s %10.1f\n",
			sz(a, sizeof(a), (double)s->bytes),
			(unsigned long long)s->reads, h, s->p50_us);
	}
}

static void human_spin(FILE *f, const struct characterize_result *r)
{
	char a[32], b[32];
	size_t i;

	human_figure(f, "Rotation (rpm)", &r->rpm, FIG_NUMBER);
	if (!r->spins)
		return;
	human_figure(f, "Seek, shortest measured (ms)", &r->seek_min, FIG_NUMBER);
	human_figure(f, "Seek, longest measured (ms)", &r->seek_max, FIG_NUMBER);
	if (r->nsk) {
		fprintf(f, "  %-22s %6s %10s %18s\n", "distance", "reads",
			"p50 (ms)", "seek (ms, 95%)");
		for (i = 0; i < r->nsk; i++) {
			const struct char_seek *s = &r->sk[i];
			char d[64], k[48];
			double ms, lo, hi;

			char_seek_of(r, s, &ms, &lo, &hi);
			snprintf(d, sizeof(d), "%s-%s", sz(a, sizeof(a), (double)s->lo),
				 sz(b, sizeof(b), (double)s->hi));
			snprintf(k, sizeof(k), "%.2f (%.2f-%.2f)", ms, lo, hi);
			fprintf(f, "  %-22s %6llu %10.2f %18s\n", d,
				(unsigned long long)s->n, s->p50_ms, k);
		}
	}
	if (r->nz) {
		fprintf(f, "Zones: 1 MiB sequential reads, MiB/s from the median read\n ");
		for (i = 0; i < r->nz; i++)
			fprintf(f, " %s: %.1f", fmt_size_human(a, sizeof(a), r->z[i].offset),
				r->z[i].mb_per_s);
		fprintf(f, "\n  the last is %.0f%% of the first\n",
			100 * r->z[r->nz - 1].mb_per_s / r->z[0].mb_per_s);
	}
}

static void human_flush(FILE *f, const struct characterize_result *r)
{
	const struct char_figure *g = &r->flush_honest;

	fprintf(f, "Flush honesty: %s\n  %s\n", !g->known ? "not concluded" :
		g->value ? "honest" : "NOT honest", g->basis);
	if (r->wrote)
		fprintf(f, "  %llu B random writes, depth 1: alone p50 %.1f us (%.1f-%.1f); %llu flushes after one each: p50 %.1f us (%.1f-%.1f)\n",
			(unsigned long long)r->flush_bytes, r->write_p50_us,
			r->write_lo_us, r->write_hi_us,
			(unsigned long long)r->flushes, r->flush_p50_us,
			r->flush_lo_us, r->flush_hi_us);
}

static void human_erase(FILE *f, const struct characterize_result *r)
{
	char a[32], k[48];
	size_t i;

	human_figure(f, "Erase block (the unit space is reclaimed in)",
		     &r->erase_block, FIG_BYTES);
	if (!r->nes)
		return;
	fprintf(f, "  the target %s (%.1f MiB/s), then writes at depth %u, MiB/s:\n",
		r->erase_trim ? "trimmed and written once" : "written twice",
		r->pre_mbs, r->erase_qd);
	fprintf(f, "  %-9s %10s %10s %20s  %s\n", "size", "seq", "random",
		"seq/random (95%)", "verdict");
	for (i = 0; i < r->nes && r->es[i].measured; i++) {
		const struct char_erase *e = &r->es[i];

		if (isfinite(e->high))
			snprintf(k, sizeof(k), "%.2f (%.2f-%.2f)", e->ratio,
				 e->low, e->high);
		else
			snprintf(k, sizeof(k), "%.2f (no interval)", e->ratio);
		fprintf(f, "  %-9s %10.1f %10.1f %20s  %s\n",
			sz(a, sizeof(a), (double)e->bytes), e->seq.mbs,
			e->rnd.mbs, k, verdict_names[e->verdict]);
	}
}

void char_print_human(FILE *f, const struct characterize_result *r)
{
	size_t i;

	human_head(f, r);
	fputc('\n', f);
	human_boundaries(f, r);
	fputc('\n', f);
	human_qd(f, r);
	fputc('\n', f);
	human_spin(f, r);
	fputc('\n', f);
	human_cache(f, r);
	fputc('\n', f);
	human_flush(f, r);
	fputc('\n', f);
	human_erase(f, r);
	fprintf(f, "\nWhat it reports, against what was measured:\n");
	for (i = 0; i < r->nreports; i++)
		fprintf(f, "  - %s\n", r->reports[i]);
	fprintf(f, "\nLayout:\n");
	for (i = 0; i < r->nadv; i++)
		fprintf(f, "  %-17s %s\n  %-17s   %s\n", r->adv[i].setting,
			r->adv[i].value, "", r->adv[i].reason);
	if (r->interrupted)
		fprintf(f, "\nInterrupted: the tests after the last one shown did not run.\n");
}

static void json_figure(struct json *j, const char *key,
			const struct char_figure *g)
{
	json_obj_begin(j, key);
	if (g->known) {
		json_num(j, "value", g->value);
		json_num(j, "low", g->low);
		json_num(j, "high", g->high);
	} else {
		json_null(j, "value");
		json_null(j, "low");
		json_null(j, "high");
	}
	json_str(j, "basis", g->basis);
	json_obj_end(j);
}

static void json_boundaries(struct json *j, const struct characterize_result *r)
{
	size_t i;

	json_obj_begin(j, "boundaries");
	json_u64(j, "read_bytes", r->read_bytes);
	json_obj_begin(j, "inside");
	json_u64(j, "reads", r->inside_reads);
	json_num(j, "p50_us", r->inside_p50_us);
	json_num(j, "low_us", r->inside_lo_us);
	json_num(j, "high_us", r->inside_hi_us);
	json_obj_end(j);
	json_arr_begin(j, "points");
	for (i = 0; i < r->nb; i++) {
		const struct char_boundary *b = &r->b[i];

		json_obj_begin(j, NULL);
		json_u64(j, "bytes", b->bytes);
		json_u64(j, "rounds", b->rounds);
		json_u64(j, "reads", b->reads);
		json_num(j, "p50_us", b->p50_us);
		json_num(j, "low_us", b->p50_lo_us);
		json_num(j, "high_us", b->p50_hi_us);
		json_num(j, "ratio", b->ratio);
		json_num(j, "ratio_low", b->low);
		json_num(j, "ratio_high", b->high);
		json_str(j, "verdict", verdict_names[b->verdict]);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
}

static void json_qds(struct json *j, const struct characterize_result *r)
{
	size_t i;

	json_obj_begin(j, "queue_depths");
	json_str(j, "engine", r->engine);
	json_u64(j, "block_size", r->qd_bytes);
	json_u64(j, "precision_pct", CHAR_QD_PRECISION);
	json_u64(j, "max_seconds", CHAR_QD_SECONDS);
	if (r->knee_qd)
		json_u64(j, "knee_qd", r->knee_qd);
	else
		json_null(j, "knee_qd");
	json_arr_begin(j, "points");
	for (i = 0; i < r->nq; i++) {
		const struct char_qd *q = &r->q[i];

		json_obj_begin(j, NULL);
		json_u64(j, "qd", q->qd);
		json_num(j, "ops_per_s", q->iops);
		if (q->known) {
			json_num(j, "low", q->low);
			json_num(j, "high", q->high);
		} else {
			json_null(j, "low");
			json_null(j, "high");
		}
		json_num(j, "p50_us", q->p50_us);
		json_num(j, "seconds", q->seconds);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
}

static void json_cache(struct json *j, const struct characterize_result *r)
{
	size_t i;

	json_obj_begin(j, "read_cache");
	json_num(j, "hit_below_us", r->hit_below_us > 0 ? r->hit_below_us : 0);
	json_arr_begin(j, "sets");
	for (i = 0; i < r->ncs; i++) {
		json_obj_begin(j, NULL);
		json_u64(j, "bytes", r->cs[i].bytes);
		json_u64(j, "reads", r->cs[i].reads);
		json_u64(j, "hits", r->cs[i].fast);
		json_num(j, "share", r->cs[i].share);
		json_num(j, "low", r->cs[i].low);
		json_num(j, "high", r->cs[i].high);
		json_num(j, "p50_us", r->cs[i].p50_us);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
}

static void json_spin(struct json *j, const struct characterize_result *r)
{
	size_t i;

	json_obj_begin(j, "rotation");
	json_bool(j, "spins", r->spins);
	json_num(j, "backward_p50_us", r->back_p50_us);
	json_num(j, "backward_long_p50_us", r->back2_p50_us);
	json_num(j, "revolution_us", r->rev_us);
	json_num(j, "forward_p50_us", r->fwd_p50_us);
	json_arr_begin(j, "seeks");
	for (i = 0; i < r->nsk; i++) {
		const struct char_seek *s = &r->sk[i];

		json_obj_begin(j, NULL);
		json_u64(j, "distance_low", s->lo);
		json_u64(j, "distance_high", s->hi);
		json_u64(j, "reads", s->n);
		json_num(j, "p50_ms", s->p50_ms);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_arr_begin(j, "zones");
	for (i = 0; i < r->nz; i++) {
		json_obj_begin(j, NULL);
		json_u64(j, "offset", r->z[i].offset);
		json_num(j, "mb_per_s", r->z[i].mb_per_s);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
}

static void json_flush(struct json *j, const struct characterize_result *r)
{
	json_obj_begin(j, "flush");
	json_bool(j, "measured", r->wrote);
	if (r->wrote) {
		json_u64(j, "block_size", r->flush_bytes);
		json_num(j, "write_p50_us", r->write_p50_us);
		json_num(j, "flush_p50_us", r->flush_p50_us);
		json_num(j, "flush_low_us", r->flush_lo_us);
		json_num(j, "flush_high_us", r->flush_hi_us);
		json_u64(j, "flushes", r->flushes);
		json_num(j, "bound_us", r->bound_us);
	}
	json_obj_end(j);
}

static void json_rate(struct json *j, const char *key,
		      const struct char_rate *x)
{
	json_obj_begin(j, key);
	json_num(j, "mb_per_s", x->mbs);
	if (x->known) {
		json_num(j, "low", x->low);
		json_num(j, "high", x->high);
	} else {
		json_null(j, "low");
		json_null(j, "high");
	}
	json_obj_end(j);
}

static void json_erase(struct json *j, const struct characterize_result *r)
{
	size_t i;

	json_obj_begin(j, "erase");
	json_bool(j, "measured", r->nes && r->es[0].measured);
	if (r->nes) {
		json_u64(j, "queue_depth", r->erase_qd);
		json_bool(j, "trimmed", r->erase_trim);
		json_num(j, "precondition_mb_per_s", r->pre_mbs);
	}
	json_arr_begin(j, "sizes");
	for (i = 0; i < r->nes && r->es[i].measured; i++) {
		const struct char_erase *e = &r->es[i];

		json_obj_begin(j, NULL);
		json_u64(j, "bytes", e->bytes);
		json_rate(j, "sequential", &e->seq);
		json_rate(j, "random", &e->rnd);
		json_num(j, "ratio", e->ratio);
		if (isfinite(e->high)) {
			json_num(j, "ratio_low", e->low);
			json_num(j, "ratio_high", e->high);
		} else {
			json_null(j, "ratio_low");
			json_null(j, "ratio_high");
		}
		json_str(j, "verdict", verdict_names[e->verdict]);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
}

void char_print_json(FILE *f, const struct characterize_result *r)
{
	struct json jw, *j = &jw;
	size_t i;

	json_init(j, f);
	report_json_head(j);
	json_obj_begin(j, "characterize");
	json_str(j, "target", r->tgt.path);
	json_u64(j, "disk_offset", r->disk_offset);
	json_figure(j, "page_bytes", &r->page);
	json_figure(j, "erase_block_bytes", &r->erase_block);
	json_figure(j, "parallelism", &r->parallelism);
	json_figure(j, "read_cache_bytes", &r->read_cache);
	json_obj_begin(j, "flush_honest");
	if (r->flush_honest.known) {
		json_bool(j, "value", r->flush_honest.value != 0);
		json_bool(j, "low", r->flush_honest.low != 0);
		json_bool(j, "high", r->flush_honest.high != 0);
	} else {
		json_null(j, "value");
		json_null(j, "low");
		json_null(j, "high");
	}
	json_str(j, "basis", r->flush_honest.basis);
	json_obj_end(j);
	json_figure(j, "rpm", &r->rpm);
	json_obj_begin(j, "seek_ms");
	json_figure(j, "min", &r->seek_min);
	json_figure(j, "max", &r->seek_max);
	json_obj_end(j);
	json_boundaries(j, r);
	json_qds(j, r);
	json_cache(j, r);
	json_spin(j, r);
	json_flush(j, r);
	json_erase(j, r);
	json_arr_begin(j, "reports");
	for (i = 0; i < r->nreports; i++)
		json_str(j, NULL, r->reports[i]);
	json_arr_end(j);
	json_arr_begin(j, "advice");
	for (i = 0; i < r->nadv; i++) {
		json_obj_begin(j, NULL);
		json_str(j, "setting", r->adv[i].setting);
		json_str(j, "value", r->adv[i].value);
		json_str(j, "reason", r->adv[i].reason);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_bool(j, "interrupted", r->interrupted);
	json_obj_end(j);
	json_obj_end(j);
	fputc('\n', f);
}
