"""Without an optional extra, rosen says which one to install (the core install is NumPy-only).

Each check runs in a fresh interpreter in which the extra's packages cannot be imported
(``sys.modules[name] = None``), as on a core install."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

HIDE = ("gymnasium", "pettingzoo", "pyspiel", "open_spiel", "torch", "starlette", "uvicorn", "matplotlib", "ray")


def without_extras(code: str) -> subprocess.CompletedProcess:
    prelude = "import sys\nfor name in %r:\n    sys.modules[name] = None\n" % (HIDE,)
    return subprocess.run([sys.executable, "-c", prelude + code], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("statement, package, extra", [
    ("import rosen.env.aec", "pettingzoo", "rl"),
    ("from rosen.env import aec_env", "pettingzoo", "rl"),
    ("from rosen.env import RosenkoenigEnv", "gymnasium", "rl"),
    ("import rosen.env.spaces", "gymnasium", "rl"),
    ("import rosen.openspiel", "pyspiel", "openspiel"),
    ("import rosen.learning.train", "torch", "train"),
    ("import rosen.web.app", "starlette", "web"),
])
def test_a_module_behind_an_extra_names_the_extra(statement, package, extra):
    done = without_extras(f"""
try:
    {statement}
except ModuleNotFoundError as exc:
    print(exc.name, "|", exc)
""")
    assert done.returncode == 0, done.stderr
    name, message = done.stdout.strip().split(" | ")
    assert name == package
    assert message.endswith(f'needs {package}, which is not installed: pip install "rosen[{extra}]"')


def test_the_core_still_imports_and_plays_without_any_extra():
    done = without_extras("""
import rosen, rosen.env, rosen.selfplay, rosen.match
batch = rosen.selfplay.generate(2, seed=1, agent="greedy")
env = rosen.env.VecEnv(2, seed=0)
print(len(batch.games), env.num_envs)
""")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["2", "2"]


@pytest.mark.parametrize("argv, message", [
    (["serve"], 'rosen serve: error: the web stack is not installed (uvicorn is missing): pip install "rosen[web]"'),
    (["train"], 'rosen train: error: rosen train needs PyTorch, which is not installed; install it with: '
                'pip install "rosen[train]"'),
    (["bench", "--positions", "1", "--iterations", "10", "--plot", "PLOT"],
     'rosen bench: error: --plot: drawing needs matplotlib: pip install "rosen[plot]"'),
    (["selfplay", "--games", "2", "--agent", "random", "--backend", "ray", "--out", "OUT"],
     'rosen selfplay: error: --backend: the ray backend needs Ray: pip install "rosen[ray]"'),
])
def test_a_command_behind_an_extra_says_which_in_one_line(tmp_path, argv, message):
    argv = [a.replace("PLOT", str(tmp_path / "x.png")).replace("OUT", str(tmp_path / "run")) for a in argv]
    done = without_extras(f"import sys\nfrom rosen.cli import main\nsys.exit(main({json.dumps(argv)}))")
    assert done.returncode == 2
    assert done.stderr.strip() == message
    assert not (tmp_path / "run").exists() and not (tmp_path / "x.png").exists()
