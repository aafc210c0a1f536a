package estimate

import "math/bits"

// rng is the package's random source: xoshiro256** (Blackman and Vigna, "Scrambled linear
// pseudorandom number generators", 2021) seeded by SplitMix64, written here so that the sequence
// is fixed by this file alone — the same on every platform and in every Go version — and so that
// it needs only 64-bit multiplications: math/rand/v2's PCG multiplies 128-bit numbers, which
// WebAssembly emulates, and the zero-leakage test draws 10⁸ numbers for 10⁶ samples. It is a
// math/rand/v2 Source (Uint64) for gonum's samplers.
type rng struct{ s [4]uint64 }

// newRand returns the source for seed.
func newRand(seed uint64) *rng {
	r := &rng{}
	for i := range r.s {
		seed += 0x9e3779b97f4a7c15
		z := seed
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		r.s[i] = z ^ z>>31
	}
	return r
}

// Uint64 returns the next 64 random bits.
func (r *rng) Uint64() uint64 {
	s := &r.s
	out := bits.RotateLeft64(s[1]*5, 7) * 9
	t := s[1] << 17
	s[2] ^= s[0]
	s[3] ^= s[1]
	s[1] ^= s[2]
	s[0] ^= s[3]
	s[2] ^= t
	s[3] = bits.RotateLeft64(s[3], 45)
	return out
}

// Float64 returns a uniform number in [0, 1) with 53 random bits.
func (r *rng) Float64() float64 { return float64(r.Uint64()>>11) / (1 << 53) }

// IntN returns a uniform integer in [0, n), n ≥ 1: Lemire's multiply-and-reject on 32-bit halves
// when n fits in 32 bits (exactly uniform, no 128-bit product), else rejection on a mask.
func (r *rng) IntN(n int) int {
	if n <= 1<<32 && n > 0 {
		un := uint64(n)
		for {
			m := (r.Uint64() >> 32) * un
			if lo := m & 0xffffffff; lo >= un || lo >= (1<<32-un)%un {
				return int(m >> 32)
			}
		}
	}
	mask := uint64(1)<<bits.Len64(uint64(n-1)) - 1
	for {
		if v := r.Uint64() & mask; v < uint64(n) {
			return int(v)
		}
	}
}
