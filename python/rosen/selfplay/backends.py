"""Where the shards of a run are played: here (``local``) or as Ray tasks (``ray``).

A backend turns a list of :class:`ShardJob` into ``(job, batch)`` pairs, in any order;
:func:`rosen.selfplay.write_run` writes each batch as it arrives and keeps the manifest in shard
order. A shard is a pure function of its job (the run's settings and its game range), so the
backends' output is byte-for-byte the same, and a retried or duplicated task is harmless.
"""
from __future__ import annotations

import itertools
import os
import socket
from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterable, Iterator, Optional, Tuple

from ..errors import InvalidArgumentError, RosenError, check_int
from .engine_id import engine_fingerprint
from .generate import SelfPlayBatch, agent_network, generate

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
    #: The run's engine fingerprint (:func:`rosen.selfplay.engine_id.engine_fingerprint`): a worker
    #: whose rosen computes otherwise refuses the shard. None: not checked.
    engine: Optional[str] = None


def play_shard(job: ShardJob, threads: int = 1, chunk_games: int = 0,
               on_progress: Optional[Progress] = None, network: Any = None) -> SelfPlayBatch:
    """The batch of one shard. ``chunk_games`` > 0 plays it in pieces of that many games (the
    same bytes, since game i depends only on i) to report progress between them. ``network``:
    the agent's ``evaluator=`` network already read (:func:`rosen.selfplay.generate`)."""
    if job.engine is not None and job.engine != engine_fingerprint():
        raise InvalidArgumentError(f"engine: this rosen ({socket.gethostname()}) computes otherwise than the one that "
                                   f"started the run (engine fingerprint {engine_fingerprint()}, the run's "
                                   f"{job.engine}): install the same build on every node", "engine")
    step = chunk_games if chunk_games > 0 else job.games
    parts = []
    for first in range(job.first_game, job.first_game + job.games, step):
        count = min(step, job.first_game + job.games - first)
        parts.append(generate(count, threads=threads, first_game=first, network=network, **job.settings))
        if on_progress is not None:
            on_progress(sum(len(p.games) for p in parts), sum(p.num_rows for p in parts))
    batch = parts[0] if len(parts) == 1 else SelfPlayBatch.concat(parts)  # no copy of a whole shard
    batch.settings["first_game"], batch.settings["games"] = job.first_game, job.games
    return batch


class BackendError(RuntimeError):
    """A backend could not play a shard (a Ray worker or node lost beyond its retries). The
    shards written before it stay valid: run the same call again to resume."""


