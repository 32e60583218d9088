/* delay.c - see delay.h.  Built into rebench and into
 * librebench-record.so: the C library only. */
#include "core/delay.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* io_kind_name()'s spellings, in enum io_kind order (the interposer links
 * no rebench code; test_delay checks the two agree). */
static const char *const kind_names[IO_KINDS] = {
	"read", "write", "trim", "fsync", "fdatasync", "sync_file_range",
};

static const struct {
	const char *name;
	uint64_t ns;
} units[] = {		/* largest first: delay_format_units() */
	{ "s", 1000000000ULL }, { "ms", 1000000ULL }, { "us", 1000ULL },
	{ "ns", 1ULL },
};
#define NUNITS (sizeof(units) / sizeof(units[0]))

#define SPEC_HOW "write OP=DELAY items joined by commas, e.g. read=8us,fsync=200us"

/* ------------------------------------------------------------ the spec */

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* [s, e) without the blanks around it */
static void trim(const char **s, const char **e)
{
	while (*s < *e && is_blank(**s))
		(*s)++;
	while (*e > *s && is_blank((*e)[-1]))
		(*e)--;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* The delay of [s, e) in ns: 0, or -EINVAL with why (and how to fix) in
 * err after the item's words in what. */
static int parse_value(const char *s, const char *e, uint64_t *ns,
		       const char *what, char *err, size_t len)
{
	uint64_t whole = 0, frac = 0, scale = 1, unit = 0;
	const char *p = s, *u;
	bool big = false;
	size_t n, k;

	if (p == e) {
		snprintf(err, len, "%s: no delay after '=': %s", what, SPEC_HOW);
		return -EINVAL;
	}
	if (*p == '-') {
		snprintf(err, len, "%s: a delay cannot be negative: it is added after the call, never taken off", what);
		return -EINVAL;
	}
	if (*p == '+')
		p++;
	if (p == e || !(is_digit(*p) || (*p == '.' && p + 1 < e && is_digit(p[1])))) {
		snprintf(err, len, "%s: the delay '%.*s' is not a number: write a number and a unit (ns, us, ms, s), e.g. 8us",
			 what, (int)(e - s), s);
		return -EINVAL;
	}
	for (; p < e && is_digit(*p); p++) {
		if (whole > DELAY_MAX_NS)
			big = true;
		else
			whole = whole * 10 + (uint64_t)(*p - '0');
	}
	if (p < e && *p == '.') {
		for (p++; p < e && is_digit(*p); p++) {
			if (scale >= 1000000000ULL) {
				if (*p != '0')
					frac = UINT64_MAX;	/* below 1 ns */
				continue;
			}
			if (frac != UINT64_MAX) {
				frac = frac * 10 + (uint64_t)(*p - '0');
				scale *= 10;
			}
		}
	}
	for (u = p; u < e && is_blank(*u); u++)
		;
	n = (size_t)(e - u);
	if (!n) {
		snprintf(err, len, "%s: the delay has no unit: write one of ns, us, ms, s after the number, e.g. %.*sus",
			 what, (int)(p - s), s);
		return -EINVAL;
	}
	for (k = 0; k < NUNITS; k++)
		if (strlen(units[k].name) == n && !memcmp(u, units[k].name, n))
			unit = units[k].ns;
	if (!unit) {
		snprintf(err, len, "%s: unknown unit '%.*s': the units are ns, us, ms and s, e.g. %.*sus",
			 what, (int)n, u, (int)(p - s), s);
		return -EINVAL;
	}
	/* whole x unit + frac x unit / scale, exactly */
	if (!big && whole <= DELAY_MAX_NS / unit && frac != UINT64_MAX) {
		uint64_t f = frac * unit;	/* < 10^9 x 10^9: fits */

		if (f % scale) {
			snprintf(err, len, "%s: '%.*s' is not a whole number of nanoseconds: give at most %s decimals in %.*s",
				 what, (int)(e - s), s,
				 unit == 1 ? "no" : unit == 1000 ? "3" :
				 unit == 1000000 ? "6" : "9", (int)n, u);
			return -EINVAL;
		}
		*ns = whole * unit + f / scale;
		if (*ns <= DELAY_MAX_NS)
			return 0;
	} else if (frac == UINT64_MAX && !big) {
		snprintf(err, len, "%s: '%.*s' is not a whole number of nanoseconds",
			 what, (int)(e - s), s);
		return -EINVAL;
	}
	snprintf(err, len, "%s: '%.*s' is more than the largest delay, 3600s (an hour)",
		 what, (int)(e - s), s);
	return -EINVAL;
}

int delay_parse(const char *spec, struct delay_set *d, char *err, size_t len)
{
	unsigned given[IO_KINDS] = { 0 };
	const char *p = spec, *end, *eq, *ns, *ne, *vs, *ve;
	char what[128];
	unsigned item;
	uint64_t v;
	int k;

	memset(d, 0, sizeof(*d));
	vs = spec;
	ve = spec + strlen(spec);
	trim(&vs, &ve);
	if (vs == ve) {
		snprintf(err, len, "the delay spec is empty: %s (or none)",
			 SPEC_HOW);
		return -EINVAL;
	}
	if (ve - vs == 4 && !memcmp(vs, "none", 4))
		return 0;	/* a workload line's way to drop an inherited one */
	for (item = 1;; item++, p = end + 1) {
		end = strchr(p, ',');
		if (!end)
			end = p + strlen(p);
		ns = p;
		ne = end;
		trim(&ns, &ne);
		if (ns == ne) {
			snprintf(err, len, "item %u is empty (two commas, or a comma at the start or the end): %s",
				 item, SPEC_HOW);
			return -EINVAL;
		}
		snprintf(what, sizeof(what), "item %u '%.*s'", item,
			 (int)(ne - ns > 80 ? 80 : ne - ns), ns);
		eq = memchr(ns, '=', (size_t)(ne - ns));
		if (!eq) {
			snprintf(err, len, "%s: no '=': %s", what, SPEC_HOW);
			return -EINVAL;
		}
		vs = eq + 1;
		ve = ne;
		trim(&vs, &ve);
		ne = eq;
		trim(&ns, &ne);
		for (k = 0; k < IO_KINDS; k++)
			if (strlen(kind_names[k]) == (size_t)(ne - ns) &&
			    !memcmp(ns, kind_names[k], (size_t)(ne - ns)))
				break;
		if (k == IO_TRIM) {
			snprintf(err, len, "%s: trim cannot be delayed: no interposed call is a trim, so a delay would apply to rebench's own trims only; delay read, write, fsync or fdatasync",
				 what);
			return -EINVAL;
		}
		if (k == IO_SYNC_RANGE) {
			snprintf(err, len, "%s: sync_file_range cannot be delayed: the interposer counts an application's sync_file_range as an fdatasync, so a delay would apply to rebench's own (--sync sfr:N) only; delay fdatasync",
				 what);
			return -EINVAL;
		}
		if (k == IO_KINDS) {
			snprintf(err, len, "%s: unknown operation '%.*s': the operations are read, write, fsync and fdatasync",
				 what, (int)(ne - ns), ns);
			return -EINVAL;
		}
		if (given[k]) {
			snprintf(err, len, "%s: %s is given twice (items %u and %u): give each operation once",
				 what, kind_names[k], given[k], item);
			return -EINVAL;
		}
		given[k] = item;
		if (parse_value(vs, ve, &v, what, err, len))
			return -EINVAL;
		d->ns[k] = v;
		if (!*end)
			return 0;
	}
}

bool delay_any(const struct delay_set *d)
{
	int k;

	for (k = 0; k < IO_KINDS; k++)
		if (d->ns[k])
			return true;
	return false;
}

/* "" or "OP=VALUEUNIT,..." with each value in the largest whole unit
 * (by_unit) or in ns. */
static void format(const struct delay_set *d, char *buf, size_t len,
		   bool by_unit)
{
	size_t n = 0;
	unsigned u;
	int k;

	if (len)
		buf[0] = '\0';
	for (k = 0; k < IO_KINDS; k++) {
		if (!d->ns[k])
			continue;
		u = NUNITS - 1;
		if (by_unit)
			for (u = 0; d->ns[k] % units[u].ns; u++)
				;
		n += (size_t)snprintf(buf + n, n < len ? len - n : 0,
				      "%s%s=%llu%s", n ? "," : "",
				      kind_names[k],
				      (unsigned long long)(d->ns[k] / units[u].ns),
				      units[u].name);
	}
}

void delay_format(const struct delay_set *d, char *buf, size_t len)
{
	format(d, buf, len, false);
}

void delay_format_units(const struct delay_set *d, char *buf, size_t len)
{
	format(d, buf, len, true);
}

/* ------------------------------------------------------------ the clock */

uint64_t delay_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* A spin's pause: lets a sibling hyperthread run, costs no system call. */
static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield" ::: "memory");
#endif
}

