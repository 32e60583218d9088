/* clockbench.c - would a TSC clock make rebench's per-I/O path cheaper?
 *
 * rebench reads CLOCK_MONOTONIC (clock_gettime, answered by the vDSO when
 * the kernel's clocksource allows) twice per pread, and once per submitted
 * and once per reaped batch for naio and uring (src/core/run.c).  fio can instead
 * read the CPU's time-stamp counter and convert it with a calibrated rate
 * (clocksource=cpu).  This program measures, on this machine:
 *
 *   - the cost per call of clock_gettime(CLOCK_MONOTONIC), rdtsc,
 *     lfence + rdtsc, rdtscp, and rdtsc with its conversion to ns (the whole
 *     price of a TSC clock): the median of 5 loops of N calls, each timed by
 *     CLOCK_MONOTONIC at its ends;
 *   - whether a TSC clock can be exact: the constant_tsc and nonstop_tsc
 *     flags of /proc/cpuinfo (rate independent of frequency changes and
 *     sleep states), the kernel's clocksource, the rate calibrated against
 *     CLOCK_MONOTONIC over CAL_MS (as fio does), the drift of the converted
 *     TSC from clock_gettime over DRIFT_S seconds, and a cross-CPU check
 *     (two threads on two CPUs take turns under a lock and read the TSC: a
 *     read lower than the previous one, from the other CPU, is a skew
 *     between the CPUs' counters);
 *   - given the CPU time of one I/O in ns (the NS_PER_IO arguments, e.g.
 *     from the second table of bench/run.sh), the share of it that two
 *     clock_gettime calls take and what a TSC clock would save.  rebench
 *     reads the clock twice per pread but twice per batch for naio and
 *     uring: /IOS_PER_PAIR (the batch) spreads the pair over that many I/Os.
 *
 *   clockbench [-d DRIFT_S] [NS_PER_IO[/IOS_PER_PAIR] ...]
 *
 * A pair (clock_gettime, TSC) is read as TSC, clock, TSC; of 16 tries the
 * one with the two TSC reads closest together is kept and the clock
 * matched to their midpoint, so a pair is exact to half that window W.
 * Two pairs CAL_MS apart bound the calibrated rate's error by W / CAL_MS:
 * with W = 50 ns, 0.5 ppm (0.5 ns per ms measured).  CLOCK_MONOTONIC is
 * itself slewed by NTP (up to 500 ppm), so a drift of the converted TSC
 * from it is the sum of both.
 *
 * Measured on the 2-core AMD EPYC Firecracker/KVM guest this was written
 * on (Debian 12, kernel 6.18, clocksource tsc, constant_tsc, nonstop_tsc,
 * tsc_known_freq, 2596.134 MHz), with another engineer's builds and tests
 * sharing the 2 CPUs (the costs grew by up to 2x under the heaviest load):
 *   clock_gettime(CLOCK_MONOTONIC)  31-34 ns   (vDSO, no system call)
 *   rdtsc                           12.5-14 ns
 *   lfence + rdtsc, rdtscp          24-28 ns
 *   rdtsc + conversion to ns        12.5-13 ns
 *   drift after calibration         3-440 ns over 1-3 s (0.003-0.26 ppm)
 *   cross-CPU                       no read ever below the other CPU's
 * Two clock_gettime cost ~65 ns; a TSC clock would save ~40 ns of them.
 * bench/run.sh agrees: its timed bare pread loop spends 43-65 ns of CPU
 * per I/O more than the untimed one.  rebench's pread on the empty zram
 * device takes ~2.3-2.4 us of CPU per I/O, so the two reads are ~3% of it
 * and a TSC clock would save ~1.8%; naio and uring read the clock twice per
 * batch of 8 or 32 I/Os, where it would save 0.25% and 0.05%.  rebench's
 * own bookkeeping on that pread path (~170 ns per I/O, rebench - timed) is
 * about three times the clock reads.
 *
 * Conclusion: not worth it.  The clock reads do not dominate the per-I/O
 * path (rebench's own work does), and the saving (under 2% at best, for
 * pread at depth 1) is below what bench/run.sh can resolve on this
 * machine.  The kernel's clocksource here is already the TSC, so
 * clock_gettime is an ordered rdtsc plus the kernel's own, always-correct
 * conversion: a user-space TSC clock would only drop the ordering fence and
 * the vDSO's sequence-count read, and in return needs x86-only code, a
 * calibration, trust that every CPU's counter agrees and keeps its rate
 * (constant_tsc, nonstop_tsc, and a host that does not move the VM to a CPU
 * of another rate), and a fallback everywhere else.  rb/timed in
 * bench/run.sh does not depend on the choice: the timed bare loop reads the
 * same clock as rebench.
 *
 * Not measured here (switching the clocksource would disturb the shared
 * machine): were it kvm-clock, clock_gettime would still be answered in the
 * vDSO (pvclock: the TSC scaled by parameters the host publishes per vCPU),
 * at a similar cost; the same conclusion.  Were it hpet or acpi_pm, the vDSO
 * could not read it and every clock_gettime would be a system call (hundreds
 * of ns, more when the hypervisor traps the HPET read): two per I/O would
 * then be a large share of a ~2 us I/O, and a calibrated TSC clock (given
 * constant_tsc and nonstop_tsc) would win, as fio's clocksource=cpu does.
 * That case deserves a warning from rebench rather than a second clock.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#if !defined(__x86_64__) && !defined(__i386__)
int main(void)
{
	printf("clockbench: x86 only (rdtsc); nothing measured on this machine\n");
	return 0;
}
#else

#define CAL_MS		100
#define LOOP_CALLS	2000000
#define LOOP_REPEATS	5
#define PAIR_TRIES	16
#define XCPU_ROUNDS	200000

static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static inline uint64_t rdtsc(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

/* Not executed before the instructions ahead of it (the kernel's vDSO
 * orders its TSC read so). */
