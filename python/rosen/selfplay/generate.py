"""Self-play in memory: :func:`generate` plays a range of games in C++ (threads, GIL released)
and returns a :class:`SelfPlayBatch` -- the rows of docs/selfplay.md, "Shards" as NumPy columns and
each game as a match record that :func:`rosen.match.replay` replays.

Game ``i`` depends only on ``(seed, i)``, the agent and the rules (cpp/selfplay/selfplay.h says
how every seed is derived), so any split of a range and any number of threads give the same
bytes.

>>> from rosen.selfplay import generate
>>> batch = generate(2, seed=1, agent="greedy")
>>> len(batch.games), batch.rows["action"].dtype.name, batch.games[0]["winner"] in ("red", "white", "draw")
(2, 'uint8', True)
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from .. import _core
from ..agents.spec import AgentSpec, parse_agent_spec
from ..errors import InvalidArgumentError, RosenError, check_int, check_players
from ..search import is_auto, is_no_evaluator, run_interruptibly

#: The agents self-play can run (each in C++): ``random``, ``greedy``, ``mcts:<search params>`` and
#: ``uct`` (recorded as the mcts spec it stands for).
AGENTS = ("random", "greedy", "mcts", "uct")
#: Names of the row columns, in the order of the spec.
COLUMNS = ("game", "ply", "players", "reshuffle", "tokens", "crown", "hands", "discard", "pile", "heroes", "to_move",
           "legal", "visits", "root_value", "root_margin", "action", "result", "final_margin", "weight", "full_search")
WINNERS = ("red", "white", "draw")


@lru_cache(maxsize=1)
def _move_names() -> Tuple[str, ...]:
    return tuple(_core._selfplay_move_names())


@dataclass
class SelfPlayBatch:
    """The output of :func:`generate`: ``rows`` (column name -> array, rows in (game, ply) order)
    and ``games`` (one match record per game, in game order). ``seconds`` is the wall clock of the
    C++ generation, ``search_seconds`` the part spent inside searches, ``iterations`` the searches'
    playouts."""

    rows: Dict[str, np.ndarray]
    games: List[Dict[str, Any]]
    seconds: float = 0.0
    search_seconds: float = 0.0
    iterations: int = 0
    settings: Dict[str, Any] = field(default_factory=dict)

    @property
    def num_rows(self) -> int:
        """How many rows the batch holds (the length of every column)."""
        return len(self.rows["game"])

    def __repr__(self) -> str:  # a summary: the dataclass's own printed every array and game
        return (f"SelfPlayBatch(games={len(self.games)}, rows={self.num_rows}, seconds={self.seconds:.3f}, "
                f"iterations={self.iterations}, agent={self.settings.get('agent')!r})")

    @classmethod
    def concat(cls, batches: Sequence["SelfPlayBatch"]) -> "SelfPlayBatch":
        """Consecutive batches as one (e.g. the shards of a run)."""
        if not batches:
            raise InvalidArgumentError("batches: expected at least one batch", "batches")
        rows = {name: np.concatenate([b.rows[name] for b in batches]) for name in batches[0].rows}
        return cls(rows=rows, games=[g for b in batches for g in b.games],
                   seconds=sum(b.seconds for b in batches), search_seconds=sum(b.search_seconds for b in batches),
                   iterations=sum(b.iterations for b in batches), settings=dict(batches[0].settings))


def agent_spec(agent: Any, players: Optional[int] = None) -> AgentSpec:
    """The agent spec of a self-play run, checked: a kind of :data:`AGENTS`; an mcts agent searches
    by iterations (a time budget is not reproducible). Errors name the agent and the key. With
    ``players``, ``evaluator=auto`` becomes the network it stands for in that game (``builtin`` or
    ``builtin-team``), so a run records the network it played with."""
    spec = (agent if isinstance(agent, AgentSpec) else parse_agent_spec(agent)).as_mcts()
    evaluator = spec.options.get("evaluator")
    if spec.kind == "mcts" and is_auto(evaluator):
        if players is None:
            raise InvalidArgumentError("agent: mcts: evaluator: 'auto' names the network of the game; give players",
                                       "agent")
        from ..learning.network import builtin_for

        spec = AgentSpec(spec.kind, {**spec.options, "evaluator": builtin_for(check_players(players))})
    if spec.kind not in AGENTS:
        raise InvalidArgumentError(f"agent: self-play plays {', '.join(AGENTS)}; got {spec.kind!r}", "agent")
    if spec.kind != "mcts" and "seed" in spec.options:  # mcts: rosen.SearchParams checked it
        try:
            check_int("seed", spec.options["seed"], 0, 2**64 - 1)
        except RosenError as exc:
            raise type(exc)(f"agent: {spec.kind}: {exc}", "agent") from None
    timed = {"time_ms": spec.options.get("time_ms", 0) != 0, "clock_ms": "clock_ms" in spec.options}
    for key, what in (("time_ms", "a time budget"), ("clock_ms", "a game clock")):
        if spec.kind == "mcts" and timed[key]:
            raise InvalidArgumentError(f"agent: mcts: {key}: an agent played in C++ (self-play, the VecEnv's "
                                       f"opponent) searches by iterations only ({what} is not reproducible); "
                                       "give iterations=N", "agent")
    return spec


def agent_network(agent: Any, players: Optional[int] = None) -> Any:
    """The network an mcts agent spec's ``evaluator=`` names (a :class:`rosen.learning.Network`,
    read once: files are cached while unchanged), or None; ``evaluator=auto`` needs ``players``."""
    spec = agent_spec(agent, players)
    evaluator = spec.options.get("evaluator") if spec.kind == "mcts" else None
    if is_no_evaluator(evaluator):  # None, or "none" / "": rollouts, as the frontends read it
        return None
    from ..learning.evaluator import as_evaluator

    return as_evaluator(evaluator).network


def _core_agent(spec: AgentSpec, network: Any = None) -> Dict[str, Any]:
    """The agent as the C++ generator takes it. An mcts search runs on one thread whatever the
    spec says: parallelism is across games (``threads``). ``network``: the spec's ``evaluator``
    already read (a :class:`rosen.learning.Network`), used instead of the file it names."""
    options = dict(spec.options)
    seed = options.get("seed", 0)
    evaluator = options.pop("evaluator", None)  # a network guiding every search (docs/learning.md)
    if network is not None and (spec.kind != "mcts" or is_no_evaluator(evaluator)):
        raise InvalidArgumentError(f"network: stands for the agent's evaluator=, but {str(spec)!r} names none "
                                   "(give the spec evaluator=PATH, or no network)", "network")
    if spec.kind != "mcts":
        return {"agent": spec.kind, "params": {}, "agent_seed": seed}
    options["threads"] = 1
    core = None
    if not is_no_evaluator(evaluator):
        from ..learning.evaluator import as_evaluator

        core = as_evaluator(evaluator if network is None else network)._core
    return {"agent": "mcts", "params": options, "agent_seed": seed, "network": core}


def generate(games: int, *, seed: int = 0, first_game: int = 0, players: int = 2, reshuffle: str = "eager",
             agent: str = "mcts:iterations=800", threads: int = 1, temperature: float = 1.0,
             temperature_plies: int = 0, dirichlet_alpha: float = 0.3, dirichlet_fraction: float = 0.0,
             full_search_probability: float = 1.0, cheap_iterations: int = 100,
             record_cheap: bool = False, network: Any = None) -> SelfPlayBatch:
    """Play games ``[first_game, first_game + games)`` of the run ``seed`` by ``agent`` against itself.

    ``agent``: ``random``, ``greedy`` or ``mcts:<rosen.SearchParams fields>`` (``iterations``, not
    ``time_ms``; the spec's ``threads`` is replaced by 1: games run on ``threads`` workers instead;
    ``evaluator=PATH`` guides every search with that network file).
    Every search sees the position with the pile order hidden (R14).

    Exploration of the mcts agent, each off by default (KataGo's choices: cheap searches use
    neither noise nor temperature):

    - ``temperature``, ``temperature_plies``: during the first ``temperature_plies`` plies a full
      search plays a move drawn with probability ~ visits^(1/temperature), else the most visited;
    - ``dirichlet_alpha``, ``dirichlet_fraction``: Dirichlet(alpha) noise mixed into the root
      priors of full searches; priors order the root's first visits and, with the spec's
      ``prior_weight > 0``, weigh in every selection there (UCT has no other use for them);
    - ``full_search_probability``, ``cheap_iterations``, ``record_cheap`` (playout-cap
      randomisation): a decision is a full search with this probability, else a search of
      ``cheap_iterations`` whose row is kept only with ``record_cheap`` (weight 0, full_search False).

    ``network``: the agent's ``evaluator=`` network already read (a :class:`rosen.learning.Network`),
    used instead of reading the file the spec names; the Ray backend sends the driver's copy to its
    workers this way, so every machine plays with the same network whatever its files and directory.
    A ``network`` for a spec that names no evaluator is an error (it would guide nothing).

    Forced moves (one legal move) are played without a search and write no row. Raises
    :class:`rosen.InvalidArgumentError` / :class:`rosen.ArgumentTypeError` naming a bad argument.
    """
    check_int("games", games, 1, 2**40)
    settings: Dict[str, Any] = dict(
        seed=seed, first_game=first_game, players=players, reshuffle=reshuffle, agent=agent, temperature=temperature,
        temperature_plies=temperature_plies, dirichlet_alpha=dirichlet_alpha, dirichlet_fraction=dirichlet_fraction,
        full_search_probability=full_search_probability, cheap_iterations=cheap_iterations, record_cheap=record_cheap)
    settings["agent"] = str(agent_spec(agent, players))
    try:
        raw = _run(settings, games, threads, network)
    except MemoryError:  # the batch keeps every game in memory, its records allocated up front
        raise InvalidArgumentError(f"games: {games} games do not fit in memory in one batch; write them as a run "
                                   "of shards (rosen selfplay, rosen.selfplay.write_run)", "games") from None
    records = _game_records(raw, players=players, reshuffle=reshuffle, agent=settings["agent"])
    return SelfPlayBatch(rows=raw["rows"], games=records, seconds=raw["seconds"], search_seconds=raw["search_seconds"],
                         iterations=int(raw["iterations"].sum()), settings={**settings, "games": games})


def check_settings(**settings: Any) -> Dict[str, Any]:
    """The keyword arguments of :func:`generate` other than ``games`` and ``threads``, checked
    (errors as generate's) without playing, with the agent spec written the one way ``str(spec)``
    writes it; what a run on disk records and compares (records.py)."""
    # NumPy scalars pass the checks as numbers; what is recorded (run.json) is plain JSON.
    settings = {k: v.item() if hasattr(v, "item") and getattr(v, "shape", None) == () else v
                for k, v in settings.items()}
    settings["agent"] = str(agent_spec(settings["agent"], settings.get("players", 2)))  # generate's default
    _run(settings, 0, 1)
    return settings


def _run(settings: Dict[str, Any], games: int, threads: int, network: Any = None) -> Dict[str, Any]:
    def play(stop: Any = None) -> Any:
        agent = _core_agent(agent_spec(settings["agent"], settings.get("players", 2)), network)
        return _core._selfplay_generate(**agent, games=games, threads=threads, stop=stop,
                                        **{k: v for k, v in settings.items() if k != "agent"})

    if games == 0:  # check_settings' dry run
        return play()
    # In the main thread a Ctrl-C ends the batch once its running games are over (one game's wait).
    flag = _core._StopFlag()
    return run_interruptibly(lambda: play(flag), flag.set, "rosen-selfplay")


def _game_records(raw: Dict[str, Any], *, players: int, reshuffle: str, agent: str) -> List[Dict[str, Any]]:
    """One match-format record per game (rosen.match.game.GameRecord.to_json's keys, plus ``game``)."""
    names = _move_names()
    moves = raw["moves"].tobytes()
    plies = raw["plies"].tolist()
    scores = raw["scores"].tolist()
    records = []
    start = 0
    for k, (game, deal, winner) in enumerate(zip(raw["game"].tolist(), raw["deal_seed"].tolist(),
                                                raw["winner"].tolist())):
        end = start + plies[k]
        records.append({"game": game, "seed": deal, "players": players, "reshuffle": reshuffle, "red": agent,
                        "white": agent, "winner": WINNERS[winner], "scores": scores[k], "plies": plies[k],
                        "moves": [names[b] for b in moves[start:end]]})
        start = end
    return records
