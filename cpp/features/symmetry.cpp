#include "symmetry.h"

#include <bit>

namespace rosen::features {

namespace {

// Each symmetry as an integer matrix acting on (file, rank) offsets from e5:
// file' = xx * file + xy * rank, rank' = yx * file + yy * rank.
struct Linear {
    std::string_view name;
    int inverse;
    int xx, xy, yx, yy;
};

constexpr std::array<Linear, kSymmetries> kLinear = {{
    {"identity", 0, 1, 0, 0, 1},
    {"rot90", 3, 0, -1, 1, 0},       // a quarter turn counter-clockwise: N -> W, E -> N
    {"rot180", 2, -1, 0, 0, -1},
    {"rot270", 1, 0, 1, -1, 0},      // clockwise: N -> E
    {"flip_ew", 4, -1, 0, 0, 1},     // files reversed: E <-> W, NE <-> NW
    {"flip_ns", 5, 1, 0, 0, -1},     // ranks reversed: N <-> S
    {"diagonal", 6, 0, 1, 1, 0},     // about the a1-i9 diagonal: N <-> E
    {"antidiagonal", 7, 0, -1, -1, 0},  // about the a9-i1 diagonal: N <-> W
}};

constexpr int direction_of(int file_step, int rank_step) {
    for (int d = 0; d < 8; ++d)
        if (kDirFile[d] == file_step && kDirRank[d] == rank_step) return d;
    return -1;
}

constexpr Symmetry make_symmetry(const Linear& m) {
    Symmetry s{m.name, m.inverse, {}, {}, {}};
    constexpr int centre = 4;
    for (int sq = 0; sq < kSquares; ++sq) {
        const int x = file_of(sq) - centre, y = rank_of(sq) - centre;
        s.square[sq] = uint8_t(square_of(centre + m.xx * x + m.xy * y, centre + m.yx * x + m.yy * y));
    }
    for (int c = 0; c < kCards; ++c) {
        const int dx = kDirFile[card_direction(c)], dy = kDirRank[card_direction(c)];
        s.card[c] = uint8_t(make_card(direction_of(m.xx * dx + m.xy * dy, m.yx * dx + m.yy * dy), card_distance(c)));
    }
    for (int a = 0; a < kActions; ++a) s.action[a] = uint8_t(a);
    for (int c = 0; c < kCards; ++c) {
        s.action[play_move(c)] = play_move(s.card[c]);
        s.action[hero_move(c)] = hero_move(s.card[c]);
    }
    return s;
}

constexpr std::array<Symmetry, kSymmetries> make_table() {
    std::array<Symmetry, kSymmetries> table{};
    for (int k = 0; k < kSymmetries; ++k) table[k] = make_symmetry(kLinear[k]);
    return table;
}

constexpr std::array<Symmetry, kSymmetries> kTable = make_table();

// The tables are what the rest relies on; check them where they are made.
constexpr bool tables_are_consistent() {
    for (int k = 0; k < kSymmetries; ++k) {
        const Symmetry& s = kTable[k];
        const Symmetry& inv = kTable[s.inverse];
        for (int sq = 0; sq < kSquares; ++sq)
            if (inv.square[s.square[sq]] != sq) return false;
        for (int c = 0; c < kCards; ++c) {
            if (inv.card[s.card[c]] != c) return false;
            // Moving the crown commutes with the symmetry (the heart of the invariance).
            for (int sq = 0; sq < kSquares; ++sq) {
                const int t = kCrownTargets.to[sq][c], u = kCrownTargets.to[s.square[sq]][s.card[c]];
                if ((t < 0) != (u < 0) || (t >= 0 && s.square[t] != u)) return false;
            }
        }
    }
    return kTable[0].square[0] == 0 && kTable[1].square[square_of(4, 8)] == square_of(0, 4);  // rot90: e9 -> a5
}
static_assert(tables_are_consistent(), "each symmetry is a bijection with its inverse and commutes with crown moves");

}  // namespace

const std::array<Symmetry, kSymmetries>& symmetries() { return kTable; }

Bitboard transform_squares(Bitboard squares, const Symmetry& s) {
    Bitboard out = 0;
    for (uint64_t w = uint64_t(squares); w; w &= w - 1) out |= bit(s.square[std::countr_zero(w)]);
    for (uint64_t w = uint64_t(squares >> 64); w; w &= w - 1) out |= bit(s.square[64 + std::countr_zero(w)]);
    return out;
}

CardMask transform_cards(CardMask cards, const Symmetry& s) {
    CardMask out = 0;
    for (CardMask c = cards; c; c &= c - 1) out |= 1u << s.card[std::countr_zero(c)];
    return out;
}

Position transform(const Position& pos, int k) {
    const Symmetry& s = kTable[k];
    Position out = pos;
    for (int colour = 0; colour < 2; ++colour) out.tokens[colour] = transform_squares(pos.tokens[colour], s);
    out.crown = int8_t(s.square[pos.crown]);
    for (int p = 0; p < 4; ++p) out.hand[p] = transform_cards(pos.hand[p], s);
    out.discard = transform_cards(pos.discard, s);
    out.pile = transform_cards(pos.pile, s);
    for (int i = 0; i < pos.pile_size; ++i) out.order[i] = s.card[pos.order[i]];
    return out;
}

}  // namespace rosen::features
