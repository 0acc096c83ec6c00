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

// A Python bool or a NumPy one (numpy.bool_, named "bool" since NumPy 2): a bool either way, so
// never a number, and always acceptable where a bool is.
inline bool is_bool(const py::handle& obj) {
    if (py::isinstance<py::bool_>(obj)) return true;
    const py::handle type = py::type::of(obj);
    if (std::string(py::str(type.attr("__module__"))) != "numpy") return false;
    const std::string name = type_name(obj);
    return name == "bool" || name == "bool_";
}

// A str as UTF-8. Lone surrogates (what a stray byte on stdin becomes) are kept as escapes, so
// the text reaches the parser, which rejects it with its usual message.
inline std::string text_arg(const py::handle& obj, const char* field) {
    if (!py::isinstance<py::str>(obj))
        throw ArgumentTypeError(field, std::string(field) + ": expected a str, got " + type_name(obj));
    return obj.attr("encode")("utf-8", "backslashreplace").cast<std::string>();
}

// The first `n` bytes of UTF-8 text, or fewer so that no character is cut in half (a cut one
// would make the error message itself undecodable: a raw UnicodeDecodeError).
inline std::string utf8_prefix(const std::string& text, size_t n) {
    if (text.size() <= n) return text;
    while (n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80) --n;  // a continuation byte
    return text.substr(0, n);
}

// A number as the error messages show it: a huge int as its first digits and its length, so that
// what is shown is never mistaken for another number. Python refuses to write out an int of more
// than 4300 digits (ValueError); such an int is described by its size instead.
inline std::string shown_number(const py::handle& value) {
    std::string text;
    try {
        text = py::str(value);
    } catch (py::error_already_set&) {
        if (!py::isinstance<py::int_>(value)) return "a value that cannot be shown";
        const double bits = value.attr("bit_length")().cast<double>();
        return "an int of about " + std::to_string(uint64_t(bits * 0.30103) + 1) + " digits";
    }
    if (text.size() <= 40) return text;
    return utf8_prefix(text, 20) + "... (" + std::to_string(text.size()) + " characters)";
}

// Calls obj.<method>() and converts its result to T. A Python error on the way (an array of
// several numbers, an int too large for a float) becomes the field's ArgumentTypeError or
// ArgumentError instead of escaping as a raw TypeError or OverflowError.
template <typename T>
T convert_number(const py::handle& obj, const char* method, const char* field, const char* expected) {
    try {
        return obj.attr(method)().cast<T>();
    } catch (py::error_already_set& e) {
        if (e.matches(PyExc_OverflowError))
            throw ArgumentError(field, std::string(field) + ": expected " + expected + ", got " + shown_number(obj) +
                                           " (too large)");
        throw ArgumentTypeError(field, std::string(field) + ": expected " + expected + ", got " + type_name(obj) +
                                           (py::hasattr(obj, "shape") ? " of shape " + std::string(py::str(obj.attr("shape"))) : ""));
    }
}

// An int (not a bool; anything with __index__) in [low, high].
template <typename T>
T integer_arg(const py::handle& obj, const char* field, T low, T high) {
    if (is_bool(obj) || !py::hasattr(obj, "__index__"))
        throw ArgumentTypeError(field, std::string(field) + ": expected an int, got " + type_name(obj));
    const py::int_ value = convert_number<py::int_>(obj, "__index__", field, "an int");
    if (value < py::int_(low) || value > py::int_(high))
        throw ArgumentError(field, std::string(field) + ": expected " + std::to_string(low) + ".." + std::to_string(high) +
                                       ", got " + shown_number(value));
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
    if (is_bool(obj) || py::isinstance<py::str>(obj) || !py::hasattr(obj, "__float__"))
        throw ArgumentTypeError(field, std::string(field) + ": expected a number, got " + type_name(obj));
    return convert_number<double>(obj, "__float__", field, "a number");
}

inline bool bool_arg(const py::handle& obj, const char* field) {
    if (!is_bool(obj))
        throw ArgumentTypeError(field, std::string(field) + ": expected a bool, got " + type_name(obj));
    return py::bool_(py::reinterpret_borrow<py::object>(obj));  // numpy.bool_ through its __bool__
}

// Shared with other binding files, defined where their game area is bound:
// players (2 or 4) and reshuffle ('eager' or 'lazy') as Rules (bind_rosenkoenig.cpp);
Rules rules_arg(const py::handle& players, const py::handle& reshuffle);
// every search parameter, converted and validated, from a dict of some of them (bind_search.cpp);
search::SearchParams search_params_arg(const py::dict& values);
// an observation layout, 'planes' or 'flat': true for flat (bind_features.cpp).
bool flat_layout_arg(const py::handle& layout);

}  // namespace rosen::bindings
