/* confirm.c - in-use refusal and the y/N question. */
#include "core/confirm.h"

#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "core/fileset.h"
#include "target/inuse.h"
#include "core/plan.h"
#include "core/signals.h"
#include "core/units.h"
#include "core/validate.h"

static const char *verb(const struct workload *wl)
{
	bool w = SPEC_DOES(&wl->spec, IO_WRITE), t = SPEC_DOES(&wl->spec, IO_TRIM);

	if (w && t)
		return "WRITE to and DISCARD (trim) blocks of";
	if (w)
		return SPEC_DOES(&wl->spec, IO_READ) ? "WRITE to (read/write mix)" :
						       "WRITE to";
	if (t)
		return "DISCARD (trim) blocks of";
	return "FILL THE HOLES of (lay out data before reading)";
}

/* "write to", "trim", "fill the holes of": what a refusal says. */
static const char *refusal_verb(const struct workload *wl)
{
	if (SPEC_DOES(&wl->spec, IO_WRITE))
		return "write to";
	if (SPEC_DOES(&wl->spec, IO_TRIM))
		return "trim";
	return "fill the holes of";
}

static void describe(FILE *f, const struct workload *wl)
{
	char a[32], b[32], c[32];

	if (wl->files) {	/* many files: one line for the set */
		fileset_describe(f, wl, verb(wl));
		return;
	}
	/* sizes a person reads at a glance, with their units: 0 B, 512 MiB */
	fprintf(f, "  %s %s (%s, %s): %s from %s to %s\n",
		verb(wl), wl->tgt.path, target_kind_name(wl->tgt.kind),
		fmt_size_exact(a, sizeof(a), wl->tgt.size),
		!spec_is_destructive(&wl->spec) ?
			"holes (which read as zeros) get non-zero data" :
			"the data will be lost",
		fmt_size_exact(b, sizeof(b), wl->spec.region_start),
		fmt_size_exact(c, sizeof(c), wl->spec.region_start + wl->spec.region_len));
}

/* What the refusals call the target: its path, or its files. */
static const char *name_of(const struct workload *wl, char *buf, size_t len)
{
	if (!wl->files)
		return wl->tgt.path;
	fileset_label(wl, buf, len);
	return buf;
}

int confirm_forbidden(const struct workload *wl, char *why, size_t len)
{
	if (wl->files)
		return 0;	/* each file: fileset_refuse() */
	if (target_in_use(&wl->tgt, why, len))
		return -EBUSY;
	if (wl->tgt.exists &&
	    inuse_read_only(wl->tgt.path, wl->tgt.kind != TARGET_FILE, why, len))
		return -EROFS;
	return 0;
}

/* The workloads of confirm_ask() that destroy data, each in a line. */
struct ask_wls {
	struct workload *wls;
	size_t n;
};

static void say_workloads(FILE *tty, const void *arg)
{
	const struct ask_wls *a = arg;
	size_t k;

	for (k = 0; k < a->n; k++)
		if (workload_destroys_data(&a->wls[k]))
			describe(tty, &a->wls[k]);
}

static void say_text(FILE *tty, const void *arg)
{
	fputs(arg, tty);
}

/* The question on /dev/tty after what say() writes; as confirm_ask(). */
static int ask(void (*say)(FILE *, const void *), const void *arg,
	       const char *question, const char *declined)
{
	char answer[16];
	ssize_t got;
	FILE *tty;
	int fd;

	fd = open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -EPERM;
	tty = fdopen(fd, "r+");
	if (!tty) {
		close(fd);
		return -EPERM;
	}
	fprintf(tty, "rebench: this run will change data you already have:\n");
	say(tty, arg);
	fprintf(tty, "%s", question);
	fflush(tty);
	got = fgets(answer, sizeof(answer), tty) ? (ssize_t)strlen(answer) : -1;
	fclose(tty);
	if (signals_stop_requested()) {
		fprintf(stderr, "\nrebench: interrupted at the question; nothing was written.\n");
		return -EINTR;
	}
	if (got > 0)
		answer[strcspn(answer, "\r\n")] = '\0';
	if (got <= 0 || (strcasecmp(answer, "y") && strcasecmp(answer, "yes"))) {
		if (declined)
			fprintf(stderr, "rebench: %s\n", declined);
		return -ECANCELED;
	}
	return 0;
}

