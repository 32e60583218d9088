/* emulate_plan.h - the delays of rebench --emulate, from two results of
 * rebench --replay --replay-mode grouped --json: the slow device's and
 * this machine's (the baseline).  Pure: no I/O, no clock; emulate.c reads
 * the files, calibrates, prints and runs.  rebench(1), APPLICATION I/O,
 * Emulate.
 *
 * For each operation kind k present in both results:
 *
 *	required(k) = round(slow ns_per_op(k) - fast ns_per_op(k))
 *	adjusted(k) = required(k) - spin_min_ns
 *
 * adjusted is the delay given to the interposer: every wait it makes
 * costs, besides the delay asked, the clock read that dates the call's end
 * and the call into the wait, which together are what a wait of zero
 * costs (delay.h: spin_min_ns, "zero wait").  A kind is delayed when
 * required > spin_min_ns; otherwise:
 *
 *	not slower	slow ns_per_op <= fast: no delay can make this machine
 *			faster; refused, or with --allow-partial left out
 *	cannot be met	0 < slow - fast and required <= spin_min_ns: the
 *			smallest wait would add more than required; not
 *			delayed (it runs up to spin_min_ns per operation
 *			faster than the slow device)
 *	not interposed	trim: no call the interposer sees is a trim
 */
#ifndef REBENCH_EMULATE_PLAN_H
#define REBENCH_EMULATE_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/delay.h"
#include "engines/iokind.h"
#include "core/json_read.h"

/* One grouped replay, as its JSON result says.  The strings point into
 * the tree it was read from: valid while the tree is. */
struct emulate_result {
	const char *file;	/* as named on the command line */
	const char *log, *digest, *target;
	bool has[IO_KINDS];
	uint64_t ops[IO_KINDS];
	double ns_per_op[IO_KINDS];
};

/* The "replay" object of root (the JSON of file) into r: 0, or -EINVAL
 * with err saying what is wrong, where (line and column), and how to get
 * the right file.  Refuses a result that is not a replay's, not grouped,
 * measured under --delay, or whose "replay" object lacks or mistypes a
 * field emulate uses. */
int emulate_read_result(const struct json_value *root, const char *file,
			struct emulate_result *r, char *err, size_t len);

enum emulate_note {
	EMU_DELAYED,
	EMU_NOT_SLOWER,
	EMU_CANNOT_BE_MET,
	EMU_NOT_INTERPOSED,
};

struct emulate_op {
	bool present;		/* in both results (emulate_plan refuses
				 * a kind in one only) */
	double slow_ns, fast_ns;	/* ns_per_op of each */
	double required_ns;	/* round(slow - fast): negative when faster */
	uint64_t adjusted_ns;	/* the delay asked; 0 when not delayed */
	enum emulate_note note;
};

struct emulate_plan {
	struct emulate_op op[IO_KINDS];
	struct delay_set delays;	/* adjusted_ns of the delayed kinds */
	uint64_t spin_min_ns;		/* the calibration's, for the table */
};

/* The plan of slow against fast with calibration c: 0, or -EINVAL with err
 * (the reason and the fix) when the two results describe different logs
 * or operations, an operation is not slower in slow than in fast (unless
 * allow_partial), no operation is slower at all, or a required delay is
 * beyond DELAY_MAX_NS. */
int emulate_plan(const struct emulate_result *slow,
		 const struct emulate_result *fast, bool allow_partial,
		 const struct delay_calib *c, struct emulate_plan *p,
		 char *err, size_t len);

/* The note column of the table for op k of p (emulate.c prints it). */
void emulate_note_text(const struct emulate_plan *p, int k, char *buf,
		       size_t len);

#endif
