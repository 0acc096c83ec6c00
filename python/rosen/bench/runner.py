"""`rosen bench`'s measurement: one search configuration over the suite at budgets and threads.

A configuration is an agent spec whose kind takes a budget: ``mcts:<search params>`` (in
process), ``engine:command=...`` (any program speaking PROTOCOL.md) or ``expectimax`` (time
only). For each (budget, threads) one agent is built and searches every position from a fresh
tree (``reset`` before each: `uginewgame` for an engine), so every probe measures what a search
of that budget makes of the position on its own.

An engine that crashes, hangs past its timeout or writes a malformed line fails that one probe:
the error is recorded with the position, the agent is closed (the process killed if need be)
and a new one is started for the next position.
"""
from __future__ import annotations

import time
from dataclasses import asdict, dataclass
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple

from ..agents.base import close_agents
from ..agents.spec import KINDS, SEARCH_KINDS, AgentSpec, parse_agent_spec
from ..errors import ArgumentTypeError, InvalidArgumentError, check_int
from ..search import iterations_per_second
from .suite import Suite, SuitePosition

BUDGET_KINDS = ("iterations", "time_ms")
#: Seconds an engine may stay silent beyond its search's own time before the probe fails.
DEFAULT_TIMEOUT = 30.0


@dataclass
class Probe:
    """One search of one position: what it reported, how it compares with the reference, or
    the error that ended it."""

    config: str
    budget: int
    threads: int
    position: str
    players: int
    phase: str
    best_move: Optional[str] = None
    solved: Optional[bool] = None
    value: Optional[float] = None
    value_error: Optional[float] = None
    iterations: Optional[int] = None
    tree_size: Optional[int] = None
    depth: Optional[float] = None
    seldepth: Optional[int] = None
    time_ms: Optional[float] = None
    nps: Optional[float] = None
    error: Optional[str] = None

    @property
    def ok(self) -> bool:
        """True unless the probe ended in an error."""
        return self.error is None

    def to_json(self) -> Dict[str, Any]:
        """The fields as a dict for JSON (and a CSV row)."""
        return asdict(self)


def parse_budgets(text: Any, field: str) -> Tuple[int, ...]:
    """'100,1000' -> (100, 1000): positive ints, increasing (stability compares each with the next)."""
    if isinstance(text, (list, tuple)):
        items = list(text)
    elif isinstance(text, str):
        items = [t.strip() for t in text.split(",") if t.strip()]
    else:
        raise ArgumentTypeError(f"{field}: expected numbers separated by commas such as '100,1000', "
                                f"got {type(text).__name__}", field)
    values = []
    for item in items:
        try:
            value = int(item)
        except (TypeError, ValueError):
            raise InvalidArgumentError(f"{field}: expected whole numbers separated by commas such as '100,1000', "
                                       f"got {item!r}", field) from None
        values.append(check_int(field, value, 1))
    if not values:
        raise InvalidArgumentError(f"{field}: expected at least one number", field)
    if any(b <= a for a, b in zip(values, values[1:])):
        raise InvalidArgumentError(f"{field}: expected increasing numbers, got {','.join(map(str, values))}", field)
    return tuple(values)


def parse_config(config: Any) -> AgentSpec:
    """A configuration's agent spec. Its budget comes from the budgets run, so an ``engine:`` or
    ``expectimax`` spec may leave it out (either otherwise needs one to be complete)."""
    if isinstance(config, AgentSpec):
        return config
    if isinstance(config, str):
        kind, _, rest = config.strip().partition(":")
        kind = kind.strip().lower()
        options = [o.split("=", 1)[0].strip().lower() for o in rest.split(",") if o.strip()]
        # A placeholder budget makes the spec complete; budget_spec puts the probe's in its place.
        if kind == "engine" and "iterations" not in options and "time_ms" not in options:
            config = config.rstrip(",") + ",iterations=1"
        elif kind == "expectimax" and not {"depth", "time_ms", "movetime"} & set(options):
            base = config.strip().rstrip(",")
            config = base + ",time_ms=1" if rest.strip(" ,") else base.rstrip(": ") + ":time_ms=1"
    return parse_agent_spec(config)


