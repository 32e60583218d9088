#!/usr/bin/env bash
# test_advise.sh - rebench --advise btree (issue 17): RethinkDB's table
# reproduced through --from in every format, the cache, fill, value and
# insert options moving the figures as the model says, an end-to-end run
# on a loop device (table, sweep table, PNG, the advice computed from the
# sweep's own IOPS), intervals with --repeat, and every bad input refused
# before any I/O.
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_cmd jq
require_cmd gnuplot

export REBENCH_PLOTS=$TESTS_ROOT/plots
S=$SCRATCH
A=(--advise btree --rows 1000000000 --key-size 32)

# RethinkDB's post: IOPS per node size on its SSD
printf 'block-size\tops_per_s\n1k\t4579\n2k\t4254\n4k\t3780\n8k\t3197\n16k\t2186\n32k\t1769\n64k\t1334\n' >"$S/rethinkdb.tsv"

section "RethinkDB's table from its IOPS (--from, no I/O)"
rb_ok "--from: human" "${A[@]}" --from "$S/rethinkdb.tsv"
printf '%s\n' "$RB_OUT"
assert_match "^4 KiB +128 +5 +0 +30\.0 GiB +4\.271 +3780 +885\.0 +best$" "$RB_OUT" "the 4 KiB row: 128 keys, 5 levels, 4.271 hops, 885.0 q/s, best"
assert_match "^8 KiB .* 855\.5 +runner-up, 3\.3% below$" "$RB_OUT" "8 KiB is the runner-up, 3.3% below"
assert_match "Use 4 KiB nodes: 885\.0 queries/s, 3\.3% ahead of 8 KiB \(855\.5\)\. The IOPS carry no interval" \
	"$RB_OUT" "the recommendation names both and says how sure it is"
rb_ok "--from: --json" "${A[@]}" --from "$S/rethinkdb.tsv" --json
printf '%s\n' "$RB_OUT" >"$S/r.json"
assert_eq 4096 "$(jqr '.advise.choice.best')" "JSON: best 4096"
assert_eq 8192 "$(jqr '.advise.choice.runner_up')" "JSON: runner-up 8192"
assert_eq no-interval "$(jqr '.advise.choice.verdict')" "JSON: no interval"
# the post's hops (rounded by hand) and queries/s, as the issue quotes them
hops=(5.98 4.98 4.27 3.74 3.32 2.98 2.72)
qps=(765 854 885 854 658 593 490)
exact=(765.8 853.7 885.0 855.5 658.1 591.7 490.8)
for i in 0 1 2 3 4 5 6; do
	h=$(jqr ".advise.nodes[$i].hops")
	q=$(jqr ".advise.nodes[$i].queries_per_s")
	assert_num "node $i: hops $h within 0.01 of ${hops[$i]}" "($h - ${hops[$i]})^2 <= 0.0001"
	assert_num "node $i: q/s $q within 0.5% of ${qps[$i]}" "($q - ${qps[$i]})^2 <= (0.005 * ${qps[$i]})^2"
	assert_num "node $i: q/s $q = ${exact[$i]} (exact hops)" "($q - ${exact[$i]})^2 <= 0.05^2"
done
assert_eq "32 64 128 256 512 1024 2048" "$(jqr '[.advise.nodes[].keys_per_node] | map(tostring) | join(" ")')" "keys per node"
assert_eq "6 5 5 4 4 3 3" "$(jqr '[.advise.nodes[].levels] | map(tostring) | join(" ")')" "whole levels"
rb_ok "--from: -n" "${A[@]}" --from "$S/rethinkdb.tsv" -n
assert_eq 7 "$(<<<"$RB_OUT" grep -c '^btree 1 ')" "-n: a btree line per node size"
assert_eq "best" "$(<<<"$RB_OUT" awk '$1 == "btree" && $3 == 4096 { print $NF }')" "-n: 4096 is marked best"
assert_eq "885.028" "$(<<<"$RB_OUT" awk '$1 == "btree" && $3 == 4096 { print $15 }')" "-n: field 15 is queries/s"
assert_eq "btree-choice 1 no-interval 4096 8192 3.341 0" "$(<<<"$RB_OUT" grep '^btree-choice')" "-n: the choice line"
rb_ok "--from: --output and --plot" "${A[@]}" --from "$S/rethinkdb.tsv" --output "$S/r.tsv" --plot "$S/r.png"
assert_match "^node_size	keys_per_node	fanout	" "$(grep -v '^#' "$S/r.tsv" | head -n 1)" "TSV: header"
assert_eq 7 "$(grep -v '^#' "$S/r.tsv" | tail -n +2 | wc -l)" "TSV: a row per node size"
assert_match "^# headline: best: 4 KiB, 885\.0 queries/s, 3\.3% ahead of 8 KiB" "$(<"$S/r.tsv")" "TSV: the headline the plot's title takes"
assert_png "$S/r.png" 1000 600 "advise-btree.gp"
keep_png "$S/r.png"

