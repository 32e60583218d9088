/* outpath.h - the one rule for every path rebench writes (--output, the
 * sweep's TABLE.matrix, --plot, its temporaries): a regular file, or a new
 * name in an existing directory.  Never a device, a directory, a FIFO or a
 * socket, and never a file that backs something in use (a loop device, a
 * swap file).
 *
 * outpath_check() runs before any I/O and proves the path by opening it
 * (a new name is created and removed again); outpath_open() opens it for
 * writing in a way that cannot reach a device even if the path changed in
 * between, and truncates only once it knows it holds a regular file.
 */
#ifndef REBENCH_OUTPATH_H
#define REBENCH_OUTPATH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/* 0, or -errno with a sentence naming what (e.g. "--output") and path. */
int outpath_check(const char *what, const char *path, char *err, size_t len);
/* The pseudo file system path is on ("proc", "sysfs", "cgroup2" ...:
 * the kernel's settings and state, not data), or NULL for a real one. */
const char *outpath_pseudo_fs(const char *path);
/* Do two paths name one file?  By inode when both exist, else by name. */
bool outpath_same_file(const char *a, const char *b);

/* fopen(path, "w") under the rule; NULL after printing why (what names
 * the option in the message). */
FILE *outpath_open(const char *what, const char *path);

/* Close a file written with outpath_open(); 0, or -errno after printing
 * why (a full disk shows up here as often as in the writes). */
int outpath_close(const char *what, const char *path, FILE *f);

/* As outpath_close(), for a file that is worth nothing unless whole (a
 * log's header, before anything ran): on a failure it is removed, when
 * path still names it, and the message says so instead of "incomplete". */
int outpath_close_removing(const char *what, const char *path, FILE *f);

/* Remove path only while it names the regular file dev:ino (the one
 * rebench made and held), never what was put in its place. */
void outpath_unlink_same(const char *path, dev_t dev, ino_t ino);

/* A new descriptor of the file fd has open, with flags (O_RDONLY: one
 * that reads it from its start): the same inode, through /proc/self/fd,
 * wherever its path leads by now; -1 with errno when it cannot be had. */
int outpath_reopen(int fd, int flags);

/* "a block device", "a FIFO", ...: what a file that is not a regular one
 * is, for the refusals of outpath.h and infile.h. */
const char *outpath_kind(mode_t m);

/* Flush stdout, keeping its first error for outpath_finish_stdout(): 0,
 * or that -errno. */
int outpath_flush_stdout(void);

/* Flush and close stdout (once, at exit): 0, or -errno after a message
 * (a closed pipe, a full disk, /dev/full). */
int outpath_finish_stdout(void);

/* The longest name outpath_make_tmpdir() makes: a TMPDIR longer than this
 * leaves room for no name in it. */
#define OUTPATH_TMPDIR_MAX 512

/* A private directory for temporaries no one asked to keep, made by
 * mkdtemp(3) as "BASE/rebench-NAME.XXXXXX" into dir (len bytes, at most
 * OUTPATH_TMPDIR_MAX needed), BASE being TMPDIR when it is set and
 * absolute, else /tmp (as mktemp(1)).  0, or -errno after a message that
 * names what (the option) and BASE. */
int outpath_make_tmpdir(const char *what, const char *name, char *dir,
			size_t len);

/* A private directory that mkdtemp(3) made (0700, only rebench's files):
 * every file in it, then the directory. */
void outpath_remove_tmpdir(const char *dir);

#endif