def budget_spec(config: Any, budget_kind: str, budget: int, threads: Optional[int] = None,
                timeout: Optional[float] = None) -> AgentSpec:
    """The agent spec ``config`` with the budget (and threads) of one probe or ladder point."""
    spec = parse_config(config)
    if budget_kind not in BUDGET_KINDS:
        raise InvalidArgumentError(f"budget: expected iterations or time_ms, got {budget_kind!r}", "budget")
    allowed = KINDS[spec.kind]
    if budget_kind not in allowed:
        takers = ", ".join(k for k, opts in KINDS.items() if budget_kind in opts)
        raise InvalidArgumentError(f"agent: {spec.kind} takes no {budget_kind} budget; use one of {takers}", "agent")
    options = dict(spec.options)
    other = "time_ms" if budget_kind == "iterations" else "iterations"
    options.pop(other, None)
    if spec.kind == "expectimax":
        options.pop("depth", None)  # the probe's time is its one budget (depth=N would be another)
    if spec.kind in SEARCH_KINDS and budget_kind == "time_ms":
        options["iterations"] = 0  # mcts, uct: 0 iterations means no iteration limit
    options[budget_kind] = budget
    if threads is not None and threads != 1:
        if "threads" not in allowed:
            raise InvalidArgumentError(f"agent: {spec.kind} searches on one thread only", "agent")
    if threads is not None and "threads" in allowed:
        options["threads"] = threads
    if timeout is not None and "timeout" in allowed:
        options.setdefault("timeout", timeout)
    return AgentSpec(spec.kind, options)


def _measure(agent: Any, entry: SuitePosition, probe: Probe) -> None:
    """Search ``entry`` with ``agent`` and fill ``probe`` from what the agent reports."""
    position = entry.position
    agent.reset()
    start = time.perf_counter()
    move = agent.choose(position)
    wall_ms = (time.perf_counter() - start) * 1000.0
    probe.best_move = str(move)
    probe.solved = probe.best_move == entry.best_move
    stats = getattr(agent, "last_stats", None)
    if stats is not None:
        probe.iterations, probe.tree_size = stats.iterations, stats.tree_size
        probe.depth, probe.seldepth = round(stats.depth, 3), stats.seldepth
        probe.time_ms = round(stats.time_ms or wall_ms, 3)
    else:
        probe.time_ms = round(wall_ms, 3)
    if probe.iterations is not None:
        probe.nps = round(iterations_per_second(probe.iterations, probe.time_ms), 1)
    result = getattr(agent, "last_result", None)   # the in-process search
    info = getattr(agent, "last_info", None)       # an engine's last `info` report
    value = result.winrate if result is not None else (info.winrate if info is not None else None)
    if value is not None:
        probe.value = round(float(value), 4)
        probe.value_error = round(abs(probe.value - entry.value), 4)


def run_probes(config: str, suite: Suite, *, budgets: Sequence[int], budget_kind: str = "iterations",
               threads: Sequence[int] = (1,), seed: int = 0, timeout: float = DEFAULT_TIMEOUT,
               progress: Optional[Callable[[Probe], None]] = None) -> List[Probe]:
    """Every (threads, budget, position) probe of ``config``, in that order."""
    if not isinstance(config, (str, AgentSpec)):
        raise ArgumentTypeError(f"agent: expected an agent spec str, got {type(config).__name__}", "agent")
    name = config.strip() if isinstance(config, str) else str(config)  # as the user wrote it
    spec = parse_config(config)
    specs = {(t, b): budget_spec(spec, budget_kind, b, t, timeout) for t in threads for b in budgets}
    probes = []
    for (t, b), probe_spec in specs.items():
        for probe in _run_one(name, probe_spec, suite, b, t, seed):
            probes.append(probe)
            if progress is not None:
                progress(probe)
    return probes


def _run_one(name: str, spec: AgentSpec, suite: Suite, budget: int, threads: int, seed: int) -> Iterator[Probe]:
    agent = None
    try:
        for entry in suite.positions:
            probe = Probe(config=name, budget=budget, threads=threads, position=entry.id, players=entry.players,
                          phase=entry.phase)
            try:
                if agent is None:
                    agent = spec.build(seed)
                _measure(agent, entry, probe)
            except Exception as exc:  # noqa: BLE001 - any failure is this probe's, the run goes on
                probe.error = f"{type(exc).__name__}: {exc}"
                probe.best_move = probe.solved = None
                if agent is not None:
                    close_agents(agent)
                agent = None
            yield probe
    finally:
        if agent is not None:
            close_agents(agent)


__all__: Sequence[str] = ("BUDGET_KINDS", "DEFAULT_TIMEOUT", "Probe", "budget_spec", "parse_budgets", "parse_config",
                          "run_probes")
