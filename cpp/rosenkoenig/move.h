// Moves as one byte (RULES.md R4, R6): plays 0..23 (the card id), heroes 24..47 (24 + card id),
// draw 48, pass 49. A draw whose card is known (a chance outcome) is 64 + card id; it is never in
// a legal-move list, which holds the plain draw.
#pragma once
#include <array>
#include <cstdint>

#include "cards.h"

namespace rosen {

using Move = uint8_t;

constexpr Move kHeroBase = 24;
constexpr Move kDraw = 48;
constexpr Move kPass = 49;
constexpr Move kDrawCardBase = 64;
constexpr Move kNoMove = 255;

constexpr Move play_move(int card) { return Move(card); }
constexpr Move hero_move(int card) { return Move(kHeroBase + card); }
constexpr Move draw_card_move(int card) { return Move(kDrawCardBase + card); }
constexpr bool is_play(Move m) { return m < kHeroBase; }
constexpr bool is_hero(Move m) { return m >= kHeroBase && m < kDraw; }
constexpr bool is_draw_card(Move m) { return m >= kDrawCardBase && m < kDrawCardBase + kCards; }
constexpr int move_card(Move m) { return is_play(m) ? m : is_hero(m) ? m - kHeroBase : m - kDrawCardBase; }

// At most 5 cards x (play or hero) + draw; a hero and a play with the same card exclude each
// other, so 6 is the real bound. Fixed size, on the stack (no allocation per move).
struct MoveList {
    std::array<Move, 12> moves;
    int size = 0;
    void push(Move m) { moves[size++] = m; }
    const Move* begin() const { return moves.data(); }
    const Move* end() const { return moves.data() + size; }
    Move operator[](int i) const { return moves[i]; }
};

}  // namespace rosen
