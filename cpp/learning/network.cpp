#include "learning/network.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <exception>
#include <limits>
#include <string>

#include "common/errors.h"
#include "common/number_text.h"
#include "common/threads.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace rosen::learning {

namespace {

void check_finite(const char* field, const float* data, std::size_t count) {
    if (data == nullptr) throw ArgumentError(field, std::string(field) + ": missing");
    for (std::size_t i = 0; i < count; ++i)
        if (!std::isfinite(data[i]))
            throw ArgumentError(field, std::string(field) + ": non-finite weight (NaN or infinity) at flat index " +
                                           std::to_string(i));
}

void check_hidden(int h, const char* which) {
    if (h < 1 || h > kMaxHidden)
        throw ArgumentError("hidden", std::string("hidden: ") + which + " must be 1.." + std::to_string(kMaxHidden) +
                                          " for C++ evaluation, got " + std::to_string(h));
}

// The two kernels of every layer: out += the sum of the rows listed in `rows`, and out += the
// rows listed, each times its coefficient. Both run over the outputs, independent of each other,
// so they vectorise; the AVX2 clone (chosen at load time where the CPU has it) does the same
// additions and multiplications in the same order, 8 at a time, with no fused multiply-add: the
// results are the same bits on every x86-64 CPU.
// Instrumented builds (sanitizers) keep the plain version: ifunc resolvers run before their runtimes.
#if defined(__GNUC__) && defined(__x86_64__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__) && \
    !defined(__SANITIZE_THREAD__)
#define ROSEN_VECTOR_CLONES __attribute__((target_clones("avx2", "default"), noinline))
#else
#define ROSEN_VECTOR_CLONES
#endif

// Register blocking: the outputs are taken 64 at a time (8 vectors of 8) and kept in registers
// while every listed row is added, instead of loading and storing out[] for each row. Each output
// still gets the same additions in the same order (row by row, no fused multiply-add), so the
// results are the bits of the plain loop "for each row, for each j: out[j] += c * row[j]".
typedef float Vec8 __attribute__((vector_size(32)));
typedef float Vec8U __attribute__((vector_size(32), aligned(4), may_alias));  // an unaligned load or store

template <int N, bool Scaled>
__attribute__((always_inline)) inline void add_block(const uint16_t* rows, int count, const float* coefficients,
                                                     const float* matrix, std::size_t width, float* out) {
    Vec8 acc[N];
    for (int v = 0; v < N; ++v) acc[v] = *reinterpret_cast<const Vec8U*>(out + 8 * v);
    for (int k = 0; k < count; ++k) {
        const float* row = matrix + std::size_t(rows[k]) * width;
        if constexpr (Scaled) {
            const float c = coefficients[rows[k]];
            const Vec8 cv = {c, c, c, c, c, c, c, c};
            for (int v = 0; v < N; ++v) acc[v] += cv * *reinterpret_cast<const Vec8U*>(row + 8 * v);
        } else {
            for (int v = 0; v < N; ++v) acc[v] += *reinterpret_cast<const Vec8U*>(row + 8 * v);
        }
    }
    for (int v = 0; v < N; ++v) *reinterpret_cast<Vec8U*>(out + 8 * v) = acc[v];
}

template <bool Scaled>
__attribute__((always_inline)) inline void add_listed_rows(const uint16_t* rows, int count, const float* coefficients,
                                                           const float* matrix, int width, float* out) {
    const std::size_t w = std::size_t(width);
    int j = 0;
    for (; j + 64 <= width; j += 64) add_block<8, Scaled>(rows, count, coefficients, matrix + j, w, out + j);
    switch ((width - j) / 8) {
        case 7: add_block<7, Scaled>(rows, count, coefficients, matrix + j, w, out + j); break;
        case 6: add_block<6, Scaled>(rows, count, coefficients, matrix + j, w, out + j); break;
        case 5: add_block<5, Scaled>(rows, count, coefficients, matrix + j, w, out + j); break;
        case 4: add_block<4, Scaled>(rows, count, coefficients, matrix + j, w, out + j); break;
        case 3: add_block<3, Scaled>(rows, count, coefficients, matrix + j, w, out + j); break;
        case 2: add_block<2, Scaled>(rows, count, coefficients, matrix + j, w, out + j); break;
        case 1: add_block<1, Scaled>(rows, count, coefficients, matrix + j, w, out + j); break;
        default: break;
    }
    j += (width - j) / 8 * 8;
    for (int k = 0; k < count && j < width; ++k) {
        const float* row = matrix + std::size_t(rows[k]) * w;
        const float c = Scaled ? coefficients[rows[k]] : 1.0f;
        for (int t = j; t < width; ++t) out[t] += Scaled ? c * row[t] : row[t];
    }
}

ROSEN_VECTOR_CLONES void add_rows(const uint16_t* rows, int count, const float* matrix, int width, float* out) {
    add_listed_rows<false>(rows, count, nullptr, matrix, width, out);
}

ROSEN_VECTOR_CLONES void add_scaled_rows(const uint16_t* rows, int count, const float* coefficients,
                                         const float* matrix, int width, float* out) {
    add_listed_rows<true>(rows, count, coefficients, matrix, width, out);
}

// The indices i in [begin, end) with x[i] != 0, in increasing order; returns how many were written
// to out, which must have room for end - begin + 3 (whole groups of 4 are written). Four at a
// time: a compare gives a 4-bit mask, a table its indices, written whole, and the count moves by
// its popcount; no branch per index (which way each goes is unpredictable).
struct NonZeroTable {
    uint64_t at[16];  // the set bits' positions of a 4-bit mask, as 4 x uint16 (unused lanes 0)
    constexpr NonZeroTable() : at{} {
        for (int m = 0; m < 16; ++m) {
            int n = 0;
            for (int b = 0; b < 4; ++b)
                if (m >> b & 1) at[m] |= uint64_t(b) << (16 * n++);
        }
    }
};
inline constexpr NonZeroTable kNonZero{};

inline int non_zero(const float* x, int begin, int end, uint16_t* out) {
    int count = 0, i = begin;
#if defined(__SSE2__)
    const __m128 zero = _mm_setzero_ps();
    for (; i + 4 <= end; i += 4) {
        const int m = _mm_movemask_ps(_mm_cmpneq_ps(_mm_loadu_ps(x + i), zero));  // NaN counts, as x != 0 does
        const uint64_t lanes = kNonZero.at[m] + uint64_t(i) * 0x0001000100010001ull;
        std::memcpy(out + count, &lanes, sizeof lanes);
        count += std::popcount(unsigned(m));
    }
#endif
    for (; i < end; ++i) {
        out[count] = uint16_t(i);
        count += x[i] != 0.0f;
    }
    return count;
}

// out = softmax(x), a distribution whatever a file's finite weights make of the logits: they can
// overflow float, and exp(inf - inf) made every prior and win rate NaN. +inf logits share the
// mass (the softmax's limit); a NaN logit (inf - inf inside the network), or none above -inf,
// leaves it uniform. Finite logits take the plain formula, bit for bit.
void softmax(const float* x, int n, float* out) {
    float top = -std::numeric_limits<float>::infinity();
    bool nan = false;
    for (int i = 0; i < n; ++i) {
        nan |= x[i] != x[i];
        top = std::max(top, x[i]);
    }
    if (nan || top == -std::numeric_limits<float>::infinity()) {
        std::fill(out, out + n, 1.0f / float(n));
        return;
    }
    if (top == std::numeric_limits<float>::infinity()) {
        int count = 0;
        for (int i = 0; i < n; ++i) count += x[i] == top;
        for (int i = 0; i < n; ++i) out[i] = x[i] == top ? 1.0f / float(count) : 0.0f;
        return;
    }
    float sum = 0.0f;
    for (int i = 0; i < n; ++i) sum += out[i] = std::exp(x[i] - top);
    for (int i = 0; i < n; ++i) out[i] /= sum;
}

// priors[i] = the softmax of the policy logits over the actions of moves (legal, so distinct).
void legal_softmax(const float* logits, const MoveList& moves, float* priors) {
    if (moves.size == 0) return;
    float legal[12];
    for (int i = 0; i < moves.size; ++i) legal[i] = logits[features::action_of(moves[i])];
    softmax(legal, moves.size, priors);
}

inline void relu(float* x, int count) {
    for (int j = 0; j < count; ++j) x[j] = x[j] > 0.0f ? x[j] : 0.0f;
}

}  // namespace

