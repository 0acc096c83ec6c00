#include "lovagok/dice_states.h"

#include <algorithm>
#include <cmath>

namespace rosen::lovagok {
namespace {

int key_of(const Counts& c) {
    int key = 0;
    for (int v = 4; v >= 0; --v) key = key * 7 + c[v];
    return key;
}

int total(const Counts& c) {
    int n = 0;
    for (auto x : c) n += x;
    return n;
}

double factorial(int n) { return std::tgamma(n + 1.0); }

}  // namespace

const DiceStates& DiceStates::get() {
    static const DiceStates instance;
    return instance;
}

int DiceStates::index_of(const Counts& c) const {
    for (auto x : c)
        if (x > kMaxDice) return -1;
    if (total(c) > kMaxDice) return -1;
    return index_[key_of(c)];
}

DiceStates::DiceStates() : index_(7 * 7 * 7 * 7 * 7, -1) {
    // Enumerate count vectors with sum <= 6 by size, then lexicographically.
    std::vector<Counts> all;
    for (int a = 0; a <= 6; ++a)
        for (int b = 0; a + b <= 6; ++b)
            for (int c = 0; a + b + c <= 6; ++c)
                for (int d = 0; a + b + c + d <= 6; ++d)
                    for (int e = 0; a + b + c + d + e <= 6; ++e)
                        all.push_back(Counts{std::uint8_t(a), std::uint8_t(b), std::uint8_t(c), std::uint8_t(d), std::uint8_t(e)});
    std::stable_sort(all.begin(), all.end(), [](const Counts& x, const Counts& y) { return total(x) < total(y); });
    for (int s = 0; s < kNumStates; ++s) {
        counts_[s] = all[s];
        size_[s] = static_cast<std::uint8_t>(total(all[s]));
        index_[key_of(all[s])] = static_cast<std::int16_t>(s);
    }
    for (unsigned mask = 0; mask < kNumCardSets; ++mask)
        for (int s = 0; s < kNumStates; ++s) rank_[mask][s] = static_cast<std::int16_t>(rank_of(counts_[s], mask));

    // Rolling m dice: a counted multiset o with j = |o| dice and m - j sixes has multinomial
    // probability m! / (o_1! ... o_5! (m-j)!) / 6^m.
    roll_offset_.assign(kNumStates * 7 + 1, 0);
    for (int k = 0; k < kNumStates; ++k) {
        for (int m = 0; m <= 6; ++m) {
            roll_offset_[k * 7 + m] = static_cast<int>(transitions_.size());
            if (size_[k] + m > kMaxDice) continue;
            for (int o = 0; o < kNumStates && size_[o] <= m; ++o) {
                double denom = factorial(m - size_[o]);
                Counts sum = counts_[k];
                for (int v = 0; v < 5; ++v) {
                    denom *= factorial(counts_[o][v]);
                    sum[v] = static_cast<std::uint8_t>(sum[v] + counts_[o][v]);
                }
                const double p = factorial(m) / denom / std::pow(6.0, m);
                transitions_.push_back(Transition{static_cast<std::int16_t>(index_[key_of(sum)]), p});
            }
        }
    }
    roll_offset_[kNumStates * 7] = static_cast<int>(transitions_.size());

    keep_offset_.assign(kNumStates + 1, 0);
    for (int s = 0; s < kNumStates; ++s) {
        keep_offset_[s] = static_cast<int>(keeps_.size());
        const Counts& c = counts_[s];
        std::vector<std::int16_t> subs;
        for (int a = 0; a <= c[0]; ++a)
            for (int b = 0; b <= c[1]; ++b)
                for (int d = 0; d <= c[2]; ++d)
                    for (int e = 0; e <= c[3]; ++e)
                        for (int f = 0; f <= c[4]; ++f) {
                            Counts sub{std::uint8_t(a), std::uint8_t(b), std::uint8_t(d), std::uint8_t(e), std::uint8_t(f)};
                            if (sub == c) continue;  // keeping everything is stopping, not a re-roll
                            subs.push_back(index_[key_of(sub)]);
                        }
        // Larger state index = more dice kept (and among equals, later in lexicographic order of the
        // counts of 1s, 2s, ...: the lowest faces first).
        std::sort(subs.begin(), subs.end(), [](std::int16_t x, std::int16_t y) { return x > y; });
        keeps_.insert(keeps_.end(), subs.begin(), subs.end());
    }
    keep_offset_[kNumStates] = static_cast<int>(keeps_.size());
}

}  // namespace rosen::lovagok
