// Python face of self-play (cpp/selfplay/): one call plays a range of games with the GIL
// released and hands back the rows as NumPy columns (docs/selfplay.md, "Shards") plus each game's
// deal seed, moves and result; python/rosen/selfplay/ builds the batch and the shards from them.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <array>
#include <atomic>
#include <climits>
#include <string>
#include <utility>
#include <vector>

#include "args.h"
#include "rosenkoenig/notation.h"
#include "selfplay/columns.h"
#include "selfplay/selfplay.h"
#include "uninitialised.h"

namespace py = pybind11;
using namespace rosen;
using namespace rosen::selfplay;

namespace {

// A stop request for a self-play batch, set from Python (a Ctrl-C) while the batch runs.
struct StopFlag {
    std::atomic<bool> set{false};
};

using bindings::int_arg;
using bindings::real_arg;
using bindings::text_arg;
using bindings::uint_arg;

constexpr uint64_t kMaxU64 = ~uint64_t(0);

AgentKind agent_kind(const py::handle& obj) {
    const std::string name = text_arg(obj, "agent");
    if (name == "random") return AgentKind::Random;
    if (name == "greedy") return AgentKind::Greedy;
    if (name == "mcts") return AgentKind::Mcts;
    throw ArgumentError("agent", "agent: expected 'random', 'greedy' or 'mcts', got '" + bindings::utf8_prefix(name, 20) + "'");
}

template <typename T>
py::array_t<T> column(uint64_t rows, std::initializer_list<py::ssize_t> inner = {}) {
    std::vector<py::ssize_t> shape{py::ssize_t(rows)};
    shape.insert(shape.end(), inner.begin(), inner.end());
    return py::array_t<T>(shape);
}

}  // namespace

