#include "territory.h"

#include <algorithm>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace rosen {

TerritoryStats analyse_territories(Bitboard colour) {
    TerritoryStats s;
    s.tokens = popcount(colour);
    Bitboard rest = colour;
    while (rest) {
        // Isolated squares are the common case on real boards: skip the flood for them.
        const Bitboard seed = rest & (~rest + 1);
        const Bitboard region = (neighbours(seed) & rest) ? flood(seed, rest) : seed;
        rest &= ~region;
        const int n = popcount(region);
        s.score += n * n;
        s.largest = std::max(s.largest, n);
        ++s.count;
    }
    return s;
}

int territory_sizes(Bitboard colour, int* sizes_out) {
    int k = 0;
    for (Bitboard rest = colour; rest;) {
        const Bitboard region = flood(rest & (~rest + 1), rest);
        rest &= ~region;
        sizes_out[k++] = popcount(region);
    }
    std::sort(sizes_out, sizes_out + k, [](int a, int b) { return a > b; });
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
