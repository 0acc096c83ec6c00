// The peer's algorithm (a Python alpha-beta searcher from a 2024 thesis, the strongest
// Rosenkoenig program we know), re-implemented: plain alpha-beta minimax to a fixed depth, where
// every play, hero, draw and pass is one ply; no move ordering (moves in legal_moves' order), no
// transposition table. A draw is expanded by executing ONE card sampled uniformly from the cards
// the pile can yield (a single sample per node, never the real order: the root's pile order is
// hidden first, R14). Leaves get evaluate() from the root mover's colour; a node maximises when
// the colour to move is the root's and minimises otherwise. Among equal root values the first
// move in legal order is played.
//
// The sample is reproducible: the card at a draw node is a function of the search's stream and
// the node's path (the moves from the root, draws with their cards), so any plain minimax that
// follows the same rule -- pruned or not -- meets the same cards:
//     stream = mix_seed(seed, n)                 n = searches this searcher made before (reset: 0)
//     path(root) = stream, path(child) = mix_seed(path(parent), move byte of the edge (move.h))
//     card = the k-th drawable card in card-id order, k = ((path >> 32) * count) >> 32
// where a draw edge's byte is draw_card_move(card) (64 + card id).
#pragma once
#include <cstdint>
#include <mutex>

#include "classic/params.h"
#include "rosenkoenig/position.h"

namespace rosen::classic {

uint64_t path_child(uint64_t path, Move edge);
int sampled_card(CardMask drawable, uint64_t path);

class AlphaBeta {
public:
    explicit AlphaBeta(const AlphaBetaParams& params);  // throws ArgumentError naming a bad field
    // Searches pos (its pile order is hidden first); throws ArgumentError("position") if it is over.
    // Calls on one searcher from several threads run one at a time (each keeps counters here).
    ClassicResult search(const Position& pos);
    // The same search with an explicit stream (path of the root), leaving the stream count alone.
    ClassicResult search_stream(const Position& pos, uint64_t stream);
    void reset() {
        std::lock_guard<std::mutex> lock(busy_);
        searches_ = 0;
    }
    const AlphaBetaParams& params() const { return params_; }

private:
    int node(const Position& pos, int depth, int alpha, int beta, uint64_t path);
    Position child(const Position& pos, Move m, uint64_t path, Move& edge) const;
    ClassicResult run(const Position& pos, uint64_t stream);  // search_stream, busy_ held

    AlphaBetaParams params_;
    uint64_t searches_ = 0;
    uint64_t nodes_ = 0;
    int root_colour_ = 0;
    std::mutex busy_;  // held by each call: a search's counters are members
};

}  // namespace rosen::classic
