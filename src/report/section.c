/* section.c - the result sections (section.h), in the order of their -n
 * fields and TSV columns, and the walks the writers make over them. */
#include "report/section.h"

extern const struct section section_durability;
extern const struct section section_device;
extern const struct section section_precision;
extern const struct section section_steady;
extern const struct section section_cpu;
extern const struct section section_p9999;

const struct section *const report_sections[] = {
	&section_durability,	/* -n 95 */
	&section_device,	/* -n 96-97, and the device lines */
	&section_precision,	/* -n 98-104 */
	&section_steady,	/* -n 105-112 */
	&section_cpu,		/* -n 113-117 */
	&section_p9999,		/* no -n field */
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

void sections_terse(FILE *f, const struct section_ctx *c)
{
	size_t i;

	for (i = 0; i < report_nsections; i++)
		if (report_sections[i]->terse)
			report_sections[i]->terse(f, c);
}

void sections_tsv_head(FILE *f)
{
	size_t i;

	for (i = 0; i < report_nsections; i++)
		if (report_sections[i]->tsv_head)
			fputs(report_sections[i]->tsv_head, f);
}

void sections_tsv(FILE *f, const struct section_ctx *c)
{
	size_t i;

	for (i = 0; i < report_nsections; i++)
		if (report_sections[i]->tsv)
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
