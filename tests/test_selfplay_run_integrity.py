"""A self-play run stays one run (docs/reliability.md, F81): written by one engine, each shard
listed once, started at once whatever its size, with a manifest whose rewriting stays cheap, and
game indices checked for the whole run before the first shard."""
from __future__ import annotations

import json
import threading

import numpy as np
import pytest

import rosen.selfplay as sp
from rosen.selfplay import records
from rosen.selfplay.backends import ShardJob, play_shard
from rosen.selfplay.engine_id import engine_fingerprint

RUN = dict(seed=5, agent="random", fsync=False)


def test_a_run_records_its_engine_and_another_build_does_not_resume_it(tmp_path, monkeypatch):
    # A run resumed under a rebuilt core once mixed the two engines' shards ("verify: ok").
    sp.write_run(tmp_path, 4, shard_games=1, **RUN)
    assert json.loads((tmp_path / "run.json").read_text())["engine"] == engine_fingerprint()
    assert len(engine_fingerprint()) == 16 and engine_fingerprint() == engine_fingerprint()
    (tmp_path / "manifest.jsonl").write_text("")  # as if interrupted: every shard still to write
    monkeypatch.setattr(records, "engine_fingerprint", lambda: "0123456789abcdef")
    with pytest.raises(ValueError, match=r"another build of rosen \(engine fingerprint [0-9a-f]{16} there, "
                                         r"0123456789abcdef here\)"):
        sp.write_run(tmp_path, 4, shard_games=1, **RUN)


def test_a_run_written_before_the_fingerprint_is_read_but_not_resumed(tmp_path):
    # It was resumed on trust, and the builds of 30 Nov, 3 Dec and 5 Dec all played other games than
    # today's: the run mixed two engines unmarked, and verify said ok.
    sp.write_run(tmp_path, 2, shard_games=1, **RUN)
    run = json.loads((tmp_path / "run.json").read_text())
    del run["engine"]
    (tmp_path / "run.json").write_text(json.dumps(run, indent=1) + "\n")
    manifest = (tmp_path / "manifest.jsonl").read_text()
    (tmp_path / "manifest.jsonl").write_text(manifest.splitlines(keepends=True)[0])  # cut short after shard 0
    with pytest.raises(ValueError, match=r"does not record which build of rosen wrote it \(no engine fingerprint: "
                                         r"before 6 Dec 2026\).*finish it with the build that began it"):
        sp.write_run(tmp_path, 2, shard_games=1, **RUN)
    assert (tmp_path / "manifest.jsonl").read_text() == manifest.splitlines(keepends=True)[0]  # nothing written
    assert len(records.load_dir(tmp_path).games) == 1  # and it reads as ever


def test_a_worker_that_computes_otherwise_refuses_the_shard():
    job = ShardJob(0, 0, 1, dict(seed=0, players=2, agent="random", reshuffle="eager"), "0123456789abcdef")
    with pytest.raises(ValueError, match=r"^engine: this rosen .* computes otherwise than the one that started"):
        play_shard(job)
    assert len(play_shard(ShardJob(0, 0, 1, job.settings, engine_fingerprint())).games) == 1


def test_each_shard_is_listed_once_and_as_the_run_has_it(tmp_path):
    sp.write_run(tmp_path, 6, shard_games=2, **RUN)
    lines = (tmp_path / "manifest.jsonl").read_text().splitlines()
    assert len(sp.load_dir(tmp_path, verify=True).games) == 6
    for bad, words in (
            (lines + [lines[0]], "index: shard 0 is listed twice (entries 1 and 4)"),
            ([json.dumps(dict(json.loads(lines[0]), index=3, shard="shard-00003.npz", games_file="games-00003.jsonl"))],
             "index: the run has 3 shards, got shard 3"),
            ([json.dumps(dict(json.loads(lines[1]), first_game=0))], "shard 1 holds games 2.. (2 games)"),
            ([json.dumps(dict(json.loads(lines[1]), shard="shard-00000.npz"))], "shard 1's files are shard-00001.npz"),
            ([lines[0], json.dumps(dict(json.loads(lines[1]), index=True))], "index: expected a whole number >= 0, got True")):
        (tmp_path / "manifest.jsonl").write_text("\n".join(bad) + "\n")
        for read in (sp.read_manifest, sp.load_dir, sp.verify_manifest):
            with pytest.raises(ValueError, match="entry .*" + words.replace("(", r"\(").replace(")", r"\)")
                                                                     .replace(".", r"\.")):
                read(tmp_path)
    # The run's own parameters are checked too: a shard size of 0 would divide by zero.
    (tmp_path / "manifest.jsonl").write_text("\n".join(lines) + "\n")
    run = json.loads((tmp_path / "run.json").read_text())
    for key, value in (("shard_games", 0), ("shard_games", True), ("games", 0)):
        (tmp_path / "run.json").write_text(json.dumps(dict(run, **{key: value})))
        for read in (sp.read_manifest, sp.load_dir):
            with pytest.raises(ValueError, match=f"{key}: expected a whole number >= 1, got {value}"):
                read(tmp_path)
    (tmp_path / "run.json").write_text(json.dumps(run))
    # A count edited in a listed entry: load_dir reads the shard anyway and says so.
    edited = [json.dumps(dict(json.loads(lines[0]), rows=json.loads(lines[0])["rows"] + 1))] + lines[1:]
    (tmp_path / "manifest.jsonl").write_text("\n".join(edited) + "\n")
    with pytest.raises(ValueError, match=r"shard-00000\.npz: \d+ rows, manifest\.jsonl says \d+"):
        sp.load_dir(tmp_path, verify=True)


