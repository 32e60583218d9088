/* fio_rw.h - fio's --rw words (randread, rw, ...) and rebench's -o and -w
 * for each: what the --rw alias sets (options_fio.c), and the hint -o
 * gives a fio user who typed one (options.c).  A table of words with no
 * dependency, so that the option table and fio's aliases both read it
 * without reading each other.
 */
#ifndef REBENCH_FIO_RW_H
#define REBENCH_FIO_RW_H

#include <stdbool.h>
#include <stddef.h>

struct fio_rw_mode {
	const char *name;	/* fio's --rw value */
	const char *op;		/* rebench's -o */
	const char *workload;	/* rebench's -w */
};

extern const struct fio_rw_mode fio_rw_modes[];
extern const size_t fio_rw_count;

/* The index of fio's --rw value val (any case), or -1. */
int fio_rw_find(const char *val);
/* -o with one of fio's --rw values (randread): the rebench form in buf;
 * false when val is none of them. */
bool fio_rw_hint(const char *val, char *buf, size_t len);

#endif
