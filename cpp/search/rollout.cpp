// The search's rollout (evaluator.h): the hottest loop of a search without a network, and about
// three quarters of an iteration of the team game's search, which rolls out from every leaf
// besides asking the network (docs/performance.md, "The search's rollout loop").
#include <bit>

#include "rosenkoenig/byte_board.h"
#include "rosenkoenig/playout.h"
#include "search/evaluator.h"
#include "search/heuristic.h"
#include "search/territories.h"

namespace rosen::search {

namespace {

// The heuristic policy's rollout with the player count fixed at compile time. It makes exactly the
// moves and generator calls of the plain loop it replaced (legal_moves, move_values, a softmax,
// a sample, apply_move or apply_draw, until 22757ce): the same values in the same order, so the
// same floating-point sums, and the search is bit for bit what it was (tests/search_signature.py
// pins it). What it saves: the move list and a second pass to value it (the moves are generated
// and valued from a byte per square in one pass over the hand, as whole numbers where the
// parameters are whole), the blockade test after every draw (R9 can only hold where the next
// player has no move, so it runs only there), and the flood fills that scored the end (the
// tracked territories know their sizes).
template <int Players>
class HeuristicRollout {
public:
    static constexpr int kLimit = Players == 2 ? 5 : 3;  // hand limit (R4 b, R13)
    static_assert(2 * kLimit + 1 <= 16, "heuristic::sample_softmax takes at most 16 whole values");

    HeuristicRollout(Position& pos, const SearchParams& p) : pos_(pos), p_(p), terr_(pos) {
        fill_byte_board(cell_, pos.tokens);
    }

    Evaluation run(Rng& rng, int cutoff) {
        const float* exp_weight = heuristic::exp_weights(p_);
        for (int plies = 0; !pos_.over; ++plies) {
            const int player = pos_.to_move, colour = colour_of(player);
            const CardMask own = pos_.hand[player];
            // The legal moves in legal_moves' order (plays, heroes, draw, or pass), without a list.
            uint16_t slot[2 * kLimit];  // card | target << 8
            int nplays, nheroes;
            byte_board_moves<kLimit>(cell_, own, pos_.crown, hero_target_value(colour, pos_.heroes[player] != 0), slot,
                                     nplays, nheroes);
            const int board_moves = nplays + nheroes;
            const bool may_draw = std::popcount(own) < kLimit;
            const int n = board_moves + int(may_draw);
            if (n == 0 && compute_over(pos_)) {  // R9, after the draw that ended the last ply
                pos_.over = true;
                break;
            }
            if (cutoff && plies >= cutoff) return evaluate_cutoff(pos_, margin(), p_);
            int choice = 0;
            if (n > 1 && whole_.valid) {
                int values[2 * kLimit + 1];
                for (int i = 0; i < nplays; ++i) values[i] = heuristic::play_value(terr_, colour, slot[i] >> 8, whole_);
                for (int i = 0; i < nheroes; ++i)
                    values[nplays + i] = heuristic::hero_value(terr_, colour, slot[kLimit + i] >> 8, whole_);
                values[board_moves] = whole_.draw_value;  // ignored without a draw (n == board_moves)
                choice = heuristic::sample_softmax(n, values, exp_weight, inv_t_, rng);
            } else if (n > 1) {
                float weights[2 * kLimit + 1];
                for (int i = 0; i < nplays; ++i) weights[i] = heuristic::play_value(terr_, colour, slot[i] >> 8, p_);
                for (int i = 0; i < nheroes; ++i)
                    weights[nplays + i] = heuristic::hero_value(terr_, colour, slot[kLimit + i] >> 8, p_);
                if (may_draw) weights[board_moves] = heuristic::draw_value(p_);
                choice = heuristic::sample_softmax(n, p_, exp_weight, weights, rng);
            }
            if (n == 0) {
                apply_move(pos_, kPass);  // R6
            } else if (choice >= board_moves) {
                apply_draw_without_blockade_test(pos_, deal_card(pos_, rng));  // R4 b, R7
            } else {
                const bool hero = choice >= nplays;
                const uint16_t entry = slot[hero ? kLimit + choice - nplays : choice];
                const int card = entry & 0xFF, t = entry >> 8;
                if (hero) terr_.remove(colour ^ 1, t);
                terr_.add(colour, t);
                cell_[t] = uint8_t(1 + colour);
                apply_move(pos_, hero ? hero_move(card) : play_move(card));  // R4 a, c; R8 ends the game
            }
        }
        return evaluate_terminal(terr_.stats(kRed), terr_.stats(kWhite), p_);
    }

private:
    int margin() const { return terr_.stats(kRed).score - terr_.stats(kWhite).score; }

    Position& pos_;
    const SearchParams& p_;
    const heuristic::WholeParams whole_{p_};
    const float inv_t_ = 1.0f / float(p_.temperature);
    Territories terr_;
    alignas(16) uint8_t cell_[kByteBoardSize];
};

// The uniform policy with a cut-off (plain UCT without one takes the core's fast play-out).
Evaluation random_rollout(Position& pos, const SearchParams& p, Rng& rng, int cutoff) {
    for (int plies = 0; !pos.over; ++plies) {
        if (plies >= cutoff) return evaluate_cutoff(pos, p);
        const MoveList moves = legal_moves(pos);
        const Move m = moves.size == 1 ? moves[0] : moves[int(rng.below(uint32_t(moves.size)))];
        if (m == kDraw)
            apply_draw(pos, deal_card(pos, rng));
        else
            apply_move(pos, m);
    }
    return evaluate_terminal(pos, p);
}

}  // namespace

Evaluation rollout(Position& pos, const SearchParams& p, Rng& rng) {
    const int cutoff = cutoff_plies(p, pos.players());
    if (p.rollout == RolloutPolicy::Random) {
        if (cutoff) return random_rollout(pos, p, rng, cutoff);
        // Plain UCT: the core's fast play-out (uniform moves and draws, to the end).
        play_out(pos, rng);
        return evaluate_terminal(pos, p);  // scores the end once (random_playout would too)
    }
    if (pos.players() == 2) return HeuristicRollout<2>(pos, p).run(rng, cutoff);
    return HeuristicRollout<4>(pos, p).run(rng, cutoff);
}

}  // namespace rosen::search
