// Python face of self-play (cpp/selfplay/): one call plays a range of games with the GIL
// released and hands back the rows as NumPy columns (spec/selfplay-records-v1) plus each game's
// deal seed, moves and result; python/rosen/selfplay/ builds the batch and the shards from them.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <array>
#include <climits>
#include <string>
#include <vector>

#include "args.h"
#include "rosenkoenig/notation.h"
#include "selfplay/columns.h"
#include "selfplay/selfplay.h"

namespace py = pybind11;
using namespace rosen;
using namespace rosen::selfplay;

namespace {

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
    throw ArgumentError("agent", "agent: expected 'random', 'greedy' or 'mcts', got '" + name.substr(0, 20) + "'");
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
                                   const py::handle& record_cheap) {
        Config c;
        c.agent = agent_kind(agent);
        if (c.agent == AgentKind::Mcts) c.search = bindings::search_params_arg(params);
        c.agent_seed = uint_arg(agent_seed, "agent", 0, kMaxU64);  // the spec's seed option
        c.seed = uint_arg(seed, "seed", 0, kMaxU64);
        const uint64_t first = uint_arg(first_game, "first_game", 0, uint64_t(1) << 62);
        const uint64_t n = uint_arg(count, "games", 0, uint64_t(1) << 40);
        c.rules = bindings::rules_arg(players, reshuffle);
        c.threads = int_arg(threads, "threads", INT_MIN, INT_MAX);
        c.temperature = real_arg(temperature, "temperature");
        c.temperature_plies = int_arg(temperature_plies, "temperature_plies", INT_MIN, INT_MAX);
        c.dirichlet_alpha = real_arg(dirichlet_alpha, "dirichlet_alpha");
        c.dirichlet_fraction = real_arg(dirichlet_fraction, "dirichlet_fraction");
        c.full_search_probability = real_arg(full_search_probability, "full_search_probability");
        c.cheap_iterations = uint_arg(cheap_iterations, "cheap_iterations", 0, kMaxU64);
        c.record_cheap = bindings::bool_arg(record_cheap, "record_cheap");
        Batch batch;
        {
            py::gil_scoped_release release;
            batch = generate(c, first, n);
        }
        const uint64_t rows = batch.rows;
        auto game = column<int64_t>(rows);
        auto ply = column<int32_t>(rows);
        auto players_col = column<int8_t>(rows);
        auto reshuffle_col = column<int8_t>(rows);
        auto tokens = column<uint64_t>(rows, {2, 2});
        auto crown = column<int8_t>(rows);
        auto hands = column<uint32_t>(rows, {4});
        auto discard = column<uint32_t>(rows);
        auto pile = column<uint32_t>(rows);
        auto heroes = column<int8_t>(rows, {4});
        auto to_move = column<int8_t>(rows);
        auto legal = column<bool>(rows, {kActions});
        auto visits = column<uint32_t>(rows, {kActions});
        auto root_value = column<float>(rows);
        auto root_margin = column<float>(rows);
        auto action = column<uint8_t>(rows);
        auto result = column<float>(rows);
        auto final_margin = column<int16_t>(rows);
        auto weight = column<float>(rows);
        auto full_search = column<bool>(rows);
        const Columns out{game.mutable_data(), ply.mutable_data(), players_col.mutable_data(),
                          reshuffle_col.mutable_data(), tokens.mutable_data(), crown.mutable_data(),
                          hands.mutable_data(), discard.mutable_data(), pile.mutable_data(), heroes.mutable_data(),
                          to_move.mutable_data(), legal.mutable_data(), visits.mutable_data(),
                          root_value.mutable_data(), root_margin.mutable_data(), action.mutable_data(),
                          result.mutable_data(), final_margin.mutable_data(), weight.mutable_data(),
                          full_search.mutable_data()};
        const uint64_t games = batch.games.size();
        auto moves = column<uint8_t>(batch.plies);
        auto game_index = column<int64_t>(games);
        auto deal = column<uint64_t>(games);
        auto plies = column<int64_t>(games);
        auto winner = column<int8_t>(games);
        auto scores = column<int32_t>(games, {2});
        auto iterations = column<int64_t>(games);
        {
            py::gil_scoped_release release;
            write_columns(batch, out);
            write_moves(batch, moves.mutable_data());
            for (uint64_t k = 0; k < games; ++k) {
                const GameResult& g = batch.games[k];
                game_index.mutable_data()[k] = int64_t(g.game);
                deal.mutable_data()[k] = g.deal_seed;
                plies.mutable_data()[k] = g.plies;
                winner.mutable_data()[k] = int8_t(int(g.outcome) - 1);  // 0 red, 1 white, 2 draw
                scores.mutable_data()[2 * k] = g.scores[0];
                scores.mutable_data()[2 * k + 1] = g.scores[1];
                iterations.mutable_data()[k] = int64_t(g.iterations);
            }
        }
        py::dict columns;
        columns["game"] = game;
        columns["ply"] = ply;
        columns["players"] = players_col;
        columns["reshuffle"] = reshuffle_col;
        columns["tokens"] = tokens;
        columns["crown"] = crown;
        columns["hands"] = hands;
        columns["discard"] = discard;
        columns["pile"] = pile;
        columns["heroes"] = heroes;
        columns["to_move"] = to_move;
        columns["legal"] = legal;
        columns["visits"] = visits;
        columns["root_value"] = root_value;
        columns["root_margin"] = root_margin;
        columns["action"] = action;
        columns["result"] = result;
        columns["final_margin"] = final_margin;
        columns["weight"] = weight;
        columns["full_search"] = full_search;
        py::dict d;
        d["rows"] = columns;
        d["game"] = game_index;
        d["deal_seed"] = deal;
        d["plies"] = plies;
        d["winner"] = winner;
        d["scores"] = scores;
        d["iterations"] = iterations;
        d["moves"] = moves;
        d["seconds"] = batch.seconds;
        d["search_seconds"] = batch.search_seconds;
        return d;
    }, py::kw_only(), py::arg("agent"), py::arg("params"), py::arg("agent_seed"), py::arg("seed"),
       py::arg("first_game"), py::arg("games"), py::arg("players"), py::arg("reshuffle"), py::arg("threads"),
       py::arg("temperature"), py::arg("temperature_plies"), py::arg("dirichlet_alpha"),
       py::arg("dirichlet_fraction"), py::arg("full_search_probability"), py::arg("cheap_iterations"),
       py::arg("record_cheap"),
       "Low-level self-play of games [first_game, first_game + games); see rosen.selfplay.generate.");

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
}
