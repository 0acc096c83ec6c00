// One search tree: nodes in an arena addressed by index (grown as needed, up to a limit), one
// MCTS iteration at a time, and re-rooting onto a descendant for tree reuse.
//
// Chance (RULES.md R14). The root position's pile order is hidden before anything else, so the
// tree never sees the true order. A `draw` edge leads to a chance node; each time an iteration
// passes it, the drawn card is sampled uniformly from drawable_cards() of the position there.
// The chance node's block of per-card children (one per drawable card, in card order, so the
// child of card c is at index popcount(cards below c)) is allocated the second time the chance
// node is reached, and each card child grows its own subtree only when that card is sampled
// again. A chance node's value is therefore the sample mean over the cards, as it should be.
//
// With a network (learning/network.h) the tree is AlphaZero's: a leaf is evaluated by the network
// and grows its children at once, with the network's policy as their priors, and selection is
// PUCT (select_puct). Chance nodes are unchanged. Without one, nothing below differs from UCT.
//
// Values are stored from Red's point of view (the reward of the colour Red, R13: a team shares
// its colour's reward) and turned into the mover's view when a child is selected.
#pragma once
#include <atomic>
#include <cstdint>

#include "rosenkoenig/position.h"
#include "rosenkoenig/rng.h"
#include "search/node_arena.h"
#include "search/params.h"

namespace rosen::learning {
class Network;
}

namespace rosen::search {

struct Evaluation;

constexpr uint32_t kNoChild = 0xFFFFFFFFu;

// The running means are doubles and the count 64 bits: a float mean stops being a mean once a
// sample's share falls to a few units in its last place (a win rate of 0.95 was off by 0.01
// after 2^21 visits and by 0.13 after 2^24, a few seconds and a minute of analysis), and 32
// bits of visits wrap after a few hours of one thread.
struct Node {
    uint32_t first_child = kNoChild;  // children are one contiguous block of the arena
    float prior = 0.0f;   // policy probability of the edge into this node
    uint64_t visits = 0;
    double value = 0.0;   // running mean of Red's reward
    double margin = 0.0;  // running mean of Red's final score margin
    float minimax = 0.5f; // Red's static evaluation or network value (minimax_values) backed up by minimax (chance: mean)
    Move move = kNoMove;  // the edge into this node: a move, or draw_card_move(c) below a chance node
    uint8_t num_children = 0;
    uint8_t chance = 0;   // 1: this node is a draw edge; its children are the cards
    uint8_t unused = 0;
};
static_assert(sizeof(Node) == 40, "keep the node small: memory per node is reported");

// Per-search statistics one tree gathers.
struct TreeStats {
    uint64_t iterations = 0;
    uint64_t depth_sum = 0;  // plies inside the tree per iteration, summed
    int max_depth = 0;
};

class Tree {
public:
    // A tree that holds at most `limit` nodes. Memory is taken as the tree grows, not up front.
    // `network` (optional, not owned) guides the search (PUCT, network leaves).
    explicit Tree(uint64_t limit, const learning::Network* network = nullptr);

    // Forget everything and start from `root`, which must have a hidden pile order.
    void reset(const Position& root);
    // If `target` (hidden) is the root or lies in the tree within a few plies, keep its subtree
    // as the new tree and return true; otherwise leave the tree unchanged and return false.
    // Moving a big subtree takes a while (tens of ns a node): once `stop` (optional) is set, the
    // work is abandoned, the tree starts afresh from `target` and the result is false.
    bool reroot(const Position& target, const std::atomic<bool>* stop = nullptr);

    // Gives the root its children if it has none yet, so that every tree reports every root
    // move even after zero iterations; starts afresh if a kept subtree left no room for them.
    void prepare_root(const SearchParams& p);
    // Self-play root noise (Searcher::set_root_noise): the root's children, in legal_moves order,
    // get prior = (1 - fraction) * prior + fraction * noise[k]. Call after prepare_root.
    void mix_root_priors(const float* noise, float fraction);

    // One iteration: select down the tree (sampling cards at chance nodes), expand, roll out,
    // back up. When the tree is full (its limit, or no memory to grow) nothing is expanded any
    // more: iterations go on from the leaves, so the search still improves, only more slowly.
    void iterate(const SearchParams& p, Rng& rng, TreeStats& stats);

    const Position& root_position() const { return root_pos_; }
    const Node& node(uint32_t i) const { return nodes_[i]; }
    const Node& root() const { return nodes_[0]; }
    uint64_t size() const { return nodes_.size(); }
    // Child of n with the most visits (ties: the higher prior), or kNoChild.
    uint32_t most_visited_child(uint32_t n) const;

private:
    // Room for `count` more nodes: grows the arena (geometrically, up to the limit) if needed.
    // False when the limit is reached or memory runs out; the tree is then full for good.
    bool make_room(uint64_t count);
    // priors: one per legal move (the network's), or nullptr for the heuristic's.
    bool expand_moves(uint32_t n, const Position& pos, const SearchParams& p, const float* priors = nullptr);
    bool expand_cards(uint32_t n, CardMask cards);
    uint32_t select_child(uint32_t n, int mover_colour, const SearchParams& p) const;
    uint32_t select_puct(uint32_t n, int mover_colour, const SearchParams& p) const;
    // The value of an unfinished leaf pos at node n by the network (blended with a rollout's by
    // p.network_value_weight); a move node without children is expanded with its priors.
    Evaluation network_leaf(uint32_t n, Position& pos, const SearchParams& p, Rng& rng, bool& expanded);
    void back_up_minimax(const uint32_t* path, const uint8_t* movers, int len);
    void back_up_visited(const uint32_t* path, const uint8_t* movers, int len);
    // Whether the minimax backups carry the network's values (p resolved by the Searcher).
    bool network_minimax(const SearchParams& p) const {
        return network_ && p.minimax_weight > 0 && p.minimax_values == MinimaxValues::Network;
    }
    uint32_t find(uint32_t n, const Position& pos, const Position& target, int depth_left) const;
    // False, with the arena in no usable state, if `stop` was set on the way.
    bool keep_subtree(uint32_t new_root, const std::atomic<bool>* stop);

    NodeArena<Node> nodes_;
    uint64_t limit_;
    Position root_pos_;
    const learning::Network* network_;
};

// The same public state (R14): everything but the pile order and the private generator state.
bool same_public_state(const Position& a, const Position& b);

}  // namespace rosen::search
