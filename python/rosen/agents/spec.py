"""Agent specs: a player written as text, ``kind[:key=value,...]``, as ``rosen match`` takes it.

>>> spec = parse_agent_spec("mcts:iterations=1000,rollout=random")
>>> spec.kind, dict(spec.options)    # options: a read-only mapping
('mcts', {'iterations': 1000, 'rollout': 'random'})
>>> str(spec)
'mcts:iterations=1000,rollout=random'
"""
from __future__ import annotations

import shlex
from types import MappingProxyType
from dataclasses import dataclass, field
from typing import Any, Dict, Mapping

from ..engine.client import check_timeout
from ..engine.protocol import MAX_MS, MAX_NODES
from ..errors import MAX_SEED, ArgumentTypeError, InvalidArgumentError, check_int, restated
from ..search import PARAMS as SEARCH_PARAMS
from ..search import SearchParams, is_auto, is_no_evaluator
from .base import Agent
from .classic import AlphaBetaAgent, ExpectimaxAgent
from .engine import EngineAgent
from .mcts import CLOCK_OPTIONS, MCTSAgent, check_clock
from .net import NetAgent
from .simple import GreedyAgent, RandomAgent

#: Options an ``engine:`` spec takes: the command line, a budget per move, engine options
#: (``threads``, ``seed``, ``strength``: the engine's Threads, Seed and Strength), and ``timeout``:
#: seconds the engine may stay silent beyond its search's own time (default 30).
ENGINE_OPTIONS = ("command", "iterations", "time_ms", "threads", "seed", "strength", "timeout")
#: The kinds of agent and the options each takes (``mcts``: every field of rosen.SearchParams,
#: a network file to guide the search, and a game clock).
KINDS: Dict[str, tuple] = {
    "random": ("seed",),
    "greedy": ("seed",),
    "mcts": tuple(p.name for p in SEARCH_PARAMS) + ("evaluator",) + CLOCK_OPTIONS,
    "net": ("path", "seed"),
    "engine": ENGINE_OPTIONS,
    "alphabeta": ("depth", "hero_weight", "seed"),
    "expectimax": ("depth", "time_ms", "movetime", "hero_weight", "seed", "tt_mb", "evaluator"),
    "uct": ("iterations", "time_ms", "exploration", "threads", "seed", "max_tree_size"),
}
#: Other names for options, as issue 9 and the protocol's ``go movetime`` spell them: a spec is
#: stored with the canonical name (``expectimax:movetime=200`` is ``expectimax:time_ms=200``).
ALIASES: Dict[str, Dict[str, str]] = {"expectimax": {"movetime": "time_ms"}}
#: ``uct``: plain UCT, the textbook search, as a reference opponent (issue 9): the MCTS with
#: uniformly random rollouts to the end of the game, no evaluation cut-off, no priors and no
#: implicit minimax backups; only its budget, exploration constant, threads and seed are open.
UCT_PARAMS: Dict[str, Any] = {"rollout": "random", "rollout_cutoff": 0, "minimax_weight": 0}
#: The kinds that are rosen's MCTS (rosen.MCTSAgent over rosen.SearchParams).
SEARCH_KINDS = ("mcts", "uct")
#: Options whose value is text as written (a file path), never a number.
TEXT_OPTIONS = ("evaluator", "path")
#: The classic searchers (cpp/classic/), built from their options as keyword arguments.
CLASSIC = {"alphabeta": AlphaBetaAgent, "expectimax": ExpectimaxAgent}


def _parse_value(text: str) -> Any:
    """'100' -> 100, '1.5' -> 1.5, anything else stays a string (rollout=random)."""
    for convert in (int, float):
        try:
            return convert(text)
        except ValueError:
            pass
    return text


def _error(message: str) -> InvalidArgumentError:
    return InvalidArgumentError(f"agent: {message}", "agent")