void bind_selfplay(py::module_& m) {
    m.def("_selfplay_generate", [](const py::handle& agent, const py::dict& params, const py::handle& agent_seed,
                                   const py::handle& seed, const py::handle& first_game, const py::handle& count,
                                   const py::handle& players, const py::handle& reshuffle, const py::handle& threads,
                                   const py::handle& temperature, const py::handle& temperature_plies,
                                   const py::handle& dirichlet_alpha, const py::handle& dirichlet_fraction,
                                   const py::handle& full_search_probability, const py::handle& cheap_iterations,
                                   const py::handle& record_cheap, std::shared_ptr<learning::Network> network,
                                   StopFlag* stop) -> py::object {
        Config c;
        c.agent = agent_kind(agent);
        if (c.agent == AgentKind::Mcts) c.search = bindings::search_params_arg(params);
        if (network && c.agent != AgentKind::Mcts)
            throw ArgumentError("network", "network: only the mcts agent searches with a network");
        c.network = std::move(network);
        c.agent_seed = uint_arg(agent_seed, "agent", 0, kMaxU64);  // the spec's seed option
        c.seed = uint_arg(seed, "seed", 0, kMaxU64);
        const uint64_t n = uint_arg(count, "games", 0, uint64_t(1) << 40);
        // The last game's index too: a run's later shards once failed on a first_game it was never given.
        const uint64_t first = uint_arg(first_game, "first_game", 0, (uint64_t(1) << 62) - n);
        c.rules = bindings::rules_arg(players, reshuffle);
        c.threads = int_arg(threads, "threads", 1, kMaxThreads);
        c.temperature = real_arg(temperature, "temperature");
        c.temperature_plies = int_arg(temperature_plies, "temperature_plies", 0, kMaxTemperaturePlies);
        c.dirichlet_alpha = real_arg(dirichlet_alpha, "dirichlet_alpha");
        c.dirichlet_fraction = real_arg(dirichlet_fraction, "dirichlet_fraction");
        c.full_search_probability = real_arg(full_search_probability, "full_search_probability");
        c.cheap_iterations = uint_arg(cheap_iterations, "cheap_iterations", 1, kMaxCheapIterations);
        c.record_cheap = bindings::bool_arg(record_cheap, "record_cheap");
        Batch batch;
        {
            py::gil_scoped_release release;
            batch = generate(c, first, n, stop ? &stop->set : nullptr);
        }
        if (batch.stopped) return py::none();
        // Each column is made, filed under its name and handed to C++ by pointer in one step.
        py::dict columns, d;
        auto add = [](py::dict& into, const char* name, auto array) {
            into[name] = array;
            return array.mutable_data();
        };
        const uint64_t rows = batch.rows, games = batch.games.size();
        const Columns out{.game = add(columns, "game", column<int64_t>(rows)),
                          .ply = add(columns, "ply", column<int32_t>(rows)),
                          .players = add(columns, "players", column<int8_t>(rows)),
                          .reshuffle = add(columns, "reshuffle", column<int8_t>(rows)),
                          .tokens = add(columns, "tokens", column<uint64_t>(rows, {2, 2})),
                          .crown = add(columns, "crown", column<int8_t>(rows)),
                          .hands = add(columns, "hands", column<uint32_t>(rows, {4})),
                          .discard = add(columns, "discard", column<uint32_t>(rows)),
                          .pile = add(columns, "pile", column<uint32_t>(rows)),
                          .heroes = add(columns, "heroes", column<int8_t>(rows, {4})),
                          .to_move = add(columns, "to_move", column<int8_t>(rows)),
                          .legal = add(columns, "legal", column<bool>(rows, {kActions})),
                          .visits = add(columns, "visits", column<uint32_t>(rows, {kActions})),
                          .root_value = add(columns, "root_value", column<float>(rows)),
                          .root_margin = add(columns, "root_margin", column<float>(rows)),
                          .action = add(columns, "action", column<uint8_t>(rows)),
                          .result = add(columns, "result", column<float>(rows)),
                          .final_margin = add(columns, "final_margin", column<int16_t>(rows)),
                          .weight = add(columns, "weight", column<float>(rows)),
                          .full_search = add(columns, "full_search", column<bool>(rows))};
        d["rows"] = columns;
        uint8_t* moves = add(d, "moves", column<uint8_t>(batch.plies));
        int64_t* game_index = add(d, "game", column<int64_t>(games));
        uint64_t* deal = add(d, "deal_seed", column<uint64_t>(games));
        int64_t* plies = add(d, "plies", column<int64_t>(games));
        int8_t* winner = add(d, "winner", column<int8_t>(games));
        int32_t* scores = add(d, "scores", column<int32_t>(games, {2}));
        int64_t* iterations = add(d, "iterations", column<int64_t>(games));
        {
            py::gil_scoped_release release;
            write_columns(batch, out);
            write_moves(batch, moves);
            for (uint64_t k = 0; k < games; ++k) {
                const GameResult& g = batch.games[k];
                game_index[k] = int64_t(g.game);
                deal[k] = g.deal_seed;
                plies[k] = g.plies;
                winner[k] = int8_t(int(g.outcome) - 1);  // 0 red, 1 white, 2 draw
                scores[2 * k] = g.scores[kRed];
                scores[2 * k + 1] = g.scores[kWhite];
                iterations[k] = int64_t(g.iterations);
            }
        }
        d["seconds"] = batch.seconds;
        d["search_seconds"] = batch.search_seconds;
        return d;
    }, py::kw_only(), py::arg("agent"), py::arg("params"), py::arg("agent_seed"), py::arg("seed"),
       py::arg("first_game"), py::arg("games"), py::arg("players"), py::arg("reshuffle"), py::arg("threads"),
       py::arg("temperature"), py::arg("temperature_plies"), py::arg("dirichlet_alpha"),
       py::arg("dirichlet_fraction"), py::arg("full_search_probability"), py::arg("cheap_iterations"),
       py::arg("record_cheap"), py::arg("network") = nullptr, py::arg("stop") = nullptr,
       "Low-level self-play of games [first_game, first_game + games); see rosen.selfplay.generate. "
       "None when `stop` was set before the last game ended.");

    py::class_<StopFlag>(m, "_StopFlag", "A stop request for _selfplay_generate (set from any thread).")
        .def(py::init<>())
        .def("set", [](StopFlag& f) { f.set.store(true); }, "Ask the batch to end after its running games.");

    m.def("_selfplay_seeds", [](const py::handle& seed, const py::handle& game, const py::handle& ply) {
        const uint64_t deal = deal_seed(uint_arg(seed, "seed", 0, kMaxU64), uint_arg(game, "game", 0, kMaxU64));
        return py::make_tuple(deal, decision_seed(deal, int_arg(ply, "ply", 0, INT_MAX)));
    }, py::arg("seed"), py::arg("game"), py::arg("ply"),
       "(deal seed, decision seed) of a game and ply (cpp/selfplay/selfplay.h): the deal is Position.new(deal seed), "
       "the search at that ply runs with stream = decision seed.");

    m.def("_selfplay_move_names", [] {
        py::list names;
        for (int m = 0; m < 256; ++m) {
            const Move mv = Move(m);
            const bool known = m < kActions || is_draw_card(mv);
            names.append(known ? py::str(format_move(mv)) : py::str(""));
        }
        return names;
    }, "The text of every Move byte (plays, heroes, draw, pass, draw:CARD; '' for the others), to turn move "
       "arrays into records.");
    // A flag made by __new__ alone held an atomic that was never constructed: a stop read garbage.
    rosen::bindings::refuse_uninitialised<StopFlag>();
}