section "the model's options"
# 1 MiB of cache: the top levels of each tree (1 KiB: 985 nodes of 1 KiB)
rb_ok "--cache 1m" "${A[@]}" --from "$S/rethinkdb.tsv" --cache 1m --json
assert_eq "3 2 2 2 2 1 1" "$(jqr '[.advise.nodes[].cached_levels] | map(tostring) | join(" ")')" "--cache 1m: cached levels"
assert_eq "3 3 3 2 2 2 2" "$(jqr '[.advise.nodes[].hops] | map(tostring) | join(" ")')" "--cache 1m: hops are the whole levels below"
assert_eq 8192 "$(jqr '.advise.choice.best')" "--cache 1m: 8 KiB best (3197 / 2)"
assert_eq 1048576 "$(jqr '.advise.parameters.cache_bytes')" "--cache is the model's cache"
# emptier nodes: the optimum moves to larger nodes
rb_ok "--fill 25" "${A[@]}" --from "$S/rethinkdb.tsv" --fill 25 --json
assert_eq 8192 "$(jqr '.advise.choice.best')" "--fill 25: 8 KiB best (4 KiB at 100%)"
assert_num "--fill 25: fanout of 4 KiB is 32" "$(jqr '.advise.nodes[2].fanout') == 32"
# values in the leaves: a 4 KiB leaf holds floor(4096 / 132) = 31 records
rb_ok "--value-size 100" "${A[@]}" --from "$S/rethinkdb.tsv" --value-size 100 --json
assert_num "--value-size 100: 31 records per 4 KiB leaf" "$(jqr '.advise.nodes[2].leaf_records') == 31"
assert_num "--value-size 100: depth 1 + log_128(10^9 / 31)" \
	"($(jqr '.advise.nodes[2].depth') - (1 + log(1e9 / 31) / log(128)))^2 < 1e-12"
# inserts: a read per level and a write of the leaf
rb_ok "--rwmix 90" "${A[@]}" --from "$S/rethinkdb.tsv" --rwmix 90 --json
assert_num "--rwmix 90: I/O per operation = hops + 0.1" \
	"($(jqr '.advise.nodes[2].ios_per_op') - $(jqr '.advise.nodes[2].hops') - 0.1)^2 < 1e-12"
assert_num "--rwmix 90: write fraction 0.1" "($(jqr '.advise.parameters.write_fraction') - 0.1)^2 < 1e-12"
rb_ok "--cache 40g" "${A[@]}" --from "$S/rethinkdb.tsv" --cache 40g
assert_match "whole tree fits in the 40 GiB cache" "$RB_OUT" "a cache that holds every tree decides nothing, and says so"

section "measured on a loop device"
DEV=$(make_loop 128M)
rb_ok "a sweep of 4 node sizes" "${A[@]}" -b 4k..32k*2 -d 300ms -g 30 --output "$S/m.tsv" --plot "$S/m.png" "$DEV"
printf '%s\n' "$RB_OUT"
assert_match "measured on $DEV: read, rnd" "$RB_OUT" "the source line names the target and the workload"
assert_eq 4 "$(grep -v '^#' "$S/m.tsv" | tail -n +2 | wc -l)" "the advisor's table: 4 rows"
assert_eq 4 "$(tail -n +2 "$S/m.tsv.sweep" | wc -l)" "the sweep's table beside it: 4 rows"
assert_png "$S/m.png" 1000 600 "advise-btree.gp, measured"
keep_png "$S/m.png"
# the advice is the sweep's own IOPS over the model's hops
bad=$(awk -F'\t' 'NR == FNR { if (FNR > 1) iops[$1] = $4; next }
	!/^#/ && $1 != "node_size" { d = $13 - iops[$1] / $9; if (d < 0) d = -d; if (d > 0.01 * $13) print $1 }' \
	"$S/m.tsv.sweep" "$S/m.tsv")
assert_eq "" "$bad" "queries/s = the sweep table's ops/s / I/O per query, every row"
best=$(awk -F'\t' '$17 == "best" { print $1 }' "$S/m.tsv")
rb_ok "--from the sweep's table" "${A[@]}" --from "$S/m.tsv.sweep" -n
assert_eq "$best" "$(<<<"$RB_OUT" awk '$1 == "btree-choice" { print $4 }')" "the kept sweep table gives the same best"
rb_ok "--repeat 2: intervals" "${A[@]}" -b 4k,16k -d 200ms --repeat 2 --json "$DEV"
assert_match "^--repeat" "$(jqr '.advise.source.interval')" "--repeat: the runs' interval"
assert_num "--repeat: the IOPS interval holds the median" \
	"$(jqr '.advise.nodes[0].iops_low') <= $(jqr '.advise.nodes[0].iops') && $(jqr '.advise.nodes[0].iops') <= $(jqr '.advise.nodes[0].iops_high')"
