"""rosen.selfplay.records (issue 11): a self-play run on disk -- shards written atomically and
reproducibly, a sha256 manifest, resuming after a crash without duplicating a game, refusing
foreign directories and other parameters, reading shards back with a format check."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import rosen
from rosen.match import replay
from rosen.selfplay import (COLUMNS, FORMAT, FORMAT_VERSION, generate, load, load_dir, read_manifest,
                            verify_manifest, write_run, write_shard)
from rosen.selfplay import records

RUN = dict(seed=5, agent="random")


def same_rows(a: dict, b: dict) -> bool:
    return all(a[k].dtype == b[k].dtype and a[k].tobytes() == b[k].tobytes() for k in COLUMNS)


def listing(path: Path) -> list:
    return sorted(p.name for p in path.iterdir())


def test_a_run_directory_holds_shards_games_and_a_manifest(tmp_path):
    entries = write_run(tmp_path, 10, shard_games=3, **RUN)
    assert listing(tmp_path) == ["games-00000.jsonl", "games-00001.jsonl", "games-00002.jsonl", "games-00003.jsonl",
                                 "manifest.jsonl", "run.json", "shard-00000.npz", "shard-00001.npz",
                                 "shard-00002.npz", "shard-00003.npz"]
    assert [(e["shard"], e["first_game"], e["games"]) for e in entries] == [
        ("shard-00000.npz", 0, 3), ("shard-00001.npz", 3, 3), ("shard-00002.npz", 6, 3), ("shard-00003.npz", 9, 1)]
    assert read_manifest(tmp_path) == entries
    assert verify_manifest(tmp_path) == []
    run = json.loads((tmp_path / "run.json").read_text())
    assert run["games"] == 10 and run["shard_games"] == 3 and run["agent"] == "random" and run["seed"] == 5
    assert run["format"] == FORMAT and run["format_version"] == FORMAT_VERSION

    shard = load(tmp_path / "shard-00001.npz")
    assert shard.metadata["format"] == FORMAT and shard.metadata["format_version"] == FORMAT_VERSION
    assert (shard.metadata["seed"], shard.metadata["agent"]) == (5, "random")
    assert (shard.metadata["first_game"], shard.metadata["games"]) == (3, 3)
    assert json.loads(shard.metadata["run"]) == run
    assert set(np.unique(shard.rows["game"])) == {3, 4, 5} and len(shard.rows["game"]) == entries[1]["rows"]

    whole = load_dir(tmp_path, verify=True)
    memory = generate(10, **RUN)
    assert same_rows(whole.rows, memory.rows) and whole.games == memory.games
    for game in whole.games:
        replay(game)


def test_a_run_with_the_auto_network_records_the_network_it_played_and_resumes(tmp_path):
    auto = dict(seed=2, players=4, agent="mcts:evaluator=auto,iterations=20")
    write_run(tmp_path, 2, shard_games=1, **auto)
    run = json.loads((tmp_path / "run.json").read_text())
    assert run["agent"] == "mcts:evaluator=builtin-team,iterations=20" and run["network_sha256"]
    assert write_run(tmp_path, 2, shard_games=1, **auto) == read_manifest(tmp_path)  # resumed: nothing new
    assert verify_manifest(tmp_path) == []


def test_sharding_changes_no_byte_of_the_rows(tmp_path):
    write_run(tmp_path / "one", 100, shard_games=100, **RUN)
    write_run(tmp_path / "two", 100, shard_games=50, **RUN)
    one = load(tmp_path / "one" / "shard-00000.npz").rows
    halves = [load(tmp_path / "two" / f"shard-0000{i}.npz").rows for i in (0, 1)]
    assert same_rows(one, {k: np.concatenate([h[k] for h in halves]) for k in COLUMNS})
    assert load_dir(tmp_path / "one").games == load_dir(tmp_path / "two").games


def test_a_shard_is_a_plain_npz(tmp_path):
    write_run(tmp_path, 2, **RUN)
    with np.load(tmp_path / "shard-00000.npz", allow_pickle=False) as npz:
        assert set(COLUMNS) <= set(npz.files)
        assert str(npz["format"]) == "rosen-selfplay" and int(npz["format_version"]) == 1
        assert npz["visits"].shape[1] == 50


def test_shards_are_reproducible_and_independent_of_threads(tmp_path):
    a = write_run(tmp_path / "a", 12, shard_games=5, agent="mcts:iterations=20", threads=1)
    b = write_run(tmp_path / "b", 12, shard_games=5, agent="mcts:iterations=20", threads=2)
    assert a == b  # same sha256s: the same bytes


def test_rerunning_resumes_without_writing_anything(tmp_path):
    entries = write_run(tmp_path, 6, shard_games=2, **RUN)
    stamps = {p.name: p.stat().st_mtime_ns for p in tmp_path.iterdir()}
    written = []
    assert write_run(tmp_path, 6, shard_games=2, threads=2, on_shard=written.append, **RUN) == entries
    assert written == []
    assert {p.name: p.stat().st_mtime_ns for p in tmp_path.iterdir()} == stamps


def test_an_interrupted_run_resumes_to_the_same_manifest(tmp_path, monkeypatch):
    reference = write_run(tmp_path / "reference", 9, shard_games=2, **RUN)
    run_dir = tmp_path / "run"
    real_replace = os.replace
    calls = []

    def crash_on_shard_two(src, dst):
        calls.append(Path(dst).name)
        if Path(dst).name == "shard-00002.npz":
            raise KeyboardInterrupt("power cut")
        real_replace(src, dst)

    monkeypatch.setattr(records.os, "replace", crash_on_shard_two)
    with pytest.raises(KeyboardInterrupt):
        write_run(run_dir, 9, shard_games=2, **RUN)
    monkeypatch.undo()
    assert [e["shard"] for e in read_manifest(run_dir)] == ["shard-00000.npz", "shard-00001.npz"]
    assert "shard-00002.npz" not in listing(run_dir)  # never half a file under the real name
    assert "games-00002.jsonl" in listing(run_dir)  # written, but not listed: the shard is unfinished
    assert verify_manifest(run_dir) == ["games-00002.jsonl: not listed in manifest.jsonl (an unfinished shard)"]
    # What a hard kill can also leave: a temporary file and a shard moved in before its manifest line.
    (run_dir / "shard-00003.npz.tmp").write_bytes(b"half a shard")
    (run_dir / "shard-00002.npz").write_bytes(b"moved in, not yet listed")
    written = []
    assert write_run(run_dir, 9, shard_games=2, on_shard=written.append, **RUN) == reference
    assert [e["shard"] for e in written] == ["shard-00002.npz", "shard-00003.npz", "shard-00004.npz"]
    assert listing(run_dir) == listing(tmp_path / "reference")
    assert verify_manifest(run_dir) == []
    games = load_dir(run_dir).games
    assert [g["game"] for g in games] == list(range(9))  # none twice, none missing


def test_a_run_stopped_while_writing_its_manifest_resumes(tmp_path):
    """Regression: a run killed while its manifest.jsonl.tmp existed (the manifest is rewritten
    through it after every shard) failed to resume with FileNotFoundError: the write probe
    replaced and removed that file, and the clean-up then removed it again."""
    args = dict(shard_games=4, seed=1, agent="random", fsync=False)
    run_dir = tmp_path / "run"
    write_run(run_dir, 8, **args)
    whole = read_manifest(run_dir)
    (run_dir / "manifest.jsonl.tmp").write_text(json.dumps(whole[0]) + "\n")  # half-written at the kill
    (run_dir / "shard-00001.npz.tmp").write_bytes(b"partial")
    assert write_run(run_dir, 8, **args) == whole
    assert not any(p.name.endswith(".tmp") for p in run_dir.iterdir())


def test_a_killed_process_resumes_to_the_same_manifest(tmp_path):
    args = dict(shard_games=60, seed=1, agent="random", fsync=False)
    run_dir = tmp_path / "run"
    code = f"import rosen.selfplay as sp; sp.write_run({str(run_dir)!r}, 2400, **{args!r})"
    proc = subprocess.Popen([sys.executable, "-c", code])
    try:
        deadline = time.monotonic() + 60
        while len(read_manifest(run_dir)) < 3 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)
    finally:
        proc.kill()
        proc.wait()
    done = len(read_manifest(run_dir))
    assert 3 <= done < 40 and proc.returncode != 0  # killed mid-run
    resumed = write_run(run_dir, 2400, **args)
    assert resumed == write_run(tmp_path / "reference", 2400, **args)
    assert verify_manifest(run_dir) == []


def test_a_tampered_file_is_detected(tmp_path):
    write_run(tmp_path, 6, shard_games=2, **RUN)
    shard = tmp_path / "shard-00001.npz"
    data = bytearray(shard.read_bytes())
    data[len(data) // 2] ^= 0x01
    shard.write_bytes(bytes(data))
    games = tmp_path / "games-00002.jsonl"
    games.write_text(games.read_text().replace('"draw', '"pass', 1))
    assert verify_manifest(tmp_path) == [
        "shard-00001.npz: sha256 differs from manifest.jsonl (the file changed after it was written)",
        "games-00002.jsonl: sha256 differs from manifest.jsonl (the file changed after it was written)"]
    with pytest.raises(ValueError, match="shard-00001.npz: sha256"):
        load_dir(tmp_path, verify=True)
    (tmp_path / "shard-00000.npz").unlink()
    assert "shard-00000.npz: listed in manifest.jsonl but missing" in verify_manifest(tmp_path)


def test_other_parameters_in_the_same_directory_are_refused(tmp_path):
    write_run(tmp_path, 4, shard_games=2, **RUN)
    for change in (dict(seed=6), dict(games=5), dict(shard_games=3), dict(agent="greedy"), dict(players=4),
                   dict(reshuffle="lazy"), dict(first_game=1)):
        kwargs = {"games": 4, "shard_games": 2, **RUN, **change}
        with pytest.raises(ValueError, match="other parameters") as info:
            write_run(tmp_path, **kwargs)
        assert info.value.field == "path" and next(iter(change)) in str(info.value)
    assert verify_manifest(tmp_path) == []


def test_a_directory_with_foreign_files_is_refused(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(ValueError, match="notes.txt") as info:
        write_run(tmp_path, 2, **RUN)
    assert info.value.field == "path"
    assert listing(tmp_path) == ["notes.txt"]
    other = tmp_path / "other"
    other.mkdir()
    (other / "shard-00000.npz").write_bytes(b"x")
    with pytest.raises(ValueError, match="no run.json"):
        write_run(other, 2, **RUN)
    with pytest.raises(ValueError, match="not a directory"):
        write_run(tmp_path / "notes.txt", 2, **RUN)


def test_bad_arguments_touch_nothing(tmp_path):
    with pytest.raises(TypeError, match="path"):
        write_run(3, 2, agent="random")
    for function in (verify_manifest, load_dir):
        with pytest.raises(ValueError, match="not a self-play run directory") as info:
            function(tmp_path)
        assert info.value.field == "path"
    for kwargs, field in ((dict(games=0), "games"), (dict(shard_games=0), "shard_games"), (dict(threads=0), "threads"),
                          (dict(agent="mcts:bogus=1"), "agent"), (dict(temperature=-1), "temperature")):
        with pytest.raises(rosen.RosenError) as info:
            write_run(tmp_path / "run", **{"games": 2, "agent": "random", **kwargs})
        assert info.value.field == field
    assert not (tmp_path / "run").exists()


def test_load_checks_the_format(tmp_path):
    batch = generate(2, **RUN)
    path = tmp_path / "shard.npz"
    write_shard(path, batch.rows, {"seed": 5, "agent": "random"})
    assert same_rows(load(path).rows, batch.rows)
    with np.load(path) as npz:
        arrays = dict(npz)
    np.savez(tmp_path / "v2.npz", **{**arrays, "format_version": np.array(2)})
    with pytest.raises(ValueError, match="format_version: this reader reads version 1") as info:
        load(tmp_path / "v2.npz")
    assert info.value.field == "format_version"
    np.savez(tmp_path / "other.npz", **{**arrays, "format": np.array("something-else")})
    with pytest.raises(ValueError, match="format") as info:
        load(tmp_path / "other.npz")
    assert info.value.field == "format"
    np.savez(tmp_path / "bare.npz", x=np.zeros(3))
    with pytest.raises(ValueError) as info:
        load(tmp_path / "bare.npz")
    assert info.value.field == "format"
    np.savez(tmp_path / "short.npz", **{k: v for k, v in arrays.items() if k != "visits"})
    with pytest.raises(ValueError, match="visits"):
        load(tmp_path / "short.npz")
    np.savez(tmp_path / "retyped.npz", **{**arrays, "visits": arrays["visits"].astype(np.int64)})
    with pytest.raises(ValueError, match="visits: expected dtype uint32"):
        load(tmp_path / "retyped.npz")
    np.savez(tmp_path / "narrowed.npz", **{**arrays, "game": arrays["game"].astype(np.int32)})  # the same kind
    with pytest.raises(ValueError, match="game: expected dtype int64, got int32"):
        load(tmp_path / "narrowed.npz")


def _mutated(tmp_path, mutate):
    batch = generate(2, **RUN)
    path = tmp_path / "shard.npz"
    write_shard(path, batch.rows, {"seed": 5, "agent": "random"})
    with np.load(path) as npz:
        arrays = dict(npz)
    mutate(arrays)
    np.savez(tmp_path / "bad.npz", **arrays)
    return tmp_path / "bad.npz"


@pytest.mark.parametrize("name, mutate, words", [
    # once: rosen train trained on misaligned rows (rc 0), or failed with a bare IndexError
    ("game", lambda a: a.update(game=a["game"][:-1]), r"ply: expected shape \(\d+,\)"),
    ("visits", lambda a: a.update(visits=a["visits"][:-3]), r"visits: expected shape \(\d+, 50\)"),
    ("visits", lambda a: a.update(visits=np.ascontiguousarray(a["visits"][:, :49])), r"visits: expected shape"),
    ("legal", lambda a: a.update(legal=a["legal"].reshape(-1)), r"legal: expected shape \(\d+, 50\)"),
    ("tokens", lambda a: a.update(tokens=a["tokens"][:-1]), r"tokens: expected shape \(\d+, 2, 2\)"),
])
def test_load_checks_every_column_has_a_row_for_each_game_row(tmp_path, name, mutate, words):
    with pytest.raises(ValueError, match=words):
        load(_mutated(tmp_path, mutate))


@pytest.mark.parametrize("value", [np.nan, np.inf, -1.0, 3e38, 1.5e6])
def test_load_refuses_a_weight_outside_its_range(tmp_path, value):
    # a NaN weight once surfaced in training as "--lr: the loss became nan", a negative one as a loss
    # of 0; weights near float32's limit overflowed a batch's sum (the same "--lr" message)
    def mutate(arrays):
        arrays["weight"] = arrays["weight"].copy()
        arrays["weight"][3] = value

    with pytest.raises(ValueError, match="weight: row 3 of .*expected a weight 0..1e[+]06") as info:
        load(_mutated(tmp_path, mutate))
    assert info.value.field == "weight"


def test_write_shard_refuses_bad_input(tmp_path):
    batch = generate(1, **RUN)
    rows = {k: v for k, v in batch.rows.items() if k != "legal"}
    with pytest.raises(ValueError, match="legal"):
        write_shard(tmp_path / "a.npz", rows, {})
    with pytest.raises(ValueError, match="metadata"):
        write_shard(tmp_path / "a.npz", batch.rows, {"game": 3})
    with pytest.raises(ValueError, match="metadata"):
        write_shard(tmp_path / "a.npz", batch.rows, {"note": [1, 2]})
    assert listing(tmp_path) == []


def test_games_files_are_json_lines_as_json_dumps_writes_them():
    games = generate(5, agent='mcts:iterations=10', seed=2).games
    games[1] = {**games[1], "note": 'a "quoted" word'}  # not generate's keys: the json.dumps path
    games[2] = {**games[2], "red": 'mcts:x="y"\\'}
    expected = "".join(json.dumps(g, separators=(",", ":")) + "\n" for g in games)
    assert records._games_jsonl(games) == expected
    assert [json.loads(line) for line in expected.splitlines()] == games


def test_a_network_overwritten_under_the_same_path_is_another_run(tmp_path, monkeypatch):
    # run.json records the network by content, so resuming after the file named by evaluator=
    # was replaced (say, a loop's best.npz promoted anew) is refused instead of mixing two
    # networks' shards; a run without the record (written before it existed) is refused too: it
    # was resumed on trust, and took the overwritten network.
    from rosen.learning import random_network, save_network

    monkeypatch.chdir(tmp_path)
    save_network("net.npz", random_network(hidden=(16, 8), seed=1))
    settings = dict(shard_games=1, agent="mcts:iterations=20,evaluator=net.npz", fsync=False)
    write_run("run", 2, **settings)
    (tmp_path / "run" / "shard-00001.npz").unlink()  # a run cut short
    digest = json.loads((tmp_path / "run" / "run.json").read_text())["network_sha256"]
    assert len(digest) == 64 and digest == records.network_digest("mcts:evaluator=net.npz")
    save_network("net.npz", random_network(hidden=(16, 8), seed=2))
    with pytest.raises(ValueError, match=r"^path: .* holds a run with other parameters \(network_sha256: "):
        write_run("run", 2, **settings)
    run = json.loads((tmp_path / "run" / "run.json").read_text())
    del run["network_sha256"]
    (tmp_path / "run" / "run.json").write_text(json.dumps(run, indent=1) + "\n")
    with pytest.raises(ValueError, match=r"does not record which network its evaluator= named"):
        write_run("run", 2, **settings)
    assert records.network_digest("mcts:iterations=20") is None and records.network_digest("greedy") is None


@pytest.mark.skipif(os.name != "posix", reason="the run lock is an flock (POSIX)")
def test_a_run_directory_in_use_by_another_writer_is_refused(tmp_path):
    # Two writers of one directory removed each other's temporary files and once filed the hash of
    # an emptied file in the manifest, for good. The second is now refused before it writes.
    import fcntl
    out = tmp_path / "run"
    write_run(out, 2, agent="random", shard_games=1)
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    fd = os.open(out, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # as a running write_run holds it
        with pytest.raises(rosen.InvalidArgumentError, match="^path: .* is in use by another self-play process"):
            write_run(out, 2, agent="random", shard_games=1)
        assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    finally:
        os.close(fd)
    assert len(write_run(out, 2, agent="random", shard_games=1)) == 2  # free again: the same run


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are a POSIX feature")
def test_only_a_regular_file_is_read_as_a_shard(tmp_path):
    # load() of a named pipe with no writer waited for one for ever (np.load opens anything);
    # the network's loader had refused it since F46, and now both share the check.
    fifo = tmp_path / "shard-00000.npz"
    os.mkfifo(fifo)
    with pytest.raises(ValueError, match="^path: .* is not a regular file .*; expected a self-play shard") as info:
        load(fifo)
    assert info.value.field == "path"
    with pytest.raises(ValueError, match="^path: .* is a folder"):
        load(tmp_path)


def test_a_shard_reads_from_a_file_object_and_odd_sources_are_named(tmp_path):
    import io
    write_run(tmp_path, 2, **RUN)
    shard = tmp_path / "shard-00000.npz"
    by_path = load(shard)
    with open(shard, "rb") as f:
        by_file = load(f)
        assert not f.closed  # the caller's file stays the caller's
    by_bytes = load(io.BytesIO(shard.read_bytes()))
    for other in (by_file, by_bytes):
        assert set(other.rows) == set(by_path.rows)
        assert all(np.array_equal(other.rows[n], by_path.rows[n], equal_nan=True) for n in by_path.rows)
    np.save(tmp_path / "one.npy", np.zeros(3))
    with pytest.raises(ValueError, match=r"^path: .*one\.npy' is a single array \(\.npy\), not an \.npz"):
        load(tmp_path / "one.npy")
    for bad in (5, None, [str(shard)]):
        with pytest.raises(TypeError, match="^path: expected a file path or a binary file object"):
            load(bad)
    with pytest.raises(ValueError, match="^path: the BytesIO is damaged or not an .npz file"):
        load(io.BytesIO(b"not a zip"))
