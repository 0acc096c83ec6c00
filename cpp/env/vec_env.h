// A batch of environments stepped together (docs/rl.md), in the style of EnvPool and pgx: N games,
// one action each per step, every output written in place into caller arrays, row i for
// environment i; nothing is allocated per step. Environments are independent: each owns its game,
// its dealer (game.h) and its seed stream, so environment i gives the same games whatever N, the
// other environments or the number of threads -- VecEnv(N) equals N single environments.
//
// Seeds: environment i follows the stream streams[i]; its episode k is dealt from
// deal_seed(streams[i], k) (game.h), the same as a single environment reset with seed streams[i]
// and then k times without one.
//
// Autoreset (declared in the Python metadata as Gymnasium's "SameStep"): when a step ends a game,
// that row reports the reward and terminated = true, and its observation, mask and current player
// are already those of the next episode. With autoreset off a finished game stays over: its row
// reports terminated = true, it takes the action -1 ("none") until reset() starts it again.
#pragma once
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "env/game.h"
#include "env/opponent.h"

namespace rosen::env {

struct VecConfig {
    Rules rules;
    std::vector<uint64_t> streams;  // one per environment; their number is N
    bool flat = false;              // the layout: flat float32 [N, 477], else planes int8 [N, 35, 9, 9]
    bool has_opponent = false;      // else the caller plays every seat
    OpponentConfig opponent;
    int seat = -1;                  // with an opponent: the learner's colour (0 red, 1 white; both seats of
                                    // that colour in the 4-player game), or -1 drawn per episode
    bool autoreset = true;
    int threads = 1;                // workers, each over a contiguous slice of the environments
};

// Where reset() and step() write: N rows each.
struct Outputs {
    void* observation = nullptr;        // int8 [N, kPlanes, 9, 9] or float [N, kFlatFeatures]: the current player's view
    int8_t* action_mask = nullptr;      // [N, 50]: the current player's legal actions
    float* reward = nullptr;            // [N, players]; with an opponent [N], the learner's
    bool* terminated = nullptr;         // [N]: the game ended (in this step; autoreset off: is over)
    bool* truncated = nullptr;          // [N]: always false, every game ends by the rules (R8, R9)
    int32_t* current_player = nullptr;  // [N]: the player to move, -1 in a finished game (autoreset off)
};

// A seat drawn per episode for the learner: a function of the deal seed.
constexpr uint64_t kSeatStream = 0x73656174ull;  // "seat"
int learner_seat(uint64_t deal_seed);

class VecEnv {
public:
    explicit VecEnv(VecConfig config);  // validates; throws ArgumentError naming the field

    int num_envs() const { return int(envs_.size()); }
    const VecConfig& config() const { return cfg_; }
    bool started() const { return started_; }
    // Held by whoever calls into the environments (the bindings: every method, so that a reset
    // in one thread cannot land between a step's checks and its moves in another).
    std::mutex& busy() const { return *busy_; }

    // Starts a new episode in each listed environment (all when `indices` is null; none when it
    // is empty): the first of a new stream when `streams` is given (one per listed environment,
    // n when `indices` is null), else the next of its own.
    // Writes every row; rewards are 0, terminated is true only for finished games not listed.
    void reset(const std::vector<int64_t>* indices, const uint64_t* streams, const Outputs& out);
    // Checks every action first -- a legal action 0..49 for a game in progress, -1 for a finished
    // one -- and throws ArgumentError (IllegalMoveError for a masked action) naming the first bad
    // one, leaving every environment unchanged; then plays them (and the opponent's replies).
    void step(const int32_t* actions, const Outputs& out);

    const Game& game(int i) const { return envs_[size_t(i)].game; }
    // Environment i goes on from `pos` (Game::load with its current deal seed); for tests.
    void load(int i, const Position& pos);
    int learner(int i) const { return envs_[size_t(i)].learner; }
    uint64_t episode(int i) const { return envs_[size_t(i)].episode; }

private:
    struct Env {
        Game game;
        uint64_t stream = 0, episode = 0;
        int learner = 0;
    };

    void begin_episode(Env& env, Opponent* opponent) const;
    void play_opponent(Env& env, Opponent* opponent) const;
    void write_state(int i, const Outputs& out) const;
    void write_reward(int i, bool ended, const Outputs& out) const;
    template <typename Work>
    void parallel(const Work& work);  // work(first, last, opponent) over slices of [0, N)

    VecConfig cfg_;
    std::vector<Env> envs_;
    std::vector<std::unique_ptr<Opponent>> opponents_;  // one per worker
    bool started_ = false;
    std::unique_ptr<std::mutex> busy_ = std::make_unique<std::mutex>();  // a pointer: VecEnv moves
};

}  // namespace rosen::env
