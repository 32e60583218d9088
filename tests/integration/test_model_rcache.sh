#!/usr/bin/env bash
# test_model_rcache.sh - the model devices' read cache (rcache=SIZE,
# rcache_hit=TIME, rcache_line=SIZE; tools/modeldev/rcache.c): checked on
# the model's counters, which count what happened whatever the machine's
# load.  Random 4 KiB reads over a working set the cache holds all hit
# after the first touch of each line; over one 8 times the cache, LRU
# under uniform access hits 1 in 8; a hit never reaches the media (nor the
# disk's head); the median read of the small set is well under the large
# one's; a write to a cached line reads back new, a discard and a power
# cut empty the cache; rcache=0 (the default) caches nothing, and a bad
# size or line is refused, saying why.
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_cmd dd cmp
[ -c /dev/fuse ] || skip "needs /dev/fuse (modprobe fuse)"
require_rebench

MD=$TESTS_ROOT/workloads/model-device.sh
S=$SCRATCH

section "bad read-cache keys: refused, saying why, nothing left behind"
bad_model() {
	local what=$1 re=$2 model=$3
	"$MD" up --size 8m "$model" >"$S/out" 2>"$S/err"
	assert_eq 1 "$?" "$what: exit 1"
	assert_eq "" "$(<"$S/out")" "$what: nothing on stdout"
	assert_match "$re" "$(<"$S/err")" "$what: says why"
	assert_eq "" "$(grep -lxF -- "$model" /run/rebench-modeldev/md.*/model 2>/dev/null)" \
		"$what: no state folder left"
}
bad_model "rcache=1000, not a whole number of lines" \
	'rcache=1000: not a whole number of 4096-byte lines \(rcache_line\); give a multiple of it' 'ssd:rcache=1000'
bad_model "rcache_line=3000, not a power of two" \
	'rcache_line=3000: give a power of two of at least the sector \(512\)' 'ssd:rcache=1m,rcache_line=3000'
bad_model "rcache_line=1k under a 4 KiB sector" \
	'rcache_line=1024: give a power of two of at least the sector \(4096\)' 'ssd:sector=4k,rcache=1m,rcache_line=1k'
bad_model "rcache=2g, over the 1 GiB the key takes" 'rcache=2g: out of range, give 0b to 1g' 'ssd:rcache=2g'
bad_model "rcache_hit without a unit" 'rcache_hit=5: not a time with its unit' 'ssd:rcache=1m,rcache_hit=5'

section "rcache=0 (the default): every read goes to the media"
NONE=$(make_model --size 8m ssd:read=100us)
model_snap "$NONE"
rb_ok "200 random 4 KiB reads over 64 KiB, twice each line or more" -o read -b 4k -e 64k -d 800k --seed 1 "$NONE"
assert_eq "200 200" "$(model_delta "$NONE" requests.read) $(model_delta "$NONE" ssd.pages_read)" \
	"200 reads, 200 pages read from the flash"
assert_eq "0 " "$(model_ctr "$NONE" key.rcache) $(model_ctr "$NONE" rcache.hits)" \
	"key.rcache 0, and no rcache.* lines in the counters"

# The cache holds 1 MiB: 256 lines of 4 KiB.  A page read takes 1 ms on
# the one channel, a hit 50 us: 20 times apart, and 1 ms is 25 times the
# ~40 us that FUSE and the loop device add.
MODEL=ssd:read=1ms,channels=1,rcache=1m,rcache_hit=50us
DEV=$(make_model --size 64m "$MODEL")
READS=1024

# hits_misses: the last run's hits and misses from the counters' delta
hits_misses() { echo "$(model_delta "$DEV" rcache.hits) $(model_delta "$DEV" rcache.misses)"; }

section "a working set the cache holds: a miss per line, then hits"
model_snap "$DEV"
rb_ok "$READS random 4 KiB reads over 512 KiB" -o read -b 4k -e 512k -d 4096k --seed 2 "$DEV"
read -r hits misses <<<"$(hits_misses)"
nreq=$(model_delta "$DEV" requests.read)
assert_num "every read reached the model ($nreq of $READS) and was a hit or a miss ($hits + $misses)" \
	"$nreq >= $READS && $hits + $misses == $nreq"
assert_num "misses: $misses, at most the 128 lines of the set (+ 8 for a stray probe)" "$misses <= 136"
assert_eq "$misses" "$(model_delta "$DEV" ssd.pages_read)" "only the misses read the flash"
assert_eq "0 128" "$(model_ctr "$DEV" rcache.evictions) $(model_ctr "$DEV" rcache.lines)" \
	"nothing evicted; the set's 128 lines are cached"
lat_small=$(human_latency | awk '{ print $3 }')

section "a working set 8 times the cache: LRU under uniform reads hits 1 in 8"
# its own region, past the small set's; a first pass fills the cache with
# its lines (256 distinct ones take about 290 reads), then the counted one
rb_ok "warm-up: 512 random 4 KiB reads over 8 MiB" -o read -b 4k -j 16m -e 8m -d 2048k --seed 3 "$DEV"
model_snap "$DEV"
rb_ok "$READS random 4 KiB reads over 8 MiB" -o read -b 4k -j 16m -e 8m -d 4096k --seed 4 "$DEV"
read -r hits misses <<<"$(hits_misses)"
frac=$(calc "$hits / ($hits + $misses)")
assert_num "hit fraction $frac ($hits of $((hits + misses))), expected 1 MiB / 8 MiB = 0.125: in 0.06 .. 0.20" \
	"$frac >= 0.06 && $frac <= 0.20"
