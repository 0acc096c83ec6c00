// Python face of the MCTS search: rosen._core._Searcher and the raw result it returns. The
// public classes (SearchParams, Searcher, SearchResult) live in python/rosen/search.py, which
// checks argument types and wraps moves as rosen.Move; values are checked here, once, by
// search::validate.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <memory>
#include <tuple>
#include <vector>

#include "rosenkoenig/notation.h"
#include "search/mcts.h"

namespace py = pybind11;
using namespace rosen;
using namespace rosen::search;

namespace {

[[noreturn]] void raise_field(const std::string& field, const std::string& message) {
    py::object exc = py::reinterpret_borrow<py::object>(PyExc_ValueError)(message);
    exc.attr("field") = field;
    PyErr_SetObject(PyExc_ValueError, exc.ptr());
    throw py::error_already_set();
}

SearchParams make_params(uint64_t iterations, uint64_t time_ms, double exploration, const std::string& rollout,
                         int rollout_cutoff, const std::string& reward, double margin_weight, int threads,
                         uint64_t seed, uint64_t max_nodes, double temperature, double hero_cost, double draw_value,
                         double eval_scale) {
    SearchParams p;
    p.iterations = iterations;
    p.time_ms = time_ms;
    p.exploration = exploration;
    if (rollout == "random")
        p.rollout = RolloutPolicy::Random;
    else if (rollout == "heuristic")
        p.rollout = RolloutPolicy::Heuristic;
    else
        raise_field("rollout", "rollout: expected 'random' or 'heuristic', got '" + rollout.substr(0, 20) + "'");
    p.rollout_cutoff = rollout_cutoff;
    if (reward == "win")
        p.reward = RewardKind::Win;
    else if (reward == "margin")
        p.reward = RewardKind::Margin;
    else
        raise_field("reward", "reward: expected 'win' or 'margin', got '" + reward.substr(0, 20) + "'");
    p.margin_weight = margin_weight;
    p.threads = threads;
    p.seed = seed;
    p.max_nodes = max_nodes;
    p.temperature = temperature;
    p.hero_cost = hero_cost;
    p.draw_value = draw_value;
    p.eval_scale = eval_scale;
    if (const auto error = validate(p)) raise_field(error->field, error->message);
    return p;
}

// Every field by name, keyword-only, as rosen.SearchParams passes them.
#define ROSEN_PARAM_ARGS                                                                                       \
    py::kw_only(), py::arg("iterations"), py::arg("time_ms"), py::arg("exploration"), py::arg("rollout"),     \
        py::arg("rollout_cutoff"), py::arg("reward"), py::arg("margin_weight"), py::arg("threads"),          \
        py::arg("seed"), py::arg("max_nodes"), py::arg("temperature"), py::arg("hero_cost"),                 \
        py::arg("draw_value"), py::arg("eval_scale")

}  // namespace

void bind_search(py::module_& m) {
    m.def("_check_search_params", [](uint64_t iterations, uint64_t time_ms, double exploration, const std::string& rollout,
                                     int rollout_cutoff, const std::string& reward, double margin_weight, int threads,
                                     uint64_t seed, uint64_t max_nodes, double temperature, double hero_cost,
                                     double draw_value, double eval_scale) {
        make_params(iterations, time_ms, exploration, rollout, rollout_cutoff, reward, margin_weight, threads, seed,
                    max_nodes, temperature, hero_cost, draw_value, eval_scale);
    }, ROSEN_PARAM_ARGS, "Raises ValueError (with .field) if the search parameters are not usable.");

    m.attr("_search_node_bytes") = Searcher::node_bytes();

    py::class_<SearchResult>(m, "_SearchResult", "Raw search result; rosen.SearchResult wraps it.")
        .def_property_readonly("best_move", [](const SearchResult& r) { return format_move(r.best_move); })
        .def_property_readonly("moves", [](const SearchResult& r) {
            std::vector<std::tuple<std::string, uint64_t, double, double, double>> out;
            for (const MoveStats& s : r.moves) out.emplace_back(format_move(s.move), s.visits, s.winrate, s.prior, s.score);
            return out;
        })
        .def_property_readonly("pv", [](const SearchResult& r) {
            std::vector<std::string> out;
            for (Move mv : r.pv) out.push_back(format_move(mv));
            return out;
        })
        .def_readonly("depth", &SearchResult::depth)
        .def_readonly("seldepth", &SearchResult::seldepth)
        .def_readonly("nodes", &SearchResult::nodes)
        .def_readonly("iterations", &SearchResult::iterations)
        .def_readonly("reused_visits", &SearchResult::reused_visits)
        .def_readonly("nps", &SearchResult::nps)
        .def_readonly("time_ms", &SearchResult::time_ms)
        .def_readonly("winrate", &SearchResult::winrate)
        .def_readonly("score", &SearchResult::score);

    py::class_<Searcher>(m, "_Searcher", "The C++ searcher; use rosen.Searcher.")
        .def(py::init([](uint64_t iterations, uint64_t time_ms, double exploration, const std::string& rollout,
                         int rollout_cutoff, const std::string& reward, double margin_weight, int threads, uint64_t seed,
                         uint64_t max_nodes, double temperature, double hero_cost, double draw_value, double eval_scale) {
                 return std::make_unique<Searcher>(make_params(iterations, time_ms, exploration, rollout,
                                                               rollout_cutoff, reward, margin_weight, threads, seed,
                                                               max_nodes, temperature, hero_cost, draw_value,
                                                               eval_scale));
             }),
             ROSEN_PARAM_ARGS)
        .def("search", &Searcher::search, py::arg("position"), py::call_guard<py::gil_scoped_release>(),
             "Search the position with the budget; the GIL is released meanwhile.")
        .def("stop", &Searcher::stop, "End the running search soon; callable from any thread.")
        .def("reset", &Searcher::reset, py::call_guard<py::gil_scoped_release>(), "Forget the trees.");
}
