"""Where the shards of a run are played: here (``local``) or as Ray tasks (``ray``).

A backend turns a list of :class:`ShardJob` into ``(job, batch)`` pairs, in any order;
:func:`rosen.selfplay.write_run` writes each batch as it arrives and keeps the manifest in shard
order. A shard is a pure function of its job (the run's settings and its game range), so the
backends' output is byte-for-byte the same, and a retried or duplicated task is harmless.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterable, Iterator, Optional, Tuple

from ..errors import InvalidArgumentError, check_int
from .generate import SelfPlayBatch, generate

#: Told the games and rows finished so far within a shard (for a progress display).
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class ShardJob:
    """Shard ``index`` of a run: games ``[first_game, first_game + games)`` with ``settings``
    (generate's keyword arguments other than ``games``, ``first_game`` and ``threads``)."""

    index: int
    first_game: int
    games: int
    settings: Dict[str, Any]


def play_shard(job: ShardJob, threads: int = 1, chunk_games: int = 0,
               on_progress: Optional[Progress] = None) -> SelfPlayBatch:
    """The batch of one shard. ``chunk_games`` > 0 plays it in pieces of that many games (the
    same bytes, since game i depends only on i) to report progress between them."""
    step = chunk_games if chunk_games > 0 else job.games
    parts = []
    for first in range(job.first_game, job.first_game + job.games, step):
        count = min(step, job.first_game + job.games - first)
        parts.append(generate(count, threads=threads, first_game=first, **job.settings))
        if on_progress is not None:
            on_progress(sum(len(p.games) for p in parts), sum(p.num_rows for p in parts))
    batch = parts[0] if len(parts) == 1 else SelfPlayBatch.concat(parts)  # no copy of a whole shard
    batch.settings["first_game"], batch.settings["games"] = job.first_game, job.games
    return batch


class LocalBackend:
    """Every shard in this process, one after another, each on ``threads`` worker threads."""

    name = "local"

    def __init__(self, threads: int = 1) -> None:
        self.threads = check_int("threads", threads, 1, 256)

    def __repr__(self) -> str:
        return f"LocalBackend(threads={self.threads})"

    def run(self, jobs: Iterable[ShardJob], on_progress: Optional[Progress] = None
            ) -> Iterator[Tuple[ShardJob, SelfPlayBatch]]:
        for job in jobs:
            # Progress a few times per shard: pieces of at least 8 games per thread.
            chunk = max(8 * self.threads, job.games // 20) if on_progress is not None else 0
            yield job, play_shard(job, self.threads, chunk, on_progress)


def _ray():
    try:
        import ray
    except ImportError:
        raise InvalidArgumentError('backend: the ray backend needs Ray: pip install "rosen[ray]"', "backend") from None
    return ray


class RayBackend:
    """One Ray task per shard, at most ``max_in_flight`` at a time (default: twice the cluster's
    CPUs), each playing on ``threads_per_task`` threads with as many CPUs reserved. The batches
    come back through Ray's object store, so workers need no shared file system: the driver
    writes every file. Ray is started on ``address`` (``None``: a running local instance if
    ``ray.init`` was called, else a new one on this machine; ``"auto"``: the cluster this machine
    belongs to; ``"ray://host:10001"``: a remote cluster through Ray Client). Failed tasks are
    retried (``max_retries``)."""

    name = "ray"

    def __init__(self, address: Optional[str] = None, max_in_flight: int = 0, threads_per_task: int = 1,
                 max_retries: int = 3) -> None:
        if address is not None and not isinstance(address, str):
            raise InvalidArgumentError(f"address: expected a Ray address string or None, got {address!r}", "address")
        self.address = address
        self.max_in_flight = check_int("max_in_flight", max_in_flight, 0, 1_000_000)
        self.threads_per_task = check_int("threads_per_task", threads_per_task, 1, 256)
        self.max_retries = check_int("max_retries", max_retries, 0, 100)

    def __repr__(self) -> str:
        return (f"RayBackend(address={self.address!r}, max_in_flight={self.max_in_flight}, "
                f"threads_per_task={self.threads_per_task})")

    def run(self, jobs: Iterable[ShardJob], on_progress: Optional[Progress] = None
            ) -> Iterator[Tuple[ShardJob, SelfPlayBatch]]:
        ray = _ray()
        if not ray.is_initialized():
            ray.init(address=self.address, include_dashboard=False, log_to_driver=False)
        limit = self.max_in_flight or max(2, 2 * int(ray.cluster_resources().get("CPU", 1)))
        task = ray.remote(play_shard).options(num_cpus=self.threads_per_task, max_retries=self.max_retries)
        pending: Dict[Any, ShardJob] = {}
        queue = list(jobs)
        queue.reverse()
        try:
            while queue or pending:
                while queue and len(pending) < limit:
                    job = queue.pop()
                    pending[task.remote(job, self.threads_per_task)] = job
                done, _ = ray.wait(list(pending), num_returns=1)
                for ref in done:
                    yield pending.pop(ref), ray.get(ref)
        finally:
            for ref in pending:  # stopped early (Ctrl-C, an error): do not leave work running
                ray.cancel(ref, force=True)


def make_backend(backend: Any, threads: int = 1, **options: Any):
    """``"local"``, ``"ray"`` (with RayBackend's keyword options) or a backend object."""
    if backend == "local":
        if options:
            raise InvalidArgumentError(f"backend: the local backend takes no option {sorted(options)[0]!r}", "backend")
        return LocalBackend(threads)
    if backend == "ray":
        return RayBackend(threads_per_task=threads, **options)
    if hasattr(backend, "run"):
        return backend
    raise InvalidArgumentError(f"backend: expected 'local' or 'ray', got {backend!r}", "backend")
