/* suggest.c - the nearest names to a word, see suggest.h. */
#include "core/suggest.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#define WORD_MAX 64

static void normalize(char *dst, const char *src)
{
	size_t i;

	for (i = 0; src[i] && i < WORD_MAX - 1; i++)
		dst[i] = src[i] == '_' ? '-' :
			 (char)tolower((unsigned char)src[i]);
	dst[i] = '\0';
}

static int min3(int a, int b, int c)
{
	int m = a < b ? a : b;

	return m < c ? m : c;
}

/* Optimal string alignment distance of two normalized words. */
static int osa(const char *a, const char *b)
{
	int d[WORD_MAX][WORD_MAX];
	int la = (int)strlen(a), lb = (int)strlen(b), i, j;

	for (i = 0; i <= la; i++)
		d[i][0] = i;
	for (j = 0; j <= lb; j++)
		d[0][j] = j;
	for (i = 1; i <= la; i++) {
		for (j = 1; j <= lb; j++) {
			int cost = a[i - 1] != b[j - 1];

			d[i][j] = min3(d[i - 1][j] + 1, d[i][j - 1] + 1,
				       d[i - 1][j - 1] + cost);
			/* a swap of neighbours is one edit */
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < d[i][j])
				d[i][j] = d[i - 2][j - 2] + 1;
		}
	}
	return d[la][lb];
}

int suggest_distance(const char *a, const char *b)
{
	char x[WORD_MAX], y[WORD_MAX];

	normalize(x, a);
	normalize(y, b);
	return osa(x, y);
}

/* The shorter word's characters appear in the longer in order, the first
 * ones equal: "rnd" in "random". */
static bool abbreviates(const char *a, const char *b)
{
	const char *shorter = strlen(a) < strlen(b) ? a : b;
	const char *longer = shorter == a ? b : a;

	if (strlen(shorter) < 3 || shorter[0] != longer[0])
		return false;
	for (; *longer && *shorter; longer++)
		if (*longer == *shorter)
			shorter++;
	return !*shorter;
}

/* The score of a name against the word: lower is nearer; -1: not near.
 * The distance allowed grows with the shorter of the two, so that a short
 * word is not near every name of its length ("frob" is not "probe"). */
static int score(const char *word, const char *name)
{
	size_t lw = strlen(word), ln = strlen(name);
	size_t shorter = lw < ln ? lw : ln;
	int d = osa(word, name);
	int limit = shorter <= 4 ? 1 : shorter <= 8 ? 2 : 3;

	if (d <= limit)
		return d;
	if (shorter >= 3 && !strncmp(word, name, shorter))
		return 1;
	return abbreviates(word, name) ? 3 : -1;
}

void suggest_init(struct suggest *s, const char *word)
{
	normalize(s->word, word);
	s->best = -1;
	s->n = 0;
}

void suggest_offer(struct suggest *s, const char *name)
{
	char norm[WORD_MAX];
	size_t i;
	int sc;

	normalize(norm, name);
	sc = score(s->word, norm);
	if (sc < 0 || (s->best >= 0 && sc > s->best))
		return;
	if (sc < s->best || s->best < 0) {
		s->best = sc;
		s->n = 0;
	}
	for (i = 0; i < s->n; i++)
		if (!strcmp(s->names[i], name))
			return;
	if (s->n < SUGGEST_MAX)
		s->names[s->n++] = name;
}

bool suggest_text(const struct suggest *s, const char *pre, char *buf,
		  size_t len)
{
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < s->n && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s%s",
				      !i ? "" : i + 1 == s->n ? " or " : ", ",
				      pre, s->names[i]);
	return s->n > 0;
}
