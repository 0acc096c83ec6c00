// How a self-play decision picks its move: the agents that do not search (uniformly random,
// one-ply greedy) and the random parts of the searching agent's exploration (Dirichlet root
// noise, a move drawn by visit counts). Each takes the decision's generator; none allocates.
#pragma once
#include <cstdint>

#include "rosenkoenig/position.h"

namespace rosen::selfplay {

// Index into `moves` of a uniformly random move.
int random_choice(const MoveList& moves, Rng& rng);

// Index into `moves` of the move that maximises the mover's colour's score minus the other's
// right after it (a draw or pass changes no token, so it is worth the present difference); ties
// are broken uniformly by `rng`, which is used only when there is a tie (as rosen's GreedyAgent).
int greedy_choice(const Position& pos, const MoveList& moves, Rng& rng);

// `count` weights from Dirichlet(alpha, ..., alpha) into out (they sum to 1).
void dirichlet(double alpha, int count, Rng& rng, float* out);

// Index of a move drawn with probability proportional to visits[k]^(1/temperature); moves with
// no visits are never drawn (if none has any, index 0).
int sample_by_visits(const uint32_t* visits, int count, double temperature, Rng& rng);

}  // namespace rosen::selfplay
