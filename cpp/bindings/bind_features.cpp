// Python face of the learning features (cpp/features/): the observation encoder over positions
// and record rows, the board's symmetries and the action names. python/rosen/encoding.py is the
// public layer; arrays are checked here, once (dtype, shape, row counts), and filled in place
// with the GIL released.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "args.h"
#include "arrays.h"
#include "features/encoder.h"
#include "features/row_state.h"
#include "features/symmetry.h"
#include "rosenkoenig/notation.h"

namespace py = pybind11;
using namespace rosen;
using namespace rosen::features;

namespace {

using bindings::checked_array;

enum class Layout { Planes, Flat };

Layout layout_of(const py::handle& obj) {
    const std::string name = bindings::text_arg(obj, "layout");
    if (name == "planes") return Layout::Planes;
    if (name == "flat") return Layout::Flat;
    throw ArgumentError("layout", "layout: expected 'planes' or 'flat', got '" + bindings::utf8_prefix(name, 20) + "'");
}

std::vector<py::ssize_t> shape_of(Layout layout, py::ssize_t n) {
    if (layout == Layout::Planes) return {n, kPlanes, kRanks, kFiles};
    return {n, kFlatFeatures};
}

// The output buffer: the caller's (checked, writable) or a new one.
template <typename T>
py::array_t<T> output(const py::object& out, Layout layout, py::ssize_t n, const char* dtype_name) {
    const std::vector<py::ssize_t> shape = shape_of(layout, n);
    if (out.is_none()) return py::array_t<T>(shape);
    return bindings::writable_array<T>(out, "out", shape, dtype_name);
}

template <typename Source>
py::array encode_into(const Source& source, py::ssize_t n, const py::handle& layout_obj, const py::object& out) {
    const Layout layout = layout_of(layout_obj);
    if (layout == Layout::Planes) {
        auto arr = output<int8_t>(out, layout, n, "int8");
        int8_t* data = arr.mutable_data();
        py::gil_scoped_release release;
        source(data);
        return arr;
    }
    auto arr = output<float>(out, layout, n, "float32");
    float* data = arr.mutable_data();
    py::gil_scoped_release release;
    source(data);
    return arr;
}

// The record fields of the spec, checked against each other: every array has the same N.
struct RowArrays {
    py::ssize_t n = -1;
    std::vector<py::object> keep;  // the arrays behind the pointers
    RowsIn rows{};

    template <typename T>
    const T* field(const py::dict& d, const char* name, std::vector<py::ssize_t> tail, const char* dtype_name) {
        if (!d.contains(name)) throw ArgumentError(name, std::string(name) + ": missing from the rows");
        tail.insert(tail.begin(), n);
        auto arr = bindings::checked_array<T>(d[name], name, tail, dtype_name);
        if (n < 0) n = arr.shape(0);
        keep.push_back(arr);
        return arr.data();
    }

    explicit RowArrays(const py::handle& obj) {
        if (!py::isinstance<py::dict>(obj))
            throw ArgumentTypeError("rows", "rows: expected a dict of arrays, got " + bindings::type_name(obj));
        const auto d = py::reinterpret_borrow<py::dict>(obj);
        // players first: its length is the N every other field must have.
        rows.players = field<int8_t>(d, "players", {}, "int8");
        rows.reshuffle = field<int8_t>(d, "reshuffle", {}, "int8");
        rows.to_move = field<int8_t>(d, "to_move", {}, "int8");
        rows.tokens = field<uint64_t>(d, "tokens", {2, 2}, "uint64");
        rows.crown = field<int8_t>(d, "crown", {}, "int8");
        rows.hands = field<uint32_t>(d, "hands", {4}, "uint32");
        rows.heroes = field<int8_t>(d, "heroes", {4}, "int8");
        rows.discard = field<uint32_t>(d, "discard", {}, "uint32");
        rows.pile = field<uint32_t>(d, "pile", {}, "uint32");
    }
};

template <typename T, typename... Dims>
py::array_t<T> zeros(Dims... dims) {
    py::array_t<T> a(std::vector<py::ssize_t>{py::ssize_t(dims)...});
    std::fill(a.mutable_data(), a.mutable_data() + a.size(), T(0));
    return a;
}

py::array_t<int64_t> table(int columns, const auto& value) {
    py::array_t<int64_t> a({kSymmetries, columns});
    auto v = a.mutable_unchecked<2>();
    for (int k = 0; k < kSymmetries; ++k)
        for (int i = 0; i < columns; ++i) v(k, i) = value(k, i);
    return a;
}

}  // namespace

bool bindings::flat_layout_arg(const py::handle& layout) { return layout_of(layout) == Layout::Flat; }

