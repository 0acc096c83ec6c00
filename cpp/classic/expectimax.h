// A sound expectimax for Rosenkoenig: a draw is a chance node whose value is the uniform average
// over every card the pile can yield (R14: the pile's order is never read; the root's is hidden
// first). Decision nodes maximise for the root mover's colour and minimise otherwise (R13: teams
// share a colour), with alpha-beta windows; chance nodes prune with Ballard's Star1 and Star2
// using evaluate()'s bounds [-kWinValue, +kWinValue] (a finished game). Iterative deepening runs
// depth 1, 2, ... up to `depth`, or until `time_ms` is spent (then the deepest completed
// iteration's move is played; depth 1 always completes); each iteration orders moves by the
// transposition table's move (the previous iteration's best), then by the evaluation right after
// the move (best for the mover first), then by legal_moves' order.
//
// The transposition table is keyed by a Zobrist hash of the public state only: board, crown,
// hands, heroes, discard, the pile as a set, side to move and the rules (never the pile's order).
// Its entries cut off only at the same remaining depth, so the value of a depth-N search is
// exactly the depth-N expectimax value with or without the table (no search instability).
// Each entry also records whether its subtree met a depth-limited leaf, so that a table cut-off
// does not hide that an iteration was exact (ClassicResult::exact); solve() lets such resolved
// entries (game values, depth-independent) cut off at any remaining depth.
#pragma once
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>

#include "classic/evaluation.h"
#include "classic/params.h"
#include "learning/network.h"
#include "rosenkoenig/position.h"

namespace rosen::classic {

// Zobrist hash of the public state of pos (see above).
uint64_t public_hash(const Position& pos);

class Expectimax {
public:
    // With a network, an unfinished leaf is valued by it instead of evaluate(): (2 * win
    // probability - 1) * kNetworkScale from the root's colour, a finished game +-kNetworkScale
    // or 0, so that chance nodes average probabilities (and Star1/Star2 get tight bounds).
    static constexpr double kNetworkScale = 1000.0;
    explicit Expectimax(const ExpectimaxParams& params,  // throws ArgumentError naming a bad field
                        std::shared_ptr<const learning::Network> network = nullptr);
    ~Expectimax();
    // Throws ArgumentError("position") if pos is over. Keeps the table between searches. Calls on
    // one searcher from several threads (search, solve, reset) run one at a time: the table and a
    // search's budget and counters are members.
    ClassicResult search(const Position& pos);
    // An exact solve (an endgame solver for other searches): iterative deepening from depth 1 until
    // an iteration is exact (ClassicResult::exact), or until max_nodes positions are visited or the
    // deadline passes, whichever comes first; the parameters' own budget is not used. With a node
    // budget only (no deadline) the result is a function of the position and the table. exact is
    // false when the budget ran out first; the move and value are then the last completed
    // iteration's. `stop`, when given and set (from any thread), ends it like the budget.
    // Throws ArgumentError("position") if pos is over.
    ClassicResult solve(const Position& pos, uint64_t max_nodes,
                        std::optional<std::chrono::steady_clock::time_point> deadline = std::nullopt,
                        const std::atomic<bool>* stop = nullptr);
    void reset();  // clears the table
    // Ends the running search (as its time budget would: the deepest completed iteration plays),
    // or else the next one at once; from any thread. Each search clears the request as it returns;
    // clear_stop() withdraws one that no search has honoured yet.
    void stop() { interrupted_.store(true); }
    void clear_stop() { interrupted_.store(false); }
    const ExpectimaxParams& params() const { return params_; }

private:
    struct Entry;
    double value(const Position& pos, int depth, double alpha, double beta);
    double leaf(const Position& pos) const;  // a leaf's value from the root's colour
    enum class Mode { Root, Full, Probe };
    double decision(const Position& pos, int depth, double alpha, double beta, Mode mode, Move* move_out,
                    Move known_move = kNoMove, double known_value = 0, bool known_resolved = true);
    double chance(const Position& pos, int depth, double alpha, double beta);
    int order_moves(const Position& pos, Move tt_move, Move* out) const;
    Entry* probe_table(uint64_t key);
    void store(uint64_t key, int depth, double v, double alpha, double beta, Move best, bool resolved);
    bool budget_spent() const;   // the node limit, the stop flag or the deadline, checked now
    bool out_of_budget() const;  // budget_spent() at the cadence an iteration can afford
    // Iterative deepening to depth `last` (stopping early when an iteration is exact), the first
    // iteration always completed; the budget: node_limit_ (0 = none) and deadline_ if timed_.
    ClassicResult run(const Position& given, int last, std::chrono::steady_clock::time_point start);

    ExpectimaxParams params_;
    std::shared_ptr<const learning::Network> network_;
    double lower_bound_ = kLowerBound, upper_bound_ = kUpperBound;  // every leaf value lies within
    std::unique_ptr<Entry[]> table_;
    uint64_t table_mask_ = 0;   // entries - 1 (a power of two); no table when table_ is null
    uint64_t nodes_ = 0;
    int root_colour_ = 0;
    bool aborted_ = false;
    bool limit_hit_ = false;    // met a depth-limited leaf, or a table cut-off by an entry whose subtree did
    std::chrono::steady_clock::time_point deadline_;
    bool timed_ = false;
    uint64_t node_limit_ = 0;  // solve(): abort an iteration once this many nodes are visited; 0 = none
    const std::atomic<bool>* stop_ = nullptr;  // solve(): abort when set
    bool solving_ = false;  // solve(): resolved table entries cut off at any remaining depth
    bool can_abort_ = false;  // the first iteration always completes
    Move root_hint_ = kNoMove;  // the previous iteration's best move, searched first at the root
    std::mutex busy_;  // held by search, solve and reset
    std::atomic<bool> interrupted_{false};  // stop(): search's own stop request
};

}  // namespace rosen::classic
