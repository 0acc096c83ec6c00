#!/usr/bin/env bash
# Build the extension with sanitizers into its own directory and run the test suite under them.
#
#   tools/sanitize.sh asan [pytest args]   AddressSanitizer + UndefinedBehaviorSanitizer, whole suite
#   tools/sanitize.sh tsan [pytest args]   ThreadSanitizer, the tests that run threads (see below)
#   tools/sanitize.sh fuzz                 clang + libFuzzer coverage (-DROSEN_FUZZ=ON), no tests:
#                                          fuzz/run.py --native --python build/sanitize-fuzz/venv/bin/python
#
# Nothing here touches the normal install: the instrumented build lives in build/sanitize-<kind>/
# (cmake build dir, a staged copy of the package in site/, and a small venv without pip that
# borrows numpy, pytest, hypothesis and scipy from the interpreter that runs this script,
# $PYTHON or python3, without the .pth hooks of an editable rosen install there). The venv's
# `rosen` console script runs the instrumented build too, so tests that start it in a
# subprocess are covered. Details and measured times: docs/reliability.md.
#
# ASSERTIONS=0 leaves out libstdc++'s precondition checks (_GLIBCXX_ASSERTIONS, on by default).
set -euo pipefail
# The whole script is one block, read before it runs: editing it during a run cannot derail it.
{
cd "$(dirname "$0")/.."
ROOT=$PWD

KIND=${1:-}
case "$KIND" in
  asan) SANITIZE="address,undefined"; RUNTIMES="libasan.so libubsan.so" ;;
  tsan) SANITIZE="thread"; RUNTIMES="libtsan.so" ;;
  fuzz) SANITIZE=""; RUNTIMES=""; FUZZ=ON; CXX=${CXX:-clang++} ;;
  *) echo "usage: tools/sanitize.sh asan|tsan|fuzz [pytest args]" >&2; exit 2 ;;
esac
FUZZ=${FUZZ:-OFF}
shift

PY=${PYTHON:-python3}
CXX=${CXX:-g++}
BUILD=$ROOT/build/sanitize-$KIND
JOBS=${JOBS:-$(nproc)}
mkdir -p "$BUILD"

# -- build --------------------------------------------------------------------------------------
PYBIND11_DIR=$("$PY" -c 'import pybind11; print(pybind11.get_cmake_dir())')
# cmake and ninja from PATH, else from the pip packages of that name.
if ! command -v cmake >/dev/null; then
  PATH="$("$PY" -c 'import cmake; print(cmake.CMAKE_BIN_DIR)'):$PATH"
fi
GEN=()
if command -v ninja >/dev/null || "$PY" -c 'import ninja' 2>/dev/null; then
  command -v ninja >/dev/null || PATH="$("$PY" -c 'import ninja, os; print(ninja.BIN_DIR)'):$PATH"
  GEN=(-G Ninja)
fi
ASSERT=ON
[ "${ASSERTIONS:-1}" = 0 ] && ASSERT=OFF
[ -f "$BUILD/cmake/CMakeCache.txt" ] && GEN=()  # the generator is fixed at the first configure
cmake -S "$ROOT" -B "$BUILD/cmake" "${GEN[@]}" -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_CXX_COMPILER="$CXX" -DROSEN_SANITIZE="$SANITIZE" -DROSEN_FUZZ="$FUZZ" -DROSEN_SANITIZE_ASSERTIONS="$ASSERT" \
  -DPython_EXECUTABLE="$(command -v "$PY")" -Dpybind11_DIR="$PYBIND11_DIR" >"$BUILD/cmake.log"
cmake --build "$BUILD/cmake" -j "$JOBS" --target _core

# -- stage the package: the sources as they are now, plus the instrumented extension ------------
rm -rf "$BUILD/site" && mkdir -p "$BUILD/site/rosen"
cp -r "$ROOT/python/rosen/." "$BUILD/site/rosen/"
find "$BUILD/site/rosen" -name '__pycache__' -prune -exec rm -rf {} +
cp "$BUILD"/cmake/_core*.so "$BUILD/site/rosen/"

