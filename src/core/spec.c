/* spec.c - a workload's defaults, copies, and what it does (its kinds, its
 * sync policy); its checks are validate.c's.
 */
#include "core/spec.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines/engine.h"

void spec_defaults(struct spec *s)
{
	memset(s, 0, sizeof(*s));
	s->op = OP_READ;
	s->rwmix = 50;
	s->seq = 0;
	s->direction = DIR_FORWARD;
	s->bs = 512;
	s->dist = DIST_UNIFORM;
	s->sigma = 5;
	s->center = -1;
	s->engine = engine_lookup("stateful");
	s->qd = 1;
	s->batch = 1;
	s->threads = 1;
	s->duration.kind = AMOUNT_TIME;
	s->duration.value = 10 * NSEC_PER_SEC;
	s->offset.kind = AMOUNT_BYTES;
	s->length.kind = AMOUNT_NONE;
	s->sample_ns = 1000 * NSEC_PER_MSEC;
	s->readahead_kb = READAHEAD_KEEP;
	s->nrfiles = 1;
}

static int dup_str(char **dst, const char *src)
{
	*dst = src ? strdup(src) : NULL;
	return src && !*dst ? -ENOMEM : 0;
}

int spec_copy(struct spec *dst, const struct spec *src)
{
	*dst = *src;
	dst->target = dst->dist_arg = dst->output = dst->verify_state = NULL;
	dst->directory = dst->file_service = dst->files = NULL;
	dst->verify_log = NULL;
	if (dup_str(&dst->target, src->target) ||
	    dup_str(&dst->dist_arg, src->dist_arg) ||
	    dup_str(&dst->output, src->output) ||
	    dup_str(&dst->verify_state, src->verify_state) ||
	    dup_str(&dst->verify_log, src->verify_log) ||
	    dup_str(&dst->directory, src->directory) ||
	    dup_str(&dst->file_service, src->file_service))
		goto out_nomem;
	if (src->files) {
		dst->files = malloc(src->files_len);
		if (!dst->files)
			goto out_nomem;
		memcpy(dst->files, src->files, src->files_len);
	}
	return 0;
out_nomem:
	spec_free(dst);
	return -ENOMEM;
}

int spec_set_target(struct spec *s, const char *target)
{
	char *t = strdup(target);

	if (!t)
		return -ENOMEM;
	free(s->target);
	s->target = t;
	return 0;
}

void spec_free(struct spec *s)
{
	free(s->target);
	free(s->dist_arg);
	free(s->output);
	free(s->verify_state);
	free(s->directory);
	free(s->file_service);
	free(s->files);
	free(s->verify_log);
	s->target = s->dist_arg = s->output = s->verify_state = NULL;
	s->directory = s->file_service = s->files = NULL;
	s->verify_log = NULL;
	s->files_len = 0;
}

struct sync_policy spec_sync(const struct spec *s)
{
	struct sync_policy none = { SYNC_NONE, 0 };

	return s->buffered ? none : s->sync;
}

unsigned spec_kinds(const struct spec *s)
{
	struct sync_policy sp = spec_sync(s);
	struct op_mix m;
	unsigned k;
	int flush = sync_policy_flush_kind(&sp);

	if (s->op == OP_MIX) {
		k = mix_kinds(&s->opmix);
	} else {
		mix_ops_of(s->op, s->rwmix, &m);
		k = mix_kinds(&m);
	}
	if (flush >= 0 && (k & 1U << IO_WRITE))
		k |= 1U << flush;
	return k;
}

bool spec_is_destructive(const struct spec *s)
{
	/* --verify-only reads (verify_spec_adapt() made it -o read) */
	return spec_kinds(s) & (1U << IO_WRITE | 1U << IO_TRIM);
}

void spec_error(const struct spec *s, const char *fmt, ...)
{
	va_list ap;

	fputs("rebench: ", stderr);
	if (s->line)
		fprintf(stderr, "%s line %u: ", s->file ? s->file : "stdin",
			s->line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void run_opts_free(struct run_opts *r)
{
	free(r->plot);
	free(r->suite);
	free(r->order);
	free(r->latency_target);
	free(r->from);
	free(r->start_at);
	free(r->hosts);
	free(r->hosts_file);
	free(r->ssh);
	free(r->remote_rebench);
}
