"""Monte Carlo tree search for Rosenkönig (2 players and the 4-player team variant).

The search runs in C++ with the GIL released. It never reads the order of the draw pile
(RULES.md R14): the root is reduced to what a player may know, and every draw is a chance event
whose card is sampled uniformly from the cards the pile can yield. See docs/search.md.

>>> import rosen
>>> result = rosen.search(rosen.Position.new(seed=1), iterations=200, seed=7)
>>> result.best_move in rosen.Position.new(seed=1).legal_moves()
True
"""
from __future__ import annotations

import numbers
from typing import Any, List, NamedTuple, Optional

from . import _core
from ._core import Move, Position

#: Bytes one tree node takes in the arena (memory per node).
NODE_BYTES: int = _core._search_node_bytes

_FIELDS = ("iterations", "time_ms", "exploration", "rollout", "rollout_cutoff", "reward", "margin_weight", "threads",
           "seed", "max_nodes", "prior_weight", "temperature", "hero_cost", "draw_value", "block_weight",
           "eval_scale")
_INT_FIELDS = ("iterations", "time_ms", "rollout_cutoff", "threads", "seed", "max_nodes")
_FLOAT_FIELDS = ("exploration", "margin_weight", "prior_weight", "temperature", "hero_cost", "draw_value", "block_weight",
                 "eval_scale")
_STR_FIELDS = ("rollout", "reward")


class SearchParams:
    """Every parameter of the search, keyword-only, checked on construction.

    iterations: playouts over all threads (0 = no limit; then time_ms must be set).
    time_ms: wall-clock budget in milliseconds (0 = no limit).
    exploration: the UCT constant c in q + c * sqrt(ln N / n); rewards lie in [0, 1].
    rollout: "heuristic" (territory-aware policy) or "random" (uniformly random: plain UCT).
    rollout_cutoff: stop a playout after this many plies and evaluate the position (0 = never).
    reward: "win" (1 / 0.5 / 0) or "margin" (the squashed final score margin).
    margin_weight: with reward="win", blend in the squashed margin with this weight (0..1).
    threads: root parallelism, one tree per thread, statistics merged at the root.
    seed: with threads=1 and an iteration budget, equal seeds give equal results.
    max_nodes: size of the node arena over all threads; expansion stops when it is full.
    prior_weight: progressive bias, + prior_weight * prior / (visits + 1) in selection; the
        priors are the heuristic policy's (with rollout="random" too when this is > 0).
    temperature, hero_cost, draw_value, block_weight, eval_scale: the heuristic's knowledge
        (docs/search.md).

    Raises TypeError or ValueError; the error's message starts with the field's name and
    ValueErrors carry it as ``.field``.
    """

    __slots__ = _FIELDS

    def __init__(self, *, iterations: int = 1000, time_ms: int = 0, exploration: float = 0.5,
                 rollout: str = "heuristic", rollout_cutoff: int = 0, reward: str = "win",
                 margin_weight: float = 0.0, threads: int = 1, seed: int = 0, max_nodes: int = 1_000_000,
                 prior_weight: float = 0.0, temperature: float = 4.0, hero_cost: float = 25.0,
                 draw_value: float = 2.0, block_weight: float = 1.0, eval_scale: float = 20.0) -> None:
        values = dict(iterations=iterations, time_ms=time_ms, exploration=exploration, rollout=rollout,
                      rollout_cutoff=rollout_cutoff, reward=reward, margin_weight=margin_weight, threads=threads,
                      seed=seed, max_nodes=max_nodes, prior_weight=prior_weight, temperature=temperature,
                      hero_cost=hero_cost, draw_value=draw_value, block_weight=block_weight, eval_scale=eval_scale)
        for name in _INT_FIELDS:
            v = values[name]
            if not isinstance(v, int) or isinstance(v, bool):
                raise TypeError(f"{name}: expected an int, got {type(v).__name__}")
            if v < 0:
                error = ValueError(f"{name}: expected a number >= 0, got {v}")
                error.field = name  # type: ignore[attr-defined]
                raise error
            if v >= 2**64:
                error = ValueError(f"{name}: expected a number below 2**64")
                error.field = name  # type: ignore[attr-defined]
                raise error
        for name in _FLOAT_FIELDS:
            v = values[name]
            if not isinstance(v, numbers.Real) or isinstance(v, bool):
                raise TypeError(f"{name}: expected a number, got {type(v).__name__}")
            values[name] = float(v)
        for name in _STR_FIELDS:
            if not isinstance(values[name], str):
                raise TypeError(f"{name}: expected a str, got {type(values[name]).__name__}")
        if values["threads"] > 2**31 - 1 or values["rollout_cutoff"] > 2**31 - 1:
            name = "threads" if values["threads"] > 2**31 - 1 else "rollout_cutoff"
            error = ValueError(f"{name}: too large")
            error.field = name  # type: ignore[attr-defined]
            raise error
        _core._check_search_params(**values)
        for name, v in values.items():
            object.__setattr__(self, name, v)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("SearchParams is immutable; use replace(**changes)")

    def as_dict(self) -> dict:
        """The fields by name, as keyword arguments."""
        return {name: getattr(self, name) for name in self.__slots__}

    def replace(self, **changes: Any) -> "SearchParams":
        """A copy with some fields changed (checked again)."""
        return SearchParams(**{**self.as_dict(), **changes})

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SearchParams) and self.as_dict() == other.as_dict()

    def __hash__(self) -> int:
        return hash(tuple(self.as_dict().items()))

    def __repr__(self) -> str:
        return "SearchParams(" + ", ".join(f"{k}={v!r}" for k, v in self.as_dict().items()) + ")"

    def __reduce__(self):  # pickling goes through the keyword arguments
        return (_from_dict, (self.as_dict(),))


