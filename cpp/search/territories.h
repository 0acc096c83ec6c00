// The territories (R10) of both colours, kept up to date token by token during a rollout, so
// that the heuristic's join and split values (evaluator.h) cost a few table lookups instead of
// flood fills. Results are exactly those of join_gain() and split_loss() on the same tokens.
// Fixed-size, trivially copyable, built once per rollout; nothing is allocated.
#pragma once
#include <array>
#include <cstdint>

#include "rosenkoenig/bitboard.h"
#include "rosenkoenig/position.h"
#include "rosenkoenig/territory.h"

namespace rosen::search {

// The four orthogonal neighbours of each square (R10); kSquares (never a token) past the edge.
struct NeighbourSquares {
    std::array<std::array<uint8_t, 4>, kSquares> of{};
    constexpr NeighbourSquares() {
        for (int sq = 0; sq < kSquares; ++sq) {
            const int f = file_of(sq), r = rank_of(sq);
            of[sq] = {uint8_t(r + 1 < kRanks ? sq + kFiles : kSquares), uint8_t(r > 0 ? sq - kFiles : kSquares),
                      uint8_t(f + 1 < kFiles ? sq + 1 : kSquares), uint8_t(f > 0 ? sq - 1 : kSquares)};
        }
    }
};
inline constexpr NeighbourSquares kNeighbourSquares{};

// The score a territory loses when its square sq is removed: it falls apart into the pieces
// around sq (sq must be in `territory`, which must be connected).
int split_territory_loss(Bitboard territory, int sq);

class Territories {
public:
    explicit Territories(const Position& pos);

    // join_gain(tokens[colour], sq): the score a token of `colour` added on the empty (for that
    // colour) square sq would gain by merging the territories around it.
    // Inline: the rollout asks it twice for every play it considers.
    int join_gain(int colour, int sq) const {
        // Branch-free: a neighbour's territory counts unless an earlier neighbour already counted
        // it; a neighbour without a token of the colour has slot kNone, whose size is 0.
        const std::array<uint8_t, 4>& nb = kNeighbourSquares.of[sq];
        const uint8_t* slot = slot_[colour];
        const uint8_t* size = size_[colour];
        const uint8_t a = slot[nb[0]], b = slot[nb[1]], c = slot[nb[2]], d = slot[nb[3]];
        const int na = size[a], nb1 = size[b] * (b != a), nc = size[c] * (c != a && c != b),
                  nd = size[d] * (d != a && d != b && d != c);
        const int merged = 1 + na + nb1 + nc + nd;
        return merged * merged - (na * na + nb1 * nb1 + nc * nc + nd * nd);
    }
    // split_loss(tokens[colour], sq): the score `colour` loses if its token on sq is removed.
    int split_loss(int colour, int sq) const;
    // The size of the territory of `colour` that holds sq, 0 where sq has no token of the colour.
    int size_at(int colour, int sq) const { return size_[colour][slot_[colour][sq]]; }
    // analyse_territories(tokens[colour]) (R10, R11) from the tracked sizes, without a flood fill.
    TerritoryStats stats(int colour) const;

    // A token of `colour` placed on sq (a play, or the hero's own side of a flip).
    void add(int colour, int sq);
    // The token of `colour` on sq removed (the flipped side of a hero).
    void remove(int colour, int sq);

private:
    // kNone marks a square without a token of the colour, and kOffBoard (a square past the
    // board, whose slot is always kNone) stands for a missing neighbour; with size_[kNone] = 0
    // the join value needs no branch at all.
    static constexpr uint8_t kNone = 0xFF;
    static constexpr int kOffBoard = kSquares;
    static constexpr int kSlots = 48;  // at most 41 territories of one colour fit on 81 squares

    uint8_t new_slot(int colour, Bitboard squares);
    void relabel(int colour, Bitboard squares, uint8_t slot);

    uint8_t slot_[2][kSquares + 1]; // territory of each square, kNone where the colour has no token
    Bitboard squares_[2][kSlots];   // each territory's squares
    uint8_t size_[2][256];          // by slot; size_[kNone] stays 0
    uint8_t free_[2][kSlots];       // unused slots, a stack
    uint8_t free_count_[2];
};

}  // namespace rosen::search
