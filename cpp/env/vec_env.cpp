#include "env/vec_env.h"

#include <algorithm>
#include <exception>
#include <string>

#include "common/threads.h"
#include "features/encoder.h"
#include "selfplay/selfplay.h"

namespace rosen::env {

namespace {

constexpr size_t kPlaneEntries = size_t(features::kPlanes) * kSquares;

}  // namespace

int learner_seat(uint64_t deal_seed) { return int(mix_seed(deal_seed, kSeatStream) & 1); }

VecEnv::VecEnv(VecConfig config) : cfg_(std::move(config)) {
    if (cfg_.rules.players != 2 && cfg_.rules.players != 4)
        throw ArgumentError("players", "players: expected 2 or 4, got " + std::to_string(cfg_.rules.players));
    if (cfg_.streams.empty() || cfg_.streams.size() > (size_t(1) << 24))
        throw ArgumentError("num_envs", "num_envs: expected 1..16777216, got " + std::to_string(cfg_.streams.size()));
    if (cfg_.threads < 1 || cfg_.threads > 256)
        throw ArgumentError("threads", "threads: expected 1..256, got " + std::to_string(cfg_.threads));
    if (cfg_.seat < -1 || cfg_.seat > 1)
        throw ArgumentError("seat", "seat: expected 0 (red), 1 (white) or None (drawn per episode), got " +
                                        std::to_string(cfg_.seat));
    if (cfg_.has_opponent) validate(cfg_.opponent);
    envs_.resize(cfg_.streams.size());
    for (size_t i = 0; i < envs_.size(); ++i) envs_[i].stream = cfg_.streams[i];
    const int workers = std::min(cfg_.threads, num_envs());
    if (cfg_.has_opponent)
        for (int t = 0; t < workers; ++t) opponents_.push_back(std::make_unique<Opponent>(cfg_.opponent));
}

template <typename Work>
void VecEnv::parallel(const Work& work) {
    const int n = num_envs();
    const int workers = std::min(cfg_.threads, n);
    auto slice = [&](int t) {
        work(int(int64_t(n) * t / workers), int(int64_t(n) * (t + 1) / workers),
             opponents_.empty() ? nullptr : opponents_[size_t(t)].get());
    };
    if (workers == 1) return slice(0);
    std::vector<std::exception_ptr> errors(static_cast<size_t>(workers));
    auto guarded = [&](int t) {
        try {
            slice(t);
        } catch (...) {
            errors[size_t(t)] = std::current_exception();
        }
    };
    run_in_parallel(workers, guarded);
    for (const auto& e : errors)
        if (e) std::rethrow_exception(e);
}

void VecEnv::play_opponent(Env& env, Opponent* opponent) const {
    if (!cfg_.has_opponent) return;
    while (!env.game.done() && colour_of(env.game.current_player()) != env.learner)
        env.game.apply(opponent->choose(env.game));
}

void VecEnv::begin_episode(Env& env, Opponent* opponent) const {
    const uint64_t seed = selfplay::deal_seed(env.stream, env.episode);
    env.game.reset(cfg_.rules, seed);
    env.learner = cfg_.seat >= 0 ? cfg_.seat : learner_seat(seed);
    play_opponent(env, opponent);
}

void VecEnv::write_state(int i, const Outputs& out) const {
    const Game& g = envs_[size_t(i)].game;
    const int view = g.position().to_move;
    if (cfg_.flat) g.observe(view, static_cast<float*>(out.observation) + size_t(i) * features::kFlatFeatures);
    else g.observe(view, static_cast<int8_t*>(out.observation) + size_t(i) * kPlaneEntries);
    g.mask(out.action_mask + size_t(i) * kActions);
    out.current_player[i] = g.current_player();
    out.truncated[i] = false;
}

void VecEnv::write_reward(int i, bool ended, const Outputs& out) const {
    const Env& env = envs_[size_t(i)];
    if (cfg_.has_opponent) {
        out.reward[i] = ended ? env.game.reward(env.learner) : 0.0f;
        return;
    }
    const int players = cfg_.rules.players;
    for (int p = 0; p < players; ++p) out.reward[size_t(i) * players + p] = ended ? env.game.reward(p) : 0.0f;
}

void VecEnv::reset(const std::vector<int64_t>* indices, const uint64_t* streams, const Outputs& out) {
    const int n = num_envs();
    // No list: every environment (streams holds n seeds). A list, even an empty one: just those
    // (streams holds one seed per entry), so an empty list resets nothing and reads no seed.
    std::vector<uint8_t> listed(size_t(n), indices ? 0 : 1);
    const size_t count = indices ? indices->size() : 0;
    if (indices && !started_)
        throw ArgumentError("indices", "indices: the first reset() starts every environment; give no indices");
    for (size_t k = 0; k < count; ++k) {
        const int64_t i = (*indices)[k];
        if (i < 0 || i >= n)
            throw ArgumentError("indices", "indices[" + std::to_string(k) + "]: expected 0.." + std::to_string(n - 1) +
                                               ", got " + std::to_string(i));
        listed[size_t(i)] = 1;
    }
    // Streams first, in the order given, so that a repeated index takes its last stream.
    if (streams) {
        if (!indices)
            for (int i = 0; i < n; ++i) envs_[size_t(i)].stream = streams[i];
        for (size_t k = 0; k < count; ++k) envs_[size_t((*indices)[k])].stream = streams[k];
    }
    parallel([&](int first, int last, Opponent* opponent) {
        for (int i = first; i < last; ++i) {
            Env& env = envs_[size_t(i)];
            if (listed[size_t(i)]) {
                if (streams) env.episode = 0;
                else if (started_) ++env.episode;
                begin_episode(env, opponent);
            }
            out.terminated[i] = env.game.done();
            write_reward(i, false, out);
            write_state(i, out);
        }
    });
    started_ = true;
}

void VecEnv::load(int i, const Position& pos) {
    if (pos.rules != cfg_.rules) throw ArgumentError("position", "position: expected a position of these rules (players, reshuffle)");
    // A loaded game must be one the next step() can act in: not over (autoreset happens only
    // after a step), and with an opponent the learner's turn (else its action would be the opponent's).
    if (pos.over) throw ArgumentError("position", "position: the game is over; load a game in progress");
    Env& env = envs_[size_t(i)];
    if (cfg_.has_opponent && colour_of(pos.to_move) != env.learner)
        throw ArgumentError("position", std::string("position: the opponent is to move; load one with the learner (") +
                                            (env.learner == kRed ? "red" : "white") + ") to move");
    env.game.load(pos, env.game.deal_seed());
    started_ = true;
}

void VecEnv::step(const int32_t* actions, const Outputs& out) {
    const int n = num_envs();
    if (!started_) throw ArgumentError("actions", "actions: call reset() before the first step()");
    for (int i = 0; i < n; ++i) {
        const Game& g = envs_[size_t(i)].game;
        const int a = actions[i];
        const std::string at = "actions[" + std::to_string(i) + "]: ";
        if (g.done()) {
            if (a != -1)
                throw ArgumentError("actions", at + "the game of environment " + std::to_string(i) +
                                                   " is over (autoreset is off): expected -1 until it is reset, got " +
                                                   std::to_string(a));
        } else if (!features::is_action(a)) {
            throw ArgumentError("actions", at + "expected an action 0..49, got " + std::to_string(a));
        } else if (!g.legal(a)) {
            throw IllegalMoveError("actions", at + "action " + action_text(a) + " is not legal in environment " +
                                                  std::to_string(i) + "; legal actions: " + legal_actions_text(g));
        }
    }
    parallel([&](int first, int last, Opponent* opponent) {
        for (int i = first; i < last; ++i) {
            Env& env = envs_[size_t(i)];
            if (env.game.done()) {  // autoreset off: waiting for reset()
                out.terminated[i] = true;
                write_reward(i, false, out);
                write_state(i, out);
                continue;
            }
            env.game.apply(actions[i]);
            play_opponent(env, opponent);
            const bool ended = env.game.done();
            out.terminated[i] = ended;
            write_reward(i, ended, out);
            if (ended && cfg_.autoreset) {
                ++env.episode;
                begin_episode(env, opponent);
            }
            write_state(i, out);
        }
    });
}

}  // namespace rosen::env