@dataclass(frozen=True)
class AgentSpec:
    """A recipe for an agent: ``kind`` plus options, as written ``mcts:iterations=1000,rollout=random``.

    ``build(seed)`` makes a fresh agent; the match runner calls it once per game with a seed
    derived from the match seed, so a game does not depend on which worker plays it. An explicit
    ``seed=`` option in the spec wins over the derived one. Options are checked on construction and
    read-only from then on (a spec hashes, and is what it was checked as).
    """

    kind: str
    options: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise _error(f"unknown kind {self.kind!r}; expected one of {', '.join(KINDS)}")
        if not isinstance(self.options, Mapping):
            raise ArgumentTypeError(f"agent: options: expected a dict, got {type(self.options).__name__}", "agent")
        allowed = KINDS[self.kind]
        for alias, name in ALIASES.get(self.kind, {}).items():
            if alias in self.options:
                if name in self.options:
                    raise _error(f"{self.kind}: give {alias} or {name}, not both (they are one budget)")
                options = {name if k == alias else k: v for k, v in self.options.items()}
                object.__setattr__(self, "options", options)  # frozen: the canonical spelling is stored
        # A read-only copy: the caller's dict, changed later, once changed the checked spec behind its
        # back, and so could the spec's own; a spec stays what it was checked (and hashed) as.
        object.__setattr__(self, "options", MappingProxyType(dict(self.options)))
        for key in self.options:
            if key not in allowed:
                raise _error(f"{self.kind}: unknown option {key!r}; expected one of {', '.join(allowed)}")
        if self.kind in SEARCH_KINDS:
            # Let the search check the values now (iterations=-1, rollout=foo), not mid-match.
            try:
                params = {k: v for k, v in self._search_options().items() if k not in ("evaluator",) + CLOCK_OPTIONS}
                SearchParams(**check_clock(self.options.get("clock_ms"), self.options.get("increment_ms", 0), params))
            except ValueError as exc:
                raise _error(f"{self.kind}: {exc}") from None
        for key in TEXT_OPTIONS:
            if key in self.options and not self._no_file_to_read(key):  # a network file is read and checked now
                _check_network(self.kind, key, self.options[key])
        if self.kind in ("random", "greedy", "net") and "seed" in self.options:
            try:  # the other kinds' seeds are checked with the rest of their options
                check_int("seed", self.options["seed"], 0, MAX_SEED)
            except ValueError as exc:
                raise _error(f"{self.kind}: {exc}") from None
        if self.kind == "net" and "path" not in self.options:
            raise _error("net: expected path=<network file>, e.g. net:path=nets/latest.npz")
        if self.kind in CLASSIC:
            try:  # checks the values in C++; a searcher allocates nothing before its first search
                CLASSIC[self.kind](**self.options)
            except ValueError as exc:
                raise _error(f"{self.kind}: {exc}") from None
        if self.kind == "engine":
            if not isinstance(self.options.get("command"), str):
                raise _error("engine: expected command=<engine command line>, e.g. "
                             "engine:command=rosen engine,iterations=2000")
            if "iterations" not in self.options and "time_ms" not in self.options:
                raise _error("engine: give iterations=N or time_ms=MS (or both)")
            _check_engine_options(self.options)

    def as_mcts(self) -> "AgentSpec":
        """A ``uct`` spec as the ``mcts`` spec it is (``uct:iterations=300`` ->
        ``mcts:rollout=random,rollout_cutoff=0,minimax_weight=0,iterations=300``); others unchanged."""
        return AgentSpec("mcts", self._search_options()) if self.kind == "uct" else self

    def _search_options(self) -> Dict[str, Any]:
        """An ``mcts`` or ``uct`` spec's options as rosen.MCTSAgent takes them."""
        return dict(UCT_PARAMS, **self.options) if self.kind == "uct" else dict(self.options)

    def _no_file_to_read(self, key: str) -> bool:
        """``mcts:evaluator=auto`` (the game's shipped network, chosen when the game is known) or
        ``evaluator=none`` (rollouts, as the frontends read it): nothing to read now."""
        return key == "evaluator" and (self.kind == "mcts" and is_auto(self.options[key])
                                       or is_no_evaluator(self.options[key]))

    def build(self, seed: int = 0) -> Agent:
        """A new agent for one game; ``seed`` is used unless the spec fixes its own."""
        options = dict(self.options)
        options.setdefault("seed", seed)
        if self.kind == "random":
            return RandomAgent(**options)
        if self.kind == "greedy":
            return GreedyAgent(**options)
        if self.kind == "engine":
            return _engine_agent(options)
        if self.kind in CLASSIC:
            return CLASSIC[self.kind](**options)
        if self.kind == "net":
            return NetAgent(**options)
        return MCTSAgent(**dict(self._search_options(), seed=options["seed"]))

    def __hash__(self) -> int:
        return hash((self.kind, frozenset(self.options.items())))

    def __reduce__(self) -> Any:
        # A mapping proxy does not pickle; and the spec was checked when made, so it is restored
        # without the checks (which read a network file: one gone since would fail the unpickling).
        return _checked_spec, (self.kind, dict(self.options))

    def __str__(self) -> str:
        if not self.options:
            return self.kind
        return self.kind + ":" + ",".join(f"{k}={v}" for k, v in self.options.items())

    def __repr__(self) -> str:
        if all(_reads_back(key, value) for key, value in self.options.items()):
            return f"parse_agent_spec({str(self)!r})"
        return f"AgentSpec({self.kind!r}, {dict(self.options)!r})"  # e.g. a command with a comma


