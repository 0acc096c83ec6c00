// Python face of the reinforcement-learning environments (cpp/env/): one game (_EnvGame, behind
// the PettingZoo and Gymnasium envs) and the batch (_VecEnv, behind rosen.env.VecEnv). Arguments
// and arrays are checked here, once; the batch steps with the GIL released and writes into the
// arrays python/rosen/env/vec.py hands it.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <climits>
#include <string>
#include <vector>

#include "args.h"
#include "arrays.h"
#include "env/game.h"
#include "env/vec_env.h"
#include "features/encoder.h"
#include "learning/network.h"
#include "rosenkoenig/notation.h"
#include "uninitialised.h"

namespace py = pybind11;
using namespace rosen;
using namespace rosen::env;

namespace {

using bindings::int_arg;
using bindings::text_arg;
using bindings::uint_arg;

constexpr uint64_t kMaxU64 = ~uint64_t(0);

std::vector<py::ssize_t> observation_shape(bool flat, py::ssize_t n) {
    if (flat) return {n, features::kFlatFeatures};
    return {n, features::kPlanes, kRanks, kFiles};
}

// One game and its rules, checked at every call: the engine of the single-game envs.
struct PyGame {
    Rules rules;
    Game game;
    bool started = false;

    // Before the first reset the game holds no deal (no card anywhere): nothing may read it, or a
    // position that no rule allows escapes to the search (it crashed there).
    void require_started(const char* field, const char* call = "step()") const {
        if (!started) throw ArgumentError(field, std::string(field) + ": call reset() before " + call);
    }
    int seat_arg(const py::handle& seat) const { return int_arg(seat, "seat", 0, rules.players - 1); }
    // The action as an int 0..49 for a game in progress; else the error names what was expected.
    int action_arg(const py::handle& obj) const {
        require_started("action");
        if (py::isinstance<py::array>(obj)) {  // an array's __index__ works for integer scalars only
            const auto arr = py::reinterpret_borrow<py::array>(obj);
            const char kind = arr.dtype().kind();
            if (arr.ndim() != 0 || (kind != 'i' && kind != 'u'))
                throw ArgumentTypeError("action", "action: expected an int, got an array of dtype " +
                                                      std::string(py::str(arr.dtype())) + " and shape " +
                                                      bindings::shape_text({arr.shape(), arr.shape() + arr.ndim()}));
        }
        const int a = int_arg(obj, "action", INT_MIN, INT_MAX);
        if (game.done()) throw ArgumentError("action", "action: the game is over; call reset() to start another");
        if (!features::is_action(a)) throw ArgumentError("action", "action: expected 0..49, got " + std::to_string(a));
        return a;
    }
};

template <typename T>
py::array_t<T> out_or_new(const py::object& out, const char* field, std::vector<py::ssize_t> shape, const char* dtype) {
    if (out.is_none()) return py::array_t<T>(shape);
    return bindings::writable_array<T>(out, field, shape, dtype);
}

py::array observe_into(const PyGame& g, int seat, bool flat, const py::object& out) {
    auto shape = observation_shape(flat, 1);
    shape.erase(shape.begin());
    if (flat) {
        auto arr = out_or_new<float>(out, "out", shape, "float32");
        g.game.observe(seat, arr.mutable_data());
        return arr;
    }
    auto arr = out_or_new<int8_t>(out, "out", shape, "int8");
    g.game.observe(seat, arr.mutable_data());
    return arr;
}

// The caller's output arrays, checked against the batch's shapes.
struct PyOutputs {
    std::vector<py::object> keep;
    Outputs out;

