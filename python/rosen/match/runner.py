"""The match runner: agent A against agent B on colour-swapped pairs of deals.

Pair ``i`` is the deal ``Position.new(seed + i)`` played twice: game ``2i`` with A as red, game
``2i + 1`` with A as white. Each game gets fresh agents built from their specs with seeds derived
from ``(seed, game, side)``, so a game's result does not depend on which worker played it or in
what order; with an SPRT the match stops at the first pair (in pair order) where the test decides,
so the same seed gives the same match for any number of threads.
"""
from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Callable, Generator, List, Optional, Sequence, Tuple, Union

from .. import _json
from ..agents.base import close_agents
from ..agents.spec import AgentSpec, parse_agent_spec
from ..errors import MAX_SEED, ArgumentTypeError, InvalidArgumentError, check_choice, check_int, check_players
from .game import GameRecord, MoveObserver, SideStats, _mix, play_game
from .stats import SPRT, Estimate, format_elo, pentanomial_estimate, trinomial_estimate

SpecLike = Union[str, AgentSpec]


def _spec(value: SpecLike, name: str) -> AgentSpec:
    if isinstance(value, AgentSpec):
        return value
    if isinstance(value, str):
        try:
            return parse_agent_spec(value)
        except ValueError as exc:
            raise InvalidArgumentError(f"{name}: {exc}", name) from None
    raise ArgumentTypeError(f"{name}: expected an agent spec str or AgentSpec, got {type(value).__name__}", name)


def a_points(record: GameRecord, a_colour: str) -> float:
    """Points for agent A in one game: 1 win, 0.5 draw, 0 loss."""
    if record.winner == "draw":
        return 0.5
    return 1.0 if record.winner == a_colour else 0.0


def _a_colour(index: int) -> str:
    """The colour agent A plays in game ``index`` of a match (red in the first of each pair)."""
    return "red" if index % 2 == 0 else "white"


class _Tally:
    """A's results in ``games[:counted]``: W/D/L by colour and the complete pairs by A's points
    (0 .. 2 in halves), counted on as games are appended. The match keeps one while it runs, so
    that the totals after each pair (the SPRT, a progress bar) cost the new games alone, not the
    whole match again."""

    def __init__(self) -> None:
        self.counted = 0
        self.wdl = {"red": [0, 0, 0], "white": [0, 0, 0]}  # by A's colour
        self.pairs = [0, 0, 0, 0, 0]                       # LL, LD, DD+WL, WD, WW

    def add(self, games: List[GameRecord]) -> "_Tally":
        for i in range(self.counted, len(games)):
            colour = _a_colour(i)
            points = a_points(games[i], colour)
            self.wdl[colour][2 - int(points * 2)] += 1  # 1 -> wins, 0.5 -> draws, 0 -> losses
            if i % 2:  # the pair is complete
                self.pairs[int((a_points(games[i - 1], "red") + points) * 2)] += 1
            self.counted = i + 1
        return self