# -- a venv without pip whose .pth borrows the test dependencies ---------------------------------
if [ ! -x "$BUILD/venv/bin/python" ]; then
  "$PY" -m venv --without-pip "$BUILD/venv"
fi
SITE=$("$BUILD/venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
# Plain path lines only: the borrowed directories' own .pth files (an editable rosen's import
# hook among them) are not run, so `import rosen` finds the staged copy and nothing else.
"$PY" - "$SITE/_rosen_sanitize_deps.pth" "$BUILD/site" <<'PYEOF'
import importlib, os, sys
out, staged = sys.argv[1], sys.argv[2]
dirs = [staged]
for name in ("atheris", "numpy", "pytest", "_pytest", "pluggy", "hypothesis", "scipy", "pytest_benchmark", "iniconfig",
             "packaging", "attr", "sortedcontainers", "cpuinfo", "py"):
    try:
        mod = importlib.import_module(name)
    except ImportError:
        continue
    d = os.path.dirname(os.path.dirname(os.path.abspath(mod.__file__))) if mod.__file__.endswith("__init__.py") \
        else os.path.dirname(os.path.abspath(mod.__file__))
    if d not in dirs:
        dirs.append(d)
open(out, "w").write("\n".join(dirs) + "\n")
PYEOF
cat >"$BUILD/venv/bin/rosen" <<PYEOF
#!$BUILD/venv/bin/python
import sys
from rosen.cli import main
sys.exit(main())
PYEOF
chmod +x "$BUILD/venv/bin/rosen"

# -- runtime -------------------------------------------------------------------------------------
PRELOAD=""
for lib in $RUNTIMES; do
  path=$("$CXX" -print-file-name="$lib")
  [ -f "$path" ] || { echo "sanitize.sh: $CXX has no $lib" >&2; exit 2; }
  PRELOAD="$PRELOAD${PRELOAD:+:}$path"
done
LOGDIR=$BUILD/reports
rm -rf "$LOGDIR" && mkdir -p "$LOGDIR"
# CPython keeps its own allocations alive until exit, so leak reports are noise (detect_leaks=0).
# Every report stops the process with a non-zero status (halt_on_error) and the report text
# also lands in $LOGDIR, named by pid, for the tests that run rosen in a subprocess.
export ASAN_OPTIONS="detect_leaks=0:halt_on_error=1:abort_on_error=0:exitcode=86:strict_string_checks=1:check_initialization_order=1:detect_stack_use_after_return=0:log_path=$LOGDIR/asan"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:exitcode=87:log_path=$LOGDIR/ubsan"
export TSAN_OPTIONS="halt_on_error=1:exitcode=88:second_deadlock_stack=1:log_path=$LOGDIR/tsan"
# NumPy's OpenBLAS runs its own thread pool, uninstrumented: TSan sees its memset of a result
# block (dgemm_beta, the NumPy reference of tests/test_network.py) race the allocation. One BLAS
# thread leaves rosen's own threads as the only ones TSan watches.
export OPENBLAS_NUM_THREADS=1
export PATH="$BUILD/venv/bin:$PATH"
export PYTHONDONTWRITEBYTECODE=1
export PYTHONPATH=""
# pymalloc hides heap errors in Python objects from ASan; the plain allocator shows them.
export PYTHONMALLOC=malloc

if [ "$KIND" = fuzz ]; then
  # The instrumented extension needs libFuzzer's coverage callbacks, which atheris provides
  # once it is loaded (fuzz/_atheris_main.py imports it first): nothing to test here.
  echo "sanitize.sh: built $BUILD/site/rosen; fuzz with:"
  echo "  python fuzz/run.py --native --python $BUILD/venv/bin/python --target all --seconds 60"
  exit 0
fi

CHECK='import rosen, rosen._core, sys; f = rosen._core.__file__; print(f); sys.exit(0 if f.startswith(sys.argv[1]) else 1)'
if ! LD_PRELOAD="$PRELOAD" "$BUILD/venv/bin/python" -c "$CHECK" "$BUILD/site" >/dev/null; then
  echo "sanitize.sh: the staged build is not the rosen that python imports" >&2; exit 2
fi

if [ "$KIND" = tsan ]; then
  # The tests in which C++ runs on more than one thread, or on a thread other than the caller's:
  # - the Searcher: stop() from another thread, stop before search, GIL released while it runs,
  #   tree reuse, threads=3 trees of which two never iterate (all of test_search_engine.py);
  # - the engine, whose every `go` searches on its own thread while the main thread answers
  #   isready/stop/position (all of test_engine_protocol.py; the pipe tests that stop or quit a
  #   running search in a `rosen engine` subprocess, which runs under TSan too);
  # - root parallelism: search with threads=2 (trees and the merge), random_play(threads=2),
  #   matches on 2-3 worker threads, score_boards on a worker thread with the GIL released;
  # - one object from two Python threads (the locks of F26: searchers, classic agents, VecEnv),
  #   self-play and VecEnv on worker threads, one evaluator shared by three search threads and
  #   a batch evaluation on two threads;
  # - the web server's games and analyses, searched on worker threads and stopped or read from
  #   others, and a search on a worker thread stopped from the main thread (run_interruptibly).
  # The rest of the suite calls C++ from one thread at a time: nothing there for TSan to see.
  DEFAULT=(tests/test_search_engine.py tests/test_engine_protocol.py
           tests/test_engine_pipe.py::test_stop_ends_an_infinite_search_quickly
           tests/test_engine_pipe.py::test_quit_during_a_search_exits_cleanly
           tests/test_engine_pipe.py::test_end_of_input_lets_a_finite_search_finish
           tests/test_engine_pipe.py::test_end_of_input_stops_an_infinite_search
           tests/test_search.py::test_node_limit_is_respected_per_thread_in_total
           tests/test_search.py::test_two_threads_search_and_merge
           tests/test_randomplay.py::test_random_play_is_seeded_and_independent_of_threads
           tests/test_randomplay.py::test_cli_randomplay_json
           tests/test_match.py::test_same_seed_same_match_and_threads_do_not_matter
           tests/test_match.py::test_sprt_stops_early_and_threads_do_not_change_where
           tests/test_territory.py::test_batch_releases_the_gil
           tests/test_shared_between_threads.py
           tests/test_selfplay_generate.py::test_threads_do_not_change_a_byte
           tests/test_env_vec.py::test_threads_change_nothing
           tests/test_search_network.py::test_tree_reuse_threads_and_stop_with_a_network
           tests/test_network.py::test_cpp_agrees_with_the_numpy_reference_on_10000_positions
           tests/test_web_api.py::test_analysis_stops_on_request
           tests/test_web_api.py::test_a_request_flood_does_not_stall_the_engine
           tests/test_web_api.py::test_closing_a_game_stops_its_search
           tests/test_web_api.py::test_a_client_gone_during_the_engines_move_stops_the_search
           tests/test_interrupt.py::test_run_interruptibly_stops_waits_and_withdraws_whatever_a_handler_raises)
else
  DEFAULT=()
fi
if [ $# -eq 0 ]; then set -- "${DEFAULT[@]}"; fi

start=$(date +%s)
status=0
# setarch -R: TSan's shadow memory needs the fixed layout that address randomisation can break.
RUN=()
if [ "$KIND" = tsan ] && command -v setarch >/dev/null; then RUN=(setarch "$(uname -m)" -R); fi
LD_PRELOAD="$PRELOAD" "${RUN[@]}" "$BUILD/venv/bin/python" -m pytest -p no:cacheprovider -q "$@" || status=$?
end=$(date +%s)

reports=$(ls "$LOGDIR" 2>/dev/null | wc -l)
if [ "$reports" -gt 0 ]; then
  echo "sanitize.sh: $reports sanitizer report file(s) in $LOGDIR:" >&2
  head -n 60 "$LOGDIR"/* >&2
  [ $status -ne 0 ] || status=1
fi
echo "sanitize.sh: $KIND finished in $((end - start)) s with status $status"
exit $status
}
