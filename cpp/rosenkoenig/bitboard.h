// 81-square bitboards. Square index = rank * 9 + file, with file a..i = 0..8 (west to east) and
// rank 1..9 = 0..8 (south to north), so a1 = 0, i1 = 8, a9 = 72, i9 = 80 (RULES.md R2).
#pragma once
#include <bit>
#include <cstdint>

namespace rosen {

using Bitboard = unsigned __int128;

constexpr int kFiles = 9;
constexpr int kRanks = 9;
constexpr int kSquares = 81;
constexpr int kNoSquare = -1;

constexpr Bitboard bit(int sq) { return Bitboard(1) << sq; }

constexpr Bitboard make_full() { return (Bitboard(1) << kSquares) - 1; }
constexpr Bitboard make_file_mask(int file) {
    Bitboard b = 0;
    for (int r = 0; r < kRanks; ++r) b |= bit(r * kFiles + file);
    return b;
}

constexpr Bitboard kFull = make_full();
constexpr Bitboard kFileA = make_file_mask(0);
constexpr Bitboard kFileI = make_file_mask(8);

constexpr int square_of(int file, int rank) { return rank * kFiles + file; }
constexpr int file_of(int sq) { return sq % kFiles; }
constexpr int rank_of(int sq) { return sq / kFiles; }

inline int popcount(Bitboard b) {
    return std::popcount(static_cast<uint64_t>(b)) + std::popcount(static_cast<uint64_t>(b >> 64));
}

inline int lowest_square(Bitboard b) {
    const uint64_t lo = static_cast<uint64_t>(b);
    return lo ? std::countr_zero(lo) : 64 + std::countr_zero(static_cast<uint64_t>(b >> 64));
}

// Squares orthogonally adjacent to any square of b (R10: only shared edges connect).
inline Bitboard neighbours(Bitboard b) {
    return (((b << 1) & ~kFileA) | ((b >> 1) & ~kFileI) | (b << kFiles) | (b >> kFiles)) & kFull;
}

// The orthogonally connected component of `within` that contains `seed` (seed must be in within).
// The file masks are folded into `within` once instead of being applied at every step.
inline Bitboard flood(Bitboard seed, Bitboard within) {
    within &= kFull;
    const Bitboard from_west = within & ~kFileA;  // squares that may be entered from the west
    const Bitboard from_east = within & ~kFileI;
    const auto grow = [&](Bitboard r) {
        return r | ((r << 1) & from_west) | ((r >> 1) & from_east) | (((r << kFiles) | (r >> kFiles)) & within);
    };
    Bitboard region = seed;
    for (;;) {
        const Bitboard grown = grow(region);
        if (grown == region) return region;
        region = grown;
    }
}

}  // namespace rosen
