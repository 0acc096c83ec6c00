#include "search/territories.h"

#include <array>
#include <bit>
#include <cstring>

namespace rosen::search {

namespace {

// The four orthogonal neighbours of each square (R10); kSquares (never a token) past the edge.
struct NeighbourTable {
    std::array<std::array<uint8_t, 4>, kSquares> of{};
    constexpr NeighbourTable() {
        for (int sq = 0; sq < kSquares; ++sq) {
            const int f = file_of(sq), r = rank_of(sq);
            of[sq] = {uint8_t(r + 1 < kRanks ? sq + kFiles : kSquares), uint8_t(r > 0 ? sq - kFiles : kSquares),
                      uint8_t(f + 1 < kFiles ? sq + 1 : kSquares), uint8_t(f > 0 ? sq - 1 : kSquares)};
        }
    }
};
constexpr NeighbourTable kNeighbours{};

}  // namespace

Territories::Territories(const Position& pos) {
    std::memset(slot_, kNone, sizeof slot_);
    std::memset(size_, 0, sizeof size_);
    for (int colour = 0; colour < 2; ++colour) {
        free_count_[colour] = kSlots;
        for (int s = 0; s < kSlots; ++s) free_[colour][s] = uint8_t(kSlots - 1 - s);
        for (Bitboard rest = pos.tokens[colour]; rest;) {
            const Bitboard region = flood(rest & (~rest + 1), rest);
            rest &= ~region;
            new_slot(colour, region);
        }
    }
}

uint8_t Territories::new_slot(int colour, Bitboard squares) {
    const uint8_t s = free_[colour][--free_count_[colour]];
    squares_[colour][s] = squares;
    size_[colour][s] = uint8_t(popcount(squares));
    relabel(colour, squares, s);
    return s;
}

void Territories::relabel(int colour, Bitboard squares, uint8_t slot) {
    for (uint64_t lo = uint64_t(squares); lo; lo &= lo - 1) slot_[colour][std::countr_zero(lo)] = slot;
    for (uint64_t hi = uint64_t(squares >> 64); hi; hi &= hi - 1) slot_[colour][64 + std::countr_zero(hi)] = slot;
}

int Territories::join_gain(int colour, int sq) const {
    // Branch-free: a neighbour's territory counts unless an earlier neighbour already counted it;
    // a neighbour without a token of the colour has slot kNone, whose size is 0.
    const std::array<uint8_t, 4>& nb = kNeighbours.of[sq];
    const uint8_t* slot = slot_[colour];
    const uint8_t* size = size_[colour];
    const uint8_t a = slot[nb[0]], b = slot[nb[1]], c = slot[nb[2]], d = slot[nb[3]];
    const int na = size[a], nb1 = size[b] * (b != a), nc = size[c] * (c != a && c != b),
              nd = size[d] * (d != a && d != b && d != c);
    const int merged = 1 + na + nb1 + nc + nd;
    return merged * merged - (na * na + nb1 * nb1 + nc * nc + nd * nd);
}

int split_territory_loss(Bitboard territory, int sq) {
    const int n = popcount(territory);
    const Bitboard rest = territory & ~bit(sq);
    Bitboard adjacent = neighbours(bit(sq)) & rest;
    int kept = 0;
    while (adjacent) {
        const Bitboard piece = flood(adjacent & (~adjacent + 1), rest);
        const int k = popcount(piece);
        kept += k * k;
        adjacent &= ~piece;
    }
    return n * n - kept;
}

int Territories::split_loss(int colour, int sq) const {
    return split_territory_loss(squares_[colour][slot_[colour][sq]], sq);
}

void Territories::add(int colour, int sq) {
    // Merge every territory touching sq into the largest of them, then add sq.
    uint8_t target = kNone;
    for (const uint8_t nb : kNeighbours.of[sq]) {
        const uint8_t s = slot_[colour][nb];
        if (s != kNone && (target == kNone || size_[colour][s] > size_[colour][target])) target = s;
    }
    if (target == kNone) {
        new_slot(colour, bit(sq));
        return;
    }
    for (const uint8_t nb : kNeighbours.of[sq]) {
        const uint8_t s = slot_[colour][nb];
        if (s == kNone || s == target) continue;
        squares_[colour][target] |= squares_[colour][s];
        size_[colour][target] = uint8_t(size_[colour][target] + size_[colour][s]);
        relabel(colour, squares_[colour][s], target);
        size_[colour][s] = 0;
        free_[colour][free_count_[colour]++] = s;
    }
    squares_[colour][target] |= bit(sq);
    ++size_[colour][target];
    slot_[colour][sq] = target;
}

void Territories::remove(int colour, int sq) {
    // The territory through sq falls apart into the pieces around it: the first keeps the slot.
    const uint8_t s = slot_[colour][sq];
    const Bitboard rest = squares_[colour][s] & ~bit(sq);
    slot_[colour][sq] = kNone;
    Bitboard adjacent = neighbours(bit(sq)) & rest;
    if (!adjacent) {
        size_[colour][s] = 0;
        free_[colour][free_count_[colour]++] = s;
        return;
    }
    const Bitboard first = flood(adjacent & (~adjacent + 1), rest);
    squares_[colour][s] = first;
    size_[colour][s] = uint8_t(popcount(first));
    adjacent &= ~first;
    while (adjacent) {
        const Bitboard piece = flood(adjacent & (~adjacent + 1), rest);
        new_slot(colour, piece);
        adjacent &= ~piece;
    }
}

}  // namespace rosen::search
