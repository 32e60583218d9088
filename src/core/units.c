/* units.c - suffix tables for sizes and times, shared by every option. */
#include "core/units.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct suffix {
	const char *name;
	uint64_t mult;
};

/* Case-insensitive; "4k", "4kb", "4kib" are all 4096. */
static const struct suffix size_suffixes[] = {
	{ "", 1 }, { "b", 1 },
	{ "k", 1ULL << 10 }, { "kb", 1ULL << 10 }, { "kib", 1ULL << 10 },
	{ "m", 1ULL << 20 }, { "mb", 1ULL << 20 }, { "mib", 1ULL << 20 },
	{ "g", 1ULL << 30 }, { "gb", 1ULL << 30 }, { "gib", 1ULL << 30 },
	{ "t", 1ULL << 40 }, { "tb", 1ULL << 40 }, { "tib", 1ULL << 40 },
	{ "p", 1ULL << 50 }, { "pb", 1ULL << 50 }, { "pib", 1ULL << 50 },
	{ NULL, 0 }
};

static const struct suffix time_suffixes[] = {
	{ "ns", 1 }, { "us", NSEC_PER_USEC }, { "ms", NSEC_PER_MSEC },
	{ "s", NSEC_PER_SEC }, { "sec", NSEC_PER_SEC },
	{ "min", 60 * NSEC_PER_SEC }, { "h", 3600 * NSEC_PER_SEC },
	{ NULL, 0 }
};

static const struct suffix *find_suffix(const struct suffix *t, const char *s)
{
	for (; t->name; t++)
		if (!strcasecmp(t->name, s))
			return t;
	return NULL;
}

/* Split "12.5k" into 12.5 and "k".  Only decimal digits with an optional
 * fraction: no sign, exponent or hex, so "1e3" and "0x10" are refused
 * rather than read as 1 and 0. */
static int split_number(const char *s, double *num, uint64_t *whole,
			bool *is_int, const char **rest)
{
	char digits[64];
	const char *p = s;
	size_t n;

	if (!s || !isdigit((unsigned char)*p))
		return -EINVAL;
	while (isdigit((unsigned char)*p))
		p++;
	*is_int = *p != '.';
	if (*p == '.') {
		p++;
		if (!isdigit((unsigned char)*p))
			return -EINVAL;
		while (isdigit((unsigned char)*p))
			p++;
	}
	n = (size_t)(p - s);
	if (n >= sizeof(digits))
		return -ERANGE;
	memcpy(digits, s, n);
	digits[n] = '\0';
	errno = 0;
	*whole = strtoull(digits, NULL, 10);
	if (errno == ERANGE)
		return -ERANGE;
	*num = strtod(digits, NULL);
	*rest = p;
	return 0;
}

static int scale(const char *s, const struct suffix *table, uint64_t unit,
		 uint64_t *out)
{
	const struct suffix *sf;
	const char *rest;
	uint64_t whole;
	double num;
	bool is_int;
	int ret;

	ret = split_number(s, &num, &whole, &is_int, &rest);
	if (ret)
		return ret;
	if (*rest == '\0') {
		sf = NULL;
	} else {
		sf = find_suffix(table, rest);
		if (!sf)
			return -EINVAL;
		unit = sf->mult;
	}
	if (is_int) {
		if (whole && unit > UINT64_MAX / whole)
			return -ERANGE;
		*out = whole * unit;
		return 0;
	}
	/* Fractions are allowed ("1.5g") but must land on a whole unit. */
	if (num * (double)unit >= 18446744073709551615.0)
		return -ERANGE;
	*out = (uint64_t)llround(num * (double)unit);
	if (fabs((double)*out - num * (double)unit) > 1e-6 * (double)unit)
		return -EINVAL;
	return 0;
}

int parse_size(const char *s, uint64_t *bytes)
{
	return scale(s, size_suffixes, 1, bytes);
}

int parse_uint(const char *s, uint64_t *v)
{
	const char *p;

	if (!s || !*s)
		return -EINVAL;
	for (p = s; *p; p++)
		if (!isdigit((unsigned char)*p))
			return -EINVAL;
	errno = 0;
	*v = strtoull(s, NULL, 10);
	return errno == ERANGE ? -ERANGE : 0;
}

int parse_double(const char *s, double *v)
{
	char *end;

	if (!s || !*s || !(isdigit((unsigned char)*s) || *s == '.'))
		return -EINVAL;
	*v = strtod(s, &end);
	if (*end || !isfinite(*v))
		return -EINVAL;
	return 0;
}

int parse_percent(const char *s, double *pct)
{
	char buf[64];
	size_t n = strlen(s);

	if (n == 0 || n >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, n + 1);
	if (buf[n - 1] == '%')
		buf[n - 1] = '\0';
	return parse_double(buf, pct);
}

int parse_time(const char *s, uint64_t unit_ns, uint64_t *ns)
{
	return scale(s, time_suffixes, unit_ns, ns);
}

