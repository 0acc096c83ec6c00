"""`rosen selfplay`, `inspect` and `verify` (issue 11 part 5), and verify_run's checks."""
import json
import re
import shutil

import numpy as np
import pytest

import rosen.selfplay as sp
from rosen.cli import main
from rosen.selfplay.inspect import describe
from rosen.selfplay.verify import verify_run


def run_cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    d = tmp_path_factory.mktemp("selfplay") / "run"
    assert main(["selfplay", "--games", "12", "--agent", "mcts:iterations=60", "--out", str(d),
                 "--shard-games", "5", "--seed", "7", "--progress", "off", "--json"]) == 0
    return d


def test_generation_writes_a_verifiable_run(run_dir, capsys):
    code, out, _ = run_cli(capsys, "selfplay", "verify", str(run_dir))
    assert code == 0 and "ok" in out
    entries = sp.read_manifest(run_dir)
    assert [e["games"] for e in entries] == [5, 5, 2]
    assert verify_run(run_dir) == []


def test_rerunning_the_command_resumes_and_writes_nothing(run_dir, capsys):
    before = (run_dir / "manifest.jsonl").read_bytes()
    code, out, _ = run_cli(capsys, "selfplay", "--games", "12", "--agent", "mcts:iterations=60", "--out", str(run_dir),
                           "--shard-games", "5", "--seed", "7", "--json")
    assert code == 0 and json.loads(out)["games"] == 12
    assert (run_dir / "manifest.jsonl").read_bytes() == before


def test_inspect_describes_a_run_and_a_shard(run_dir, capsys):
    code, out, _ = run_cli(capsys, "selfplay", "inspect", str(run_dir), "--json")
    info = json.loads(out)
    assert code == 0 and info["games"] == 12 and info["shards_done"] == info["shards_total"] == 3
    assert sum(info["winners"].values()) == pytest.approx(1.0)
    code, out, _ = run_cli(capsys, "selfplay", "inspect", str(run_dir / "shard-00000.npz"))
    assert code == 0 and "visits" in out and "uint32" in out
    shard = describe(run_dir / "shard-00000.npz")
    assert shard["columns"]["visits"] == {"dtype": "uint32", "shape": [shard["rows"], 50]}
    assert shard["metadata"]["agent"] == "mcts:iterations=60" and shard["format_version"] == sp.FORMAT_VERSION
    shares = shard["shares"]
    assert shares["mover_won"] + shares["mover_drew"] + shares["mover_lost"] == pytest.approx(1.0)


@pytest.fixture()
def copy(run_dir, tmp_path):
    d = tmp_path / "copy"
    shutil.copytree(run_dir, d)
    return d


def _forge(d, shard, change):
    """Rewrite a shard with a changed row and a matching manifest hash: only the engine check sees it."""
    s = sp.load(d / shard)
    rows = {k: v.copy() for k, v in s.rows.items()}
    change(rows)
    meta = {k: v for k, v in s.metadata.items() if k not in ("format", "format_version")}
    sha = sp.write_shard(d / shard, rows, meta, fsync=False)
    entries = sp.read_manifest(d)
    for e in entries:
        if e["shard"] == shard:
            e["sha256"] = sha
    (d / "manifest.jsonl").write_text("".join(json.dumps(e) + "\n" for e in entries))


@pytest.mark.parametrize("field, change, words", [
    ("action", lambda r: r["action"].__setitem__(3, (int(r["action"][3]) + 1) % 48), "action"),
    ("legal", lambda r: r["legal"].__setitem__((2, 49), ~r["legal"][2, 49]), "legal-action mask"),
    ("crown", lambda r: r["crown"].__setitem__(4, (int(r["crown"][4]) + 1) % 81), "crown differs"),
    ("pile", lambda r: r["pile"].__setitem__(0, 0), "pile differs"),
    ("result", lambda r: r["result"].__setitem__(1, 1.0 - r["result"][1]), "result"),
    ("ply", lambda r: r["ply"].__setitem__(1, r["ply"][0]), "appears twice"),
])
def test_verify_checks_every_row_against_the_engine(copy, capsys, field, change, words):
    _forge(copy, "shard-00001.npz", change)
    problems = verify_run(copy)
    assert problems and any(words in p for p in problems), problems
    code, out, _ = run_cli(capsys, "selfplay", "verify", str(copy))
    assert code == 1 and "shard-00001.npz" in out


def test_verify_names_visits_on_an_illegal_action(copy):
    def change(rows):
        rows["visits"][0][int(np.flatnonzero(~rows["legal"][0])[0])] = 7
    _forge(copy, "shard-00001.npz", change)
    assert any("row 0: visits on an illegal action" in p for p in verify_run(copy))


def test_verify_lists_five_problems_of_a_kind_and_counts_the_rest(copy):
    # MAX_PER_KIND: at most five lines a kind, then "... and N more".
    from rosen.selfplay.verify import MAX_PER_KIND

    def change(rows):
        for r in range(MAX_PER_KIND + 2):
            rows["action"][r] = (int(rows["action"][r]) + 1) % 48
    _forge(copy, "shard-00001.npz", change)
    problems = verify_run(copy)
    actions = [p for p in problems if "action" in p and "more" not in p]
    assert len(actions) == MAX_PER_KIND and sum("... and 2 more" in p for p in problems) == 1, problems


