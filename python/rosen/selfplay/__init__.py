"""Self-play training data (docs/selfplay.md, "Shards").

- :mod:`rosen.selfplay.generate` -- :func:`generate`: a range of games in memory, as a
  :class:`SelfPlayBatch` of NumPy row columns and match-format game records;
- :mod:`rosen.selfplay.records` -- a run on disk: shards (``shard-00000.npz``), their games
  (``games-00000.jsonl``), ``manifest.jsonl`` with a sha256 per file and ``run.json``;
  :func:`write_run` resumes an interrupted run, :func:`load` / :func:`load_dir` read it back,
  :func:`verify_manifest` checks it.

Not imported by ``import rosen``: ``import rosen.selfplay``.
"""
from .generate import AGENTS, COLUMNS, SelfPlayBatch, generate
from .records import (FORMAT, FORMAT_VERSION, Shard, load, load_dir, read_manifest, verify_manifest, write_run,
                      write_shard, write_shard_files)

__all__ = ["AGENTS", "COLUMNS", "FORMAT", "FORMAT_VERSION", "SelfPlayBatch", "Shard", "generate", "load", "load_dir",
           "read_manifest", "verify_manifest", "write_run", "write_shard", "write_shard_files"]