int parse_duration(const char *s, struct amount *a)
{
	size_t n = s ? strlen(s) : 0;
	const char *rest;
	uint64_t whole;
	double num;
	bool is_int;
	int ret;

	a->bare_m = false;
	if (n && s[n - 1] == '%') {
		a->kind = AMOUNT_PERCENT;
		a->value = 0;
		return parse_percent(s, &a->pct);
	}
	ret = split_number(s, &num, &whole, &is_int, &rest);
	if (ret)
		return ret;
	/* A size suffix other than a bare number means bytes (classic -d 1g). */
	if (*rest && find_suffix(size_suffixes, rest) &&
	    !find_suffix(time_suffixes, rest)) {
		a->kind = AMOUNT_BYTES;
		a->bare_m = !strcasecmp(rest, "m");
		return parse_size(s, &a->value);
	}
	a->kind = AMOUNT_TIME;
	return parse_time(s, NSEC_PER_SEC, &a->value);
}

int parse_extent(const char *s, struct amount *a)
{
	size_t n = s ? strlen(s) : 0;

	if (n && s[n - 1] == '%') {
		a->kind = AMOUNT_PERCENT;
		a->value = 0;
		return parse_percent(s, &a->pct);
	}
	a->kind = AMOUNT_BYTES;
	return parse_size(s, &a->value);
}

/* bytes in the largest power-of-1024 unit that divides them exactly, with
 * that unit's name from units[] ("k" or " KiB"), else bytes + plain */
static char *fmt_size_in(char *buf, size_t len, uint64_t bytes,
			 const char *const units[5], const char *plain)
{
	int i;

	for (i = 4; i >= 0; i--) {
		uint64_t m = 1ULL << (10 * (i + 1));

		if (bytes >= m && bytes % m == 0) {
			snprintf(buf, len, "%llu%s",
				 (unsigned long long)(bytes / m), units[i]);
			return buf;
		}
	}
	snprintf(buf, len, "%llu%s", (unsigned long long)bytes, plain);
	return buf;
}

char *fmt_size_short(char *buf, size_t len, uint64_t bytes)
{
	static const char *const units[] = { "k", "m", "g", "t", "p" };

	return fmt_size_in(buf, len, bytes, units, "b");
}

static int units_now = UNITS_IEC;

void units_set(int mode)
{
	units_now = mode;
}

int units_mode(void)
{
	return units_now;
}

char *fmt_size_human(char *buf, size_t len, uint64_t bytes)
{
	static const char *const iec[] = { "KiB", "MiB", "GiB", "TiB", "PiB" };
	static const char *const si[] = { "kB", "MB", "GB", "TB", "PB" };
	const char *const *names = units_now == UNITS_SI ? si : iec;
	double base = units_now == UNITS_SI ? 1000.0 : 1024.0;
	int i;

	for (i = 4; i >= 0; i--) {
		double m = pow(base, i + 1);
		double v = (double)bytes / m;

		if (bytes && fmod((double)bytes, m) == 0 && v < 1e15) {
			snprintf(buf, len, "%.0f %s", v, names[i]);
			return buf;
		}
		/* Pick the unit after rounding: 1 GiB - 512 is "1.0 GiB"; below
		 * one unit the exact byte count is shorter and exact. */
		if (round(v * 10.0) >= 10.0 && (double)bytes >= base) {
			snprintf(buf, len, "%.1f %s", v, names[i]);
			return buf;
		}
	}
	snprintf(buf, len, "%llu B", (unsigned long long)bytes);
	return buf;
}

double rate_value(double mib_per_s)
{
	return units_now == UNITS_SI ? mib_per_s * 1048576.0 / 1e6 : mib_per_s;
}

const char *rate_unit(void)
{
	return units_now == UNITS_SI ? "MB/s" : "MiB/s";
}

char *fmt_rate(char *buf, size_t len, double mib_per_s)
{
	snprintf(buf, len, "%.2f %s", rate_value(mib_per_s), rate_unit());
	return buf;
}

char *fmt_size_exact(char *buf, size_t len, uint64_t bytes)
{
	static const char *const units[] = { " KiB", " MiB", " GiB", " TiB", " PiB" };

	return fmt_size_in(buf, len, bytes, units, " B");
}

char *fmt_time(char *buf, size_t len, uint64_t ns)
{
	if (ns % NSEC_PER_SEC == 0)
		snprintf(buf, len, "%llus", (unsigned long long)(ns / NSEC_PER_SEC));
	else if (ns % NSEC_PER_MSEC == 0)
		snprintf(buf, len, "%llums", (unsigned long long)(ns / NSEC_PER_MSEC));
	else if (ns % NSEC_PER_USEC == 0)
		snprintf(buf, len, "%lluus", (unsigned long long)(ns / NSEC_PER_USEC));
	else
		snprintf(buf, len, "%lluns", (unsigned long long)ns);
	return buf;
}
