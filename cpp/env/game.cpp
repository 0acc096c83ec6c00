#include "env/game.h"

#include <cstring>

#include "features/encoder.h"
#include "rosenkoenig/notation.h"
#include "selfplay/selfplay.h"

namespace rosen::env {

namespace {

template <typename T>
void encode_as(const Position& pos, int seat, T* out) {
    const auto encode = [out](const Position& p) {
        if constexpr (sizeof(T) == 1) features::encode_planes(p, out);
        else features::encode_flat(p, out);
    };
    if (seat == pos.to_move) return encode(pos);
    Position view = pos;  // a memcpy; the encoder reads the mover from to_move
    view.to_move = uint8_t(seat);
    encode(view);
}

}  // namespace

const char* end_reason_name(EndReason reason) {
    switch (reason) {
        case EndReason::Supply: return "supply";
        case EndReason::Blocked: return "blocked";
        case EndReason::IllegalAction: return "illegal_action";
        case EndReason::None: break;
    }
    return "none";
}

std::string action_text(int action) {
    return std::to_string(action) + (features::is_action(action) ? " (" + format_move(Move(action)) + ")" : "");
}

std::string legal_actions_text(const Game& game) {
    if (game.done()) return "none (the game is over)";
    std::string out;
    for (Move m : legal_moves(game.position())) out += (out.empty() ? "" : ", ") + action_text(features::action_of(m));
    return out;
}

void Game::reset(const Rules& rules, uint64_t deal_seed) {
    pos_ = new_game(rules, deal_seed);
    cards_.reseed(mix_seed(deal_seed, selfplay::kCardStream));
    deal_seed_ = deal_seed;
    plies_ = 0;
    offender_ = -1;
    reason_ = EndReason::None;
    last_ = kNoMove;
}

void Game::load(const Position& pos, uint64_t deal_seed) {
    reset(pos.rules, deal_seed);
    pos_ = pos;
    if (pos_.over) reason_ = pos_.supply() == 0 ? EndReason::Supply : EndReason::Blocked;
}

void Game::apply(int action) {
    last_ = selfplay::play_dealt(pos_, features::move_of(action), cards_);
    ++plies_;
    if (pos_.over) reason_ = pos_.supply() == 0 ? EndReason::Supply : EndReason::Blocked;
}

void Game::forfeit(int player) {
    offender_ = player;
    reason_ = EndReason::IllegalAction;
}

float Game::reward(int player) const {
    const int colour = colour_of(player);
    if (reason_ == EndReason::IllegalAction) return colour == colour_of(offender_) ? -1.0f : 1.0f;
    switch (outcome(pos_)) {
        case Outcome::RedWins: return colour == kRed ? 1.0f : -1.0f;
        case Outcome::WhiteWins: return colour == kWhite ? 1.0f : -1.0f;
        default: return 0.0f;
    }
}

void Game::mask(int8_t* out) const {
    std::memset(out, 0, kActions);
    if (done()) return;
    for (Move m : legal_moves(pos_)) out[features::action_of(m)] = 1;
}

void Game::observe(int seat, int8_t* out) const { encode_as(pos_, seat, out); }
void Game::observe(int seat, float* out) const { encode_as(pos_, seat, out); }

}  // namespace rosen::env
