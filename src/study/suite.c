/* suite.c - suite files: where a named suite is found, --suite list, and a
 * file's lines parsed into tests (the stdin syntax, the same parser).
 */
#include "study/suite.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/infile.h"
#include "core/options.h"
#include "report/summary.h"

#ifndef REBENCH_DATADIR
#define REBENCH_DATADIR "/usr/local/share/rebench"
#endif

#define SUITE_DIRS 3
#define MAX_WORDS 128

/* What a suite file may be (infile.h; rebench(1), FILES): a regular file
 * (it is read twice, for its description and its tests) of at most 1 MiB,
 * lines of at most 16 KiB; 64 tests of a few options fit many times. */
static const struct infile_limit suite_limit = {
	.bytes = 1 << 20, .line = 16 << 10,
};

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/* Does dir (already in dirs[0..n-1]) name a folder seen before? */
static bool seen_dir(char dirs[][PATH_MAX], size_t n, const char *dir)
{
	struct stat a, b;
	size_t i;

	if (stat(dir, &a))
		return true;
	for (i = 0; i < n; i++)
		if (!stat(dirs[i], &b) && a.st_dev == b.st_dev &&
		    a.st_ino == b.st_ino)
			return true;
	return false;
}

/*
 * The folders named suites are looked up in, first to last: REBENCH_WORKLOADS
 * alone when set; else the clone's workloads/ beside the running binary
 * (./rebench in a clone), the share/rebench/workloads of the binary's own
 * prefix (an installed copy, wherever it was installed), and the
 * REBENCH_DATADIR the build was configured with.  Only folders that exist
 * count.  Returns how many.
 */
static size_t suite_dirs(char dirs[SUITE_DIRS][PATH_MAX])
{
	const char *env = getenv("REBENCH_WORKLOADS");
	char exe[PATH_MAX], cand[SUITE_DIRS][PATH_MAX];
	size_t n = 0, i, c = 0;
	ssize_t len;

	if (env && *env) {
		if (!is_dir(env))
			return 0;
		snprintf(dirs[0], PATH_MAX, "%s", env);
		return 1;
	}
	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len > 0) {
		exe[len] = '\0';
		dirname(exe);
		snprintf(cand[c++], PATH_MAX, "%.4000s/workloads", exe);
		snprintf(cand[c++], PATH_MAX, "%.4000s/../share/rebench/workloads",
			 exe);
	}
	snprintf(cand[c++], PATH_MAX, "%s/workloads", REBENCH_DATADIR);
	for (i = 0; i < c; i++) {
		char real[PATH_MAX];

		/* "/usr/share/...", not "/usr/bin/../share/..." */
		if (is_dir(cand[i]) && !seen_dir(dirs, n, cand[i]) &&
		    realpath(cand[i], real))
			memcpy(dirs[n++], real, PATH_MAX);
	}
	return n;
}

/* A suite's name: letters, digits, '.', '_', '-' and '+'. */
static bool valid_name(const char *name)
{
	const char *p;

	if (!*name || *name == '.')
		return false;
	for (p = name; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("._-+", *p))
			return false;
	return true;
}

/* "quick" from "quick.suite" (in place). */
static void strip_ext(char *name)
{
	size_t n = strlen(name), e = strlen(SUITE_EXT);

	if (n > e && !strcmp(name + n - e, SUITE_EXT))
		name[n - e] = '\0';
}

/* The description: the first comment line's text, without a leading
 * "NAME.suite - " or "NAME - ". */
