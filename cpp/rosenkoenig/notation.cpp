#include "notation.h"

#include <vector>

namespace rosen {

namespace {

// ASCII only, not <cctype>: those follow the C locale a host program may set, and under a Turkish
// one tolower('I') is not 'i' (crown square I9 was refused), while Latin-1 locales count byte 0xA0
// as a space.
constexpr char ascii_lower(char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; }
constexpr char ascii_upper(char c) { return c >= 'a' && c <= 'z' ? char(c - 'a' + 'A') : c; }
constexpr bool ascii_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = ascii_lower(c);
    return out;
}

// Quote a piece of user input for an error message, cut short and with control bytes escaped,
// so that hostile input cannot flood or garble the message.
std::string quote(std::string_view s) {
    std::string out = "'";
    const size_t limit = 40;
    for (size_t i = 0; i < s.size() && i < limit; ++i) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        if (c >= 32 && c < 127) {
            out += char(c);
        } else {
            static const char* hex = "0123456789abcdef";
            out += "\\x";
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    if (s.size() > limit) out += "...";
    return out + "'";
}

std::vector<std::string_view> split(std::string_view s, char sep) {
    std::vector<std::string_view> parts;
    size_t start = 0;
    for (size_t i = 0; i <= s.size(); ++i)
        if (i == s.size() || s[i] == sep) {
            parts.push_back(s.substr(start, i - start));
            start = i + 1;
        }
    return parts;
}

std::vector<std::string_view> split_whitespace(std::string_view s) {
    std::vector<std::string_view> parts;
    size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && ascii_space(s[i])) ++i;
        size_t j = i;
        while (j < s.size() && !ascii_space(s[j])) ++j;
        if (j > i) parts.push_back(s.substr(i, j - i));
        i = j;
    }
    return parts;
}

// A comma-separated card list or "-"; every card is checked against `seen` (all fields so far).
CardMask parse_card_list(std::string_view text, const std::string& field, CardMask& seen, int* count_out) {
    int count = 0;
    CardMask cards = 0;
    if (text != "-") {
        for (std::string_view item : split(text, ',')) {
            const int card = parse_card(item);
            if (card < 0)
                throw InvalidPositionError(field, field + ": expected cards like N1, NE3 separated by commas, or '-', got " +
                                               quote(item));
            if (seen & (1u << card))
                throw InvalidPositionError(field, field + ": card " + card_name(card) + " appears more than once");
            seen |= 1u << card;
            cards |= 1u << card;
            ++count;
        }
    }
    if (count_out) *count_out = count;
    return cards;
}

}  // namespace

std::string square_name(int sq) {
    return std::string(1, char('a' + file_of(sq))) + char('1' + rank_of(sq));
}

int parse_square(std::string_view text) {
    if (text.size() != 2) return -1;
    const int f = ascii_lower(text[0]) - 'a';
    const int r = text[1] - '1';
    if (f < 0 || f >= kFiles || r < 0 || r >= kRanks) return -1;
    return square_of(f, r);
}

std::string card_name(int card) {
    return std::string(kDirectionNames[card_direction(card)]) + char('0' + card_distance(card));
}

int parse_card(std::string_view text) {
    if (text.size() < 2 || text.size() > 3) return -1;
    const char d = text.back();
    if (d < '1' || d > '3') return -1;
    std::string dir = lower(text.substr(0, text.size() - 1));
    for (char& c : dir) c = ascii_upper(c);
    for (int i = 0; i < 8; ++i)
        if (kDirectionNames[i] == dir) return make_card(i, d - '0');
    return -1;
}

std::string format_cards(CardMask cards, char separator) {
    if (!cards) return "-";
    std::string out;
    for (CardMask c = cards; c; c &= c - 1) {
        if (!out.empty()) out += separator;
        out += card_name(std::countr_zero(c));
    }
    return out;
}

std::string format_move(Move m) {
    if (m == kDraw) return "draw";
    if (m == kPass) return "pass";
    if (is_play(m)) return card_name(m);
    if (is_hero(m)) return "H:" + card_name(move_card(m));
    if (is_draw_card(m)) return "draw:" + card_name(move_card(m));
    return "?";
}

