// One environment of the reinforcement-learning APIs (docs/rl.md): a game dealt from a seed, the
// dealer of its draws, and what a step needs -- the 50-action mask, the one observation encoder
// (features/encoder.h) from any seat's view, and +1/0/-1 rewards once it is over.
//
// Dealing is self-play's (selfplay.h): the deal is new_game(rules, deal_seed), the same as
// rosen.Position.new(deal_seed), and every draw's card comes from Rng(mix_seed(deal_seed,
// kCardStream)) -- the top of the dealt pile while it lasts, then uniform over a reshuffled pile
// (R7). Episode k of a stream s is dealt from deal_seed(s, k) = mix_seed(s, k), as self-play's game
// k of a run seeded s. Observations read only public facts (R14): the encoder never sees the order.
#pragma once
#include <cstdint>
#include <string>

#include "features/actions.h"
#include "rosenkoenig/position.h"

namespace rosen::env {

using features::kActions;

// Why a game ended: R8 (the 52nd token), R9 (no player can act), or an illegal action that the
// API punishes by ending the game (the Gymnasium env and the PettingZoo env; never the VecEnv).
enum class EndReason : uint8_t { None = 0, Supply, Blocked, IllegalAction };
const char* end_reason_name(EndReason reason);  // "none", "supply", "blocked", "illegal_action"

class Game;
// For error messages: "5 (N3)" for an action, and the legal actions of a game ("0 (N1), 48 (draw)").
std::string action_text(int action);
std::string legal_actions_text(const Game& game);

class Game {
public:
    // A new game: the deal and the card stream of deal_seed.
    void reset(const Rules& rules, uint64_t deal_seed);
    // A game that goes on from `pos` (its pile order, if known, deals first), the card stream of
    // deal_seed dealing after that; plies count from 0. For tests and for starting from a position.
    void load(const Position& pos, uint64_t deal_seed);

    // Applies a legal action (unchecked: the caller asked legal()); a draw deals its card.
    void apply(int action);
    // Ends the game because `player` chose an illegal action: that player's team loses (R12 aside).
    void forfeit(int player);

    bool legal(int action) const { return !done() && features::is_action(action) && is_legal(pos_, Move(action)); }
    bool done() const { return pos_.over || reason_ == EndReason::IllegalAction; }
    int current_player() const { return done() ? -1 : pos_.to_move; }
    int players() const { return pos_.players(); }
    EndReason end_reason() const { return reason_; }
    // +1 for the winning team's players, -1 for the losers', 0 for a draw or a game not over.
    // After forfeit(p) the game is lost by forfeit: -1 for p's team, +1 for the other.
    float reward(int player) const;
    int plies() const { return plies_; }
    uint64_t deal_seed() const { return deal_seed_; }
    // The last move played, a draw as draw_card_move(card) (what agents are told); kNoMove at first.
    Move last_move() const { return last_; }
    // The whole position, the pile's order included: never hand it to a player (public_view).
    const Position& position() const { return pos_; }

    // 1 at every legal action, else 0 (all zeros once the game is over); kActions entries.
    void mask(int8_t* out) const;
    // The encoder's output as `seat` sees the position: that player is the encoder's mover (own
    // colour first, the others in turn order after it). For the player to move this is exactly
    // encode(position); for another it is the same facts from its chair.
    void observe(int seat, int8_t* out) const;  // planes: kPlanes * 81 entries
    void observe(int seat, float* out) const;   // flat: kFlatFeatures entries

private:
    Position pos_;
    Rng cards_;
    uint64_t deal_seed_ = 0;
    int plies_ = 0;
    int offender_ = -1;
    EndReason reason_ = EndReason::None;
    Move last_ = kNoMove;
};

}  // namespace rosen::env
