/* trace_calls.h - the calls --record logs, each with its operation type:
 * one table for the interposer (src/preload/), which logs a
 * call under its own name, and for the log reader (trace_log.c), which
 * groups the names by type.  Header only: the interposer links nothing of
 * rebench.
 *
 * The log format these names appear in: trace_log.h and rebench(1),
 * APPLICATION I/O.
 */
#ifndef REBENCH_TRACE_CALLS_H
#define REBENCH_TRACE_CALLS_H

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/uio.h>

/* Operation types, in the order of every --trace-stats output. */
enum trace_type {
	TT_OPEN,
	TT_CLOSE,
	TT_READ,
	TT_WRITE,
	TT_SEEK,
	TT_FSYNC,
	TT_FDATASYNC,
	TT_SYNC_RANGE,
	TT_TRUNCATE,
	TT_FALLOCATE,
	TT_TYPES
};

/* X(function, type): every function the interposer defines that is
 * logged.  The 64 and fortified (_chk, _2) names are separate symbols a
 * program may call (sqlite3 calls pread64), so each is its own entry. */
#define TRACE_CALLS(X)					\
	X(open, TT_OPEN)				\
	X(open64, TT_OPEN)				\
	X(openat, TT_OPEN)				\
	X(openat64, TT_OPEN)				\
	X(creat, TT_OPEN)				\
	X(creat64, TT_OPEN)				\
	X(__open_2, TT_OPEN)				\
	X(__open64_2, TT_OPEN)				\
	X(__openat_2, TT_OPEN)				\
	X(__openat64_2, TT_OPEN)			\
	X(close, TT_CLOSE)				\
	X(fclose, TT_CLOSE)				\
	X(read, TT_READ)				\
	X(__read_chk, TT_READ)				\
	X(pread, TT_READ)				\
	X(pread64, TT_READ)				\
	X(__pread_chk, TT_READ)				\
	X(__pread64_chk, TT_READ)			\
	X(readv, TT_READ)				\
	X(preadv, TT_READ)				\
	X(preadv64, TT_READ)				\
	X(preadv2, TT_READ)				\
	X(preadv64v2, TT_READ)				\
	X(write, TT_WRITE)				\
	X(pwrite, TT_WRITE)				\
	X(pwrite64, TT_WRITE)				\
	X(writev, TT_WRITE)				\
	X(pwritev, TT_WRITE)				\
	X(pwritev64, TT_WRITE)				\
	X(pwritev2, TT_WRITE)				\
	X(pwritev64v2, TT_WRITE)			\
	X(lseek, TT_SEEK)				\
	X(lseek64, TT_SEEK)				\
	X(fsync, TT_FSYNC)				\
	X(fdatasync, TT_FDATASYNC)			\
	X(sync_file_range, TT_SYNC_RANGE)		\
	X(ftruncate, TT_TRUNCATE)			\
	X(ftruncate64, TT_TRUNCATE)			\
	X(fallocate, TT_FALLOCATE)			\
	X(fallocate64, TT_FALLOCATE)			\
	X(posix_fallocate, TT_FALLOCATE)		\
	X(posix_fallocate64, TT_FALLOCATE)

#define TRACE_CALL_ENUM(name, type) TC_##name,
enum trace_call { TRACE_CALLS(TRACE_CALL_ENUM) TC_COUNT };
#undef TRACE_CALL_ENUM

#define TRACE_CALL_NAME(name, type) #name,
static const char *const trace_call_names[TC_COUNT] = {
	TRACE_CALLS(TRACE_CALL_NAME)
};
#undef TRACE_CALL_NAME

#define TRACE_CALL_TYPE(name, type) type,
static const unsigned char trace_call_types[TC_COUNT] = {
	TRACE_CALLS(TRACE_CALL_TYPE)
};
#undef TRACE_CALL_TYPE

/* "open", ..., "fallocate": the spelling of every output. */
static const char *const trace_type_names[TT_TYPES] = {
	"open", "close", "read", "write", "seek", "fsync", "fdatasync",
	"sync_file_range", "truncate", "fallocate",
};

/* The first line of every log; N is TRACE_FORMAT_VERSION. */
#define TRACE_MAGIC "# rebench-trace "
#define TRACE_FORMAT_VERSION 1

/* What rebench --record passes to the interposer, across every exec. */
#define TRACE_ENV_LOG "REBENCH_RECORD_LOG"	/* absolute path of the log */
#define TRACE_ENV_LOG_ID "REBENCH_RECORD_LOG_ID"	/* DEV:INO of the log
							 * rebench created */
#define TRACE_ENV_COUNTS "REBENCH_RECORD_COUNTS"	/* FD:DEV:INO of the
							 * counters below */
#define TRACE_ENV_START "REBENCH_RECORD_START"	/* CLOCK_MONOTONIC ns */
#define TRACE_ENV_STDERR "REBENCH_RECORD_STDERR"	/* DEV:INO of the
							 * stderr rebench gave
							 * COMMAND */
