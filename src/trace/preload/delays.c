/* delays.c - the waits librebench-record.so adds after calls (preload.h):
 * rebench --delay and --emulate.
 *
 * The delays and the calibration come from the environment
 * (TRACE_ENV_DELAY, TRACE_ENV_DELAY_CALIB): rebench calibrated once, and
 * no process of the command tree spends tens of ms doing it again.  Each
 * thread waits on a delay_clock of its own (delay.h), its carry kept in a
 * TLS variable, so that one thread's overshoot never shortens another's
 * wait (nor, after fork, a child's).
 *
 * Which calls wait: those of the read family (read, pread, readv, preadv,
 * preadv2 and their 64 and fortified forms) the read delay, of the write
 * family the write delay, fsync the fsync delay, fdatasync and
 * sync_file_range the fdatasync delay; only on followed descriptors
 * (regular files, block devices, directories, under --record-path), and
 * only when the call succeeded and, for a read or a write, moved at least
 * a byte (a failed call or one at the end of a file reached no device).
 */
#include <pthread.h>
#include <stdlib.h>

#include "trace/preload/preload.h"
#include "core/delay.h"

static struct delay_set delays;
static struct delay_calib calib;
bool delaying;			/* preload.h */
static TLS int64_t carry;	/* this thread's delay_clock carry */

/* enum trace_type -> enum io_kind, -1: never delayed */
static const signed char type_kind[TT_TYPES] = {
	[TT_OPEN] = -1, [TT_CLOSE] = -1, [TT_READ] = IO_READ,
	[TT_WRITE] = IO_WRITE, [TT_SEEK] = -1, [TT_FSYNC] = IO_FSYNC,
	[TT_FDATASYNC] = IO_FDATASYNC, [TT_SYNC_RANGE] = IO_FDATASYNC,
	[TT_TRUNCATE] = -1, [TT_FALLOCATE] = -1,
};

/* The child of fork(2) waits from a clean slate: the parent's overshoot
 * is the parent's to pay back. */
static void forget_carry_in_child(void)
{
	carry = 0;
}

bool delays_init(void)
{
	const char *spec = getenv(TRACE_ENV_DELAY);
	const char *c = getenv(TRACE_ENV_DELAY_CALIB);
	char err[256];

	if (!spec || !*spec)
		return false;
	/* rebench wrote both: a bad one is not ours, and waits nothing
	 * rather than guess (said in the log, when there is one) */
	if (delay_parse(spec, &delays, err, sizeof(err))) {
		warn("REBENCH_DELAY is not a delay spec: no delays", -1);
		return false;
	}
	if (!c || delay_calib_parse(c, &calib)) {
		warn("REBENCH_DELAY_CALIB is missing or not a calibration: no delays",
		     -1);
		return false;
	}
	delaying = delay_any(&delays);
	if (delaying)
		pthread_atfork(NULL, NULL, forget_carry_in_child);
	return delaying;
}

uint64_t delay_after(int call, int64_t res)
{
	int kind = type_kind[trace_call_types[call]];
	struct delay_clock dc;
	uint64_t end;

	if (!delaying || kind < 0 || !delays.ns[kind] || res < 0 ||
	    (res == 0 && !IO_IS_FLUSH(kind)))
		return 0;
	dc.c = &calib;
	dc.carry_ns = carry;
	end = delay_wait(&dc, now_ns(), delays.ns[kind]);
	carry = dc.carry_ns;
	return end;
}
