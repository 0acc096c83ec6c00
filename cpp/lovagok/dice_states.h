// The dice states of a Lovagok attempt and the chance of every roll, precomputed once.
//
// A state is the multiset of counted dice showing (faces 1..5; sixes are gone for good, L1), at
// most six dice: 462 states. Rolling m dice yields a counted multiset o with |o| <= m (the rest
// were sixes); keeping K and rolling m dice leads to the state K + o. Everything the optimiser's
// inner loops need is a flat array built here, so they never allocate or recompute factorials.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "lovagok/strength.h"

namespace rosen::lovagok {

inline constexpr int kMaxDice = 6;
inline constexpr int kNumStates = 462;  // multisets of size <= 6 over 5 faces: C(11, 5)
inline constexpr int kNumCardSets = 32;

struct Transition {
    std::int16_t next;  // index of K + o
    double p;           // probability of o when rolling m dice
};

class DiceStates {
public:
    // The one shared instance, built on first use (thread-safe static initialisation).
    static const DiceStates& get();

    // States are numbered by size, then lexicographically; state 0 is the empty multiset.
    const Counts& counts(int s) const { return counts_[s]; }
    int size(int s) const { return size_[s]; }
    // Index of a count vector, -1 when it holds more than six dice.
    int index_of(const Counts& c) const;
    // Final-result rank of state s together with dice cards.
    int rank(unsigned cards_mask, int s) const { return rank_[cards_mask][s]; }

    // Roll m more dice on top of kept multiset k (|k| + m <= 6): the reachable states.
    // (Pointer arithmetic on data(): the end of the last range is one past the vector's end,
    // which operator[] may not name.)
    const Transition* roll_begin(int k, int m) const { return transitions_.data() + roll_offset_[k * 7 + m]; }
    const Transition* roll_end(int k, int m) const { return transitions_.data() + roll_offset_[k * 7 + m + 1]; }

    // The proper sub-multisets of state s (the keeps that re-roll at least one die), ordered
    // from the most dice kept to the fewest (the tie-break order of the optimiser).
    const std::int16_t* keeps_begin(int s) const { return keeps_.data() + keep_offset_[s]; }
    const std::int16_t* keeps_end(int s) const { return keeps_.data() + keep_offset_[s + 1]; }

private:
    DiceStates();
    std::array<Counts, kNumStates> counts_{};
    std::array<std::uint8_t, kNumStates> size_{};
    std::vector<std::int16_t> index_;  // base-7 key -> state
    std::array<std::array<std::int16_t, kNumStates>, kNumCardSets> rank_{};
    std::vector<int> roll_offset_;      // (k * 7 + m) -> start in transitions_
    std::vector<Transition> transitions_;
    std::vector<int> keep_offset_;
    std::vector<std::int16_t> keeps_;
};

}  // namespace rosen::lovagok
