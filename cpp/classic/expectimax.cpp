#include "classic/expectimax.h"

#include <algorithm>
#include <bit>
#include <limits>

#include "classic/evaluation.h"

namespace rosen::classic {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr int kMaxIterations = 64;  // with time_ms: the deepest iteration tried
enum Bound : uint8_t { kExact = 1, kLower = 2, kUpper = 3 };

// A chance node that failed high returns a lower bound (the mean so far over the children's
// bounds) that is >= beta in exact arithmetic; rounding in the sums could put it a hair below beta,
// where the caller would take it for an exact value. So it is returned as at least beta (and a
// fail-low bound as at most alpha): the caller always sees a cut-off as a cut-off.
inline double fail_high(double bound, double beta) { return std::max(bound, beta); }
inline double fail_low(double bound, double alpha) { return std::min(bound, alpha); }

struct Zobrist {
    uint64_t token[2][kSquares], crown[kSquares], hand[4][kCards], heroes[4][8], discard[kCards], pile[kCards],
        side[4], four_players, lazy;
    Zobrist() {
        Rng rng(0x636c6173736963);  // fixed: keys are the same in every process
        for (auto& colour : token)
            for (auto& k : colour) k = rng.next();
        for (auto& k : crown) k = rng.next();
        for (auto& player : hand)
            for (auto& k : player) k = rng.next();
        for (auto& player : heroes)
            for (auto& k : player) k = rng.next();
        for (auto& k : discard) k = rng.next();
        for (auto& k : pile) k = rng.next();
        for (auto& k : side) k = rng.next();
        four_players = rng.next();
        lazy = rng.next();
    }
};

const Zobrist& zobrist() {
    static const Zobrist keys;
    return keys;
}

}  // namespace

uint64_t public_hash(const Position& pos) {
    const Zobrist& z = zobrist();
    uint64_t h = 0;
    for (int c = 0; c < 2; ++c)
        for (Bitboard b = pos.tokens[c]; b; b &= b - 1) h ^= z.token[c][lowest_square(b)];
    h ^= z.crown[pos.crown];
    for (int p = 0; p < pos.players(); ++p) {
        for (CardMask m = pos.hand[p]; m; m &= m - 1) h ^= z.hand[p][std::countr_zero(m)];
        h ^= z.heroes[p][pos.heroes[p] & 7];
    }
    for (CardMask m = pos.discard; m; m &= m - 1) h ^= z.discard[std::countr_zero(m)];
    for (CardMask m = pos.pile; m; m &= m - 1) h ^= z.pile[std::countr_zero(m)];
    h ^= z.side[pos.to_move & 3];
    if (pos.players() == 4) h ^= z.four_players;
    if (pos.rules.reshuffle == Reshuffle::Lazy) h ^= z.lazy;
    return h;
}

// Values are stored from Red's side, so that an entry means the same whoever searches.
struct Expectimax::Entry {
    uint64_t key = 0;
    double value = 0;
    uint8_t depth = 0;  // 0: empty
    uint8_t bound = 0;
    Move move = kNoMove;
    bool resolved = false;  // the subtree met no depth-limited leaf: value is exact for any deeper search too
};

Expectimax::Expectimax(const ExpectimaxParams& params, std::shared_ptr<const learning::Network> network)
    : params_(params), network_(std::move(network)) {
    validate(params_);
    if (network_) {
        lower_bound_ = -kNetworkScale;
        upper_bound_ = kNetworkScale;
    }
}

double Expectimax::leaf(const Position& pos) const {
    if (!network_) return evaluate(pos, root_colour_, params_.hero_weight);
    if (pos.over) return evaluate(pos, root_colour_, params_.hero_weight) / double(kWinValue) * kNetworkScale;
    float priors[12], value, margin;
    network_->evaluate(pos, legal_moves(pos), priors, value, margin);
    const double mover = (2.0 * double(value) - 1.0) * kNetworkScale;
    return colour_of(pos.to_move) == root_colour_ ? mover : -mover;
}
Expectimax::~Expectimax() = default;

void Expectimax::reset() {
    std::lock_guard<std::mutex> lock(busy_);
    if (table_) std::fill(table_.get(), table_.get() + table_mask_ + 1, Entry{});
}

bool Expectimax::budget_spent() const {
    return (node_limit_ && nodes_ >= node_limit_) || (stop_ && stop_->load(std::memory_order_relaxed)) ||
           (timed_ && std::chrono::steady_clock::now() >= deadline_);
}

