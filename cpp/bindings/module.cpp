// The one extension module, rosen._core. Each game area binds itself in its own file.
#include <pybind11/pybind11.h>

#include <algorithm>

namespace py = pybind11;

void bind_errors(py::module_& m);
void bind_rosenkoenig(py::module_& m);
void bind_search(py::module_& m);
void bind_lovagok(py::module_& m);
void bind_classic(py::module_& m);
void bind_features(py::module_& m);
void bind_selfplay(py::module_& m);
void bind_learning(py::module_& m);
void bind_env(py::module_& m);

namespace {

// Pickle protocols 0 and 1 reduce an object through copyreg._reduce_ex, which calls the pybind11
// base class on it; pybind11 throws a C++ exception there that nothing catches, and the process
// ended in std::terminate (pickle.dumps(rosen.Move("N2"), 0)). Every class of the module reduces
// as protocol 2 does, whatever the protocol: an exact round trip where the class pickles, a
// TypeError where it does not.
void reduce_as_protocol_2(const py::module_& m) {
    const py::object reduce = py::module_::import("builtins").attr("object").attr("__reduce_ex__");
    for (const auto item : m.attr("__dict__").cast<py::dict>()) {
        const py::handle type = item.second;
        if (!PyType_Check(type.ptr())) continue;
        const auto as_2 = [reduce](py::handle self, int protocol) { return reduce(self, std::max(protocol, 2)); };
        py::setattr(type, "__reduce_ex__",
                    py::cpp_function(as_2, py::is_method(type), py::name("__reduce_ex__"), py::arg("protocol")));
    }
}

}  // namespace

PYBIND11_MODULE(_core, m) {
    m.doc() = "rosen's C++ core: Rosenkönig rules, territory scoring, search, classic searchers, learning features, RL environments and Lovagok dice.";
    bind_errors(m);
    bind_rosenkoenig(m);
    bind_learning(m);  // before search and self-play, whose signatures name its network
    bind_search(m);
    bind_lovagok(m);
    bind_classic(m);
    bind_features(m);
    bind_selfplay(m);
    bind_env(m);
    reduce_as_protocol_2(m);
    reduce_as_protocol_2(m.attr("lovagok").cast<py::module_>());
}
