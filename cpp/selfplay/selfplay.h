// Self-play: games [first_game, first_game + count) of a run, for training data. Game i is a
// function of (seed, i, agent configuration, rules) alone: T worker threads take game indices from
// a shared counter and each game's output is filed under its index, so the result is the same,
// byte for byte, for any number of threads. Records: docs/selfplay.md, "Shards" (columns.h).
//
// Seeds (every one derived from the run seed with mix_seed, rng.h):
//   deal       new_game(rules, deal_seed), deal_seed = mix_seed(seed, i) (as rosen.random_play)
//   cards      every draw's card is dealt from Rng(mix_seed(deal_seed, kCardStream)): the top of
//              the dealt pile while it lasts, then uniform over the reshuffled pile (R7)
//   decision   decision_seed(deal_seed, ply) = mix_seed(deal_seed ^ kDecisionStream, ply); the
//              search runs with stream = decision_seed (its generator: mix_seed(params.seed,
//              decision_seed), mcts.h), and the choice generator Rng(mix_seed(decision_seed ^
//              kChoiceStream, agent_seed)) breaks greedy ties, picks random moves, tosses the
//              playout-cap coin, draws Dirichlet noise and samples by visit counts.
// Every search sees public_view(position) only (R14).
//
// A decision is a position whose mover has two or more legal moves; a forced move (a lone pass,
// draw or play) is played without a search and writes no row.
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "learning/network.h"
#include "rosenkoenig/position.h"
#include "search/params.h"

namespace rosen::selfplay {

constexpr int kActions = 50;  // Move bytes 0..49: plays, heroes, draw, pass
constexpr uint64_t kCardStream = 0x63617264ull;       // "card"
constexpr uint64_t kDecisionStream = 0x6465636973ull; // "decis"
constexpr uint64_t kChoiceStream = 0x63686f696365ull; // "choice"

enum class AgentKind : uint8_t { Random, Greedy, Mcts };

struct Config {
    Rules rules;
    uint64_t seed = 0;
    AgentKind agent = AgentKind::Mcts;
    uint64_t agent_seed = 0;       // the agent spec's seed option (mcts: SearchParams::seed as well)
    search::SearchParams search;   // mcts: the agent's parameters; threads must be 1, time_ms 0
    std::shared_ptr<const learning::Network> network;  // mcts: the network guiding every search, if any
    // Exploration of the mcts agent, each off by default.
    double temperature = 1.0;      // for the first temperature_plies plies (full searches): a move
    int temperature_plies = 0;     // drawn with probability ~ visits^(1/temperature)
    double dirichlet_alpha = 0.3;  // full searches: Dirichlet(alpha) noise mixed into the root
    double dirichlet_fraction = 0.0;  // priors with this weight (Searcher::set_root_noise)
    double full_search_probability = 1.0;  // playout cap: else a cheap search of cheap_iterations,
    uint64_t cheap_iterations = 100;       // which plays the most visited move and writes a row
    bool record_cheap = false;             // only with record_cheap (weight 0, full_search false)
    int threads = 1;               // workers; parallelism is across games
};

// The ranges validate() checks (the bindings convert to them, so both ends say the same).
constexpr int kMaxThreads = 256;
constexpr int kMaxTemperaturePlies = 100000;
constexpr uint64_t kMaxCheapIterations = 1000000000000000;  // 1e15

// Throws ArgumentError naming the first field that cannot be used.
void validate(const Config& config);

uint64_t deal_seed(uint64_t seed, uint64_t game);
uint64_t decision_seed(uint64_t deal_seed, int ply);

// Plays the legal move m, a plain draw taking its card from `cards` (deal_card: the top of a
// known pile, else uniform); returns the move as recorded, a draw as draw_card_move(card).
Move play_dealt(Position& pos, Move m, Rng& cards);

// One recorded decision; fixed size. The game's result is filed with its GameResult.
struct Row {
    Position position;          // public_view of the position decided in: never the pile order
    uint32_t visits[12] = {};   // per legal move in legal_moves order (not searching: 1 on the choice)
    float root_value = 0.0f;    // visit-weighted mean winrate of the root moves, mover's view (NaN: no search)
    float root_margin = 0.0f;   // the same for the expected final score margin
    int32_t ply = 0;            // moves (draws and passes included) before this decision
    uint8_t choice = 0;         // index into legal_moves of the move played
    bool full_search = true;
};

struct GameResult {
    uint64_t game = 0, deal_seed = 0;
    uint32_t worker = 0;                   // whose buffers hold the game's rows and moves
    uint64_t first_row = 0, first_move = 0;
    uint32_t rows = 0, plies = 0;
    Outcome outcome = Outcome::None;
    int scores[2] = {0, 0};                // red, white (R11)
    uint64_t iterations = 0;               // search iterations over the game's decisions
};

struct WorkerBuffers {
    std::vector<Row> rows;
    std::vector<Move> moves;  // plays, heroes, passes and draw_card_move(card) for each draw
};

struct Batch {
    Rules rules;
    std::vector<GameResult> games;  // game first_game + k at k
    std::vector<WorkerBuffers> workers;
    uint64_t rows = 0, plies = 0, iterations = 0;
    double seconds = 0;         // wall clock of the whole batch
    double search_seconds = 0;  // inside Searcher::search, summed over workers
    bool stopped = false;       // generate's stop flag ended it early: the games are incomplete
};

// Plays the games; validates the configuration first. Rethrows the first error a worker met.
// `stop`, when given and set (from any thread), ends it once the games being played are over;
// the batch is then `stopped` and incomplete (a Ctrl-C: nothing of it is kept).
Batch generate(const Config& config, uint64_t first_game, uint64_t count,
               const std::atomic<bool>* stop = nullptr);

}  // namespace rosen::selfplay
