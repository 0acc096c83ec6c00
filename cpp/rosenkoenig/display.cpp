#include "display.h"

#include "notation.h"
#include "territory.h"

namespace rosen {

namespace {

std::string player_label(const Rules& rules, int p) {
    std::string label = colour_of(p) == kRed ? "Red" : "White";
    if (rules.players == 4) label += ' ', label += char('1' + p / 2);
    return label;
}

}  // namespace

std::string draw_position(const Position& pos) {
    const std::string files = "    a b c d e f g h i\n";
    std::string out = files;
    for (int r = kRanks - 1; r >= 0; --r) {
        out += ' ';
        out += char('1' + r);
        out += "  ";
        for (int f = 0; f < kFiles; ++f) {
            const int sq = square_of(f, r);
            const bool red = pos.tokens[kRed] & bit(sq), white = pos.tokens[kWhite] & bit(sq);
            char c = red ? 'r' : white ? 'w' : '.';
            if (sq == pos.crown) c = red ? 'R' : white ? 'W' : '*';
            out += c;
            if (f + 1 < kFiles) out += ' ';
        }
        out += "  ";
        out += char('1' + r);
        out += '\n';
    }
    out += files;
    const int scores[2] = {score(pos.tokens[kRed]), score(pos.tokens[kWhite])};
    for (int p = 0; p < pos.rules.players; ++p) {
        std::string label = player_label(pos.rules, p);
        label.resize(8, ' ');
        out += label + "hand: " + format_cards(pos.hand[p], ' ') + "   heroes: " + std::to_string(pos.heroes[p]);
        if (pos.rules.players == 2) out += "   score: " + std::to_string(scores[p]);
        out += '\n';
    }
    if (pos.rules.players == 4)
        out += "Scores  red " + std::to_string(scores[0]) + ", white " + std::to_string(scores[1]) + '\n';
    out += "Crown " + square_name(pos.crown) + "   supply: " + std::to_string(pos.supply()) +
           "   draw pile: " + std::to_string(pos.pile_size) + "   discard: " + format_cards(pos.discard, ' ') + '\n';
    switch (outcome(pos)) {
        case Outcome::None: out += player_label(pos.rules, pos.to_move) + " to move"; break;
        case Outcome::RedWins: out += "Game over: Red wins"; break;
        case Outcome::WhiteWins: out += "Game over: White wins"; break;
        case Outcome::Draw: out += "Game over: draw"; break;
    }
    return out;
}

}  // namespace rosen
