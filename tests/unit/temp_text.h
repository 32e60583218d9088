/* temp_text.h - text written to a new temporary file, for unit tests whose
 * code under test reads a path (a log, a JSON document).  Include after
 * cmocka.h.
 */
#ifndef REBENCH_TEST_TEMP_TEXT_H
#define REBENCH_TEST_TEMP_TEXT_H

#include <stdio.h>
#include <stdlib.h>

/* mkstemp(path) (a template ending in XXXXXX, changed in place), then
 * text into it; the test fails when either cannot be done.  The caller
 * unlinks path. */
static void write_temp_text(char *path, const char *text)
{
	int fd = mkstemp(path);
	FILE *f;

	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

#endif
