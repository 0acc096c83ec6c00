// The one extension module, rosen._core. Each game area binds itself in its own file.
#include <pybind11/pybind11.h>

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
}
