#include "playout.h"

#include "byte_board.h"
#include "common/threads.h"
#include "territory.h"

#include <bit>
#include <chrono>
#include <vector>

namespace rosen {

namespace {

// The reference loop over the public move generator; the fast loop below must consume the
// generator and change the position exactly as this one does.
PlayoutResult random_playout_generic(Position& pos, Rng& rng) {
    PlayoutResult result;
    while (!pos.over) {
        const MoveList moves = legal_moves(pos);
        const Move m = moves[int(rng.below(uint32_t(moves.size)))];
        if (m == kDraw)
            apply_draw(pos, deal_card(pos, rng));
        else
            apply_move(pos, m);
        ++result.plies;
    }
    return result;
}

// The fast loop works on a byte per square (byte_board.h).
template <int Players>
struct FastGame {
    static constexpr int kLimit = Players == 2 ? 5 : 3;

    alignas(16) uint8_t cell[kByteBoardSize];
    CardMask hand[Players];
    int heroes[Players];
    CardMask discard, pile;
    int pile_size, tokens, crown, to_move;
    bool ordered, lazy;

    explicit FastGame(const Position& pos) {
        fill_byte_board(cell, pos.tokens);
        for (int p = 0; p < Players; ++p) {
            hand[p] = pos.hand[p];
            heroes[p] = pos.heroes[p];
        }
        discard = pos.discard;
        pile = pos.pile;
        pile_size = pos.pile_size;
        tokens = pos.token_count();
        crown = pos.crown;
        to_move = pos.to_move;
        ordered = pos.pile_ordered;
        lazy = pos.rules.reshuffle == Reshuffle::Lazy;
    }

    void store(Position& pos) const {
        board_from_bytes(reinterpret_cast<const int8_t*>(cell), pos.tokens[kRed], pos.tokens[kWhite]);
        for (int p = 0; p < Players; ++p) {
            pos.hand[p] = hand[p];
            pos.heroes[p] = uint8_t(heroes[p]);
        }
        pos.discard = discard;
        pos.pile = pile;
        pos.pile_size = uint8_t(pile_size);
        pos.pile_ordered = ordered;
        pos.crown = int8_t(crown);
        pos.to_move = uint8_t(to_move);
    }

    static int next(int p) { return Players == 2 ? p ^ 1 : (p + 1) & 3; }

    // byte_board_moves' tests, stopping at the first move (R9 asks only whether there is one).
    bool can_act(int p) const {
        if (std::popcount(hand[p]) < kLimit) return true;
        const uint8_t* row = kCrownCells.to[crown];
        const uint8_t theirs = hero_target_value(p & 1, heroes[p] != 0);
        for (CardMask h = hand[p]; h; h &= h - 1) {
            const uint8_t v = cell[row[std::countr_zero(h)]];
            if (v == kEmptyCell || v == theirs) return true;
        }
        return false;
    }

    // R9: no player can act.
    bool blocked() const {
        for (int i = 0, p = to_move; i < Players; ++i, p = next(p))
            if (can_act(p)) return false;
        return true;
    }

    void reshuffle() {
        pile = discard;
        pile_size = std::popcount(discard);
        discard = 0;
        ordered = false;
    }

    // One game to the end; the same generator calls, in the same order, as the generic loop:
    // one below(number of legal moves) per ply, and one below(pile size) per draw from a pile of
    // unknown order. `order` is the known pile order (bottom first).
    int play(Rng& rng, const uint8_t* order) {
        int plies = 0;
        for (;;) {
            ++plies;
            const int p = to_move;
            const CardMask own = hand[p];
            // The legal moves in canonical order (plays by card id, heroes by card id, draw, or
            // pass), without a list.
            uint16_t slot[2 * kLimit];  // card | target << 8
            int nplays, nheroes;
            byte_board_moves<kLimit>(cell, own, crown, hero_target_value(p & 1, heroes[p] != 0), slot, nplays, nheroes);
            const int board_moves = nplays + nheroes;
            const bool may_draw = std::popcount(own) < kLimit;
            const int n = board_moves + int(may_draw);
            // R9 can only arise right after a draw, and then the next player has no move at all;
            // so the blockade test runs here, before this ply takes anything from the generator,
            // instead of after every draw. The game ended with the previous ply.
            if (n == 0 && blocked()) return plies - 1;
            const int r = int(rng.below(uint32_t(n > 0 ? n : 1)));
            if (r < board_moves) {
                // Play or hero (R4 a, c): the same writes for both, so no branch on which.
                const bool hero = r >= nplays;
                const uint16_t entry = slot[hero ? r - nplays + kLimit : r];
                const int card = entry & 0xFF;
                const int t = entry >> 8;
                cell[t] = uint8_t(1 + (p & 1));
                heroes[p] -= hero;
                tokens += !hero;
                hand[p] = own & ~(1u << card);
                discard |= 1u << card;
                crown = t;
                to_move = next(p);
                if (tokens >= kTotalTokens) return plies;  // R8
            } else if (may_draw) {
                // Draw (R4 b, R7): as deal_card + apply_draw.
                if (pile_size == 0) {
                    // Lazy reshuffle; deal_card picks uniformly from the discard pile.
                    const int card = nth_card(discard, rng.below(uint32_t(std::popcount(discard))));
                    reshuffle();
                    take(p, card);
                } else if (ordered) {
                    take(p, order[pile_size - 1]);
                } else {
                    take(p, nth_card(pile, rng.below(uint32_t(pile_size))));
                }
            } else {
                to_move = next(p);  // pass (R6)
            }
        }
    }