    PyOutputs(const VecEnv& env, const py::handle& observation, const py::handle& action_mask, const py::handle& reward,
              const py::handle& terminated, const py::handle& truncated, const py::handle& current_player) {
        const py::ssize_t n = env.num_envs();
        const VecConfig& c = env.config();
        if (c.flat) out.observation = hold(bindings::writable_array<float>(observation, "observation", observation_shape(true, n), "float32"));
        else out.observation = hold(bindings::writable_array<int8_t>(observation, "observation", observation_shape(false, n), "int8"));
        out.action_mask = hold(bindings::writable_array<int8_t>(action_mask, "action_mask", {n, kActions}, "int8"));
        const std::vector<py::ssize_t> reward_shape = c.has_opponent ? std::vector<py::ssize_t>{n}
                                                                     : std::vector<py::ssize_t>{n, c.rules.players};
        out.reward = hold(bindings::writable_array<float>(reward, "reward", reward_shape, "float32"));
        out.terminated = hold(bindings::writable_array<bool>(terminated, "terminated", {n}, "bool"));
        out.truncated = hold(bindings::writable_array<bool>(truncated, "truncated", {n}, "bool"));
        out.current_player = hold(bindings::writable_array<int32_t>(current_player, "current_player", {n}, "int32"));
    }

    template <typename T>
    T* hold(py::array_t<T> arr) {
        keep.push_back(arr);
        return arr.mutable_data();
    }
};

OpponentConfig opponent_arg(const py::dict& d) {
    OpponentConfig c;
    const std::string kind = text_arg(d["kind"], "opponent");
    if (kind == "random") c.kind = selfplay::AgentKind::Random;
    else if (kind == "greedy") c.kind = selfplay::AgentKind::Greedy;
    else if (kind == "mcts") c.kind = selfplay::AgentKind::Mcts;
    else throw ArgumentError("opponent", "opponent: expected 'random', 'greedy' or 'mcts', got '" + bindings::utf8_prefix(kind, 20) + "'");
    c.seed = uint_arg(d["seed"], "opponent", 0, kMaxU64);
    if (c.kind == selfplay::AgentKind::Mcts) c.search = bindings::search_params_arg(d["params"].cast<py::dict>());
    if (d.contains("network") && !d["network"].is_none())
        c.network = d["network"].cast<std::shared_ptr<learning::Network>>();
    return c;
}

}  // namespace

