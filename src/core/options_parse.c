/* options_parse.c - argv-style words into a spec and run options: long
 * and short options, bundles, fio's spellings (options_fio.h) and the
 * target, through the option table's setters (options.c). */
#include "core/options.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/fileset.h"
#include "core/options_fio.h"
#include "core/suggest.h"

static int missing_value(const struct opt_desc *o, const struct parse_ctx *ctx)
{
	char w[64], l[96];

	options_where(ctx, w, sizeof(w));
	options_label(o, ctx, l, sizeof(l));
	fprintf(stderr, "rebench: %s%s needs a value (%s)\n", w, l, o->metavar);
	return -EINVAL;
}

/* An unknown option: what to give for fio's, else the nearest names. */
static int unknown(const char *word, const struct parse_ctx *ctx)
{
	char w[64], name[64], near[192], own[128];
	struct opt_iter it = { 0 };
	const char *hint;
	struct suggest sg;
	size_t i;

	options_where(ctx, w, sizeof(w));
	if (word[0] == '-' && word[1] == '-' && word[2]) {
		snprintf(name, sizeof(name), "%.*s",
			 (int)strcspn(word + 2, "="), word + 2);
		hint = fio_option_hint(name, own, sizeof(own));
		if (hint) {
			fprintf(stderr, "rebench: %sunknown option '%s'; for fio's %s, %s\n",
				w, word, name, hint);
			return -EINVAL;
		}
		suggest_init(&sg, name);
		while (options_next(&it))
			suggest_offer(&sg, it.o->name);
		for (i = 0; i < fio_alias_count; i++)
			suggest_offer(&sg, fio_aliases[i].name);
		if (suggest_text(&sg, "--", near, sizeof(near))) {
			fprintf(stderr, "rebench: %sunknown option '%s'; did you mean %s? (see rebench --help)\n",
				w, word, near);
			return -EINVAL;
		}
	}
	fprintf(stderr, "rebench: %sunknown option '%s'; see rebench --help\n",
		w, word);
	return -EINVAL;
}

/* fio's spelling of an option (options_fio.h): a value after '=' or, when
 * the alias takes one, as the next word. */
static int parse_alias(const struct fio_alias *a, const char *eq, int argc,
		       char **argv, int *i, const struct fio_set *st)
{
	char w[64];

	if (eq)
		return fio_alias_apply(a, eq + 1, st);
	if (!a->metavar)
		return fio_alias_apply(a, NULL, st);
	if (*i + 1 < argc)
		return fio_alias_apply(a, argv[++*i], st);
	options_where(st->ctx, w, sizeof(w));
	fprintf(stderr, "rebench: %s--%s needs a value (%s)\n", w, a->name,
		a->metavar);
	return -EINVAL;
}

static int parse_long(int argc, char **argv, int *i, struct spec *spec,
		      struct run_opts *run, const struct parse_ctx *ctx,
		      unsigned *used)
{
	char name[64];
	const char *arg = argv[*i] + 2, *eq = strchr(arg, '=');
	size_t n = eq ? (size_t)(eq - arg) : strlen(arg);
	const struct opt_desc *o;
	const struct fio_alias *a;
	struct opt_desc own;

	if (n >= sizeof(name))
		return unknown(argv[*i], ctx);
	memcpy(name, arg, n);
	name[n] = '\0';
	o = options_find_long(name);
	a = o ? NULL : fio_alias_find(name);
	if (a) {
		struct parse_ctx actx = *ctx;
		struct fio_set st = { spec, run, &actx, used };

		actx.alias = a->name;
		return parse_alias(a, eq, argc, argv, i, &st);
	}
	if (!o && !(o = options_find_engine(name, &own)))
		return unknown(argv[*i], ctx);
	if (o->type == OPT_FLAG) {
		if (eq) {
			char w[64];

			options_where(ctx, w, sizeof(w));
			fprintf(stderr, "rebench: %s--%s takes no value (got '%s')\n",
				w, o->name, eq + 1);
			return -EINVAL;
		}
		if (o == &own)
			return options_apply_engine_flag(o, spec, ctx);
		return options_apply(o, NULL, spec, run, ctx);
	}
	if (eq)
		return options_apply(o, eq + 1, spec, run, ctx);
	if (*i + 1 >= argc)
		return missing_value(o, ctx);
	return options_apply(o, argv[++*i], spec, run, ctx);
}

/* "-pf" bundles flags; "-b4k" and "-b 4k" both give a value. */
static int parse_short(int argc, char **argv, int *i, struct spec *spec,
		       struct run_opts *run, const struct parse_ctx *ctx)
{
	const char *p = argv[*i] + 1;
	const struct opt_desc *o;
	struct opt_desc own;
	char word[3] = "-?", name[64], w[64];
	size_t n = strcspn(p, "=");
	int ret;