Network::Network(const Weights& w) : h1_(w.h1), h2_(w.h2), margin_scale_(w.margin_scale) {
    check_hidden(w.h1, "the first layer");
    check_hidden(w.h2, "the second layer");
    const std::size_t h1 = std::size_t(w.h1), h2 = std::size_t(w.h2);
    check_finite("w1", w.w1, h1 * kInputs);
    check_finite("b1", w.b1, h1);
    check_finite("w2", w.w2, h2 * h1);
    check_finite("b2", w.b2, h2);
    check_finite("wp", w.wp, kActions * h2);
    check_finite("bp", w.bp, kActions);
    check_finite("wv", w.wv, kValueLogits * h2);
    check_finite("bv", w.bv, kValueLogits);
    check_finite("wm", w.wm, h2);
    check_finite("bm", w.bm, 1);
    check_finite("margin_scale", &w.margin_scale, 1);
    // As load_network refuses it: a zero or sign-flipped margin head (a Network built field by
    // field reached the search with one, which then played for the other side's margin).
    if (!(w.margin_scale > 0.0f))
        throw ArgumentError("margin_scale", "margin_scale: expected a scale > 0, got " + number_text(w.margin_scale));
    w1t_.resize(kInputs * h1);
    for (std::size_t j = 0; j < h1; ++j)
        for (std::size_t i = 0; i < std::size_t(kInputs); ++i) w1t_[i * h1 + j] = w.w1[j * kInputs + i];
    b1_.assign(w.b1, w.b1 + h1);
    w2t_.resize(h1 * h2);
    for (std::size_t k = 0; k < h2; ++k)
        for (std::size_t j = 0; j < h1; ++j) w2t_[j * h2 + k] = w.w2[k * h1 + j];
    b2_.assign(w.b2, w.b2 + h2);
    wht_.resize(h2 * kHeads);
    for (std::size_t k = 0; k < h2; ++k) {
        float* row = &wht_[k * kHeads];
        for (int a = 0; a < kActions; ++a) row[a] = w.wp[std::size_t(a) * h2 + k];
        for (int v = 0; v < kValueLogits; ++v) row[kActions + v] = w.wv[std::size_t(v) * h2 + k];
        row[kActions + kValueLogits] = w.wm[k];
    }
    bh_.assign(w.bp, w.bp + kActions);
    bh_.insert(bh_.end(), w.bv, w.bv + kValueLogits);
    bh_.push_back(w.bm[0]);
}

