# lib-hdd-model.awk - what the model disk (rebench-modeldev(1), hdd:) should
# show, from its keys and geometry alone: the expected latency of random
# reads over the first STROKE % of the device, and the rate of a
# sequential stream; used by hdd-study.sh.
#
#   awk -v bs=4096 -v strokes="1 5 25 100" -v streams="seq:0:4096:FROM ..." \
#       -v rates=200 -f lib-hdd-model.awk COUNTERS
#
# COUNTERS is the device's counters file (model-device.sh counters DEV):
# size, key.* and hdd.* lines.  The track table is built as
# tools/modeldev/hdd.c builds it (track k holds outer - (outer - inner) x k
# / (K - 1) sectors, the last one what is left), and checked against
# hdd.tracks.  Out, a tab-separated line each:
#
#   geom    tracks outer_sectors inner_sectors revolution_ns
#   stroke  PCT slots avg_ns p50_ns seek_ns tracks p_hit rotation_ns
#           random reads of bs bytes, uniform over the slots of the first
#           PCT % (rebench -e PCT%: floor(size x PCT / 100) bytes): the mean
#           and median latency, and per read from the platter the mean seek
#           time, the tracks crossed and the rotational wait; p_hit is the
#           share served from the read-ahead buffer
#   stream  LABEL offset bs track sectors latency_ns mib_s first_ns
#           sequential reads of bs from offset: each one's latency and the
#           stream's MiB/s, and the first read's (from the platter: a seek
#           from the track of sector FROM, half a revolution on average,
#           the transfer)
#   rate    position_pct track bytes mib_s
#           a track's bytes per revolution against its place (rates lines)
#
# The model (hdd.c): a read from the platter seeks (0 for the same track;
# for d >= 1 tracks seek_min + (seek_max - seek_min) x sqrt((d - 1) /
# (tracks - 2))), waits for its first sector (the platter's angle when the
# seek ends is unrelated to where the sector is: uniform over a
# revolution, half of one on average), and transfers a track per
# revolution, paying switch to move to the next track.  After a read the
# next readahead bytes are in the buffer as the platter passes them: a read
# wholly inside them comes when its last sector has passed (i blocks on:
# i x bs / track bytes of a revolution after the read that started the
# window), with no seek or rotation.  A sequential stream of reads no
# larger than readahead therefore runs at the bytes per revolution of the
# track where its first read ended (the model keeps that track's rate for
# the whole stream); without read-ahead each read finds its first sector
# just gone and waits a revolution, then transfers.
#
# What it leaves out: the time the kernel, the loop device and FUSE add to
# every request (about 40 us, rebench-modeldev(1), OVERHEAD), the noise
# key (symmetric: the mean does not move), a hit right after a hit (its
# wait is shorter), and read-ahead windows that span more than the next
# track.
function seek(d) {
	if (d <= 0) return 0
	return smin + (smax - smin) * sqrt(tracks > 2 ? (d - 1) / (tracks - 2) : 0)
}
function track_of(x,    lo, hi, mid) {
	lo = 0; hi = tracks - 1
	while (lo < hi) {
		mid = int((lo + hi + 1) / 2)
		if (first[mid] <= x) lo = mid; else hi = mid - 1
	}
	return lo
}
function spt(k) { return first[k + 1] - first[k] }
# the time sectors [x, x + n) take to pass under the head, track by track
# (hdd.c, transfer); sets xend to the track of the last one
function transfer(x, n,    k, t, in_, take) {
	k = track_of(x); t = 0
	while (n > 0) {
		in_ = first[k + 1] - x
		take = n < in_ ? n : in_
		t += int(rev * take / spt(k))
		n -= take; x += take
		if (n > 0) { t += sw; k++ }
	}
	xend = k
	return t
}
# The waits, in ns, of every pair (previous slot p < N ended on track k,
# next slot q < N starts on k): (q's first sector - p's end) mod the
# track's sectors, a revolution per track.  Over a track's pairs that is
# cE x sum(s) - cS x sum(e) + spt x #(s < e), s and e in sectors from the
# track's start (e = spt is 0).
function same_track_wait(N,    k, j, w, e, lo_, hi_, mid_, below, ne, nsx, se, ss, q0) {
	w = 0
	delete SP
	q0 = 0
	for (k = 0; k <= kmax; k++) {
		# the slots that start on k, in order
		nsx = 0; ss = 0
		for (j = q0; j < N && KS[j] == k; j++) { SP[++nsx] = j * n - first[k]; ss += SP[nsx] }
		q0 = j
		ne = 0; se = 0; below = 0
		for (j = (k ? firstslot[k] : 0); j < N && KE[j] == k; j++) {
			e = (j + 1) * n - first[k]
			if (e >= spt(k)) e -= spt(k)
			ne++; se += e
			lo_ = 1; hi_ = nsx + 1
			while (lo_ < hi_) { mid_ = int((lo_ + hi_) / 2); if (SP[mid_] < e) lo_ = mid_ + 1; else hi_ = mid_ }
			below += lo_ - 1
		}
		if (j < N) firstslot[k + 1] = j
		w += (ne * ss - nsx * se + spt(k) * below) * rev / spt(k)
	}
	return w
}
function fail(why) { print "lib-hdd-model.awk: " why > "/dev/stderr"; bad = 1; exit 1 }
# F(t) x slots^2: how many (previous, next) pairs of reads end by t
function cdf(t,    d, c, u, k, m) {
	c = 0
	for (d = 0; d <= dmax; d++) if (D[d] > 0) {
		# on the same track the wait is uniform from a0: the window
		# took the sectors that come first
		u = d ? (t - seek(d) - ex) / rev : (t - ex - a0) / (rev - a0)
		c += D[d] * (u <= 0 ? 0 : u >= 1 ? 1 : u)
	}
	# hits: the read i blocks into the window of a read that ended on
	# track k comes i x n / spt(k) revolutions after it
	for (k = 0; k <= kmax; k++) if (HW[k] > 0) {
		m = int(t * spt(k) / (rev * n))
		c += HW[k] * (m < W ? m : W)
	}
	for (k = 1; k <= nb; k++) {
		m = int(t * spt(BK[k]) / (rev * n))
		c += m < BC[k] ? m : BC[k]
	}
	return c
}
$1 == "size" { size = $2 }
$1 == "key.sector" { sector = $2 }
$1 == "key.seek_min" { smin = $2 }
$1 == "key.seek_max" { smax = $2 }
$1 == "key.switch" { sw = $2 }
$1 == "key.readahead" { ra = $2 }
$1 == "key.track" { trackb = $2 }
$1 == "key.inner" { innerp = $2 }
$1 == "hdd.tracks" { htracks = $2 }
$1 == "hdd.revolution_ns" { rev = $2 }
$1 == "model" { model = $2 }
END {
	if (bad) exit 1
	if (model != "hdd") fail("the counters are not a model disk's (model " model ")")
	if (!size || !sector || !rev || !trackb || !innerp) fail("the counters lack size, key.sector, key.track, key.inner or hdd.revolution_ns")
	total = int(size / sector)
	outer = int(trackb / sector)
	inn = int(outer * innerp / 100)
	if (!inn) inn = 1
	kk = int((2 * total + outer + inn - 1) / (outer + inn))
	if (!kk) kk = 1
	first[0] = 0
	for (k = 0; k < kk;) {
		s = kk > 1 ? outer - int((outer - inn) * k / (kk - 1)) : outer
		first[k + 1] = first[k] + s
		k++
		if (first[k] >= total) break
	}
	tracks = k
	first[k] = total
	if (htracks != "" && htracks != tracks)
		fail("rebuilt " tracks " tracks, the model has " htracks ": hdd.c's zoning changed")
	printf "geom\t%d\t%d\t%d\t%d\n", tracks, outer, inn, rev

	# random reads: every slot j (sectors [j n, j n + n)) once, in order;
	# the strokes, smallest first, are checkpoints on the way
	n = int((bs + sector - 1) / sector)
	W = int(int(ra / sector) / n)	# the blocks after a read in its window
	ns = split(strokes, S, " ")
	for (i = 1; i <= ns; i++) {
		P[i] = S[i] + 0
		SL[i] = int(int(size * P[i] / 100) / bs)
	}
	# in order of slots
	for (i = 2; i <= ns; i++) for (j = i; j > 1 && SL[j] < SL[j - 1]; j--) {
		t = SL[j]; SL[j] = SL[j - 1]; SL[j - 1] = t
		t = P[j]; P[j] = P[j - 1]; P[j - 1] = t
	}
	j = 0; sx = 0
	for (i = 1; i <= ns; i++) {
		N = SL[i]
		if (N < 2) { printf "stroke\t%s\t%d\t-\t-\t-\t-\t-\t-\n", P[i], N; continue }
		for (; j < N; j++) {
			xx = transfer(j * n, n)
			ks = track_of(j * n)
			CS[ks]++; CE[xend]++; KE[j] = xend; KS[j] = ks
			sx += xx
		}
		ex = sx / N	# the mean transfer (and switch) time
		kmax = KE[N - 1]
		# D[d]: pairs (previous read ended on track a, next starts on b)
		# with |a - b| = d
		delete D
		dmax = 0
		for (a = 0; a <= kmax; a++) if (CE[a]) for (b = 0; b <= kmax; b++) if (CS[b]) {
			d = a > b ? a - b : b - a
			D[d] += CE[a] * CS[b]
			if (d > dmax) dmax = d
		}
		# read-ahead hits: after slot p, slots p + 1 .. p + c (c = W, or
		# fewer at the region's end); those on a later track than p's
		# end were counted at a distance of 1, the others at 0
		delete HW; delete BK; delete BC
		nb = 0; hits = 0; hns = 0; hwait = 0
		if (W > 0) for (p = 0; p < N; p++) {
			c = N - 1 - p
			if (c > W) c = W
			if (c <= 0) continue
			k = KE[p]
			hits += c
			hns += rev * n * c * (c + 1) / 2 / spt(k)
			if (c == W) HW[k]++
			else { BK[++nb] = k; BC[nb] = c }
			# the window's slots that start past track k's end
			far = p + c - int((first[k + 1] + n - 1) / n) + 1
			if (far < 0) far = 0
			if (far > c) far = c
			D[1] -= far; D[0] -= c - far
			hwait += rev / spt(k) * n * (c - far) * (c - far - 1) / 2
		}
		NN = N * N
		miss = NN - hits
		sk = 0; dist = 0
		for (d = 0; d <= dmax; d++) { sk += D[d] * seek(d); dist += D[d] * d }
		# the rotational wait: half a revolution after a seek; on the
		# same track it is where the next read's first sector is, a
		# track's sectors after where the last one ended (mod the
		# track), with the window's sectors (hits) taken out
		r0 = same_track_wait(N) - hwait
		a0 = D[0] > 0 ? 2 * r0 / D[0] - rev : 0
		if (a0 < 0) a0 = 0
		rot = r0 + (miss - D[0]) * rev / 2
		avg = (sk + rot + miss * ex + hns) / NN
		# the median: F(t) = 1/2, by bisection
		lo = 0; hi = smax + 2 * rev + ex + 10 * sw
		for (it = 0; it < 60; it++) {
			mid = (lo + hi) / 2
			if (cdf(mid) < NN / 2) lo = mid; else hi = mid
		}
		printf "stroke\t%s\t%d\t%.0f\t%.0f\t%.0f\t%.4f\t%.5f\t%.0f\n", P[i], N, avg, (lo + hi) / 2, \
			sk / miss, dist / miss, hits / NN, rot / miss
	}

	# sequential streams: LABEL:OFFSET:BS:FROM
	nst = split(streams, ST, " ")
	for (i = 1; i <= nst; i++) {
		split(ST[i], F, ":")
		x = int(F[2] / sector); m = int((F[3] + sector - 1) / sector)
		if (x + m > total) fail("stream " F[1] " ends past the device")
		d = track_of(x) - track_of(F[4] + 0)
		first_ns = seek(d < 0 ? -d : d) + rev / 2 + transfer(x, m)
		if (int(ra / sector) >= m) {
			transfer(x, m)	# the first read, from the platter
			k = xend
			lat = rev * m / spt(k)
		} else {
			# no read-ahead to speak of: each read waits a revolution
			k = track_of(x)
			lat = rev + transfer(x, m)
		}
		printf "stream\t%s\t%d\t%d\t%d\t%d\t%.0f\t%.6f\t%.0f\n", F[1], F[2], F[3], k, spt(k), lat, \
			m * sector / lat * 1e9 / 1048576, first_ns
	}

	# a track's rate against its place
	# (the last track holds what is left: a part of one, left out)
	last = tracks - 1
	if (last > 0 && spt(last) < spt(last - 1) - 1) last--
	if (rates > 0) {
		step = last + 1 > rates ? (last + 1) / rates : 1
		for (f = 0; ; f += step) {
			k = int(f)
			if (k >= last) k = last
			printf "rate\t%.4f\t%d\t%d\t%.6f\n", 100 * first[k] / total, k, spt(k) * sector, \
				spt(k) * sector / rev * 1e9 / 1048576
			if (k == last) break
		}
	}
}