def test_a_shard_whose_version_is_not_a_number_is_named(tmp_path):
    sp.write_run(tmp_path, 1, **RUN)
    path = tmp_path / "shard-00000.npz"
    with np.load(path) as npz:
        arrays = {name: npz[name] for name in npz.files}
    arrays["format_version"] = np.array([1, 1])  # once a bare TypeError from int()
    np.savez(path, **arrays)
    with pytest.raises(ValueError, match=r"^format_version: this reader reads version 1, .* is version \[1, 1\]"):
        sp.load(path)


def test_the_whole_runs_game_indices_are_checked_before_the_first_shard(tmp_path):
    # Shard 0 was written, then the run failed on a first_game it was never given.
    with pytest.raises(ValueError, match=r"^first_game: expected 0\.\.4611686018427387901, got 4611686018427387904"):
        sp.write_run(tmp_path / "r", 3, shard_games=2, first_game=2**62, **RUN)
    assert not (tmp_path / "r").exists()
    with pytest.raises(ValueError, match=r"^first_game: expected 0\.\.4611686018427387901, got 4611686018427387903"):
        sp.generate(3, first_game=2**62 - 1, agent="random")
    assert [g["game"] for g in sp.generate(3, first_game=2**62 - 3, agent="random").games] == [2**62 - 3 + i
                                                                                               for i in range(3)]


class _Enough(Exception):
    pass


def test_a_run_of_many_shards_starts_at_once(tmp_path, monkeypatch):
    # Every shard's job was made before the first was played (10**12 games sat silent until out of
    # memory): now a job is made as the backend takes it.
    made = []
    real = records.ShardJob

    def counted(*args):
        made.append(args[0])
        return real(*args)

    monkeypatch.setattr(records, "ShardJob", counted)
    done = []

    def first_shard(entry):
        done.append(entry)
        raise _Enough

    with pytest.raises(_Enough):
        sp.write_run(tmp_path, 10**5, shard_games=1, on_shard=first_shard, **RUN)
    assert len(done) == 1 and made[:1] == [0] and len(made) <= 2
    assert [e["index"] for e in sp.read_manifest(tmp_path)] == [0]


def test_a_slow_manifest_is_rewritten_less_often_and_complete_at_the_end(tmp_path, monkeypatch):
    # The whole manifest was rewritten (and fsynced) after every shard: quadratic in the run.
    calls = []
    write = records._write_manifest

    def slow(directory, entries, *, fsync):
        calls.append(len(entries))
        threading.Event().wait(0.06)  # as a manifest of over 10 000 entries takes
        write(directory, entries, fsync=fsync)

    monkeypatch.setattr(records, "_write_manifest", slow)
    entries = sp.write_run(tmp_path, 60, shard_games=1, **RUN)
    assert len(entries) == 60 and calls[-1] == 60 and len(calls) < 20
    assert sp.read_manifest(tmp_path) == entries and sp.verify_manifest(tmp_path) == []


def test_a_shard_played_in_chunks_holds_its_games_and_no_more():
    # A progress callback makes the worker play a shard in chunks; the last chunk stops at the
    # shard's end: games [first_game, first_game + games).
    settings = dict(seed=1, players=2, reshuffle="eager", agent="random")
    for first, games, chunk in ((0, 5, 2), (7, 3, 2), (0, 4, 4)):
        batch = play_shard(ShardJob(index=0, first_game=first, games=games, settings=settings), chunk_games=chunk)
        assert [g["game"] for g in batch.games] == list(range(first, first + games))
