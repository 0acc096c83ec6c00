// A learned evaluation (docs/learning.md, "Network format"): an MLP over the flat encoding (features/encoder.h)
// with a policy head over the 50 actions (features/actions.h) and value heads (win/draw/loss and
// the final score margin), all from the mover's view. Python reads and checks the .npz file
// (python/rosen/learning/network.py) and hands the arrays over; this class copies them into the
// layout evaluation wants and evaluates one position at a time with no heap allocation:
//
//   x = encode_flat(pos)   on the stack; almost every input is 0 or 1, so layer 1 adds the
//                          columns of the active inputs (w1 is stored transposed) and multiplies
//                          only the few fractional ones (heroes, supply, pile size)
//   layer 2 and the heads  in the same "add the columns of the non-zero inputs" form (weights
//                          transposed): the inner loops run over outputs, independent of each
//                          other, so they vectorise without reassociating any sum, and ReLU's
//                          zeros are skipped
//
// Each position is evaluated alone, in a fixed order of operations, so the result does not
// depend on the batch it is in or on the number of threads. The encoder reads public facts
// only (R14): positions that differ only in the pile order evaluate identically.
#pragma once
#include <cstddef>
#include <vector>

#include "features/actions.h"
#include "features/encoder.h"
#include "rosenkoenig/position.h"

namespace rosen::learning {

constexpr int kInputs = features::kFlatFeatures;
constexpr int kActions = features::kActions;
constexpr int kValueLogits = 3;                     // win, draw, loss
constexpr int kHeads = kActions + kValueLogits + 1; // policy logits, value logits, margin
// The widest hidden layer evaluation holds on the stack (two such layers: 16 KiB).
constexpr int kMaxHidden = 2048;
static_assert(kMaxHidden >= kInputs && kMaxHidden <= 65536, "forward() lists active inputs in uint16_t[kMaxHidden]");

// The file's arrays, row-major float32 as the spec lays them out; only read by the constructor.
struct Weights {
    int h1 = 0, h2 = 0;
    const float* w1 = nullptr;  // [h1, kInputs]
    const float* b1 = nullptr;  // [h1]
    const float* w2 = nullptr;  // [h2, h1]
    const float* b2 = nullptr;  // [h2]
    const float* wp = nullptr;  // [kActions, h2]
    const float* bp = nullptr;  // [kActions]
    const float* wv = nullptr;  // [3, h2]
    const float* bv = nullptr;  // [3]
    const float* wm = nullptr;  // [1, h2]
    const float* bm = nullptr;  // [1]
    float margin_scale = 1.0f;
};

// One position's evaluation, from the mover's view.
struct Output {
    float policy[kActions];  // softmax over the legal actions, 0 elsewhere (all 0 if the game is over)
    float wdl[kValueLogits]; // win, draw, loss of the mover's colour
    float margin;            // expected final score margin, mover's colour minus the other (R11)
    float value;             // win + draw / 2
};

class Network {
public:
    // Copies the weights. Throws ArgumentError naming the field: a hidden size outside
    // 1..kMaxHidden, a missing array, a non-finite weight or margin_scale.
    explicit Network(const Weights& w);

    int hidden1() const { return h1_; }
    int hidden2() const { return h2_; }
    float margin_scale() const { return margin_scale_; }

    void evaluate(const Position& pos, Output& out) const;
    // What a search needs at a leaf: the priors of `moves` (legal_moves(pos), in their order), and
    // the mover's value (win + draw / 2) and expected margin.
    void evaluate(const Position& pos, const MoveList& moves, float* priors, float& value, float& margin) const;
    // positions[0..n) into row-major outputs policy [n, kActions], wdl [n, 3], margin [n],
    // value [n], on `threads` threads (contiguous slices; the result is the same for any count).
    void evaluate_batch(const Position* positions, std::size_t n, float* policy, float* wdl, float* margin,
                        float* value, int threads) const;

private:
    // The raw heads of pos: kActions policy logits, 3 value logits, the unscaled margin.
    void forward(const Position& pos, float* heads) const;
    // wdl softmax, value and scaled margin from the raw heads.
    void value_of(const float* heads, float* wdl, float& value, float& margin) const;

    int h1_ = 0, h2_ = 0;
    float margin_scale_ = 1.0f;
    std::vector<float> w1t_;  // [kInputs, h1]: the column of input i is contiguous
    std::vector<float> b1_;   // [h1]
    std::vector<float> w2t_;  // [h1, h2]
    std::vector<float> b2_;   // [h2]
    std::vector<float> wht_;  // [h2, kHeads]: wp, wv and wm side by side, transposed
    std::vector<float> bh_;   // [kHeads]
};

}  // namespace rosen::learning
