#include "lovagok/dice_dp.h"

#include <algorithm>
#include <cmath>
#include <memory>

namespace rosen::lovagok {

void DiceDP::solve(const double* utility, unsigned cards_mask, int max_rerolls) {
    const DiceStates& ds = DiceStates::get();
    std::copy(utility, utility + kNumResults, utility_.begin());
    // The DP runs on the utility less the least value this card set can reach, added back when a
    // value is read: a constant added to the utility then changes no choice (it crowded out the
    // differences between results, and the tie margin grew with it), a result out of reach plays
    // no part, a constant utility's values are that constant exactly, and the shifted values are
    // sums of non-negative terms (a probability never reads below 0).
    double low = utility_[ds.rank(cards_mask, 0)], high = low;
    for (int s = 1; s < kNumStates; ++s) {
        low = std::min(low, utility_[ds.rank(cards_mask, s)]);
        high = std::max(high, utility_[ds.rank(cards_mask, s)]);
    }
    offset_ = low;
    high_ = high;
    // Every value is an expectation of utilities, so its rounding noise scales with the largest
    // shifted one: an absolute 1e-13 called every choice a tie for utilities below it (the solver
    // then never re-rolled) and let noise, not the tie rule, decide for large ones.
    const double tie = kTie * (high - low);
    cards_ = cards_mask;
    max_rerolls_ = max_rerolls;
    for (int r = 0; r <= max_rerolls; ++r) {
        auto& v = v_[r];
        auto& best = best_[r];
        for (int s = 0; s < kNumStates; ++s) {
            double val = utility_[ds.rank(cards_mask, s)] - offset_;
            std::int16_t choice = -1;
            if (r > 0) {
                const auto& w_prev = w_[r - 1];
                const int n = ds.size(s);
                for (const std::int16_t* k = ds.keeps_begin(s); k != ds.keeps_end(s); ++k) {
                    const double x = w_prev[*k * 7 + n - ds.size(*k)];
                    if (x > val + tie) { val = x; choice = *k; }
                }
            }
            v[s] = val;
            best[s] = choice;
        }
        auto& w = w_[r];
        // At the top level only whole attempts (keep nothing) are ever asked for: W_r(empty, m).
        const int keeps = r == max_rerolls ? 1 : kNumStates;
        for (int k = 0; k < keeps; ++k) {
            for (int m = 0; m + ds.size(k) <= kMaxDice; ++m) {
                double sum = 0.0;
                for (const Transition* t = ds.roll_begin(k, m); t != ds.roll_end(k, m); ++t) sum += t->p * v[t->next];
                w[k * 7 + m] = sum;
            }
        }
    }
}

void DiceDP::distribution(int dice, int rerolls, double* out) const {
    const DiceStates& ds = DiceStates::get();
    std::fill(out, out + kNumResults, 0.0);
    std::array<std::array<double, kNumStates>, kMaxRerolls + 1> mass{};
    for (const Transition* t = ds.roll_begin(0, dice); t != ds.roll_end(0, dice); ++t) mass[rerolls][t->next] += t->p;
    for (int r = rerolls; r >= 0; --r) {
        for (int s = 0; s < kNumStates; ++s) {
            const double p = mass[r][s];
            if (p == 0.0) continue;
            const int k = best_[r][s];
            if (k < 0) {
                out[ds.rank(cards_, s)] += p;
                continue;
            }
            const int m = ds.size(s) - ds.size(k);
            for (const Transition* t = ds.roll_begin(k, m); t != ds.roll_end(k, m); ++t) mass[r - 1][t->next] += p * t->p;
        }
    }
}

namespace {

void beat_utility(int target_rank, double* u) {
    for (int i = 0; i < kNumResults; ++i) u[i] = i > target_rank ? 1.0 : 0.0;
}

// Each thread reuses one solver: it is ~130 KB and the hot paths should not allocate.
DiceDP& scratch() {
    thread_local auto dp = std::make_unique<DiceDP>();
    return *dp;
}

}  // namespace

double p_beat(int target_rank, int rerolls, int dice, unsigned cards_mask) {
    double u[kNumResults];
    beat_utility(target_rank, u);
    DiceDP& dp = scratch();
    dp.solve(u, cards_mask, rerolls);
    return dp.value(dice, rerolls);  // within [0, 1]: values lie between the utility's bounds
}

void beat_table(unsigned cards_mask, double* out) {
    DiceDP& dp = scratch();
    double u[kNumResults];
    for (int target = 0; target < kNumResults; ++target) {
        beat_utility(target, u);
        dp.solve(u, cards_mask, kMaxRerolls);
        for (int r = 0; r <= kMaxRerolls; ++r)
            for (int d = 0; d <= kMaxDice; ++d) out[(r * 7 + d) * kNumResults + target] = dp.value(d, r);
    }
}

void beat_table(double* out) {
    for (unsigned mask = 0; mask < kNumCardSets; ++mask) beat_table(mask, out + mask * (kMaxRerolls + 1) * 7 * kNumResults);
}

void solve_batch(const double* utilities, size_t n, int rerolls, int dice, unsigned cards_mask,
                 double* values, double* distributions) {
    DiceDP& dp = scratch();
    // size_t: from row 2^31 / kNumResults an int offset overflowed, before the arrays' start.
    for (size_t i = 0; i < n; ++i) {
        dp.solve(utilities + i * kNumResults, cards_mask, rerolls);
        values[i] = dp.value(dice, rerolls);
        dp.distribution(dice, rerolls, distributions + i * kNumResults);
    }
}

}  // namespace rosen::lovagok
