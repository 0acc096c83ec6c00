// Python face of the learned evaluation (cpp/learning/): a network built from the arrays that
// python/rosen/learning/network.py read and checked from the file (so C++ needs no zip reader),
// shared by reference with the searches that use it, and a batched evaluation that fills NumPy
// arrays with the GIL released. rosen.Evaluator is the public class.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <memory>
#include <vector>

#include "args.h"
#include "arrays.h"
#include "learning/network.h"
#include "uninitialised.h"

namespace py = pybind11;
using namespace rosen;
using namespace rosen::learning;
using bindings::checked_array;

namespace {

std::shared_ptr<Network> make_network(const py::handle& w1, const py::handle& b1, const py::handle& w2,
                                      const py::handle& b2, const py::handle& wp, const py::handle& bp,
                                      const py::handle& wv, const py::handle& bv, const py::handle& wm,
                                      const py::handle& bm, const py::handle& margin_scale) {
    // The hidden sizes come from w1 and w2; every other shape follows from them.
    const auto a_w1 = checked_array<float>(w1, "w1", {-1, kInputs}, "float32");
    const py::ssize_t h1 = a_w1.shape(0);
    const auto a_w2 = checked_array<float>(w2, "w2", {-1, h1}, "float32");
    const py::ssize_t h2 = a_w2.shape(0);
    const auto a_b1 = checked_array<float>(b1, "b1", {h1}, "float32");
    const auto a_b2 = checked_array<float>(b2, "b2", {h2}, "float32");
    const auto a_wp = checked_array<float>(wp, "wp", {kActions, h2}, "float32");
    const auto a_bp = checked_array<float>(bp, "bp", {kActions}, "float32");
    const auto a_wv = checked_array<float>(wv, "wv", {kValueLogits, h2}, "float32");
    const auto a_bv = checked_array<float>(bv, "bv", {kValueLogits}, "float32");
    const auto a_wm = checked_array<float>(wm, "wm", {1, h2}, "float32");
    const auto a_bm = checked_array<float>(bm, "bm", {1}, "float32");
    if (h1 > kMaxHidden || h2 > kMaxHidden || h1 < 1 || h2 < 1)  // before the sizes are narrowed to int
        throw ArgumentError("hidden", "hidden: C++ evaluation takes 1.." + std::to_string(kMaxHidden) +
                                          " units per layer, got (" + std::to_string(h1) + ", " + std::to_string(h2) + ")");
    Weights w{.h1 = int(h1), .h2 = int(h2), .w1 = a_w1.data(), .b1 = a_b1.data(), .w2 = a_w2.data(), .b2 = a_b2.data(),
              .wp = a_wp.data(), .bp = a_bp.data(), .wv = a_wv.data(), .bv = a_bv.data(), .wm = a_wm.data(),
              .bm = a_bm.data(), .margin_scale = float(bindings::real_arg(margin_scale, "margin_scale"))};
    return std::make_shared<Network>(w);
}

}  // namespace

void bind_learning(py::module_& m) {
    // The widest layer the C++ evaluator takes: rosen train refuses wider before it trains.
    m.attr("_max_hidden") = kMaxHidden;
    py::class_<Network, std::shared_ptr<Network>>(m, "_Network",
                                                  "A network in C++ (cpp/learning/network.h); use rosen.Evaluator.")
        .def(py::init(&make_network), py::kw_only(), py::arg("w1"), py::arg("b1"), py::arg("w2"), py::arg("b2"),
             py::arg("wp"), py::arg("bp"), py::arg("wv"), py::arg("bv"), py::arg("wm"), py::arg("bm"),
             py::arg("margin_scale"),
             "The weights as the file holds them: C-contiguous float32 arrays of the spec's shapes (copied).")
        .def_property_readonly("hidden", [](const Network& n) { return py::make_tuple(n.hidden1(), n.hidden2()); })
        .def_property_readonly("margin_scale", &Network::margin_scale)
        .def("evaluate", [](const Network& net, const py::handle& items, const py::handle& threads_obj) {
            const std::vector<Position> positions = bindings::positions_arg(items, "positions");
            const int threads = bindings::int_arg(threads_obj, "threads", 1, 256);
            const py::ssize_t n = py::ssize_t(positions.size());
            py::array_t<float> policy({n, py::ssize_t(kActions)}), wdl({n, py::ssize_t(kValueLogits)}), margin(n), value(n);
            float *p = policy.mutable_data(), *w = wdl.mutable_data(), *mg = margin.mutable_data(),
                  *v = value.mutable_data();
            {
                py::gil_scoped_release release;
                net.evaluate_batch(positions.data(), positions.size(), p, w, mg, v, threads);
            }
            return py::make_tuple(policy, wdl, margin, value);
        }, py::arg("positions"), py::kw_only(), py::arg("threads") = 1,
           "(policy [N, 50], wdl [N, 3], margin [N], value [N]) of a sequence of positions, mover's view.");
    rosen::bindings::refuse_uninitialised<Network>();
}