/* Sleep until the absolute CLOCK_MONOTONIC time t (a signal handler that
 * interrupts it does not shorten it). */
static void sleep_until(uint64_t t)
{
	struct timespec ts = {
		.tv_sec = (time_t)(t / 1000000000ULL),
		.tv_nsec = (long)(t % 1000000000ULL),
	};

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
	       EINTR)
		;
}

uint64_t delay_wait(struct delay_clock *dc, uint64_t from_ns, uint64_t ns)
{
	const struct delay_calib *c = dc->c;
	uint64_t carry = dc->carry_ns > 0 ? (uint64_t)dc->carry_ns : 0;
	uint64_t now, target, over, early;
	int e = errno;

	now = delay_now_ns();
	if (ns > carry) {
		target = from_ns + ns - carry;
		early = 2 * c->sleep_over_ns;
		if (target > now && target - now >= c->spin_below_ns &&
		    target - now > early) {
			sleep_until(target - early);
			now = delay_now_ns();
		}
		while (now < target) {
			cpu_relax();
			now = delay_now_ns();
		}
		over = now - target;
	} else {
		/* the carry covers this wait: none, and what is left of
		 * the carry (with the time since from_ns) goes on */
		over = carry - ns + (now > from_ns ? now - from_ns : 0);
	}
	/* one wait's worth: a preemption shortens the next wait, not a run */
	dc->carry_ns = (int64_t)(over < ns ? over : ns);
	errno = e;
	return now;
}

