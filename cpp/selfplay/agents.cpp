#include "selfplay/agents.h"

#include <cmath>

#include "rosenkoenig/territory.h"

namespace rosen::selfplay {

namespace {

// A standard normal variate (Box-Muller; 1 - uniform() lies in (0, 1], so the log is finite).
double normal(Rng& rng) {
    const double r = std::sqrt(-2.0 * std::log(1.0 - rng.uniform()));
    return r * std::cos(6.283185307179586 * rng.uniform());
}

// A Gamma(alpha, 1) variate: Marsaglia and Tsang (2000) for alpha >= 1; below 1 their boost,
// Gamma(alpha) = Gamma(alpha + 1) * U^(1 / alpha).
double gamma(double alpha, Rng& rng) {
    if (alpha < 1.0) return gamma(alpha + 1.0, rng) * std::pow(1.0 - rng.uniform(), 1.0 / alpha);
    const double d = alpha - 1.0 / 3.0, c = 1.0 / std::sqrt(9.0 * d);
    for (;;) {
        const double x = normal(rng);
        double v = 1.0 + c * x;
        if (v <= 0.0) continue;
        v = v * v * v;
        const double u = 1.0 - rng.uniform();
        if (u < 1.0 - 0.0331 * x * x * x * x || std::log(u) < 0.5 * x * x + d * (1.0 - v + std::log(v))) return d * v;
    }
}

}  // namespace

int random_choice(const MoveList& moves, Rng& rng) { return int(rng.below(uint32_t(moves.size))); }

int greedy_choice(const Position& pos, const MoveList& moves, Rng& rng) {
    const int me = colour_of(pos.to_move);
    const Bitboard mine = pos.tokens[me], theirs = pos.tokens[me ^ 1];
    const int their_score = score(theirs);
    const int now = score(mine) - their_score;
    int best[12];
    int ties = 0, best_value = 0;
    for (int i = 0; i < moves.size; ++i) {
        const Move m = moves[i];
        int value = now;
        if (is_play(m) || is_hero(m)) {
            const Bitboard target = bit(crown_target(pos.crown, move_card(m)));
            value = is_play(m) ? score(mine | target) - their_score : score(mine | target) - score(theirs & ~target);
        }
        if (ties == 0 || value > best_value) {
            best_value = value;
            ties = 0;
        } else if (value < best_value) {
            continue;
        }
        best[ties++] = i;
    }
    return ties == 1 ? best[0] : best[rng.below(uint32_t(ties))];
}

void dirichlet(double alpha, int count, Rng& rng, float* out) {
    double g[12], sum = 0.0;
    for (int k = 0; k < count; ++k) sum += g[k] = gamma(alpha, rng);
    // A tiny alpha can underflow every variate to 0: then the noise is flat.
    for (int k = 0; k < count; ++k) out[k] = sum > 0.0 ? float(g[k] / sum) : 1.0f / float(count);
}

int sample_by_visits(const uint32_t* visits, int count, double temperature, Rng& rng) {
    // Weights relative to the most visited move, in logs, so that a low temperature cannot overflow.
    uint32_t most = 0;
    for (int k = 0; k < count; ++k) most = visits[k] > most ? visits[k] : most;
    if (most == 0) return 0;
    double w[12], total = 0.0;
    const double log_most = std::log(double(most));
    for (int k = 0; k < count; ++k)
        total += w[k] = visits[k] ? std::exp((std::log(double(visits[k])) - log_most) / temperature) : 0.0;
    double x = rng.uniform() * total;
    for (int k = 0; k < count; ++k) {
        if (x < w[k]) return k;
        x -= w[k];
    }
    for (int k = count - 1; k >= 0; --k)  // rounding left x just above the last weight
        if (visits[k]) return k;
    return 0;
}

}  // namespace rosen::selfplay