assert_match "^(clear|tied)$" "$(jqr '.advise.choice.verdict')" "--repeat: a verdict that knows its uncertainty"
assert_match "^[^#]" "$(jqr '.advise.choice.recommendation')" "--repeat: a recommendation"
# inserts write: confirmed like any write
SUM=$(dev_sum "$DEV")
assert_refused "-o rw without --yes" "refusing|confirm" "${A[@]}" --rwmix 90 -b 4k,8k -d 200ms "$DEV"
assert_eq "$SUM" "$(dev_sum "$DEV")" "nothing was written"
rb_ok "--rwmix 90 --yes" "${A[@]}" --rwmix 90 -b 4k,8k -d 200ms --yes --json "$DEV"
assert_num "measured --rwmix 90: 10% inserts" "($(jqr '.advise.parameters.write_fraction') - 0.1)^2 < 1e-12"

section "bad input, refused before any I/O"
no_output() { # what
	if [ -e "$S/bad.tsv" ] || [ -e "$S/bad.tsv.sweep" ]; then
		check_failed "$1: nothing was written"
		rm -f "$S/bad.tsv" "$S/bad.tsv.sweep"
	else
		pass "$1: nothing was written"
	fi
}
B=(--output "$S/bad.tsv" -d 200ms)
assert_refused "--rows 1" "--rows 1: a tree of fewer than 2 rows" --advise btree --rows 1 --key-size 32 "${B[@]}" "$DEV"
no_output "--rows 1"
assert_refused "--key-size 0" "--key-size 0: every entry takes room" --advise btree --rows 1000 --key-size 0 "${B[@]}" "$DEV"
no_output "--key-size 0"
assert_refused "--key-size larger than the smallest node" "--key-size 2048 is larger than the smallest node size, 1024 bytes" \
	--advise btree --rows 1000 --key-size 2k -b 1k,4k "${B[@]}" "$DEV"
no_output "--key-size 2k"
assert_refused "--fill 0" "--fill 0: .*\(0, 100\]" "${A[@]}" --fill 0 "${B[@]}" "$DEV"
assert_refused "--fill 150" "--fill" "${A[@]}" --fill 150 "${B[@]}" "$DEV"
assert_refused "-b of one size" "compares node sizes, and -b gives one" "${A[@]}" -b 4k "${B[@]}" "$DEV"
no_output "-b 4k"
assert_refused "another swept option" "--queue-depth has a range or list" "${A[@]}" -b 4k,8k -q 1,4 "${B[@]}" "$DEV"
assert_refused "-o write" "a write-only workload has no queries" "${A[@]}" -o write --yes "${B[@]}" "$DEV"
no_output "-o write"
assert_refused "no --rows" "needs --rows N" --advise btree --key-size 32 "${B[@]}" "$DEV"
assert_refused "--rows without --advise" "--rows describes the tree of --advise btree" --rows 5 -d 200ms "$DEV"
assert_refused "--from and a TARGET" "--from takes the IOPS from its table and does no I/O, so the TARGET" "${A[@]}" --from "$S/rethinkdb.tsv" "$DEV"
assert_refused "--from and -d" "--from does no I/O, so --duration" "${A[@]}" --from "$S/rethinkdb.tsv" -d 1
printf 'size\tiops\n4096\t10\n8192\t5\n' >"$S/nocols.tsv"
assert_refused "--from without the columns" "has no columns block-size and ops_per_s" "${A[@]}" --from "$S/nocols.tsv"
printf 'block-size\tops_per_s\n4096\t10\n' >"$S/one.tsv"
assert_refused "--from with one block size" "1 block size measured: .* needs two or more" "${A[@]}" --from "$S/one.tsv"
assert_refused "--from a missing file" "--from $S/none.tsv: cannot read it: No such file" "${A[@]}" --from "$S/none.tsv"
assert_refused "--steady-state" "--steady-state does not combine" "${A[@]}" --steady-state "$DEV"
# issue 26, 16: before, 18446744073709551616 rows and leaf 33.0 were printed
assert_refused "--rows past 2^53" "--rows 18446744073709551615: more than the model counts exactly \\(2\\^53" \
	--advise btree --rows 18446744073709551615 --key-size 32 --from "$S/rethinkdb.tsv"
assert_refused "--value-size no node holds" "--value-size 18446744073709551615: a record .* is larger than the largest node size" \
	--advise btree --rows 1000000 --key-size 32 --value-size 18446744073709551615 --from "$S/rethinkdb.tsv"

