"""Start atheris on one target with the rosen package instrumented for coverage.

``python fuzz/fuzz_<name>.py [libFuzzer flags] [corpus dirs]`` lands here; fuzz/run.py drives it.
The rosen modules are imported under ``atheris.instrument_imports`` *before* the target module
imports them, so the Python wrappers (argument checks, parsers of rosen.lovagok and the engine)
report coverage and the fuzzer can steer through them. The C++ extension reports coverage only
when it was built with -DROSEN_FUZZ=ON (tools/sanitize.sh fuzz; docs/reliability.md).
"""
from __future__ import annotations

import importlib
import os
import sys


def _load(target_file: str):
    import atheris

    with atheris.instrument_imports(include=["rosen"]):
        import rosen  # noqa: F401
        import rosen.engine  # noqa: F401
        import rosen.lovagok  # noqa: F401
    if any(type(f).__module__.startswith("_editable") for f in sys.meta_path):
        # Measured: the engine target covers 58 Python edges against 301 from a plain install.
        print("WARNING: rosen is an editable install, whose import hook hides most of the Python "
              "code from atheris's instrumentation; fuzz a plain install (pip install .) or the "
              "--native build instead", file=sys.stderr)
    sys.path.insert(0, os.path.dirname(os.path.abspath(target_file)))
    name = os.path.splitext(os.path.basename(target_file))[0]
    with atheris.instrument_imports(include=[name, "_common"]):  # the input decoding steers too
        return importlib.import_module(name).one_input


def fuzz_main(target_file: str) -> None:
    import atheris

    # An extension built with -DROSEN_FUZZ=ON calls libFuzzer's coverage callbacks, which
    # atheris's core defines and loads only inside Fuzz(), with its symbols global: so such a
    # build is imported at the first input, not before. A plain build is imported up front.
    native = os.environ.get("ROSEN_FUZZ_NATIVE") == "1"
    target = [] if native else [_load(target_file)]

    def one_input(data: bytes) -> None:
        if not target:
            # Now that the core is loaded, make its symbols global (dlopen with RTLD_NOLOAD
            # promotes a loaded library), then import the instrumented extension.
            import ctypes
            core = sys.modules.get("atheris.core_with_libfuzzer")
            if core is not None:
                ctypes.CDLL(core.__file__, mode=os.RTLD_NOW | os.RTLD_GLOBAL | os.RTLD_NOLOAD)
            target.append(_load(target_file))
        target[0](data)

    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()
