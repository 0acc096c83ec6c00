#include "selfplay/columns.h"

#include <cstring>

namespace rosen::selfplay {

namespace {

float result_for(Outcome outcome, int colour) {
    if (outcome == Outcome::Draw) return 0.5f;
    return (outcome == Outcome::RedWins) == (colour == kRed) ? 1.0f : 0.0f;
}

}  // namespace

void write_columns(const Batch& batch, const Columns& out) {
    uint64_t r = 0;
    for (const GameResult& g : batch.games) {
        const Row* rows = batch.workers[g.worker].rows.data() + g.first_row;
        for (uint32_t k = 0; k < g.rows; ++k, ++r) {
            const Row& row = rows[k];
            const Position& pos = row.position;
            const int colour = colour_of(pos.to_move);
            out.game[r] = int64_t(g.game);
            out.ply[r] = row.ply;
            out.players[r] = int8_t(batch.rules.players);
            out.reshuffle[r] = int8_t(batch.rules.reshuffle);
            for (int c = 0; c < 2; ++c) {
                out.tokens[r * 4 + c * 2] = uint64_t(pos.tokens[c]);
                out.tokens[r * 4 + c * 2 + 1] = uint64_t(pos.tokens[c] >> 64);
            }
            out.crown[r] = pos.crown;
            for (int p = 0; p < 4; ++p) {
                out.hands[r * 4 + p] = pos.hand[p];
                out.heroes[r * 4 + p] = int8_t(pos.heroes[p]);
            }
            out.discard[r] = pos.discard;
            out.pile[r] = pos.pile;
            out.to_move[r] = int8_t(pos.to_move);
            bool* legal = out.legal + r * kActions;
            uint32_t* visits = out.visits + r * kActions;
            std::memset(legal, 0, kActions * sizeof *legal);
            std::memset(visits, 0, kActions * sizeof *visits);
            const MoveList moves = legal_moves(pos);
            for (int i = 0; i < moves.size; ++i) {
                legal[moves[i]] = true;
                visits[moves[i]] = row.visits[i];
            }
            out.action[r] = moves[row.choice];
            out.root_value[r] = row.root_value;
            out.root_margin[r] = row.root_margin;
            out.result[r] = result_for(g.outcome, colour);
            out.final_margin[r] = int16_t(g.scores[colour] - g.scores[colour ^ 1]);
            out.weight[r] = row.full_search ? 1.0f : 0.0f;
            out.full_search[r] = row.full_search;
        }
    }
}

void write_moves(const Batch& batch, uint8_t* out) {
    for (const GameResult& g : batch.games) {
        std::memcpy(out, batch.workers[g.worker].moves.data() + g.first_move, g.plies);
        out += g.plies;
    }
}

}  // namespace rosen::selfplay
