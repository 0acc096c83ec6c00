// Argument conversion shared by the bindings: Python objects in, C++ values out, or an
// ArgumentError / ArgumentTypeError naming the field (bind_errors.cpp maps them to Python).
#pragma once
#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>

#include "common/errors.h"
#include "rosenkoenig/rules.h"
#include "search/params.h"

namespace rosen::bindings {

namespace py = pybind11;

inline std::string type_name(const py::handle& obj) { return py::str(py::type::of(obj).attr("__name__")); }

// A str as UTF-8. Lone surrogates (what a stray byte on stdin becomes) are kept as escapes, so
// the text reaches the parser, which rejects it with its usual message.
inline std::string text_arg(const py::handle& obj, const char* field) {
    if (!py::isinstance<py::str>(obj))
        throw ArgumentTypeError(field, std::string(field) + ": expected a str, got " + type_name(obj));
    return obj.attr("encode")("utf-8", "backslashreplace").cast<std::string>();
}

// An int (not a bool; anything with __index__) in [low, high].
template <typename T>
T integer_arg(const py::handle& obj, const char* field, T low, T high) {
    if (py::isinstance<py::bool_>(obj) || !py::hasattr(obj, "__index__"))
        throw ArgumentTypeError(field, std::string(field) + ": expected an int, got " + type_name(obj));
    const py::int_ value = obj.attr("__index__")();
    if (value < py::int_(low) || value > py::int_(high))
        throw ArgumentError(field, std::string(field) + ": expected " + std::to_string(low) + ".." + std::to_string(high) +
                                       ", got " + std::string(py::str(value)).substr(0, 40));
    return value.cast<T>();
}

inline uint64_t uint_arg(const py::handle& obj, const char* field, uint64_t low, uint64_t high) {
    return integer_arg<uint64_t>(obj, field, low, high);
}

inline int int_arg(const py::handle& obj, const char* field, int low, int high) {
    return integer_arg<int>(obj, field, low, high);
}

// A number (not a bool or str; anything with __float__); the caller checks its range.
inline double real_arg(const py::handle& obj, const char* field) {
    if (py::isinstance<py::bool_>(obj) || py::isinstance<py::str>(obj) || !py::hasattr(obj, "__float__"))
        throw ArgumentTypeError(field, std::string(field) + ": expected a number, got " + type_name(obj));
    return obj.attr("__float__")().cast<double>();
}

inline bool bool_arg(const py::handle& obj, const char* field) {
    if (!py::isinstance<py::bool_>(obj))
        throw ArgumentTypeError(field, std::string(field) + ": expected a bool, got " + type_name(obj));
    return obj.cast<bool>();
}

// Shared with other binding files, defined where their game area is bound:
// players (2 or 4) and reshuffle ('eager' or 'lazy') as Rules (bind_rosenkoenig.cpp);
Rules rules_arg(const py::handle& players, const py::handle& reshuffle);
// every search parameter, converted and validated, from a dict of some of them (bind_search.cpp);
search::SearchParams search_params_arg(const py::dict& values);
// an observation layout, 'planes' or 'flat': true for flat (bind_features.cpp).
bool flat_layout_arg(const py::handle& layout);

}  // namespace rosen::bindings