void bind_features(py::module_& m) {
    m.attr("_encoder_version") = kEncoderVersion;
    m.def("_plane_names", &plane_names, "Names of the planes layout's channels, in order.");
    m.def("_feature_names", &feature_names, "Names of the flat layout's features, in order.");
    m.def("_action_names", [] {
        std::vector<std::string> names;
        for (int a = 0; a < kActions; ++a) names.push_back(format_move(move_of(a)));
        return names;
    }, "Move text of each action index 0..49.");

    m.def("_symmetries", [] {
        const auto& sym = symmetries();
        std::vector<std::string> names;
        py::array_t<int64_t> inverse(kSymmetries);
        for (int k = 0; k < kSymmetries; ++k) {
            names.emplace_back(sym[k].name);
            inverse.mutable_at(k) = sym[k].inverse;
        }
        std::vector<std::array<int, kFlatFeatures>> flat;
        for (int k = 0; k < kSymmetries; ++k) flat.push_back(flat_image(k));
        return py::make_tuple(names, inverse, table(kSquares, [&](int k, int i) { return sym[k].square[i]; }),
                              table(kCards, [&](int k, int i) { return sym[k].card[i]; }),
                              table(kActions, [&](int k, int i) { return sym[k].action[i]; }),
                              table(kFlatFeatures, [&](int k, int i) { return flat[k][i]; }));
    }, "(names, inverse, squares, cards, actions, features): the 8 symmetries as index tables.");

    m.def("_transform", [](const Position& pos, const py::handle& k) {
        return transform(pos, bindings::int_arg(k, "k", 0, kSymmetries - 1));
    }, py::arg("position"), py::arg("k"));

    m.def("_encode_positions", [](const py::handle& items, const py::handle& layout, const py::object& out) {
        const std::vector<Position> positions = bindings::positions_arg(items, "items");
        return encode_into([&](auto* data) { encode_batch(positions.data(), positions.size(), data); },
                           py::ssize_t(positions.size()), layout, out);
    }, py::arg("items"), py::arg("layout"), py::arg("out") = py::none(),
       "Encode a sequence of positions into a new array, or into out.");

    m.def("_encode_rows", [](const py::handle& rows_obj, const py::handle& layout, const py::object& out) {
        const RowArrays rows(rows_obj);
        // Into the caller's buffer, every row is checked before one is written (a failed call
        // leaves it unchanged); a new array is dropped on failure anyway.
        const bool into_callers = !out.is_none();
        return encode_into([&](auto* data) { encode_rows(rows.rows, size_t(rows.n), data, into_callers); }, rows.n,
                           layout, out);
    }, py::arg("rows"), py::arg("layout"), py::arg("out") = py::none(),
       "Encode record rows (a dict of the spec's arrays, exact dtypes) into a new array, or into out.");

    m.def("_positions_from_rows", [](const py::handle& rows_obj) {
        const RowArrays rows(rows_obj);
        std::vector<Position> out;
        out.reserve(size_t(rows.n));
        for (py::ssize_t i = 0; i < rows.n; ++i) out.push_back(read_row(rows.rows, size_t(i)));
        return out;
    }, py::arg("rows"), "Record rows as positions (pile of unknown order).");

    m.def("_rows_from_positions", [](const py::handle& items) {
        const std::vector<Position> positions = bindings::positions_arg(items, "positions");
        const py::ssize_t n = py::ssize_t(positions.size());
        auto tokens = zeros<uint64_t>(n, 2, 2);
        auto crown = zeros<int8_t>(n), to_move = zeros<int8_t>(n);
        auto players = zeros<int8_t>(n), reshuffle = zeros<int8_t>(n);
        auto hands = zeros<uint32_t>(n, 4);
        auto heroes = zeros<int8_t>(n, 4);
        auto discard = zeros<uint32_t>(n), pile = zeros<uint32_t>(n);
        const RowsOut rows{tokens.mutable_data(), crown.mutable_data(), hands.mutable_data(), discard.mutable_data(),
                           pile.mutable_data(), heroes.mutable_data(), to_move.mutable_data(), players.mutable_data(),
                           reshuffle.mutable_data()};
        for (py::ssize_t i = 0; i < n; ++i) write_row(positions[size_t(i)], rows, size_t(i));
        py::dict d;
        d["tokens"] = tokens;
        d["crown"] = crown;
        d["hands"] = hands;
        d["discard"] = discard;
        d["pile"] = pile;
        d["heroes"] = heroes;
        d["to_move"] = to_move;
        d["players"] = players;
        d["reshuffle"] = reshuffle;
        return d;
    }, py::arg("positions"), "The record-row state fields of a sequence of positions, as a dict of arrays.");
}
