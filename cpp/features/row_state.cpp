#include "row_state.h"

#include <bit>
#include <string>

#include "rosenkoenig/notation.h"

namespace rosen::features {

namespace {

constexpr uint64_t kHighWordSquares = (uint64_t(1) << (kSquares - 64)) - 1;

[[noreturn]] void fail(const char* field, std::size_t row, const std::string& what) {
    throw ArgumentError(field, std::string(field) + ": row " + std::to_string(row) + ": " + what);
}

Bitboard read_bits(const uint64_t* words, const char* field, std::size_t row) {
    if (words[1] & ~kHighWordSquares)
        fail(field, row, "word 1 may only use bits 0..16 (squares 64..80), got " + std::to_string(words[1]));
    return Bitboard(words[0]) | Bitboard(words[1]) << 64;
}

CardMask read_cards(uint32_t mask, const char* field, std::size_t row) {
    if (mask & ~kAllCards) fail(field, row, "card masks use bits 0..23 only, got " + std::to_string(mask));
    return mask;
}

}  // namespace

Position read_row(const RowsIn& rows, std::size_t i) {
    Position pos;
    const int players = rows.players[i];
    if (players != 2 && players != 4) fail("players", i, "expected 2 or 4, got " + std::to_string(players));
    pos.rules.players = uint8_t(players);
    const int reshuffle = rows.reshuffle[i];
    if (reshuffle != 0 && reshuffle != 1)
        fail("reshuffle", i, "expected 0 (eager) or 1 (lazy), got " + std::to_string(reshuffle));
    pos.rules.reshuffle = reshuffle ? Reshuffle::Lazy : Reshuffle::Eager;
    const int to_move = rows.to_move[i];
    if (to_move < 0 || to_move >= players)
        fail("to_move", i, "expected 0.." + std::to_string(players - 1) + ", got " + std::to_string(to_move));
    pos.to_move = uint8_t(to_move);

    for (int colour = 0; colour < 2; ++colour)
        pos.tokens[colour] = read_bits(rows.tokens + 4 * i + 2 * colour, "tokens", i);
    if (const Bitboard both = pos.tokens[kRed] & pos.tokens[kWhite])
        fail("tokens", i, "square " + square_name(lowest_square(both)) + " holds a red and a white token");
    if (pos.token_count() > kTotalTokens)
        fail("tokens", i, "at most 52 tokens fit on the board (R1), got " + std::to_string(pos.token_count()));

    const int crown = rows.crown[i];
    if (crown < 0 || crown >= kSquares) fail("crown", i, "expected a square 0..80, got " + std::to_string(crown));
    pos.crown = int8_t(crown);
    if (!crown_square_valid(pos))
        fail("crown", i, "the crown stands on a token, or on e5 before the first move (R3, R4); " + square_name(crown) +
                             " is empty");

    CardMask seen = 0;
    const auto place = [&](CardMask cards, const char* field) {
        if (const CardMask twice = cards & seen)
            fail(field, i, "card " + card_name(std::countr_zero(twice)) + " is in two places");
        seen |= cards;
    };
    for (int p = 0; p < 4; ++p) {
        const CardMask hand = read_cards(rows.hands[4 * i + p], "hands", i);
        const int heroes = rows.heroes[4 * i + p];
        if (p >= players) {
            const std::string unused = "seat " + std::to_string(p) + " is unused with " + std::to_string(players) +
                                       " players and must be 0";
            if (hand) fail("hands", i, unused);
            if (heroes) fail("heroes", i, unused);
            continue;
        }
        if (std::popcount(hand) > pos.rules.hand_limit())
            fail("hands", i, "player " + std::to_string(p) + " holds " + std::to_string(std::popcount(hand)) +
                                 " cards, at most " + std::to_string(pos.rules.hand_limit()) + " allowed");
        if (heroes < 0 || heroes > pos.rules.start_heroes())
            fail("heroes", i, "player " + std::to_string(p) + ": expected 0.." +
                                  std::to_string(pos.rules.start_heroes()) + ", got " + std::to_string(heroes));
        place(hand, "hands");
        pos.hand[p] = hand;
        pos.heroes[p] = uint8_t(heroes);
    }
    pos.discard = read_cards(rows.discard[i], "discard", i);
    place(pos.discard, "discard");
    pos.pile = read_cards(rows.pile[i], "pile", i);
    place(pos.pile, "pile");
    if (seen != kAllCards)
        fail("pile", i, "no hand, discard or pile holds " + format_cards(kAllCards & ~seen) +
                            " (each card is in one of them)");

    finish_setup(pos);  // the pile's order is unknown (pile_ordered stays false)
    return pos;
}

void write_row(const Position& pos, const RowsOut& rows, std::size_t i) {
    for (int colour = 0; colour < 2; ++colour) {
        rows.tokens[4 * i + 2 * colour] = uint64_t(pos.tokens[colour]);
        rows.tokens[4 * i + 2 * colour + 1] = uint64_t(pos.tokens[colour] >> 64);
    }
    rows.crown[i] = pos.crown;
    for (int p = 0; p < 4; ++p) {
        rows.hands[4 * i + p] = p < pos.players() ? pos.hand[p] : 0;
        rows.heroes[4 * i + p] = int8_t(p < pos.players() ? pos.heroes[p] : 0);
    }
    rows.discard[i] = pos.discard;
    rows.pile[i] = pos.pile;
    rows.to_move[i] = int8_t(pos.to_move);
    rows.players[i] = int8_t(pos.players());
    rows.reshuffle[i] = int8_t(pos.rules.reshuffle);
}

}  // namespace rosen::features
