/* emulate_plan.c - see emulate_plan.h. */
#include "trace/emulate_plan.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define REPLAY_HOW "rebench --replay LOG --replay-mode grouped --json TARGET > FILE"

/* ------------------------------------------------------------ reading */

__attribute__((format(printf, 5, 6)))
static int bad_at(const char *file, const struct json_value *v, char *err,
		  size_t len, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(err, len, "%s: line %u, column %u: ", file, v->line,
			 v->column);

	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < len)
		vsnprintf(err + n, len - (size_t)n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* Member key of obj (named path in messages) of type t, or NULL after a
 * message. */
static const struct json_value *field(const char *file,
				      const struct json_value *obj,
				      const char *path, const char *key,
				      enum json_type t, char *err, size_t len)
{
	const struct json_value *v = json_get(obj, key);

	if (!v)
		bad_at(file, obj, err, len, "%s has no \"%s\": not the JSON of a rebench --replay (make it with " REPLAY_HOW ")",
		       path, key);
	else if (v->type != t)
		bad_at(file, v, err, len, "%s.%s is %s; %s was expected: not the JSON of a rebench --replay (make it with " REPLAY_HOW ")",
		       path, key, json_type_name(v->type), json_type_name(t));
	else
		return v;
	return NULL;
}

static bool is_digest(const struct json_value *v)
{
	size_t i;

	if (v->len != 16)
		return false;
	for (i = 0; i < 16; i++)
		if (!((v->str[i] >= '0' && v->str[i] <= '9') ||
		      (v->str[i] >= 'a' && v->str[i] <= 'f')))
			return false;
	return true;
}

/* The mode must be grouped, and the times the device's own. */
static int check_mode(const char *file, const struct json_value *rp,
		      char *err, size_t len)
{
	const struct json_value *mode, *delay;

	mode = field(file, rp, "replay", "mode", JSON_STRING, err, len);
	if (!mode)
		return -EINVAL;
	if (!strcmp(mode->str, "asap") || !strcmp(mode->str, "timed")) {
		snprintf(err, len, "%s was replayed %s; --emulate needs --replay-mode grouped, whose per-operation times are db4o's (each type of operation timed alone): replay the log again with --replay-mode grouped",
			 file, mode->str);
		return -EINVAL;
	}
	if (strcmp(mode->str, "grouped"))
		return bad_at(file, mode, err, len, "replay.mode \"%.40s\" is not a mode of rebench --replay (asap, grouped, timed)",
			      mode->str);
	delay = json_get(rp, "delay");
	if (delay && delay->type != JSON_NULL &&
	    !(delay->type == JSON_STRING && !delay->len)) {
		snprintf(err, len, "%s was replayed with --delay %.100s: its times are the device's plus those delays, not the device's own; replay the log again without --delay",
			 file, delay->type == JSON_STRING ? delay->str : "");
		return -EINVAL;
	}
	return 0;
}

/* replay.per_op[i] into r. */
static int read_op(const char *file, const struct json_value *item,
		   size_t i, struct emulate_result *r, int first[IO_KINDS],
		   char *err, size_t len)
{
	const struct json_value *op, *n, *t;
	char path[64];
	int k;

	snprintf(path, sizeof(path), "replay.per_op[%zu]", i);
	if (item->type != JSON_OBJECT)
		return bad_at(file, item, err, len, "%s is %s; an object was expected: not the JSON of a rebench --replay (make it with " REPLAY_HOW ")",
			      path, json_type_name(item->type));
	op = field(file, item, path, "op", JSON_STRING, err, len);
	n = op ? field(file, item, path, "operations", JSON_NUMBER, err, len) :
	     NULL;
	t = n ? field(file, item, path, "ns_per_op", JSON_NUMBER, err, len) :
	    NULL;
	if (!t)
		return -EINVAL;
	for (k = 0; k < IO_KINDS; k++)
		if (!strcmp(op->str, io_kind_name(k)))
			break;
	if (k == IO_KINDS)
		return bad_at(file, op, err, len, "%s.op \"%.40s\" is not an operation of rebench (read, write, trim, fsync, fdatasync)",
			      path, op->str);
	if (r->has[k])
		return bad_at(file, op, err, len, "%s.op: %s is listed twice (first in replay.per_op[%d]): a replay lists each operation once",
			      path, op->str, first[k]);
	if (!n->has_u64 || !n->u64)
		return bad_at(file, n, err, len, "%s.operations is not a whole number of at least 1: an operation listed is one the replay ran",
			      path);
	if (t->number < 0)
		return bad_at(file, t, err, len, "%s.ns_per_op is negative: not a time",
			      path);
	r->has[k] = true;
	r->ops[k] = n->u64;
	r->ns_per_op[k] = t->number;
	first[k] = (int)i;
	return 0;
}

int emulate_read_result(const struct json_value *root, const char *file,
			struct emulate_result *r, char *err, size_t len)
{
	const struct json_value *rp, *log, *digest, *target, *per_op;
	int first[IO_KINDS];
	size_t i;
	int ret;

	memset(r, 0, sizeof(*r));
	r->file = file;
	rp = json_get(root, "replay");
	if (!rp) {
		snprintf(err, len, "%s is not the JSON result of a rebench --replay: it has %s; make one with " REPLAY_HOW,
			 file, root->type == JSON_OBJECT ?
			 "no \"replay\" object (the JSON of a run, a sweep or a suite?)" :
			 root->type == JSON_ARRAY ? "an array at the top, not an object" :
			 "a single value at the top, not an object");
		return -EINVAL;
	}
	if (rp->type != JSON_OBJECT)
		return bad_at(file, rp, err, len, "\"replay\" is %s; an object was expected: not the JSON of a rebench --replay (make it with " REPLAY_HOW ")",
			      json_type_name(rp->type));
	ret = check_mode(file, rp, err, len);
	if (ret)
		return ret;
	log = field(file, rp, "replay", "log", JSON_STRING, err, len);
	digest = log ? field(file, rp, "replay", "digest", JSON_STRING, err,
			     len) : NULL;
	per_op = digest ? field(file, rp, "replay", "per_op", JSON_ARRAY, err,
				len) : NULL;
	if (!per_op)
		return -EINVAL;
	if (!is_digest(digest))
		return bad_at(file, digest, err, len, "replay.digest \"%.40s\" is not 16 lower-case hexadecimal digits (rebench's FNV-1a 64 of the log)",
			      digest->str);
	if (!per_op->n)
		return bad_at(file, per_op, err, len, "replay.per_op is empty: the replay ran no operation, so it has no time to emulate");
	for (i = 0; i < per_op->n; i++) {
		ret = read_op(file, &per_op->items[i], i, r, first, err, len);
		if (ret)
			return ret;
	}
	target = json_get(rp, "target");
	r->log = log->str;
	r->digest = digest->str;
	r->target = target && target->type == JSON_STRING ? target->str : NULL;
	return 0;
}

/* ------------------------------------------------------------ the plan */

/* Both describe the same operations: one log, the same kinds, as many of
 * each. */
static int check_same(const struct emulate_result *s,
		      const struct emulate_result *f, char *err, size_t len)
{
	int k;

	if (strcmp(s->digest, f->digest)) {
		snprintf(err, len, "%s and %s are replays of different logs (%s: %s, digest %s; %s: %s, digest %s): --emulate compares the same operations on two devices; replay one log on both",
			 s->file, f->file, s->file, s->log, s->digest, f->file,
			 f->log, f->digest);
		return -EINVAL;
	}
	for (k = 0; k < IO_KINDS; k++) {
		const struct emulate_result *in = s->has[k] ? s : f;
		const struct emulate_result *out = s->has[k] ? f : s;

		if (s->has[k] != f->has[k]) {
			snprintf(err, len, "%s and %s do not describe the same operations although their logs' digests agree (%s): %s is in %s (%llu operations) but not in %s; they must be replays of the same log",
				 s->file, f->file, s->digest, io_kind_name(k),
				 in->file, (unsigned long long)in->ops[k],
				 out->file);
			return -EINVAL;
		}
		if (s->has[k] && s->ops[k] != f->ops[k]) {
			snprintf(err, len, "%s and %s do not describe the same operations although their logs' digests agree (%s): %s has %llu operations in %s and %llu in %s; they must be replays of the same log",
				 s->file, f->file, s->digest, io_kind_name(k),
				 (unsigned long long)s->ops[k], s->file,
				 (unsigned long long)f->ops[k], f->file);
			return -EINVAL;
		}
	}
	return 0;
}

/* "read (12000.5 ns per operation in SLOW, 15000 in FAST), fsync (...)":
 * the kinds of p with note n. */
static void list_kinds(const struct emulate_plan *p, enum emulate_note n,
		       const struct emulate_result *s,
		       const struct emulate_result *f, char *buf, size_t len)
{
	size_t used = 0;
	int k;

	buf[0] = '\0';
	for (k = 0; k < IO_KINDS; k++) {
		if (!p->op[k].present || p->op[k].note != n || used >= len)
			continue;
		used += (size_t)snprintf(buf + used, len - used,
					 "%s%s (%.10g ns per operation in %s, %.10g in %s)",
					 used ? ", " : "", io_kind_name(k),
					 p->op[k].slow_ns, s->file,
					 p->op[k].fast_ns, f->file);
	}
}

int emulate_plan(const struct emulate_result *slow,
		 const struct emulate_result *fast, bool allow_partial,
		 const struct delay_calib *c, struct emulate_plan *p,
		 char *err, size_t len)
{
	unsigned slower = 0, not_slower = 0;
	char list[1024];
	int k;

	memset(p, 0, sizeof(*p));
	p->spin_min_ns = c->spin_min_ns;
	if (check_same(slow, fast, err, len))
		return -EINVAL;
	for (k = 0; k < IO_KINDS; k++) {
		struct emulate_op *o = &p->op[k];

		if (!slow->has[k])
			continue;
		o->present = true;
		o->slow_ns = slow->ns_per_op[k];
		o->fast_ns = fast->ns_per_op[k];
		o->required_ns = round(o->slow_ns - o->fast_ns);
		if (k == IO_TRIM) {
			o->note = EMU_NOT_INTERPOSED;
		} else if (o->slow_ns <= o->fast_ns) {
			o->note = EMU_NOT_SLOWER;
			not_slower++;
		} else if (o->required_ns > (double)DELAY_MAX_NS) {
			snprintf(err, len, "%s: the delay %s needs, %.0f ns (%.10g - %.10g), is more than the largest a wait makes, an hour: are %s and %s results of the same log?",
				 io_kind_name(k), slow->file, o->required_ns,
				 o->slow_ns, o->fast_ns, slow->file,
				 fast->file);
			return -EINVAL;
		} else if (o->required_ns <= (double)c->spin_min_ns) {
			o->note = EMU_CANNOT_BE_MET;
			slower++;
		} else {
			o->note = EMU_DELAYED;
			o->adjusted_ns = (uint64_t)o->required_ns -
					 c->spin_min_ns;
			p->delays.ns[k] = o->adjusted_ns;
			slower++;
		}
	}
	if (!slower) {
		list_kinds(p, EMU_NOT_SLOWER, slow, fast, list, sizeof(list));
		if (not_slower)
			snprintf(err, len, "no operation is slower in %s than in %s: %s; there is nothing to emulate: is %s the slow device's result (--emulate) and %s this machine's (--baseline)?",
				 slow->file, fast->file, list, slow->file,
				 fast->file);
		else
			snprintf(err, len, "%s and %s hold only trims, and the interposer delays no trim: there is nothing to emulate",
				 slow->file, fast->file);
		return -EINVAL;
	}
	if (not_slower && !allow_partial) {
		list_kinds(p, EMU_NOT_SLOWER, slow, fast, list, sizeof(list));
		snprintf(err, len, "not slower in %s than in %s: %s; a delay cannot make this machine faster: add --allow-partial to emulate the other operations and leave %s out",
			 slow->file, fast->file, list,
			 not_slower > 1 ? "these" : "this one");
		return -EINVAL;
	}
	return 0;
}

void emulate_note_text(const struct emulate_plan *p, int k, char *buf,
		       size_t len)
{
	switch (p->op[k].note) {
	case EMU_DELAYED:
		snprintf(buf, len, "delayed");
		break;
	case EMU_NOT_SLOWER:
		snprintf(buf, len, "left out (--allow-partial): not slower than the baseline, and a delay cannot speed it up");
		break;
	case EMU_CANNOT_BE_MET:
		snprintf(buf, len, "cannot be met: not above the zero wait (%llu ns), the least a wait adds; not delayed",
			 (unsigned long long)p->spin_min_ns);
		break;
	case EMU_NOT_INTERPOSED:
		snprintf(buf, len, "not delayed: no call the interposer delays is a trim");
		break;
	}
}
