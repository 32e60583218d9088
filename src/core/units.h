/* units.h - one parser and one formatter for sizes, times and percentages.
 *
 * Every option that takes a size, a time or a percentage goes through here,
 * so "4k" means the same thing everywhere and the same tables format output.
 * Size suffixes are powers of 1024, as in the original Rebench.
 */
#ifndef REBENCH_UNITS_H
#define REBENCH_UNITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NSEC_PER_USEC	1000ULL
#define NSEC_PER_MSEC	1000000ULL
#define NSEC_PER_SEC	1000000000ULL

/* What a value like "-d 10", "-d 1g" or "-d 50%" turned out to be. */
enum amount_kind {
	AMOUNT_NONE = 0,	/* not given: use the default */
	AMOUNT_TIME,		/* value is nanoseconds */
	AMOUNT_BYTES,		/* value is bytes */
	AMOUNT_PERCENT,		/* pct is a percentage of some whole */
};

struct amount {
	enum amount_kind kind;
	uint64_t value;
	double pct;
	bool bare_m;		/* bytes written with a bare m ("-d 5m"):
				 * the classic MiB, easily meant as minutes */
};

/* Parsers return 0 or -EINVAL (malformed) / -ERANGE (overflow). */
int parse_size(const char *s, uint64_t *bytes);
int parse_uint(const char *s, uint64_t *v);
int parse_double(const char *s, double *v);
int parse_percent(const char *s, double *pct);	/* "50" or "50%" */
/* A time; a bare number is in unit_ns (1 ms for -g, 1 us for -z). */
int parse_time(const char *s, uint64_t unit_ns, uint64_t *ns);
/* -d: bare number = seconds; time suffix = time; size suffix = bytes; N% */
int parse_duration(const char *s, struct amount *a);
/* -j/-e: size or N% */
int parse_extent(const char *s, struct amount *a);

/* "512b", "4k", "1m", "3g": exact short form used in the classic line. */
char *fmt_size_short(char *buf, size_t len, uint64_t bytes);
/* --units: how the human outputs name sizes and rates.  IEC (the
 * default): "15 GiB", "30.59 MiB/s" (powers of 1024, the original
 * Rebench's MB); SI: "16.1 GB", "32.08 MB/s" (powers of 1000, as KDiskMark
 * and drive data sheets count).  -n, JSON and TSV keep their documented
 * units whatever it is. */
enum units_mode { UNITS_IEC, UNITS_SI };
void units_set(int mode);
int units_mode(void);
/* "15 GiB", "1.5 GiB", "512 B" (or with --units si "16.1 GB"): compact
 * human form, exact where the size is a whole unit. */
char *fmt_size_human(char *buf, size_t len, uint64_t bytes);
/* A rate given in MiB/s (2^20 bytes a second, struct result's mb_per_s)
 * as the human outputs print it: "30.59 MiB/s", or "32.08 MB/s". */
char *fmt_rate(char *buf, size_t len, double mib_per_s);
/* Its unit alone, for headings: "MiB/s" or "MB/s"; and a value in it. */
const char *rate_unit(void);
double rate_value(double mib_per_s);
/* "512 B", "4 KiB", "3584 B", "1 MiB": exact, IEC units, for reports. */
char *fmt_size_exact(char *buf, size_t len, uint64_t bytes);
/* "10s", "500ms", "250us" */
char *fmt_time(char *buf, size_t len, uint64_t ns);

#endif
