/* mix.c - operation and size mixes: parse, draw tables, describe, fit. */
#include "gen/mix.h"

#include <errno.h>
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/units.h"

const char *io_kind_name(int kind)
{
	static const char *const names[IO_KINDS] = {
		"read", "write", "trim", "fsync", "fdatasync",
		"sync_file_range",
	};

	return kind >= 0 && kind < IO_KINDS ? names[kind] : "?";
}

/* One KEY[/PCT] entry of a mix; pct < 0 when blank. */
struct share {
	char key[64];
	double pct;
};

/*
 * Split "K/P:K/P:K" into entries and fill the blank shares evenly with
 * what the given ones leave.  what names the mix in messages ("operation
 * mix", "size split").  Returns the entry count, or -EINVAL with err set.
 */
static int parse_shares(const char *text, const char *what,
			struct share *out, int max, char *err, size_t len)
{
	const char *p = text;
	double given = 0;
	int n = 0, blanks = 0, i;

	for (;;) {
		const char *end = strchr(p, ':');
		size_t elen = end ? (size_t)(end - p) : strlen(p);
		char entry[96], *slash;

		if (n == max) {
			snprintf(err, len, "a %s holds at most %d entries", what, max);
			return -EINVAL;
		}
		if (!elen || elen >= sizeof(entry)) {
			snprintf(err, len, "entry %d of the %s is %s; write KEY/PERCENT entries separated by ':'",
				 n + 1, what, elen ? "too long" : "empty");
			return -EINVAL;
		}
		memcpy(entry, p, elen);
		entry[elen] = '\0';
		slash = strchr(entry, '/');
		if (slash)
			*slash++ = '\0';
		if (!*entry || strlen(entry) >= sizeof(out[n].key)) {
			snprintf(err, len, "entry %d of the %s ('%s') has no %s before the '/'",
				 n + 1, what, entry, what[0] == 'o' ? "operation" : "size");
			return -EINVAL;
		}
		strcpy(out[n].key, entry);
		out[n].pct = -1;
		if (slash && *slash) {
			if (parse_percent(slash, &out[n].pct) || out[n].pct < 0 ||
			    out[n].pct > 100) {
				snprintf(err, len, "share '%s' of %s: expected a percentage from 0 to 100",
					 slash, entry);
				return -EINVAL;
			}
			given += out[n].pct;
		} else {
			blanks++;
		}
		n++;
		if (!end)
			break;
		p = end + 1;
	}
	if (given > 100 + 1e-9) {
		snprintf(err, len, "the shares of the %s add up to %g%%, more than 100%%; lower them",
			 what, given);
		return -EINVAL;
	}
	if (!blanks && fabs(given - 100) > 1e-9) {
		snprintf(err, len, "the shares of the %s add up to %g%%, not 100%%; fix them, or leave one blank (KEY or KEY/) to take the rest",
			 what, given);
		return -EINVAL;
	}
	for (i = 0; i < n; i++)
		if (out[i].pct < 0)
			out[i].pct = (100 - given) / blanks;
	return n;
}

static int kind_of(const char *name)
{
	int k;

	for (k = 0; k < IO_KINDS; k++)
		if (!strcasecmp(name, io_kind_name(k)))
			return k;
	return -1;
}

int mix_parse_ops(const char *text, int *op, struct op_mix *mix,
		  char *err, size_t len)
{
	struct share sh[IO_KINDS + 1];
	int n, i;

	n = parse_shares(text, "operation mix", sh, IO_KINDS, err, len);
	if (n < 0)
		return n;
	memset(mix, 0, sizeof(*mix));
	for (i = 0; i < n; i++) {
		int k = kind_of(sh[i].key), j;

		if (k < 0) {
			snprintf(err, len, "'%s' is not an operation; a mix takes read, write, trim, fsync and fdatasync",
				 sh[i].key);
			return -EINVAL;
		}
		if (k == IO_SYNC_RANGE) {
			snprintf(err, len, "sync_file_range cannot be drawn in a mix: its range is the writes since the last one; use --sync sfr:N for one after every N writes");
			return -EINVAL;
		}
		for (j = 0; j < i; j++)
			if (kind_of(sh[j].key) == k) {
				snprintf(err, len, "%s is named twice; give each operation once with its whole share",
					 io_kind_name(k));
				return -EINVAL;
			}
		mix->pct[k] = sh[i].pct;
	}
	*op = OP_MIX;	/* shares add up to 100: some kind has one */
	return 0;
}

void mix_ops_of(int op, double rwmix, struct op_mix *mix)
{
	memset(mix, 0, sizeof(*mix));
	switch (op) {
	case OP_WRITE:
		mix->pct[IO_WRITE] = 100;
		break;
	case OP_TRIM:
		mix->pct[IO_TRIM] = 100;
		break;
	case OP_RW:
		mix->pct[IO_READ] = rwmix;
		mix->pct[IO_WRITE] = 100 - rwmix;
		break;
	default:
		mix->pct[IO_READ] = 100;
	}
}