void Network::forward(const Position& pos, float* heads) const {
    float x[kInputs];
    features::encode_flat(pos, x);
    uint16_t active[kMaxHidden + 4];  // kMaxHidden >= kInputs; non_zero writes up to 3 past its count
    float h1[kMaxHidden], h2[kMaxHidden];
    // Layer 1: the inputs before kFlatHeroes are 0 or 1, so their columns are summed; the few
    // after it (fractions and flags) are multiplied.
    std::memcpy(h1, b1_.data(), sizeof(float) * std::size_t(h1_));
    add_rows(active, non_zero(x, 0, features::kFlatHeroes, active), w1t_.data(), h1_, h1);
    add_scaled_rows(active, non_zero(x, features::kFlatHeroes, kInputs, active), x, w1t_.data(), h1_, h1);
    relu(h1, h1_);
    std::memcpy(h2, b2_.data(), sizeof(float) * std::size_t(h2_));
    add_scaled_rows(active, non_zero(h1, 0, h1_, active), h1, w2t_.data(), h2_, h2);
    relu(h2, h2_);
    std::memcpy(heads, bh_.data(), sizeof(float) * kHeads);
    add_scaled_rows(active, non_zero(h2, 0, h2_, active), h2, wht_.data(), kHeads, heads);
}

void Network::value_of(const float* heads, float* wdl, float& value, float& margin) const {
    softmax(heads + kActions, kValueLogits, wdl);
    value = wdl[0] + 0.5f * wdl[1];
    margin = margin_scale_ * heads[kActions + kValueLogits];
}

void Network::evaluate(const Position& pos, Output& out) const {
    float heads[kHeads], priors[12];
    forward(pos, heads);
    value_of(heads, out.wdl, out.value, out.margin);
    std::fill(out.policy, out.policy + kActions, 0.0f);
    const MoveList moves = legal_moves(pos);  // empty once the game is over
    legal_softmax(heads, moves, priors);
    for (int i = 0; i < moves.size; ++i) out.policy[features::action_of(moves[i])] = priors[i];
}

void Network::evaluate(const Position& pos, const MoveList& moves, float* priors, float& value, float& margin) const {
    float heads[kHeads], wdl[kValueLogits];
    forward(pos, heads);
    value_of(heads, wdl, value, margin);
    legal_softmax(heads, moves, priors);
}

void Network::evaluate_batch(const Position* positions, std::size_t n, float* policy, float* wdl, float* margin,
                             float* value, int threads) const {
    auto slice = [&](std::size_t begin, std::size_t end) {
        Output out;
        for (std::size_t i = begin; i < end; ++i) {
            evaluate(positions[i], out);
            std::memcpy(policy + i * kActions, out.policy, sizeof out.policy);
            std::memcpy(wdl + i * kValueLogits, out.wdl, sizeof out.wdl);
            margin[i] = out.margin;
            value[i] = out.value;
        }
    };
    const std::size_t workers = std::min<std::size_t>(std::size_t(std::max(threads, 1)), std::max<std::size_t>(n, 1));
    if (workers == 1) return slice(0, n);
    const std::size_t step = (n + workers - 1) / workers;
    run_in_parallel(int(workers), [&](int t) {
        slice(std::min(n, std::size_t(t) * step), std::min(n, std::size_t(t + 1) * step));
    });
}

}  // namespace rosen::learning
