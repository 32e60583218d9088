/* iokind.h - what a workload asks for (enum io_op) and what each I/O is
 * (enum io_kind). */
#ifndef REBENCH_IOKIND_H
#define REBENCH_IOKIND_H

/* -o: one operation, the classic read/write coin, or a mix (mix.h). */
enum io_op { OP_READ, OP_WRITE, OP_TRIM, OP_RW, OP_MIX };

/* Operation actually issued for one I/O (a mix picks one per I/O).  The
 * order is the order of every per-operation output (-n blocks, JSON); a
 * new kind goes last so the others keep their places.  IO_SYNC_RANGE is
 * sync_file_range(2), issued only by --sync sfr:N, never drawn in a mix
 * (its range is the writes since the last one, which a draw has not). */
enum io_kind {
	IO_READ, IO_WRITE, IO_TRIM, IO_FSYNC, IO_FDATASYNC, IO_SYNC_RANGE,
	IO_KINDS
};

/* Flushes have no size (bytes moved); only a sync_file_range has an
 * offset, the start of its range (struct io_req's span). */
#define IO_IS_FLUSH(kind) ((kind) >= IO_FSYNC)
/* The kinds that move data: what ops/s, MB/s and the headline latency
 * count (a flush is not an I/O there, as in fio's IOPS). */
#define IO_DATA_KINDS (1U << IO_READ | 1U << IO_WRITE | 1U << IO_TRIM)

/* "read", ..., "sync_file_range": the one spelling of every output and of -o
 * mixes (mix.c); "?" out of range. */
const char *io_kind_name(int kind);

#endif
