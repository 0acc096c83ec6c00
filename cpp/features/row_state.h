// The game state of a self-play record row (docs/selfplay.md, fields tokens, crown,
// hands, discard, pile, heroes, to_move, players, reshuffle) to and from a Position.
// A row holds only public facts (R14): the pile is a set, so the position read back has a pile of
// unknown order and a zero generator state. Reading checks everything a hostile file could get
// wrong and names the field and row.
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "rosenkoenig/position.h"

namespace rosen::features {

// One pointer per field, each to N rows laid out as the spec says (C order):
//   tokens uint64 [N, 2, 2]: [row, colour, word]; word 0 = squares 0..63, word 1 = squares 64..80
//   crown int8 [N], hands uint32 [N, 4], discard uint32 [N], pile uint32 [N], heroes int8 [N, 4],
//   to_move int8 [N], players int8 [N], reshuffle int8 [N] (0 eager, 1 lazy).
template <bool Writable>
struct RowFields {
    template <typename T>
    using Ptr = std::conditional_t<Writable, T*, const T*>;
    Ptr<uint64_t> tokens;
    Ptr<int8_t> crown;
    Ptr<uint32_t> hands;
    Ptr<uint32_t> discard;
    Ptr<uint32_t> pile;
    Ptr<int8_t> heroes;
    Ptr<int8_t> to_move;
    Ptr<int8_t> players;
    Ptr<int8_t> reshuffle;
};
using RowsIn = RowFields<false>;
using RowsOut = RowFields<true>;

// Row i as a position, or an ArgumentError whose field is the row field at fault and whose
// message says "<field>: row <i>: ...". Checks: players 2 or 4, reshuffle 0 or 1, to_move below
// players, token bits only on the 81 squares and never both colours, at most 52 tokens, the
// crown on a square where it may stand, hand sizes and hero counts within the variant's limits,
// unused seats empty, and every card in exactly one of the hands, the discard and the pile.
Position read_row(const RowsIn& rows, std::size_t i);

// Writes the public state of pos as row i (the pile as a set, whatever its order).
void write_row(const Position& pos, const RowsOut& rows, std::size_t i);

}  // namespace rosen::features