    void take(int p, int card) {
        --pile_size;
        pile &= ~(1u << card);
        hand[p] |= 1u << card;
        if (pile_size == 0 && !lazy) reshuffle();
        to_move = next(p);
    }
};

template <int Players>
bool fits_fast_game(const Position& pos) {
    for (int p = 0; p < Players; ++p)
        if (std::popcount(pos.hand[p]) > FastGame<Players>::kLimit) return false;
    return pos.pile_size == std::popcount(pos.pile) && pos.crown >= 0 && pos.crown < kSquares;
}

template <int Players>
int fast_playout(Position& pos, Rng& rng) {
    FastGame<Players> game(pos);
    const int plies = game.play(rng, pos.order);
    game.store(pos);
    pos.over = true;
    return plies;
}

}  // namespace

int play_out(Position& pos, Rng& rng) {
    if (pos.over) return 0;
    if (pos.rules.players == 2 && fits_fast_game<2>(pos)) return fast_playout<2>(pos, rng);
    if (pos.rules.players == 4 && fits_fast_game<4>(pos)) return fast_playout<4>(pos, rng);
    return random_playout_generic(pos, rng).plies;
}

PlayoutResult random_playout(Position& pos, Rng& rng) {
    PlayoutResult result;
    result.plies = play_out(pos, rng);
    result.blockade = pos.token_count() < kTotalTokens;
    result.outcome = outcome(pos);
    return result;
}

namespace {

void play_range(const Rules& rules, uint64_t seed, uint64_t first, uint64_t last, RandomPlayStats& stats) {
    for (uint64_t i = first; i < last; ++i) {
        const uint64_t game_seed = mix_seed(seed, i);
        Position pos = new_game(rules, game_seed);
        Rng rng(game_seed ^ 0xA5A5A5A5A5A5A5A5ull);
        const PlayoutResult r = random_playout(pos, rng);
        ++stats.games;
        stats.plies += uint64_t(r.plies);
        stats.blockades += r.blockade;
        stats.red_wins += r.outcome == Outcome::RedWins;
        stats.white_wins += r.outcome == Outcome::WhiteWins;
        stats.draws += r.outcome == Outcome::Draw;
    }
}

}  // namespace

RandomPlayStats random_play(const Rules& rules, uint64_t games, uint64_t seed, int threads) {
    const auto start = std::chrono::steady_clock::now();
    if (threads < 1) threads = 1;
    if (uint64_t(threads) > games) threads = int(games ? games : 1);
    std::vector<RandomPlayStats> parts(static_cast<size_t>(threads));
    run_in_parallel(threads, [&](int t) {
        const uint64_t first = games * uint64_t(t) / uint64_t(threads);
        const uint64_t last = games * uint64_t(t + 1) / uint64_t(threads);
        play_range(rules, seed, first, last, parts[size_t(t)]);
    });
    RandomPlayStats total;
    for (const auto& p : parts) {
        total.games += p.games;
        total.red_wins += p.red_wins;
        total.white_wins += p.white_wins;
        total.draws += p.draws;
        total.plies += p.plies;
        total.blockades += p.blockades;
    }
    total.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return total;
}

uint64_t perft(const Position& pos, int depth) {
    if (depth == 0) return 1;  // a finished game has no moves, so it adds no sequences
    uint64_t total = 0;
    for (Move m : legal_moves(pos)) {
        if (m == kDraw) {
            for (CardMask c = drawable_cards(pos); c; c &= c - 1) {
                Position next = pos;
                apply_draw(next, std::countr_zero(c));
                total += perft(next, depth - 1);
            }
        } else {
            Position next = pos;
            apply_move(next, m);
            total += perft(next, depth - 1);
        }
    }
    return total;
}

}  // namespace rosen
