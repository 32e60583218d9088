/* hosts_remote.c - see hosts_remote.h. */
#include "hosts/hosts_remote.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/mode_args.h"
#include "core/options.h"
#include "core/plan.h"
#include "core/runinfo.h"
#include "core/signals.h"
#include "core/workload.h"

/* Digits by hand: a double holds an instant in ns only to 256 ns. */
int hosts_parse_start_at(const char *text, uint64_t *ns)
{
	uint64_t sec = 0, frac = 0, scale = 1000000000ULL;
	const char *p = text;

	if (!isdigit((unsigned char)*p))
		return -EINVAL;
	for (; isdigit((unsigned char)*p); p++) {
		if (sec > 10000000000ULL)
			return -EINVAL;
		sec = sec * 10 + (uint64_t)(*p - '0');
	}
	if (*p == '.')
		for (p++; isdigit((unsigned char)*p); p++)
			if (scale > 1) {
				scale /= 10;
				frac += (uint64_t)(*p - '0') * scale;
			}
	if (*p)
		return -EINVAL;
	*ns = sec * 1000000000ULL + frac;
	return 0;
}

int hosts_parse_clock(const char *line, uint64_t *ns)
{
	uint64_t v = 0;
	const char *p = line;

	if (!isdigit((unsigned char)*p))
		return -EINVAL;
	for (; isdigit((unsigned char)*p); p++) {
		if (v > UINT64_MAX / 10 - 10)
			return -EINVAL;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	if (*p && *p != '\r')
		return -EINVAL;
	*ns = v;
	return 0;
}

int hosts_remote_setup(const struct run_opts *run)
{
	uint64_t at, now = run_realtime_ns();
	int ret;

	if (run->start_at) {
		if (hosts_parse_start_at(run->start_at, &at) || at == 0) {
			fprintf(stderr, "rebench: --start-at %s: give the instant as seconds since the epoch, as date +%%s.%%N prints it (1764170000.25)\n",
				run->start_at);
			return -EINVAL;
		}
		if (at > now + 86400ULL * 1000000000ULL) {
			fprintf(stderr, "rebench: --start-at %s is more than a day from now (this clock says %llu): a typo? give an instant within the day\n",
				run->start_at,
				(unsigned long long)(now / 1000000000ULL));
			return -EINVAL;
		}
		runinfo_start_at()->at_ns = at;
	}
	if (run_given(run, "stop-on-eof")) {
		ret = signals_stop_on_eof((int)run->stop_on_eof);
		if (ret) {
			fprintf(stderr, "rebench: --stop-on-eof %llu: cannot watch it: %s\n",
				(unsigned long long)run->stop_on_eof, strerror(-ret));
			return -EINVAL;
		}
	}
	return 0;
}

bool clock_echo_wanted(int argc, char **argv)
{
	return mode_given(argc, argv, "--clock-echo");
}

int clock_echo_main(void)
{
	char line[64];

	setvbuf(stdout, NULL, _IOLBF, 0);
	while (fgets(line, sizeof(line), stdin))
		if (printf("%llu\n", (unsigned long long)run_realtime_ns()) < 0)
			return EXIT_OUTPUT_FAILED;
	return EXIT_OK;
}
