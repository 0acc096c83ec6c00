#include "search/evaluator.h"

#include <cmath>

#include "rosenkoenig/territory.h"

namespace rosen::search {

namespace {

// Margins are squashed on this scale (points) for RewardKind::Margin and margin shaping: a lead
// of 30 points is worth about 0.88, one of 90 points nearly 1.
constexpr float kMarginScale = 30.0f;

float squash_margin(float margin) { return 0.5f + 0.5f * std::tanh(margin / kMarginScale); }

float shaped(float win, float margin, const SearchParams& p) {
    if (p.reward == RewardKind::Margin) return squash_margin(margin);
    const float w = float(p.margin_weight);
    return w == 0.0f ? win : (1.0f - w) * win + w * squash_margin(margin);
}

int colour_heroes(const Position& pos, int colour) {
    int n = 0;
    for (int player = colour; player < pos.players(); player += 2) n += pos.heroes[player];
    return n;
}

}  // namespace

int join_gain(Bitboard own, int sq) {
    Bitboard adjacent = neighbours(bit(sq)) & own;
    int merged = 1, old_squares = 0;
    while (adjacent) {
        const Bitboard territory = flood(adjacent & (~adjacent + 1), own);
        const int n = popcount(territory);
        merged += n;
        old_squares += n * n;
        adjacent &= ~territory;
    }
    return merged * merged - old_squares;
}

int split_loss(Bitboard theirs, int sq) {
    const Bitboard territory = flood(bit(sq), theirs);
    const int n = popcount(territory);
    const Bitboard rest = territory & ~bit(sq);
    Bitboard adjacent = neighbours(bit(sq)) & rest;
    int kept = 0;
    while (adjacent) {
        const Bitboard piece = flood(adjacent & (~adjacent + 1), rest);
        const int k = popcount(piece);
        kept += k * k;
        adjacent &= ~piece;
    }
    return n * n - kept;
}

void move_values(const Position& pos, const MoveList& moves, const SearchParams& p, float* values) {
    const int colour = colour_of(pos.to_move);
    const Bitboard own = pos.tokens[colour], theirs = pos.tokens[colour ^ 1];
    for (int i = 0; i < moves.size; ++i) {
        const Move m = moves[i];
        float v = 0.0f;
        if (is_play(m)) {
            const int t = crown_target(pos.crown, move_card(m));
            v = float(join_gain(own, t));
            // Taking a square the opponent needs to join their territories denies them the join.
            if (p.block_weight != 0.0) v += float(p.block_weight) * float(join_gain(theirs, t) - 1);
        } else if (is_hero(m)) {
            const int t = crown_target(pos.crown, move_card(m));
            // A hero both grows our territory and cuts theirs; it is worth spending only when the
            // swing beats what a hero is expected to win later.
            v = float(join_gain(own, t) + split_loss(theirs, t)) - float(p.hero_cost);
        } else if (m == kDraw) {
            v = float(p.draw_value);
        }
        values[i] = v;
    }
}

void move_priors(const Position& pos, const MoveList& moves, const SearchParams& p, float* priors) {
    move_values(pos, moves, p, priors);
    float best = priors[0];
    for (int i = 1; i < moves.size; ++i) best = priors[i] > best ? priors[i] : best;
    const float inv_t = 1.0f / float(p.temperature);
    float sum = 0.0f;
    for (int i = 0; i < moves.size; ++i) sum += priors[i] = std::exp((priors[i] - best) * inv_t);
    for (int i = 0; i < moves.size; ++i) priors[i] /= sum;
}

Move rollout_move(const Position& pos, const MoveList& moves, const SearchParams& p, Rng& rng) {
    if (moves.size == 1) return moves[0];
    if (p.rollout == RolloutPolicy::Random) return moves[int(rng.below(uint32_t(moves.size)))];
    float weights[12];
    move_priors(pos, moves, p, weights);
    float r = float(rng.uniform());
    for (int i = 0; i < moves.size - 1; ++i) {
        r -= weights[i];
        if (r < 0.0f) return moves[i];
    }
    return moves[moves.size - 1];
}

Evaluation evaluate_terminal(const Position& pos, const SearchParams& p) {
    const TerritoryStats red = analyse_territories(pos.tokens[kRed]);
    const TerritoryStats white = analyse_territories(pos.tokens[kWhite]);
    const int cmp = compare_for_win(red, white);  // R12 with its tie-breaks
    const float win = cmp > 0 ? 1.0f : cmp < 0 ? 0.0f : 0.5f;
    const float margin = float(red.score - white.score);
    return {shaped(win, margin, p), margin};
}

Evaluation evaluate_cutoff(const Position& pos, const SearchParams& p) {
    const float margin = float(score(pos.tokens[kRed]) - score(pos.tokens[kWhite]));
    // A hero in hand is a future swing, worth about what the policy charges for spending one.
    const float heroes = float(colour_heroes(pos, kRed) - colour_heroes(pos, kWhite));
    const float adjusted = margin + heroes * float(p.hero_cost);
    const float win = 1.0f / (1.0f + std::exp(-adjusted / float(p.eval_scale)));
    return {shaped(win, adjusted, p), margin};
}

Evaluation rollout(Position& pos, const SearchParams& p, Rng& rng) {
    for (int plies = 0; !pos.over; ++plies) {
        if (p.rollout_cutoff && plies >= p.rollout_cutoff) return evaluate_cutoff(pos, p);
        const MoveList moves = legal_moves(pos);
        const Move m = rollout_move(pos, moves, p, rng);
        if (m == kDraw)
            apply_draw(pos, deal_card(pos, rng));
        else
            apply_move(pos, m);
    }
    return evaluate_terminal(pos, p);
}

}  // namespace rosen::search
