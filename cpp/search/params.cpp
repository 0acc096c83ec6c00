#include "search/params.h"

#include "common/number_text.h"

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <utility>
#if defined(__unix__) || defined(__APPLE__)
#include <unistd.h>
#endif

namespace rosen::search {

namespace {

using P = SearchParams;

// A value as a double, whatever the field's type (enumerated fields give their index).
double value_of(const SearchParams& p, const ParamInfo& info) {
    return std::visit(
        [&](auto member) {
            const auto v = p.*member;
            if constexpr (std::is_enum_v<decltype(v)>)
                return double(int(v));
            else
                return double(v);
        },
        info.member);
}

bool enumerated(const ParamInfo& info) { return !info.choices[0].empty(); }

}  // namespace

const std::array<ParamInfo, 21> kParamInfo = {{
    {"iterations", &P::iterations, 0, double(kMaxIterations), {},
     "playouts over all threads; 0 = no limit (then time_ms must be set)"},
    {"time_ms", &P::time_ms, 0, double(kMaxTimeMs), {}, "wall-clock budget in milliseconds; 0 = no limit"},
    {"exploration", &P::exploration, 0, 100, {}, "the UCT constant c in q + c * sqrt(ln N / n); rewards lie in [0, 1]"},
    {"prior_weight", &P::prior_weight, 0, 1e4, {},
     "progressive bias: + prior_weight * prior / (visits + 1) in selection, priors from the heuristic policy"},
    {"rollout", &P::rollout, 0, 1, {"random", "heuristic"},
     "playout policy: 'heuristic' (territory-aware softmax) or 'random' (uniform: plain UCT)"},
    {"rollout_cutoff", &P::rollout_cutoff, -1, 10000, {},
     "plies after which a playout stops and the position is evaluated; 0 = play to the end; "
     "-1 = by the game: 10 with 2 players, to the end with 4"},
    {"reward", &P::reward, 0, 1, {"win", "margin"}, "'win' (1 / 0.5 / 0, R12) or 'margin' (the squashed final score margin)"},
    {"margin_weight", &P::margin_weight, 0, 1, {}, "with reward='win', the weight of the squashed margin blended in"},
    {"threads", &P::threads, 1, 256, {}, "root parallelism: one tree per thread, statistics merged at the root"},
    {"seed", &P::seed, 0, 18446744073709551615.0, {},
     "random stream; one thread, a seed and an iteration budget give the same result every time"},
    {"max_tree_size", &P::max_tree_size, 1000, 2147483648.0, {},
     "tree nodes (40 bytes each) over all threads; expansion stops when it is reached, playouts go on"},
    {"temperature", &P::temperature, 0.01, 1000, {}, "softmax temperature of the heuristic policy over move values"},
    {"hero_cost", &P::hero_cost, -1000, 1000, {}, "score points a spent hero costs the heuristic (and a hero in hand is worth)"},
    {"draw_value", &P::draw_value, -1000, 1000, {}, "score points the heuristic gives a draw against a play"},
    {"block_weight", &P::block_weight, -100, 100, {},
     "share of what the opponent would gain on a square that the heuristic credits for taking it"},
    {"eval_scale", &P::eval_scale, 0.1, 10000, {}, "score margin that makes a cut-off position about a 73% win"},
    {"minimax_weight", &P::minimax_weight, -1, 1, {},
     "implicit minimax backups: weight of the minimax value (of minimax_values) blended into each node's mean in "
     "selection; -1 = the measured best for the search (0.3; with a network in the 2-player game 0.5, or 0 if "
     "minimax_values is 'static')"},
    {"minimax_values", &P::minimax_values, 0, 2, {"auto", "static", "network"},
     "what the minimax backups carry: 'static' (the static evaluation of each child), 'network' (the network's value "
     "of each node visited; without a network, 'static'), 'auto' = 'network' in a search with a network, else "
     "'static'"},
    {"puct_c", &P::puct_c, 0, 100, {},
     "with a network: the PUCT constant c in q + c * prior * sqrt(N) / (1 + n) (replaces UCT's exploration)"},
    {"network_value_weight", &P::network_value_weight, -1, 1, {},
     "with a network: a leaf's value is w * the network's + (1 - w) * a rollout's; 1 = the network's only; "
     "-1 = the measured best for the game (1 with 2 players, 0.5 with 4)"},
    {"solve_share", &P::solve_share, 0, 1, {},
     "endgame solver: near the end, an exact expectimax first tries to prove the best move with this share of the "
     "budget (of time_ms and of iterations at 6 positions each, whichever is given; both: the first reached); 0 = off"},
}};

std::string choices_text(const ParamInfo& info) {
    std::string out;
    size_t count = 0;
    for (std::string_view c : info.choices) count += !c.empty();
    for (size_t i = 0; i < count; ++i)
        out += (i == 0 ? "" : i + 1 == count ? " or " : ", ") + ("'" + std::string(info.choices[i]) + "'");
    return out;
}

std::string_view choice_name(const ParamInfo& info, int value) {
    return value >= 0 && value < int(info.choices.size()) ? info.choices[size_t(value)] : std::string_view();
}

std::optional<int> choice_value(const ParamInfo& info, std::string_view word) {
    for (size_t i = 0; i < info.choices.size(); ++i)
        if (!info.choices[i].empty() && info.choices[i] == word) return int(i);
    return std::nullopt;
}

uint64_t max_tree_size_limit() {
    uint64_t limit = uint64_t(1) << 31;
#if defined(_SC_PHYS_PAGES) && defined(_SC_PAGE_SIZE)
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    if (pages > 0 && page > 0) limit = std::min(limit, uint64_t(pages) * uint64_t(page) / 2 / kNodeBytes);
#endif
    return limit;
}

void validate(const SearchParams& p) {
    // The weights whose -1 means "the measured default", checked first: the table's range (-1..1)
    // admits the values between -1 and 0, which mean nothing.
    for (const auto& [name, w] : {std::pair{"minimax_weight", p.minimax_weight},
                                  std::pair{"network_value_weight", p.network_value_weight}})
        if (!(w == -1 || (w >= 0 && w <= 1)))
            throw ArgumentError(name, std::string(name) + ": expected 0..1, or -1 for the default, got " + number_text(w));
    for (const ParamInfo& info : kParamInfo) {
        const double v = value_of(p, info);
        if (v >= info.min && v <= info.max) continue;  // false for NaN too
        const std::string name(info.name);
        if (enumerated(info))
            throw ArgumentError(name, name + ": expected " + choices_text(info));
        throw ArgumentError(name, name + ": expected " + number_text(info.min) + ".." + number_text(info.max) + ", got " + number_text(v));
    }
    if (p.iterations == 0 && p.time_ms == 0)
        throw ArgumentError("iterations", "iterations: both iterations and time_ms are 0; set at least one budget");
    if (p.max_tree_size < 1000 * uint64_t(p.threads))
        throw ArgumentError("max_tree_size", "max_tree_size: expected at least 1000 nodes per thread (" +
                                                 std::to_string(p.threads) + " threads), got " +
                                                 std::to_string(p.max_tree_size));
    const uint64_t limit = max_tree_size_limit();
    if (p.max_tree_size > limit)
        throw ArgumentError("max_tree_size", "max_tree_size: " + std::to_string(p.max_tree_size) + " nodes need " +
                                                 std::to_string(int64_t(std::ceil(double(p.max_tree_size) * kNodeBytes /
                                                                                   double(1 << 30)))) +
                                                 " GiB; this machine allows at most " + std::to_string(limit) +
                                                 " (half of its memory)");
}

}  // namespace rosen::search