bool Expectimax::out_of_budget() const {
    // Inside an iteration: the node count at every node, the clock and the stop flag every 1024.
    if (node_limit_ && nodes_ >= node_limit_) return true;
    return (nodes_ & 1023) == 0 && budget_spent();
}

Expectimax::Entry* Expectimax::probe_table(uint64_t key) {
    Entry* e = &table_[key & table_mask_];
    return e->depth != 0 && e->key == key ? e : nullptr;
}

void Expectimax::store(uint64_t key, int depth, double v, double alpha, double beta, Move best, bool resolved) {
    Bound bound = v <= alpha ? kUpper : v >= beta ? kLower : kExact;
    if (root_colour_ != kRed) {
        v = -v;
        bound = bound == kUpper ? kLower : bound == kLower ? kUpper : kExact;
    }
    table_[key & table_mask_] = Entry{key, v, uint8_t(depth), uint8_t(bound), best, resolved};
}

// Legal moves, the table's move first, then by the evaluation right after the move (a draw or a
// pass keeps the current one), best for the mover first; ties keep legal_moves' order.
int Expectimax::order_moves(const Position& pos, Move tt_move, Move* out) const {
    const MoveList list = legal_moves(pos);
    const int n = list.size;
    if (n == 1) {
        out[0] = list[0];
        return 1;
    }
    const int hw = params_.hero_weight;
    const double sign = colour_of(pos.to_move) == root_colour_ ? 1.0 : -1.0;
    const double here = evaluate(pos, root_colour_, hw);
    double key[12];
    for (int i = 0; i < n; ++i) {
        const Move m = list[i];
        double e = here;
        if (m != kDraw && m != kPass) {
            Position next = pos;
            apply_move(next, m);
            e = evaluate(next, root_colour_, hw);
        }
        key[i] = m == tt_move ? kInf : sign * e;
        out[i] = m;
    }
    for (int i = 1; i < n; ++i) {  // stable insertion sort, largest key first
        const Move m = out[i];
        const double k = key[i];
        int j = i;
        for (; j > 0 && key[j - 1] < k; --j) {
            out[j] = out[j - 1];
            key[j] = key[j - 1];
        }
        out[j] = m;
        key[j] = k;
    }
    return n;
}

double Expectimax::value(const Position& pos, int depth, double alpha, double beta) {
    if (pos.over || depth == 0) {
        ++nodes_;
        if (!pos.over) limit_hit_ = true;
        return leaf(pos);
    }
    return decision(pos, depth, alpha, beta, Mode::Full, nullptr);
}

// A node where pos.to_move decides, depth >= 1, not over. Mode::Probe (Star2) searches only the
// first move in order and returns its value, storing nothing; move_out then gets that move (or
// kNoMove after a table cut-off). Mode::Root gets the best move in move_out, puts the previous
// iteration's best first and is never cut off by the table. known_move, when given, is a move whose
// exact value known_value a probe already found: it is not searched again (known_resolved: that
// probe met no depth-limited leaf, so the value counts as resolved here too).
double Expectimax::decision(const Position& pos, int depth, double alpha, double beta, Mode mode, Move* move_out,
                            Move known_move, double known_value, bool known_resolved) {
    ++nodes_;
    if (can_abort_ && out_of_budget()) aborted_ = true;
    if (aborted_) return 0;
    if (move_out) *move_out = kNoMove;
    // Whether this node's subtree meets a depth-limited leaf, kept apart from the caller's so the
    // table can record it; merged back into limit_hit_ on the way out.
    const bool outer_limit_hit = limit_hit_;
    limit_hit_ = false;
    uint64_t key = 0;
    Move hint = mode == Mode::Root ? root_hint_ : known_move;
    if (table_) {
        key = public_hash(pos);
        if (const Entry* e = probe_table(key)) {
            if (hint == kNoMove) hint = e->move;
            // A resolved entry holds the game's value (or a bound of it): in a solve it serves
            // any remaining depth, which lets each deepening reuse what the last one proved.
            if ((e->depth == depth || (solving_ && e->resolved)) && mode != Mode::Root) {
                double v = e->value;
                Bound bound = Bound(e->bound);
                if (root_colour_ != kRed) {
                    v = -v;
                    bound = bound == kUpper ? kLower : bound == kLower ? kUpper : kExact;
                }
                if (bound == kExact || (bound == kLower && v >= beta) || (bound == kUpper && v <= alpha)) {
                    limit_hit_ = outer_limit_hit || !e->resolved;
                    return v;
                }
            }
        }
    }
    Move moves[12];
    const int n = order_moves(pos, hint, moves);
    const bool maximising = colour_of(pos.to_move) == root_colour_;
    const double alpha0 = alpha, beta0 = beta;
    double best = maximising ? -kInf : kInf;
    Move best_move = moves[0];
    for (int i = 0; i < n; ++i) {
        const Move m = moves[i];
        double v;
        if (m == known_move) {
            v = known_value;
            if (!known_resolved) limit_hit_ = true;
        } else if (m == kDraw) {
            v = chance(pos, depth, alpha, beta);
        } else {
            Position next = pos;
            apply_move(next, m);
            v = value(next, depth - 1, alpha, beta);
        }
        if (aborted_) return 0;
        if (maximising) {
            if (v > best) {
                best = v;
                best_move = m;
            }
            alpha = std::max(alpha, best);
        } else {
            if (v < best) {
                best = v;
                best_move = m;
            }
            beta = std::min(beta, best);
        }
        if (mode == Mode::Probe || alpha >= beta) break;
    }
    if (table_ && mode != Mode::Probe) store(key, depth, best, alpha0, beta0, best_move, !limit_hit_);
    limit_hit_ = limit_hit_ || outer_limit_hit;
    if (move_out) *move_out = best_move;
    return best;
}