static inline uint64_t rdtsc_ordered(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("lfence; rdtsc" : "=a"(lo), "=d"(hi) : : "memory");
	return (uint64_t)hi << 32 | lo;
}

static inline uint64_t rdtscp(void)
{
	uint32_t lo, hi, aux;

	__asm__ __volatile__("rdtscp" : "=a"(lo), "=d"(hi), "=c"(aux));
	return (uint64_t)hi << 32 | lo;
}

/* A TSC clock: ns = base_ns + (tsc - base_tsc) * mult >> 32. */
struct tsc_clock {
	uint64_t base_tsc, base_ns, mult;
};

static struct tsc_clock tclk;

static inline uint64_t tsc_ns(uint64_t tsc)
{
	unsigned __int128 d = (unsigned __int128)(tsc - tclk.base_tsc) * tclk.mult;

	return tclk.base_ns + (uint64_t)(d >> 32);
}

/* A (CLOCK_MONOTONIC ns, TSC) pair read as close together as we can;
 * returns the window (ticks) between the two TSC reads around the clock. */
static uint64_t read_pair(uint64_t *ns, uint64_t *tsc)
{
	uint64_t best = UINT64_MAX, a, b, t;
	int i;

	for (i = 0; i < PAIR_TRIES; i++) {
		a = rdtsc_ordered();
		t = now_ns();
		b = rdtsc_ordered();
		if (b - a < best) {
			best = b - a;
			*ns = t;
			*tsc = a + (b - a) / 2;
		}
	}
	return best;
}

static volatile uint64_t sink;

enum which { CLK_GETTIME, CLK_RDTSC, CLK_RDTSC_ORD, CLK_RDTSCP, CLK_TSC_NS };

static const char *const which_name[] = {
	[CLK_GETTIME] = "clock_gettime(CLOCK_MONOTONIC)",
	[CLK_RDTSC] = "rdtsc",
	[CLK_RDTSC_ORD] = "lfence + rdtsc",
	[CLK_RDTSCP] = "rdtscp",
	[CLK_TSC_NS] = "rdtsc + conversion to ns",
};

