/* crc32c.h - CRC-32C (Castagnoli, the iSCSI and ext4 checksum, fio's
 * verify=crc32c): the SSE4.2 instruction where the CPU has it, else a
 * slice-by-8 table.  crc32c(0, "123456789", 9) is 0xE3069283.
 */
#ifndef REBENCH_CRC32C_H
#define REBENCH_CRC32C_H

#include <stddef.h>
#include <stdint.h>

/* The CRC of len bytes at p, continuing crc (0 to start). */
uint32_t crc32c(uint32_t crc, const void *p, size_t len);
/* The table version alone (the unit tests hold both to the vectors). */
uint32_t crc32c_sw(uint32_t crc, const void *p, size_t len);
/* "sse4.2" or "slice-by-8": the one crc32c() uses on this CPU. */
const char *crc32c_impl(void);

#endif