#define TRACE_ENV_PATHS "REBENCH_RECORD_PATHS"	/* globs, '\n' between */
/* What did not reach the log, counted by every process of COMMAND in a
 * memfd rebench creates and passes by descriptor (TRACE_ENV_COUNTS, its
 * device and inode checked before each process maps it shared), and read
 * by rebench when COMMAND has ended (record_log.h).  Updated with atomic
 * adds: no lock, no system call. */
struct trace_counts {
	uint64_t unlogged;	/* processes that could not open the log */
	uint64_t lost;		/* lines not written: a failed or short write,
				 * or no log to write them to */
	uint64_t cut;		/* of them, written in part (a short write) */
	int32_t write_err;	/* errno of the first failed write, or 0 */
	int32_t closed;		/* rebench has closed the log (its status
				 * line written): nothing more goes in */
};

/* What --delay and --emulate pass (delay.h): the delays, in delay_format()'s
 * form, and the calibration the waits use, in delay_calib_format()'s. */
#define TRACE_ENV_DELAY "REBENCH_DELAY"
#define TRACE_ENV_DELAY_CALIB "REBENCH_DELAY_CALIB"

/* Symbolic flags in the ARG field: name and value, shared by writer and
 * reader so that every name written can be read back.  A writer takes the
 * entries in order and removes their bits (O_SYNC holds O_DSYNC's bit, so
 * it comes first); bits no entry names are written in hex (0x...).  Each
 * table ends with { NULL, 0 }. */
struct trace_flag {
	const char *name;
	unsigned long value;
};

/* open: the access mode (O_ACCMODE bits) is always written first. */
static const struct trace_flag trace_open_modes[] = {
	{ "O_RDONLY", O_RDONLY }, { "O_WRONLY", O_WRONLY },
	{ "O_RDWR", O_RDWR }, { NULL, 0 }
};

static const struct trace_flag trace_open_flags[] = {
	{ "O_CREAT", O_CREAT }, { "O_EXCL", O_EXCL },
	{ "O_NOCTTY", O_NOCTTY }, { "O_TRUNC", O_TRUNC },
	{ "O_APPEND", O_APPEND }, { "O_NONBLOCK", O_NONBLOCK },
	{ "O_SYNC", O_SYNC }, { "O_DSYNC", O_DSYNC },
	{ "O_DIRECT", O_DIRECT }, { "O_TMPFILE", O_TMPFILE },
	{ "O_DIRECTORY", O_DIRECTORY }, { "O_NOFOLLOW", O_NOFOLLOW },
	{ "O_NOATIME", O_NOATIME }, { "O_CLOEXEC", O_CLOEXEC },
	{ "O_PATH", O_PATH }, { "O_ASYNC", O_ASYNC },
	{ "O_LARGEFILE", 0100000 },	/* the kernel's; 0 in x86-64 glibc */
	{ NULL, 0 }
};

/* preadv2, pwritev2 */
static const struct trace_flag trace_rwf_flags[] = {
	{ "RWF_HIPRI", RWF_HIPRI }, { "RWF_DSYNC", RWF_DSYNC },
	{ "RWF_SYNC", RWF_SYNC }, { "RWF_NOWAIT", RWF_NOWAIT },
	{ "RWF_APPEND", RWF_APPEND }, { NULL, 0 }
};

static const struct trace_flag trace_sfr_flags[] = {
	{ "SYNC_FILE_RANGE_WAIT_BEFORE", SYNC_FILE_RANGE_WAIT_BEFORE },
	{ "SYNC_FILE_RANGE_WRITE", SYNC_FILE_RANGE_WRITE },
	{ "SYNC_FILE_RANGE_WAIT_AFTER", SYNC_FILE_RANGE_WAIT_AFTER },
	{ NULL, 0 }
};

static const struct trace_flag trace_falloc_flags[] = {
	{ "FALLOC_FL_KEEP_SIZE", FALLOC_FL_KEEP_SIZE },
	{ "FALLOC_FL_PUNCH_HOLE", FALLOC_FL_PUNCH_HOLE },
	{ "FALLOC_FL_COLLAPSE_RANGE", FALLOC_FL_COLLAPSE_RANGE },
	{ "FALLOC_FL_ZERO_RANGE", FALLOC_FL_ZERO_RANGE },
	{ "FALLOC_FL_INSERT_RANGE", FALLOC_FL_INSERT_RANGE },
	{ "FALLOC_FL_UNSHARE_RANGE", FALLOC_FL_UNSHARE_RANGE },
	{ NULL, 0 }
};

/* lseek: one of these, never a combination */
static const struct trace_flag trace_whence[] = {
	{ "SEEK_SET", SEEK_SET }, { "SEEK_CUR", SEEK_CUR },
	{ "SEEK_END", SEEK_END }, { "SEEK_DATA", SEEK_DATA },
	{ "SEEK_HOLE", SEEK_HOLE }, { NULL, 0 }
};

#endif