// The mover of pos draws: the value is the mean over every card the pile can yield, each child
// searched to depth - 1. Windows are kept in sums (n times the mean) to avoid dividing.
double Expectimax::chance(const Position& pos, int depth, double alpha, double beta) {
    const CardMask drawable = drawable_cards(pos);
    const int n = std::popcount(drawable);
    const double count = n;
    const int d = depth - 1;
    int cards[kCards];
    double lo[kCards], hi[kCards];
    bool exact[kCards];
    Move probed_move[kCards];    // a child's first move whose exact value the probe found, or kNoMove
    double probed_value[kCards];
    bool probed_resolved[kCards];  // that probe met no depth-limited leaf
    bool open = false;
    int i = 0;
    for (CardMask m = drawable; m; m &= m - 1, ++i) {
        cards[i] = std::countr_zero(m);
        probed_move[i] = kNoMove;
        probed_value[i] = 0;
        probed_resolved[i] = false;
        Position next = pos;
        apply_draw(next, cards[i]);
        exact[i] = next.over || d == 0;
        if (exact[i]) {
            ++nodes_;
            if (!next.over) limit_hit_ = true;
            lo[i] = hi[i] = leaf(next);
        } else {
            lo[i] = lower_bound_;
            hi[i] = upper_bound_;
            open = true;
        }
    }
    const double sum_alpha = count * alpha, sum_beta = count * beta;

    // Star2: probe each open child with its first move only. After a draw the next player moves in
    // every child; when that is the root's colour a probe bounds the child from below (a max node
    // is worth at least its first move), else from above.
    if (open && d > 0) {
        const bool successors_max = colour_of((pos.to_move + 1) % pos.players()) == root_colour_;
        double total_lo = 0, total_hi = 0;
        for (int j = 0; j < n; ++j) {
            total_lo += lo[j];
            total_hi += hi[j];
        }
        for (int j = 0; j < n; ++j) {
            if (exact[j]) continue;
            const double a = sum_alpha - (total_hi - hi[j]), b = sum_beta - (total_lo - lo[j]);
            const double wlo = std::max(a, lo[j]), whi = std::min(b, hi[j]);
            Position next = pos;
            apply_draw(next, cards[j]);
            Move first;
            const bool outer_limit_hit = limit_hit_;  // the probe's own, apart, for probed_resolved
            limit_hit_ = false;
            const double v = decision(next, d, wlo, whi, Mode::Probe, &first);
            const bool probe_limit_hit = limit_hit_;
            limit_hit_ = outer_limit_hit || probe_limit_hit;
            if (aborted_) return 0;
            if (first != kNoMove && v > wlo && v < whi) {  // the first move's exact value: not searched again
                probed_move[j] = first;
                probed_value[j] = v;
                probed_resolved[j] = !probe_limit_hit;
            }
            if (successors_max && v > wlo && v > lo[j]) {
                total_lo += std::min(v, hi[j]) - lo[j];
                lo[j] = std::min(v, hi[j]);
            } else if (!successors_max && v < whi && v < hi[j]) {
                total_hi += std::max(v, lo[j]) - hi[j];
                hi[j] = std::max(v, lo[j]);
            }
            if (total_lo >= sum_beta) return fail_high(total_lo / count, beta);
            if (total_hi <= sum_alpha) return fail_low(total_hi / count, alpha);
        }
    }

    // Star1: each child searched with the window that can still change the decision, given the
    // exact values so far and the bounds of the rest.
    double rest_lo[kCards + 1], rest_hi[kCards + 1];
    rest_lo[n] = rest_hi[n] = 0;
    for (int j = n - 1; j >= 0; --j) {
        rest_lo[j] = rest_lo[j + 1] + lo[j];
        rest_hi[j] = rest_hi[j + 1] + hi[j];
    }
    double done = 0;
    for (int j = 0; j < n; ++j) {
        const double later_lo = rest_lo[j + 1], later_hi = rest_hi[j + 1];
        double v = lo[j];
        if (!exact[j]) {
            const double a = sum_alpha - done - later_hi, b = sum_beta - done - later_lo;
            Position next = pos;
            apply_draw(next, cards[j]);
            v = decision(next, d, std::max(a, lo[j]), std::min(b, hi[j]), Mode::Full, nullptr, probed_move[j],
                         probed_value[j], probed_resolved[j]);
            if (aborted_) return 0;
            v = std::clamp(v, lo[j], hi[j]);
            if (v >= b) return fail_high((done + v + later_lo) / count, beta);
            if (v <= a) return fail_low((done + v + later_hi) / count, alpha);
        }
        done += v;
        if (done + later_lo >= sum_beta) return fail_high((done + later_lo) / count, beta);
        if (done + later_hi <= sum_alpha) return fail_low((done + later_hi) / count, alpha);
    }
    return done / count;
}

