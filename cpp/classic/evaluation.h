// The leaf value both classic searchers use (the 2024 thesis's evaluation): from one colour's side
// (a 4-player team shares its colour, R13),
//     own points - opponent's points + hero_weight * (own heroes - opponent's heroes)
// with points by R11 (sum of n*n over territories) and heroes summed over the colour's players.
// A finished game is worth +kWinValue, -kWinValue or 0 (R12), whatever the board.
#pragma once
#include "rosenkoenig/position.h"

namespace rosen::classic {

constexpr int kWinValue = 1'000'000;
// Bounds of evaluate() for |hero_weight| <= 1000: an unfinished position is worth at most
// 52 * 52 + 1000 * 4 in size, far inside a finished game's +-kWinValue. Star1/Star2 use these.
constexpr double kLowerBound = -kWinValue;
constexpr double kUpperBound = kWinValue;

int evaluate(const Position& pos, int colour, int hero_weight);

}  // namespace rosen::classic
