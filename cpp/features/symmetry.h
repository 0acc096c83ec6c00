// The 8 symmetries of the board (the dihedral group of the square, about e5). Rosenkönig is
// invariant under all of them: the board is square, scoring counts orthogonal connections only,
// and the crown starts on the centre. Directions are absolute on the board (RULES.md R2), so
// turning the board turns every card's direction with it; distances stay. Learning code uses the
// tables to augment data eightfold (docs/encoding.md).
#pragma once
#include <array>
#include <cstdint>
#include <string_view>

#include "actions.h"
#include "rosenkoenig/position.h"

namespace rosen::features {

constexpr int kSymmetries = 8;

struct Symmetry {
    std::string_view name;
    int inverse;                            // index of the symmetry that undoes this one
    std::array<uint8_t, kSquares> square;   // square[s]: where the content of square s goes
    std::array<uint8_t, kCards> card;       // card[c]: the card with c's direction turned, same distance
    std::array<uint8_t, kActions> action;   // plays and heroes through card[], draw and pass fixed
};

// Index 0 is the identity; then quarter turns counter-clockwise (rot90 takes N to W), then the
// four reflections. Built at compile time.
const std::array<Symmetry, kSymmetries>& symmetries();

Bitboard transform_squares(Bitboard squares, const Symmetry& s);
CardMask transform_cards(CardMask cards, const Symmetry& s);

// The whole position seen through symmetry k (0..7): tokens, crown, hands, discard and pile
// (its order too, when known). Players, heroes, the side to move and the generator stay, so
// legal_moves(transform(p)) is legal_moves(p) mapped by action[], and playing a mapped play or
// hero commutes with the transform.
Position transform(const Position& pos, int k);

}  // namespace rosen::features
