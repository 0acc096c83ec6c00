// The game configuration, a value kept apart from any position (RULES.md R7, R13).
#pragma once
#include <cstdint>

namespace rosen {

enum class Reshuffle : uint8_t { Eager = 0, Lazy = 1 };

struct Rules {
    uint8_t players = 2;  // 2, or 4 for the team variant (R13)
    Reshuffle reshuffle = Reshuffle::Eager;

    constexpr int hand_limit() const { return players == 2 ? 5 : 3; }
    constexpr int start_heroes() const { return players == 2 ? 4 : 2; }
    friend constexpr bool operator==(const Rules&, const Rules&) = default;
};

// Colours of tokens and teams. A player index is 0..players-1 in turn order; in the 2-player game
// 0 = Red, 1 = White; in the 4-player game 0 = Red 1, 1 = White 1, 2 = Red 2, 3 = White 2, so the
// colour of player p is always p & 1.
enum Colour : uint8_t { kRed = 0, kWhite = 1 };
constexpr int colour_of(int player) { return player & 1; }

constexpr int kTotalTokens = 52;  // R1

}  // namespace rosen
