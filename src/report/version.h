/* version.h - the version of rebench and of its two machine-readable
 * outputs, and the layout of the -n fields: what scripts reading them
 * depend on (rebench-output(5), RAW STATISTICS and JSON OUTPUT). */
#ifndef REBENCH_VERSION_H
#define REBENCH_VERSION_H

#include "engines/iokind.h"

#define REBENCH_VERSION "0.1.0"
#define TERSE_VERSION 6	/* 2: fields 22-81, per operation kind;
				 * 3: field 82, passes;
				 * 4: fields 83-94, sync_file_range;
				 * 95, durability; 96-97, device reads;
				 * 5: 98-104, the ops/s interval and
				 * --precision; 105-112, --steady-state
				 * and --precondition; 113-117, CPU */
/* -n fields: 21, then a fixed block per operation kind of version 2, the
 * passes of a sequential workload, a block per kind added since (a new
 * kind is a new TERSE_VERSION; no field moves), the durability verdict,
 * the reads that reached the device, the ops/s interval and --precision,
 * --steady-state, the CPU used, then the --repeat fields when given. */
#define TERSE_OP_FIELDS 12
#define TERSE_FIELD_DEV_READS (21 + IO_KINDS * TERSE_OP_FIELDS + 3)
#define TERSE_FIELD_DEV_BYTES (TERSE_FIELD_DEV_READS + 1)
#define TERSE_FIELD_CI (TERSE_FIELD_DEV_BYTES + 1)	/* 98: low .. */
#define TERSE_CI_FIELDS 7
#define TERSE_FIELD_STEADY (TERSE_FIELD_CI + TERSE_CI_FIELDS)	/* 105 */
#define TERSE_STEADY_FIELDS 8
#define TERSE_FIELD_CPU (TERSE_FIELD_STEADY + TERSE_STEADY_FIELDS)	/* 113 */
#define TERSE_CPU_FIELDS 5
/* 118: the write sync policy, 119: whose defaults the workload took */
#define TERSE_FIELD_SYNC (TERSE_FIELD_CPU + TERSE_CPU_FIELDS)
#define TERSE_SYNC_FIELDS 2
#define TERSE_FIELD_DURABLE (TERSE_FIELD_SYNC + TERSE_SYNC_FIELDS)	/* 120 */
#define TERSE_DURABLE_FIELDS 10
#define TERSE_FIELDS (TERSE_FIELD_DURABLE + TERSE_DURABLE_FIELDS - 1)
#define JSON_VERSION 7	/* 2: results.operations, latency p99_99;
				 * 3: run, results.passes, a file judged
				 * by its data (alignment);
				 * 4: operations.sync_file_range,
				 * target.fua, durability, results.device;
				 * 5: results.ops_ci, precision, seconds;
				 * 6: latency_hist (results and each
				 * operation), start_at;
				 * 7: ios, latency and rates over data
				 * I/Os, flushes, end_flushes,
				 * write_flush_latency_us, cpu, devices
				 * (results.device only when alone),
				 * mib_per_s for mb_per_s, defaults,
				 * repeat.shown_run */

#endif
