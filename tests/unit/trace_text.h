/* trace_text.h - a log given as text to the reader of trace_log.h, for the
 * unit tests of the log's formats.  Include after cmocka.h.
 */
#ifndef REBENCH_TEST_TRACE_TEXT_H
#define REBENCH_TEST_TRACE_TEXT_H

#include <stdio.h>
#include <string.h>

#include "trace/trace_log.h"

static struct trace_reader rd;

/* Open text as a log named "LOG": the return of trace_open_stream. */
static int open_text(const char *text)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");

	assert_non_null(f);
	return trace_open_stream(&rd, f, "LOG");
}

static void close_text(void)
{
	FILE *f = rd.f;

	trace_close(&rd);
	fclose(f);
}

#endif