/* ns per call: one loop of LOOP_CALLS calls. */
static double loop_cost(enum which w)
{
	uint64_t acc = 0, t0, t1;
	int i;

	t0 = now_ns();
	switch (w) {
	case CLK_GETTIME:
		for (i = 0; i < LOOP_CALLS; i++)
			acc += now_ns();
		break;
	case CLK_RDTSC:
		for (i = 0; i < LOOP_CALLS; i++)
			acc += rdtsc();
		break;
	case CLK_RDTSC_ORD:
		for (i = 0; i < LOOP_CALLS; i++)
			acc += rdtsc_ordered();
		break;
	case CLK_RDTSCP:
		for (i = 0; i < LOOP_CALLS; i++)
			acc += rdtscp();
		break;
	case CLK_TSC_NS:
		for (i = 0; i < LOOP_CALLS; i++)
			acc += tsc_ns(rdtsc());
		break;
	}
	t1 = now_ns();
	sink = acc;
	return (double)(t1 - t0) / LOOP_CALLS;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Median of LOOP_REPEATS loops; the loops of all clocks are interleaved. */
static void measure_costs(double *cost)
{
	double v[CLK_TSC_NS + 1][LOOP_REPEATS];
	int r, w;

	for (r = 0; r < LOOP_REPEATS; r++)
		for (w = 0; w <= CLK_TSC_NS; w++)
			v[w][r] = loop_cost((enum which)w);
	for (w = 0; w <= CLK_TSC_NS; w++) {
		qsort(v[w], LOOP_REPEATS, sizeof(double), cmp_double);
		cost[w] = v[w][LOOP_REPEATS / 2];
	}
}

static bool cpu_flag(const char *flag)
{
	char line[8192], *p;
	size_t n = strlen(flag);
	bool found = false;
	FILE *f = fopen("/proc/cpuinfo", "r");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "flags", 5))
			continue;
		for (p = strstr(line, flag); p; p = strstr(p + 1, flag))
			if (p[-1] == ' ' && (p[n] == ' ' || p[n] == '\n')) {
				found = true;
				break;
			}
		break;	/* the first CPU's flags */
	}
	fclose(f);
	return found;
}

static void read_sysfs(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	snprintf(buf, len, "unknown");
	if (!f)
		return;
	if (fgets(buf, (int)len, f))
		buf[strcspn(buf, "\n")] = 0;
	fclose(f);
}

/* Ticks per ns against CLOCK_MONOTONIC over CAL_MS, spinning. */
static double calibrate(uint64_t *window)
{
	uint64_t ns0, tsc0, ns1, tsc1, w0, w1;

	w0 = read_pair(&ns0, &tsc0);
	while (now_ns() - ns0 < CAL_MS * 1000000ULL)
		;
	w1 = read_pair(&ns1, &tsc1);
	*window = w0 > w1 ? w0 : w1;
	tclk.base_tsc = tsc1;
	tclk.base_ns = ns1;
	return (double)(tsc1 - tsc0) / (double)(ns1 - ns0);
}

/* The cross-CPU check: threads on different CPUs read the TSC in turn,
 * under a lock, so every read follows the previous one in time. */
static atomic_flag xlock = ATOMIC_FLAG_INIT;
static uint64_t xlast;
static uint64_t xback, xback_max;	/* reads below the previous, largest gap */

static void *xcpu_thread(void *arg)
{
	int cpu = (int)(intptr_t)arg, i;
	cpu_set_t set;
	uint64_t t;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set))
		return (void *)1;
	for (i = 0; i < XCPU_ROUNDS; i++) {
		while (atomic_flag_test_and_set_explicit(&xlock, memory_order_acquire))
			;
		t = rdtsc_ordered();
		if (t < xlast) {
			xback++;
			if (xlast - t > xback_max)
				xback_max = xlast - t;
		}
		xlast = t;
		atomic_flag_clear_explicit(&xlock, memory_order_release);
	}
	return NULL;
}

/* 0 done, 1 not possible (fewer than 2 CPUs allowed) */
static int xcpu_check(void)
{
	cpu_set_t set;
	pthread_t th[2];
	int cpus[2], n = 0, c;
	void *r0, *r1;

	if (sched_getaffinity(0, sizeof(set), &set))
		return 1;
	for (c = 0; c < CPU_SETSIZE && n < 2; c++)
		if (CPU_ISSET(c, &set))
			cpus[n++] = c;
	if (n < 2)
		return 1;
	if (pthread_create(&th[0], NULL, xcpu_thread, (void *)(intptr_t)cpus[0]))
		return 1;
	if (pthread_create(&th[1], NULL, xcpu_thread, (void *)(intptr_t)cpus[1])) {
		pthread_join(th[0], NULL);
		return 1;
	}
	pthread_join(th[0], &r0);
	pthread_join(th[1], &r1);
	return r0 || r1;
}

/* NS_PER_IO[/IOS_PER_PAIR]: false when ARG is not that */
static bool parse_io(const char *arg, double *io, double *per)
{
	char *end;

	*io = strtod(arg, &end);
	*per = 1;
	if (*end == '/')
		*per = strtod(end + 1, &end);
	return *io > 0 && *per >= 1 && !*end;
}

