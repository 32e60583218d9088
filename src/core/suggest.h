/* suggest.h - "did you mean": the names nearest to a word that matched none.
 *
 * Words are compared without regard to case, with '_' the same as '-'
 * (fio's time_based, rebench's block-size).  A name is near a word when
 *
 *   - their distance is small: optimal string alignment distance (edits:
 *     insert, delete, replace a character, or swap two adjacent ones) of
 *     at most 1 when the shorter of the two has up to 4 characters, 2 up
 *     to 8, 3 beyond;
 *     0 when they differ only in case or '_' ("--block_size");
 *   - one is a prefix of the other, the shorter at least 3 characters
 *     ("dur" for "duration", "seq" in "sequential"): scored 1;
 *   - one abbreviates the other: the shorter's characters in order in the
 *     longer, the first ones equal, at least 3 ("rnd" in "random"): 3.
 *
 * The nearest names win (lowest score, at most SUGGEST_MAX of them, in the
 * order they were offered).  Cost:
 * O(len(word) x len(name)) time and stack per name, words cut at 63.
 */
#ifndef REBENCH_SUGGEST_H
#define REBENCH_SUGGEST_H

#include <stdbool.h>
#include <stddef.h>

#define SUGGEST_MAX 3

struct suggest {
	char word[64];		/* normalized: lower case, '_' as '-' */
	int best;		/* score of names[]; -1: none yet */
	size_t n;
	const char *names[SUGGEST_MAX];
};

void suggest_init(struct suggest *s, const char *word);
/* Offer a name; kept if it is near and at least as near as the best. */
void suggest_offer(struct suggest *s, const char *name);
/* "PREa", "PREa or PREb", "PREa, PREb or PREc" (PRE: "--" for options, ""
 * for values) in buf; false, and buf empty, when no name is near. */
bool suggest_text(const struct suggest *s, const char *pre, char *buf,
		  size_t len);
/* The edit distance of suggest.h's comparison (for tests). */
int suggest_distance(const char *a, const char *b);

#endif
