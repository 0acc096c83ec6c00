// A byte per square for the hot loops that play games out (the fast play-out, the search's
// rollout): 0 empty, 1 Red, 2 White (as board_from_bytes reads them), and cells past the board,
// holding kOffBoardValue, that crown targets off the board point at. With it the legal plays and
// heroes of a hand are found without bitboard shifts or a move list.
#pragma once
#include <bit>
#include <cstdint>
#include <cstring>

#include "cards.h"

namespace rosen {

constexpr uint8_t kEmptyCell = 0;
constexpr uint8_t kOffBoardValue = 3;  // neither empty nor anyone's
constexpr int kOffBoardCell = kSquares;
constexpr int kByteBoardSize = 96;     // the board and the cells past it, a multiple of 16

// Crown targets as cells: a target off the board is kOffBoardCell. Rows of 32 keep the index a
// shift.
struct CrownCells {
    uint8_t to[kSquares][32]{};
    constexpr CrownCells() {
        for (int sq = 0; sq < kSquares; ++sq)
            for (int c = 0; c < 32; ++c)
                to[sq][c] = c < kCards && kCrownTargets.to[sq][c] != kNoSquare ? uint8_t(kCrownTargets.to[sq][c])
                                                                              : uint8_t(kOffBoardCell);
    }
};
inline constexpr CrownCells kCrownCells{};

// The cells of Red's and White's tokens, everything else on the board empty.
inline void fill_byte_board(uint8_t (&cell)[kByteBoardSize], const Bitboard (&tokens)[2]) {
    std::memset(cell, kEmptyCell, kSquares);
    std::memset(cell + kSquares, kOffBoardValue, kByteBoardSize - kSquares);
    for (int colour = 0; colour < 2; ++colour)
        for (Bitboard b = tokens[colour] & kFull; b; b &= b - 1) cell[lowest_square(b)] = uint8_t(1 + colour);
}

// The cell value of the opponent's tokens for a mover of `colour` who still holds a hero, and a
// value no cell holds for one who does not (no hero move then).
constexpr uint8_t hero_target_value(int colour, bool has_hero) { return has_hero ? uint8_t(2 - colour) : uint8_t(0xFF); }

// The plays and heroes of `hand` with the crown on `crown`, in legal_moves' order (plays by card
// id, then heroes by card id): plays fill slot[0..nplays), heroes slot[limit..limit + nheroes),
// each entry card | target << 8. `theirs` is hero_target_value(...). The tests on the board are
// branch-free (as good as random in a play-out); the loop keeps its exit branch, as the hand size
// follows a pattern the predictor learns (a fixed number of rounds with padding cards measured
// slower). The hand must hold at most `limit` cards (R4 b, R13).
template <int Limit>
inline void byte_board_moves(const uint8_t* cell, CardMask hand, int crown, uint8_t theirs, uint16_t (&slot)[2 * Limit],
                             int& nplays, int& nheroes) {
    const uint8_t* row = kCrownCells.to[crown];
    nplays = nheroes = 0;
    for (CardMask rest = hand; rest; rest &= rest - 1) {
        const int card = std::countr_zero(rest);
        const int t = row[card];
        const uint8_t v = cell[t];
        const uint16_t entry = uint16_t(card | t << 8);
        slot[nplays] = entry;
        nplays += v == kEmptyCell;
        slot[Limit + nheroes] = entry;
        nheroes += v == theirs;
    }
}

}  // namespace rosen
