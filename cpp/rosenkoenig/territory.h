// Territories (RULES.md R10, R11) and the winner's tie-breaks (R12), by bitboard flood fill.
#pragma once
#include <cstdint>

#include "bitboard.h"

namespace rosen {

struct TerritoryStats {
    int score = 0;        // sum of n*n over territories
    int largest = 0;      // squares in the largest territory
    int count = 0;        // number of territories
    int tokens = 0;       // squares of the colour
};

TerritoryStats analyse_territories(Bitboard colour);

// Sizes of all territories, largest first; returns how many were written (at most 41 fit).
int territory_sizes(Bitboard colour, int* sizes_out);

// The territories themselves, largest first (equal sizes: the one with the lowest square first);
// returns how many were written (at most 41 fit). Frontends outline them (R10).
int territory_regions(Bitboard colour, Bitboard* regions_out);

// R12: > 0 if a wins, < 0 if b wins, 0 for a draw.
inline int compare_for_win(const TerritoryStats& a, const TerritoryStats& b) {
    if (a.score != b.score) return a.score > b.score ? 1 : -1;
    if (a.largest != b.largest) return a.largest > b.largest ? 1 : -1;
    if (a.tokens != b.tokens) return a.tokens > b.tokens ? 1 : -1;
    return 0;
}

// Batch scoring of n boards given as n*81 int8 squares (0 empty, 1 red, 2 white; square index
// rank*9+file as in bitboard.h). Writes per board and colour (red, white) into arrays of n*2:
// score, largest territory, token count, territory count. Returns the index of the first board
// holding a value other than 0, 1, 2 (and stops there), or -1.
long long score_boards(const int8_t* boards, long long n, int32_t* score, int32_t* largest, int32_t* tokens,
                       int32_t* count);

// Bitboards of one board in that layout; returns false if a square holds another value.
bool board_from_bytes(const int8_t* squares, Bitboard& red, Bitboard& white);

}  // namespace rosen