@dataclass
class MatchResult:
    """Totals of a match from agent A's side; ``games`` holds every record in game order (about
    10 KB a game: a match keeps them all until it ends; ``--jsonl`` writes each as it comes).
    The totals are read from ``games`` as it is when asked."""

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

    def _colour(self, index: int, side: str) -> str:
        """The colour agent ``side`` ('a' or 'b') played in game ``index``."""
        a = _a_colour(index)
        return a if side == "a" else ("white" if a == "red" else "red")

    def _counted(self) -> _Tally:
        # While a match (or a ladder) appends to ``games`` it keeps a running count here (not a
        # field: no comparison or asdict of a result sees it); any other time every game is counted
        # again, so a list the caller changed is counted as it is now.
        live = self.__dict__.get("_live")
        if live is not None and live.counted <= len(self.games):
            return live.add(self.games)
        return _Tally().add(self.games)

    def _count_as_appended(self, on: bool) -> None:
        """Keep a running count while only appends change ``games`` (``on``), or stop keeping it."""
        self.__dict__["_live"] = _Tally() if on else None

    def wdl(self, colour: Optional[str] = None) -> Tuple[int, int, int]:
        """A's wins, draws, losses; with ``colour`` ('red' or 'white') only the games A played as that colour."""
        by_colour = self._counted().wdl
        if colour is not None:
            w, d, l = by_colour[check_choice("colour", colour, ("red", "white"))]
            return w, d, l
        red, white = by_colour["red"], by_colour["white"]
        return red[0] + white[0], red[1] + white[1], red[2] + white[2]

    def pair_scores(self) -> List[float]:
        """A's points in each complete pair (0 .. 2)."""
        n = len(self.games) // 2 * 2
        return [a_points(self.games[i], "red") + a_points(self.games[i + 1], "white") for i in range(0, n, 2)]

    @property
    def pentanomial(self) -> Tuple[int, int, int, int, int]:
        """A's complete pairs counted as (LL, LD, DD+WL, WD, WW)."""
        ll, ld, dd, wd, ww = self._counted().pairs
        return ll, ld, dd, wd, ww

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
            total.merge(g.stats[self._colour(i, side)])
        return total

    def clocks_left(self, side: str) -> List[float]:
        """What agent ``side``'s ('a' or 'b') game clock had left at the end of each game, in game
        order (below zero: overspent); empty for an agent that plays on no clock."""
        left = []
        for i, g in enumerate(self.games):
            colour = self._colour(i, side)
            value = g.stats[colour].clock_left_ms if colour in g.stats else None
            if value is not None:
                left.append(value)
        return left

    def _clock_totals(self, side: str) -> Optional[dict]:
        left = self.clocks_left(side)
        if not left:
            return None
        return {"games": len(left), "least_left_ms": min(left), "overspent": sum(v < 0 for v in left)}

    def llr(self) -> Optional[float]:
        """The SPRT's log-likelihood ratio of the pairs so far, or None when the match runs no SPRT."""
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
            f"elo      {format_elo(est.elo)}  95% [{format_elo(est.elo_low)}, {format_elo(est.elo_high)}]",
            "pairs    LL {} LD {} DD/WL {} WD {} WW {}".format(*self.pentanomial),
        ]
        for colour in ("red", "white"):
            cw, cd, cl = self.wdl(colour)
            lines.append(f"A as {colour:<5} W/D/L {cw}/{cd}/{cl}")
        for side, name in (("a", "A"), ("b", "B")):
            s = self.side_stats(side)
            if s.moves:
                # An engine reports whole milliseconds: searches too short to time have no speed.
                nps = f"{s.nps:,.0f}" if s.time_ms > 0 else "-"
                lines.append(f"{name} search  depth {s.mean_depth:.1f}  nps {nps} (iterations/s)  "
                             f"{s.time_ms / s.moves:.0f} ms/move  {s.iterations / s.moves:,.0f} iterations/move")
            clock = self._clock_totals(side)
            if clock:
                lines.append(f"{name} clock   least left {clock['least_left_ms']:,.0f} ms, overspent in "
                             f"{clock['overspent']} of {clock['games']} games")
        if self.sprt:
            verdict = {"H1": "H1 accepted", "H0": "H0 accepted", None: "no decision"}[self.sprt_decision]
            lines.append(f"sprt     elo0={self.sprt.elo0:g} elo1={self.sprt.elo1:g} alpha={self.sprt.alpha:g} "
                         f"beta={self.sprt.beta:g}  LLR {self.llr():.2f} [{self.sprt.lower:.2f}, "
                         f"{self.sprt.upper:.2f}]  {verdict} (pentanomial GSPRT)")
        return "\n".join(lines)

    def to_dict(self) -> dict:
        """The totals from A's side for JSON: W/D/L, score and Elo with their 95% intervals, the pair
        counts, the SPRT decision (``sprt``: "H1", "H0" or None) and, when a test ran, its state
        (``sprt_test``: the bounds, the hypotheses and the LLR), and ``clock``: for each side ("a",
        "b") on a game clock its games, the least any game left (ms) and the games it overspent, None
        for a side on no clock; an infinite Elo (a clean sweep) is None."""
        w, d, l = self.wdl()
        est = self.estimate
        test = None if self.sprt is None else {
            "elo0": self.sprt.elo0, "elo1": self.sprt.elo1, "alpha": self.sprt.alpha, "beta": self.sprt.beta,
            "llr": self.llr(), "lower": self.sprt.lower, "upper": self.sprt.upper}
        # JSON has no infinity: a clean sweep's Elo is None (null), as rosen strength writes it.
        return _json.finite({"a": self.a, "b": self.b, "seed": self.seed, "games": len(self.games), "wins": w,
                             "draws": d, "losses": l, "score": est.score, "score_low": est.low,
                             "score_high": est.high, "elo": est.elo, "elo_low": est.elo_low,
                             "elo_high": est.elo_high, "pentanomial": list(self.pentanomial),
                             "sprt": self.sprt_decision, "sprt_test": test,
                             "clock": {side: self._clock_totals(side) for side in ("a", "b")}})

    def __repr__(self) -> str:
        w, d, l = self.wdl()
        return f"MatchResult(a={self.a!r}, b={self.b!r}, games={len(self.games)}, wdl=({w}, {d}, {l}))"


def play_pair(a: AgentSpec, b: AgentSpec, *, seed: int, pair: int, players: int = 2,
              reshuffle: str = "eager", on_move: Optional[MoveObserver] = None) -> Tuple[GameRecord, GameRecord]:
    """Both games of pair ``pair``: the deal ``seed + pair``, A red first, then A white.
    ``on_move`` sees every move of both games (:func:`rosen.match.game.play_game`'s); an
    exception from it ends the pair."""
    deal = seed + pair
    records = []
    for game in (2 * pair, 2 * pair + 1):
        seed_a, seed_b = _mix(seed, game, 1) >> 1, _mix(seed, game, 2) >> 1
        a_red = game % 2 == 0
        red_spec, red_seed, white_spec, white_seed = (a, seed_a, b, seed_b) if a_red else (b, seed_b, a, seed_a)
        red = red_spec.build(red_seed)
        try:  # built inside, so that the first agent (an engine process) is closed if the second fails
            white = white_spec.build(white_seed)
        except BaseException:
            close_agents(red)
            raise
        try:
            rec = play_game(red, white, seed=deal, players=players, reshuffle=reshuffle,
                            red_name=str(red_spec), white_name=str(white_spec), on_move=on_move)
        finally:
            close_agents(red, white)
        rec.extra = {"game": game, "pair": pair, "a_colour": "red" if a_red else "white",
                     "agent_seeds": {"a": seed_a, "b": seed_b}}
        records.append(rec)
    return records[0], records[1]


