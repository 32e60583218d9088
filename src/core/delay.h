/* delay.h - per-operation delays (--delay, --emulate): their spec, and
 * calibrated waits (rebench(1), --delay).
 *
 * One source for rebench and for librebench-record.so: only the C
 * library, no rebench globals.
 *
 * A wait of ns after a call that ended at from_ns lasts until
 *
 *	target = from_ns + ns - carry
 *
 * Below spin_below_ns the wait spins on CLOCK_MONOTONIC; at or above it
 * it sleeps (absolute clock_nanosleep) until target - 2 x sleep_over_ns,
 * so that a sleep that wakes late by twice its median overshoot still
 * wakes before the target, and spins the rest.  A wait never ends before
 * its target; what it ends after it (end - target, the overshoot) is the
 * carry of the next wait of the same struct delay_clock, as in fio's
 * replay, so that the sum of the waits is the sum of the delays asked:
 *
 *	achieved(i) = ns(i) - carry(i) + carry(i + 1)
 *
 * The carry rule: the carry after a wait is at most that wait's ns (one
 * wait's worth).  An overshoot beyond it (the thread was preempted, a page
 * fault, a busy CPU) is not paid back: with delays of one size it
 * shortens the next wait only, never a run of later ones (a long wait's
 * carry may cover several shorter ones, up to its own length).  The
 * overshoots of normal waits (a clock read's worth after a spin, what a
 * sleep woke late beyond its margin) are far below their ns, and are
 * paid back in full.  Hence, for any sequence of waits on one
 * delay_clock:
 *
 *	achieved(i) >= ns(i) - carry(i)		(each wait)
 *	sum achieved >= sum ns				(their total)
 *
 * and a wait shorter than spin_min_ns (the cost of one clock read and a
 * call) achieves spin_min_ns.
 */
#ifndef REBENCH_DELAY_H
#define REBENCH_DELAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engines/iokind.h"

/* The largest delay of one operation: an hour. */
#define DELAY_MAX_NS (3600ULL * 1000000000ULL)

/* Room for delay_format()'s, delay_format_units()'s and
 * delay_calib_format()'s longest forms. */
#define DELAY_TEXT_MAX 160

struct delay_set {
	uint64_t ns[IO_KINDS];	/* per enum io_kind; 0: no delay */
};

/* "read=8us,write=10us,fsync=200us,fdatasync=1ms" (units ns, us, ms, s; a
 * unit is required; a decimal fraction such as 1.5ms is allowed when it is
 * a whole number of ns; op names those of io_kind_name(): read, write,
 * fsync, fdatasync; trim refused), or "none" (no delay: a workload line's
 * way to drop a --delay of the command line); 0, or -EINVAL with err saying what,
 * where, why and how to fix (without the option's name: the caller says
 * which option). */
int delay_parse(const char *spec, struct delay_set *d, char *err, size_t len);

/* Canonical form in ns ("read=8000ns,fsync=200000ns"), "" when none: what
 * the interposer gets in the environment and what outputs show. */
void delay_format(const struct delay_set *d, char *buf, size_t len);

/* The same in the largest unit that keeps each value whole
 * ("read=8us,fsync=200us"): for people.  "" when none. */
void delay_format_units(const struct delay_set *d, char *buf, size_t len);

bool delay_any(const struct delay_set *d);

struct delay_calib {
	uint64_t clock_ns;	/* cost of one CLOCK_MONOTONIC read */
	uint64_t spin_min_ns;	/* smallest delay a wait can add (a spin of zero length) */
	uint64_t sleep_min_ns;	/* median time the shortest clock_nanosleep takes */
	uint64_t sleep_over_ns;	/* median overshoot of an absolute sleep */
	uint64_t spin_below_ns;	/* waits shorter than this spin; longer ones sleep, then spin the end */
};

/* Measure the calling thread's clock and sleeps: tens of ms at most.
 * spin_below_ns = sleep_min_ns + 2 x sleep_over_ns: a shorter wait could
 * not sleep at all before its early wake-up point, or would sleep for
 * less than a sleep costs. */
void delay_calibrate(struct delay_calib *c);

/* "clock,spin_min,sleep_min,sleep_over,spin_below" in ns: for the
 * environment. */
void delay_calib_format(const struct delay_calib *c, char *buf, size_t len);

/* The form above back: 0, or -EINVAL when s is not five numbers. */
int delay_calib_parse(const char *s, struct delay_calib *c);

/* For people, one line: "clock read 21ns, zero wait 45ns, shortest sleep
 * 57.3us, sleep overshoot 54.1us, spin below 166us". */
void delay_calib_describe(const struct delay_calib *c, char *buf, size_t len);

/* One thread's waits: what a wait overshot is taken off the next one
 * (fio's replay). */
struct delay_clock {
	const struct delay_calib *c;
	int64_t carry_ns;
};

/* Wait until from_ns + ns - carry (CLOCK_MONOTONIC ns), spinning below
 * c->spin_below_ns and sleeping (absolute clock_nanosleep, ending early
 * enough to spin the rest) above it; returns the clock read at the end;
 * the overshoot becomes the next carry (bounded: see above).  errno is
 * left as it was. */
uint64_t delay_wait(struct delay_clock *dc, uint64_t from_ns, uint64_t ns);

/* CLOCK_MONOTONIC in ns. */
uint64_t delay_now_ns(void);

#endif
