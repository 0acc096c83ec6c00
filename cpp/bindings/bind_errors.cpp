// The one place where C++ errors become Python exceptions. The exception classes are defined in
// Python (python/rosen/errors.py, so that they carry a proper constructor, `.field` and pickling);
// each C++ error type maps to exactly one of them.
#include <pybind11/pybind11.h>

#include <exception>

#include "common/errors.h"
#include "rosenkoenig/notation.h"
#include "rosenkoenig/position.h"

namespace py = pybind11;

namespace {

// Messages quote what the caller gave; should a quote still end mid-character, the message is
// shown with that byte escaped rather than failing to decode (a raw UnicodeDecodeError).
py::str utf8_text(const std::string& text) {
    PyObject* decoded = PyUnicode_DecodeUTF8(text.data(), py::ssize_t(text.size()), "backslashreplace");
    if (!decoded) throw py::error_already_set();
    return py::reinterpret_steal<py::str>(decoded);
}

void set_error(const char* class_name, const rosen::ArgumentError& e) {
    // The translator runs with the GIL held; rosen.errors imports nothing but the standard library.
    const py::object cls = py::module_::import("rosen.errors").attr(class_name);
    py::set_error(cls, cls(utf8_text(e.what()), utf8_text(e.field)));
}

}  // namespace

void bind_errors(py::module_&) {
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const rosen::InvalidPositionError& e) {
            set_error("InvalidPositionError", e);
        } catch (const rosen::InvalidMoveError& e) {
            set_error("InvalidMoveError", e);
        } catch (const rosen::IllegalMoveError& e) {
            set_error("IllegalMoveError", e);
        } catch (const rosen::ArgumentTypeError& e) {
            set_error("ArgumentTypeError", e);
        } catch (const rosen::ArgumentError& e) {
            set_error("InvalidArgumentError", e);
        }
    });
}