def _from_dict(d: dict) -> SearchParams:
    return SearchParams(**d)


class MoveInfo(NamedTuple):
    """Statistics of one root move, from the view of the side to move."""

    move: Move
    visits: int
    winrate: float  #: mean reward 0..1 (1 = a sure win for the mover)
    prior: float    #: the heuristic policy's probability (uniform with rollout="random")
    score: float    #: expected final score margin, own minus opponent (R11)


class SearchResult:
    """What a search found; numbers are from the view of the side to move at the root.

    best_move: the most visited root move. moves: MoveInfo per root move, most visited first.
    pv: the principal variation (most visited line), ending at the first draw, whose card is
    unknown. move_pvs: such a line for each entry of moves, in the same order. depth: mean plies inside the tree per iteration; seldepth: the deepest. nodes: tree
    nodes (all threads). iterations: playouts of this search. reused_visits: root visits kept
    from the previous search by tree reuse. nps: iterations per second. time_ms: elapsed.
    winrate, score: of the best move.
    """

    __slots__ = ("best_move", "moves", "pv", "move_pvs", "depth", "seldepth", "nodes", "iterations", "reused_visits", "nps",
                 "time_ms", "winrate", "score")

    def __init__(self, raw: Any) -> None:
        self.best_move = Move(raw.best_move)
        self.moves: List[MoveInfo] = [MoveInfo(Move(m), v, w, p, s) for (m, v, w, p, s) in raw.moves]
        self.pv: List[Move] = [Move(m) for m in raw.pv]
        self.move_pvs: List[List[Move]] = [[Move(m) for m in line] for line in raw.move_pvs]
        self.depth: float = raw.depth
        self.seldepth: int = raw.seldepth
        self.nodes: int = raw.nodes
        self.iterations: int = raw.iterations
        self.reused_visits: int = raw.reused_visits
        self.nps: float = raw.nps
        self.time_ms: float = raw.time_ms
        self.winrate: float = raw.winrate
        self.score: float = raw.score

    @property
    def visits(self) -> int:
        """Visits of all root moves together (iterations plus what tree reuse kept)."""
        return sum(m.visits for m in self.moves)

    def __repr__(self) -> str:
        top = ", ".join(f"{m.move}:{m.visits}/{m.winrate:.3f}" for m in self.moves[:5])
        return (f"SearchResult(best_move={str(self.best_move)!r}, winrate={self.winrate:.3f}, score={self.score:+.1f}, "
                f"pv='{' '.join(str(m) for m in self.pv)}', depth={self.depth:.1f}, seldepth={self.seldepth}, "
                f"nodes={self.nodes}, iterations={self.iterations}, nps={self.nps:.0f}, time_ms={self.time_ms:.1f}, "
                f"moves=[{top}])")

    def info_lines(self) -> List[str]:
        """The analysis in the engine protocol's `info` format (PROTOCOL.md)."""
        pv = " ".join(str(m) for m in self.pv)
        lines = [f"info depth {self.depth:.1f} seldepth {self.seldepth} nodes {self.nodes} nps {self.nps:.0f} "
                 f"time {self.time_ms:.0f} winrate {self.winrate:.4f} score {self.score:.1f} pv {pv}"]
        for k, (m, line) in enumerate(zip(self.moves, self.move_pvs), 1):
            line_pv = " ".join(str(x) for x in line)
            lines.append(f"info multipv {k} move {m.move} visits {m.visits} winrate {m.winrate:.4f} "
                         f"score {m.score:.1f} prior {m.prior:.4f} pv {line_pv}")
        return lines


def _params(params: Optional[SearchParams], kwargs: dict) -> SearchParams:
    if params is None:
        return SearchParams(**kwargs)
    if not isinstance(params, SearchParams):
        raise TypeError(f"params: expected a rosen.SearchParams, got {type(params).__name__}")
    return params.replace(**kwargs) if kwargs else params


def _check_position(position: Any) -> Position:
    if not isinstance(position, Position):
        raise TypeError(f"position: expected a rosen.Position, got {type(position).__name__}")
    if position.is_terminal:
        raise ValueError("position: the game is over; there is nothing to search")
    return position


class Searcher:
    """A persistent search: keeps its trees between calls and reuses the subtree of a position
    that lies a few plies below the last one searched (our move, their reply, draws between).

    ``Searcher(**params)`` or ``Searcher(params=SearchParams(...))``. ``stop()`` may be called
    from another thread and ends the running search within an iteration; ``reset()`` forgets
    the trees (a new game).
    """

    def __init__(self, params: Optional[SearchParams] = None, **kwargs: Any) -> None:
        self.params = _params(params, kwargs)
        self._searcher = _core._Searcher(**self.params.as_dict())

    def search(self, position: Position) -> SearchResult:
        """Search ``position`` within the budget (the GIL is released meanwhile)."""
        return SearchResult(self._searcher.search(_check_position(position)))

    def stop(self) -> None:
        """End the running search soon (a no-op when none is running)."""
        self._searcher.stop()

    def reset(self) -> None:
        """Forget the trees, so that the next search starts from scratch."""
        self._searcher.reset()

    def __repr__(self) -> str:
        return f"Searcher({self.params!r})"


def search(position: Position, params: Optional[SearchParams] = None, **kwargs: Any) -> SearchResult:
    """One search of ``position`` with fresh trees; parameters as keywords or ``params=``."""
    return Searcher(params, **kwargs).search(position)