void bind_env(py::module_& m) {
    py::class_<PyGame>(m, "_EnvGame", "One game of the RL environments (cpp/env/game.h).")
        .def(py::init([](const py::handle& players, const py::handle& reshuffle) {
                 return PyGame{bindings::rules_arg(players, reshuffle), Game{}, false};
             }),
             py::arg("players"), py::arg("reshuffle"))
        .def("reset", [](PyGame& g, const py::handle& deal_seed) {
            g.game.reset(g.rules, uint_arg(deal_seed, "seed", 0, kMaxU64));
            g.started = true;
        }, py::arg("deal_seed"), "A new game dealt from deal_seed (as Position.new(deal_seed)).")
        .def("load", [](PyGame& g, const Position& pos, const py::handle& deal_seed) {
            if (pos.rules != g.rules) throw ArgumentError("position", "position: expected a position of these rules");
            g.game.load(pos, uint_arg(deal_seed, "seed", 0, kMaxU64));
            g.started = true;
        }, py::arg("position"), py::arg("deal_seed"), "Go on from a position (its pile order deals first).")
        .def("check_action", [](const PyGame& g, const py::handle& action) { return g.action_arg(action); },
             py::arg("action"), "The action as an int 0..49, or the error for a non-int, out of range or finished game.")
        .def("legal", [](const PyGame& g, int action) {
            g.require_started("action", "legal()");
            return g.game.legal(action);
        }, py::arg("action"))
        .def("step", [](PyGame& g, const py::handle& action) {
            const int a = g.action_arg(action);
            if (!g.game.legal(a))
                throw IllegalMoveError("action", "action: " + action_text(a) + " is not legal; legal actions: " +
                                                     legal_actions_text(g.game));
            g.game.apply(a);
        }, py::arg("action"), "Play a legal action (a draw deals its card); errors leave the game unchanged.")
        .def("forfeit", [](PyGame& g) {
            g.require_started("action");
            if (g.game.done()) throw ArgumentError("action", "action: the game is over; call reset() to start another");
            g.game.forfeit(g.game.current_player());
        }, "End the game: the player to move chose an illegal action and its team loses.")
        .def("observe", [](const PyGame& g, const py::handle& seat, const py::handle& layout, const py::object& out) {
            g.require_started("seat", "observe()");
            return observe_into(g, g.seat_arg(seat), bindings::flat_layout_arg(layout), out);
        }, py::arg("seat"), py::arg("layout"), py::arg("out") = py::none(),
           "The encoder's output from seat's view: int8 (35, 9, 9) planes or float32 (477,) flat.")
        .def("mask", [](const PyGame& g) {
            g.require_started("action_mask", "mask()");
            py::array_t<int8_t> arr(kActions);
            g.game.mask(arr.mutable_data());
            return arr;
        }, "int8 (50,): 1 at each legal action of the player to move.")
        .def_property_readonly("current_player", [](const PyGame& g) { return g.game.current_player(); })
        .def_property_readonly("done", [](const PyGame& g) { return g.game.done(); })
        .def_property_readonly("end_reason", [](const PyGame& g) { return std::string(end_reason_name(g.game.end_reason())); })
        .def_property_readonly("plies", [](const PyGame& g) { return g.game.plies(); })
        .def_property_readonly("deal_seed", [](const PyGame& g) { return g.game.deal_seed(); })
        .def_property_readonly("last_move", [](const PyGame& g) -> py::object {
            const Move m = g.game.last_move();
            if (m == kNoMove) return py::none();
            return py::str(format_move(m));
        }, "The last move played, a draw with its card ('draw:NE3'); None at the start.")
        .def_property_readonly("rewards", [](const PyGame& g) {
            std::vector<float> r;
            for (int p = 0; p < g.rules.players; ++p) r.push_back(g.game.reward(p));
            return r;
        }, "Per player: +1 win, -1 loss, 0 draw or not over.")
        .def_property_readonly("position", [](const PyGame& g) {
            g.require_started("position", "reading the position");
            return public_view(g.game.position());
        },
                               "What a player may know (R14): the position with the pile's order hidden.");

    py::class_<VecEnv>(m, "_VecEnv", "A batch of environments (cpp/env/vec_env.h).")
        .def(py::init([](const py::handle& players, const py::handle& reshuffle, const py::handle& streams,
                         const py::handle& layout, const py::object& opponent, const py::handle& seat,
                         const py::handle& autoreset, const py::handle& threads) {
                 VecConfig c;
                 c.rules = bindings::rules_arg(players, reshuffle);
                 auto s = bindings::checked_array<uint64_t>(streams, "seed", {-1}, "uint64");
                 c.streams.assign(s.data(), s.data() + s.size());
                 c.flat = bindings::flat_layout_arg(layout);
                 c.has_opponent = !opponent.is_none();
                 if (c.has_opponent) c.opponent = opponent_arg(opponent.cast<py::dict>());
                 c.seat = int_arg(seat, "seat", INT_MIN, INT_MAX);
                 c.autoreset = bindings::bool_arg(autoreset, "autoreset");
                 c.threads = int_arg(threads, "threads", INT_MIN, INT_MAX);
                 return VecEnv(std::move(c));
             }),
             py::arg("players"), py::arg("reshuffle"), py::arg("streams"), py::arg("layout"), py::arg("opponent"),
             py::arg("seat"), py::arg("autoreset"), py::arg("threads"))
        .def("reset", [](VecEnv& env, const py::object& indices, const py::object& streams, const py::handle& observation,
                         const py::handle& action_mask, const py::handle& reward, const py::handle& terminated,
                         const py::handle& truncated, const py::handle& current_player) {
            std::vector<int64_t> listed;
            if (!indices.is_none()) {
                auto arr = bindings::checked_array<int64_t>(indices, "indices", {-1}, "int64");
                listed.assign(arr.data(), arr.data() + arr.size());
            }
            std::vector<uint64_t> seeds;  // copied, as step's actions are
            if (!streams.is_none()) {
                const py::ssize_t want = indices.is_none() ? env.num_envs() : py::ssize_t(listed.size());
                const auto given = bindings::checked_array<uint64_t>(streams, "seed", {want}, "uint64");
                seeds.assign(given.data(), given.data() + given.size());
            }
            PyOutputs out(env, observation, action_mask, reward, terminated, truncated, current_player);
            py::gil_scoped_release release;
            std::lock_guard<std::mutex> lock(env.busy());
            env.reset(indices.is_none() ? nullptr : &listed, streams.is_none() ? nullptr : seeds.data(), out.out);
        }, py::arg("indices"), py::arg("streams"), py::arg("observation"), py::arg("action_mask"), py::arg("reward"),
           py::arg("terminated"), py::arg("truncated"), py::arg("current_player"))
        .def("step", [](VecEnv& env, const py::handle& actions, const py::handle& observation, const py::handle& action_mask,
                        const py::handle& reward, const py::handle& terminated, const py::handle& truncated,
                        const py::handle& current_player) {
            auto a = bindings::checked_array<int32_t>(actions, "actions", {env.num_envs()}, "int32");
            // A copy, taken with the GIL held: the caller's array may be written by another thread
            // while the GIL is released, and step reads each action twice (to check it, to play it).
            const std::vector<int32_t> chosen(a.data(), a.data() + a.size());
            PyOutputs out(env, observation, action_mask, reward, terminated, truncated, current_player);
            py::gil_scoped_release release;
            std::lock_guard<std::mutex> lock(env.busy());
            env.step(chosen.data(), out.out);
        }, py::arg("actions"), py::arg("observation"), py::arg("action_mask"), py::arg("reward"), py::arg("terminated"),
           py::arg("truncated"), py::arg("current_player"))
        .def("position", [](const VecEnv& env, const py::handle& i) {
            const int index = int_arg(i, "index", 0, env.num_envs() - 1);
            Position pos;
            {
                // Waiting for another thread's step must not hold the GIL (every Python thread would).
                py::gil_scoped_release release;
                std::lock_guard<std::mutex> lock(env.busy());
                // Before the first reset no game is dealt (see PyGame::require_started).
                if (!env.started()) throw ArgumentError("index", "index: call reset() before position()");
                pos = public_view(env.game(index).position());
            }
            return pos;
        }, py::arg("index"), "Environment i's position as a player may know it (pile order hidden, R14).")
        .def("load", [](VecEnv& env, const py::handle& i, const Position& pos) {
            const int index = int_arg(i, "index", 0, env.num_envs() - 1);
            py::gil_scoped_release release;  // pos is held by the call's arguments meanwhile
            std::lock_guard<std::mutex> lock(env.busy());
            if (!env.started()) throw ArgumentError("index", "index: call reset() before load()");
            env.load(index, pos);
        }, py::arg("index"), py::arg("position"), "Environment i goes on from a position (for tests).")
        .def("info", [](const VecEnv& env, const py::handle& index) {
            const int i = int_arg(index, "index", 0, env.num_envs() - 1);
            uint64_t episode = 0, deal_seed = 0;
            int plies = 0, learner = 0;
            std::string end_reason;
            {
                py::gil_scoped_release release;
                std::lock_guard<std::mutex> lock(env.busy());
                const Game& g = env.game(i);
                episode = env.episode(i);
                deal_seed = g.deal_seed();
                plies = g.plies();
                learner = env.learner(i);
                end_reason = end_reason_name(g.end_reason());
            }
            py::dict d;
            d["episode"] = episode;
            d["deal_seed"] = deal_seed;
            d["plies"] = plies;
            d["learner"] = env.config().has_opponent ? py::object(py::int_(learner)) : py::object(py::none());
            d["end_reason"] = end_reason;
            return d;
        }, py::arg("index"), "Environment i's episode number, deal seed, plies, learner seat and end reason.")
        .def_property_readonly("num_envs", &VecEnv::num_envs);
    rosen::bindings::refuse_uninitialised<PyGame>();
    rosen::bindings::refuse_uninitialised<VecEnv>();
}
