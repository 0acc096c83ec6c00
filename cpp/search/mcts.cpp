#include "search/mcts.h"

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>
#include <utility>

#include "common/threads.h"
#include "rosenkoenig/rng.h"

namespace rosen::search {

namespace {

using Clock = std::chrono::steady_clock;

// The clock is read every few iterations only; even heuristic playouts take microseconds, so
// a time budget is kept to well under a millisecond.
constexpr uint64_t kClockEvery = 8;

// Moving a kept tree to a new root (Tree::reroot) walks and compacts it: about 40 to 70 ns a node
// of the old tree measured, taken as 100. A stop abandons it (the tree starts afresh), but the
// clock is not read meanwhile, so under a time budget a tree whose move could take more than this
// share of it is dropped instead (a fresh tree costs nothing to start): a clock's allotment of a
// few milliseconds after a long search kept millions of nodes once took seconds (lost on time).
// A search by iterations alone always keeps its tree.
constexpr double kRerootNsPerNode = 100.0;
constexpr double kRerootShare = 0.5;

double mover_view(double red_value, int colour) { return colour == kRed ? red_value : 1.0 - red_value; }
double mover_margin(double red_margin, int colour) { return colour == kRed ? red_margin : -red_margin; }

// The most visited line from node n (whose move comes first), ending at the first draw: the
// card drawn there is unknown, so nothing after it is a line the players will see.
std::vector<Move> line_from(const Tree& tree, uint32_t n) {
    std::vector<Move> line{tree.node(n).move};
    while (!tree.node(n).chance && line.size() < 64) {
        const uint32_t next = tree.most_visited_child(n);
        if (next == kNoChild || tree.node(next).visits == 0) break;
        n = next;
        line.push_back(tree.node(n).move);
    }
    return line;
}

}  // namespace

Searcher::Searcher(const SearchParams& p, std::shared_ptr<const learning::Network> network)
    : params_(p), network_(std::move(network)) {
    validate(p);
    const uint64_t per_tree = p.max_tree_size / uint64_t(p.threads);
    for (int t = 0; t < p.threads; ++t) trees_.push_back(std::make_unique<Tree>(per_tree, network_.get()));
}

void Searcher::reset() {
    std::lock_guard<std::mutex> lock(searching_);
    rooted_ = false;
    if (solver_) solver_->reset();
}

void Searcher::set_root_noise(const float* noise, int count, float fraction) {
    if (count < 0 || count > 12) throw ArgumentError("noise", "noise: expected 0..12 values");
    std::lock_guard<std::mutex> lock(searching_);
    std::copy(noise, noise + count, root_noise_);
    root_noise_count_ = count;
    root_noise_fraction_ = fraction;
}

SearchResult Searcher::search(const Position& position) {
    limit_reuse(params_.time_ms);
    return search(position, params_.iterations, params_.time_ms, 0);
}

void Searcher::limit_reuse(uint64_t time_ms) {
    std::lock_guard<std::mutex> lock(searching_);
    reuse_budget_ms_ = time_ms;
}

SearchResult Searcher::search(const Position& position, uint64_t iterations, uint64_t time_ms, uint64_t stream) {
    if (iterations == 0 && time_ms == 0)
        throw ArgumentError("iterations", "iterations: both iterations and time_ms are 0; set at least one budget");
    // This call's budget bypasses SearchParams' checks: held to the same ranges (a larger time_ms
    // overflowed the deadline into the past, and the search returned at once).
    if (iterations > kMaxIterations)
        throw ArgumentError("iterations", "iterations: expected 0.." + std::to_string(kMaxIterations) + ", got " +
                                              std::to_string(iterations));
    if (time_ms > kMaxTimeMs)
        throw ArgumentError("time_ms", "time_ms: expected 0.." + std::to_string(kMaxTimeMs) + ", got " +
                                           std::to_string(time_ms));
    std::lock_guard<std::mutex> lock(searching_);
    // Nothing below ever sees the pile order: the root is a public view (R14).
    const Position root = public_view(position);
    if (root.over) throw ArgumentError("position", "position: the game is over; there is nothing to search");
    const int noise_count = root_noise_count_;  // this search's only
    root_noise_count_ = 0;
    if (noise_count && noise_count != legal_moves(root).size)
        throw ArgumentError("noise", "noise: " + std::to_string(noise_count) + " values for " +
                                         std::to_string(legal_moves(root).size) + " root moves");
    const auto start = Clock::now();
    // The endgame solver goes first, with its share of the budget; the tree gets the rest.
    const std::optional<classic::ClassicResult> proof = solve(root, iterations, time_ms, start);
    // This search's parameters: the defaults that depend on the game and the network resolved.
    SearchParams params = params_;
    params.minimax_weight = minimax_weight_of(params_, network_ != nullptr, root.players());
    params.minimax_values = minimax_values_of(params_, network_ != nullptr);
    params.network_value_weight = network_value_weight_of(params_, root.players());
    // Keep the trees, unless moving them to a new root costs more than the budget allows, or a
    // stop is already waiting (the search returns at once: no reason to move them first).
    const uint64_t reuse_budget_ms = reuse_budget_ms_;
    reuse_budget_ms_ = 0;
    bool keep = rooted_;
    if (keep && !same_public_state(trees_[0]->root_position(), root)) {
        uint64_t nodes = 0;
        for (const auto& tree : trees_) nodes += tree->size();
        const double cost_ms = double(nodes) * kRerootNsPerNode * 1e-6;
        if (stop_.load(std::memory_order_relaxed) ||
            (reuse_budget_ms && cost_ms > double(reuse_budget_ms) * kRerootShare))
            keep = false;
    }
    uint64_t reused = 0;
    for (auto& tree : trees_) {
        if (!keep || !tree->reroot(root, &stop_)) tree->reset(root);
        tree->prepare_root(params);
        if (noise_count) tree->mix_root_priors(root_noise_, root_noise_fraction_);
        reused += tree->root().visits;
    }
    rooted_ = true;

    const auto tree_start = Clock::now();
    const auto deadline = start + std::chrono::milliseconds(time_ms);
    std::atomic<uint64_t> started{0};
    std::vector<TreeStats> stats(trees_.size());
    auto work = [&](size_t t) {
        // Each thread its own stream; with one thread the search is a function of (position, seed).
        Rng rng(mix_seed(params_.seed, t + stream * trees_.size()));
        Tree& tree = *trees_[t];
        for (uint64_t i = 0;; ++i) {
            if (stop_.load(std::memory_order_relaxed)) break;
            if (iterations && started.fetch_add(1, std::memory_order_relaxed) >= iterations) break;
            if (time_ms && i % kClockEvery == 0 && Clock::now() >= deadline) break;
            tree.iterate(params, rng, stats[t]);
        }
    };
    run_in_parallel(int(trees_.size()), [&](int t) { work(size_t(t)); });
    stop_.store(false, std::memory_order_relaxed);  // honoured (or not needed): see stop()
    const auto end = Clock::now();
    SearchResult r = collect(stats, std::chrono::duration<double>(end - tree_start).count(), reused);
    r.time_ms = std::chrono::duration<double, std::milli>(end - start).count();
    if (proof) apply_proof(r, *proof);
    return r;
}

std::optional<classic::ClassicResult> Searcher::solve(const Position& root, uint64_t iterations, uint64_t time_ms,
                                                      Clock::time_point start) {
    const double share = params_.solve_share;
    if (share <= 0 || root.supply() > kSolveSupply) return std::nullopt;
    std::optional<Clock::time_point> deadline;
    uint64_t nodes = 0;  // 0: no node limit
    // Each budget given bounds the solver too: as for the search, the first limit reached ends it.
    if (time_ms) deadline = start + std::chrono::microseconds(uint64_t(double(time_ms) * 1000.0 * share));
    if (iterations)
        nodes = std::max<uint64_t>(1, uint64_t(double(iterations) * double(kSolveNodesPerIteration) * share));
    if (!solver_) {
        classic::ExpectimaxParams ep;
        ep.depth = 1;     // unused: solve() has its own budget
        ep.tt_mb = 4;     // a few hundred thousand positions a solve: 4 MiB holds their decision nodes
        solver_ = std::make_unique<classic::Expectimax>(ep);
    }
    classic::ClassicResult proof = solver_->solve(root, nodes, deadline, &stop_);
    if (!proof.exact) return std::nullopt;
    return proof;
}

void Searcher::apply_proof(SearchResult& r, const classic::ClassicResult& proof) {
    r.proven = true;
    r.winrate = (proof.value / double(classic::kWinValue) + 1.0) / 2.0;
    // Every move loses for certain: the tree's choice is as good against best play, and better
    // against a player who can still go wrong.
    if (proof.value <= -double(classic::kWinValue)) return;
    const auto it = std::find_if(r.moves.begin(), r.moves.end(), [&](const MoveInfo& m) { return m.move == proof.move; });
    if (it == r.moves.end()) return;  // cannot happen: both searched the same root's legal moves
    std::rotate(r.moves.begin(), it, it + 1);
    r.best_move = proof.move;
    r.score = r.moves[0].score;
    r.pv = r.moves[0].pv;
}

SearchResult Searcher::collect(const std::vector<TreeStats>& stats, double seconds, uint64_t reused) const {
    SearchResult r;
    const Tree& first = *trees_[0];
    const Position& root = first.root_position();
    const int colour = colour_of(root.to_move);
    // Every tree has the same root, hence the same root moves in the same order.
    const Node& root_node = first.root();
    std::vector<size_t> best_tree(root_node.num_children, 0);
    for (uint32_t k = 0; k < root_node.num_children; ++k) {
        MoveInfo m;
        m.move = first.node(root_node.first_child + k).move;
        m.prior = first.node(root_node.first_child + k).prior;
        double value = 0, margin = 0;
        uint64_t most = 0;
        for (size_t t = 0; t < trees_.size(); ++t) {
            const Node& child = trees_[t]->node(trees_[t]->root().first_child + k);
            m.visits += child.visits;
            value += double(child.value) * child.visits;
            margin += double(child.margin) * child.visits;
            if (child.visits > most) {
                most = child.visits;
                best_tree[k] = t;
            }
        }
        // Each move's line follows the tree that looked at it most.
        const Tree& tree = *trees_[best_tree[k]];
        m.pv = line_from(tree, tree.root().first_child + k);
        if (m.visits) {
            m.winrate = mover_view(value / double(m.visits), colour);
            m.score = mover_margin(margin / double(m.visits), colour);
        }
        r.moves.push_back(m);
    }
    // Most visited first; ties go to the better value, then the higher prior, then move order.
    std::vector<size_t> order(r.moves.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        const MoveInfo &x = r.moves[a], &y = r.moves[b];
        if (x.visits != y.visits) return x.visits > y.visits;
        if (x.winrate != y.winrate) return x.winrate > y.winrate;
        return x.prior > y.prior;
    });
    std::vector<MoveInfo> sorted;
    for (size_t i : order) sorted.push_back(r.moves[i]);
    r.moves = std::move(sorted);
    if (!order.empty()) {
        r.best_move = r.moves[0].move;
        r.winrate = r.moves[0].winrate;
        r.score = r.moves[0].score;
        r.pv = r.moves[0].pv;
    }
    uint64_t depth_sum = 0;
    for (size_t t = 0; t < trees_.size(); ++t) {
        r.iterations += stats[t].iterations;
        depth_sum += stats[t].depth_sum;
        r.seldepth = std::max(r.seldepth, stats[t].max_depth);
        r.tree_size += trees_[t]->size();
    }
    r.depth = r.iterations ? double(depth_sum) / double(r.iterations) : 0.0;
    r.time_ms = seconds * 1000.0;
    r.nps = seconds > 0 ? double(r.iterations) / seconds : 0.0;
    r.reused_visits = reused;
    return r;
}

}  // namespace rosen::search
