// Lovagok result strength (rules L4-L7): a result is (size, value, further) and results compare
// lexicographically. Every reachable result (6 dice + up to 5 dice cards) gets a dense rank in
// strength order, so utilities and tables are plain arrays indexed by rank.
#pragma once

#include <array>
#include <cstdint>

namespace rosen::lovagok {

// Faces 1..5 count; counts[v - 1] is how many counted items show v.
using Counts = std::array<std::uint8_t, 5>;

struct Result {
    std::uint8_t size = 0;     // 0 only for "nothing counted" (every die a six, no cards)
    std::uint8_t value = 0;    // 1..5
    std::uint8_t further = 0;  // 0 = none, else 1..5 and != value
    friend constexpr bool operator==(const Result&, const Result&) = default;
};

// L6: larger group, then higher value, then higher further die (none lowest).
constexpr int compare(const Result& a, const Result& b) {
    if (a.size != b.size) return a.size < b.size ? -1 : 1;
    if (a.value != b.value) return a.value < b.value ? -1 : 1;
    if (a.further != b.further) return a.further < b.further ? -1 : 1;
    return 0;
}

// The biggest group any final result can have: six dice plus the card of that value.
inline constexpr int kMaxGroup = 7;
// Results: "nothing", 15 single-die results (further below the value), 25 per size 2..7.
inline constexpr int kNumResults = 1 + 15 + 25 * (kMaxGroup - 1);

// A (size, value, further) triple is a result only if some dice could show it: a lone die's
// further is lower than it (otherwise the further die would be the group).
constexpr bool is_valid(const Result& r) {
    if (r.size == 0) return r.value == 0 && r.further == 0;
    if (r.size > kMaxGroup || r.value < 1 || r.value > 5 || r.further > 5) return false;
    if (r.further == r.value) return false;
    if (r.size == 1 && r.further > r.value) return false;
    return true;
}

// L5 applied to counted dice plus dice cards (bit v-1 of cards_mask = card of value v).
constexpr Result result_of(const Counts& dice, unsigned cards_mask) {
    int c[6] = {0, 0, 0, 0, 0, 0};
    for (int v = 1; v <= 5; ++v) c[v] = dice[v - 1] + ((cards_mask >> (v - 1)) & 1u);
    Result r;
    for (int v = 5; v >= 1; --v) {  // from the top, so equal sizes keep the higher value
        if (c[v] > r.size) { r.size = static_cast<std::uint8_t>(c[v]); r.value = static_cast<std::uint8_t>(v); }
    }
    if (r.size == 0) return r;
    for (int v = 5; v >= 1; --v) {
        if (v != r.value && c[v] > 0) { r.further = static_cast<std::uint8_t>(v); break; }
    }
    return r;
}

// Dense code used only to look ranks up: size*36 + value*6 + further.
constexpr int code_of(const Result& r) { return r.size * 36 + r.value * 6 + r.further; }
inline constexpr int kNumCodes = (kMaxGroup + 1) * 36;

struct ResultTable {
    std::array<Result, kNumResults> by_rank{};
    std::array<std::int16_t, kNumCodes> rank_of_code{};
};

constexpr ResultTable make_result_table() {
    ResultTable t;
    for (auto& x : t.rank_of_code) x = -1;
    int n = 0;
    // Generated in increasing (size, value, further) order, so the index is the strength rank.
    for (int s = 0; s <= kMaxGroup; ++s)
        for (int v = 0; v <= 5; ++v)
            for (int f = 0; f <= 5; ++f) {
                Result r{static_cast<std::uint8_t>(s), static_cast<std::uint8_t>(v), static_cast<std::uint8_t>(f)};
                if (!is_valid(r)) continue;
                t.by_rank[n] = r;
                t.rank_of_code[code_of(r)] = static_cast<std::int16_t>(n);
                ++n;
            }
    return t;
}

inline constexpr ResultTable kResults = make_result_table();
static_assert(kResults.by_rank[kNumResults - 1] == Result{7, 5, 4}, "strongest result is 7 fives + a 4");

// Rank of a valid result, -1 for anything that is not one.
constexpr int rank_of(const Result& r) {
    if (!is_valid(r)) return -1;
    return kResults.rank_of_code[code_of(r)];
}

constexpr int rank_of(const Counts& dice, unsigned cards_mask) { return rank_of(result_of(dice, cards_mask)); }

}  // namespace rosen::lovagok
