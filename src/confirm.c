/* confirm.c - in-use refusal and the y/N question. */
#include "confirm.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "units.h"
#include "validate.h"

static const char *verb(const struct workload *wl)
{
	switch (wl->spec.op) {
	case OP_WRITE: return "WRITE to";
	case OP_TRIM: return "DISCARD (trim) blocks of";
	case OP_RW: return "WRITE to (rw mix)";
	default: return "FILL THE HOLES of (lay out data before reading)";
	}
}

static void describe(FILE *f, const struct workload *wl)
{
	char a[32], b[32], c[32];

	fprintf(f, "  %s %s (%s, %s): %s from byte %s to %s\n",
		verb(wl), wl->tgt.path, target_kind_name(wl->tgt.kind),
		fmt_size_human(a, sizeof(a), wl->tgt.size),
		wl->spec.op == OP_READ ?
			"holes (which read as zeros) get non-zero data" :
			"the data will be lost",
		fmt_size_short(b, sizeof(b), wl->spec.region_start),
		fmt_size_short(c, sizeof(c), wl->spec.region_start + wl->spec.region_len));
}

int confirm_destructive(struct workload *wls, size_t n, bool assume_yes)
{
	char why[512], answer[16];
	size_t k, need = 0;
	ssize_t got;
	FILE *tty;
	int fd;

	for (k = 0; k < n; k++) {
		struct workload *wl = &wls[k];

		if (!spec_is_destructive(&wl->spec) || wl->tgt.kind == TARGET_FILE)
			continue;
		if (target_in_use(&wl->tgt, why, sizeof(why))) {
			spec_error(&wl->spec, "refusing to %s %s: %s. rebench never writes to a device in use; unmount it (or release it) first, or choose another device.",
				   wl->spec.op == OP_TRIM ? "trim" : "write to",
				   wl->tgt.path, why);
			return -EBUSY;
		}
	}
	for (k = 0; k < n; k++)
		need += workload_destroys_data(&wls[k]);
	if (!need || assume_yes)
		return 0;
	fd = open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		for (k = 0; k < n; k++)
			if (workload_destroys_data(&wls[k]) && wls[k].spec.op == OP_READ)
				spec_error(&wls[k].spec, "refusing to fill the holes of %s without confirmation: it is sparse, reading holes measures nothing, and filling them changes the file; there is no terminal to ask on. Add --yes (or -n) to confirm, or give a file without holes.",
					   wls[k].tgt.path);
			else if (workload_destroys_data(&wls[k]))
				spec_error(&wls[k].spec, "refusing to write to %s without confirmation: there is no terminal to ask on. Add --yes (or -n) to confirm that its data may be destroyed.",
					   wls[k].tgt.path);
		return -EPERM;
	}
	tty = fdopen(fd, "r+");
	if (!tty) {
		close(fd);
		return -EPERM;
	}
	fprintf(tty, "rebench: this run will change data you already have:\n");
	for (k = 0; k < n; k++)
		if (workload_destroys_data(&wls[k]))
			describe(tty, &wls[k]);
	fprintf(tty, "Continue? [y/N] ");
	fflush(tty);
	got = fgets(answer, sizeof(answer), tty) ? (ssize_t)strlen(answer) : -1;
	fclose(tty);
	if (got > 0)
		answer[strcspn(answer, "\r\n")] = '\0';
	if (got <= 0 || (strcasecmp(answer, "y") && strcasecmp(answer, "yes"))) {
		fprintf(stderr, "rebench: not confirmed; nothing was written.\n");
		return -ECANCELED;
	}
	return 0;
}
