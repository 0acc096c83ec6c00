// NumPy arrays handed to C++ by pointer: checked once, here, for the exact dtype, the shape and
// C-contiguity (and writability when C++ fills them), else an ArgumentError naming the field.
#pragma once
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <string>
#include <vector>

#include "args.h"

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

// The same for an array C++ writes into.
template <typename T>
py::array_t<T> writable_array(const py::handle& obj, const char* field, const std::vector<py::ssize_t>& shape,
                              const char* dtype_name) {
    auto arr = checked_array<T>(obj, field, shape, dtype_name);
    if (!arr.writeable()) throw ArgumentError(field, std::string(field) + ": expected a writable array");
    return arr;
}

}  // namespace rosen::bindings
