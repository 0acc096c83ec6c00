// Python face of the classic searchers (cpp/classic/): the peer's alpha-beta and a sound
// expectimax, as objects that keep their state between searches (the expectimax's table, the
// alpha-beta's search count). Values are converted and checked here against the one parameter
// table (classic/params.h), and again by the searchers' constructors; searches release the GIL.
#include <pybind11/pybind11.h>

#include <memory>
#include <string>

#include "args.h"
#include "classic/alphabeta.h"
#include "classic/expectimax.h"
#include "rosenkoenig/notation.h"
#include "uninitialised.h"

namespace py = pybind11;
using namespace rosen;
using namespace rosen::classic;

namespace {

int int_param(const py::handle& obj, const char* name) {
    const ClassicParamInfo& info = param_info(name);
    return bindings::int_arg(obj, name, int(info.min), int(info.max));
}

uint64_t uint_param(const py::handle& obj, const char* name) {
    const ClassicParamInfo& info = param_info(name);
    const uint64_t high = info.max >= 18446744073709551615.0 ? ~uint64_t(0) : uint64_t(info.max);
    return bindings::uint_arg(obj, name, uint64_t(info.min), high);
}

}  // namespace

void bind_classic(py::module_& m) {
    m.def("_classic_param_info", [] {
        py::list out;
        for (const ClassicParamInfo& info : kClassicParamInfo) {
            const py::object high = info.max >= 18446744073709551615.0 ? py::object(py::int_(~uint64_t(0)))
                                                                       : py::object(py::int_(int64_t(info.max)));
            out.append(py::make_tuple(std::string(info.name), int64_t(info.min), high, std::string(info.doc)));
        }
        return out;
    }, "Each classic-search parameter as (name, min, max, doc) (cpp/classic/params.h).");

    py::class_<ClassicResult>(m, "_ClassicResult", "One classic search: move, value, depth, nodes, time.")
        .def_property_readonly("best_move", [](const ClassicResult& r) { return format_move(r.move); })
        .def_readonly("value", &ClassicResult::value, "from the colour to move at the root")
        .def_readonly("depth", &ClassicResult::depth, "plies of the deepest completed iteration")
        .def_readonly("nodes", &ClassicResult::nodes, "positions visited")
        .def_readonly("time_ms", &ClassicResult::time_ms)
        .def_readonly("exact", &ClassicResult::exact, "the game's exact value: every line of the last iteration ended the game");

    py::class_<AlphaBeta>(m, "_AlphaBeta", "The peer's alpha-beta (cpp/classic/alphabeta.h); use rosen.agents.AlphaBetaAgent.")
        .def(py::init([](const py::object& depth, const py::object& hero_weight, const py::object& seed) {
                 AlphaBetaParams p;
                 p.depth = int_param(depth, "depth");
                 p.hero_weight = int_param(hero_weight, "hero_weight");
                 p.seed = uint_param(seed, "seed");
                 return std::make_unique<AlphaBeta>(p);
             }),
             py::kw_only(), py::arg("depth") = 7, py::arg("hero_weight") = 30, py::arg("seed") = 0)
        .def("search", &AlphaBeta::search, py::arg("position"), py::call_guard<py::gil_scoped_release>(),
             "Search with this searcher's next stream (mix_seed(seed, searches so far)).")
        .def("reset", &AlphaBeta::reset, py::call_guard<py::gil_scoped_release>(),
             "Start the stream count again, as a new searcher would.");

    py::class_<Expectimax>(m, "_Expectimax", "A sound expectimax (cpp/classic/expectimax.h); use rosen.agents.ExpectimaxAgent.")
        .def(py::init([](const py::object& depth, const py::object& time_ms, const py::object& hero_weight,
                         const py::object& seed, const py::object& tt_mb,
                         std::shared_ptr<learning::Network> network) {
                 ExpectimaxParams p;
                 if (!depth.is_none()) p.depth = int_param(depth, "depth");
                 if (!time_ms.is_none()) p.time_ms = uint_param(time_ms, "time_ms");
                 p.hero_weight = int_param(hero_weight, "hero_weight");
                 p.seed = uint_param(seed, "seed");
                 p.tt_mb = int_param(tt_mb, "tt_mb");
                 return std::make_unique<Expectimax>(p, std::move(network));
             }),
             py::kw_only(), py::arg("depth") = py::none(), py::arg("time_ms") = py::none(), py::arg("hero_weight") = 30,
             py::arg("seed") = 0, py::arg("tt_mb") = 16, py::arg("network") = nullptr)
        .def("search", &Expectimax::search, py::arg("position"), py::call_guard<py::gil_scoped_release>(),
             "Iterative deepening to the depth or the time budget; the table is kept between searches.")
        .def("solve", [](Expectimax& e, const Position& pos, const py::object& max_nodes) {
                 const uint64_t nodes = bindings::uint_arg(max_nodes, "max_nodes", 1, ~uint64_t(0));
                 py::gil_scoped_release release;
                 return e.solve(pos, nodes);
             }, py::arg("position"), py::kw_only(), py::arg("max_nodes"),
             "Deepen until an iteration is exact or max_nodes positions are visited (the endgame solver).")
        .def("reset", &Expectimax::reset, py::call_guard<py::gil_scoped_release>(), "Clear the transposition table.")
        .def("stop", &Expectimax::stop, "End the running search now (or else the next one at once), from any thread.")
        .def("clear_stop", &Expectimax::clear_stop, "Withdraw a stop request that no search has honoured.");
    rosen::bindings::refuse_uninitialised<ClassicResult>();
    rosen::bindings::refuse_uninitialised<AlphaBeta>();
    rosen::bindings::refuse_uninitialised<Expectimax>();
}
