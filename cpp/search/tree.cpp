#include "search/tree.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <new>
#include <vector>

#include "learning/network.h"
#include "search/evaluator.h"

namespace rosen::search {

namespace {

// Longer than any game: every ply places a token (at most 52 plays and 8 heroes), draws a card
// (each card must be played before it can be drawn again) or passes while the other side moves.
constexpr int kMaxPath = 1024;
// The largest final margin there is: 52 tokens in one territory score 52^2 (R11).
constexpr float kMaxMargin = 52.0f * 52.0f;

// How far below the root re-rooting looks for the next position: our move, the opponent's reply
// and the draws in between (4 players: a full round).
constexpr int kRerootPlies = 8;

}  // namespace

bool same_public_state(const Position& a, const Position& b) {
    return a.tokens[0] == b.tokens[0] && a.tokens[1] == b.tokens[1] &&
           std::memcmp(a.hand, b.hand, sizeof a.hand) == 0 && a.discard == b.discard && a.pile == b.pile &&
           a.pile_size == b.pile_size && std::memcmp(a.heroes, b.heroes, sizeof a.heroes) == 0 &&
           a.crown == b.crown && a.to_move == b.to_move && a.over == b.over && a.rules == b.rules;
}


Tree::Tree(uint64_t limit, const learning::Network* network) : limit_(limit), network_(network) {}

bool Tree::make_room(uint64_t count) {
    const uint64_t needed = nodes_.size() + count;
    if (needed > limit_) return false;
    if (needed <= nodes_.capacity()) return true;
    // Geometric growth, capped by the limit: the arena costs memory only as the tree grows (and
    // growing does not copy it: NodeArena).
    const uint64_t grown = std::min(limit_, std::max<uint64_t>({needed, 2 * uint64_t(nodes_.capacity()), 4096}));
    try {
        nodes_.reserve(grown);
    } catch (const std::bad_alloc&) {
        limit_ = nodes_.size();  // out of memory: the tree is full from now on
        return false;
    }
    return true;
}

void Tree::reset(const Position& root) {
    root_pos_ = root;
    nodes_.clear();
    nodes_.emplace_back();
}

void Tree::prepare_root(const SearchParams& p) {
    if (nodes_[0].first_child != kNoChild) return;
    float priors[12], value, margin;
    if (network_) network_->evaluate(root_pos_, legal_moves(root_pos_), priors, value, margin);
    const float* given = network_ ? priors : nullptr;
    if (!expand_moves(0, root_pos_, p, given)) {
        reset(root_pos_);
        expand_moves(0, root_pos_, p, given);
    }
}

void Tree::mix_root_priors(const float* noise, float fraction) {
    const Node& root = nodes_[0];
    for (uint32_t k = 0; k < root.num_children; ++k) {
        Node& child = nodes_[root.first_child + k];
        child.prior = (1.0f - fraction) * child.prior + fraction * noise[k];
    }
}

uint32_t Tree::most_visited_child(uint32_t n) const {
    const Node& parent = nodes_[n];
    if (parent.first_child == kNoChild) return kNoChild;
    uint32_t best = parent.first_child;
    for (uint32_t c = parent.first_child + 1; c < parent.first_child + parent.num_children; ++c)
        if (nodes_[c].visits > nodes_[best].visits ||
            (nodes_[c].visits == nodes_[best].visits && nodes_[c].prior > nodes_[best].prior))
            best = c;
    return best;
}

bool Tree::expand_moves(uint32_t n, const Position& pos, const SearchParams& p, const float* given) {
    const MoveList moves = legal_moves(pos);
    if (!make_room(uint64_t(moves.size))) return false;  // full: keep rolling out
    float priors[12];
    // The heuristic's priors order the first visits and feed the progressive bias; plain UCT
    // (random rollouts, no bias) treats all moves alike.
    if (given) {
        std::copy(given, given + moves.size, priors);
    } else if (p.rollout == RolloutPolicy::Heuristic || p.prior_weight > 0) {
        move_priors(pos, moves, p, priors);
    } else {
        for (int i = 0; i < moves.size; ++i) priors[i] = 1.0f / float(moves.size);
    }
    float minimax[12];
    const bool static_mm = p.minimax_weight > 0 && !network_minimax(p);
    if (static_mm) child_rewards(pos, moves, p, minimax);
    const uint32_t first = uint32_t(nodes_.size());
    for (int i = 0; i < moves.size; ++i) {
        Node& child = nodes_.emplace_back();  // make_room reserved it: no reallocation
        child.move = moves[i];
        child.prior = priors[i];
        child.chance = moves[i] == kDraw;
        if (static_mm) child.minimax = minimax[i];
    }
    nodes_[n].first_child = first;
    nodes_[n].num_children = uint8_t(moves.size);
    return true;
}

bool Tree::expand_cards(uint32_t n, CardMask cards) {
    const int count = std::popcount(cards);
    if (!make_room(uint64_t(count))) return false;
    const uint32_t first = uint32_t(nodes_.size());
    const float minimax = nodes_[n].minimax;  // a draw changes neither board nor heroes
    for (CardMask c = cards; c; c &= c - 1) {
        Node& child = nodes_.emplace_back();
        child.move = draw_card_move(std::countr_zero(c));
        child.prior = 1.0f / float(count);
        child.minimax = minimax;
    }
    nodes_[n].first_child = first;
    nodes_[n].num_children = uint8_t(count);
    return true;
}

uint32_t Tree::select_child(uint32_t n, int mover_colour, const SearchParams& p) const {
    if (network_) return select_puct(n, mover_colour, p);
    const float exploration = float(p.exploration), prior_weight = float(p.prior_weight);
    const float w = float(p.minimax_weight);
    const Node& parent = nodes_[n];
    const uint32_t first = parent.first_child, last = first + parent.num_children;
    // Every child is tried once before UCT compares them; the policy's favourite first, so that
    // a short search has already looked at the moves the heuristic likes.
    // Comparisons are written so that a NaN (never produced by validated parameters, but cheap
    // to guard against) can only lose: the result is always one of the children.
    uint32_t best = kNoChild;
    float best_score = -1.0f;
    for (uint32_t c = first; c < last; ++c)
        if (nodes_[c].visits == 0 && (best == kNoChild || nodes_[c].prior > best_score)) {
            best = c;
            best_score = nodes_[c].prior;
        }
    if (best != kNoChild) return best;
    const float log_n = std::log(float(parent.visits));
    best = first;
    best_score = -std::numeric_limits<float>::infinity();
    for (uint32_t c = first; c < last; ++c) {
        const Node& child = nodes_[c];
        const float mean = (1.0f - w) * float(child.value) + w * child.minimax;
        const float q = mover_colour == kRed ? mean : 1.0f - mean;
        // UCT plus a progressive bias towards the policy's favourites that fades with visits.
        const float ucb = q + exploration * std::sqrt(log_n / float(child.visits)) +
                          prior_weight * child.prior / float(child.visits + 1);
        if (ucb > best_score) {
            best = c;
            best_score = ucb;
        }
    }
    return best;
}

uint32_t Tree::select_puct(uint32_t n, int mover_colour, const SearchParams& p) const {
    const float w = float(p.minimax_weight);
    const auto q_of = [&](const Node& node) {
        const float mean = (1.0f - w) * float(node.value) + w * node.minimax;
        return mover_colour == kRed ? mean : 1.0f - mean;
    };
    const Node& parent = nodes_[n];
    // A child not visited yet is valued at its parent's mean (first-play urgency), so that the
    // priors alone order the untried moves; sqrt(N) counts the parent at least once, so that
    // they do so from the first selection on.
    const float unvisited = parent.visits ? q_of(parent) : 0.5f;
    const float scale = float(p.puct_c) * std::sqrt(float(std::max<uint64_t>(parent.visits, 1)));
    const uint32_t first = parent.first_child, last = first + parent.num_children;
    uint32_t best = first;
    float best_score = -std::numeric_limits<float>::infinity();
    for (uint32_t c = first; c < last; ++c) {
        const Node& child = nodes_[c];
        const float q = child.visits ? q_of(child) : unvisited;
        const float score = q + scale * child.prior / float(1 + child.visits);
        if (score > best_score) {  // as in select_child, a NaN can only lose
            best = c;
            best_score = score;
        }
    }
    return best;
}

Evaluation Tree::network_leaf(uint32_t n, Position& pos, const SearchParams& p, Rng& rng, bool& expanded) {
    const MoveList moves = legal_moves(pos);
    float priors[12], value, margin;
    network_->evaluate(pos, moves, priors, value, margin);
    // No game ends with a margin beyond 52^2 points (R11), but a file's finite weights can still
    // overflow float in the margin head: held to that, the tree's means, the search's score and
    // self-play's rows stay numbers (they read nan).
    margin = margin != margin ? 0.0f : std::clamp(margin, -kMaxMargin, kMaxMargin);
    const Node& node = nodes_[n];
    if (!node.chance && node.first_child == kNoChild && expand_moves(n, pos, p, priors)) expanded = true;
    // The network speaks for the mover; the tree keeps Red's view (R13: a team shares its colour's).
    const bool red = colour_of(pos.to_move) == kRed;
    const float red_value = red ? value : 1.0f - value, red_margin = red ? margin : -margin;
    Evaluation ev{shaped_reward(red_value, red_margin, p), red_margin};
    // The network's own judgement of the node, before any rollout is blended in, starts its minimax.
    if (nodes_[n].visits == 0 && network_minimax(p)) nodes_[n].minimax = ev.reward;
    const float w = float(p.network_value_weight);
    if (w < 1.0f) {
        const Evaluation played = rollout(pos, p, rng);
        ev.reward = w * ev.reward + (1.0f - w) * played.reward;
        ev.margin = w * ev.margin + (1.0f - w) * played.margin;
    }
    return ev;
}

void Tree::iterate(const SearchParams& p, Rng& rng, TreeStats& stats) {
    uint32_t path[kMaxPath];
    int len = 0;
    Position pos = root_pos_;
    uint32_t n = 0;
    path[len++] = 0;
    // Colour to move at path[i], set at each decision node the walk goes on from; a finished
    // game's node gets none. Left uninitialised (not a memset of 1 KiB per iteration): the backups
    // read it only at decision nodes with children, and a finished game's node is never expanded
    // (the loop below breaks on pos.over before expanding).
    uint8_t movers[kMaxPath];
    int depth = 0;
    bool expanded = false;
    while (len < kMaxPath - 1) {
        if (nodes_[n].chance) {
            // Sample the card: the pile's order is hidden, so every drawable card is equally likely.
            const CardMask cards = drawable_cards(pos);
            const int card = deal_card(pos, rng);
            apply_draw(pos, card);
            ++depth;
            if (nodes_[n].first_child == kNoChild) {
                if (nodes_[n].visits == 0 || !expand_cards(n, cards)) break;
                expanded = true;
            }
            n = nodes_[n].first_child + uint32_t(std::popcount(cards & ((1u << card) - 1)));
            path[len++] = n;
            continue;
        }
        if (pos.over) break;
        // A leaf is rolled out from on its first visit and expanded on its second, so the arena
        // holds only nodes that were worth a second look. The root is always expanded. With a
        // network, a leaf is expanded as the network evaluates it (network_leaf).
        movers[len - 1] = uint8_t(colour_of(pos.to_move));
        if (nodes_[n].first_child == kNoChild) {
            if (network_ || (nodes_[n].visits == 0 && n != 0) || !expand_moves(n, pos, p)) break;
            expanded = true;
        }
        n = select_child(n, movers[len - 1], p);
        path[len++] = n;
        const Move m = nodes_[n].move;
        if (m != kDraw) {  // a draw edge changes the position at its chance node, above
            apply_move(pos, m);
            ++depth;
        }
    }
    const Evaluation ev = pos.over   ? evaluate_terminal(pos, p)
                          : network_ ? network_leaf(path[len - 1], pos, p, rng, expanded)
                                     : rollout(pos, p, rng);
    const bool net_mm = network_minimax(p);
    if (net_mm && pos.over) nodes_[path[len - 1]].minimax = ev.reward;  // exact, whoever values the rest
    if (!net_mm && expanded && p.minimax_weight > 0) back_up_minimax(path, movers, len);
    for (int i = 0; i < len; ++i) {
        Node& node = nodes_[path[i]];
        ++node.visits;
        const double inv = 1.0 / double(node.visits);
        node.value += (double(ev.reward) - node.value) * inv;
        node.margin += (double(ev.margin) - node.margin) * inv;
    }
    // Network values exist only where the search has been, so these backups run after the visit
    // counts are updated and over every iteration's path, not only when a node was expanded.
    if (net_mm) back_up_visited(path, movers, len);
    ++stats.iterations;
    stats.depth_sum += uint64_t(depth);
    stats.max_depth = std::max(stats.max_depth, depth);
}

void Tree::back_up_minimax(const uint32_t* path, const uint8_t* movers, int len) {
    // Only the path's nodes can have changed: recompute them bottom-up from their children.
    for (int i = len - 1; i >= 0; --i) {
        Node& node = nodes_[path[i]];
        if (node.first_child == kNoChild) continue;
        const Node* child = &nodes_[node.first_child];
        float v = child[0].minimax;
        if (node.chance) {
            for (int c = 1; c < node.num_children; ++c) v += child[c].minimax;
            v /= float(node.num_children);
        } else if (movers[i] == kRed) {
            for (int c = 1; c < node.num_children; ++c) v = std::max(v, child[c].minimax);
        } else {
            for (int c = 1; c < node.num_children; ++c) v = std::min(v, child[c].minimax);
        }
        node.minimax = v;
    }
}

void Tree::back_up_visited(const uint32_t* path, const uint8_t* movers, int len) {
    // As back_up_minimax, over the children visited so far: an unvisited child has no value yet.
    for (int i = len - 1; i >= 0; --i) {
        Node& node = nodes_[path[i]];
        if (node.first_child == kNoChild) continue;
        const Node* child = &nodes_[node.first_child];
        float sum = 0, best = 0;
        int seen = 0;
        for (int c = 0; c < node.num_children; ++c) {
            if (!child[c].visits) continue;
            const float v = child[c].minimax;
            if (node.chance) sum += v;
            else if (!seen || (movers[i] == kRed ? v > best : v < best)) best = v;
            ++seen;
        }
        if (seen) node.minimax = node.chance ? sum / float(seen) : best;
    }
}

uint32_t Tree::find(uint32_t n, const Position& pos, const Position& target, int depth_left) const {
    const Node& node = nodes_[n];
    if (!node.chance && same_public_state(pos, target)) return n;
    if (depth_left == 0 || node.first_child == kNoChild) return kNoChild;
    // Squares once occupied stay occupied and hero cards are never regained: prune branches that
    // can no longer lead to the target.
    if (pos.occupied() & ~target.occupied()) return kNoChild;
    for (int p = 0; p < pos.players(); ++p)
        if (pos.heroes[p] < target.heroes[p]) return kNoChild;
    for (uint32_t c = node.first_child; c < node.first_child + node.num_children; ++c) {
        const Move m = nodes_[c].move;
        Position next = pos;
        int left = depth_left;
        if (node.chance) {
            apply_draw(next, move_card(m));
            --left;
        } else if (m != kDraw) {
            apply_move(next, m);
            --left;
        }
        const uint32_t found = find(c, next, target, left);
        if (found != kNoChild) return found;
    }
    return kNoChild;
}

bool Tree::reroot(const Position& target, const std::atomic<bool>* stop) {
    const uint32_t found = find(0, root_pos_, target, kRerootPlies);
    if (found == kNoChild) return false;
    root_pos_ = target;
    if (!keep_subtree(found, stop)) {
        reset(target);
        return false;
    }
    return true;
}

bool Tree::keep_subtree(uint32_t new_root, const std::atomic<bool>* stop) {
    if (new_root == 0) return true;
    // Each pass below is checked for a stop every kStopCheck steps: a tree of millions of nodes
    // takes most of a second to move, and a stop must end a search within milliseconds.
    constexpr uint32_t kStopCheck = 4096;
    uint32_t steps = 0;
    const auto stopped = [&] {
        return stop && ++steps % kStopCheck == 0 && stop->load(std::memory_order_relaxed);
    };
    // Collect the subtree's child blocks, then slide them down in arena order (a mark-compact
    // pass): a block only ever moves to a lower index, over blocks already moved or dead.
    struct Block {
        uint32_t old_first, count, new_first;
    };
    std::vector<Block> blocks;
    std::vector<uint32_t> stack{new_root};
    while (!stack.empty()) {
        if (stopped()) return false;
        const Node& node = nodes_[stack.back()];
        stack.pop_back();
        if (node.first_child == kNoChild) continue;
        blocks.push_back({node.first_child, node.num_children, 0});
        for (uint32_t c = 0; c < node.num_children; ++c) stack.push_back(node.first_child + c);
    }
    std::sort(blocks.begin(), blocks.end(), [](const Block& a, const Block& b) { return a.old_first < b.old_first; });
    nodes_[0] = nodes_[new_root];  // index 0 is the old root, which is no longer needed
    nodes_[0].move = kNoMove;
    nodes_[0].prior = 1.0f;
    uint32_t cursor = 1;
    if (stop && stop->load(std::memory_order_relaxed)) return false;
    for (Block& b : blocks) {
        if (stopped()) return false;
        std::memmove(&nodes_[cursor], &nodes_[b.old_first], b.count * sizeof(Node));
        b.new_first = cursor;
        cursor += b.count;
    }
    nodes_.shrink_to(cursor);
    for (Node& node : nodes_) {
        if (stopped()) return false;
        if (node.first_child == kNoChild) continue;
        const auto it = std::lower_bound(blocks.begin(), blocks.end(), node.first_child,
                                         [](const Block& b, uint32_t first) { return b.old_first < first; });
        node.first_child = it->new_first;
    }
    return true;
}

}  // namespace rosen::search
