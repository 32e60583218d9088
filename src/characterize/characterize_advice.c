/* characterize_advice.c - --characterize's layout (characterize.h): each
 * setting from the measured unit (or, without one, what the device
 * reports) and the queue depth's knee, with the reason.
 *
 * The unit U is the measured one, else the reported physical sector;
 * E the measured erase block (--write), if any.  Partitions start at a
 * multiple of 1 MiB, which is a multiple of every U the tests can find
 * (64 KiB at most) and of erase blocks and RAID chunks up to 1 MiB, or at
 * a multiple of E when it is larger; file systems get U as their stripe
 * unit when it is larger than their 4 KiB block, and E as their stripe
 * width (ext4 and XFS then allocate whole erase blocks to large files, as
 * a RAID stripe); ZFS the ashift of U; a B-tree's nodes are at least U
 * (smaller ones pay a whole unit each).
 */
#include "characterize/characterize.h"

#include <stdarg.h>
#include <stdio.h>

#include "core/units.h"

#define MIB (1024 * 1024)

static void advise(struct characterize_result *r, const char *setting,
		   const char *value, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void advise(struct characterize_result *r, const char *setting,
		   const char *value, const char *fmt, ...)
{
	struct char_advice *a;
	va_list ap;

	if (r->nadv >= CHAR_MAX_ADVICE)
		return;
	a = &r->adv[r->nadv++];
	a->setting = setting;
	snprintf(a->value, sizeof(a->value), "%s", value);
	va_start(ap, fmt);
	vsnprintf(a->reason, sizeof(a->reason), fmt, ap);
	va_end(ap);
}

static unsigned log2u(uint64_t v)
{
	unsigned n = 0;

	while (v > 1) {
		v >>= 1;
		n++;
	}
	return n;
}

/* The alignment a partition or a volume's data needs: 1 MiB, or the
 * erase block when it is larger. */
static uint64_t align_of(const struct characterize_result *r)
{
	uint64_t e = r->erase_block.known ? (uint64_t)r->erase_block.value : 0;

	return e > MIB ? e : MIB;
}

static void advise_partition(struct characterize_result *r, uint64_t unit,
			     const char *basis)
{
	char v[96], u[32], a[32], why[160];
	uint64_t lbs = r->tgt.logical ? r->tgt.logical : 512;
	uint64_t al = align_of(r);

	fmt_size_exact(u, sizeof(u), unit);
	fmt_size_exact(a, sizeof(a), al);
	snprintf(v, sizeof(v), "a multiple of %s (sector %llu of %llu B)", a,
		 (unsigned long long)(al / lbs), (unsigned long long)lbs);
	if (r->erase_block.known)
		snprintf(why, sizeof(why),
			 "a multiple of the %s unit (%s) and of the measured erase block (%s)",
			 basis, u, fmt_size_exact(a, sizeof(a),
						  (uint64_t)r->erase_block.value));
	else
		snprintf(why, sizeof(why),
			 "a multiple of the %s unit (%s) and of erase blocks and RAID chunks up to 1 MiB",
			 basis, u);
	if (r->tgt.kind == TARGET_PARTITION && r->disk_offset % al)
		advise(r, "partition start", v,
		       "%s; %s starts at byte %llu, %s: re-create it at sector %llu",
		       why, r->tgt.path, (unsigned long long)r->disk_offset,
		       r->disk_offset % unit ? "misaligned to the unit" :
		       "aligned to the unit but not to that",
		       (unsigned long long)((r->disk_offset + al - 1) / al * al / lbs));
	else
		advise(r, "partition start", v, "%s, as partitioners place them",
		       why);
}

/* With an erase block E: the unit as stripe unit (4 KiB at least, the
 * file systems' block) and E as the stripe's width. */
static void advise_stripe(struct characterize_result *r, uint64_t unit)
{
	uint64_t e = (uint64_t)r->erase_block.value;
	uint64_t su = unit > 4096 ? unit : 4096;
	char v[96], u[32], w[32];

	fmt_size_exact(u, sizeof(u), su);
	fmt_size_exact(w, sizeof(w), e);
	snprintf(v, sizeof(v), "-b 4096 -E stride=%llu,stripe_width=%llu",
		 (unsigned long long)(su / 4096), (unsigned long long)(e / 4096));
	advise(r, "mkfs.ext4", v,
	       "a stride of %s (the unit) and a stripe width of %s, the measured erase block: large files get whole erase blocks, which the drive reclaims without copying",
	       u, w);
	snprintf(v, sizeof(v), "-d su=%llu,sw=%llu", (unsigned long long)su,
		 (unsigned long long)(e / su));
	advise(r, "mkfs.xfs", v,
	       "a stripe unit of %s and a width of %llu units, the %s erase block",
	       u, (unsigned long long)(e / su), w);
}

static void advise_fs(struct characterize_result *r, uint64_t unit,
		      const char *basis)
{
	char v[96], u[32], a[32];
	unsigned ashift = log2u(unit);

	fmt_size_exact(u, sizeof(u), unit);
	if (ashift < 9)
		ashift = 9;
	snprintf(v, sizeof(v), "%u", ashift);
	advise(r, "zfs ashift", v, "2^%u = %s, the %s unit: ZFS never writes less",
	       ashift, u, basis);
	if (r->erase_block.known && r->erase_block.value >= 2 * (unit > 4096 ? unit : 4096)) {
		advise_stripe(r, unit);
	} else if (unit > 4096) {
		snprintf(v, sizeof(v), "-b 4096 -E stride=%llu,stripe_width=%llu",
			 (unsigned long long)(unit / 4096),
			 (unsigned long long)(unit / 4096));
		advise(r, "mkfs.ext4", v,
		       "ext4 allocates in 4 KiB blocks: a stride of %s keeps its allocations in whole units",
		       u);
		snprintf(v, sizeof(v), "-d su=%llu,sw=1", (unsigned long long)unit);
		advise(r, "mkfs.xfs", v,
		       "a stripe unit of %s, the %s unit, on one device", u, basis);
	} else {
		advise(r, "mkfs.ext4", "-b 4096 (the default)",
		       "4 KiB blocks are whole %s units: no stride needed", u);
		advise(r, "mkfs.xfs", "the defaults",
		       "4 KiB blocks are whole %s units: no stripe unit needed", u);
	}
	fmt_size_exact(a, sizeof(a), align_of(r));
	snprintf(v, sizeof(v), "--dataalignment %llum",
		 (unsigned long long)(align_of(r) / MIB));
	advise(r, "lvm pvcreate", v,
	       "the data area at %s, a multiple of the %s unit (%s)%s", a, basis, u,
	       r->erase_block.known ? " and of the measured erase block" : "");
}

void char_advise(struct characterize_result *r)
{
	uint64_t unit = r->page.known ? (uint64_t)r->page.value : r->tgt.physical;
	const char *basis = r->page.known ? "measured" : "reported physical sector's";
	char v[96], u[32];

	if (!unit)
		unit = r->tgt.logical ? r->tgt.logical : 512;
	advise_partition(r, unit, basis);
	advise_fs(r, unit, basis);
	fmt_size_exact(u, sizeof(u), unit);
	snprintf(v, sizeof(v), "at least %s", u);
	advise(r, "b-tree node size", v,
	       "a smaller node still costs a whole %s unit to read; rebench --advise btree measures which size serves the most queries",
	       u);
	if (r->knee_qd) {
		snprintf(v, sizeof(v), "%u", r->knee_qd);
		advise(r, "queue depth", v,
		       "the smallest depth with 90%% of the most ops/s measured; deeper queues add latency, not ops/s");
	}
}
