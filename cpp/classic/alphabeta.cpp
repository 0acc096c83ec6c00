#include "classic/alphabeta.h"

#include <bit>
#include <chrono>
#include <climits>

#include "classic/evaluation.h"

namespace rosen::classic {

uint64_t path_child(uint64_t path, Move edge) { return mix_seed(path, edge); }

int sampled_card(CardMask drawable, uint64_t path) {
    uint32_t k = uint32_t(((path >> 32) * uint64_t(std::popcount(drawable))) >> 32);
    for (; k; --k) drawable &= drawable - 1;
    return std::countr_zero(drawable);
}

AlphaBeta::AlphaBeta(const AlphaBetaParams& params) : params_(params) { validate(params_); }

Position AlphaBeta::child(const Position& pos, Move m, uint64_t path, Move& edge) const {
    Position next = pos;
    if (m == kDraw) {
        const int card = sampled_card(drawable_cards(pos), path);
        apply_draw(next, card);
        edge = draw_card_move(card);
    } else {
        apply_move(next, m);
        edge = m;
    }
    return next;
}

int AlphaBeta::node(const Position& pos, int depth, int alpha, int beta, uint64_t path) {
    ++nodes_;
    if (depth == 0 || pos.over) return evaluate(pos, root_colour_, params_.hero_weight);
    const bool maximising = colour_of(pos.to_move) == root_colour_;
    int best = maximising ? INT_MIN : INT_MAX;
    for (Move m : legal_moves(pos)) {
        Move edge;
        const Position next = child(pos, m, path, edge);
        const int v = node(next, depth - 1, alpha, beta, path_child(path, edge));
        if (maximising) {
            if (v > best) best = v;
            if (best > alpha) alpha = best;
        } else {
            if (v < best) best = v;
            if (best < beta) beta = best;
        }
        if (alpha >= beta) break;
    }
    return best;
}

ClassicResult AlphaBeta::search(const Position& pos) {
    std::lock_guard<std::mutex> lock(busy_);
    return run(pos, mix_seed(params_.seed, searches_++));
}

ClassicResult AlphaBeta::search_stream(const Position& pos, uint64_t stream) {
    std::lock_guard<std::mutex> lock(busy_);
    return run(pos, stream);
}

ClassicResult AlphaBeta::run(const Position& given, uint64_t stream) {
    const auto start = std::chrono::steady_clock::now();
    if (given.over) throw ArgumentError("position", "position: the game is over, there is no move to choose");
    const Position root = public_view(given);
    root_colour_ = colour_of(root.to_move);
    nodes_ = 1;
    // The root is a maximising node; its window stays (alpha, +inf), so the value is exact and the
    // first move reaching it is kept.
    int alpha = INT_MIN, best = INT_MIN;
    Move best_move = kNoMove;
    for (Move m : legal_moves(root)) {
        Move edge;
        const Position next = child(root, m, stream, edge);
        const int v = node(next, params_.depth - 1, alpha, INT_MAX, path_child(stream, edge));
        if (v > best) {
            best = v;
            best_move = m;
        }
        if (best > alpha) alpha = best;
    }
    ClassicResult r;
    r.move = best_move;
    r.value = best;
    r.depth = params_.depth;
    r.nodes = nodes_;
    r.time_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return r;
}

}  // namespace rosen::classic
