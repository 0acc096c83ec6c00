#include "env/opponent.h"

#include <string>

#include "selfplay/agents.h"

namespace rosen::env {

void validate(const OpponentConfig& c) {
    if (c.network && c.kind != selfplay::AgentKind::Mcts)
        throw ArgumentError("network", "network: only the mcts opponent searches with a network");
    if (c.kind != selfplay::AgentKind::Mcts) return;
    search::validate(c.search);
    if (c.search.threads != 1)
        throw ArgumentError("threads", "threads: the opponent searches on one thread (environments run in parallel); "
                                       "got " + std::to_string(c.search.threads));
    if (c.search.time_ms != 0 || c.search.iterations == 0)
        throw ArgumentError("time_ms", "time_ms: the opponent searches by iterations only (a time budget is not "
                                       "reproducible); give iterations=N and no time_ms");
}

Opponent::Opponent(const OpponentConfig& config) : cfg_(config) {
    if (cfg_.kind == selfplay::AgentKind::Mcts) searcher_ = std::make_unique<search::Searcher>(cfg_.search, cfg_.network);
}

int Opponent::choose(const Game& game) {
    const Position view = public_view(game.position());
    const MoveList moves = legal_moves(view);
    if (moves.size == 1) return features::action_of(moves[0]);
    const uint64_t decision = selfplay::decision_seed(game.deal_seed(), game.plies());
    Rng rng(mix_seed(decision ^ selfplay::kChoiceStream, cfg_.seed));
    switch (cfg_.kind) {
        case selfplay::AgentKind::Random: return features::action_of(moves[selfplay::random_choice(moves, rng)]);
        case selfplay::AgentKind::Greedy: return features::action_of(moves[selfplay::greedy_choice(view, moves, rng)]);
        case selfplay::AgentKind::Mcts: break;
    }
    searcher_->reset();
    return features::action_of(searcher_->search(view, cfg_.search.iterations, 0, decision).best_move);
}

}  // namespace rosen::env
