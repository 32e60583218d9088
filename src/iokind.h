/* iokind.h - what a workload asks for (enum io_op) and what each I/O is
 * (enum io_kind). */
#ifndef REBENCH_IOKIND_H
#define REBENCH_IOKIND_H

/* -o: one operation, the classic read/write coin, or a mix (mix.h). */
enum io_op { OP_READ, OP_WRITE, OP_TRIM, OP_RW, OP_MIX };

/* Operation actually issued for one I/O (a mix picks one per I/O).  The
 * order is the order of every per-operation output (-n blocks, JSON). */
enum io_kind { IO_READ, IO_WRITE, IO_TRIM, IO_FSYNC, IO_FDATASYNC, IO_KINDS };

/* Flushes have no offset and no size. */
#define IO_IS_FLUSH(kind) ((kind) >= IO_FSYNC)

/* "read", ..., "fdatasync": the one spelling of every output and of -o
 * mixes (mix.c); "?" out of range. */
const char *io_kind_name(int kind);

#endif