def _checked_spec(kind: str, options: Dict[str, Any]) -> AgentSpec:
    """A pickled :class:`AgentSpec`, restored as it was checked."""
    spec = object.__new__(AgentSpec)
    object.__setattr__(spec, "kind", kind)
    object.__setattr__(spec, "options", MappingProxyType(dict(options)))
    return spec


def _reads_back(key: str, value: Any) -> bool:
    """Whether ``key=value`` in a spec's text reads back as ``value`` (no comma, no surrounding
    spaces, the same type)."""
    text = str(value)
    if not text or "," in text or text != text.strip():
        return False
    back = text if key in TEXT_OPTIONS else _parse_value(text)
    return type(back) is type(value) and back == value


def _check_network(kind: str, key: str, value: Any) -> None:
    from ..learning.evaluator import as_evaluator  # rosen.learning only for specs that name a network

    try:
        as_evaluator(value)  # cached: the agents built from this spec share what is read here
    except ValueError as exc:  # as_evaluator names its argument `evaluator`; here that is the key
        raise _error(f"{kind}: {restated(exc, 'evaluator', key)}") from None


def _check_engine_options(options: Mapping[str, Any]) -> None:
    """Check an ``engine:`` spec's values now, not when the first game starts the process."""
    try:
        if not shlex.split(options["command"]):
            raise _error("engine: command: expected an engine command line, got an empty one")
    except ValueError as exc:  # an unbalanced quote
        raise _error(f"engine: command: cannot split {options['command']!r} into words ({exc})") from None
    for key, low, high in (("iterations", 1, MAX_NODES), ("time_ms", 1, MAX_MS), ("threads", 1, 256),
                           ("seed", 0, None), ("strength", None, None)):  # each engine has its own levels
        if key in options:
            try:
                check_int(key, options[key], low, high)
            except ValueError as exc:  # ArgumentTypeError is one too
                raise _error(f"engine: {exc}") from None
    if "timeout" in options:
        try:
            check_timeout(options["timeout"])
        except ValueError as exc:  # ArgumentTypeError is one too
            raise _error(f"engine: {exc}") from None


def _engine_agent(options: Dict[str, Any]) -> Agent:
    """An agent that asks an engine process (rosen's or any other speaking PROTOCOL.md)."""
    engine_options = {"Seed": options["seed"] % 2**31}
    if "threads" in options:
        engine_options["Threads"] = options["threads"]
    if "strength" in options:  # rosen's levels are 1..20; the engine checks the value it is sent
        engine_options["Strength"] = options["strength"]
    return EngineAgent(shlex.split(options["command"]), iterations=options.get("iterations"),
                       time_ms=options.get("time_ms"), options=engine_options, name=f"engine:{options['command']}",
                       timeout=float(options.get("timeout", 30.0)))


def parse_agent_spec(text: str) -> AgentSpec:
    """Read ``kind[:key=value,...]``, e.g. ``random``, ``greedy:seed=2``, ``mcts:iterations=1000``,
    ``engine:command=rosen engine,iterations=2000`` (any engine command speaking PROTOCOL.md),
    ``alphabeta:depth=7``, ``expectimax:time_ms=200`` (or ``movetime=200``), ``uct:iterations=10000`` (plain
    UCT), ``mcts:evaluator=net.npz,iterations=800`` (a search
    guided by a network), ``net:path=net.npz`` (the network's policy, no search)."""
    if not isinstance(text, str):
        raise ArgumentTypeError(f"agent: expected a str like 'mcts:iterations=1000', got {type(text).__name__}", "agent")
    kind, _, rest = text.strip().partition(":")
    options: Dict[str, Any] = {}
    if rest:
        for item in rest.split(","):
            key, eq, value = item.partition("=")
            if not eq or not key.strip() or not value.strip():
                raise _error(f"{text!r}: expected key=value options separated by commas, got {item!r}")
            key, value = key.strip(), value.strip()
            options[key] = value if key in TEXT_OPTIONS else _parse_value(value)
    return AgentSpec(kind.strip().lower(), options)


def parse_agent(text: str, seed: int = 0) -> Agent:
    """An agent straight from its spec text."""
    return parse_agent_spec(text).build(seed)
