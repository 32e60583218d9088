/* section.c - the result sections (section.h), in the order of their
 * figures where they share a seam, and the walks the writers make over
 * them. */
#include "report/section.h"

extern const struct section section_p9999;
extern const struct section section_rate;
extern const struct section section_ops;
extern const struct section section_passes;
extern const struct section section_durability;
extern const struct section section_device;
extern const struct section section_precision;
extern const struct section section_steady;
extern const struct section section_cpu;
extern const struct section section_fit;
extern const struct section section_sizes;
extern const struct section section_sync;
extern const struct section section_flush;
extern const struct section section_repeat;
extern const struct section section_verify;
extern const struct section section_files;
extern const struct section section_warnings;

const struct section *const report_sections[] = {
	&section_p9999,		/* no -n field */
	&section_rate,		/* the -n rate lines */
	&section_ops,		/* -n 22-81 and 83-94 */
	&section_passes,	/* -n 82 */
	&section_durability,	/* -n 95 */
	&section_device,	/* -n 96-97, and the device lines */
	&section_precision,	/* -n 98-104 */
	&section_steady,	/* -n 105-112 */
	&section_cpu,		/* -n 113-117 */
	&section_fit,		/* -n 19-21 */
	&section_sizes,		/* no -n field */
	&section_sync,		/* -n 118-119 */
	&section_flush,		/* -n 120-129 */
	&section_repeat,	/* -n 130 on, after the fixed fields */
	&section_verify,	/* the -n verify lines */
	&section_files,		/* the -n files lines */
	&section_warnings,	/* no -n field */
};
const size_t report_nsections =
	sizeof(report_sections) / sizeof(report_sections[0]);

void sections_human(FILE *f, enum human_seam at, const struct section_ctx *c)
{
	size_t i;

	for (i = 0; i < report_nsections; i++)
		if (report_sections[i]->human[at])
			report_sections[i]->human[at](f, c);
}

void sections_json(struct json *j, enum json_seam at,
		   const struct section_ctx *c)
{
	size_t i;

	for (i = 0; i < report_nsections; i++)
		if (report_sections[i]->json[at])
			report_sections[i]->json[at](j, c);
}

/* No field of the line's own is after field 18: the seams in a row. */
void sections_terse(FILE *f, const struct section_ctx *c)
{
	size_t i;
	int at;

	for (at = 0; at < TERSE_SEAMS; at++)
		for (i = 0; i < report_nsections; i++)
			if (report_sections[i]->terse[at])
				report_sections[i]->terse[at](f, c);
}

/* Does a table of these columns have section s's? */
static bool tsv_has(const struct section *s, unsigned cols)
{
	return (s->tsv_only & cols) == s->tsv_only;
}

void sections_tsv_head(FILE *f, unsigned cols)
{
	size_t i;

	for (i = 0; i < report_nsections; i++)
		if (report_sections[i]->tsv_head &&
		    tsv_has(report_sections[i], cols))
			fputs(report_sections[i]->tsv_head, f);
}

void sections_tsv(FILE *f, const struct section_ctx *c, unsigned cols)
{
	size_t i;

	for (i = 0; i < report_nsections; i++)
		if (report_sections[i]->tsv && tsv_has(report_sections[i], cols))
			report_sections[i]->tsv(f, c);
}

void sections_run_human(FILE *f, const struct report *r)
{
	size_t i;

	for (i = 0; i < report_nsections; i++)
		if (report_sections[i]->run_human)
			report_sections[i]->run_human(f, r);
}

void sections_run_json(struct json *j, const struct report *r)
{
	size_t i;

	for (i = 0; i < report_nsections; i++)
		if (report_sections[i]->run_json)
			report_sections[i]->run_json(j, r);
}

void sections_run_terse(FILE *f, const struct report *r, const char *suffix)
{
	size_t i;

	for (i = 0; i < report_nsections; i++)
		if (report_sections[i]->run_terse)
			report_sections[i]->run_terse(f, r, suffix);
}
