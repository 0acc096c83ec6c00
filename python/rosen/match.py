"""The match runner: agent A against agent B on colour-swapped pairs of deals.

Pair ``i`` is the deal ``Position.new(seed + i)`` played twice: game ``2i`` with A as red, game
``2i + 1`` with A as white. Each game gets fresh agents built from their specs with seeds derived
from ``(seed, game, side)``, so a game's result does not depend on which worker played it or in
what order; with an SPRT the match stops at the first pair (in pair order) where the test decides,
so the same seed gives the same match for any number of threads.
"""
from __future__ import annotations

import json
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Callable, Iterator, List, Optional, Sequence, TextIO, Tuple, Union

from ._checks import check_int
from .agents import AgentSpec, parse_agent_spec
from .game import GameRecord, SideStats, _mix, play_game
from .matchstats import SPRT, Estimate, pentanomial_counts, pentanomial_estimate, trinomial_estimate

SpecLike = Union[str, AgentSpec]


def _spec(value: SpecLike, name: str) -> AgentSpec:
    if isinstance(value, AgentSpec):
        return value
    if isinstance(value, str):
        try:
            return parse_agent_spec(value)
        except ValueError as exc:
            raise ValueError(f"{name}: {exc}") from None
    raise TypeError(f"{name}: expected an agent spec str or AgentSpec, got {type(value).__name__}")


def a_points(record: GameRecord, a_colour: str) -> float:
    """Points for agent A in one game: 1 win, 0.5 draw, 0 loss."""
    if record.winner == "draw":
        return 0.5
    return 1.0 if record.winner == a_colour else 0.0


@dataclass
class MatchResult:
    """Totals of a match from agent A's side; ``games`` holds every record in game order."""

    a: str
    b: str
    seed: int
    players: int
    reshuffle: str
    games: List[GameRecord] = field(default_factory=list)
    sprt: Optional[SPRT] = None
    sprt_decision: Optional[str] = None
    seconds: float = 0.0
    interrupted: bool = False

    def _a_colour(self, index: int) -> str:
        return "red" if index % 2 == 0 else "white"

    def wdl(self, colour: Optional[str] = None) -> Tuple[int, int, int]:
        """A's wins, draws, losses; with ``colour`` only the games A played as that colour."""
        w = d = l = 0
        for i, g in enumerate(self.games):
            ac = self._a_colour(i)
            if colour is not None and ac != colour:
                continue
            p = a_points(g, ac)
            w += p == 1.0
            d += p == 0.5
            l += p == 0.0
        return w, d, l

    def pair_scores(self) -> List[float]:
        """A's points in each complete pair (0 .. 2)."""
        n = len(self.games) // 2 * 2
        return [a_points(self.games[i], "red") + a_points(self.games[i + 1], "white") for i in range(0, n, 2)]

    @property
    def pentanomial(self) -> Tuple[int, int, int, int, int]:
        return pentanomial_counts(self.pair_scores())

    @property
    def estimate(self) -> Estimate:
        """A's score rate with the pair-based 95% interval (trinomial if no pair is complete)."""
        if len(self.games) >= 2:
            return pentanomial_estimate(self.pentanomial)
        return trinomial_estimate(*self.wdl())

    def side_stats(self, side: str) -> SideStats:
        """Search figures of agent ``side`` ('a' or 'b') summed over all games."""
        total = SideStats()
        for i, g in enumerate(self.games):
            ac = self._a_colour(i)
            colour = ac if side == "a" else ("white" if ac == "red" else "red")
            total.merge(g.stats[colour])
        return total

    def llr(self) -> Optional[float]:
        return self.sprt.llr(self.pentanomial) if self.sprt else None

    def summary(self) -> str:
        """The report ``rosen match`` prints."""
        w, d, l = self.wdl()
        est = self.estimate
        lines = [
            f"A: {self.a}",
            f"B: {self.b}",
            f"games {len(self.games)} ({len(self.games) // 2} pairs), {self.players} players, "
            f"{self.reshuffle} reshuffle, seed {self.seed}" + (f", {self.seconds:.1f} s" if self.seconds else "")
            + (" -- interrupted" if self.interrupted else ""),
            f"A  W/D/L {w}/{d}/{l}",
            f"score    {est.score:.1%}  95% [{est.low:.1%}, {est.high:.1%}]",
            f"elo      {_fmt_elo(est.elo)}  95% [{_fmt_elo(est.elo_low)}, {_fmt_elo(est.elo_high)}]",
            "pairs    LL {} LD {} DD/WL {} WD {} WW {}".format(*self.pentanomial),
        ]
        for colour in ("red", "white"):
            cw, cd, cl = self.wdl(colour)
            lines.append(f"A as {colour:<5} W/D/L {cw}/{cd}/{cl}")
        for side, name in (("a", "A"), ("b", "B")):
            s = self.side_stats(side)
            if s.moves:
                lines.append(f"{name} search  depth {s.mean_depth:.1f}  nps {s.nps:,.0f} (playouts/s)  "
                             f"{s.time_ms / s.moves:.0f} ms/move  {s.iterations / s.moves:,.0f} playouts/move")
        if self.sprt:
            verdict = {"H1": "H1 accepted", "H0": "H0 accepted", None: "no decision"}[self.sprt_decision]
            lines.append(f"sprt     elo0={self.sprt.elo0:g} elo1={self.sprt.elo1:g} alpha={self.sprt.alpha:g} "
                         f"beta={self.sprt.beta:g}  LLR {self.llr():.2f} [{self.sprt.lower:.2f}, "
                         f"{self.sprt.upper:.2f}]  {verdict} (pentanomial GSPRT)")
        return "\n".join(lines)

    def to_dict(self) -> dict:
        w, d, l = self.wdl()
        est = self.estimate
        return {"a": self.a, "b": self.b, "seed": self.seed, "games": len(self.games), "wins": w, "draws": d,
                "losses": l, "score": est.score, "score_low": est.low, "score_high": est.high,
                "elo": est.elo, "elo_low": est.elo_low, "elo_high": est.elo_high,
                "pentanomial": list(self.pentanomial), "sprt": self.sprt_decision}

    def __repr__(self) -> str:
        w, d, l = self.wdl()
        return f"MatchResult(a={self.a!r}, b={self.b!r}, games={len(self.games)}, wdl=({w}, {d}, {l}))"