class LocalBackend:
    """Every shard in this process, one after another, each on ``threads`` worker threads."""

    name = "local"

    def __init__(self, threads: int = 1) -> None:
        self.threads = check_int("threads", threads, 1, 256)

    def __repr__(self) -> str:
        return f"LocalBackend(threads={self.threads})"

    def run(self, jobs: Iterable[ShardJob], on_progress: Optional[Progress] = None
            ) -> Iterator[Tuple[ShardJob, SelfPlayBatch]]:
        """Play the shards here, one after another (the agent's network read once), yielding each
        ``(job, batch)`` as it is done."""
        jobs = iter(jobs)  # taken one at a time: a run of a billion shards starts at once
        first = next(jobs, None)
        if first is None:
            return
        network = agent_network(first.settings["agent"], first.settings.get("players", 2))
        for job in itertools.chain([first], jobs):
            # Progress a few times per shard: pieces of at least 8 games per thread.
            chunk = max(8 * self.threads, job.games // 20) if on_progress is not None else 0
            yield job, play_shard(job, self.threads, chunk, on_progress, network)


def _ray():
    try:
        import ray
    except ImportError:
        raise InvalidArgumentError('backend: the ray backend needs Ray: pip install "rosen[ray]"', "backend") from None
    return ray


class RayBackend:
    """One Ray task per shard, at most ``max_in_flight`` at a time (default: twice the cluster's
    CPUs), each playing on ``threads_per_task`` threads with as many CPUs reserved. The batches
    come back through Ray's object store and the agent's network (``evaluator=``) is read once
    by the driver and sent to the workers, so workers need no file of the run and no shared file
    system: the driver reads and writes every file.

    ``address``: ``None`` -- the Ray instance this process already started (``ray.init``), else
    the cluster ``RAY_ADDRESS`` names, else a new instance on this machine, shut down when the
    run ends; ``"auto"``: ``RAY_ADDRESS`` if set, else the cluster ``ray start`` runs on this machine;
    ``"HOST:PORT"``: that cluster's head; ``"ray://HOST:10001"``: a remote cluster through Ray
    Client. An address given while this process already runs Ray is refused (it would be
    ignored). Failed tasks are retried (``max_retries``); a task that still fails raises
    :class:`BackendError` (or the task's own :class:`rosen.RosenError`)."""

    name = "ray"

    def __init__(self, address: Optional[str] = None, max_in_flight: int = 0, threads_per_task: int = 1,
                 max_retries: int = 3) -> None:
        if address is not None and (not isinstance(address, str) or not address.strip()):
            raise InvalidArgumentError(f"address: expected a Ray address ('auto', 'HOST:PORT', 'ray://HOST:PORT') or "
                                       f"None, got {address!r}", "address")
        self.address = address
        self.max_in_flight = check_int("max_in_flight", max_in_flight, 0, 1_000_000)
        self.threads_per_task = check_int("threads_per_task", threads_per_task, 1, 256)
        self.max_retries = check_int("max_retries", max_retries, 0, 100)
        self._started = False  # this backend called ray.init, so it shuts Ray down again (close)
        self._local = False  # ... and that started a new instance on this machine (not a cluster joined)

    def __repr__(self) -> str:
        return (f"RayBackend(address={self.address!r}, max_in_flight={self.max_in_flight}, "
                f"threads_per_task={self.threads_per_task})")

    def connect(self) -> None:
        """Join or start Ray and check that a task fits on some node; errors name ``address`` (or
        ``RAY_ADDRESS``) or ``threads``. :func:`rosen.selfplay.write_run` calls it before it
        writes anything, and only when there is a shard to play."""
        ray = _ray()
        if self._started:
            return
        if ray.is_initialized():
            if self.address is not None:
                raise InvalidArgumentError(f"address: this process already runs Ray (ray.init), so address "
                                           f"{self.address!r} would be ignored; leave it out to use that instance, "
                                           "or call ray.shutdown() first", "address")
        else:
            address, field = self.address, "address"
            if address is None:
                # Never a cluster that `ray start` happens to run on this machine, unless told.
                address, field = (os.environ["RAY_ADDRESS"], "RAY_ADDRESS") if os.environ.get("RAY_ADDRESS") \
                    else ("local", "address")
            _check_reachable(address, field)
            self._local = address == "local"
            try:
                ray.init(address=address, include_dashboard=False, log_to_driver=False)
            except Exception as exc:  # ConnectionError, RuntimeError, ValueError, grpc's...: say it in one line
                raise InvalidArgumentError(f"{field}: cannot join Ray at {address!r}: {_first_line(exc)}",
                                           field) from None
            except BaseException:
                # A Ctrl-C in the middle of ray.init: shut down what it started (the process once
                # segfaulted at exit, or left Ray's helper processes running).
                ray.shutdown()
                raise
            self._started = True
        try:
            # A task that no node can hold would wait for ever (Ray only logs it as infeasible).
            largest = max((n.get("Resources", {}).get("CPU", 0) for n in ray.nodes() if n.get("Alive")), default=0)
            if self.threads_per_task > largest:
                raise InvalidArgumentError(f"threads: a task reserves {self.threads_per_task} CPUs, but the largest "
                                           f"node of the Ray cluster has {largest:g} (an autoscaling cluster: start "
                                           "a node that large first)", "threads")
        except BaseException:  # the check failed or was interrupted: leave no instance of ours behind
            self.close()
            raise

    def close(self) -> None:
        """Shut Ray down if :meth:`connect` started it (a caller's own ``ray.init`` stays)."""
        if self._started:
            self._started = False
            _ray().shutdown()

    def run(self, jobs: Iterable[ShardJob], on_progress: Optional[Progress] = None
            ) -> Iterator[Tuple[ShardJob, SelfPlayBatch]]:
        """Play the shards as Ray tasks (:meth:`connect` first; a Ray started by this call is shut down at
        its end), yielding each ``(job, batch)`` as its task finishes; ``on_progress`` is not called."""
        queue = iter(jobs)  # taken as tasks are started: a run of a billion shards starts at once
        first = next(queue, None)
        if first is None:  # nothing to play: no Ray needed
            return
        queue = itertools.chain([first], queue)
        ray = _ray()
        owned = not self._started and not ray.is_initialized()
        self.connect()  # a caller's instance too: an address beside it is refused, the threads checked
        try:
            yield from self._run(ray, first, queue)
        finally:
            if owned:  # called alone, not through write_run: Ray lasts as long as this run
                self.close()

    def _run(self, ray: Any, first: ShardJob, queue: Iterator[ShardJob]) -> Iterator[Tuple[ShardJob, SelfPlayBatch]]:
        limit = self.max_in_flight or max(2, 2 * int(ray.cluster_resources().get("CPU", 1)))
        task = ray.remote(play_shard).options(num_cpus=self.threads_per_task, max_retries=self.max_retries)
        network = agent_network(first.settings["agent"], first.settings.get("players", 2))
        network_ref = ray.put(network) if network is not None else None  # stored once, read by every task
        pending: Dict[Any, ShardJob] = {}
        more = True
        try:
            while True:
                while more and len(pending) < limit:
                    job = next(queue, None)
                    if job is None:
                        more = False
                        break
                    pending[task.remote(job, self.threads_per_task, 0, None, network_ref)] = job
                if not pending:
                    break
                done, _ = ray.wait(list(pending), num_returns=1)
                for ref in done:
                    job = pending.pop(ref)
                    yield job, _result(ray, ref, job)
        finally:
            # Stopped early (Ctrl-C, an error): do not leave work running on a cluster we joined (or
            # the caller's instance). A local instance we started is shut down by close(), which
            # ends its tasks: there, cancelling
            # raced tasks as they finished and crashed the driver inside Ray (a failed check in its
            # task manager, 5 of 16 interrupted runs of Ray 2.60). Not once Ray is shut down either:
            # ray.cancel would start a new instance (Ray's auto-init).
            if ray.is_initialized() and not (self._started and self._local):
                for ref in pending:
                    ray.cancel(ref, force=True)


def _result(ray: Any, ref: Any, job: ShardJob) -> SelfPlayBatch:
    """A finished task's batch; its failure as rosen's error (one line, no remote traceback)."""
    try:
        return ray.get(ref)
    except ray.exceptions.RayTaskError as exc:
        if isinstance(exc.cause, RosenError):
            raise exc.cause from None
        raise BackendError(f"shard {job.index}: the Ray task failed: {_first_line(exc.cause or exc)}") from None
    except ray.exceptions.RayError as exc:  # a worker or node lost more often than max_retries allows
        raise BackendError(f"shard {job.index}: {type(exc).__name__}: {_first_line(exc)}") from None


def _first_line(exc: BaseException) -> str:
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    return lines[0] if lines else type(exc).__name__


def _check_reachable(address: str, field: str) -> None:
    """Refuse a HOST:PORT (or ray://HOST:PORT) that nothing answers at: ray.init would wait for
    ever. ``auto`` is checked as the address Ray resolves it to. (Something else listening there --
    the Ray Client port without ray://, the dashboard -- still makes ray.init wait.)"""
    if address == "local":
        return
    if address == "auto":
        try:  # Ray's own resolution ($RAY_ADDRESS, else the cluster `ray start` left a note of)
            from ray._private.services import canonicalize_bootstrap_address

            address = canonicalize_bootstrap_address("auto") or "local"
        except Exception:  # no cluster noted (ray.init says so at once), or Ray's internals moved
            return
        if address == "local":
            return
    host, _, port = address.split("://", 1)[-1].rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise InvalidArgumentError(f"{field}: expected 'auto', 'local', 'HOST:PORT' or 'ray://HOST:PORT' (a port "
                                   f"1..65535), got {address!r}", field)
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=10).close()
    except (OSError, ValueError, OverflowError) as exc:
        raise InvalidArgumentError(f"{field}: no Ray cluster answers at {host}:{port} ({exc})", field) from None


def make_backend(backend: Any, threads: int = 1, **options: Any):
    """``"local"``, ``"ray"`` (with RayBackend's keyword options) or a backend object."""
    if backend == "local":
        if options:
            raise InvalidArgumentError(f"backend: the local backend takes no option {sorted(options)[0]!r}", "backend")
        return LocalBackend(threads)
    if backend == "ray":
        for key in options:
            if key not in ("address", "max_in_flight", "max_retries"):  # threads_per_task: the run's threads
                raise InvalidArgumentError(f"backend_options: the ray backend takes address, max_in_flight and "
                                           f"max_retries, got {key!r}", "backend_options")
        return RayBackend(threads_per_task=threads, **options)
    if hasattr(backend, "run"):
        return backend
    raise InvalidArgumentError(f"backend: expected 'local' or 'ray', got {backend!r}", "backend")
