#include "search/territories.h"

#include <array>
#include <bit>
#include <cstring>

namespace rosen::search {

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

TerritoryStats Territories::stats(int colour) const {
    // A slot not in use has size 0 and adds nothing.
    TerritoryStats stats;
    for (int s = 0; s < kSlots; ++s) {
        const int n = size_[colour][s];
        stats.score += n * n;
        stats.largest = n > stats.largest ? n : stats.largest;
        stats.count += n != 0;
        stats.tokens += n;
    }
    return stats;
}

int split_territory_loss(Bitboard territory, int sq) {
    const int n = popcount(territory);
    Bitboard rest = territory & ~bit(sq);
    Bitboard adjacent = neighbours(bit(sq)) & rest;
    // The pieces around sq, flood-filled while two or more of its neighbours are left to place:
    // the last piece is what remains of the territory, whole (it is connected through the one
    // neighbour left), so a square with a single neighbour in the territory needs no fill at all.
    int kept = 0;
    while (adjacent & (adjacent - 1)) {
        const Bitboard piece = flood(adjacent & (~adjacent + 1), rest);
        const int k = popcount(piece);
        kept += k * k;
        adjacent &= ~piece;
        rest &= ~piece;
    }
    if (adjacent) {
        const int k = popcount(rest);
        kept += k * k;
    }
    return n * n - kept;
}

int Territories::split_loss(int colour, int sq) const {
    return split_territory_loss(squares_[colour][slot_[colour][sq]], sq);
}

void Territories::add(int colour, int sq) {
    // Merge every territory touching sq into the largest of them, then add sq.
    uint8_t target = kNone;
    for (const uint8_t nb : kNeighbourSquares.of[sq]) {
        const uint8_t s = slot_[colour][nb];
        if (s != kNone && (target == kNone || size_[colour][s] > size_[colour][target])) target = s;
    }
    if (target == kNone) {
        new_slot(colour, bit(sq));
        return;
    }
    for (const uint8_t nb : kNeighbourSquares.of[sq]) {
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
    // The territory through sq falls apart into the pieces around it. As in split_territory_loss,
    // pieces are flood-filled while two or more of sq's neighbours are left to place; each gets a
    // new slot, and the last, the rest of the territory, keeps the old one and its labels.
    const uint8_t s = slot_[colour][sq];
    Bitboard rest = squares_[colour][s] & ~bit(sq);
    slot_[colour][sq] = kNone;
    Bitboard adjacent = neighbours(bit(sq)) & rest;
    if (!adjacent) {
        size_[colour][s] = 0;
        free_[colour][free_count_[colour]++] = s;
        return;
    }
    while (adjacent & (adjacent - 1)) {
        const Bitboard piece = flood(adjacent & (~adjacent + 1), rest);
        new_slot(colour, piece);
        adjacent &= ~piece;
        rest &= ~piece;
    }
    squares_[colour][s] = rest;
    size_[colour][s] = uint8_t(popcount(rest));
}

}  // namespace rosen::search
