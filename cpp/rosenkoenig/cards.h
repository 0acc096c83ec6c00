// Power cards (RULES.md R1): 8 directions x distances 1..3 = 24 cards, each with an id 0..23.
// id = direction * 3 + (distance - 1), directions in the order N, NE, E, SE, S, SW, W, NW.
// This order is also the canonical printing order of hands and the discard pile.
#pragma once
#include <array>
#include <bit>
#include <cstdint>
#include <string_view>

#include "bitboard.h"

namespace rosen {

constexpr int kCards = 24;
constexpr uint32_t kAllCards = (1u << kCards) - 1;
using CardMask = uint32_t;

constexpr std::array<std::string_view, 8> kDirectionNames = {"N", "NE", "E", "SE", "S", "SW", "W", "NW"};
// (file delta, rank delta) per direction; N is rank + 1 for both players (R2).
constexpr std::array<int, 8> kDirFile = {0, 1, 1, 1, 0, -1, -1, -1};
constexpr std::array<int, 8> kDirRank = {1, 1, 0, -1, -1, -1, 0, 1};

constexpr int card_direction(int card) { return card / 3; }
constexpr int card_distance(int card) { return card % 3 + 1; }
constexpr int make_card(int direction, int distance) { return direction * 3 + distance - 1; }

// kCrownTarget[square][card]: where the crown lands, or kNoSquare if it would leave the board
// (R5: such a move is never legal). Built at compile time, so nothing needs initialising.
struct CrownTargets {
    std::array<std::array<int8_t, kCards>, kSquares> to{};
    constexpr CrownTargets() {
        for (int sq = 0; sq < kSquares; ++sq)
            for (int c = 0; c < kCards; ++c) {
                const int f = file_of(sq) + kDirFile[card_direction(c)] * card_distance(c);
                const int r = rank_of(sq) + kDirRank[card_direction(c)] * card_distance(c);
                to[sq][c] = (f >= 0 && f < kFiles && r >= 0 && r < kRanks) ? int8_t(square_of(f, r)) : int8_t(kNoSquare);
            }
    }
};
inline constexpr CrownTargets kCrownTargets{};

inline int crown_target(int square, int card) { return kCrownTargets.to[square][card]; }

// kSelectInByte.at[b][k]: the position of the k-th (from 0) set bit of byte b.
struct SelectInByte {
    std::array<std::array<uint8_t, 8>, 256> at{};
    constexpr SelectInByte() {
        for (int b = 0; b < 256; ++b)
            for (int i = 0, k = 0; i < 8; ++i)
                if (b >> i & 1) at[b][k++] = uint8_t(i);
    }
};
inline constexpr SelectInByte kSelectInByte{};

// The n-th (from 0) card of a mask, n < popcount(mask): a uniform draw from a pile of unknown
// order takes this with a random n. No loop whose length is the random n: per-byte counts,
// their prefix sums by one multiplication, the byte found by a parallel compare, the bit in it
// by table.
inline int nth_card(CardMask mask, uint32_t n) {
    uint32_t c = mask - ((mask >> 1) & 0x55555555u);
    c = (c & 0x33333333u) + ((c >> 2) & 0x33333333u);
    c = (c + (c >> 4)) & 0x0F0F0F0Fu;
    const uint32_t prefix = c * 0x01010101u;  // byte i: set bits in bytes 0..i
    // Bytes whose prefix count is <= n lie wholly before the wanted bit.
    const uint32_t above = ((prefix | 0x80808080u) - (n + 1) * 0x01010101u) & 0x80808080u;
    const int byte = 4 - std::popcount(above);
    const uint32_t before = uint32_t(uint64_t(prefix) << 8 >> (8 * byte)) & 0xFF;
    return 8 * byte + kSelectInByte.at[uint32_t(uint64_t(mask) >> (8 * byte)) & 0xFF][(n - before) & 7];
}

}  // namespace rosen