Move parse_move(std::string_view text) {
    // Surrounding whitespace is ignored, as in a position line (docs/notation.md); inner is not.
    std::string_view core = text;
    while (!core.empty() && ascii_space(core.front())) core.remove_prefix(1);
    while (!core.empty() && ascii_space(core.back())) core.remove_suffix(1);
    const std::string s = lower(core);
    if (s == "draw") return kDraw;
    if (s == "pass") return kPass;
    if (s.rfind("h:", 0) == 0) {
        const int card = parse_card(s.substr(2));
        if (card >= 0) return hero_move(card);
    } else if (s.rfind("draw:", 0) == 0) {
        const int card = parse_card(s.substr(5));
        if (card >= 0) return draw_card_move(card);
    } else {
        const int card = parse_card(s);
        if (card >= 0) return play_move(card);
    }
    throw InvalidMoveError("move", "move: expected a card (N2), a hero (H:N2), draw, draw:<card> or pass, got " +
                                    quote(text));
}

std::string illegal_move_message(const Position& pos, Move m) {
    std::string legal;
    for (Move l : legal_moves(pos)) legal += (legal.empty() ? "" : ", ") + format_move(l);
    std::string why = "move: illegal move " + format_move(m);
    if (is_draw_card(m) && is_legal(pos, kDraw)) why += ": the draw pile can yield only " + format_cards(drawable_cards(pos));
    return why + "; legal moves: " + (legal.empty() ? "none (the game is over)" : legal);
}

std::string player_name(const Rules& rules, int player) {
    std::string name(1, colour_of(player) == kRed ? 'r' : 'w');
    if (rules.players == 4) name += char('1' + player / 2);
    return name;
}

std::string format_position(const Position& pos, bool hide_order) {
    std::string out;
    for (int r = kRanks - 1; r >= 0; --r) {
        int empty = 0;
        for (int f = 0; f < kFiles; ++f) {
            const Bitboard b = bit(square_of(f, r));
            const char token = (pos.tokens[kRed] & b) ? 'r' : (pos.tokens[kWhite] & b) ? 'w' : 0;
            if (!token) {
                ++empty;
                continue;
            }
            if (empty) out += char('0' + empty);
            empty = 0;
            out += token;
        }
        if (empty) out += char('0' + empty);
        if (r) out += '/';
    }
    out += ' ' + square_name(pos.crown) + ' ' + player_name(pos.rules, pos.to_move);
    for (int p = 0; p < pos.rules.players; ++p) out += ' ' + format_cards(pos.hand[p]);
    for (int p = 0; p < pos.rules.players; ++p) out += ' ' + std::to_string(pos.heroes[p]);
    out += ' ' + format_cards(pos.discard) + ' ';
    if (pos.pile_size == 0) {
        out += '-';
    } else if (!pos.pile_ordered || hide_order) {
        out += '*';
    } else {
        for (int i = pos.pile_size - 1; i >= 0; --i) {
            out += card_name(pos.order[i]);
            if (i) out += ',';
        }
    }
    return out;
}

