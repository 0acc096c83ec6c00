// The action space of learned policies (docs/encoding.md): 50 actions, and an action index is the
// Move byte of rosenkoenig/move.h, so a policy vector is indexed by moves without a lookup table.
//   0..23 play card c, 24..47 hero + card c, 48 draw, 49 pass.
// A draw whose card is known (draw:CARD, a chance outcome) is the action draw: the policy chooses
// to draw, chance picks the card.
#pragma once
#include "rosenkoenig/move.h"

namespace rosen::features {

constexpr int kActions = 50;
static_assert(kPass + 1 == kActions && kDraw + 1 == kPass && kHeroBase + kCards == kDraw,
              "actions are the move bytes 0..49 of move.h");

constexpr bool is_action(int a) { return a >= 0 && a < kActions; }
// The action that chose move m (m a play, hero, draw, draw:CARD or pass).
constexpr int action_of(Move m) { return is_draw_card(m) ? kDraw : int(m); }
// The move an action stands for (a draw is the plain draw; apply_checked deals its card).
constexpr Move move_of(int action) { return Move(action); }

}  // namespace rosen::features