/* ------------------------------------------------------------ calibration */

#define CLOCK_READS 2000	/* per round; 5 rounds, the fastest kept */
#define ZERO_WAITS 501
#define SLEEPS 51		/* of each kind: about 10 ms in all */
#define SLEEP_AHEAD_NS 100000ULL	/* an absolute sleep's distance */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t median(uint64_t *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_u64);
	return v[n / 2];
}

void delay_calibrate(struct delay_calib *c)
{
	struct delay_calib none = { 0 };
	struct delay_clock dc = { &none, 0 };
	struct timespec one = { 0, 1 };
	uint64_t v[ZERO_WAITS], t, t0, best = UINT64_MAX;
	int r, i;

	/* the fastest of five rounds: an interrupt in one does not count */
	for (r = 0; r < 5; r++) {
		t0 = delay_now_ns();
		for (i = 0; i < CLOCK_READS; i++)
			t = delay_now_ns();
		t = delay_now_ns();
		if ((t - t0) / (CLOCK_READS + 1) < best)
			best = (t - t0) / (CLOCK_READS + 1);
	}
	c->clock_ns = best ? best : 1;
	for (i = 0; i < ZERO_WAITS; i++) {
		dc.carry_ns = 0;
		t = delay_now_ns();
		v[i] = delay_wait(&dc, t, 0) - t;
	}
	c->spin_min_ns = median(v, ZERO_WAITS);
	if (c->spin_min_ns < c->clock_ns)	/* a wait reads the clock */
		c->spin_min_ns = c->clock_ns;
	for (i = 0; i < SLEEPS; i++) {
		t = delay_now_ns();
		clock_nanosleep(CLOCK_MONOTONIC, 0, &one, NULL);
		v[i] = delay_now_ns() - t;
	}
	c->sleep_min_ns = median(v, SLEEPS);
	for (i = 0; i < SLEEPS; i++) {
		t = delay_now_ns() + SLEEP_AHEAD_NS;
		sleep_until(t);
		v[i] = delay_now_ns() - t;
	}
	c->sleep_over_ns = median(v, SLEEPS);
	if (!c->sleep_over_ns)
		c->sleep_over_ns = 1;
	c->spin_below_ns = c->sleep_min_ns + 2 * c->sleep_over_ns;
}

void delay_calib_format(const struct delay_calib *c, char *buf, size_t len)
{
	snprintf(buf, len, "%llu,%llu,%llu,%llu,%llu",
		 (unsigned long long)c->clock_ns,
		 (unsigned long long)c->spin_min_ns,
		 (unsigned long long)c->sleep_min_ns,
		 (unsigned long long)c->sleep_over_ns,
		 (unsigned long long)c->spin_below_ns);
}

int delay_calib_parse(const char *s, struct delay_calib *c)
{
	uint64_t v[5];
	unsigned i;

	for (i = 0; i < 5; i++) {
		if (!is_digit(*s))
			return -EINVAL;
		for (v[i] = 0; is_digit(*s); s++) {
			if (v[i] > (UINT64_MAX - 9) / 10)
				return -EINVAL;
			v[i] = v[i] * 10 + (uint64_t)(*s - '0');
		}
		if (*s != (i < 4 ? ',' : '\0'))
			return -EINVAL;
		s++;
	}
	/* each is at most a second: a larger one is not a calibration */
	for (i = 0; i < 5; i++)
		if (v[i] > 1000000000ULL)
			return -EINVAL;
	c->clock_ns = v[0];
	c->spin_min_ns = v[1];
	c->sleep_min_ns = v[2];
	c->sleep_over_ns = v[3];
	c->spin_below_ns = v[4];
	return 0;
}

/* A time for people: 45ns, 57.3us, 1.25ms, 2s. */
static const char *human(char *buf, size_t len, uint64_t ns)
{
	if (ns < 1000)
		snprintf(buf, len, "%lluns", (unsigned long long)ns);
	else if (ns < 1000000)
		snprintf(buf, len, "%.3gus", (double)ns / 1e3);
	else if (ns < 1000000000)
		snprintf(buf, len, "%.3gms", (double)ns / 1e6);
	else
		snprintf(buf, len, "%.3gs", (double)ns / 1e9);
	return buf;
}

void delay_calib_describe(const struct delay_calib *c, char *buf, size_t len)
{
	char a[16], b[16], s[16], o[16], w[16];

	snprintf(buf, len, "clock read %s, zero wait %s, shortest sleep %s, sleep overshoot %s, spin below %s",
		 human(a, sizeof(a), c->clock_ns),
		 human(b, sizeof(b), c->spin_min_ns),
		 human(s, sizeof(s), c->sleep_min_ns),
		 human(o, sizeof(o), c->sleep_over_ns),
		 human(w, sizeof(w), c->spin_below_ns));
}
