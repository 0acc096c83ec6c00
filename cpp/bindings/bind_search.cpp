// Python face of the MCTS search. The parameter table (search/params.h: kParamInfo) is exported
// as it is, so that python/rosen/search.py builds rosen.SearchParams from it without listing,
// documenting or checking any field again; values are converted and checked here, once.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "args.h"
#include "rosenkoenig/notation.h"
#include "search/mcts.h"
#include "uninitialised.h"

namespace py = pybind11;
using namespace rosen;
using namespace rosen::search;

namespace {

std::vector<std::string> move_names(const std::vector<Move>& moves) {
    std::vector<std::string> out;
    for (Move mv : moves) out.push_back(format_move(mv));
    return out;
}

const ParamInfo* find_param(const std::string& name) {
    for (const ParamInfo& info : kParamInfo)
        if (info.name == name) return &info;
    return nullptr;
}

std::string known_params() {
    std::string out;
    for (const ParamInfo& info : kParamInfo) out += (out.empty() ? "" : ", ") + std::string(info.name);
    return out;
}

// One field from a Python value: the type is checked here, the range by validate().
void set_param(SearchParams& p, const ParamInfo& info, const py::handle& value) {
    const std::string name(info.name);
    std::visit(
        [&](auto member) {
            using T = std::remove_reference_t<decltype(p.*member)>;
            if constexpr (std::is_same_v<T, double>) {
                p.*member = bindings::real_arg(value, info.name.data());
            } else if constexpr (std::is_same_v<T, uint64_t>) {
                p.*member = bindings::uint_arg(value, info.name.data(), uint64_t(info.min),
                                               info.max >= 18446744073709551615.0 ? ~uint64_t(0) : uint64_t(info.max));
            } else if constexpr (std::is_same_v<T, int>) {
                p.*member = bindings::int_arg(value, info.name.data(), int(info.min), int(info.max));
            } else {
                const std::string word = bindings::text_arg(value, info.name.data());
                const auto choice = choice_value(info, word);
                if (!choice)
                    throw ArgumentError(name, name + ": expected " + choices_text(info) + ", got '" +
                                                  bindings::utf8_prefix(word, 20) + "'");
                p.*member = T(*choice);
            }
        },
        info.member);
}

// Parameters from a mapping of field names to values; missing fields keep their defaults.
SearchParams params_from(const py::dict& values) {
    SearchParams p;
    for (const auto& [key, value] : values) {
        const std::string name = bindings::text_arg(key, "search parameters");
        const ParamInfo* info = find_param(name);
        if (!info) {
            const std::string shown = bindings::utf8_prefix(name, 40);
            throw ArgumentTypeError(shown, shown + ": not a search parameter; expected one of " + known_params());
        }
        set_param(p, *info, value);
    }
    validate(p);
    return p;
}

py::object param_value(const SearchParams& p, const ParamInfo& info) {
    return std::visit(
        [&](auto member) -> py::object {
            using T = std::remove_reference_t<decltype(p.*member)>;
            if constexpr (std::is_enum_v<T>)
                return py::str(std::string(choice_name(info, int(p.*member))));
            else
                return py::cast(p.*member);
        },
        info.member);
}

py::dict as_dict(const SearchParams& p) {
    py::dict out;
    for (const ParamInfo& info : kParamInfo) out[py::str(std::string(info.name))] = param_value(p, info);
    return out;
}

}  // namespace

SearchParams bindings::search_params_arg(const py::dict& values) { return params_from(values); }