int main(int argc, char **argv)
{
	double cost[CLK_TSC_NS + 1], tpns, drift_s = 3, max_off = 0;
	char src[64], avail[256];
	uint64_t window, ns, tsc, start_ns;
	int i, w, argi = 1;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	if (argc > 2 && !strcmp(argv[1], "-d")) {
		drift_s = atof(argv[2]);
		argi = 3;
	}
	for (i = argi; i < argc; i++) {
		double io, per;

		if (!parse_io(argv[i], &io, &per))
			break;
	}
	if (!(drift_s >= 0.5) || i < argc) {
		fprintf(stderr, "usage: clockbench [-d DRIFT_S >= 0.5] [NS_PER_IO[/IOS_PER_PAIR] ...]\n");
		return 2;
	}
	read_sysfs("/sys/devices/system/clocksource/clocksource0/current_clocksource",
		   src, sizeof(src));
	read_sysfs("/sys/devices/system/clocksource/clocksource0/available_clocksource",
		   avail, sizeof(avail));
	printf("kernel clocksource: %s (available: %s)\n", src, avail);
	printf("cpu flags: constant_tsc %s, nonstop_tsc %s, rdtscp %s, tsc_known_freq %s; %ld CPUs online\n",
	       cpu_flag("constant_tsc") ? "yes" : "NO",
	       cpu_flag("nonstop_tsc") ? "yes" : "NO",
	       cpu_flag("rdtscp") ? "yes" : "NO",
	       cpu_flag("tsc_known_freq") ? "yes" : "no", cpus);

	tpns = calibrate(&window);
	tclk.mult = (uint64_t)(4294967296.0 / tpns + 0.5);
	printf("calibration over %d ms against CLOCK_MONOTONIC: %.6f ticks/ns (%.3f MHz), pair window %llu ticks (%.0f ns)\n",
	       CAL_MS, tpns, tpns * 1e3, (unsigned long long)window,
	       (double)window / tpns);

	measure_costs(cost);
	printf("cost per call (median of %d loops of %d calls):\n", LOOP_REPEATS, LOOP_CALLS);
	for (w = 0; w <= CLK_TSC_NS; w++)
		printf("  %-32s %6.1f ns\n", which_name[w], cost[w]);

	/* drift: converted TSC minus CLOCK_MONOTONIC, every half second */
	printf("drift of the converted TSC from CLOCK_MONOTONIC after calibration:\n");
	start_ns = now_ns();
	for (i = 1; i <= (int)(drift_s * 2 + 0.5); i++) {
		struct timespec half = { 0, 500000000L };
		double off;

		nanosleep(&half, NULL);
		read_pair(&ns, &tsc);
		off = (double)(int64_t)(tsc_ns(tsc) - ns);
		if (off > max_off || -off > max_off)
			max_off = off < 0 ? -off : off;
		if (i % 2 == 0 || i == (int)(drift_s * 2 + 0.5))
			printf("  after %4.1f s: %+6.0f ns\n",
			       (double)(ns - start_ns) / 1e9, off);
	}
	printf("  largest: %.0f ns over %.1f s (%.3f ppm)\n", max_off, drift_s,
	       max_off / (drift_s * 1e3));

	if (xcpu_check())
		printf("cross-CPU check: not possible (fewer than 2 CPUs allowed)\n");
	else
		printf("cross-CPU check: %d reads in turn on 2 CPUs, %llu below the previous read (largest by %llu ticks, %.0f ns)\n",
		       2 * XCPU_ROUNDS, (unsigned long long)xback,
		       (unsigned long long)xback_max, (double)xback_max / tpns);

	printf("two clock reads: clock_gettime %.1f ns, rdtsc + conversion %.1f ns; a TSC clock saves %.1f ns per pair\n",
	       2 * cost[CLK_GETTIME], 2 * cost[CLK_TSC_NS],
	       2 * (cost[CLK_GETTIME] - cost[CLK_TSC_NS]));
	for (i = argi; i < argc; i++) {
		double io, per;

		parse_io(argv[i], &io, &per);
		printf("  I/O of %.0f ns, a pair of reads per %.0f I/O%s: two clock_gettime are %.2f%% of it, a TSC clock would save %.2f%%\n",
		       io, per, per > 1 ? "s" : "",
		       100 * 2 * cost[CLK_GETTIME] / per / io,
		       100 * 2 * (cost[CLK_GETTIME] - cost[CLK_TSC_NS]) / per / io);
	}
	return 0;
}
#endif
