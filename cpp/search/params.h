// Every knob of the MCTS search in one struct with named fields and defaults, and one table that
// describes each field (name, range, documentation). The table is the single source of truth:
// validate() checks values against it, and the bindings build rosen.SearchParams from it, so no
// other layer lists, documents or checks the fields again.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "common/errors.h"

namespace rosen::search {

enum class RolloutPolicy : uint8_t {
    Random,     // uniformly random legal moves (plain UCT)
    Heuristic,  // territory-aware softmax policy (evaluator.h)
};

enum class RewardKind : uint8_t {
    Win,     // 1 win, 1/2 draw, 0 loss (R12), optionally blended with the margin by margin_weight
    Margin,  // a squashed score margin only: 1/2 + tanh(margin / scale) / 2
};

// Whose values the implicit minimax backups carry (minimax_values_of below resolves Auto).
enum class MinimaxValues : uint8_t {
    Auto,     // the measured best for the search: Network in every search with a network (2 and 4 players), else Static
    Static,   // the static evaluation of every child as it is expanded (evaluator.h, child_rewards)
    Network,  // the network's value of each node when it is first evaluated; only children visited so far count
};

struct SearchParams {
    uint64_t iterations = 1000;   // total playouts over all threads; 0 = no limit (time_ms must be set)
    uint64_t time_ms = 0;         // wall-clock budget; 0 = no limit (iterations must be set)
    double exploration = 0.5;     // UCT constant c in q + c * sqrt(ln N / n), rewards in [0, 1]
    double prior_weight = 0.0;    // progressive bias: + prior_weight * prior / (n + 1) in selection
    RolloutPolicy rollout = RolloutPolicy::Heuristic;
    // Plies after which a rollout stops and is evaluated; 0 = play to the end; kAutoCutoff (the
    // default) = by the game: 10 plies with 2 players, to the end with 4 (cutoff_plies below).
    int rollout_cutoff = -1;
    RewardKind reward = RewardKind::Win;
    double margin_weight = 0.0;   // with Win: reward = (1 - w) * win + w * squashed margin, w in [0, 1]
    int threads = 1;              // root parallelism: one tree per thread, statistics merged at the root
    uint64_t seed = 0;            // one thread + a seed + an iteration budget = a reproducible search
    uint64_t max_tree_size = 1'000'000;  // tree nodes over all threads; expansion stops when it is reached

