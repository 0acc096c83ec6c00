#include "classic/params.h"

#include "common/number_text.h"

#include <stdexcept>
#include <string>

namespace rosen::classic {

const std::array<ClassicParamInfo, 5> kClassicParamInfo = {{
    {"depth", 1, 20, "plies searched; every play, hero, draw and pass is a ply (alphabeta default 7)"},
    {"time_ms", 0, 1e9, "expectimax: wall-clock budget; iterative deepening plays the deepest completed iteration"},
    {"hero_weight", -1000, 1000, "leaf value points per hero card (own colour's minus the opponent's)"},
    {"seed", 0, 18446744073709551615.0, "alphabeta: the stream its single draw samples come from; expectimax: unused"},
    {"tt_mb", 0, 4096, "expectimax: transposition table size in MiB (allocated at the first search); 0 = none"},
}};

const ClassicParamInfo& param_info(std::string_view name) {
    for (const ClassicParamInfo& info : kClassicParamInfo)
        if (info.name == name) return info;
    throw std::out_of_range("classic parameter " + std::string(name));
}

void check(std::string_view name, double value) {
    const ClassicParamInfo& info = param_info(name);
    if (value >= info.min && value <= info.max) return;  // false for NaN too
    const std::string field(name);
    throw ArgumentError(field, field + ": expected " + number_text(info.min) + ".." + number_text(info.max) + ", got " + number_text(value));
}

void validate(const AlphaBetaParams& p) {
    check("depth", p.depth);
    check("hero_weight", p.hero_weight);
}

void validate(const ExpectimaxParams& p) {
    if (!p.depth && !p.time_ms)
        throw ArgumentError("depth", "depth: expected one budget, depth=N (1..20) or time_ms=MS; got neither");
    if (p.depth && p.time_ms)
        throw ArgumentError("time_ms", "time_ms: expected one budget, depth=N or time_ms=MS; got both");
    if (p.depth) check("depth", *p.depth);
    if (p.time_ms) check("time_ms", double(*p.time_ms));
    check("hero_weight", p.hero_weight);
    check("tt_mb", p.tt_mb);
}

}  // namespace rosen::classic