def run_match(a: SpecLike, b: SpecLike, *, games: int = 100, seed: int = 0, players: int = 2,
              reshuffle: str = "eager", threads: int = 1, sprt: Optional[SPRT] = None,
              on_game: Optional[Callable[[GameRecord], None]] = None,
              progress: Optional[Callable[[MatchResult], None]] = None,
              stop_on_interrupt: bool = False, first_pair: int = 0) -> MatchResult:
    """Play up to ``games`` games (an even number: ``games // 2`` pairs) of A against B.

    ``on_game`` sees each record in game order (the ``--jsonl`` writer); ``progress`` sees the
    result so far after each pair. With ``sprt`` the match stops at the first pair where the
    test decides. With ``stop_on_interrupt`` a Ctrl-C ends the match early instead of raising,
    and the result (marked ``interrupted``) holds the pairs completed until then.

    ``first_pair`` resumes a match whose pairs before it were played earlier (``rosen strength``
    keeps them on disk): only pairs ``first_pair .. games // 2 - 1`` are played, exactly as they
    would have been in the whole match, and the result holds only them.
    """
    spec_a, spec_b = _spec(a, "a"), _spec(b, "b")
    games = check_int("games", games, 2, MAX_SEED)  # beyond it, the seed check below would name a negative range
    if games % 2:
        raise InvalidArgumentError(f"games: expected an even number (games are colour-swapped pairs), got {games}",
                                   "games")
    # Pair i is the deal seed + i: the last pair's must be a seed too (checked before any game).
    seed = check_int("seed", seed, 0, MAX_SEED - (games // 2 - 1))
    threads = check_int("threads", threads, 1, 256)
    first_pair = check_int("first_pair", first_pair, 0, games // 2)
    if sprt is not None and first_pair:
        # The test would see the resumed pairs alone, not the whole match's.
        raise InvalidArgumentError("sprt: cannot be combined with first_pair > 0 (the test needs every pair of the "
                                   "match; run it from the first pair)", "sprt")
    check_players(players)
    check_choice("reshuffle", reshuffle, ("eager", "lazy"))
    for name, spec in (("a", spec_a), ("b", spec_b)):
        try:
            close_agents(spec.build(0))  # fail now (a bad option, an engine that will not start), not in a worker
        except ValueError as exc:
            raise InvalidArgumentError(f"{name}: {exc}", name) from None

    result = MatchResult(a=str(spec_a), b=str(spec_b), seed=seed, players=players, reshuffle=reshuffle, sprt=sprt)
    start = time.perf_counter()
    pairs = _pairs_in_order(spec_a, spec_b, first_pair, games // 2, seed, players, reshuffle, threads)
    result._count_as_appended(True)  # the SPRT and the progress bar read the totals after every pair
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
        result._count_as_appended(False)  # the caller may change ``games`` as it likes from here
    result.seconds = time.perf_counter() - start
    return result


def _pairs_in_order(a: AgentSpec, b: AgentSpec, first: int, pairs: int, seed: int, players: int, reshuffle: str,
                    threads: int) -> Generator[Tuple[GameRecord, GameRecord], None, None]:
    """Yield pairs ``first .. pairs - 1`` in pair order, played by ``threads`` workers a bounded distance ahead.

    Threads suffice: the search releases the GIL. Only ``2 * threads`` pairs are in flight, so
    stopping early (SPRT) wastes little work; when the caller stops (the SPRT decided, a Ctrl-C),
    the pairs still being played end at their next move instead of being played out unseen.
    """
    ended = threading.Event()

    def stop_if_ended(before, played, after) -> None:
        if ended.is_set():
            raise _Abandoned()

    def job(i: int):
        return play_pair(a, b, seed=seed, pair=i, players=players, reshuffle=reshuffle, on_move=stop_if_ended)

    if threads == 1:
        for i in range(first, pairs):
            yield job(i)
        return
    with ThreadPoolExecutor(max_workers=threads) as pool:
        pending = {}
        next_submit = first
        try:
            for i in range(first, pairs):
                while next_submit < pairs and next_submit < i + 2 * threads:
                    pending[next_submit] = pool.submit(job, next_submit)
                    next_submit += 1
                yield pending.pop(i).result()
        finally:
            ended.set()
            for fut in pending.values():
                fut.cancel()


class _Abandoned(Exception):
    """Ends a worker's pair once the match no longer wants it (the worker's future keeps it)."""


__all__: Sequence[str] = ("MatchResult", "a_points", "play_pair", "run_match")
