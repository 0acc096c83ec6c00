// Exact optimal play for one Lovagok attempt (rules L1, L2, L4), for any utility over results.
//
// V_r(S): value of standing with counted dice S and r re-rolls left; the roller either stops
// (utility of S plus the dice cards) or keeps a proper sub-multiset K and rolls the other
// |S| - |K| dice: W_{r-1}(K, |S| - |K|). W_r(K, m) is the expectation of V_r over rolling m dice
// onto K. An attempt with D dice and R re-rolls is worth W_R(empty, D).
//
// Ties -- values within kTie times the spread of the utility over the results the card set can
// reach, so that scaling the utility or adding a constant to it changes no choice -- go to
// stopping, then to the keep with the most dice, then to the lowest faces (the most 1s, then the
// most 2s, ...), so the policy, and with it the distribution of final results, is deterministic.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

#include "lovagok/dice_states.h"
#include "lovagok/strength.h"

namespace rosen::lovagok {

inline constexpr int kMaxRerolls = 3;
inline constexpr double kTie = 1e-13;  // relative to the reachable utilities' spread

class DiceDP {
public:
    // utility: kNumResults values indexed by result rank. Solves levels 0..max_rerolls.
    void solve(const double* utility, unsigned cards_mask, int max_rerolls);

    int max_rerolls() const { return max_rerolls_; }
    unsigned cards_mask() const { return cards_; }
    // The least and the largest utility of the results six dice can make with the card set: every
    // value is an expectation of them, so it lies between.
    double low() const { return offset_; }
    double high() const { return high_; }
    // An attempt with `dice` dice (0..6) and `rerolls` re-rolls (<= max_rerolls).
    double value(int dice, int rerolls) const { return expectation(w_[rerolls][dice]); }
    // Standing on state s with r re-rolls left, having played optimally (stopping: its utility).
    double state_value(int s, int r) const { return best_[r][s] < 0 ? stop_value(s) : expectation(v_[r][s]); }
    double stop_value(int s) const { return utility_[DiceStates::get().rank(cards_, s)]; }
    // Keeping state k and rolling m dice with r re-rolls left after that roll (r < max_rerolls;
    // at r == max_rerolls only k == 0 is solved).
    double keep_value(int k, int m, int r) const { return expectation(w_[r][k * 7 + m]); }
    // The optimal keep on state s with r re-rolls left; -1 means stop.
    int best_keep(int s, int r) const { return best_[r][s]; }
    // Distribution of the final result rank under the optimal policy; out has kNumResults slots.
    void distribution(int dice, int rerolls, double* out) const;

private:
    // A shifted value as the caller's utility has it: the roll probabilities sum to 1 only up to
    // rounding, so without the bounds a sure 1 could read 1 + 1e-15.
    double expectation(double shifted) const { return std::clamp(shifted + offset_, offset_, high_); }

    std::array<double, kNumResults> utility_{};
    double offset_ = 0.0;  // the least reachable utility, subtracted while solving (solve)
    double high_ = 0.0;    // the largest reachable utility
    unsigned cards_ = 0;
    int max_rerolls_ = -1;
    std::array<std::array<double, kNumStates>, kMaxRerolls + 1> v_{};
    std::array<std::array<double, kNumStates * 7>, kMaxRerolls + 1> w_{};
    std::array<std::array<std::int16_t, kNumStates>, kMaxRerolls + 1> best_{};
};

// One attempt's probability of ending strictly stronger than the target rank.
double p_beat(int target_rank, int rerolls, int dice, unsigned cards_mask);

// out[mask][rerolls][dice][target] for all 32 card sets, re-rolls 0..3, dice 0..6 and every
// target rank: kNumCardSets * 4 * 7 * kNumResults doubles.
void beat_table(double* out);
// The same for one card set: 4 * 7 * kNumResults doubles, out[rerolls][dice][target].
void beat_table(unsigned cards_mask, double* out);

// Optimal value and final-result distribution for each of n utilities (n x kNumResults).
void solve_batch(const double* utilities, size_t n, int rerolls, int dice, unsigned cards_mask,
                 double* values, double* distributions);

}  // namespace rosen::lovagok
