#include "search/evaluator.h"

#include <cmath>

#include "rosenkoenig/territory.h"
#include "search/heuristic.h"
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

// exp(-k / temperature) for k below heuristic::kExpTable, computed for one temperature at a time.
struct ExpTable {
    float inv_t = -1.0f;
    float weight[heuristic::kExpTable];

    const float* for_inverse_temperature(float inv) {
        if (inv != inv_t) {
            inv_t = inv;
            for (int k = 0; k < heuristic::kExpTable; ++k) weight[k] = std::exp(float(-k) * inv);
        }
        return weight;
    }
};

}  // namespace

void move_values(const Position& pos, const MoveList& moves, const SearchParams& p, float* values) {
    const FloodTerritories terr{pos};
    const int colour = colour_of(pos.to_move);
    for (int i = 0; i < moves.size; ++i) {
        const Move m = moves[i];
        float v = 0.0f;
        if (is_play(m))
            v = heuristic::play_value(terr, colour, crown_target(pos.crown, move_card(m)), p);
        else if (is_hero(m))
            v = heuristic::hero_value(terr, colour, crown_target(pos.crown, move_card(m)), p);
        else if (m == kDraw)
            v = heuristic::draw_value(p);
        values[i] = v;
    }
}

// Not inlined: inlined (LTO), GCC rematerialised the thread_local's address with a call to
// __tls_get_addr at every use of the returned pointer, once per move value in each rollout ply.
__attribute__((noinline)) const float* heuristic::exp_weights(const SearchParams& p) {
    thread_local ExpTable table;
    return table.for_inverse_temperature(1.0f / float(p.temperature));
}

void move_priors(const Position& pos, const MoveList& moves, const SearchParams& p, float* priors) {
    move_values(pos, moves, p, priors);
    heuristic::softmax(moves.size, p, heuristic::exp_weights(p), priors);
}

Evaluation evaluate_terminal(const Position& pos, const SearchParams& p) {
    return evaluate_terminal(analyse_territories(pos.tokens[kRed]), analyse_territories(pos.tokens[kWhite]), p);
}

Evaluation evaluate_terminal(const TerritoryStats& red, const TerritoryStats& white, const SearchParams& p) {
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
    return evaluate_cutoff(pos, score(pos.tokens[kRed]) - score(pos.tokens[kWhite]), p);
}

Evaluation evaluate_cutoff(const Position& pos, int red_margin, const SearchParams& p) {
    return cutoff_value(float(red_margin), float(colour_heroes(pos, kRed) - colour_heroes(pos, kWhite)), p);
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

}  // namespace rosen::search
