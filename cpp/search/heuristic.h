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

// The same values as whole numbers, for whole-point parameters (the defaults): every value is
// then a whole number below 2^24, where the float arithmetic above is exact, so both give the
// same numbers. `valid` is false where a parameter is fractional or past kLimit.
struct WholeParams {
    static constexpr double kLimit = 1000.0;
    bool valid;
    int block_weight, hero_cost, draw_value;

    static bool whole(double x) { return x == std::floor(x) && std::fabs(x) <= kLimit; }
    explicit WholeParams(const SearchParams& p)
        : valid(whole(p.block_weight) && whole(p.hero_cost) && whole(p.draw_value)),
          block_weight(valid ? int(p.block_weight) : 0),
          hero_cost(valid ? int(p.hero_cost) : 0),
          draw_value(valid ? int(p.draw_value) : 0) {}
};

template <typename T>
int play_value(const T& terr, int colour, int t, const WholeParams& w) {
    return terr.join_gain(colour, t) + w.block_weight * (terr.join_gain(colour ^ 1, t) - 1);
}

template <typename T>
int hero_value(const T& terr, int colour, int t, const WholeParams& w) {
    return terr.join_gain(colour, t) + terr.split_loss(colour ^ 1, t) - w.hero_cost;
}

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

// The index of a move drawn from n softmax numerators and their sum with one rng.uniform(): each
// probability is the quotient softmax computes, but only those up to the drawn move are.
inline int sample_numerators(int n, const float* numerators, float sum, Rng& rng) {
    float r = float(rng.uniform());
    for (int i = 0; i < n - 1; ++i) {
        r -= numerators[i] / sum;
        if (r < 0.0f) return i;
    }
    return n - 1;
}

// A move drawn from the softmax of n values (overwritten) at p.temperature.
inline int sample_softmax(int n, const SearchParams& p, const float* weight, float* values, Rng& rng) {
    const float sum = softmax_numerators(n, p, weight, values);
    return sample_numerators(n, values, sum, rng);
}

// The same for whole values (WholeParams): the same weights -- the table's entries, or std::exp of
// the same float where the difference is past the table -- and the same sums, without the float
// tests. inv_t is 1.0f / float(p.temperature). n is at most 16.
inline int sample_softmax(int n, const int* values, const float* weight, float inv_t, Rng& rng) {
    int best = values[0];
    for (int i = 1; i < n; ++i) best = values[i] > best ? values[i] : best;
    float numerators[16];
    float sum = 0.0f;
    for (int i = 0; i < n; ++i) {
        const int k = best - values[i];
        sum += numerators[i] = k < kExpTable ? weight[k] : std::exp(float(-k) * inv_t);
    }
    return sample_numerators(n, numerators, sum, rng);
}

}  // namespace rosen::search::heuristic
