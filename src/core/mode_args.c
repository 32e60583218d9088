/* mode_args.c - see mode_args.h. */
#include "core/mode_args.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
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

int mode_format(const char *w, enum out_format *fmt, bool *given)
{
	enum out_format f;

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

int mode_args_bad(const struct mode_grammar *g, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "rebench: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nusage:%s%s", g->sep, g->usage);
	return -EINVAL;
}

#define AT(args, off, type) ((type *)((char *)(args) + (off)))

/* A word that is no option: "-" alone is one (stdin, a file). */
static bool plain_word(const char *w)
{
	return w[0] != '-' || !w[1];
}

/* The value v of the option o into args. */
static int take(const struct mode_grammar *g, const struct mode_opt *o,
		void *args, const char *v)
{
	const char **slot = AT(args, o->off, const char *);
	int *n = AT(args, o->count, int);

	if (o->kind != MODE_LIST && *slot && o->twice)
		return mode_args_bad(g, o->twice, o->name ? o->name : v);
	if (o->empty && !*v)
		return mode_args_bad(g, o->empty, o->name);
	if (o->kind == MODE_LIST && *n == o->max)
		return mode_args_bad(g, o->many, o->name);
	if (o->check && o->check(g, args, o->name, v))
		return -EINVAL;
	if (o->kind == MODE_LIST)
		slot[(*n)++] = v;
	else
		*slot = v;
	return 0;
}

/* The option's word at argv[*i], and its value after it when it takes
 * one, as written; 1 when the word is not o. */
static int pass(int argc, char **argv, int *i, const struct mode_grammar *g,
		const struct mode_opt *o, void *args)
{
	const char *w = argv[*i];
	char **words = AT(args, o->off, char *);
	int *n = AT(args, o->count, int);
	size_t len = strlen(o->name);

	if (!(o->letter && !strcmp(w, o->letter)) && strcmp(w, o->name) &&
	    !(o->value && !strncmp(w, o->name, len) && w[len] == '='))
		return 1;
	if (*n + 2 > o->max)
		return mode_args_bad(g, o->many, w);
	if (o->check && o->check(g, args, o->name, w))
		return -EINVAL;
	words[(*n)++] = argv[*i];
	if (o->value && !strchr(w, '=')) {
		if (*i + 1 >= argc)
			return mode_args_bad(g, o->missing, w);
		words[(*n)++] = argv[++*i];
	}
	return 0;
}

/* "--name A B": B must follow A, and be no option. */
static int pair(int argc, char **argv, int *i, const struct mode_grammar *g,
		const struct mode_opt *o, void *args, const char *a)
{
	if (*AT(args, o->off, const char *) && o->twice)
		return mode_args_bad(g, o->twice, o->name);
	*AT(args, o->off, const char *) = a;
	if (*i + 1 >= argc || argv[*i + 1][0] == '-')
		return mode_args_bad(g, o->second, o->name);
	*AT(args, o->count, const char *) = argv[++*i];
	return 0;
}

/* --name at argv[*i] with a value: 1 when the word is not o. */
static int value(int argc, char **argv, int *i, const struct mode_grammar *g,
		 const struct mode_opt *o, void *args)
{
	const char *w = argv[*i], *v;
	bool missing;

	if (o->kind == MODE_WORD)
		return plain_word(w) ? take(g, o, args, w) : 1;
	if (o->twice_first && mode_is(w, o->name) &&
	    *AT(args, o->off, const char *))
		return mode_args_bad(g, o->twice, o->name);
	v = mode_value(argc, argv, i, o->name, &missing);
	if (missing && o->check_missing)
		return o->check(g, args, o->name, NULL) ? -EINVAL : 0;
	if (missing)
		return mode_args_bad(g, o->missing ? o->missing :
				     g->unknown, w);
	if (!v)
		return 1;
	return o->kind == MODE_PAIR ? pair(argc, argv, i, g, o, args, v) :
				      take(g, o, args, v);
}

/* The word at argv[*i] as the option o: 1 when it is not o, else 0 or
 * -EINVAL after a message. */
static int word(int argc, char **argv, int *i, const struct mode_grammar *g,
		const struct mode_opt *o, void *args)
{
	const char *w = argv[*i];
	int f;

	switch (o->kind) {
	case MODE_FORMAT:
		f = mode_format(w, AT(args, o->off, enum out_format),
				AT(args, o->count, bool));
		return f < 0 ? mode_args_bad(g, o->twice, w) : f;
	case MODE_FLAG:
		if (strcmp(w, o->name))
			return 1;
		*AT(args, o->off, bool) = true;
		return 0;
	case MODE_REFUSE:
		if (o->prefix ? strncmp(w, o->name, strlen(o->name)) :
				!mode_is(w, o->name))
			return 1;
		return mode_args_bad(g, o->refuse, w);
	case MODE_PASS:
		return pass(argc, argv, i, g, o, args);
	default:
		return value(argc, argv, i, g, o, args);
	}
}

int mode_args_parse(int argc, char **argv, const struct mode_grammar *g,
		    void *args)
{
	size_t k;
	int i, r;

	for (i = 1; i < argc; i++) {
		const char *w = argv[i];

		if (!g->no_cmd && !strcmp(w, "--")) {
			*AT(args, g->cmd, char **) = argv + i + 1;
			return 0;
		}
		for (k = 0, r = 1; k < g->nopts && r > 0; k++)
			r = word(argc, argv, &i, g, &g->opts[k], args);
		if (r < 0)
			return r;
		if (!r)
			continue;
		if (g->help && (!strcmp(w, "-h") || !strcmp(w, "--help"))) {
			printf("usage:%s%s%s", g->sep, g->usage, g->help);
			return 1;
		}
		if (w[0] == '-' || g->no_cmd)
			return mode_args_bad(g, g->unknown, w);
		*AT(args, g->cmd, char **) = argv + i;	/* COMMAND without "--" */
		return 0;
	}
	return 0;
}
