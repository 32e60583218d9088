/* prng.h - xoshiro256** seeded through splitmix64, and unbiased bounded
 * integers (Lemire, "Fast Random Integer Generation in an Interval", 2019).
 * Small and inline because it runs once or twice per I/O.
 */
#ifndef REBENCH_PRNG_H
#define REBENCH_PRNG_H

#include <stdint.h>

struct prng {
	uint64_t s[4];
};

static inline uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Distinct streams for each (seed, stream) pair, e.g. one per thread. */
static inline void prng_seed(struct prng *r, uint64_t seed, uint64_t stream)
{
	uint64_t x = seed ^ (stream * 0xd1b54a32d192ed03ULL);
	int i;

	for (i = 0; i < 4; i++)
		r->s[i] = splitmix64(&x);
}

static inline uint64_t prng_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline uint64_t prng_next(struct prng *r)
{
	uint64_t *s = r->s;
	uint64_t result = prng_rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = prng_rotl(s[3], 45);
	return result;
}

/* Uniform in [0, n), n > 0, without modulo bias. */
static inline uint64_t prng_below(struct prng *r, uint64_t n)
{
	unsigned __int128 m = (unsigned __int128)prng_next(r) * n;
	uint64_t lo = (uint64_t)m;

	if (lo < n) {
		uint64_t t = -n % n;

		while (lo < t) {
			m = (unsigned __int128)prng_next(r) * n;
			lo = (uint64_t)m;
		}
	}
	return (uint64_t)(m >> 64);
}

#endif
