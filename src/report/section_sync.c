/* section_sync.c - the write sync policy as -n gives it, fields 118-119
 * (TERSE_FIELD_SYNC): the policy as --sync names it ("-" for a workload
 * that does not write) and whose defaults the workload took, "rebench"
 * or "fio" (options_fio.h); "-" "-" on the total's line.  The human and
 * JSON outputs say it among the parameters, which are the writers'. */
#include <stdio.h>

#include "core/syncpol.h"
#include "report/section.h"
#include "report/summary.h"

static void sync_terse(FILE *f, const struct section_ctx *c)
{
	const struct spec *s;
	struct sync_policy sp;
	char pol[32];

	if (!c->wl) {
		fprintf(f, " - -");
		return;
	}
	s = &c->wl->spec;
	sp = spec_sync(s);
	fprintf(f, " %s %s", SPEC_DOES(s, IO_WRITE) ?
		sync_policy_format(&sp, pol, sizeof(pol)) : "-",
		s->fio_spelled ? "fio" : "rebench");
}

const struct section section_sync = {
	.name = "sync policy",
	.terse = { [TERSE_PASSES] = sync_terse },
};
