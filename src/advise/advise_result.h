/* advise_result.h - what --advise btree decided and from what, for its
 * writers (advise_out.c): a table, -n lines, a JSON document, a TSV file
 * and plots/advise-btree.gp. */
#ifndef REBENCH_ADVISE_RESULT_H
#define REBENCH_ADVISE_RESULT_H

#include <stdbool.h>
#include <stdio.h>

#include "advise/advise_btree.h"
#include "advise/advise_table.h"
#include "report/plot.h"

#define ADVISE_TERSE_VERSION 1

struct advise_result {
	struct btree_model model;
	struct advise_table tab;	/* the node sizes, computed */
	unsigned marks[BTREE_MAX_NODES];	/* enum noise_mark bits */
	struct btree_choice choice;
	const char *from;		/* --from TABLE, or NULL: measured */
	const char *sweep_table;	/* the measured sweep's table kept
					 * (--output FILE: FILE.sweep), or NULL */
	struct plot_about about;	/* the measured workload; empty with
					 * --from */
	size_t planned;			/* the sweep's points (0: --from) */
	bool interrupted;		/* the sweep stopped early */
};

/* The model over the table: compute every node and choose. */
void advise_decide(struct advise_result *r);

/* The recommendation, one or two sentences. */
void advise_sentence(const struct advise_result *r, char *buf, size_t len);

/* The choice in one short line, for a plot's title. */
void advise_headline(const struct advise_result *r, char *buf, size_t len);

/* The human report; 0, or -ENOMEM after a message (its table is on the
 * heap). */
int advise_human(FILE *f, const struct advise_result *r);
void advise_terse(FILE *f, const struct advise_result *r);
void advise_json(FILE *f, const struct advise_result *r);
/* The table as TSV (comment lines first: the model, the source), for
 * --output and the plot, written under outpath.h's rule (what names the
 * option in messages); 0, or -errno after a message. */
int advise_tsv(const char *what, const char *path,
	       const struct advise_result *r);
/* --plot FILE: the TSV at tsv drawn by plots/advise-btree.gp. */
int advise_plot(const char *tsv, const char *plot, const char *note,
		const struct advise_result *r);

#endif