unsigned mix_kinds(const struct op_mix *mix)
{
	unsigned bits = 0;
	int k;

	for (k = 0; k < IO_KINDS; k++)
		if (mix->pct[k] > 0)
			bits |= 1U << k;
	return bits;
}

static int parse_one_size(const char *s, uint64_t *v, char *err, size_t len)
{
	int ret = parse_size(s, v);

	if (!ret && *v > (1ULL << 30)) {
		snprintf(err, len, "%s: a size must be at most 1g (1073741824 bytes)", s);
		return -EINVAL;
	}
	if (ret || !*v) {
		snprintf(err, len, "'%s' is not a size from 1 byte to 1g (k, m, g suffixes)%s",
			 s, !ret && !*v ? ": an I/O of 0 bytes moves nothing" : "");
		return -EINVAL;
	}
	return 0;
}

/* MIN-MAX[/STEP] */
static int parse_range(const char *text, const char *dash, uint64_t *bs,
		       struct size_mix *m, char *err, size_t len)
{
	char lo[64], hi[64];
	const char *slash = strchr(dash, '/');
	size_t n = (size_t)(dash - text);
	size_t hn = slash ? (size_t)(slash - dash - 1) : strlen(dash + 1);

	if (n >= sizeof(lo) || hn >= sizeof(hi)) {
		snprintf(err, len, "too long for a size range MIN-MAX[/STEP]");
		return -EINVAL;
	}
	memcpy(lo, text, n);
	lo[n] = '\0';
	memcpy(hi, dash + 1, hn);
	hi[hn] = '\0';
	memset(m, 0, sizeof(*m));
	m->range = true;
	m->n = 2;
	m->pct[0] = m->pct[1] = 50;
	if (parse_one_size(lo, &m->size[0], err, len) ||
	    parse_one_size(hi, &m->size[1], err, len))
		return -EINVAL;
	if (m->size[1] <= m->size[0]) {
		snprintf(err, len, "the range %s-%s is empty or one size; write MIN-MAX with MIN below MAX, or one size",
			 lo, hi);
		return -EINVAL;
	}
	if (slash) {
		if (parse_one_size(slash + 1, &m->step, err, len))
			return -EINVAL;
		m->step_given = true;
		if ((m->size[1] - m->size[0]) % m->step) {
			snprintf(err, len, "the step %s does not divide the range %s-%s (%llu bytes wide); choose a step that does, or move MAX",
				 slash + 1, lo, hi,
				 (unsigned long long)(m->size[1] - m->size[0]));
			return -EINVAL;
		}
	}
	*bs = m->size[1];
	return 0;
}

int mix_parse_sizes(const char *text, uint64_t *bs, struct size_mix *m,
		    char *err, size_t len)
{
	struct share sh[SIZE_MIX_MAX];
	const char *dash = strchr(text, '-');
	int n, i, j;

	if (dash && !strchr(text, ':'))
		return parse_range(text, dash, bs, m, err, len);
	memset(m, 0, sizeof(*m));
	if (!strchr(text, ':') && !strchr(text, '/'))
		return parse_one_size(text, bs, err, len);
	n = parse_shares(text, "size split", sh, SIZE_MIX_MAX, err, len);
	if (n < 0)
		return n;
	*bs = 0;
	for (i = 0; i < n; i++) {
		if (parse_one_size(sh[i].key, &m->size[i], err, len))
			return -EINVAL;
		for (j = 0; j < i; j++)
			if (m->size[j] == m->size[i]) {
				snprintf(err, len, "the size %s is named twice; give each size once with its whole share",
					 sh[i].key);
				return -EINVAL;
			}
		m->pct[i] = sh[i].pct;
		if (m->size[i] > *bs)
			*bs = m->size[i];
	}
	m->n = (unsigned)n;
	return 0;
}

bool size_mix_active(const struct size_mix *m)
{
	return m->n > 0;
}

uint64_t size_mix_min(const struct size_mix *m, uint64_t bs)
{
	uint64_t min = bs;
	unsigned i;

	for (i = 0; i < m->n; i++)
		if (m->size[i] < min && (m->range || m->pct[i] > 0))
			min = m->size[i];
	return min;
}

double size_mix_mean(const struct size_mix *m, uint64_t bs)
{
	double sum = 0;
	unsigned i;

	if (!m->n)
		return (double)bs;
	if (m->range)
		return ((double)m->size[0] + (double)m->size[1]) / 2;
	for (i = 0; i < m->n; i++)
		sum += (double)m->size[i] * m->pct[i] / 100;
	return sum;
}

