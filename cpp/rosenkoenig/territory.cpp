#include "territory.h"

#include <algorithm>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace rosen {

namespace {

// Whole-board pass before any flood fill (R10): on a final board most territories are single
// squares and pairs, which a few dozen branch-free bit operations count and remove, so the flood
// loop below only sees the few larger territories. A square with no neighbour of its colour is a
// territory of one; two squares that each have exactly one neighbour, each other, are a pair.
struct SmallTerritories {
    Bitboard rest;  // squares of territories of 3 or more
    int singles, pairs, triples;
};

inline SmallTerritories split_small(Bitboard b) {
    const Bitboard east = (b >> 1) & ~kFileI & b;   // squares whose east neighbour is in b
    const Bitboard west = (b << 1) & ~kFileA & b;
    const Bitboard north = (b >> kFiles) & b;
    const Bitboard south = (b << kFiles) & b;
    const Bitboard ew1 = east ^ west, ew2 = east & west, ns1 = north ^ south, ns2 = north & south;
    const Bitboard any = ew1 | ew2 | ns1 | ns2;
    const Bitboard exactly_one = (ew1 ^ ns1) & ~(ew2 | ns2);
    const Bitboard singles = b & ~any;
    const Bitboard pairs = exactly_one & neighbours(exactly_one);
    // A triple (a line or an L) is a middle square with exactly two neighbours, both ends of it.
    const Bitboard exactly_two = (ew2 & ~(ns1 | ns2)) | (ns2 & ~(ew1 | ew2)) | (ew1 & ns1);
    const Bitboard middles = exactly_two & ~neighbours(b & ~exactly_one);
    const Bitboard triples = middles | (exactly_one & neighbours(middles));
    return {b & ~(singles | pairs | triples), popcount(singles), popcount(pairs) >> 1, popcount(middles)};
}

}  // namespace

TerritoryStats analyse_territories(Bitboard colour) {
    TerritoryStats s;
    s.tokens = popcount(colour);
    const SmallTerritories small = split_small(colour);
    s.score = small.singles + 4 * small.pairs + 9 * small.triples;
    s.count = small.singles + small.pairs + small.triples;
    s.largest = small.triples ? 3 : small.pairs ? 2 : small.singles ? 1 : 0;
    for (Bitboard rest = small.rest; rest;) {
        const Bitboard region = flood(rest & (~rest + 1), rest);
        rest &= ~region;
        const int n = popcount(region);
        s.score += n * n;
        s.largest = std::max(s.largest, n);
        ++s.count;
    }
    return s;
}

int territory_regions(Bitboard colour, Bitboard* regions_out) {
    int k = 0;
    for (Bitboard rest = colour; rest;) {
        const Bitboard region = flood(rest & (~rest + 1), rest);
        rest &= ~region;
        regions_out[k++] = region;
    }
    // Found lowest square first, so a stable sort by size keeps that order among equal sizes.
    std::stable_sort(regions_out, regions_out + k,
                     [](Bitboard a, Bitboard b) { return popcount(a) > popcount(b); });
    return k;
}

int territory_sizes(Bitboard colour, int* sizes_out) {
    Bitboard regions[kSquares];
    const int k = territory_regions(colour, regions);
    for (int i = 0; i < k; ++i) sizes_out[i] = popcount(regions[i]);
    return k;
}

bool board_from_bytes(const int8_t* sq, Bitboard& red, Bitboard& white) {
    red = 0;
    white = 0;
#if defined(__SSE2__)
    // 16 squares at a time: compare with 1 and 2 and gather the sign bits.
    const __m128i one = _mm_set1_epi8(1), two = _mm_set1_epi8(2);
    int bad = 0;
    for (int base = 0; base < 80; base += 16) {
        __m128i v;
        std::memcpy(&v, sq + base, 16);
        const int r = _mm_movemask_epi8(_mm_cmpeq_epi8(v, one));
        const int w = _mm_movemask_epi8(_mm_cmpeq_epi8(v, two));
        const int z = _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_setzero_si128()));
        bad |= (r | w | z) ^ 0xFFFF;
        red |= Bitboard(uint32_t(r)) << base;
        white |= Bitboard(uint32_t(w)) << base;
    }
    const int8_t last = sq[80];
    if (last == 1) red |= bit(80);
    if (last == 2) white |= bit(80);
    return !bad && last >= 0 && last <= 2;
#else
    for (int i = 0; i < kSquares; ++i) {
        if (sq[i] == 1) red |= bit(i);
        else if (sq[i] == 2) white |= bit(i);
        else if (sq[i] != 0) return false;
    }
    return true;
#endif
}

long long score_boards(const int8_t* boards, long long n, int32_t* score, int32_t* largest, int32_t* tokens,
                       int32_t* count) {
    for (long long i = 0; i < n; ++i) {
        Bitboard colours[2];
        if (!board_from_bytes(boards + i * kSquares, colours[0], colours[1])) return i;
        for (int c = 0; c < 2; ++c) {
            const TerritoryStats s = analyse_territories(colours[c]);
            score[2 * i + c] = s.score;
            largest[2 * i + c] = s.largest;
            tokens[2 * i + c] = s.tokens;
            count[2 * i + c] = s.count;
        }
    }
    return -1;
}

}  // namespace rosen
