// A human-readable drawing of a position for a terminal (what `str(position)` shows).
#pragma once
#include <string>

#include "position.h"

namespace rosen {

// Board with coordinates (tokens r/w, the token under the crown in capitals, '*' for the crown
// on an empty square), then hands, heroes, scores, supply, pile size and the side to move.
std::string draw_position(const Position& pos);

}  // namespace rosen