def _fmt_elo(value: float) -> str:
    if value == float("inf"):
        return "+inf"
    if value == float("-inf"):
        return "-inf"
    return f"{value:+.0f}"


def play_pair(a: AgentSpec, b: AgentSpec, *, seed: int, pair: int, players: int = 2,
              reshuffle: str = "eager") -> Tuple[GameRecord, GameRecord]:
    """Both games of pair ``pair``: the deal ``seed + pair``, A red first, then A white."""
    deal = seed + pair
    records = []
    for game in (2 * pair, 2 * pair + 1):
        seed_a, seed_b = _mix(seed, game, 1) >> 1, _mix(seed, game, 2) >> 1
        a_red = game % 2 == 0
        red, white = (a.build(seed_a), b.build(seed_b)) if a_red else (b.build(seed_b), a.build(seed_a))
        try:
            rec = play_game(red, white, seed=deal, players=players, reshuffle=reshuffle,
                            red_name=str(a if a_red else b), white_name=str(b if a_red else a))
        finally:
            _close(red, white)
        rec.extra = {"game": game, "pair": pair, "a_colour": "red" if a_red else "white",
                     "agent_seeds": {"a": seed_a, "b": seed_b}}
        records.append(rec)
    return records[0], records[1]


def _close(*agents) -> None:
    """Agents that hold a resource (an engine process) give it back after their game."""
    for agent in agents:
        close = getattr(agent, "close", None)
        if close is not None:
            close()


