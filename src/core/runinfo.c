/* runinfo.c - see runinfo.h. */
#include "core/runinfo.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/json.h"

static int run_argc;
static char **run_argv;
static char date[64], zone[16], host[256];
static char **lines;		/* NULL: standard input was not read */
static size_t nlines, cap;
static int stdin_read;
static struct run_start_at start_at;

struct run_start_at *runinfo_start_at(void)
{
	return &start_at;
}

void runinfo_start(int argc, char **argv)
{
	struct timespec ts;
	struct tm tm;
	long off;
	size_t n;

	run_argc = argc;
	run_argv = argv;
	clock_gettime(CLOCK_REALTIME, &ts);
	localtime_r(&ts.tv_sec, &tm);
	n = strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%S", &tm);
	/* the offset as ISO 8601 writes it, +02:00 (strftime's %z: +0200) */
	off = tm.tm_gmtoff;
	snprintf(date + n, sizeof(date) - n, "%c%02ld:%02ld",
		 off < 0 ? '-' : '+', labs(off) / 3600, labs(off) / 60 % 60);
	snprintf(zone, sizeof(zone), "%s", tm.tm_zone ? tm.tm_zone : "");
	if (gethostname(host, sizeof(host) - 1))
		host[0] = '\0';
}

int runinfo_stdin_line(const char *line, size_t len)
{
	char *copy;

	stdin_read = 1;
	if (nlines == cap) {
		size_t ncap = cap ? 2 * cap : 16;
		char **p = realloc(lines, ncap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		lines = p;
		cap = ncap;
	}
	copy = strndup(line, len);
	if (!copy)
		return -ENOMEM;
	lines[nlines++] = copy;
	return 0;
}

/* A word a POSIX shell reads back as itself without quotes. */
static int plain_word(const char *w)
{
	if (!*w)
		return 0;
	for (; *w; w++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789_@%+=:,./-", *w))
			return 0;
	return 1;
}

char *runinfo_command_line(char *buf, size_t len)
{
	size_t n = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < run_argc && n + 1 < len; i++) {
		const char *w = run_argv[i], *c;

		if (i)
			buf[n++] = ' ';
		if (plain_word(w)) {
			n += (size_t)snprintf(buf + n, len - n, "%s", w);
			continue;
		}
		/* 'it'\''s': a quote ends the quoting, is escaped, and
		 * starts it again */
		n += (size_t)snprintf(buf + n, len - n, "'");
		for (c = w; *c && n + 1 < len; c++)
			n += (size_t)snprintf(buf + n, len - n,
					      *c == '\'' ? "'\\''" : "%c", *c);
		if (n + 1 < len)
			n += (size_t)snprintf(buf + n, len - n, "'");
		if (n >= len)
			n = len - 1;
	}
	return buf;
}

void runinfo_json(struct json *j)
{
	char *cmd;
	size_t len = 16;
	int i;

	for (i = 0; i < run_argc; i++)
		len += 4 * strlen(run_argv[i]) + 3;
	json_obj_begin(j, "run");
	json_str(j, "date", date[0] ? date : NULL);
	json_str(j, "timezone", zone[0] ? zone : NULL);
	json_str(j, "host", host[0] ? host : NULL);
	cmd = malloc(len);
	json_str(j, "command_line", cmd ? runinfo_command_line(cmd, len) : NULL);
	free(cmd);
	json_arr_begin(j, "argv");
	for (i = 0; i < run_argc; i++)
		json_str(j, NULL, run_argv[i]);
	json_arr_end(j);
	if (stdin_read) {
		size_t k;

		json_arr_begin(j, "stdin");
		for (k = 0; k < nlines; k++)
			json_str(j, NULL, lines[k]);
		json_arr_end(j);
	} else {
		json_null(j, "stdin");
	}
	json_obj_end(j);
}

void runinfo_free(void)
{
	while (nlines)
		free(lines[--nlines]);
	free(lines);
	lines = NULL;
	cap = 0;
}