int confirm_ask(struct workload *wls, size_t n, const char *question,
		const char *declined)
{
	struct ask_wls a = { wls, n };

	return ask(say_workloads, &a, question, declined);
}

int confirm_ask_text(const char *what, const char *question,
		     const char *declined)
{
	return ask(say_text, what, question, declined);
}

/* What may never be written is refused even with --yes: -EBUSY or -EROFS
 * after the message, or 0. */
static int refuse_forbidden(struct workload *wls, size_t n)
{
	char why[512];
	size_t k;
	int ret;

	for (k = 0; k < n; k++) {
		struct workload *wl = &wls[k];

		if (!spec_is_destructive(&wl->spec) && !wl->run.layout_confirm &&
		    !(wl->files && wl->run.needs_layout))
			continue;
		if (wl->files) {	/* many files: each refused by name */
			ret = fileset_refuse(wl, refusal_verb(wl));
			if (ret)
				return ret;
			continue;
		}
		ret = confirm_forbidden(wl, why, sizeof(why));
		if (ret == -EBUSY) {
			spec_error(&wl->spec, "refusing to %s %s: %s. rebench never writes to anything in use; unmount it (or release it) first, or choose another target.",
				   refusal_verb(wl), wl->tgt.path, why);
			return ret;
		}
		if (ret) {
			spec_error(&wl->spec, "refusing to %s %s: %s; choose a writable target, or run a read workload",
				   refusal_verb(wl), wl->tgt.path, why);
			return ret;
		}
	}
	return 0;
}

/* No terminal to ask on and no --yes: why, for each workload that would
 * need the answer; -EPERM. */
static int refuse_unconfirmed(struct workload *wls, size_t n)
{
	char name[PATH_MAX + 64];
	size_t k;

	for (k = 0; k < n; k++)
		if (workload_destroys_data(&wls[k]) && !spec_is_destructive(&wls[k].spec))
			spec_error(&wls[k].spec, "refusing to fill the holes of %s without confirmation: %s sparse, reading holes measures nothing, and filling them changes the file; there is no terminal to ask on. Add --yes (or -n) to confirm, or give %s without holes.",
				   name_of(&wls[k], name, sizeof(name)),
				   wls[k].files ? "some are" : "it is",
				   wls[k].files ? "files" : "a file");
		else if (workload_destroys_data(&wls[k]))
			spec_error(&wls[k].spec, "refusing to %s %s without confirmation: there is no terminal to ask on. Add --yes (or -n) to confirm that %s data may be destroyed.",
				   refusal_verb(&wls[k]),
				   name_of(&wls[k], name, sizeof(name)),
				   wls[k].files ? "their" : "its");
	return -EPERM;
}

static bool needs_answer(const struct workload *wls, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++)
		if (workload_destroys_data(&wls[k]))
			return true;
	return false;
}

int confirm_check(struct workload *wls, size_t n, bool assume_yes)
{
	int ret = refuse_forbidden(wls, n), fd;

	if (ret || assume_yes || !needs_answer(wls, n))
		return ret;
	/* the question could be asked: a terminal is there */
	fd = open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return refuse_unconfirmed(wls, n);
	close(fd);
	return 0;
}

int confirm_destructive(struct workload *wls, size_t n, bool assume_yes)
{
	int ret = refuse_forbidden(wls, n);

	if (ret || assume_yes || !needs_answer(wls, n))
		return ret;
	ret = confirm_ask(wls, n, "Continue? [y/N] ",
			  "not confirmed; nothing was written.");
	return ret == -EPERM ? refuse_unconfirmed(wls, n) : ret;
}

int confirm_exit_status(int ret)
{
	switch (ret) {
	case -EBUSY:
	case -EROFS:
		return EXIT_PREP_FAILED;
	case -EINTR:
		return EXIT_INTERRUPTED;
	default:
		return EXIT_BAD_ARGS;
	}
}
