// NumPy arguments shared by the bindings, each checked once with an error naming the field (args.h
// has the scalar arguments): an array of an exact dtype and shape, C-contiguous (and writable when
// C++ fills it), and a sequence of positions.
#pragma once
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <string>
#include <vector>

#include "args.h"
#include "rosenkoenig/position.h"

namespace rosen::bindings {

inline std::string shape_text(const std::vector<py::ssize_t>& shape) {
    std::string out = "(";
    for (size_t i = 0; i < shape.size(); ++i) {
        if (i) out += ", ";
        out += std::to_string(shape[i]);
    }
    return out + (shape.size() == 1 ? ",)" : ")");
}

// A C-contiguous array of exactly dtype T and the given shape (-1: any length), else an error
// naming the field.
template <typename T>
py::array_t<T> checked_array(const py::handle& obj, const char* field, const std::vector<py::ssize_t>& shape,
                             const char* dtype_name) {
    if (!py::isinstance<py::array_t<T>>(obj)) {
        const std::string got = py::isinstance<py::array>(obj) ? "dtype " + std::string(py::str(obj.attr("dtype")))
                                                               : type_name(obj);
        throw ArgumentTypeError(field, std::string(field) + ": expected a numpy " + dtype_name + " array, got " + got);
    }
    auto arr = py::reinterpret_borrow<py::array_t<T>>(obj);
    bool ok = arr.ndim() == py::ssize_t(shape.size());
    for (size_t d = 0; ok && d < shape.size(); ++d) ok = shape[d] < 0 || arr.shape(d) == shape[d];
    if (!ok) {
        std::vector<py::ssize_t> got(arr.shape(), arr.shape() + arr.ndim());
        std::string want = shape_text(shape);
        for (size_t pos; (pos = want.find("-1")) != std::string::npos;) want.replace(pos, 2, "N");
        throw ArgumentError(field, std::string(field) + ": expected shape " + want + ", got " + shape_text(got));
    }
    if (!(arr.flags() & py::array::c_style))
        throw ArgumentError(field, std::string(field) + ": expected a C-contiguous array");
    return arr;
}

// A sequence of rosen.Position, copied (the GIL may be released afterwards).
inline std::vector<Position> positions_arg(const py::handle& items, const char* field) {
    if (!py::isinstance<py::sequence>(items) || py::isinstance<py::str>(items))
        throw ArgumentTypeError(field, std::string(field) + ": expected a sequence of rosen.Position, got " +
                                           type_name(items));
    // A sequence type may have no length: a 0-d NumPy array passes the sequence check, and len()
    // of it raised a bare TypeError naming no field.
    const py::ssize_t size = PyObject_Length(items.ptr());
    if (size < 0) {
        PyErr_Clear();
        throw ArgumentTypeError(field, std::string(field) + ": expected a sequence of rosen.Position, got " +
                                           type_name(items) + " without a length");
    }
    const auto seq = py::reinterpret_borrow<py::sequence>(items);
    std::vector<Position> out;
    out.reserve(size_t(size));
    for (size_t i = 0; i < size_t(size); ++i) {
        const py::object item = seq[i];
        if (!py::isinstance<Position>(item))
            throw ArgumentTypeError(field, std::string(field) + "[" + std::to_string(i) +
                                               "]: expected a rosen.Position, got " + type_name(item));
        out.push_back(item.cast<const Position&>());
    }
    return out;
}

// checked_array, for an array C++ writes into.
template <typename T>
py::array_t<T> writable_array(const py::handle& obj, const char* field, const std::vector<py::ssize_t>& shape,
                              const char* dtype_name) {
    auto arr = checked_array<T>(obj, field, shape, dtype_name);
    if (!arr.writeable()) throw ArgumentError(field, std::string(field) + ": expected a writable array");
    return arr;
}

}  // namespace rosen::bindings
