// Self-play rows as the named columns of docs/selfplay.md, "Shards" (one array per field, rows in
// (game, ply) order), written into memory the caller owns -- NumPy arrays, in the bindings.
#pragma once
#include <cstdint>

#include "selfplay/selfplay.h"

namespace rosen::selfplay {

// One pointer per field, each to batch.rows rows of the field's width, C-contiguous.
struct Columns {
    int64_t* game;          // [N]
    int32_t* ply;           // [N]
    int8_t* players;        // [N]
    int8_t* reshuffle;      // [N] 0 eager, 1 lazy
    uint64_t* tokens;       // [N, 2, 2] colour, word (squares 0..63, 64..80)
    int8_t* crown;          // [N]
    uint32_t* hands;        // [N, 4]
    uint32_t* discard;      // [N]
    uint32_t* pile;         // [N] the pile as a set of cards (R14)
    int8_t* heroes;         // [N, 4]
    int8_t* to_move;        // [N]
    bool* legal;            // [N, kActions]
    uint32_t* visits;       // [N, kActions]
    float* root_value;      // [N]
    float* root_margin;     // [N]
    uint8_t* action;        // [N]
    float* result;          // [N] 1 / 0.5 / 0 for the mover's colour (R12)
    int16_t* final_margin;  // [N] mover's colour's final score minus the other's (R11)
    float* weight;          // [N]
    bool* full_search;      // [N]
};

void write_columns(const Batch& batch, const Columns& out);

// Every game's moves one after another in game order (batch.plies bytes): Move bytes, a draw as
// draw_card_move(card).
void write_moves(const Batch& batch, uint8_t* out);

}  // namespace rosen::selfplay