    // Game knowledge of the heuristic policy and of the cut-off evaluation (evaluator.h), in score
    // points (R11). Defaults come from the tuning runs recorded in docs/search.md; the cut-off
    // (10 plies, eval_scale 10) from the matches of docs/strength.md ("Cut-off rollouts").
    double temperature = 4.0;     // softmax temperature over move values; lower is greedier
    double hero_cost = 25.0;      // what spending a hero is worth when nothing else changes
    double draw_value = 2.0;      // value of drawing (a fuller hand) against a play
    double block_weight = 1.0;    // share of what the opponent would gain on a square, for taking it
    double eval_scale = 10.0;     // margin (points) that makes a cut-off position about a 73% win
    // Implicit minimax backups (Lanctot et al. 2014): every node also keeps the minimax value of
    // the static evaluation over its subtree (chance nodes average their cards), and selection
    // blends it into the node's mean: (1 - w) * mean + w * minimax. -1 (the default): the weight
    // measured best for the search being run (minimax_weight_of below). With a network,
    // minimax_values may back up the network's values instead of the static evaluation's.
    double minimax_weight = -1;
    MinimaxValues minimax_values = MinimaxValues::Auto;
    // Search with a network (Searcher's second argument; without one these two change nothing):
    // PUCT selection q + puct_c * prior * sqrt(N) / (1 + n) over the network's priors, and at a
    // leaf w * the network's value + (1 - w) * a rollout's, w = network_value_weight. -1 (the
    // default): the weight measured best for the game (network_value_weight_of below).
    double puct_c = 1.0;
    double network_value_weight = -1;
    // The endgame solver: with at most kSolveSupply tokens left in the supply (R1, R8), an exact
    // expectimax (classic/expectimax.h: every draw averaged, no evaluation in its last iteration)
    // first tries to prove the game's value with this share of the search's budget: of time_ms
    // with a time budget and solve_share * iterations * kSolveNodesPerIteration positions with an
    // iteration budget (a function of the position, so seeded searches stay reproducible); with
    // both, the first limit reached ends it, as it ends the search. A proven best move is
    // played unless every move loses for certain (then the tree's move, which may still give a
    // fallible opponent chances); the tree gets the rest of the budget either way. 0 = off.
    double solve_share = 0.0;
};

// The supply (tokens left to place) at or below which the endgame solver is tried: above it an
// exact solve almost never fits a 200 ms budget (docs/search.md, "Endgame solver"), and the
// attempt would only take time from the tree.
constexpr int kSolveSupply = 4;
// Solver positions per tree iteration under an iteration budget: about the same time each (an
// expectimax node takes about 0.5 us, an iteration with the network about 3 us).
constexpr uint64_t kSolveNodesPerIteration = 6;

// rollout_cutoff's default: the cut-off that was measured best for the game being searched
// (docs/strength.md): 10 plies in the 2-player game; none in the 4-player team game, where full
// rollouts beat the 10-ply cut-off by 10 points at equal iterations (200 games, same deals).
constexpr int kAutoCutoff = -1;
constexpr int kAutoCutoffTwoPlayers = 10;
constexpr int kAutoCutoffFourPlayers = 0;

// The cut-off in plies that p asks for in a game of `players` players (0: play to the end).
constexpr int cutoff_plies(const SearchParams& p, int players) {
    if (p.rollout_cutoff != kAutoCutoff) return p.rollout_cutoff;
    return players == 2 ? kAutoCutoffTwoPlayers : kAutoCutoffFourPlayers;
}

// minimax_values' default: the network's own values in every search with a network -- the
// 2-player game's since 4 Dec 2026 (2-player self-play at equal iterations and at equal time:
// docs/strength.md, "4 Dec 2026"), the team game's since 5 Dec 2026 (an SPRT at 20 ms, +34 Elo
// [+9, +58] over 840 games: docs/strength.md, "5 Dec 2026, seventh session"). Without a network
// there are no network values: Network means Static there.
constexpr MinimaxValues minimax_values_of(const SearchParams& p, bool network) {
    if (!network) return MinimaxValues::Static;
    if (p.minimax_values != MinimaxValues::Auto) return p.minimax_values;
    return MinimaxValues::Network;
}

// minimax_weight's default: 0.3 for the rollout search (docs/strength.md, "Implicit minimax
// backups"); 0.5 for the 2-player search with a network backing up its own values
// (docs/strength.md, "4 Dec 2026"), and 0 when that search backs up the static evaluation's,
// which only pull it toward a weaker judge (SPRT at 20 ms, docs/learning.md, "Implicit minimax
// with the network"). The team game's network search keeps 0.3, the weight it was measured with
// (first over the static values, since 5 Dec 2026 over the network's own).
constexpr double kAutoMinimax = -1;
constexpr double kAutoMinimaxWeight = 0.3;
constexpr double kAutoMinimaxWeightNetworkTwoPlayers = 0.5;
constexpr double kAutoMinimaxWeightNetworkStaticTwoPlayers = 0.0;

// The minimax weight that p asks for in a search of a `players`-player game, with or without a network.
constexpr double minimax_weight_of(const SearchParams& p, bool network, int players) {
    if (p.minimax_weight != kAutoMinimax) return p.minimax_weight;
    if (!network || players != 2) return kAutoMinimaxWeight;
    return minimax_values_of(p, network) == MinimaxValues::Network ? kAutoMinimaxWeightNetworkTwoPlayers
                                                                  : kAutoMinimaxWeightNetworkStaticTwoPlayers;
}

// network_value_weight's default: the network's value alone in the 2-player game (mixing in
// rollouts was no stronger at 20 ms, docs/learning.md); in the team game half the network's value
// and half a full rollout's, which scored 12 points more than the network's value alone against
// the old default team at 200 ms a move (the same 200 games; head to head the two were level:
// docs/strength.md, "2 Dec 2026, evening").
constexpr double kAutoValueWeight = -1;
constexpr double kAutoValueWeightTwoPlayers = 1.0;
constexpr double kAutoValueWeightFourPlayers = 0.5;

// The network's share of a leaf's value that p asks for in a search of a `players`-player game.
constexpr double network_value_weight_of(const SearchParams& p, int players) {
    if (p.network_value_weight != kAutoValueWeight) return p.network_value_weight;
    return players == 2 ? kAutoValueWeightTwoPlayers : kAutoValueWeightFourPlayers;
}

// A pointer to one field of SearchParams, by its type.
using ParamMember = std::variant<uint64_t SearchParams::*, int SearchParams::*, double SearchParams::*,
                                 RolloutPolicy SearchParams::*, RewardKind SearchParams::*,
                                 MinimaxValues SearchParams::*>;

// The budgets' ranges (kParamInfo's, and a search call's own budget: Searcher::search). Beyond
// 9.2e12 ms a deadline overflows the clock's nanoseconds and lies in the past.
constexpr uint64_t kMaxIterations = 1'000'000'000'000'000;
constexpr uint64_t kMaxTimeMs = 1'000'000'000;

// One field: its name (as in Python and agent specs), where it lives, the inclusive range of
// numbers it accepts (the ranges keep every value finite in the search's float arithmetic), the
// words of an enumerated field in enum order, and a one-line description.
struct ParamInfo {
    std::string_view name;
    ParamMember member;
    double min = 0, max = 0;
    std::array<std::string_view, 3> choices{};
    std::string_view doc;
};

// Every field, in declaration order.
extern const std::array<ParamInfo, 21> kParamInfo;

// An enumerated field's words, quoted and joined for an error message: 'a', 'b' or 'c'.
std::string choices_text(const ParamInfo& info);

// The word of an enumerated field's value, and the value of a word (nullopt if unknown).
std::string_view choice_name(const ParamInfo& info, int value);
std::optional<int> choice_value(const ParamInfo& info, std::string_view word);

// Throws ArgumentError naming the first field whose value is out of its range, or a budget or
// memory limit that cannot work (both budgets 0; fewer than 1000 tree nodes per thread).
void validate(const SearchParams& p);

// Bytes of one tree node, and the most tree nodes a search may hold: half of this machine's
// physical memory (every thread's tree together), and never more than 2**31.
constexpr uint64_t kNodeBytes = 40;
uint64_t max_tree_size_limit();

}  // namespace rosen::search
