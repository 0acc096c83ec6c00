// The VecEnv's built-in opponent: self-play's agents (random, greedy, MCTS; selfplay/agents.h)
// deciding from what a player may know (public_view, R14), each decision seeded as self-play seeds
// it, so an opponent's move is a function of the game and the opponent's seed alone -- the same
// for any number of threads and any other environment in the batch.
#pragma once
#include <cstdint>
#include <memory>

#include "env/game.h"
#include "learning/network.h"
#include "search/mcts.h"
#include "selfplay/selfplay.h"

namespace rosen::env {

struct OpponentConfig {
    selfplay::AgentKind kind = selfplay::AgentKind::Random;
    uint64_t seed = 0;             // the agent spec's seed option (mcts: SearchParams::seed as well)
    search::SearchParams search;   // mcts only: one thread, a budget of iterations (reproducible)
    std::shared_ptr<const learning::Network> network;  // mcts only: guides the search (null: rollouts)
};

// Throws ArgumentError naming the first field that cannot be used.
void validate(const OpponentConfig& config);

// One per worker thread: a searcher is reused, its tree reset before every search so that no
// decision depends on the environment searched before.
class Opponent {
public:
    explicit Opponent(const OpponentConfig& config);
    // The action the opponent plays in `game` (not over).
    int choose(const Game& game);

private:
    OpponentConfig cfg_;
    std::unique_ptr<search::Searcher> searcher_;
};

}  // namespace rosen::env
