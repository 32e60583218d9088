/* fileset_parse.c - many files from the options (see fileset.h): the
 * list of files that several TARGET words or fio's --filename a:b:c make,
 * --directory as the target, and --file-service's text (rr, random,
 * zipf:THETA), which the checks and the resolution both parse.
 */
#include "core/fileset_priv.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/options.h"

/* path appended to s's list (NUL-terminated entries). */
static int list_append(struct spec *s, const char *path)
{
	size_t n = strlen(path) + 1;
	char *p = realloc(s->files, s->files_len + n);

	if (!p)
		return -ENOMEM;
	memcpy(p + s->files_len, path, n);
	s->files = p;
	s->files_len += n;
	return 0;
}

int fileset_add_target(struct spec *s, const char *path)
{
	if (!s->files && s->target && list_append(s, s->target))
		return -ENOMEM;
	if (!s->target) {
		s->target = strdup(path);
		if (!s->target)
			return -ENOMEM;
	}
	return list_append(s, path);
}

int fileset_filename(struct spec *s, const char *val,
		     const struct parse_ctx *ctx)
{
	size_t len = strlen(val), i, k = 0, n = 0;
	char *name = malloc(len + 1), w[64];
	int ret = 0;

	if (!name)
		return -ENOMEM;
	options_where(ctx, w, sizeof(w));
	if (s->target) {
		fprintf(stderr, "rebench: %s--filename=%s: one target per workload, and '%s' is given already: give the files in one --filename (a:b:c) or as TARGET words, not both\n",
			w, val, s->target);
		free(name);
		return -EINVAL;
	}
	for (i = 0; i <= len && !ret; i++) {
		if (val[i] == '\\' && val[i + 1] == ':') {
			name[k++] = ':';	/* fio's escape of a colon */
			i++;
			continue;
		}
		if (val[i] && val[i] != ':') {
			name[k++] = val[i];
			continue;
		}
		name[k] = '\0';
		if (!k) {
			fprintf(stderr, "rebench: %s--filename=%s: file %zu of the list is empty; fio's ':' separates the files (a:b:c), and \"\\:\" is a colon in a name\n",
				w, val, n + 1);
			ret = -EINVAL;
			break;
		}
		n++;
		ret = fileset_add_target(s, name);
		k = 0;
	}
	free(name);
	if (!ret && n == 1) {	/* one file, a colon in its name maybe */
		free(s->files);
		s->files = NULL;
		s->files_len = 0;
	}
	return ret;
}

int fileset_parse_end(struct spec *s, const struct parse_ctx *ctx)
{
	char w[64];

	if (!s->directory)
		return 0;
	if ((s->target && !s->target_is_dir) || s->files) {
		options_where(ctx, w, sizeof(w));
		fprintf(stderr, "rebench: %sa TARGET (%s) and --directory %s together: --directory names its files itself (%s/rebench.W.I, --nrfiles of them); give the files as TARGETs, or --directory, not both\n",
			w, s->target, s->directory, s->directory);
		return -EINVAL;
	}
	free(s->target);
	s->target = strdup(s->directory);
	s->target_is_dir = true;
	return s->target ? 0 : -ENOMEM;
}

bool fileset_wanted(const struct spec *s)
{
	return s->directory || s->files;
}

/* --file-service's text into *service and *theta; 0, or -EINVAL with why
 * in err. */
int fileset_parse_service(const char *text, int *service, double *theta,
			  char *err, size_t len)
{
	const char *colon;
	char *end;

	*theta = 0;
	if (!text || !strcasecmp(text, "rr") || !strcasecmp(text, "roundrobin")) {
		*service = FSERV_RR;
		return 0;
	}
	if (!strcasecmp(text, "random")) {
		*service = FSERV_RANDOM;
		return 0;
	}
	colon = strchr(text, ':');
	if (!strncasecmp(text, "zipf", colon ? (size_t)(colon - text) : strlen(text)) &&
	    (colon ? colon - text : (ptrdiff_t)strlen(text)) == 4) {
		*service = FSERV_ZIPF;
		*theta = 1.2;	/* gen/dist.h's default */
		if (!colon)
			return 0;
		*theta = strtod(colon + 1, &end);
		if (end != colon + 1 && !*end && *theta > 0 && *theta <= 100)
			return 0;
		snprintf(err, len, "THETA must be a number in (0, 100]: zipf:1.2 (file 0 gets the most I/Os, file k a share 1/(k+1)^THETA of it)");
		return -EINVAL;
	}
	if ((colon && (!strncasecmp(text, "random:", 7) ||
		       !strncasecmp(text, "roundrobin:", 11) ||
		       !strncasecmp(text, "rr:", 3)))) {
		snprintf(err, len, "fio's :N (switch file after N I/Os) is not supported: every I/O picks its file; give rr, random or zipf:THETA");
		return -EINVAL;
	}
	if (!strncasecmp(text, "sequential", 10) || !strncasecmp(text, "pareto", 6) ||
	    !strncasecmp(text, "normal", 6) || !strncasecmp(text, "gauss", 5)) {
		snprintf(err, len, "fio's %.*s is not supported yet; give rr (roundrobin), random or zipf:THETA",
			 (int)(colon ? colon - text : (ptrdiff_t)strlen(text)), text);
		return -EINVAL;
	}
	snprintf(err, len, "expected rr (fio's roundrobin: each file in turn), random (uniformly) or zipf:THETA (file 0 the most)");
	return -EINVAL;
}
