/* mode_args.c - see mode_args.h. */
#include "cli/mode_args.h"

#include <errno.h>
#include <string.h>

bool mode_is(const char *w, const char *name)
{
	size_t n = strlen(name);

	return !strncmp(w, name, n) && (!w[n] || w[n] == '=');
}

bool mode_given(int argc, char **argv, const char *name)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (mode_is(argv[i], name))
			return true;
	return false;
}

const char *mode_value(int argc, char **argv, int *i, const char *name,
		       bool *missing)
{
	const char *w = argv[*i];
	size_t n = strlen(name);

	*missing = false;
	if (!mode_is(w, name))
		return NULL;
	if (w[n] == '=')
		return w + n + 1;
	if (*i + 1 >= argc) {
		*missing = true;
		return NULL;
	}
	return argv[++*i];
}

int mode_format(const char *w, enum trace_stats_format *fmt, bool *given)
{
	enum trace_stats_format f;

	if (!strcmp(w, "-n") || !strcmp(w, "--silent"))
		f = TSF_TERSE;
	else if (!strcmp(w, "--json"))
		f = TSF_JSON;
	else
		return 1;
	if (*given && *fmt != f)
		return -EINVAL;
	*fmt = f;
	*given = true;
	return 0;
}