def run_match(a: SpecLike, b: SpecLike, *, games: int = 100, seed: int = 0, players: int = 2,
              reshuffle: str = "eager", threads: int = 1, sprt: Optional[SPRT] = None,
              on_game: Optional[Callable[[GameRecord], None]] = None,
              progress: Optional[Callable[[MatchResult], None]] = None,
              stop_on_interrupt: bool = False) -> MatchResult:
    """Play up to ``games`` games (an even number: ``games // 2`` pairs) of A against B.

    ``on_game`` sees each record in game order (the ``--jsonl`` writer); ``progress`` sees the
    result so far after each pair. With ``sprt`` the match stops at the first pair where the
    test decides. With ``stop_on_interrupt`` a Ctrl-C ends the match early instead of raising,
    and the result (marked ``interrupted``) holds the pairs completed until then.
    """
    spec_a, spec_b = _spec(a, "a"), _spec(b, "b")
    check_int("games", games, 2)
    if games % 2:
        raise ValueError(f"games: expected an even number (games are colour-swapped pairs), got {games}")
    check_int("seed", seed, 0)
    check_int("threads", threads, 1)
    if players not in (2, 4):
        raise ValueError(f"players: expected 2 or 4, got {players}")
    if reshuffle not in ("eager", "lazy"):
        raise ValueError(f"reshuffle: expected 'eager' or 'lazy', got {reshuffle!r}")
    for name, spec in (("a", spec_a), ("b", spec_b)):
        try:
            _close(spec.build(0))  # fail now (a bad option, an engine that will not start), not in a worker
        except ValueError as exc:
            raise ValueError(f"{name}: {exc}") from None

    result = MatchResult(a=str(spec_a), b=str(spec_b), seed=seed, players=players, reshuffle=reshuffle, sprt=sprt)
    start = time.perf_counter()
    pairs = _pairs_in_order(spec_a, spec_b, games // 2, seed, players, reshuffle, threads)
    try:
        for first, second in pairs:
            result.games += [first, second]
            if on_game:
                on_game(first)
                on_game(second)
            result.seconds = time.perf_counter() - start
            if sprt:
                result.sprt_decision = sprt.decide(result.pentanomial)
            if progress:
                progress(result)
            if result.sprt_decision:
                break
    except KeyboardInterrupt:
        if not stop_on_interrupt:
            raise
        result.interrupted = True  # Ctrl-C: keep the complete pairs played so far
    finally:
        pairs.close()
    result.seconds = time.perf_counter() - start
    return result


def _pairs_in_order(a: AgentSpec, b: AgentSpec, pairs: int, seed: int, players: int, reshuffle: str,
                    threads: int) -> Iterator[Tuple[GameRecord, GameRecord]]:
    """Yield the pairs in pair order, played by ``threads`` workers a bounded distance ahead.

    Threads suffice: the search releases the GIL. Only ``2 * threads`` pairs are in flight, so
    stopping early (SPRT) wastes little work.
    """
    def job(i: int):
        return play_pair(a, b, seed=seed, pair=i, players=players, reshuffle=reshuffle)

    if threads == 1:
        for i in range(pairs):
            yield job(i)
        return
    with ThreadPoolExecutor(max_workers=threads) as pool:
        pending = {}
        next_submit = 0
        try:
            for i in range(pairs):
                while next_submit < pairs and next_submit < i + 2 * threads:
                    pending[next_submit] = pool.submit(job, next_submit)
                    next_submit += 1
                yield pending.pop(i).result()
        finally:
            for fut in pending.values():
                fut.cancel()


# --- output helpers used by the CLI ---------------------------------------------------------

def jsonl_writer(stream: TextIO) -> Callable[[GameRecord], None]:
    """An ``on_game`` callback writing one JSON line per game and flushing it."""
    def write(record: GameRecord) -> None:
        stream.write(json.dumps(record.to_json(), separators=(",", ":")) + "\n")
        stream.flush()
    return write


def progress_bar(total_games: int, stream: TextIO = sys.stderr, width: int = 30) -> Callable[[MatchResult], None]:
    """A one-line progress bar redrawn after each pair (for a terminal)."""
    def show(result: MatchResult) -> None:
        n = len(result.games)
        filled = int(width * n / total_games)
        w, d, l = result.wdl()
        est = result.estimate
        stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {n}/{total_games}  "
                     f"W/D/L {w}/{d}/{l}  elo {_fmt_elo(est.elo)}  {result.seconds:.0f}s ")
        stream.flush()
    return show


def read_jsonl(path: str) -> List[dict]:
    """The game records of a ``--jsonl`` file."""
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def summarise_jsonl(path: str) -> MatchResult:
    """The match totals of a ``--jsonl`` file, e.g. to report it again with other statistics."""
    games = [GameRecord.from_json(d) for d in read_jsonl(path)]
    if not games:
        raise ValueError(f"path: {path!r} holds no games")
    first = games[0]
    for i, g in enumerate(games):
        if g.extra.get("game", i) != i:
            raise ValueError(f"path: line {i + 1} is game {g.extra.get('game')}, expected game {i}")
    return MatchResult(a=first.red, b=first.white, seed=first.seed, players=first.players,
                       reshuffle=first.reshuffle, games=games)


__all__: Sequence[str] = ("MatchResult", "a_points", "jsonl_writer", "play_pair", "progress_bar", "read_jsonl",
                          "run_match", "summarise_jsonl")
