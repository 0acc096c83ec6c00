// Uniformly random play to the end of the game: the unit of random-game statistics, of the
// speed benchmarks and (later) of MCTS rollouts. Fixed-size data only, nothing allocated per game.
#pragma once
#include <cstdint>

#include "position.h"

namespace rosen {

struct PlayoutResult {
    Outcome outcome = Outcome::None;
    int plies = 0;
    bool blockade = false;  // ended by R9 (no player could act) rather than R8
};

// Plays uniformly random legal moves (a draw deals a card the pile can yield) until the game is
// over. `pos` ends as the final position.
PlayoutResult random_playout(Position& pos, Rng& rng);
// The same play to the end without scoring it (for callers that evaluate the end themselves);
// returns the plies played.
int play_out(Position& pos, Rng& rng);

struct RandomPlayStats {
    uint64_t games = 0, red_wins = 0, white_wins = 0, draws = 0, plies = 0, blockades = 0;
    double seconds = 0;
};

// Game i of a run is dealt and played from seeds derived from (seed, i) alone, so the totals do
// not depend on the number of threads.
RandomPlayStats random_play(const Rules& rules, uint64_t games, uint64_t seed, int threads);

// Number of move sequences of length depth (perft). A draw counts one branch per card the pile
// can yield; a pile of known order yields only its top card, so perft is usually run on a
// position whose pile order is hidden.
uint64_t perft(const Position& pos, int depth);

}  // namespace rosen
