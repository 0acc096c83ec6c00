#include "selfplay/selfplay.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <exception>
#include <limits>
#include <memory>
#include <string>

#include "common/number_text.h"
#include "common/threads.h"
#include "search/mcts.h"
#include "selfplay/agents.h"

namespace rosen::selfplay {

namespace {

using Clock = std::chrono::steady_clock;

void check_range(const char* field, double value, double low, double high) {
    if (!(value >= low && value <= high))  // written so that NaN fails
        throw ArgumentError(field, std::string(field) + ": expected " + number_text(low) + ".." + number_text(high) + ", got " +
                                       number_text(value));
}

// Rows a worker is likely to write: a 2-player game has about 110 plies, most with a choice.
constexpr uint64_t kRowsPerGameGuess = 128;

// One worker: its own searcher and buffers; plays whole games, one after another.
class Player {
public:
    Player(const Config& config, WorkerBuffers& out) : cfg_(config), out_(out) {
        if (cfg_.agent == AgentKind::Mcts) searcher_ = std::make_unique<search::Searcher>(cfg_.search, cfg_.network);
    }

    void play(uint64_t game, uint32_t worker, GameResult& result) {
        result.game = game;
        result.deal_seed = deal_seed(cfg_.seed, game);
        result.worker = worker;
        result.first_row = out_.rows.size();
        result.first_move = out_.moves.size();
        Position pos = new_game(cfg_.rules, result.deal_seed);
        Rng cards(mix_seed(result.deal_seed, kCardStream));
        if (searcher_) searcher_->reset();  // a game never sees another's tree
        int ply = 0;
        while (!pos.over) {
            const MoveList moves = legal_moves(pos);
            const Move m = moves.size > 1 ? decide(pos, moves, result, ply) : moves[0];
            out_.moves.push_back(play_dealt(pos, m, cards));
            ++ply;
        }
        result.rows = uint32_t(out_.rows.size() - result.first_row);
        result.plies = uint32_t(ply);
        result.outcome = outcome(pos);
        result.scores[kRed] = score(pos.tokens[kRed]);
        result.scores[kWhite] = score(pos.tokens[kWhite]);
    }

    double search_seconds = 0.0;

private:
    // Chooses the move at a position with a choice, writing its row unless it is an unrecorded
    // cheap search.
    Move decide(const Position& pos, const MoveList& moves, GameResult& result, int ply) {
        const uint64_t decision = decision_seed(result.deal_seed, ply);
        Rng rng(mix_seed(decision ^ kChoiceStream, cfg_.agent_seed));
        Row row;
        row.position = public_view(pos);
        row.ply = ply;
        if (cfg_.agent != AgentKind::Mcts) {
            row.choice = uint8_t(cfg_.agent == AgentKind::Random ? random_choice(moves, rng)
                                                                 : greedy_choice(row.position, moves, rng));
            row.visits[row.choice] = 1;
            row.root_value = row.root_margin = std::numeric_limits<float>::quiet_NaN();
            out_.rows.push_back(row);
            return moves[row.choice];
        }
        // The coin is tossed only when it can come up cheap, so p = 1 leaves the generator alone.
        row.full_search = cfg_.full_search_probability >= 1.0 || rng.uniform() < cfg_.full_search_probability;
        if (row.full_search && cfg_.dirichlet_fraction > 0.0) {
            float noise[12];
            dirichlet(cfg_.dirichlet_alpha, moves.size, rng, noise);
            searcher_->set_root_noise(noise, moves.size, float(cfg_.dirichlet_fraction));
        }
        const uint64_t budget = row.full_search ? cfg_.search.iterations : cfg_.cheap_iterations;
        const auto start = Clock::now();
        const search::SearchResult r = searcher_->search(row.position, budget, 0, decision);
        search_seconds += std::chrono::duration<double>(Clock::now() - start).count();
        result.iterations += r.iterations;
        double visits = 0, value = 0, margin = 0;
        int best = 0;
        for (const search::MoveInfo& info : r.moves) {
            const int k = int(std::find(moves.begin(), moves.end(), info.move) - moves.begin());
            row.visits[k] = uint32_t(std::min<uint64_t>(info.visits, 0xFFFFFFFFu));
            visits += double(info.visits);
            value += double(info.visits) * info.winrate;
            margin += double(info.visits) * info.score;
            if (info.move == r.best_move) best = k;
        }
        row.root_value = visits > 0 ? float(value / visits) : 0.5f;
        row.root_margin = visits > 0 ? float(margin / visits) : 0.0f;
        row.choice = uint8_t(best);
        if (row.full_search && ply < cfg_.temperature_plies)
            row.choice = uint8_t(sample_by_visits(row.visits, moves.size, cfg_.temperature, rng));
        if (row.full_search || cfg_.record_cheap) out_.rows.push_back(row);
        return moves[row.choice];
    }