static void read_desc(const char *path, const char *name, char *desc,
		      size_t len)
{
	char line[512], *p, pre[80], why[256];
	FILE *f = infile_open(path, &suite_limit, why, sizeof(why));

	desc[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		p = line + strspn(line, " \t");
		if (*p != '#')
			continue;
		p += strspn(p, "# \t");
		p[strcspn(p, "\r\n")] = '\0';
		snprintf(pre, sizeof(pre), "%s%s - ", name, SUITE_EXT);
		if (!strncmp(p, pre, strlen(pre)))
			p += strlen(pre);
		snprintf(pre, sizeof(pre), "%s - ", name);
		if (!strncmp(p, pre, strlen(pre)))
			p += strlen(pre);
		snprintf(desc, len, "%s", p);
		break;
	}
	fclose(f);
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The suites of one folder, sorted; each name once over all folders (the
 * first folder's wins, as the lookup does).  names[] takes strdup'd
 * strings; returns how many were added. */
static size_t dir_suites(const char *dir, char **names, size_t have,
			 size_t max)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = have, i, first = have;

	if (!d)
		return 0;
	while ((e = readdir(d)) && n < max) {
		char name[256];
		bool dup = false;

		snprintf(name, sizeof(name), "%s", e->d_name);
		if (strlen(name) <= strlen(SUITE_EXT) ||
		    strcmp(name + strlen(name) - strlen(SUITE_EXT), SUITE_EXT))
			continue;
		strip_ext(name);
		if (!valid_name(name))
			continue;
		for (i = 0; i < n && !dup; i++)
			dup = !strcmp(names[i], name);
		if (!dup && (names[n] = strdup(name)))
			n++;
	}
	closedir(d);
	qsort(names + first, n - first, sizeof(*names), cmp_names);
	return n - have;
}

int suite_list(FILE *f)
{
	char dirs[SUITE_DIRS][PATH_MAX], path[PATH_MAX + 300], desc[256];
	char *names[256];
	size_t nd = suite_dirs(dirs), d, i, n = 0, start;

	if (!nd) {
		fprintf(stderr, "rebench: --suite list: no workloads folder found (%s); set REBENCH_WORKLOADS to one\n",
			getenv("REBENCH_WORKLOADS") && *getenv("REBENCH_WORKLOADS") ?
			"REBENCH_WORKLOADS is not a folder" :
			"none beside rebench, and " REBENCH_DATADIR "/workloads is missing");
		return -ENOENT;
	}
	for (d = 0; d < nd; d++) {
		start = n;
		n += dir_suites(dirs[d], names, n, 256);
		for (i = start; i < n; i++) {
			snprintf(path, sizeof(path), "%s/%s%s", dirs[d], names[i],
				 SUITE_EXT);
			read_desc(path, names[i], desc, sizeof(desc));
			fprintf(f, "%-12s %s\n%-12s %s\n", names[i],
				desc[0] ? desc : "(no description)", "", path);
		}
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	return 0;
}

/* The file --suite VALUE names: a path when it has a '/', else NAME.suite
 * in the first folder of suite_dirs() that has it.  0, or -ENOENT after a
 * message that says where it looked and what is there. */
static int find_file(const char *value, struct suite *s)
{
	char dirs[SUITE_DIRS][PATH_MAX], name[64], *names[256];
	size_t nd, d, i, n = 0;

	if (strchr(value, '/')) {
		char copy[PATH_MAX];

		snprintf(s->path, sizeof(s->path), "%s", value);
		snprintf(copy, sizeof(copy), "%s", value);
		snprintf(name, sizeof(name), "%s", basename(copy));
		strip_ext(name);
		snprintf(s->name, sizeof(s->name), "%s", name);
		/* messages name the file as it was given, or its base name
		 * when that is too long for a line prefix */
		snprintf(s->label, sizeof(s->label), "%s",
			 strlen(value) < 48 ? value : basename(copy));
		if (!access(s->path, R_OK) && !is_dir(s->path))
			return 0;
		fprintf(stderr, "rebench: --suite %s: cannot read this file: %s\n",
			value, is_dir(s->path) ? "it is a folder" : strerror(errno));
		return -ENOENT;
	}
	snprintf(name, sizeof(name), "%s", value);
	strip_ext(name);
	if (!valid_name(name) || strlen(value) >= sizeof(name)) {
		fprintf(stderr, "rebench: --suite %s: a suite's name has letters, digits, '.', '_', '-' and '+' only; give a file as --suite ./FILE\n",
			value);
		return -ENOENT;
	}
	snprintf(s->name, sizeof(s->name), "%s", name);
	snprintf(s->label, sizeof(s->label), "%s%s", name, SUITE_EXT);
	nd = suite_dirs(dirs);
	for (d = 0; d < nd; d++) {
		snprintf(s->path, sizeof(s->path), "%.4000s/%s%s", dirs[d], name,
			 SUITE_EXT);
		if (!access(s->path, R_OK))
			return 0;
	}
	fprintf(stderr, "rebench: --suite %s: no suite of that name in ", value);
	for (d = 0; d < nd; d++)
		fprintf(stderr, "%s%s", d ? ", " : "", dirs[d]);
	if (!nd)
		fprintf(stderr, "any workloads folder (none beside rebench, no %s/workloads%s)",
			REBENCH_DATADIR, getenv("REBENCH_WORKLOADS") ?
			", REBENCH_WORKLOADS is not a folder" : "");
	for (d = 0; d < nd; d++)
		n += dir_suites(dirs[d], names, n, 256);
	fprintf(stderr, "%s", n ? "; there are: " : "");
	for (i = 0; i < n; i++) {
		fprintf(stderr, "%s%s", i ? ", " : "", names[i]);
		free(names[i]);
	}
	if (!access(value, R_OK))
		fprintf(stderr, "; to run the file %s in this folder, write --suite ./%s",
			value, value);
	fprintf(stderr, "\n");
	return -ENOENT;
}

/* A test's words as one line, for reports. */
static char *join_words(char **words, int n)
{
	size_t len = 1, at = 0;
	char *t;
	int i;

	for (i = 0; i < n; i++)
		len += strlen(words[i]) + 1;
	t = malloc(len);
	if (!t)
		return NULL;
	for (i = 0; i < n; i++)
		at += (size_t)sprintf(t + at, "%s%s", i ? " " : "", words[i]);
	t[at] = '\0';
	return t;
}

/* One test line over base: options only (the TARGET is the command
 * line's), and no --output another line writes. */
static int parse_test(struct suite *s, const struct spec *base, char **words,
		      int n, unsigned lineno)
{
	struct parse_ctx pctx = { lineno, "suite", NULL, NULL, s->label };
	struct suite_test *t = &s->tests[s->n];
	size_t k;

	if (s->n == SUITE_MAX_TESTS) {
		fprintf(stderr, "rebench: %s line %u: too many tests (at most %d in a suite); split the suite in two\n",
			s->label, lineno, SUITE_MAX_TESTS);
		return -E2BIG;
	}
	memset(t, 0, sizeof(*t));
	if (spec_copy(&t->spec, base))
		return -ENOMEM;
	free(t->spec.target);
	t->spec.target = NULL;
	t->spec.line = lineno;
	t->spec.file = s->label;
	t->spec.inherited = base->given;
	t->spec.given = 0;	/* what the line itself says, see spec.h */
	s->n++;			/* freed with the others from here on */
	if (options_parse(n, words, &t->spec, NULL, &pctx))
		return -EINVAL;
	if (t->spec.target) {
		fprintf(stderr, "rebench: %s line %u: '%s' is not an option; a suite line gives options only, and every test runs on the TARGET of the command line (rebench --suite %s TARGET)\n",
			s->label, lineno, t->spec.target, s->name);
		return -EINVAL;
	}
	t->spec.target = strdup(base->target);
	t->text = join_words(words, n);
	if (!t->spec.target || !t->text)
		return -ENOMEM;
	for (k = 0; k + 1 < s->n && t->spec.output; k++)
		if (s->tests[k].spec.output &&
		    !strcmp(s->tests[k].spec.output, t->spec.output)) {
			fprintf(stderr, "rebench: %s line %u: --output %s: line %u writes that file too, and the later test would overwrite it; give each line its own file\n",
				s->label, lineno, t->spec.output,
				s->tests[k].spec.line);
			return -EINVAL;
		}
	return 0;
}

/* Read s->path into tests; 0 or -errno after a message naming the line. */
static int parse_file(struct suite *s, const struct spec *base)
{
	char *line = NULL, *words[MAX_WORDS];
	size_t cap = 0;
	ssize_t len;
	unsigned lineno = 0;
	char why[256];
	int n, ret = 0;
	FILE *f = infile_open(s->path, &suite_limit, why, sizeof(why));

	if (!f) {
		ret = -errno;
		fprintf(stderr, "rebench: --suite: cannot read %s: %s\n", s->path,
			why);
		return ret;
	}
	read_desc(s->path, s->name, s->desc, sizeof(s->desc));
	while (!ret && (len = getline(&line, &cap, f)) >= 0 && !ferror(f)) {
		lineno++;
		if (memchr(line, '\0', (size_t)len)) {
			fprintf(stderr, "rebench: %s line %u: a NUL byte; a suite is a text file, one test per line (is this a binary file?)\n",
				s->label, lineno);
			ret = -EINVAL;
			break;
		}
		n = options_split_line(line, words, MAX_WORDS);
		if (n == -E2BIG)
			fprintf(stderr, "rebench: %s line %u: too many words (at most %d options and values on one line)\n",
				s->label, lineno, MAX_WORDS);
		else if (n < 0)
			fprintf(stderr, "rebench: %s line %u: unterminated quote; close it with the same quote character\n",
				s->label, lineno);
		if (n < 0)
			ret = -EINVAL;
		else if (n > 0)
			ret = parse_test(s, base, words, n, lineno);
	}
	if (!ret && ferror(f)) {
		ret = errno ? -errno : -EIO;
		fprintf(stderr, "rebench: %s: cannot read it%s%.0u: %s\n",
			s->label, lineno ? " after line " : "", lineno,
			infile_strerror(-ret, &suite_limit, why, sizeof(why)));
	}
	free(line);
	fclose(f);
	if (!ret && !s->n) {
		fprintf(stderr, "rebench: %s: no tests in this suite; write one test per line, such as '-o read -w seq -b 1m -q 8'\n",
			s->label);
		ret = -EINVAL;
	}
	return ret;
}

int suite_load(struct suite *s, const char *value, const struct spec *base)
{
	int ret = find_file(value, s);

	return ret ? ret : parse_file(s, base);
}

void suite_free(struct suite *s)
{
	size_t t;

	for (t = 0; t < s->n; t++) {
		spec_free(&s->tests[t].spec);
		free(s->tests[t].text);
	}
	s->n = 0;
}

/* "4K", "1M", "512", "MIX": a size for a test's name. */
static void size_word(const struct spec *sp, char *buf, size_t len)
{
	static const char units[] = "KMGT";
	uint64_t v = sp->bs;
	int u = -1;

	if (size_mix_active(&sp->bsmix)) {
		snprintf(buf, len, "MIX");
		return;
	}
	while (v >= 1024 && v % 1024 == 0 && u < 3) {
		v /= 1024;
		u++;
	}
	if (u < 0)
		snprintf(buf, len, "%llu", (unsigned long long)v);
	else
		snprintf(buf, len, "%llu%c", (unsigned long long)v, units[u]);
}

void suite_name_test(struct suite_test *t, const struct spec *sp)
{
	char size[32], dist[48] = "", ops[64];

	size_word(sp, size, sizeof(size));
	if (!sp->seq && sp->dist != DIST_UNIFORM)
		snprintf(dist, sizeof(dist), " %s",
			 opt_value_name(options_find_long("dist"), sp->dist));
	snprintf(t->name, sizeof(t->name), "%s%s Q%lluT%llu%s",
		 sp->seq ? "SEQ" : "RND", size, (unsigned long long)sp->qd,
		 (unsigned long long)sp->threads, dist);
	snprintf(t->op, sizeof(t->op), "%s",
		 spec_op_text(sp, ops, sizeof(ops)));
}
