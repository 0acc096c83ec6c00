// rosen._core.lovagok: the Lovagok dice engine. Thin: arguments are checked here (the C++ hot
// paths trust them) and a bad one raises rosen::ArgumentError naming it (bind_errors.cpp maps it
// to rosen.InvalidArgumentError); long work runs without the GIL, arrays cross as NumPy.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "common/errors.h"
#include "common/number_text.h"
#include "lovagok/dice_dp.h"
#include "lovagok/dice_states.h"
#include "lovagok/strength.h"
#include "uninitialised.h"

namespace py = pybind11;
namespace lv = rosen::lovagok;

namespace {

using CountsTuple = std::tuple<int, int, int, int, int>;
using Array = py::array_t<double, py::array::c_style | py::array::forcecast>;

constexpr double kMaxUtility = 1e300;

// "field: expected lo..hi, got x", the wording of every rosen argument error.
void check_range(const char* field, int x, int lo, int hi) {
    if (x < lo || x > hi)
        throw rosen::ArgumentError(field, std::string(field) + ": expected " + std::to_string(lo) + ".." +
                                              std::to_string(hi) + ", got " + std::to_string(x));
}

void check_cards_mask(int cards_mask) { check_range("cards_mask", cards_mask, 0, lv::kNumCardSets - 1); }

// One attempt's dice (0..6 at the start) and re-rolls (0..max_rerolls).
void check_attempt(int dice, int rerolls, int max_rerolls = lv::kMaxRerolls) {
    check_range("dice", dice, 0, lv::kMaxDice);
    check_range("rerolls", rerolls, 0, max_rerolls);
}

// A new float64 array of this shape, filled by fill(data) without the GIL.
template <class Fill>
py::array_t<double> filled_without_gil(std::vector<py::ssize_t> shape, Fill fill) {
    py::array_t<double> out(std::move(shape));
    double* data = out.mutable_data();
    py::gil_scoped_release release;
    fill(data);
    return out;
}

int state_of(const CountsTuple& t) {
    const int c[5] = {std::get<0>(t), std::get<1>(t), std::get<2>(t), std::get<3>(t), std::get<4>(t)};
    lv::Counts counts{};
    for (int v = 0; v < 5; ++v) {
        check_range("counts", c[v], 0, lv::kMaxDice);
        counts[v] = static_cast<std::uint8_t>(c[v]);
    }
    const int s = lv::DiceStates::get().index_of(counts);
    if (s < 0)
        throw rosen::ArgumentError("counts", "counts: expected at most " + std::to_string(lv::kMaxDice) +
                                                 " dice in all, got " + std::to_string(c[0] + c[1] + c[2] + c[3] + c[4]));
    return s;
}

CountsTuple tuple_of(int s) {
    const lv::Counts& c = lv::DiceStates::get().counts(s);
    return {c[0], c[1], c[2], c[3], c[4]};
}

// The data of a utility vector (ndim 1) or of a batch of them (ndim 2), one entry per result rank.
// The utilities copied (taken with the GIL held: the caller's array may change while the solve
// runs without it) and checked to be finite.
std::vector<double> utility_data(const Array& a, const char* field, py::ssize_t ndim) {
    if (a.ndim() != ndim || a.shape(ndim - 1) != lv::kNumResults) {
        std::string shape;
        for (py::ssize_t i = 0; i < a.ndim(); ++i) {
            // Two appends, not `(i ? ", " : "") + std::to_string(...)`: GCC 12's link-time optimiser
            // warned (-Wstringop-overflow, a false alarm) on that temporary, in every build.
            if (i) shape += ", ";
            shape += std::to_string(a.shape(i));
        }
        throw rosen::ArgumentError(field, std::string(field) + ": expected " + (ndim == 1 ? "" : "rows of ") +
                                              std::to_string(lv::kNumResults) + " values (one per result rank), got shape (" +
                                              shape + (a.ndim() == 1 ? ",)" : ")"));
    }
    std::vector<double> values(a.data(), a.data() + a.size());
    // Beyond 1e300 an expectation of finite utilities can overflow (probabilities sum to 1 only
    // up to rounding): inf from finite input.
    for (std::size_t i = 0; i < values.size(); ++i)
        if (!(std::abs(values[i]) <= kMaxUtility))
            throw rosen::ArgumentError(field, std::string(field) + ": expected finite values of magnitude at most 1e300, got " +
                                                  rosen::number_text(values[i]) + " at flat index " + std::to_string(i));
    return values;
}

// A solved attempt for one utility: the object behind rosen.lovagok.Solver.
class PySolver {
public:
    PySolver(const Array& utility, int cards_mask, int max_rerolls) : dp_(std::make_unique<lv::DiceDP>()) {
        const std::vector<double> u = utility_data(utility, "utility", 1);
        check_cards_mask(cards_mask);
        check_range("max_rerolls", max_rerolls, 0, lv::kMaxRerolls);
        py::gil_scoped_release release;
        dp_->solve(u.data(), static_cast<unsigned>(cards_mask), max_rerolls);
    }
    double low() const { return dp_->low(); }
    double high() const { return dp_->high(); }
    double value(int dice, int rerolls) const {
        check_attempt(dice, rerolls, dp_->max_rerolls());
        return dp_->value(dice, rerolls);
    }
    double state_value(const CountsTuple& counts, int rerolls_left) const {
        check_range("rerolls_left", rerolls_left, 0, dp_->max_rerolls());
        return dp_->state_value(state_of(counts), rerolls_left);
    }
    // (keep, value) for stopping (keep None) and then every proper sub-multiset, most kept first.
    std::vector<std::pair<std::optional<CountsTuple>, double>> options(const CountsTuple& counts, int rerolls_left) const {
        check_range("rerolls_left", rerolls_left, 0, dp_->max_rerolls());
        const lv::DiceStates& ds = lv::DiceStates::get();
        const int s = state_of(counts);
        std::vector<std::pair<std::optional<CountsTuple>, double>> out;
        out.emplace_back(std::nullopt, dp_->stop_value(s));
        if (rerolls_left == 0) return out;
        for (const std::int16_t* k = ds.keeps_begin(s); k != ds.keeps_end(s); ++k)
            out.emplace_back(tuple_of(*k), dp_->keep_value(*k, ds.size(s) - ds.size(*k), rerolls_left - 1));
        return out;
    }
    std::optional<CountsTuple> best_keep(const CountsTuple& counts, int rerolls_left) const {
        check_range("rerolls_left", rerolls_left, 0, dp_->max_rerolls());
        const int k = dp_->best_keep(state_of(counts), rerolls_left);
        if (k < 0) return std::nullopt;
        return tuple_of(k);
    }
    py::array_t<double> distribution(int dice, int rerolls) const {
        check_attempt(dice, rerolls, dp_->max_rerolls());
        py::array_t<double> out(lv::kNumResults);
        dp_->distribution(dice, rerolls, out.mutable_data());
        return out;
    }
    int cards_mask() const { return static_cast<int>(dp_->cards_mask()); }
    int max_rerolls() const { return dp_->max_rerolls(); }

private:
    std::unique_ptr<lv::DiceDP> dp_;
};

}  // namespace

