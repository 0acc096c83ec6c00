// The one observation encoder of learned agents (docs/encoding.md has every plane and feature).
// Everything is seen from the mover's side: own colour first, then the other players in turn
// order (opponent = the next to move, partner and opponent2 in the 4-player game). Only public
// facts are read (R14): the pile as a set and its size, never its order nor the position's
// generator, so positions that differ only there encode identically.
//
// Two layouts, fixed for a given kEncoderVersion (a change of either bumps it):
//   planes  int8 [kPlanes, 9, 9], plane[rank][file] (a1 = [0][0]); broadcast planes hold raw counts
//   flat    float32 [kFlatFeatures], counts scaled to 0..1 (the derived scores and gains of
//           version 2 scaled to about 0..1, the score difference to about -1..1)
// Version 2 appends derived, rule-exact features (R10, R11) to both layouts, computed with the
// search's territory code (search/territories.h, search/evaluator.h): scores, largest
// territories, the territory size under each token, and what each card would gain.
// Both are symmetric under the board's symmetries (symmetry.h): a plane turns as the board turns
// (the card planes draw each card where the crown would land from e5), and the flat layout
// permutes by flat_image().
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "row_state.h"
#include "rosenkoenig/position.h"

namespace rosen::features {

constexpr int kEncoderVersion = 2;

// Seats from the mover's view: 0 mover, 1 opponent (next to move), 2 partner, 3 opponent2
// (4 players only; in the 2-player game the last two are left empty).
constexpr int kSeats = 4;

enum Plane : int {
    kOwnTokens, kOpponentTokens, kEmpty, kCrown,
    kPlayTargets, kHeroTargets,       // where the mover's legal plays and heroes put the crown
    kReach,                           // kReach + seat: where each card of that hand takes the crown now
    kHandCards = kReach + kSeats,     // kHandCards + seat: the hand on the card grid
    kDiscardCards = kHandCards + kSeats,
    kPileCards,
    kHeroes,                          // kHeroes + seat: hero cards left (broadcast)
    kHandSize = kHeroes + kSeats,     // kHandSize + seat (broadcast)
    kSupply = kHandSize + kSeats, kPileSize, kDrawLegal, kLazyReshuffle, kFourPlayers, kMoverWhite, kTeamSeat,
    // Version 2 (R10, R11): the size of the territory each token is in (mover's colour, the other
    // colour), and on each legal play / hero target the mover's gain, capped at 127.
    kOwnTerritory, kOpponentTerritory, kPlayGain, kHeroGain,
    kPlanes
};

enum Feature : int {
    kFlatHands = 0,                        // 4 seats x 24 cards
    kFlatDiscard = kFlatHands + kSeats * kCards,
    kFlatPile = kFlatDiscard + kCards,
    kFlatOwnTokens = kFlatPile + kCards,   // 81 squares each
    kFlatOpponentTokens = kFlatOwnTokens + kSquares,
    kFlatCrown = kFlatOpponentTokens + kSquares,
    kFlatHeroes = kFlatCrown + kSquares,   // 4 seats, heroes / 4
    kFlatSupply = kFlatHeroes + kSeats,    // / 52
    kFlatPileSize,                         // / 24
    kFlatDrawLegal, kFlatLazyReshuffle, kFlatFourPlayers, kFlatMoverWhite, kFlatTeamSeat,
    // Version 2, derived (R10, R11); "own" is the mover's colour, "other" the opponent colour.
    kFlatScores,                           // own score, other score, own - other; / 100
    kFlatLargest = kFlatScores + 3,        // own, other largest territory; / 20
    kFlatTokens = kFlatLargest + 2,        // own, other tokens on the board; / 52
    kFlatPlayGain = kFlatTokens + 2,       // 24 cards: join gain of the mover's legal play / 50, else 0
    kFlatHeroGain = kFlatPlayGain + kCards,    // 24: join gain + the other's split loss of a legal hero / 50
    kFlatThreat = kFlatHeroGain + kCards,      // 24: the opponent's (next player's) play join gain from
                                               // the current crown / 50, 0 where not playable
    kFlatFeatures = kFlatThreat + kCards
};
static_assert(kPlanes == 35 && kFlatFeatures == 477, "the layouts of kEncoderVersion 2");

// The square where the card grid shows card c: where the crown lands from e5 (N1 on e6, SW3 on b2).
inline int card_square(int card) { return crown_target(square_of(4, 4), card); }

// Write one position into out (every entry is written; nothing is allocated).
void encode_planes(const Position& pos, int8_t* out);  // kPlanes * 81 entries
void encode_flat(const Position& pos, float* out);     // kFlatFeatures entries

// Batches, row after row: the output's element type picks the layout (int8 planes, float flat).
void encode_batch(const Position* positions, std::size_t n, int8_t* out);
void encode_batch(const Position* positions, std::size_t n, float* out);
// Record rows (row_state.h); a bad row throws ArgumentError naming the field and row, with
// check_first before anything is written to out (for a caller's buffer).
void encode_rows(const RowsIn& rows, std::size_t n, int8_t* out, bool check_first = false);
void encode_rows(const RowsIn& rows, std::size_t n, float* out, bool check_first = false);

std::vector<std::string> plane_names();    // kPlanes names, e.g. "own_tokens", "reach.partner"
std::vector<std::string> feature_names();  // kFlatFeatures names, e.g. "hand.mover.N1", "crown.e5"

// flat_image(k)[f]: where feature f of a position goes in the encoding of transform(pos, k).
std::array<int, kFlatFeatures> flat_image(int k);

}  // namespace rosen::features