	/* -bs=4k, -iodepth 8: a long name after one dash */
	if (n >= 2 && n < sizeof(name)) {
		snprintf(name, sizeof(name), "%.*s", (int)n, p);
		if (options_find_long(name) || fio_alias_find(name) ||
		    options_find_engine(name, &own)) {
			options_where(ctx, w, sizeof(w));
			fprintf(stderr, "rebench: %sunknown option '%s'; long options take two dashes: -%s\n",
				w, argv[*i], argv[*i]);
			return -EINVAL;
		}
	}
	for (; *p; p++) {
		o = options_find_letter(*p);
		if (!o) {
			word[1] = *p;
			return unknown(word, ctx);
		}
		if (o->type == OPT_FLAG) {
			ret = options_apply(o, NULL, spec, run, ctx);
			if (ret)
				return ret;
			continue;
		}
		if (p[1])
			return options_apply(o, p + 1, spec, run, ctx);
		if (*i + 1 >= argc)
			return missing_value(o, ctx);
		return options_apply(o, argv[++*i], spec, run, ctx);
	}
	return 0;
}

/* The option a word names: "--name[=v]", or "-x..." (its first letter);
 * NULL for a fio spelling. */
static const struct opt_desc *word_option(const char *w)
{
	char name[64];
	size_t n;

	if (w[1] != '-')
		return options_find_letter(w[1]);
	n = strcspn(w + 2, "=");
	if (n >= sizeof(name))
		return NULL;
	memcpy(name, w + 2, n);
	name[n] = '\0';
	return options_find_long(name);
}

/* Words first..last were one option (its name, then its value). */
static void map_word(struct argv_map *m, int first, int last,
		     enum argv_role role, const struct opt_desc *o)
{
	int i;

	for (i = first; m && i <= last && i < m->n; i++) {
		m->role[i] = i == first ? role : ARGV_VALUE;
		m->opt[i] = o;
	}
}

int options_parse(int argc, char **argv, struct spec *spec,
		  struct run_opts *run, const struct parse_ctx *ctx)
{
	static const struct parse_ctx none;
	bool only_targets = false;
	unsigned fio_used = 0;
	int i, ret;

	if (!ctx)
		ctx = &none;
	for (i = 0; i < argc; i++) {
		const char *a = argv[i];
		int first = i;

		if (!only_targets && !strcmp(a, "--")) {
			only_targets = true;
			map_word(ctx->map, i, i, ARGV_SEPARATOR, NULL);
			continue;
		}
		if (!only_targets && a[0] == '-' && a[1] == '-')
			ret = parse_long(argc, argv, &i, spec, run, ctx,
					 &fio_used);
		else if (!only_targets && a[0] == '-' && a[1])
			ret = parse_short(argc, argv, &i, spec, run, ctx);
		else if (spec->target && !spec->target_is_dir) {
			/* a second TARGET: a list of files (fileset.h) */
			ret = fileset_add_target(spec, a);
			map_word(ctx->map, i, i, ARGV_TARGET, NULL);
			if (ret)
				return ret;
			continue;
		} else {
			free(spec->target);
			spec->target = strdup(a);
			spec->target_is_dir = false;
			ret = spec->target ? 0 : -ENOMEM;
			map_word(ctx->map, i, i, ARGV_TARGET, NULL);
			if (ret)
				return ret;
			continue;
		}
		if (ret)
			return ret;
		map_word(ctx->map, first, i, ARGV_OPTION, word_option(a));
	}
	if (fileset_parse_end(spec, ctx))
		return -EINVAL;
	if (fio_used) {
		spec->fio_spelled = true;
		fio_alias_notes(fio_used, spec, ctx);
	}
	if (spec->fio_spelled)
		fio_defaults(spec);
	return 0;
}

int options_split_line(char *line, char **words, int max_words)
{
	char *r = line, *w = line;
	int n = 0;

	for (;;) {
		char quote = 0;

		while (*r == ' ' || *r == '\t' || *r == '\r' || *r == '\n')
			r++;
		if (!*r || *r == '#')
			break;
		if (n == max_words)
			return -E2BIG;
		words[n++] = w;
		while (*r && (quote || (*r != ' ' && *r != '\t' &&
					*r != '\r' && *r != '\n'))) {
			if (!quote && (*r == '\'' || *r == '"')) {
				quote = *r++;
				continue;
			}
			if (quote && *r == quote) {
				quote = 0;
				r++;
				continue;
			}
			*w++ = *r++;
		}
		if (quote)
			return -EINVAL;
		if (*r)
			r++;
		*w++ = '\0';
	}
	return n;
}
