// Game knowledge for the search, kept apart from the tree (the tree only asks for move priors,
// a rollout move, and the value of a leaf): exact territory-score deltas of a move, the
// heuristic rollout policy built on them, and the evaluation of terminal and cut-off positions.
// Everything works on fixed-size data on the stack; nothing is allocated.
#pragma once
#include <cstdint>

#include "rosenkoenig/move.h"
#include "rosenkoenig/position.h"
#include "rosenkoenig/rng.h"
#include "rosenkoenig/territory.h"
#include "search/params.h"

namespace rosen::search {

// Score change (R11) of a colour's tokens `own` when a token of that colour is added on `sq`
// (which must not be in own): the territories touching sq merge with it into one.
int join_gain(Bitboard own, int sq);
// Score lost by a colour's tokens `theirs` when its token on `sq` (in theirs) is removed: the
// territory through sq falls apart into the pieces around it.
int split_loss(Bitboard theirs, int sq);

// Heuristic value in score points of each move in `moves` for the side to move: the own score
// gained plus the opponent's score destroyed, less a price for a spent hero; a draw is worth a
// fixed amount (more with a short hand). Writes moves.size values.
void move_values(const Position& pos, const MoveList& moves, const SearchParams& p, float* values);

// Softmax of move_values at p.temperature: the policy's probabilities, used as priors.
void move_priors(const Position& pos, const MoveList& moves, const SearchParams& p, float* priors);

// The value of a leaf, always from Red's point of view (the search converts it to the mover's;
// a 4-player team shares its colour's value, R13).
struct Evaluation {
    float reward = 0.5f;  // in [0, 1]
    float margin = 0.0f;  // Red's score minus White's (R11), the expected final margin
};

// Red's reward from Red's win probability (1 win, 1/2 draw) and expected margin, as p.reward and
// p.margin_weight shape it: what evaluate_terminal and evaluate_cutoff return, and what a
// network's value and margin become at a leaf.
float shaped_reward(float win, float margin, const SearchParams& p);

// A finished game (R12), shaped by p.reward and p.margin_weight; the second form from both
// colours' territory statistics (R10-R12), where the caller has them already.
Evaluation evaluate_terminal(const Position& pos, const SearchParams& p);
Evaluation evaluate_terminal(const TerritoryStats& red, const TerritoryStats& white, const SearchParams& p);
// An unfinished game cut off early: the margin plus the heroes' worth, squashed by p.eval_scale;
// the second form with Red's score minus White's (R11) given.
Evaluation evaluate_cutoff(const Position& pos, const SearchParams& p);
Evaluation evaluate_cutoff(const Position& pos, int red_margin, const SearchParams& p);

// Red's reward of the static evaluation of each move's child position (evaluate_cutoff, or
// evaluate_terminal where the move ends the game, R8), from exact territory-score deltas: the
// values implicit minimax backups start from. Writes moves.size rewards.
void child_rewards(const Position& pos, const MoveList& moves, const SearchParams& p, float* rewards);

// Plays pos to the end (or cutoff_plies(p, players) plies) with the rollout policy and evaluates it
// (rollout.cpp). pos must have a hidden pile order (R14): draws are dealt uniformly by rng.
Evaluation rollout(Position& pos, const SearchParams& p, Rng& rng);

}  // namespace rosen::search
