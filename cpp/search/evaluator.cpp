#include "search/evaluator.h"

#include <cmath>

#include "rosenkoenig/playout.h"
#include "rosenkoenig/territory.h"
#include "search/territories.h"

namespace rosen::search {

namespace {

// Margins are squashed on this scale (points) for RewardKind::Margin and margin shaping: a lead
// of 30 points is worth about 0.88, one of 90 points nearly 1.
constexpr float kMarginScale = 30.0f;

float squash_margin(float margin) { return 0.5f + 0.5f * std::tanh(margin / kMarginScale); }

int colour_heroes(const Position& pos, int colour) {
    int n = 0;
    for (int player = colour; player < pos.players(); player += 2) n += pos.heroes[player];
    return n;
}

}  // namespace

float shaped_reward(float win, float margin, const SearchParams& p) {
    if (p.reward == RewardKind::Margin) return squash_margin(margin);
    const float w = float(p.margin_weight);
    return w == 0.0f ? win : (1.0f - w) * win + w * squash_margin(margin);
}

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

int split_loss(Bitboard theirs, int sq) { return split_territory_loss(flood(bit(sq), theirs), sq); }

namespace {

// Territory values straight from the tokens, by flood fill: for positions met once (expansion).
struct FloodTerritories {
    const Position& pos;
    int join_gain(int colour, int sq) const { return search::join_gain(pos.tokens[colour], sq); }
    int split_loss(int colour, int sq) const { return search::split_loss(pos.tokens[colour], sq); }
};

// The heuristic's move values with territory values from T (FloodTerritories or Territories,
// which give the same numbers).
template <typename T>
void values_with(const Position& pos, const MoveList& moves, const SearchParams& p, const T& terr, float* values) {
    const int colour = colour_of(pos.to_move);
    for (int i = 0; i < moves.size; ++i) {
        const Move m = moves[i];
        float v = 0.0f;
        if (is_play(m)) {
            const int t = crown_target(pos.crown, move_card(m));
            v = float(terr.join_gain(colour, t));
            // Taking a square the opponent needs to join their territories denies them the join.
            if (p.block_weight != 0.0) v += float(p.block_weight) * float(terr.join_gain(colour ^ 1, t) - 1);
        } else if (is_hero(m)) {
            const int t = crown_target(pos.crown, move_card(m));
            // A hero both grows our territory and cuts theirs; it is worth spending only when the
            // swing beats what a hero is expected to win later.
            v = float(terr.join_gain(colour, t) + terr.split_loss(colour ^ 1, t)) - float(p.hero_cost);
        } else if (m == kDraw) {
            v = float(p.draw_value);
        }
        values[i] = v;
    }
}

// exp(-k / temperature) for whole k below kExpTable: move values are whole score points with
// whole-point parameters (the defaults), so the softmax mostly looks its weights up. Each entry
// is computed exactly as std::exp would be for that difference, so the weights are the same.
constexpr int kExpTable = 1024;

struct ExpTable {
    float inv_t = -1.0f;
    float weight[kExpTable];