void bind_search(py::module_& m) {
    m.def("_search_param_info", [] {
        const SearchParams defaults;
        py::list out;
        for (const ParamInfo& info : kParamInfo) {
            const char* type = std::visit(
                [](auto member) {
                    using T = std::remove_reference_t<decltype(std::declval<SearchParams&>().*member)>;
                    return std::is_enum_v<T> ? "str" : std::is_same_v<T, double> ? "float" : "int";
                },
                info.member);
            py::list words;
            for (std::string_view c : info.choices)
                if (!c.empty()) words.append(std::string(c));
            const py::tuple choices(words);
            py::object low = py::none(), high = py::none();
            if (choices.empty()) {
                low = std::string(type) == "float" ? py::object(py::float_(info.min))
                      : info.min < 0                 ? py::object(py::int_(int64_t(info.min)))
                                                     : py::object(py::int_(uint64_t(info.min)));
                high = std::string(type) == "float" ? py::object(py::float_(info.max))
                       : info.max >= 18446744073709551615.0 ? py::object(py::int_(~uint64_t(0)))
                                                            : py::object(py::int_(uint64_t(info.max)));
            }
            out.append(py::make_tuple(std::string(info.name), type, param_value(defaults, info), low, high, choices,
                                      std::string(info.doc)));
        }
        return out;
    }, "Each search parameter as (name, type, default, min, max, choices, doc), in declaration order.");

    m.def("_search_params", [](const py::dict& values) { return as_dict(params_from(values)); }, py::arg("values"),
          "Every search parameter, converted and checked, from a dict of some of them (the rest keep defaults).");

    m.attr("_node_bytes") = kNodeBytes;
    m.def("_max_tree_size_limit", &max_tree_size_limit,
          "The most tree nodes a search may hold on this machine (half its memory, at most 2**31).");

    py::class_<SearchResult>(m, "_SearchResult", "Raw search result; rosen.SearchResult wraps it.")
        .def_property_readonly("best_move", [](const SearchResult& r) { return format_move(r.best_move); })
        .def_property_readonly("moves", [](const SearchResult& r) {
            std::vector<std::tuple<std::string, uint64_t, double, double, double, std::vector<std::string>>> out;
            for (const MoveInfo& s : r.moves)
                out.emplace_back(format_move(s.move), s.visits, s.winrate, s.prior, s.score, move_names(s.pv));
            return out;
        }, "(move, visits, winrate, prior, score, pv) per root move, most visited first.")
        .def_property_readonly("pv", [](const SearchResult& r) { return move_names(r.pv); })
        .def_readonly("depth", &SearchResult::depth)
        .def_readonly("seldepth", &SearchResult::seldepth)
        .def_readonly("tree_size", &SearchResult::tree_size)
        .def_readonly("iterations", &SearchResult::iterations)
        .def_readonly("reused_visits", &SearchResult::reused_visits)
        .def_readonly("nps", &SearchResult::nps)
        .def_readonly("time_ms", &SearchResult::time_ms)
        .def_readonly("winrate", &SearchResult::winrate)
        .def_readonly("score", &SearchResult::score)
        .def_readonly("proven", &SearchResult::proven);

    py::class_<Searcher>(m, "_Searcher", "The C++ searcher; use rosen.Searcher.")
        .def(py::init([](const py::dict& values, std::shared_ptr<learning::Network> network) {
                 return std::make_unique<Searcher>(params_from(values), std::move(network));
             }),
             py::arg("params"), py::arg("network") = nullptr,
             "Parameters as a dict of rosen.SearchParams fields; network: a _Network to guide the search, or None.")
        .def("search", py::overload_cast<const Position&>(&Searcher::search), py::arg("position"),
             py::call_guard<py::gil_scoped_release>(),
             "Search the position with the budget; the GIL is released meanwhile.")
        .def("search", py::overload_cast<const Position&, uint64_t, uint64_t, uint64_t>(&Searcher::search),
             py::arg("position"), py::kw_only(), py::arg("iterations"), py::arg("time_ms"), py::arg("stream"),
             py::call_guard<py::gil_scoped_release>(),
             "Search with this call's budget (0 = no limit, not both) and random stream: one slice of a search "
             "reported in steps (the engine protocol).")
        .def("stop", &Searcher::stop, "End the running search, or else the next one, at once (see mcts.h).")
        .def("clear_stop", &Searcher::clear_stop, "Withdraw a stop that no search has honoured yet.")
        .def_property_readonly("stop_requested", &Searcher::stop_requested)
        .def("reset", &Searcher::reset, py::call_guard<py::gil_scoped_release>(), "Forget the trees.")
        .def("limit_reuse", &Searcher::limit_reuse, py::arg("time_ms"),
             "The next search keeps its trees only if moving them to a new root takes at most half of time_ms "
             "(0: no limit); an engine searching a move in slices gives the move's whole budget.");
    rosen::bindings::refuse_uninitialised<SearchResult>();
    rosen::bindings::refuse_uninitialised<Searcher>();
}
