/* characterize_judge.c - what --characterize's measurements mean
 * (characterize.h): the unit from the boundary reads, the parallelism
 * from the queue depths, where the device's own report disagrees, and the
 * layout that follows.  No I/O here: the unit tests feed it by hand.
 */
#include "characterize/characterize.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/units.h"

enum char_verdict char_verdict_of(double low, double high)
{
	if (low > CHAR_MATERIAL)
		return CHAR_MORE;
	if (high < 1 / CHAR_MATERIAL)
		return CHAR_LESS;
	if (high < CHAR_MATERIAL)
		return CHAR_SAME;
	return CHAR_UNSURE;
}

static const char *size_text(char *buf, size_t len, double bytes)
{
	return fmt_size_exact(buf, len, (uint64_t)bytes);
}

/* The smallest boundary whose crossing costs more is the unit, when
 * every larger one costs more too (each is a boundary of the unit); the
 * unsure ones just below it leave the unit between them and it. */
void char_judge_boundaries(struct characterize_result *r)
{
	struct char_figure *p = &r->page;
	char a[32], b[32];
	size_t i, first = r->nb, low;

	for (i = 0; i < r->nb && first == r->nb; i++)
		if (r->b[i].verdict == CHAR_MORE)
			first = i;
	if (!r->nb) {
		snprintf(p->basis, sizeof(p->basis), "not measured");
		return;
	}
	for (i = 0; i < r->nb; i++)
		if (r->b[i].verdict == CHAR_LESS) {
			snprintf(p->basis, sizeof(p->basis),
				 "reads across %s boundaries were faster than reads inside a unit (%.2fx), which no drive's physics does: a cache, or a file system under a loop device; no unit concluded",
				 size_text(a, sizeof(a), (double)r->b[i].bytes),
				 r->b[i].ratio);
			return;
		}
	if (first == r->nb) {
		for (i = 0; i < r->nb && r->b[i].verdict == CHAR_SAME; i++)
			;
		snprintf(p->basis, sizeof(p->basis), i == r->nb ?
			 "no boundary from %s to %s costs more than %.0f%% to cross: reads cost the same wherever they fall, no unit larger than the logical sector" :
			 "no boundary from %s to %s is measured to cost more than %.0f%% to cross, but the noise leaves some undecided: no unit concluded",
			 size_text(a, sizeof(a), (double)r->b[0].bytes),
			 size_text(b, sizeof(b), (double)r->b[r->nb - 1].bytes),
			 (CHAR_MATERIAL - 1) * 100);
		return;
	}
	for (i = first + 1; i < r->nb; i++)
		if (r->b[i].verdict == CHAR_SAME) {
			snprintf(p->basis, sizeof(p->basis),
				 "inconsistent: crossing %s costs more but crossing %s, also a boundary of it, does not; noise or a cache, no unit concluded",
				 size_text(a, sizeof(a), (double)r->b[first].bytes),
				 size_text(b, sizeof(b), (double)r->b[i].bytes));
			return;
		}
	for (low = first; low > 0 && r->b[low - 1].verdict == CHAR_UNSURE; low--)
		;
	p->known = true;
	p->value = (double)r->b[first].bytes;
	p->high = p->value;
	p->low = (double)r->b[low].bytes;
	snprintf(p->basis, sizeof(p->basis),
		 "%s reads straddling boundaries of %s cost %.2fx (%.2f-%.2f) those inside one; %s",
		 size_text(a, sizeof(a), (double)r->read_bytes),
		 size_text(b, sizeof(b), p->value), r->b[first].ratio,
		 r->b[first].low, r->b[first].high,
		 low == first ? "smaller boundaries cost the same" :
		 "smaller ones are within the noise");
}

/* Little's law: at the plateau the device has ops/s x (the time of one
 * I/O) in service at once; one I/O's time is the median at depth 1 (one
 * at a time), which the machine's stalls move less than the mean. */
