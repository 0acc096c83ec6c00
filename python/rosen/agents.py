"""Players for matches and terminal play: one small interface, three agents, a spec parser.

An agent sees a position and returns a legal move. It is handed positions with the draw pile's
order hidden (R14), so it cannot peek; a plain ``draw`` it returns is dealt by whoever runs the
game. Agents that search report per-move statistics in ``last_stats``.

>>> agent = parse_agent("greedy:seed=3")
>>> move = agent.choose(rosen.Position.new(seed=1))
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Dict, Optional, Protocol, runtime_checkable

from . import _core
from ._checks import check_int
from .search import Searcher, SearchParams

#: Options an ``engine:`` spec takes: the command line, a budget per move, and engine options.
ENGINE_OPTIONS = ("command", "nodes", "movetime", "threads", "seed")


@dataclass(frozen=True)
class MoveStats:
    """What a searching agent reports about one decision (UCI-style analysis figures)."""

    depth: float = 0.0
    seldepth: int = 0
    nodes: int = 0
    iterations: int = 0
    time_ms: float = 0.0

    @property
    def nps(self) -> float:
        """Playouts (iterations) per second of this decision, as the search counts its nps.

        Not tree nodes over time: with tree reuse a search's node count includes nodes kept
        from earlier moves, which would overstate the speed.
        """
        return self.iterations * 1000.0 / self.time_ms if self.time_ms > 0 else 0.0


@runtime_checkable
class Agent(Protocol):
    """The interface every player implements. ``reset`` and ``on_move`` may be no-ops."""

    name: str
    last_stats: Optional[MoveStats]

    def choose(self, position: _core.Position) -> _core.Move:
        """A legal move in ``position`` (which is not terminal)."""

    def reset(self) -> None:
        """Forget everything about the previous game."""

    def on_move(self, move: _core.Move) -> None:
        """Told every move actually played (draws as ``draw:<card>``), by either side."""


def _mover_colour(position: _core.Position) -> int:
    """0 for red, 1 for white: the colour of the player to move ('r', 'w', 'r1', 'w2', ...)."""
    return 0 if position.turn.startswith("r") else 1


class _SimpleAgent:
    """Shared plumbing of the agents that do not search."""

    name = "agent"

    def __init__(self, seed: int = 0) -> None:
        self.seed = check_int("seed", seed, 0)
        self._rng = random.Random(self.seed)
        self.last_stats: Optional[MoveStats] = None

    def reset(self) -> None:
        self._rng = random.Random(self.seed)

    def on_move(self, move: _core.Move) -> None:
        pass

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed})"

    @staticmethod
    def _legal(position: _core.Position) -> list:
        moves = position.legal_moves()
        if not moves:
            raise ValueError("position: the game is over, there is no move to choose")
        return moves


class RandomAgent(_SimpleAgent):
    """A uniformly random legal move from a seeded generator."""

    name = "random"

    def choose(self, position: _core.Position) -> _core.Move:
        return self._rng.choice(self._legal(position))


class GreedyAgent(_SimpleAgent):
    """One ply of look-ahead: the move that maximises own score minus the opponent's right after it.

    A draw (or pass) changes no tokens, so it is worth the current difference; ties are broken by
    the seeded generator so that equal moves are not always taken in notation order.
    """

    name = "greedy"

    def choose(self, position: _core.Position) -> _core.Move:
        moves = self._legal(position)
        me = _mover_colour(position)
        best: list = []
        best_value = None
        for move in moves:
            if move.kind in ("play", "hero"):
                scores = position.play(move).scores
            else:
                scores = position.scores
            value = scores[me] - scores[1 - me]
            if best_value is None or value > best_value:
                best, best_value = [move], value
            elif value == best_value:
                best.append(move)
        return best[0] if len(best) == 1 else self._rng.choice(best)


class MCTSAgent:
    """Monte Carlo tree search through ``rosen.Searcher``, one searcher per agent.

    The searcher is kept for the whole game so its tree can be reused from move to move;
    ``reset`` clears it between games. Keyword arguments are those of ``rosen.SearchParams``.
    """

    name = "mcts"

    def __init__(self, **params: Any) -> None:
        options = search_options()
        unknown = sorted(set(params) - set(options))
        if unknown:
            raise ValueError(f"{unknown[0]}: not a search option; expected one of {', '.join(options)}")
        self.params: Dict[str, Any] = dict(params)
        self._searcher = Searcher(**self.params)
        self.last_stats: Optional[MoveStats] = None
        self.last_result = None

    def choose(self, position: _core.Position) -> _core.Move:
        result = self._searcher.search(position)
        self.last_result = result
        self.last_stats = MoveStats(depth=float(result.depth), seldepth=int(result.seldepth),
                                    nodes=int(result.nodes), iterations=int(result.iterations),
                                    time_ms=float(result.time_ms))
        return result.best_move

    def reset(self) -> None:
        self._searcher.reset()
        self.last_stats = None
        self.last_result = None

    def on_move(self, move: _core.Move) -> None:
        # The searcher finds the new position in its old tree by itself; nothing to forward.
        pass

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.params.items())
        return f"MCTSAgent({args})"


def search_options() -> tuple:
    """The option names an ``mcts:`` spec accepts: the fields of ``rosen.SearchParams``."""
    return tuple(SearchParams().as_dict())


# --- agent specs ----------------------------------------------------------------------------

_KINDS = ("random", "greedy", "mcts", "engine")


def _parse_value(text: str) -> Any:
    """'100' -> 100, '1.5' -> 1.5, anything else stays a string (rollout=random)."""
    for convert in (int, float):
        try:
            return convert(text)
        except ValueError:
            pass
    return text


@dataclass(frozen=True)
class AgentSpec:
    """A recipe for an agent: ``kind`` plus options, as written ``mcts:iterations=1000,rollout=random``.

    ``build(seed)`` makes a fresh agent; the match runner calls it once per game with a seed
    derived from the match seed, so a game does not depend on which worker plays it. An explicit
    ``seed=`` option in the spec wins over the derived one.
    """

    kind: str
    options: Dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.kind not in _KINDS:
            raise ValueError(f"agent: unknown kind {self.kind!r}; expected one of {', '.join(_KINDS)}")
        allowed = {"mcts": search_options(), "engine": ENGINE_OPTIONS}.get(self.kind, ("seed",))
        for key in self.options:
            if key not in allowed:
                raise ValueError(f"agent {self.kind}: unknown option {key!r}; expected one of {', '.join(allowed)}")
        if self.kind == "mcts":
            # Let the search check the values now (iterations=-1, rollout=foo), not mid-match.
            try:
                SearchParams(**self.options)
            except (TypeError, ValueError) as exc:
                raise ValueError(f"agent mcts: {exc}") from None
        if self.kind == "engine":
            if not isinstance(self.options.get("command"), str):
                raise ValueError("agent engine: expected command=<engine command line>, e.g. "
                                 "engine:command=rosen engine,nodes=2000")
            if "nodes" not in self.options and "movetime" not in self.options:
                raise ValueError("agent engine: give nodes=N or movetime=MS (or both)")

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
        return MCTSAgent(**options)

    def __str__(self) -> str:
        if not self.options:
            return self.kind
        return self.kind + ":" + ",".join(f"{k}={v}" for k, v in self.options.items())

    def __repr__(self) -> str:
        return f"parse_agent_spec({str(self)!r})"


def _engine_agent(options: Dict[str, Any]) -> Agent:
    """An agent that asks an engine process (rosen's or any other speaking PROTOCOL.md)."""
    import shlex

    from .engine_client import EngineAgent

    engine_options = {"Seed": options["seed"] % 2**31}
    if "threads" in options:
        engine_options["Threads"] = options["threads"]
    return EngineAgent(shlex.split(options["command"]), nodes=options.get("nodes"), movetime=options.get("movetime"),
                       options=engine_options, name=f"engine:{options['command']}")


def parse_agent_spec(text: str) -> AgentSpec:
    """Read ``kind[:key=value,...]``, e.g. ``random``, ``greedy:seed=2``, ``mcts:iterations=1000``,
    ``engine:command=rosen engine,nodes=2000`` (any engine command speaking PROTOCOL.md)."""
    if not isinstance(text, str):
        raise TypeError(f"agent: expected a str like 'mcts:iterations=1000', got {type(text).__name__}")
    kind, _, rest = text.strip().partition(":")
    options: Dict[str, Any] = {}
    if rest:
        for item in rest.split(","):
            key, eq, value = item.partition("=")
            if not eq or not key.strip() or not value.strip():
                raise ValueError(f"agent {text!r}: expected key=value options separated by commas, got {item!r}")
            options[key.strip()] = _parse_value(value.strip())
    return AgentSpec(kind.strip().lower(), options)


def parse_agent(text: str, seed: int = 0) -> Agent:
    """An agent straight from its spec text."""
    return parse_agent_spec(text).build(seed)
