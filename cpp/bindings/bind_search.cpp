// Python face of the MCTS search: rosen._core._Searcher and the raw result it returns. The
// public classes (SearchParams, Searcher, SearchResult) live in python/rosen/search.py, which
// checks argument types and wraps moves as rosen.Move; values are checked here, once, by
// search::validate.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>
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

std::vector<std::string> move_names(const std::vector<Move>& moves) {
    std::vector<std::string> out;
    for (Move mv : moves) out.push_back(format_move(mv));
    return out;
}

template <typename T>
void take(const py::kwargs& kw, const char* name, T& out, size_t& used) {
    if (!kw.contains(name)) return;
    try {
        out = kw[name].cast<T>();
    } catch (const py::cast_error&) {
        throw py::type_error(std::string(name) + ": wrong type");
    }
    ++used;
}

// Search parameters from keyword arguments named as the fields of SearchParams; a missing one
// keeps its default, an unknown one is a TypeError, a bad value a ValueError naming the field.
SearchParams params_from(const py::kwargs& kw) {
    SearchParams p;
    size_t used = 0;
    std::string rollout = "heuristic", reward = "win";
    take(kw, "iterations", p.iterations, used);
    take(kw, "time_ms", p.time_ms, used);
    take(kw, "exploration", p.exploration, used);
    take(kw, "rollout", rollout, used);
    take(kw, "rollout_cutoff", p.rollout_cutoff, used);
    take(kw, "reward", reward, used);
    take(kw, "margin_weight", p.margin_weight, used);
    take(kw, "threads", p.threads, used);
    take(kw, "seed", p.seed, used);
    take(kw, "max_nodes", p.max_nodes, used);
    take(kw, "prior_weight", p.prior_weight, used);
    take(kw, "temperature", p.temperature, used);
    take(kw, "hero_cost", p.hero_cost, used);
    take(kw, "draw_value", p.draw_value, used);
    take(kw, "block_weight", p.block_weight, used);
    take(kw, "eval_scale", p.eval_scale, used);
    if (used != kw.size()) throw py::type_error("search parameters: unknown keyword among " + std::string(py::str(kw)));
    if (rollout == "random")
        p.rollout = RolloutPolicy::Random;
    else if (rollout == "heuristic")
        p.rollout = RolloutPolicy::Heuristic;
    else
        raise_field("rollout", "rollout: expected 'random' or 'heuristic', got '" + rollout.substr(0, 20) + "'");
    if (reward == "win")
        p.reward = RewardKind::Win;
    else if (reward == "margin")
        p.reward = RewardKind::Margin;
    else
        raise_field("reward", "reward: expected 'win' or 'margin', got '" + reward.substr(0, 20) + "'");
    if (const auto error = validate(p)) raise_field(error->field, error->message);
    return p;
}

}  // namespace

void bind_search(py::module_& m) {
    m.def("_check_search_params", [](const py::kwargs& kw) { params_from(kw); },
          "Raises ValueError (with .field) or TypeError if the search parameters are not usable.");

    m.attr("_search_node_bytes") = Searcher::node_bytes();

    py::class_<SearchResult>(m, "_SearchResult", "Raw search result; rosen.SearchResult wraps it.")
        .def_property_readonly("best_move", [](const SearchResult& r) { return format_move(r.best_move); })
        .def_property_readonly("moves", [](const SearchResult& r) {
            std::vector<std::tuple<std::string, uint64_t, double, double, double>> out;
            for (const MoveStats& s : r.moves) out.emplace_back(format_move(s.move), s.visits, s.winrate, s.prior, s.score);
            return out;
        })
        .def_property_readonly("pv", [](const SearchResult& r) { return move_names(r.pv); })
        .def_property_readonly("move_pvs", [](const SearchResult& r) {
            std::vector<std::vector<std::string>> out;
            for (const MoveStats& s : r.moves) out.push_back(move_names(s.pv));
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
        .def(py::init([](const py::kwargs& kw) { return std::make_unique<Searcher>(params_from(kw)); }),
             "Keyword arguments as the fields of rosen.SearchParams.")
        .def("search", &Searcher::search, py::arg("position"), py::call_guard<py::gil_scoped_release>(),
             "Search the position with the budget; the GIL is released meanwhile.")
        .def("stop", &Searcher::stop, "End the running search soon; callable from any thread.")
        .def("reset", &Searcher::reset, py::call_guard<py::gil_scoped_release>(), "Forget the trees.");
}
