#include "classic/evaluation.h"

namespace rosen::classic {

int evaluate(const Position& pos, int colour, int hero_weight) {
    if (pos.over) {
        const Outcome o = outcome(pos);
        if (o == Outcome::Draw) return 0;
        const int winner = o == Outcome::RedWins ? kRed : kWhite;
        return winner == colour ? kWinValue : -kWinValue;
    }
    int heroes = 0;
    for (int p = 0; p < pos.players(); ++p) heroes += colour_of(p) == colour ? pos.heroes[p] : -pos.heroes[p];
    return score(pos.tokens[colour]) - score(pos.tokens[colour ^ 1]) + hero_weight * heroes;
}

}  // namespace rosen::classic