    const Config& cfg_;
    WorkerBuffers& out_;
    std::unique_ptr<search::Searcher> searcher_;
};

}  // namespace

void validate(const Config& c) {
    if (c.rules.players != 2 && c.rules.players != 4)
        throw ArgumentError("players", "players: expected 2 or 4, got " + std::to_string(c.rules.players));
    check_range("threads", c.threads, 1, kMaxThreads);
    check_range("temperature", c.temperature, 0.01, 100);
    check_range("temperature_plies", c.temperature_plies, 0, kMaxTemperaturePlies);
    check_range("dirichlet_alpha", c.dirichlet_alpha, 0.001, 100);
    check_range("dirichlet_fraction", c.dirichlet_fraction, 0, 1);
    check_range("full_search_probability", c.full_search_probability, 0, 1);
    check_range("cheap_iterations", double(c.cheap_iterations), 1, double(kMaxCheapIterations));
    if (c.agent == AgentKind::Mcts) {
        search::validate(c.search);
        if (c.search.threads != 1)
            throw ArgumentError("threads", "threads: a self-play search runs on one thread (games run in parallel); got " +
                                               std::to_string(c.search.threads));
        if (c.search.time_ms != 0 || c.search.iterations == 0)
            throw ArgumentError("time_ms", "time_ms: self-play searches by iterations only (a time budget is not "
                                           "reproducible); give iterations=N and no time_ms");
        return;
    }
    // The knobs below steer a search; an agent that does not search would silently ignore them.
    if (c.temperature_plies != 0)
        throw ArgumentError("temperature_plies", "temperature_plies: only the mcts agent has visit counts to sample");
    if (c.dirichlet_fraction != 0)
        throw ArgumentError("dirichlet_fraction", "dirichlet_fraction: only the mcts agent has root priors to perturb");
    if (c.full_search_probability != 1)
        throw ArgumentError("full_search_probability", "full_search_probability: only the mcts agent searches");
}

uint64_t deal_seed(uint64_t seed, uint64_t game) { return mix_seed(seed, game); }
uint64_t decision_seed(uint64_t deal_seed, int ply) { return mix_seed(deal_seed ^ kDecisionStream, uint64_t(ply)); }

Move play_dealt(Position& pos, Move m, Rng& cards) {
    if (m != kDraw) {
        apply_move(pos, m);
        return m;
    }
    const int card = deal_card(pos, cards);
    apply_draw(pos, card);
    return draw_card_move(card);
}

Batch generate(const Config& config, uint64_t first_game, uint64_t count, const std::atomic<bool>* stop) {
    validate(config);
    const auto start = Clock::now();
    Batch batch;
    batch.rules = config.rules;
    batch.games.resize(count);
    const int threads = int(std::min<uint64_t>(uint64_t(config.threads), std::max<uint64_t>(count, 1)));
    batch.workers.resize(size_t(threads));
    std::vector<double> search_seconds(size_t(threads), 0.0);
    std::vector<std::exception_ptr> errors(static_cast<size_t>(threads));
    std::atomic<uint64_t> next{0};
    std::atomic<bool> failed{false};
    auto work = [&](int t) {
        try {
            WorkerBuffers& out = batch.workers[size_t(t)];
            const uint64_t share = count / uint64_t(threads) + 1;
            out.rows.reserve(size_t(std::min<uint64_t>(share * kRowsPerGameGuess, uint64_t(1) << 22)));
            out.moves.reserve(size_t(std::min<uint64_t>(share * kRowsPerGameGuess, uint64_t(1) << 24)));
            Player player(config, out);
            for (uint64_t k; !failed.load(std::memory_order_relaxed) &&
                             !(stop && stop->load(std::memory_order_relaxed)) && (k = next.fetch_add(1)) < count;)
                player.play(first_game + k, uint32_t(t), batch.games[k]);
            search_seconds[size_t(t)] = player.search_seconds;
        } catch (...) {
            errors[size_t(t)] = std::current_exception();
            failed.store(true);
        }
    };
    run_in_parallel(threads, work);
    for (const auto& e : errors)
        if (e) std::rethrow_exception(e);
    if (stop && stop->load()) {  // games may be missing: the caller keeps none of it
        batch.stopped = true;
        return batch;
    }
    for (const GameResult& g : batch.games) {
        batch.rows += g.rows;
        batch.plies += g.plies;
        batch.iterations += g.iterations;
    }
    for (double s : search_seconds) batch.search_seconds += s;
    batch.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return batch;
}

}  // namespace rosen::selfplay
