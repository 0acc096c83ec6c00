"""Packaging of the RL environments: the core install stays NumPy-only (``import rosen`` loads no
RL library, the VecEnv none but Gymnasium's registry when it is there), the extras ``rosen[rl]``
and ``rosen[openspiel]`` exist and the ``test`` extra pulls them in, so that CI runs every
conformance test -- none of which may be skipped."""
from __future__ import annotations

import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
RL_LIBRARIES = ("gymnasium", "pettingzoo", "pyspiel", "open_spiel")


def loaded_after(statement: str) -> set:
    code = f"{statement}; import sys; print(' '.join(sorted({{m.split('.')[0] for m in sys.modules}})))"
    return set(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split())


def test_import_rosen_loads_no_rl_library():
    assert not loaded_after("import rosen") & set(RL_LIBRARIES)


def test_the_vec_env_needs_no_pettingzoo_nor_openspiel():
    loaded = loaded_after("from rosen.env import VecEnv; VecEnv(2).reset()")
    assert not loaded & {"pettingzoo", "pyspiel", "open_spiel"}


def extras() -> dict:
    import tomllib  # Python 3.11, as the test extra needs anyway (README)

    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]


def test_the_extras_and_the_test_extra():
    found = extras()
    assert found["rl"] == ["pettingzoo>=1.24", "gymnasium>=1.0"]
    assert found["openspiel"] == ["open-spiel>=1.5"]
    assert {"rosen[ray]", "rosen[rl]", "rosen[openspiel]"} <= set(found["test"])


@pytest.mark.parametrize("path", sorted((ROOT / "tests").glob("test_env_*.py")), ids=lambda p: p.name)
def test_no_conformance_test_can_be_skipped(path):
    text = path.read_text()
    for word in ("importorskip", "pytest.skip", "mark.skip", "skipif", "xfail"):
        assert word not in text.replace('"' + word + '"', ""), f"{path.name} uses {word}"
