#include "position.h"

#include <algorithm>
#include <cstring>

#include "territory.h"

namespace rosen {

namespace {

int hand_size(const Position& pos, int player) { return std::popcount(pos.hand[player]); }

// Square tests by word and mask instead of a variable 128-bit shift. A target off the board is
// kNoSquare, 255 as a byte, which lands in words 2-3: never empty, never the opponent's.
struct SquareTest {
    uint64_t occupied[4], theirs_[4];
    SquareTest(Bitboard occ, Bitboard opp)
        : occupied{uint64_t(occ), uint64_t(occ >> 64), ~0ull, ~0ull}, theirs_{uint64_t(opp), uint64_t(opp >> 64), 0, 0} {}
    uint32_t empty(uint8_t sq) const { return !(occupied[sq >> 6] & (1ull << (sq & 63))); }
    uint32_t theirs(uint8_t sq) const { return (theirs_[sq >> 6] >> (sq & 63)) & 1; }
};

// R7: the discard pile, shuffled, becomes the draw pile. Its order is unknown to everyone, so a
// later draw takes a uniform card instead of a shuffle being stored.
void reshuffle_discard(Position& pos) {
    pos.pile = pos.discard;
    pos.pile_size = uint8_t(std::popcount(pos.discard));
    pos.discard = 0;
    pos.pile_ordered = false;
}

int next_player(const Position& pos) { return (pos.to_move + 1) % pos.rules.players; }

// R9 can only arise right after a draw (after a play the mover holds fewer cards than the limit
// and could draw), so the blockade test runs only then.
bool blocked(const Position& pos) {
    // Usually someone holds fewer cards than the limit and can draw: test that for all first.
    for (int p = 0; p < pos.rules.players; ++p)
        if (hand_size(pos, p) < pos.rules.hand_limit()) return false;
    for (int p = 0; p < pos.rules.players; ++p)
        if (can_act(pos, p)) return false;
    return true;
}

}  // namespace

Position new_game(const Rules& rules, uint64_t seed) {
    Position pos;
    pos.rules = rules;
    uint8_t deck[kCards];
    for (int c = 0; c < kCards; ++c) deck[c] = uint8_t(c);
    Rng rng(seed);
    for (int i = kCards - 1; i > 0; --i) std::swap(deck[i], deck[rng.below(uint32_t(i + 1))]);
    const int hand = rules.hand_limit();
    int next = 0;
    for (int p = 0; p < rules.players; ++p) {
        pos.heroes[p] = uint8_t(rules.start_heroes());
        for (int k = 0; k < hand; ++k) pos.hand[p] |= 1u << deck[next++];
    }
    // deck[next] is the top of the pile; order[] keeps the top last.
    pos.pile_size = uint8_t(kCards - next);
    for (int i = 0; i < pos.pile_size; ++i) {
        pos.order[i] = deck[kCards - 1 - i];
        pos.pile |= 1u << deck[kCards - 1 - i];
    }
    pos.pile_ordered = true;
    pos.rng_state = mix_seed(seed, 0x726f73656e);
    pos.over = compute_over(pos);
    return pos;
}

bool can_act(const Position& pos, int player) {
    if (hand_size(pos, player) < pos.rules.hand_limit()) return true;  // a draw is always possible
    const SquareTest board(pos.occupied(), pos.tokens[colour_of(player) ^ 1]);
    const uint32_t may_hero = pos.heroes[player] != 0;
    uint32_t any = 0;
    for (CardMask h = pos.hand[player]; h; h &= h - 1) {
        const uint8_t t = uint8_t(crown_target(pos.crown, std::countr_zero(h)));
        any |= board.empty(t) | (board.theirs(t) & may_hero);
    }
    return any;
}

bool compute_over(const Position& pos) {
    return pos.token_count() >= kTotalTokens || blocked(pos);
}

MoveList legal_moves(const Position& pos) {
    MoveList list;
    if (pos.over) return list;
    const int p = pos.to_move;
    const SquareTest board(pos.occupied(), pos.tokens[colour_of(p) ^ 1]);
    const uint32_t may_hero = pos.heroes[p] != 0;
    // Branch-free on the board: whether a square is empty or the opponent's is as good as random
    // in a playout, so both candidate moves are written and the counts advance by the tests. The
    // loop over the hand keeps its exit branch: the hand size follows a pattern the branch
    // predictor learns (a fixed five rounds with padding cards measured slower).
    Move heroes[8];
    int nplays = 0, nheroes = 0;
    for (CardMask h = pos.hand[p]; h; h &= h - 1) {
        const int card = std::countr_zero(h);
        const uint8_t t = uint8_t(crown_target(pos.crown, card));
        list.moves[nplays] = play_move(card);
        nplays += int(board.empty(t));
        heroes[nheroes] = hero_move(card);
        nheroes += int(board.theirs(t) & may_hero);
    }
    list.size = nplays;
    for (int i = 0; i < nheroes; ++i) list.push(heroes[i]);
    if (hand_size(pos, p) < pos.rules.hand_limit()) list.push(kDraw);
    if (list.size == 0) list.push(kPass);
    return list;
}

bool is_legal(const Position& pos, Move m) {
    if (is_draw_card(m)) {
        if (!is_legal(pos, kDraw)) return false;
        return drawable_cards(pos) & (1u << move_card(m));
    }
    for (Move legal : legal_moves(pos))
        if (legal == m) return true;
    return false;
}

CardMask drawable_cards(const Position& pos) {
    if (pos.pile_size == 0) return pos.rules.reshuffle == Reshuffle::Lazy ? pos.discard : 0;
    if (pos.pile_ordered) return 1u << pos.order[pos.pile_size - 1];
    return pos.pile;
}

void apply_move(Position& pos, Move m) {
    const int p = pos.to_move;
    if (m != kPass) {
        const int card = move_card(m);
        const int t = crown_target(pos.crown, card);
        const int colour = colour_of(p);
        if (is_play(m)) {
            pos.tokens[colour] |= bit(t);
            if (pos.token_count() >= kTotalTokens) pos.over = true;  // R8
        } else {
            pos.tokens[colour ^ 1] &= ~bit(t);
            pos.tokens[colour] |= bit(t);
            --pos.heroes[p];
        }
        pos.crown = int8_t(t);
        pos.hand[p] &= ~(1u << card);
        pos.discard |= 1u << card;
    }
    pos.to_move = uint8_t(next_player(pos));
}

void apply_draw_without_blockade_test(Position& pos, int card) {
    if (pos.pile_size == 0) reshuffle_discard(pos);  // lazy (R7): the discard becomes the pile first
    // With a known order the caller guarantees card is the top, so the order array stays valid.
    --pos.pile_size;
    pos.pile &= ~(1u << card);
    pos.hand[pos.to_move] |= 1u << card;
    if (pos.pile_size == 0 && pos.rules.reshuffle == Reshuffle::Eager) reshuffle_discard(pos);
    pos.to_move = uint8_t(next_player(pos));
}

void apply_draw(Position& pos, int card) {
    apply_draw_without_blockade_test(pos, card);
    if (blocked(pos)) pos.over = true;  // R9
}

int deal_card(const Position& pos, Rng& rng) {
    const CardMask m = drawable_cards(pos);
    if (pos.pile_ordered && pos.pile_size) return std::countr_zero(m);
    return nth_card(m, rng.below(uint32_t(std::popcount(m))));
}

int deal_card(Position& pos) {
    const CardMask m = drawable_cards(pos);
    if (pos.pile_ordered && pos.pile_size) return std::countr_zero(m);
    const uint64_t r = splitmix64(pos.rng_state);
    return nth_card(m, uint32_t(((r >> 32) * uint64_t(std::popcount(m))) >> 32));
}

void apply_checked(Position& pos, Move m) {
    if (!is_legal(pos, m)) throw IllegalMoveError("move", "move: illegal move");
    if (m == kDraw)
        apply_draw(pos, deal_card(pos));
    else if (is_draw_card(m))
        apply_draw(pos, move_card(m));
    else
        apply_move(pos, m);
}

void hide_pile_order(Position& pos) { pos.pile_ordered = false; }

Position public_view(const Position& pos) {
    Position view = pos;
    hide_pile_order(view);
    std::memset(view.order, 0, sizeof view.order);
    view.rng_state = 0;
    return view;
}

void normalise_pile(Position& pos) {
    if (pos.rules.reshuffle == Reshuffle::Eager && pos.pile_size == 0 && pos.discard) reshuffle_discard(pos);
}

bool crown_square_valid(const Position& pos) {
    const Bitboard occupied = pos.occupied();
    return (occupied & bit(pos.crown)) || (!occupied && pos.crown == square_of(4, 4));
}

void finish_setup(Position& pos) {
    pos.pile_size = uint8_t(std::popcount(pos.pile));
    normalise_pile(pos);
    pos.over = compute_over(pos);
}

int score(Bitboard colour) { return analyse_territories(colour).score; }

Outcome outcome(const Position& pos) {
    if (!pos.over) return Outcome::None;
    const TerritoryStats red = analyse_territories(pos.tokens[kRed]);
    const TerritoryStats white = analyse_territories(pos.tokens[kWhite]);
    const int cmp = compare_for_win(red, white);
    return cmp > 0 ? Outcome::RedWins : cmp < 0 ? Outcome::WhiteWins : Outcome::Draw;
}

}  // namespace rosen