ClassicResult Expectimax::search(const Position& given) {
    std::lock_guard<std::mutex> lock(busy_);  // before the clock starts: a wait is not search time
    const auto start = std::chrono::steady_clock::now();
    timed_ = params_.time_ms.has_value();
    if (timed_) deadline_ = start + std::chrono::milliseconds(*params_.time_ms);
    node_limit_ = 0;
    stop_ = &interrupted_;
    solving_ = false;
    struct Clear {  // the request ends with the search that saw it, however it ends
        Expectimax& e;
        ~Clear() {
            e.interrupted_.store(false);
            e.stop_ = nullptr;
        }
    } clear{*this};
    return run(given, params_.depth ? *params_.depth : kMaxIterations, start);
}

ClassicResult Expectimax::solve(const Position& given, uint64_t max_nodes,
                                std::optional<std::chrono::steady_clock::time_point> deadline,
                                const std::atomic<bool>* stop) {
    std::lock_guard<std::mutex> lock(busy_);
    const auto start = std::chrono::steady_clock::now();
    timed_ = deadline.has_value();
    if (timed_) deadline_ = *deadline;
    node_limit_ = max_nodes;
    stop_ = stop;
    solving_ = true;
    ClassicResult result = run(given, kMaxIterations, start);
    stop_ = nullptr;
    solving_ = false;
    return result;
}

ClassicResult Expectimax::run(const Position& given, int last, std::chrono::steady_clock::time_point start) {
    if (given.over) throw ArgumentError("position", "position: the game is over, there is no move to choose");
    const Position root = public_view(given);
    root_colour_ = colour_of(root.to_move);
    if (params_.tt_mb > 0 && !table_) {
        const uint64_t bytes = uint64_t(params_.tt_mb) << 20;
        const uint64_t entries = std::bit_floor(bytes / sizeof(Entry));
        table_.reset(new Entry[entries]());
        table_mask_ = entries - 1;
    }
    nodes_ = 0;
    root_hint_ = kNoMove;
    ClassicResult result;
    for (int d = 1; d <= last; ++d) {
        aborted_ = false;
        limit_hit_ = false;
        can_abort_ = d > 1;  // the first iteration always completes, so there is always a move
        Move best = kNoMove;
        const double v = decision(root, d, -kInf, kInf, Mode::Root, &best);
        if (aborted_) break;
        result.move = best;
        result.value = v;
        result.depth = d;
        root_hint_ = best;
        result.exact = !limit_hit_;
        if (result.exact) break;  // every line ended the game: deeper iterations change nothing
        if (budget_spent()) break;
    }
    aborted_ = false;
    result.nodes = nodes_;
    result.time_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return result;
}

}  // namespace rosen::classic
