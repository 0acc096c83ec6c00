#include "learning/network.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <exception>
#include <string>

#include "common/errors.h"
#include "common/threads.h"

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

ROSEN_VECTOR_CLONES void add_rows(const uint16_t* rows, int count, const float* matrix, int width, float* out) {
    for (int k = 0; k < count; ++k) {
        const float* row = matrix + std::size_t(rows[k]) * std::size_t(width);
        for (int j = 0; j < width; ++j) out[j] += row[j];
    }
}

ROSEN_VECTOR_CLONES void add_scaled_rows(const uint16_t* rows, int count, const float* coefficients,
                                         const float* matrix, int width, float* out) {
    for (int k = 0; k < count; ++k) {
        const float c = coefficients[rows[k]];
        const float* row = matrix + std::size_t(rows[k]) * std::size_t(width);
        for (int j = 0; j < width; ++j) out[j] += c * row[j];
    }
}

// The indices i in [begin, end) with x[i] != 0, without a branch per index (which way each goes
// is unpredictable); returns how many were written to out.
inline int non_zero(const float* x, int begin, int end, uint16_t* out) {
    int count = 0;
    for (int i = begin; i < end; ++i) {
        out[count] = uint16_t(i);
        count += x[i] != 0.0f;
    }
    return count;
}

// priors[i] = the softmax of the policy logits over the actions of moves (legal, so distinct).
void legal_softmax(const float* logits, const MoveList& moves, float* priors) {
    if (moves.size == 0) return;
    float top = logits[features::action_of(moves[0])];
    for (Move m : moves) top = std::max(top, logits[features::action_of(m)]);
    float sum = 0.0f;
    for (int i = 0; i < moves.size; ++i) sum += priors[i] = std::exp(logits[features::action_of(moves[i])] - top);
    for (int i = 0; i < moves.size; ++i) priors[i] /= sum;
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
    uint16_t active[kMaxHidden];  // kMaxHidden >= kInputs
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
    const float* v = heads + kActions;
    const float top = std::max({v[0], v[1], v[2]});
    float sum = 0.0f;
    for (int k = 0; k < kValueLogits; ++k) sum += wdl[k] = std::exp(v[k] - top);
    for (int k = 0; k < kValueLogits; ++k) wdl[k] /= sum;
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