def test_verify_counts_a_last_shard_that_is_not_full(tmp_path, capsys):
    out = tmp_path / "r"
    assert run_cli(capsys, "selfplay", "--games", "5", "--shard-games", "2", "--agent", "random", "--out", str(out),
                   "--progress", "off")[0] == 0
    code, text, _ = run_cli(capsys, "selfplay", "verify", "--json", str(out))
    assert code == 0 and json.loads(text)["shards"] == json.loads(text)["finished_shards"] == 3
    from rosen.cli import build_parser
    assert build_parser().parse_args(["selfplay", "--out", "x"]).shard_games == 1000  # the help's default


def test_verify_names_a_tampered_and_a_truncated_shard(copy):
    data = bytearray((copy / "shard-00000.npz").read_bytes())
    data[len(data) // 2] ^= 0x40
    (copy / "shard-00000.npz").write_bytes(bytes(data))
    (copy / "shard-00002.npz").write_bytes((copy / "shard-00002.npz").read_bytes()[:1000])
    problems = verify_run(copy)
    assert any(p.startswith("shard-00000.npz: sha256 differs") for p in problems)
    assert any(p.startswith("shard-00002.npz") and "damaged" in p for p in problems)


def test_verify_checks_games_replay(copy):
    lines = (copy / "games-00000.jsonl").read_text().splitlines()
    game = json.loads(lines[0])
    game["scores"] = [game["scores"][0] + 1, game["scores"][1]]
    lines[0] = json.dumps(game)
    (copy / "games-00000.jsonl").write_text("\n".join(lines) + "\n")
    problems = verify_run(copy)
    assert any("games-00000.jsonl" in p and "sha256" in p for p in problems)
    assert any("scores" in p for p in problems)


@pytest.mark.parametrize("manifest, words", [
    ("{}", "entry 1: index: expected a whole number >= 0, got None"),
    ("[1, 2]", "entry 1: expected a JSON object, got list"),
    ("not json", "line 1 is not JSON"),
    ("[" * 100000, "line 1 is not JSON"),
])
def test_a_malformed_manifest_is_named_by_inspect_verify_and_load(copy, capsys, manifest, words):
    (copy / "manifest.jsonl").write_text(manifest + "\n")
    for command in ("inspect", "verify"):
        code, _, err = run_cli(capsys, "selfplay", command, str(copy))
        assert code == 2 and words in err and "manifest.jsonl" in err and "Traceback" not in err
    with pytest.raises(ValueError, match="manifest.jsonl"):
        sp.load_dir(copy)


def test_a_manifest_entry_may_not_name_a_file_outside_the_run(copy):
    entries = [json.loads(line) for line in (copy / "manifest.jsonl").read_text().splitlines()]
    entries[0]["games_file"] = "../../etc/passwd"
    (copy / "manifest.jsonl").write_text("".join(json.dumps(e) + "\n" for e in entries))
    with pytest.raises(ValueError, match="games_file: expected a name like"):
        verify_run(copy)


@pytest.mark.parametrize("run_json", ["garbage", "[]", '{"format": "rosen-selfplay", "games": "12"}'])
def test_verify_and_inspect_agree_on_a_damaged_run_json(copy, capsys, run_json):
    # verify once said "ok" here while inspect refused the same directory
    (copy / "run.json").write_text(run_json)
    for command in ("inspect", "verify"):
        code, out, err = run_cli(capsys, "selfplay", command, str(copy))
        assert code == 2 and "run.json" in err and "ok" not in out


def test_verify_names_a_run_json_of_another_run(copy):
    run = json.loads((copy / "run.json").read_text())
    (copy / "run.json").write_text(json.dumps(dict(run, seed=run["seed"] + 1), indent=1) + "\n")
    problems = verify_run(copy)
    assert any("written by another run than run.json describes" in p for p in problems)


def test_verify_reports_a_games_line_that_is_no_record(copy):
    path = copy / "games-00001.jsonl"
    path.write_text(path.read_text() + "[1, 2]\n")
    problems = verify_run(copy)
    assert any("games-00001.jsonl: 1 lines are not game records" in p for p in problems)
    path.write_text("{" + path.read_text())
    assert any("games-00001.jsonl" in p and "not JSON" in p for p in verify_run(copy))


def test_verify_names_a_forged_game_count_without_building_it(copy):
    # a count of 10**14 games once built set(range(10**14)): out of memory. The entry is not the
    # run's shard 0 (run.json: 5 games a shard), which reading the manifest now says.
    entries = [json.loads(line) for line in (copy / "manifest.jsonl").read_text().splitlines()]
    entries[0]["games"] = 10**14
    (copy / "manifest.jsonl").write_text("".join(json.dumps(e) + "\n" for e in entries))
    with pytest.raises(ValueError, match=r"entry 1: shard 0 holds games 0\.\. \(5 games\), the entry says 0\.\. "
                                         r"\(100000000000000\)"):
        verify_run(copy)


def test_verify_names_a_games_file_that_is_a_directory(copy, capsys):
    (copy / "games-00000.jsonl").unlink()
    (copy / "games-00000.jsonl").mkdir()  # was an IsADirectoryError traceback
    code, out, err = run_cli(capsys, "selfplay", "verify", str(copy))
    assert code == 1 and "games-00000.jsonl: listed in manifest.jsonl but not a file" in out + err
    assert "Traceback" not in err


def test_verify_names_a_record_whose_scores_are_not_a_list(copy):
    path = copy / "games-00001.jsonl"
    lines = path.read_text().splitlines()
    lines[0] = json.dumps(dict(json.loads(lines[0]), scores=5))  # was a bare TypeError
    path.write_text("\n".join(lines) + "\n")
    assert any("games-00001.jsonl: game 5: scores: expected a list, got int" in p for p in verify_run(copy))


@pytest.mark.parametrize("argv, words", [
    (["--agent", "mcts:iterations=-5"], "--agent"),
    (["--agent", "alphabeta:depth=3"], "--agent"),
    (["--games", "0"], "--games"),
    (["--shard-games", "0"], "--shard-games"),
    (["--ray-address", "auto"], "--backend"),
    ([], None),
])
def test_bad_arguments_are_named(tmp_path, capsys, argv, words):
    out_dir = tmp_path / "x"
    args = ["selfplay", "--games", "2", "--agent", "random", *argv]
    if words is None:  # no --out
        code, _, err = run_cli(capsys, *args)
        assert code == 2 and "--out" in err
        return
    code, _, err = run_cli(capsys, *args, "--out", str(out_dir))
    assert code == 2 and words in err, err
    assert not out_dir.exists() or not any(out_dir.iterdir())


def test_inspect_and_verify_refuse_what_is_not_a_run(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("hello")
    code, _, err = run_cli(capsys, "selfplay", "verify", str(tmp_path))
    assert code == 2 and "not a self-play run directory" in err
    code, _, err = run_cli(capsys, "selfplay", "inspect", str(tmp_path / "notes.txt"))
    assert code == 2 and "damaged or not an .npz" in err
    np.savez(tmp_path / "other.npz", a=np.zeros(3))
    code, _, err = run_cli(capsys, "selfplay", "inspect", str(tmp_path / "other.npz"))
    assert code == 2 and "format" in err
    # a device is no missing file, and the nested command's argument is named as its help names it
    code, _, err = run_cli(capsys, "selfplay", "inspect", "/dev/null")
    assert code == 2 and "FILE: '/dev/null' is neither a run directory nor a shard file" in err
    code, _, err = run_cli(capsys, "selfplay", "verify", str(tmp_path / "missing"))
    assert code == 2 and "DIR: " in err


def test_an_unwritable_output_directory_is_named(tmp_path, capsys):
    (tmp_path / "file").write_text("not a directory")
    code, _, err = run_cli(capsys, "selfplay", "--games", "2", "--agent", "random", "--out", str(tmp_path / "file" / "run"))
    assert code == 2 and "--out" in err and "cannot write" in err


def test_a_foreign_non_empty_directory_is_refused(tmp_path, capsys):
    (tmp_path / "thesis.tex").write_text("mine")
    code, _, err = run_cli(capsys, "selfplay", "--games", "2", "--agent", "random", "--out", str(tmp_path))
    assert code == 2 and "--out" in err and "thesis.tex" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["thesis.tex"]


def test_verify_says_an_interrupted_run_is_unfinished_and_the_bar_resumes_where_it_was(tmp_path, capfd):
    # "ok" alone hid that shards were missing; a resumed run's bar ended at "2/6 games".
    out = tmp_path / "r"
    assert run_cli(capfd, "selfplay", "--games", "6", "--shard-games", "2", "--agent", "random", "--out", str(out))[0] == 0
    lines = (out / "manifest.jsonl").read_text().splitlines()
    (out / "manifest.jsonl").write_text("\n".join(lines[:2]) + "\n")
    (out / "shard-00002.npz").unlink()
    (out / "games-00002.jsonl").unlink()
    code, text, _ = run_cli(capfd, "selfplay", "verify", str(out))
    assert code == 0 and "unfinished: 2 of 3 shards written, the same command resumes it" in text
    code, text, _ = run_cli(capfd, "selfplay", "verify", "--json", str(out))
    assert json.loads(text) == {"path": str(out), "ok": True, "problems": [], "shards": 3, "finished_shards": 2}
    code, _, err = run_cli(capfd, "selfplay", "--games", "6", "--shard-games", "2", "--agent", "random", "--out",
                           str(out), "--progress", "on")
    bars = [int(done) for done in re.findall(r"(\d+)/6 games", err)]
    assert code == 0 and bars and min(bars) >= 4 and bars[-1] == 6
    assert "unfinished" not in run_cli(capfd, "selfplay", "verify", str(out))[1]