void bind_lovagok(py::module_& parent) {
    py::module_ m = parent.def_submodule("lovagok", "Lovagok dice: result strength and exact optimal play.");
    m.attr("NUM_RESULTS") = lv::kNumResults;
    m.attr("MAX_REROLLS") = lv::kMaxRerolls;
    m.attr("MAX_DICE") = lv::kMaxDice;

    m.def("results", [] {
        std::vector<std::tuple<int, int, int>> out;
        for (const auto& r : lv::kResults.by_rank) out.emplace_back(r.size, r.value, r.further);
        return out;
    }, "Every reachable result (size, value, further; 0 = none) in increasing strength; index = rank.");
    m.def("rank_of", [](int size, int value, int further) {
        if (size < 0 || size > 255 || value < 0 || value > 255 || further < 0 || further > 255) return -1;
        return lv::rank_of(lv::Result{std::uint8_t(size), std::uint8_t(value), std::uint8_t(further)});
    }, py::arg("size"), py::arg("value"), py::arg("further"), "Strength rank of a result, -1 if it is not one.");
    m.def("rank_of_counts", [](const CountsTuple& counts, int cards_mask) {
        check_cards_mask(cards_mask);
        return lv::DiceStates::get().rank(static_cast<unsigned>(cards_mask), state_of(counts));
    }, py::arg("counts"), py::arg("cards_mask"), "Result rank of counted dice (counts of 1..5) plus dice cards.");

    m.def("p_beat", [](int target_rank, int rerolls, int dice, int cards_mask) {
        check_range("target_rank", target_rank, 0, lv::kNumResults - 1);
        check_attempt(dice, rerolls);
        check_cards_mask(cards_mask);
        py::gil_scoped_release release;
        return lv::p_beat(target_rank, rerolls, dice, static_cast<unsigned>(cards_mask));
    }, py::arg("target_rank"), py::arg("rerolls"), py::arg("dice"), py::arg("cards_mask"),
       "Probability that optimal play ends strictly stronger than the target.");

    m.def("beat_table", [] {
        return filled_without_gil({lv::kNumCardSets, lv::kMaxRerolls + 1, lv::kMaxDice + 1, lv::kNumResults},
                                  [](double* data) { lv::beat_table(data); });
    }, "p_beat for every [cards_mask, rerolls 0..3, dice 0..6, target rank]; built without the GIL.");
    m.def("beat_table_for", [](int cards_mask) {
        check_cards_mask(cards_mask);
        return filled_without_gil({lv::kMaxRerolls + 1, lv::kMaxDice + 1, lv::kNumResults},
                                  [cards_mask](double* data) { lv::beat_table(static_cast<unsigned>(cards_mask), data); });
    }, py::arg("cards_mask"), "p_beat for one card set: [rerolls 0..3, dice 0..6, target rank].");

    m.def("solve_batch", [](const Array& utilities, int rerolls, int dice, int cards_mask) {
        const std::vector<double> u = utility_data(utilities, "utilities", 2);
        check_attempt(dice, rerolls);
        check_cards_mask(cards_mask);
        const size_t n = static_cast<size_t>(utilities.shape(0));
        py::array_t<double> values(static_cast<py::ssize_t>(n));
        py::array_t<double> dists({static_cast<py::ssize_t>(n), py::ssize_t(lv::kNumResults)});
        double* pv = values.mutable_data();
        double* pd = dists.mutable_data();
        {
            py::gil_scoped_release release;
            lv::solve_batch(u.data(), n, rerolls, dice, static_cast<unsigned>(cards_mask), pv, pd);
        }
        return py::make_tuple(values, dists);
    }, py::arg("utilities"), py::arg("rerolls"), py::arg("dice"), py::arg("cards_mask"),
       "Optimal value and final-result distribution for each row of an (n, NUM_RESULTS) utility array.");

    py::class_<PySolver>(m, "Solver", "Optimal play for one utility over result ranks and one set of dice cards.")
        .def(py::init<const Array&, int, int>(), py::arg("utility"), py::arg("cards_mask") = 0,
             py::arg("max_rerolls") = lv::kMaxRerolls)
        .def("value", &PySolver::value, py::arg("dice"), py::arg("rerolls"))
        .def_property_readonly("low", &PySolver::low, "The least utility of the results six dice can make with the cards.")
        .def_property_readonly("high", &PySolver::high, "The largest utility of the results six dice can make with the cards.")
        .def("state_value", &PySolver::state_value, py::arg("counts"), py::arg("rerolls_left"))
        .def("options", &PySolver::options, py::arg("counts"), py::arg("rerolls_left"))
        .def("best_keep", &PySolver::best_keep, py::arg("counts"), py::arg("rerolls_left"))
        .def("distribution", &PySolver::distribution, py::arg("dice"), py::arg("rerolls"))
        .def_property_readonly("cards_mask", &PySolver::cards_mask)
        .def_property_readonly("max_rerolls", &PySolver::max_rerolls);
    rosen::bindings::refuse_uninitialised<PySolver>();
}
