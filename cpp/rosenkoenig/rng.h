// The project's own random generator: xoshiro256** seeded through splitmix64. Only fixed-width
// integer arithmetic is used, so a seed gives the same stream with any compiler and platform
// (the golden deal test relies on this).
#pragma once
#include <cstdint>

namespace rosen {

inline uint64_t splitmix64(uint64_t& state) {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// A 64-bit mix of two values, for deriving independent seeds (game i of a run seeded s).
inline uint64_t mix_seed(uint64_t a, uint64_t b) {
    uint64_t s = a ^ (b * 0xD1B54A32D192ED03ull);
    splitmix64(s);
    return splitmix64(s);
}

class Rng {
public:
    explicit Rng(uint64_t seed = 0) { reseed(seed); }

    void reseed(uint64_t seed) {
        uint64_t sm = seed;
        for (auto& word : s_) word = splitmix64(sm);
    }

    uint64_t next() {
        const uint64_t result = rotl(s_[1] * 5, 7) * 9;
        const uint64_t t = s_[1] << 17;
        s_[2] ^= s_[0];
        s_[3] ^= s_[1];
        s_[1] ^= s_[2];
        s_[0] ^= s_[3];
        s_[2] ^= t;
        s_[3] = rotl(s_[3], 45);
        return result;
    }

    // Uniform integer in [0, n) by the multiply-high method; exact in 32-bit pieces so it does
    // not depend on a 128-bit integer type. The bias for n <= 2^32 is below 2^-32.
    uint32_t below(uint32_t n) {
        const uint64_t x = next() >> 32;
        return static_cast<uint32_t>((x * n) >> 32);
    }

    double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

private:
    static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    uint64_t s_[4];
};

}  // namespace rosen