Position parse_position(std::string_view text, Reshuffle reshuffle, uint64_t seed) {
    const std::vector<std::string_view> fields = split_whitespace(text);
    if (fields.size() != 9 && fields.size() != 13)
        throw InvalidPositionError("position", "position: expected 9 space-separated fields (2 players) or 13 (4 players), got " +
                                            std::to_string(fields.size()));
    Position pos;
    pos.rules.players = fields.size() == 9 ? 2 : 4;
    pos.rules.reshuffle = reshuffle;
    const int n = pos.rules.players;

    // Board.
    const std::vector<std::string_view> ranks = split(fields[0], '/');
    if (ranks.size() != kRanks)
        throw InvalidPositionError("ranks", "ranks: expected 9 ranks separated by '/', got " + std::to_string(ranks.size()));
    for (int i = 0; i < kRanks; ++i) {
        const int r = kRanks - 1 - i;
        int f = 0;
        for (char ch : ranks[i]) {
            const char c = ascii_lower(ch);
            if (c >= '1' && c <= '9') {
                f += c - '0';
            } else if ((c == 'r' || c == 'w') && f < kFiles) {
                pos.tokens[c == 'r' ? kRed : kWhite] |= bit(square_of(f, r));
                ++f;
            } else if (c != 'r' && c != 'w') {
                throw InvalidPositionError("ranks", "ranks: rank " + std::to_string(r + 1) +
                                                 " may hold only r, w and digits 1-9, got " + quote(ranks[i]));
            } else {
                f = kFiles + 1;
            }
            if (f > kFiles) break;
        }
        if (f != kFiles)
            throw InvalidPositionError("ranks", "ranks: rank " + std::to_string(r + 1) + " must describe exactly 9 squares, got " +
                                             quote(ranks[i]));
    }
    if (pos.token_count() > kTotalTokens)
        throw InvalidPositionError("ranks", "ranks: at most 52 tokens fit on the board (R1), got " +
                                         std::to_string(pos.token_count()));

    // Crown.
    const int crown = parse_square(fields[1]);
    if (crown < 0) throw InvalidPositionError("crown", "crown: expected a square a1..i9, got " + quote(fields[1]));
    pos.crown = int8_t(crown);
    if (!crown_square_valid(pos))
        throw InvalidPositionError("crown", "crown: the crown stands on a token, or on e5 before the first move (R3, R4); " +
                                         quote(fields[1]) + " is empty");

    // Side to move.
    const std::string side = lower(fields[2]);
    int to_move = -1;
    for (int p = 0; p < n; ++p)
        if (side == player_name(pos.rules, p)) to_move = p;
    if (to_move < 0)
        throw InvalidPositionError("side", n == 2 ? "side: expected r or w, got " + quote(fields[2])
                                           : "side: expected r1, w1, r2 or w2, got " + quote(fields[2]));
    pos.to_move = uint8_t(to_move);

    // Hands, heroes, discard, pile.
    CardMask seen = 0;
    for (int p = 0; p < n; ++p) {
        const std::string field = (n == 2 ? std::string(p == 0 ? "red" : "white")
                                          : std::string(p % 2 == 0 ? "red " : "white ") + char('1' + p / 2)) +
                                  " hand";
        int count = 0;
        pos.hand[p] = parse_card_list(fields[3 + p], field, seen, &count);
        if (count > pos.rules.hand_limit())
            throw InvalidPositionError(field, field + ": at most " + std::to_string(pos.rules.hand_limit()) +
                                           " cards in a hand, got " + std::to_string(count));
    }
    for (int p = 0; p < n; ++p) {
        const std::string field = (n == 2 ? std::string(p == 0 ? "red" : "white")
                                          : std::string(p % 2 == 0 ? "red " : "white ") + char('1' + p / 2)) +
                                  " heroes";
        const std::string_view h = fields[3 + n + p];
        const int max = pos.rules.start_heroes();
        if (h.size() != 1 || h[0] < '0' || h[0] > char('0' + max))
            throw InvalidPositionError(field, field + ": expected a number 0.." + std::to_string(max) + ", got " + quote(h));
        pos.heroes[p] = uint8_t(h[0] - '0');
    }
    pos.discard = parse_card_list(fields[3 + 2 * n], "discard", seen, nullptr);
    const std::string_view pile = fields[4 + 2 * n];
    const CardMask rest = kAllCards & ~seen;
    if (pile == "*") {
        pos.pile = rest;
        pos.pile_ordered = false;
    } else {
        int count = 0;
        std::vector<std::string_view> items = pile == "-" ? std::vector<std::string_view>{} : split(pile, ',');
        pos.pile = parse_card_list(pile, "draw pile", seen, &count);
        if (pos.pile != rest)
            throw InvalidPositionError("draw pile", "draw pile: must hold exactly the cards in no hand and not discarded (" +
                                                 format_cards(rest) + ") top first, or '*' for unknown order");
        for (int i = 0; i < count; ++i) pos.order[count - 1 - i] = uint8_t(parse_card(items[i]));
        pos.pile_ordered = count > 0;
    }
    pos.rng_state = seed;
    finish_setup(pos);
    return pos;
}

}  // namespace rosen
