// A Rosenkönig position: everything on and around the board, trivially copyable so that a clone
// is a memcpy. The rules (player count, reshuffle mode) travel with it as a value.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "bitboard.h"
#include "common/errors.h"
#include "cards.h"
#include "move.h"
#include "rng.h"
#include "rules.h"

namespace rosen {

// Raised for a move that is well formed but not legal here (field "move"); the bindings map it to
// rosen.IllegalMoveError, whose message lists the legal moves (notation.h: illegal_move_message).
struct IllegalMoveError : ArgumentError {
    using ArgumentError::ArgumentError;
};

enum class Outcome : uint8_t { None = 0, RedWins, WhiteWins, Draw };

struct Position {
    Bitboard tokens[2] = {0, 0};   // by colour (kRed, kWhite)
    CardMask hand[4] = {0, 0, 0, 0};
    CardMask discard = 0;
    CardMask pile = 0;             // the cards in the draw pile, whether or not their order is known
    uint8_t order[kCards] = {};    // when pile_ordered: the pile bottom first, top at order[pile_size-1]
    uint8_t pile_size = 0;         // == popcount(pile)
    bool pile_ordered = false;     // false: the order is unknown, a draw takes a uniform card
    uint8_t heroes[4] = {0, 0, 0, 0};
    int8_t crown = 40;             // e5
    uint8_t to_move = 0;           // player index (see rules.h)
    bool over = false;             // R8 or R9 holds; derived, kept up to date by every change
    Rules rules;
    uint64_t rng_state = 0;        // splitmix64 state for draws from a pile of unknown order

    int players() const { return rules.players; }
    int token_count() const { return popcount(tokens[0] | tokens[1]); }
    int supply() const { return kTotalTokens - token_count(); }
    Bitboard occupied() const { return tokens[0] | tokens[1]; }
};
static_assert(std::is_trivially_copyable_v<Position>, "a Position must clone by memcpy");

// A fresh seeded deal (R3): the 24 cards are shuffled with the project's generator; players get
// their hands in turn order from the top, the rest is the draw pile in known order.
Position new_game(const Rules& rules, uint64_t seed);

// True if `player` could take an action (play, hero or draw) in this position (R4, R6).
bool can_act(const Position& pos, int player);
// R8 or R9 (no player can act), computed from scratch.
bool compute_over(const Position& pos);

// Legal moves in canonical order: plays, heroes (both by card id), draw, or else pass (R6).
// Empty when the game is over.
MoveList legal_moves(const Position& pos);
bool is_legal(const Position& pos, Move m);

// The cards a draw can yield now: the top card of a known-order pile, any card of an
// unknown-order pile, or (lazy reshuffle, empty pile) any card of the discard pile (R7).
CardMask drawable_cards(const Position& pos);

// Unchecked moves for the hot path. apply_move handles play, hero and pass; a draw must go
// through apply_draw with the drawn card.
void apply_move(Position& pos, Move m);
void apply_draw(Position& pos, int card);
// apply_draw without its test for R9 (no player can act), which leaves pos.over false: for a loop
// that tests R9 itself, where alone it can hold (the next player has no move; compute_over).
void apply_draw_without_blockade_test(Position& pos, int card);
// Picks the card a plain draw yields: the top card when the order is known, else a uniform one.
int deal_card(const Position& pos, Rng& rng);
int deal_card(Position& pos);  // the same, using and advancing the position's own generator

// Checked entry point: validates, then applies (a plain draw deals from the position's own
// generator). Throws IllegalMoveError and leaves pos unchanged if the move is not legal.
void apply_checked(Position& pos, Move m);

// Forget the order of the draw pile (what a player may know, R14).
void hide_pile_order(Position& pos);
// What a player may know of pos (R14), the first thing every search computes: the pile's order
// forgotten, and its array and the position's private generator zeroed, so nothing can read them.
Position public_view(const Position& pos);
// R7 eager: an empty pile beside a non-empty discard is reshuffled at once.
void normalise_pile(Position& pos);

// Setting up a position field by field (a parsed position line, a self-play record row):
// where the crown may stand (R3, R4: on a token, or on e5 while the board is empty) ...
bool crown_square_valid(const Position& pos);
// ... and, once every field is set, the facts derived from them: the pile size, the eager
// reshuffle of an empty pile (R7: the moment of the last draw) and the end of the game (R8, R9).
void finish_setup(Position& pos);

int score(Bitboard colour);  // R10, R11
Outcome outcome(const Position& pos);  // R12; Outcome::None while the game is not over

}  // namespace rosen
