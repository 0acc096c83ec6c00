// The MCTS engine: a persistent Searcher that owns one tree per thread (root parallelism: the
// trees grow independently from differently seeded generators and their root statistics are
// merged), reuses its trees when the next position lies below the last root, can be stopped
// from another thread, and reports what an engine user reads (PROTOCOL.md analysis fields).
#pragma once
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "classic/expectimax.h"
#include "learning/network.h"
#include "rosenkoenig/position.h"
#include "search/params.h"
#include "search/tree.h"

namespace rosen::search {

// One root move. Values are from the view of the side to move at the root.
struct MoveInfo {
    Move move = kNoMove;
    uint64_t visits = 0;
    double winrate = 0.5;  // mean reward, 0..1
    double prior = 0.0;    // the policy's probability
    double score = 0.0;    // expected final score margin, own minus opponent
    std::vector<Move> pv;  // this move and the most visited line after it, to the first draw
};
static_assert(sizeof(Node) == kNodeBytes, "params.h states the node size used for memory limits");

struct SearchResult {
    Move best_move = kNoMove;       // the most visited root move
    std::vector<MoveInfo> moves;    // most visited first
    std::vector<Move> pv;           // most visited line, ending at the first draw (its card is unknown)
    double depth = 0.0;             // mean plies inside the tree per iteration
    int seldepth = 0;               // the deepest of them
    uint64_t tree_size = 0;         // nodes in the trees (all threads)
    uint64_t iterations = 0;        // playouts of this search
    uint64_t reused_visits = 0;     // root visits kept from the previous search (tree reuse)
    double nps = 0.0;               // iterations per second
    double time_ms = 0.0;
    double winrate = 0.5;           // of the best move (proven: the exact expected result, 0..1)
    double score = 0.0;             // expected margin of the best move
    // The endgame solver (params.h: solve_share) proved the position's value: winrate is then that
    // exact value and best_move a move that attains it (the solver's, or the tree's when every move
    // loses for certain); moves and pv stay the tree's, the best move first.
    bool proven = false;
};

class Searcher {
public:
    // Throws ArgumentError (params.h: validate) if p cannot be searched with. With a network the
    // search is guided by it (tree.h: PUCT over its priors, its value at the leaves); the network
    // is shared, read-only, by every thread (and by other searchers).
    explicit Searcher(const SearchParams& p, std::shared_ptr<const learning::Network> network = nullptr);

    // Searches `position` with the parameters' budget. The pile order is hidden first (R14).
    // When the position is the last root or lies a few plies below it in the tree, that subtree
    // is kept. Throws ArgumentError if the game is over. One search at a time.
    SearchResult search(const Position& position);
    // The same with this call's own budget (0 = no limit; not both 0) and random stream. An
    // engine that searches in slices (to report progress between them) gives each slice its
    // budget and a new stream, so that slices do not replay the same random numbers.
    // Stream 0 with the parameters' budget is exactly search(position).
    SearchResult search(const Position& position, uint64_t iterations, uint64_t time_ms, uint64_t stream);
    // Asks the running search to end within an iteration; callable from any thread. The request
    // stays until a search has honoured it: when no search is running, the next one to start
    // returns at once (with zero iterations), so a stop sent just before search() is never lost.
    // Every search clears the request when it returns.
    void stop() { stop_.store(true, std::memory_order_relaxed); }
    // Withdraw a stop request that no search has honoured yet.
    void clear_stop() { stop_.store(false, std::memory_order_relaxed); }
    bool stop_requested() const { return stop_.load(std::memory_order_relaxed); }
    // Forget the trees (e.g. a new game).
    void reset();
    // The next search moves its kept trees to a new root only if that takes at most half of
    // `time_ms` (estimated from their size; 0: no limit); else it starts afresh. search(position)
    // sets it from the parameters' time budget; an engine that searches a move in slices calls
    // it with the move's whole budget before the first.
    void limit_reuse(uint64_t time_ms);
    // Self-play exploration (AlphaZero's Dirichlet noise at the root): the next search only mixes
    // noise[k] into the prior of the k-th root move (legal_moves order; count must be their number,
    // else that search throws ArgumentError "noise"): prior = (1 - fraction) * prior + fraction *
    // noise[k]. Priors steer the first visits and, with prior_weight > 0, every selection. Never
    // called, the search is unchanged; each search clears the request.
    void set_root_noise(const float* noise, int count, float fraction);

private:
    SearchResult collect(const std::vector<TreeStats>& stats, double seconds, uint64_t reused) const;
    // The endgame solver's exact result for root, or nullopt when it is off, the root is too far from
    // the end, or its share of this search's budget ran out before a proof.
    std::optional<classic::ClassicResult> solve(const Position& root, uint64_t iterations, uint64_t time_ms,
                                                std::chrono::steady_clock::time_point start);
    // Puts the proven move first in r and takes the solver's value.
    static void apply_proof(SearchResult& r, const classic::ClassicResult& proof);

    SearchParams params_;
    std::shared_ptr<const learning::Network> network_;
    std::vector<std::unique_ptr<Tree>> trees_;
    std::unique_ptr<classic::Expectimax> solver_;  // made at the first solve; its table kept like the trees
    bool rooted_ = false;
    uint64_t reuse_budget_ms_ = 0;  // limit_reuse's, for the next search only
    std::atomic<bool> stop_{false};
    std::mutex searching_;
    float root_noise_[12] = {};  // set_root_noise: one search's root noise (12 = MoveList's room)
    int root_noise_count_ = 0;   // 0: none
    float root_noise_fraction_ = 0.0f;
};

}  // namespace rosen::search
