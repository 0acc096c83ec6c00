"""rosen under a host program's C locale and under standard streams that cannot encode every name.

GUI toolkits (Tk, GTK, Qt) call ``setlocale(LC_ALL, "")``, and Python itself sets LC_CTYPE from
the environment at start: the C++ core must not read or write text through the locale (F100 in
docs/reliability.md). The locales are built for the test with ``localedef`` into a temporary
``LOCPATH``, so no system locale is needed; under CI (``$CI`` set) a missing ``localedef`` fails
the test instead of skipping it (.ci/run installs Debian's ``locales``).
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CROWN_ON_I = "8R/9/9/9/9/9/9/9/9 I9 W N1,NE2,E3,S1 N3,E1,S3,SW1,NW2 4 4 - *"


@pytest.fixture(scope="module")
def locales(tmp_path_factory):
    """A LOCPATH holding de_DE.UTF-8 (decimal comma) and tr_TR.UTF-8 (tolower('I') is not 'i')."""
    path = tmp_path_factory.mktemp("locales")
    localedef = shutil.which("localedef")
    built = localedef is not None and all(
        subprocess.run([localedef, "-i", name, "-f", "UTF-8", str(path / f"{name}.UTF-8")],
                       capture_output=True).returncode in (0, 1) and (path / f"{name}.UTF-8").is_dir()
        for name in ("de_DE", "tr_TR"))
    if not built:
        message = "localedef and the locale sources (Debian's locales package) are needed"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return path


def run_python(code: str, locpath: Path, lc_all: str) -> str:
    env = dict(os.environ, LOCPATH=str(locpath), LC_ALL=lc_all)
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_positions_and_moves_parse_alike_under_a_turkish_locale(locales):
    # glibc's tolower('I') is 'I' under tr_TR: the crown square I9 was refused ("expected a square a1..i9").
    code = f"""
import locale
locale.setlocale(locale.LC_ALL, "")
assert locale.setlocale(locale.LC_CTYPE).startswith("tr_TR"), locale.setlocale(locale.LC_CTYPE)
import rosen
print(rosen.Position({CROWN_ON_I!r}).fen())
print([str(rosen.Move(t)) for t in ("DRAW", "PASS", "NW3", "H:NE1", " n2 ")])
"""
    expected = run_python(code.replace('assert locale.setlocale(locale.LC_CTYPE).startswith("tr_TR"), '
                                       'locale.setlocale(locale.LC_CTYPE)', ""), locales, "C.UTF-8")
    assert run_python(code, locales, "tr_TR.UTF-8") == expected
    assert expected.splitlines()[0].split()[1] == "i9"


def test_error_messages_print_numbers_with_a_point_under_a_german_locale(locales):
    # snprintf followed LC_NUMERIC once a host set it: "exploration: expected 0..100, got -0,5".
    code = """
import locale
locale.setlocale(locale.LC_ALL, "de_DE.UTF-8")
assert locale.localeconv()["decimal_point"] == ","
import numpy as np
import rosen
import rosen.lovagok as lv
for call in (lambda: rosen.SearchParams(exploration=-0.5), lambda: rosen.SearchParams(minimax_weight=1.5),
             lambda: rosen.SearchParams(exploration=100.00000000000001),
             lambda: lv.Solver(np.full(lv.NUM_RESULTS, 1.5e301))):
    try:
        call()
    except ValueError as exc:
        print(exc)
"""
    lines = run_python(code, locales, "C.UTF-8").splitlines()
    assert len(lines) == 4
    assert lines[0].endswith("got -0.5") and lines[1].endswith("got 1.5")
    assert lines[2].endswith("got 100.00000000000001")  # one ulp beyond the bound still prints as beyond it
    assert "1.5e+301" in lines[3]
    assert not [line for line in lines if re.search(r"\d,\d", line)]


def test_the_core_reads_and_writes_text_without_the_locale():
    # Holds where no locale can be built too: <cctype> and the printf/strtod families follow the C
    # locale; the core's notation and number texts use ASCII helpers and std::to_chars/from_chars.
    banned = re.compile(r"\b(?:std::)?(?:tolower|toupper|isspace|isdigit|isalpha|isalnum|isupper|islower|"
                        r"snprintf|sprintf|strtod|strtof|strtold|atof|stod|stof)\s*\(")
    found = [f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
             for path in sorted((ROOT / "cpp").rglob("*")) if path.suffix in (".h", ".cpp")
             for n, line in enumerate(path.read_text().splitlines(), 1)
             if banned.search(line.split("//")[0])]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("encoding", ["ascii", "latin-1", "ascii:surrogateescape"])
def test_a_folder_name_stdout_cannot_encode_is_printed_escaped(tmp_path, encoding):
    # The summary of a finished run raised UnicodeEncodeError (a ValueError): status 2, the line lost.
    out = tmp_path / "sp \u6f22"
    env = dict(os.environ, PYTHONIOENCODING=encoding)
    for argv in (["selfplay", "--games", "1", "--agent", "random", "--out", str(out), "--progress", "off"],
                 ["selfplay", "verify", str(out)], ["selfplay", "inspect", str(out)]):
        proc = subprocess.run([sys.executable, "-m", "rosen", *argv], env=env, capture_output=True, text=True,
                              encoding="utf-8", timeout=120)
        assert proc.returncode == 0, (argv, proc.stderr)
        assert "sp \\u6f22" in proc.stdout, (argv, proc.stdout)
