// Every knob of the MCTS search in one struct with named fields and defaults (mirrored in Python
// as keyword arguments of rosen.SearchParams). validate() is the single place that checks values.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

namespace rosen::search {

enum class RolloutPolicy : uint8_t {
    Random,     // uniformly random legal moves (plain UCT)
    Heuristic,  // territory-aware softmax policy (evaluator.h)
};

enum class RewardKind : uint8_t {
    Win,     // 1 win, 1/2 draw, 0 loss (R12), optionally blended with the margin by margin_weight
    Margin,  // a squashed score margin only: 1/2 + tanh(margin / scale) / 2
};

struct SearchParams {
    uint64_t iterations = 1000;   // total playouts over all threads; 0 = no limit (time_ms must be set)
    uint64_t time_ms = 0;         // wall-clock budget; 0 = no limit (iterations must be set)
    double exploration = 0.5;     // UCT constant c in q + c * sqrt(ln N / n), rewards in [0, 1]
    double prior_weight = 0.0;    // progressive bias: + prior_weight * prior / (n + 1) in selection
    RolloutPolicy rollout = RolloutPolicy::Heuristic;
    int rollout_cutoff = 0;       // plies after which a rollout stops and is evaluated; 0 = play to the end
    RewardKind reward = RewardKind::Win;
    double margin_weight = 0.0;   // with Win: reward = (1 - w) * win + w * squashed margin, w in [0, 1]
    int threads = 1;              // root parallelism: one tree per thread, statistics merged at the root
    uint64_t seed = 0;            // one thread + a seed + an iteration budget = a reproducible search
    uint64_t max_nodes = 1'000'000;  // arena size over all threads; expansion stops when it is full

    // Game knowledge of the heuristic policy and of the cut-off evaluation (evaluator.h), in score
    // points (R11). Defaults come from the tuning runs recorded in docs/search.md.
    double temperature = 4.0;     // softmax temperature over move values; lower is greedier
    double hero_cost = 25.0;      // what spending a hero is worth when nothing else changes
    double draw_value = 2.0;      // value of drawing (a fuller hand) against a play
    double block_weight = 1.0;    // share of what the opponent would gain on a square, for taking it
    double eval_scale = 20.0;     // margin (points) that makes a cut-off position about a 73% win
};

// A rejected value: the field's name (as in Python) and a message a user can act on.
struct ParamError {
    std::string field;
    std::string message;
};

// nullopt when the parameters can be searched with.
std::optional<ParamError> validate(const SearchParams& p);

}  // namespace rosen::search
