// The interchange notation of RULES.md: squares, cards, moves and position lines, plus the
// project's extension for the 4-player variant (13 fields instead of 9, sides r1 w1 r2 w2).
// Printing is canonical (hands and discard in card-id order, runs of empty squares merged), and
// parsing inverts it: parse(format(p)) == p for every position.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "common/errors.h"
#include "position.h"

namespace rosen {

// A malformed position line; `field` names the part that is wrong (e.g. "side", "red hand").
struct InvalidPositionError : ArgumentError {
    using ArgumentError::ArgumentError;
};
// Move text that is not a move in the notation (field "move").
struct InvalidMoveError : ArgumentError {
    using ArgumentError::ArgumentError;
};

std::string square_name(int sq);
int parse_square(std::string_view text);  // -1 if not a square

std::string card_name(int card);
int parse_card(std::string_view text);    // -1 if not a card; case-insensitive
std::string format_cards(CardMask cards, char separator = ',');  // canonical order, "-" when empty

std::string format_move(Move m);
Move parse_move(std::string_view text);   // throws InvalidMoveError

// Why m is not legal in pos, with the legal moves listed: "move: illegal move N2; legal moves: ...".
std::string illegal_move_message(const Position& pos, Move m);

std::string player_name(const Rules& rules, int player);  // "r", "w" or "r1", "w1", "r2", "w2"

// hide_order prints the draw pile as "*" even when its order is known (what a player may see).
std::string format_position(const Position& pos, bool hide_order = false);
// Throws InvalidPositionError. The player count comes from the field count; `seed` seeds draws from a pile of unknown order.
Position parse_position(std::string_view text, Reshuffle reshuffle, uint64_t seed);

}  // namespace rosen