    const float* for_inverse_temperature(float inv) {
        if (inv != inv_t) {
            inv_t = inv;
            for (int k = 0; k < kExpTable; ++k) weight[k] = std::exp(float(-k) * inv);
        }
        return weight;
    }
};

// The table for this thread and p.temperature. thread_local, because searches with other
// temperatures may run on other threads; fetched once per rollout, not per move.
const float* exp_weights(const SearchParams& p) {
    thread_local ExpTable table;
    return table.for_inverse_temperature(1.0f / float(p.temperature));
}

// Softmax of the values at p.temperature, in place; `weight` is exp_weights(p).
void softmax(int n, const SearchParams& p, const float* weight, float* values) {
    float best = values[0];
    for (int i = 1; i < n; ++i) best = values[i] > best ? values[i] : best;
    const float inv_t = 1.0f / float(p.temperature);
    float sum = 0.0f;
    for (int i = 0; i < n; ++i) {
        const float d = values[i] - best;  // <= 0
        const int k = d > -float(kExpTable) ? int(-d) : kExpTable;
        sum += values[i] = (k < kExpTable && float(-k) == d) ? weight[k] : std::exp(d * inv_t);
    }
    for (int i = 0; i < n; ++i) values[i] /= sum;
}

// A move drawn from the weights (which sum to 1).
Move sample(const MoveList& moves, const float* weights, Rng& rng) {
    float r = float(rng.uniform());
    for (int i = 0; i < moves.size - 1; ++i) {
        r -= weights[i];
        if (r < 0.0f) return moves[i];
    }
    return moves[moves.size - 1];
}

}  // namespace

void move_values(const Position& pos, const MoveList& moves, const SearchParams& p, float* values) {
    values_with(pos, moves, p, FloodTerritories{pos}, values);
}

void move_priors(const Position& pos, const MoveList& moves, const SearchParams& p, float* priors) {
    move_values(pos, moves, p, priors);
    softmax(moves.size, p, exp_weights(p), priors);
}

Move rollout_move(const Position& pos, const MoveList& moves, const SearchParams& p, Rng& rng) {
    if (moves.size == 1) return moves[0];
    if (p.rollout == RolloutPolicy::Random) return moves[int(rng.below(uint32_t(moves.size)))];
    float weights[12];
    move_priors(pos, moves, p, weights);
    return sample(moves, weights, rng);
}

Evaluation evaluate_terminal(const Position& pos, const SearchParams& p) {
    const TerritoryStats red = analyse_territories(pos.tokens[kRed]);
    const TerritoryStats white = analyse_territories(pos.tokens[kWhite]);
    const int cmp = compare_for_win(red, white);  // R12 with its tie-breaks
    const float win = cmp > 0 ? 1.0f : cmp < 0 ? 0.0f : 0.5f;
    const float margin = float(red.score - white.score);
    return {shaped_reward(win, margin, p), margin};
}

namespace {

// Red's margin and Red's heroes minus White's, as evaluate_cutoff values them.
Evaluation cutoff_value(float margin, float heroes, const SearchParams& p) {
    // A hero in hand is a future swing, worth about what the policy charges for spending one.
    const float adjusted = margin + heroes * float(p.hero_cost);
    const float win = 1.0f / (1.0f + std::exp(-adjusted / float(p.eval_scale)));
    return {shaped_reward(win, adjusted, p), margin};
}

}  // namespace

Evaluation evaluate_cutoff(const Position& pos, const SearchParams& p) {
    const float margin = float(score(pos.tokens[kRed]) - score(pos.tokens[kWhite]));
    return cutoff_value(margin, float(colour_heroes(pos, kRed) - colour_heroes(pos, kWhite)), p);
}

void child_rewards(const Position& pos, const MoveList& moves, const SearchParams& p, float* rewards) {
    const int colour = colour_of(pos.to_move);
    const float sign = colour == kRed ? 1.0f : -1.0f;
    const float margin = float(score(pos.tokens[kRed]) - score(pos.tokens[kWhite]));
    const float heroes = float(colour_heroes(pos, kRed) - colour_heroes(pos, kWhite));
    for (int i = 0; i < moves.size; ++i) {
        const Move m = moves[i];
        if (!is_play(m) && !is_hero(m)) {  // a draw or a pass leaves board and heroes as they are
            rewards[i] = cutoff_value(margin, heroes, p).reward;
            continue;
        }
        if (is_play(m) && pos.supply() == 1) {  // the last token ends the game (R8)
            Position next = pos;
            apply_move(next, m);
            rewards[i] = evaluate_terminal(next, p).reward;
            continue;
        }
        const int t = crown_target(pos.crown, move_card(m));
        float gain = float(join_gain(pos.tokens[colour], t)), h = heroes;
        if (is_hero(m)) {
            gain += float(split_loss(pos.tokens[colour ^ 1], t));
            h -= sign;
        }
        rewards[i] = cutoff_value(margin + sign * gain, h, p).reward;
    }
}

Evaluation rollout(Position& pos, const SearchParams& p, Rng& rng) {
    const int cutoff = cutoff_plies(p, pos.players());
    if (p.rollout == RolloutPolicy::Random) {
        if (!cutoff) {
            // Plain UCT: the core's fast play-out (uniform moves and draws, to the end).
            play_out(pos, rng);
            return evaluate_terminal(pos, p);  // scores the end once (random_playout would too)
        }
        for (int plies = 0; !pos.over; ++plies) {
            if (cutoff && plies >= cutoff) return evaluate_cutoff(pos, p);
            const MoveList moves = legal_moves(pos);
            const Move m = rollout_move(pos, moves, p, rng);
            if (m == kDraw)
                apply_draw(pos, deal_card(pos, rng));
            else
                apply_move(pos, m);
        }
        return evaluate_terminal(pos, p);
    }
    // The heuristic policy, with the territories tracked move by move instead of flood-filled
    // for every candidate: the same values (so the same playouts), at a fraction of the cost.
    Territories terr(pos);
    const float* exp_weight = exp_weights(p);
    float weights[12];
    for (int plies = 0; !pos.over; ++plies) {
        if (cutoff && plies >= cutoff) return evaluate_cutoff(pos, p);
        const MoveList moves = legal_moves(pos);
        Move m = moves[0];
        if (moves.size > 1) {
            values_with(pos, moves, p, terr, weights);
            softmax(moves.size, p, exp_weight, weights);
            m = sample(moves, weights, rng);
        }
        if (m == kDraw) {
            apply_draw(pos, deal_card(pos, rng));
            continue;
        }
        if (m != kPass) {
            const int colour = colour_of(pos.to_move), t = crown_target(pos.crown, move_card(m));
            if (is_hero(m)) terr.remove(colour ^ 1, t);
            terr.add(colour, t);
        }
        apply_move(pos, m);
    }
    return evaluate_terminal(pos, p);
}

}  // namespace rosen::search
