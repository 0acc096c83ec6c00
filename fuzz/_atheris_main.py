"""Start atheris on one target with the rosen package instrumented for coverage.

``python fuzz/fuzz_<name>.py [libFuzzer flags] [corpus dirs]`` lands here; fuzz/run.py drives it.
The rosen modules are imported under ``atheris.instrument_imports`` *before* the target module
imports them, so the Python wrappers (argument checks, parsers of rosen.lovagok and the engine)
report coverage and the fuzzer can steer through them. The C++ extension reports coverage only
when it was built with -DROSEN_FUZZ=ON (docs/reliability.md).
"""
from __future__ import annotations

import importlib
import os
import sys


def fuzz_main(target_file: str) -> None:
    import atheris

    with atheris.instrument_imports(include=["rosen"]):
        import rosen  # noqa: F401
        import rosen.engine  # noqa: F401
        import rosen.lovagok  # noqa: F401
    sys.path.insert(0, os.path.dirname(os.path.abspath(target_file)))
    name = os.path.splitext(os.path.basename(target_file))[0]
    with atheris.instrument_imports(include=[name, "_common"]):  # the input decoding steers too
        target = importlib.import_module(name)
    atheris.Setup(sys.argv, target.one_input)
    atheris.Fuzz()