void char_judge_parallelism(struct characterize_result *r)
{
	struct char_figure *p = &r->parallelism;
	const struct char_qd *one = r->nq ? &r->q[0] : NULL, *best = one;
	size_t i;

	if (!r->nq) {
		if (!p->basis[0])
			snprintf(p->basis, sizeof(p->basis), "not measured");
		return;
	}
	for (i = 1; i < r->nq; i++)
		if (r->q[i].iops > best->iops)
			best = &r->q[i];
	for (i = 0; i < r->nq && !r->knee_qd; i++)
		if (r->q[i].iops >= 0.9 * best->iops)
			r->knee_qd = r->q[i].qd;
	if (!best->known || one->p50_us <= 0) {
		snprintf(p->basis, sizeof(p->basis),
			 "ops/s measured at queue depth 1 to %u, but too few intervals for an interval: no figure concluded",
			 r->q[r->nq - 1].qd);
		return;
	}
	p->known = true;
	p->value = best->iops * one->p50_us / 1e6;
	p->low = best->low * one->p50_lo_us / 1e6;
	p->high = best->high * one->p50_hi_us / 1e6;
	if (p->low < 1)
		p->low = 1;	/* a device serves one at a time at least */
	if (p->value < 1)
		p->value = 1;
	snprintf(p->basis, sizeof(p->basis),
		 "%.0f ops/s at queue depth %u (the most) times %.1f us, the median read alone (depth 1): %.1f I/Os in service at once (Little's law; the host's own time per I/O is in the median and overlaps too, so it reads high by that share); %s",
		 best->iops, best->qd, one->p50_us, p->value,
		 r->knee_qd > 1 ? "ops/s stop rising" : "ops/s do not rise with the depth");
}

static void report(struct characterize_result *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void report(struct characterize_result *r, const char *fmt, ...)
{
	va_list ap;

	if (r->nreports >= CHAR_MAX_REPORTS)
		return;
	va_start(ap, fmt);
	vsnprintf(r->reports[r->nreports++], sizeof(r->reports[0]), fmt, ap);
	va_end(ap);
}

static void judge_report_spin(struct characterize_result *r)
{
	int rot = r->tgt.rotational;

	if (!r->back_p50_us)
		report(r, "rotational %s: not held against a measurement (the rotation test did not run)",
		       rot < 0 ? "unknown" : rot ? "yes" : "no");
	else if (r->spins && r->rpm.known)
		report(r, "rotational %s: it spins, at %.0f rpm%s",
		       rot < 0 ? "unknown" : rot ? "yes" : "no", r->rpm.value,
		       rot == 0 ? ", and does not say so" : "");
	else if (rot == 1)
		report(r, "it reports itself rotational, but nothing measured turns: backward one-sector reads cost what forward ones do (a loop device or a virtual disk says rotational by default; flash that says so gets a rotating disk's I/O scheduling)");
	else
		report(r, "rotational %s: as measured (no rotation found)",
		       rot < 0 ? "unknown" : "no");
}

static void judge_report_cache(struct characterize_result *r)
{
	const char *wc = r->tgt.write_cache[0] ? r->tgt.write_cache : "unknown";

	if (!r->flush_honest.known)
		report(r, "write cache \"%s\": flush honesty not concluded (see above)", wc);
	else if (r->flush_honest.value)
		report(r, "write cache \"%s\": flushes wait for the media", wc);
	else
		report(r, "write cache \"%s\": flushes return before the media could have the data, so an fsync does not make data durable on it", wc);
}

/* Where what the device says about itself and what was measured
 * disagree, plainly; and where they agree. */
void char_judge_report(struct characterize_result *r)
{
	const struct target *t = &r->tgt;
	char a[32], b[32];

	if (!r->page.known) {
		report(r, "physical sector %s: not held against a unit, none was concluded",
		       size_text(a, sizeof(a), t->physical));
	} else if (r->page.value > t->physical) {
		report(r, "it reports a physical sector of %s, but reads cost more across %s boundaries: it works in units of %s and does not say so",
		       size_text(a, sizeof(a), t->physical),
		       size_text(b, sizeof(b), r->page.value), b);
	} else {
		report(r, "physical sector %s: as measured",
		       size_text(a, sizeof(a), t->physical));
	}
	if (t->opt_io && r->page.known && fmod((double)t->opt_io, r->page.value))
		report(r, "optimal I/O size %s is not a multiple of the measured unit %s",
		       size_text(a, sizeof(a), t->opt_io),
		       size_text(b, sizeof(b), r->page.value));
	if (r->page.known && r->disk_offset % (uint64_t)r->page.value)
		report(r, "%s starts at byte %llu of %s, %llu B past a %s boundary: every aligned I/O on it straddles two units",
		       t->path, (unsigned long long)r->disk_offset, t->disk,
		       (unsigned long long)(r->disk_offset % (uint64_t)r->page.value),
		       size_text(a, sizeof(a), r->page.value));
	if (r->erase_block.known) {
		uint64_t e = (uint64_t)r->erase_block.value;

		if (t->opt_io == e)
			report(r, "optimal I/O size %s: the measured erase block",
			       size_text(a, sizeof(a), e));
		else
			report(r, "%s%s, but space is reclaimed in units of %s: random writes smaller than that cost more once the drive is full",
			       t->opt_io ? "optimal I/O size " : "no optimal I/O size reported",
			       t->opt_io ? size_text(a, sizeof(a), t->opt_io) : "",
			       size_text(b, sizeof(b), e));
	}
	judge_report_spin(r);
	judge_report_cache(r);
}