void size_table_build(struct size_table *t, const struct size_mix *m)
{
	double cum = 0;
	unsigned i;

	memset(t, 0, sizeof(*t));
	if (!m->n)
		return;
	t->active = true;
	if (m->range) {
		t->min = m->size[0];
		t->step = m->step;
		t->nsizes = (m->size[1] - m->size[0]) / m->step + 1;
		t->per_bin = (t->nsizes + SIZE_BINS_MAX - 1) / SIZE_BINS_MAX;
		t->nbins = (unsigned)((t->nsizes + t->per_bin - 1) / t->per_bin);
		for (i = 0; i < t->nbins; i++) {
			uint64_t first = i * t->per_bin, last = first + t->per_bin;

			if (last > t->nsizes)
				last = t->nsizes;
			t->intended[i] = (double)(last - first) / (double)t->nsizes;
		}
		return;
	}
	t->n = t->nbins = m->n;
	for (i = 0; i < m->n; i++) {
		cum += m->pct[i];
		t->size[i] = (uint32_t)m->size[i];
		t->intended[i] = m->pct[i] / 100;
		/* the last entry takes whatever rounding left */
		t->below[i] = i + 1 == m->n ? MIX_ONE :
			      (uint64_t)(cum / 100 * (double)MIX_ONE);
	}
}

char *mix_ops_text(const struct op_mix *mix, char *buf, size_t len)
{
	size_t n = 0;
	int k;

	buf[0] = '\0';
	for (k = 0; k < IO_KINDS && n < len; k++)
		if (mix->pct[k] > 0)
			n += (size_t)snprintf(buf + n, len - n, "%s%s/%g",
					      n ? ":" : "", io_kind_name(k),
					      mix->pct[k]);
	return buf;
}

char *mix_sizes_text(const struct size_mix *m, uint64_t bs, char *buf,
		     size_t len)
{
	char a[32], b[32], c[32];
	size_t n = 0;
	unsigned i;

	if (!m->n)
		return fmt_size_short(buf, len, bs);
	if (m->range) {
		snprintf(buf, len, "%s-%s/%s",
			 fmt_size_short(a, sizeof(a), m->size[0]),
			 fmt_size_short(b, sizeof(b), m->size[1]),
			 fmt_size_short(c, sizeof(c), m->step));
		return buf;
	}
	buf[0] = '\0';
	for (i = 0; i < m->n && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s/%g", i ? ":" : "",
				      fmt_size_short(a, sizeof(a), m->size[i]),
				      m->pct[i]);
	return buf;
}

char *size_bin_label(const struct size_table *t, unsigned bin, char *buf,
		     size_t len)
{
	char a[32], b[32];
	uint64_t first, last;

	if (t->n) {
		fmt_size_short(buf, len, t->size[bin]);
		return buf;
	}
	first = t->min + bin * t->per_bin * t->step;
	last = first + (t->per_bin - 1) * t->step;
	if (last > t->min + (t->nsizes - 1) * t->step)
		last = t->min + (t->nsizes - 1) * t->step;
	if (first == last)
		fmt_size_short(buf, len, first);
	else
		snprintf(buf, len, "%s-%s", fmt_size_short(a, sizeof(a), first),
			 fmt_size_short(b, sizeof(b), last));
	return buf;
}

void size_fit_compute(struct size_fit *f, const struct size_table *t,
		      const uint64_t *const *hits, unsigned nthreads)
{
	double chi2 = 0, exp_acc = 0, obs_acc = 0;
	unsigned i, th, bins = 0;

	memset(f, 0, sizeof(*f));
	if (!t->active)
		return;
	f->nbins = t->nbins;
	for (th = 0; th < nthreads; th++)
		for (i = 0; i < t->nbins; i++)
			f->hits[i] += hits[th][i];
	for (i = 0; i < t->nbins; i++)
		f->n += f->hits[i];
	if (!f->n)
		return;
	f->present = true;
	/* Pearson's chi-square, adjacent bins merged until each expects at
	 * least 5 I/Os; the last group is closed with what it holds */
	for (i = 0; i < t->nbins; i++) {
		exp_acc += t->intended[i] * (double)f->n;
		obs_acc += (double)f->hits[i];
		if (exp_acc >= 5 || i + 1 == t->nbins) {
			if (exp_acc > 0) {
				chi2 += (obs_acc - exp_acc) * (obs_acc - exp_acc) /
					exp_acc;
				bins++;
			}
			exp_acc = obs_acc = 0;
		}
	}
	f->chi2 = chi2;
	f->dof = bins > 1 ? bins - 1 : 0;
	f->p_value = f->dof ? gsl_cdf_chisq_Q(chi2, (double)f->dof) : 1;
}
