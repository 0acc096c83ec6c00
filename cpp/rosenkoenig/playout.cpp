#include "playout.h"

#include <chrono>
#include <thread>
#include <vector>

namespace rosen {

PlayoutResult random_playout(Position& pos, Rng& rng) {
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
    std::vector<std::thread> workers;
    for (int t = 0; t < threads; ++t) {
        const uint64_t first = games * uint64_t(t) / uint64_t(threads);
        const uint64_t last = games * uint64_t(t + 1) / uint64_t(threads);
        if (t + 1 == threads)
            play_range(rules, seed, first, last, parts[size_t(t)]);
        else
            workers.emplace_back(play_range, std::cref(rules), seed, first, last, std::ref(parts[size_t(t)]));
    }
    for (auto& w : workers) w.join();
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
