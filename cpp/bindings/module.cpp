// The one extension module, rosen._core. Each game area binds itself in its own file.
#include <pybind11/pybind11.h>

#include <string>

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
// ended in std::terminate (pickle.dumps(rosen.Move("N2"), 0), and obj.__reduce__() itself, which
// goes the same way). Every class of the module defines __reduce__ as protocol 2 reduces it --
// (copyreg.__newobj__, (class,), state) where the class pickles (pybind11's __getstate__ and
// __setstate__), a TypeError where it does not -- and object.__reduce_ex__ calls that __reduce__
// for every protocol, so no path reaches copyreg._reduce_ex.
void reduce_as_protocol_2(const py::module_& m) {
    const py::module_ copyreg = py::module_::import("copyreg");
    const py::object newobj = copyreg.attr("__newobj__"), newobj_ex = copyreg.attr("__newobj_ex__");
    for (const auto item : m.attr("__dict__").cast<py::dict>()) {
        const py::handle type = item.second;
        if (!PyType_Check(type.ptr())) continue;
        const auto reduce = [newobj, newobj_ex](py::handle self) -> py::object {
            const py::handle cls(reinterpret_cast<PyObject*>(Py_TYPE(self.ptr())));
            if (!py::hasattr(cls, "__setstate__"))
                throw py::type_error(std::string("cannot pickle '") + Py_TYPE(self.ptr())->tp_name + "' object");
            const py::object state = self.attr("__getstate__")();
            // A Python subclass may take arguments to __new__, as protocol 2 honours them.
            if (py::hasattr(self, "__getnewargs_ex__")) {
                const py::tuple args_kwargs = self.attr("__getnewargs_ex__")();
                return py::make_tuple(newobj_ex, py::make_tuple(cls, args_kwargs[0], args_kwargs[1]), state);
            }
            py::list args;
            args.append(cls);
            if (py::hasattr(self, "__getnewargs__"))
                for (const auto arg : py::tuple(self.attr("__getnewargs__")())) args.append(arg);
            return py::make_tuple(newobj, py::tuple(args), state);
        };
        py::setattr(type, "__reduce__", py::cpp_function(reduce, py::is_method(type), py::name("__reduce__")));
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
