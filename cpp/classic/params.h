// The parameters of the classic searchers (alphabeta.h, expectimax.h), described once: one table
// gives each field's name, range and meaning; check() and the validate functions test values
// against it and throw ArgumentError naming the field, and the bindings read the same table.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

#include "common/errors.h"
#include "rosenkoenig/move.h"

namespace rosen::classic {

struct ClassicParamInfo {
    std::string_view name;
    double min, max;  // inclusive
    std::string_view doc;
};

// depth, time_ms, hero_weight, seed, tt_mb.
extern const std::array<ClassicParamInfo, 5> kClassicParamInfo;
const ClassicParamInfo& param_info(std::string_view name);  // throws std::out_of_range for a name not in the table

// Throws ArgumentError("<name>: expected <min>..<max>, got <value>") when value is out of range.
void check(std::string_view name, double value);

// The peer's algorithm (alphabeta.h).
struct AlphaBetaParams {
    int depth = 7;
    int hero_weight = 30;
    uint64_t seed = 0;
};

// The sound search (expectimax.h): exactly one of depth and time_ms.
struct ExpectimaxParams {
    std::optional<int> depth;
    std::optional<uint64_t> time_ms;
    int hero_weight = 30;
    uint64_t seed = 0;  // accepted like every agent's; the search itself draws no random numbers
    int tt_mb = 16;     // transposition table in MiB; 0 = none
};

void validate(const AlphaBetaParams& p);
void validate(const ExpectimaxParams& p);

// What one search returns. value is from the side to move's colour (R13: a team shares it).
struct ClassicResult {
    Move move = kNoMove;
    double value = 0;
    int depth = 0;        // plies of the deepest completed iteration
    uint64_t nodes = 0;   // positions visited (every decision node and leaf, probes included)
    double time_ms = 0;
    // The deepest completed iteration met no depth-limited leaf: every line it searched ended the
    // game, so value is the game's exact expected result under best play by both colours (R12:
    // +-kWinValue a win or loss, 0 a draw, averaged over the draws) and no deeper search changes it.
    bool exact = false;
};

}  // namespace rosen::classic