assert_eq "$misses $misses" "$(model_delta "$DEV" rcache.evictions) $(model_delta "$DEV" ssd.pages_read)" \
	"a full cache: each miss read the flash and evicted a line"
lat_large=$(human_latency | awk '{ print $3 }')
assert_num "median read: $lat_small us over 512 KiB, under 1/4 of $lat_large us over 8 MiB (model: 50 us against 1 ms for 7 in 8)" \
	"$lat_small < $lat_large / 4"

section "writes bring lines in with the new data; a discard and a cut empty the cache"
# a known pattern, written where the 8 MiB set's lines were cached
OFF=$((16 << 20))
rb_ok "the 8 MiB set's first line read: cached" -o read -w seq -b 4k -j "$OFF" -d 4k "$DEV"
head -c 4096 /dev/urandom >"$S/pat"
model_snap "$DEV"
dd if="$S/pat" of="$DEV" bs=4k seek=$((OFF / 4096)) count=1 oflag=direct conv=notrunc status=none ||
	fail "dd to $DEV failed"
dd if="$DEV" of="$S/back" bs=4k skip=$((OFF / 4096)) count=1 iflag=direct status=none ||
	fail "dd from $DEV failed"
if cmp -s "$S/pat" "$S/back"; then pass "a cached line written then read: the new data"; else check_failed "a cached line written then read: the new data"; fi
assert_eq "1 0 0" "$(model_delta "$DEV" rcache.hits) $(model_delta "$DEV" rcache.misses) $(model_delta "$DEV" ssd.pages_read)" \
	"the read back was a hit: no page read"
# a line never read, written whole: the next read of it hits too
model_snap "$DEV"
dd if="$S/pat" of="$DEV" bs=4k seek=$(((40 << 20) / 4096)) count=1 oflag=direct conv=notrunc status=none
dd if="$DEV" of="$S/back" bs=4k skip=$(((40 << 20) / 4096)) count=1 iflag=direct status=none
if cmp -s "$S/pat" "$S/back"; then pass "a new line written then read: the new data"; else check_failed "a new line written then read: the new data"; fi
assert_eq "1 0" "$(model_delta "$DEV" rcache.hits) $(model_delta "$DEV" rcache.misses)" \
	"a line written whole is cached: its read was a hit"
# a line never read, written in part (512 B): the rest is on the flash only
model_snap "$DEV"
dd if="$S/pat" of="$DEV" bs=512 seek=$(((44 << 20) / 512 + 3)) count=1 oflag=direct conv=notrunc status=none
dd if="$DEV" of="$S/back" bs=4k skip=$(((44 << 20) / 4096)) count=1 iflag=direct status=none
assert_eq "$(head -c 512 "$S/pat" | data_sum)" "$(tail -c +1537 "$S/back" | head -c 512 | data_sum)" \
	"a 512 B write in a line not cached: read back new"
assert_eq "0 1" "$(model_delta "$DEV" rcache.hits) $(model_delta "$DEV" rcache.misses)" \
	"a line written in part and not cached: its read was a miss"
rb_ok "the 8 MiB region discarded" -o trim -w seq -b 1m -j 16m -e 8m -d 8m --yes "$DEV"
assert_eq 2 "$(model_ctr "$DEV" rcache.lines)" \
	"a discard throws its lines out: of 256, the 2 outside it are left (40 and 44 MiB)"
"$MD" cut "$DEV" || fail "model-device.sh cut $DEV failed"
assert_eq 0 "$(model_ctr "$DEV" rcache.lines)" "a power cut empties the read cache"

section "every rcache counter is in rebench-modeldev(1)"
plain=$(groff -man -Tascii -rLL=250n -rHY=0 -P-cbou "$TESTS_ROOT/man/rebench-modeldev.1" 2>/dev/null)
missing=
for k in $(awk '$1 ~ /^rcache\./ { print $1 }' "$(model_counters_file "$DEV")"); do
	grep -qF -- "$k" <<<"$plain" || missing+=" $k"
done
assert_eq "" "$missing" "the man page's COUNTERS names every rcache counter"

section "the disk: a hit leaves the head and the read-ahead alone"
HDD=$(make_model --size 64m hdd:rcache=64k,rcache_hit=50us)
dd if="$HDD" of=/dev/null bs=4k skip=1000 count=1 iflag=direct status=none
model_snap "$HDD"
dd if="$HDD" of=/dev/null bs=4k skip=1000 count=1 iflag=direct status=none
assert_eq "1 0 0 0" "$(model_delta "$HDD" rcache.hits) $(model_delta "$HDD" hdd.media_reads) $(model_delta "$HDD" hdd.readahead_hits) $(model_delta "$HDD" hdd.seeks)" \
	"the same 4 KiB read again: a hit, no media read, no read-ahead hit, no seek"
