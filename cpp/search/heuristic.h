// The pieces of the heuristic policy (evaluator.h: move_values, move_priors, rollout), shared by
// the priors at expansion (evaluator.cpp) and the rollout loop (rollout.cpp), so that both value
// and sample moves with one piece of code. Internal to the search.
#pragma once
#include <cmath>

#include "rosenkoenig/rng.h"
#include "search/params.h"

namespace rosen::search::heuristic {

// A play on the square t for `colour`, with territory values from T (a flood-filling adapter or
// Territories, which give the same numbers).
template <typename T>
float play_value(const T& terr, int colour, int t, const SearchParams& p) {
    float v = float(terr.join_gain(colour, t));
    // Taking a square the opponent needs to join their territories denies them the join.
    if (p.block_weight != 0.0) v += float(p.block_weight) * float(terr.join_gain(colour ^ 1, t) - 1);
    return v;
}

// A hero flipping the opponent's token on t: it both grows our territory and cuts theirs; it is
// worth spending only when the swing beats what a hero is expected to win later.
template <typename T>
float hero_value(const T& terr, int colour, int t, const SearchParams& p) {
    return float(terr.join_gain(colour, t) + terr.split_loss(colour ^ 1, t)) - float(p.hero_cost);
}

inline float draw_value(const SearchParams& p) { return float(p.draw_value); }

// exp(-k / temperature) for whole k below kExpTable: move values are whole score points with
// whole-point parameters (the defaults), so the softmax mostly looks its weights up. Each entry
// is computed exactly as std::exp would be for that difference, so the weights are the same.
constexpr int kExpTable = 1024;

// The table for this thread and p.temperature (evaluator.cpp). Thread-local, because searches with
// other temperatures may run on other threads; fetch it once per rollout, not per move.
const float* exp_weights(const SearchParams& p);

// The softmax's numerators, in place: exp((value - best) / p.temperature), from `weight`
// (exp_weights(p)) where the difference is whole; returns their sum.
inline float softmax_numerators(int n, const SearchParams& p, const float* weight, float* values) {
    float best = values[0];
    for (int i = 1; i < n; ++i) best = values[i] > best ? values[i] : best;
    const float inv_t = 1.0f / float(p.temperature);
    float sum = 0.0f;
    for (int i = 0; i < n; ++i) {
        const float d = values[i] - best;  // <= 0
        const int k = d > -float(kExpTable) ? int(-d) : kExpTable;
        sum += values[i] = (k < kExpTable && float(-k) == d) ? weight[k] : std::exp(d * inv_t);
    }
    return sum;
}

// Softmax of the values at p.temperature, in place.
inline void softmax(int n, const SearchParams& p, const float* weight, float* values) {
    const float sum = softmax_numerators(n, p, weight, values);
    for (int i = 0; i < n; ++i) values[i] /= sum;
}

// The index of a move drawn from the softmax of n values (overwritten) with one rng.uniform():
// each probability is the quotient softmax computes, but only those up to the drawn move are.
inline int sample_softmax(int n, const SearchParams& p, const float* weight, float* values, Rng& rng) {
    const float sum = softmax_numerators(n, p, weight, values);
    float r = float(rng.uniform());
    for (int i = 0; i < n - 1; ++i) {
        r -= values[i] / sum;
        if (r < 0.0f) return i;
    }
    return n - 1;
}

}  // namespace rosen::search::heuristic
