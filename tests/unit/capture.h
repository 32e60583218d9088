/* capture.h - what a unit test's code printed on stderr, and checks that an
 * error message reads as a user would see it.  Include after cmocka.h.
 */
#ifndef REBENCH_TEST_CAPTURE_H
#define REBENCH_TEST_CAPTURE_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* stderr of the last parse/check/resolve, to see what the user would */
static char errtext[1 << 18];	/* the 10001-value list error is ~80 KB */
static FILE *cap_file;
static int cap_saved = -1;

static void capture_begin(void)
{
	fflush(stderr);
	cap_file = tmpfile();
	assert_non_null(cap_file);
	cap_saved = dup(STDERR_FILENO);
	assert_true(cap_saved >= 0);
	assert_true(dup2(fileno(cap_file), STDERR_FILENO) >= 0);
}

static void capture_end(void)
{
	size_t n;

	fflush(stderr);
	dup2(cap_saved, STDERR_FILENO);
	close(cap_saved);
	cap_saved = -1;
	rewind(cap_file);
	n = fread(errtext, 1, sizeof(errtext) - 1, cap_file);
	errtext[n] = '\0';
	fclose(cap_file);
}

/* A refusal says so: "rebench: ..." containing each given fragment. */
static void expect_message(const char *what, ...)
{
	const char *frag;
	va_list ap;

	if (strncmp(errtext, "rebench: ", 9))
		fail_msg("%s: no 'rebench: ' error message, got '%s'", what,
			 errtext);
	va_start(ap, what);
	while ((frag = va_arg(ap, const char *)))
		if (!strstr(errtext, frag))
			fail_msg("%s: message lacks '%s': %s", what, frag,
				 errtext);
	va_end(ap);
}

#endif
