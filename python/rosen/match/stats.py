"""Match statistics: score rate, Elo, their 95% intervals, pentanomial pair counts and an SPRT.

Games are played in colour-swapped pairs on one deal, so the pair, not the game, is the
independent unit. A pair scores 0, 0.5, 1, 1.5 or 2 points for agent A; the five counts are the
*pentanomial* (LL, LD, DD+WL, WD, WW). Intervals and the SPRT use the variance of the per-pair
score, which is smaller than the per-game (trinomial) variance when pairing removes the luck of
the deal. Elo is the logistic scale: ``elo = -400 log10(1/score - 1)``.

Every variance -- of the intervals and of the SPRT -- is estimated with one pseudo-unit added to
each count (a pseudo-pair in each of the five pentanomial cells, a pseudo-game in each of the
three trinomial ones): the sample variance of a few units (zero after a clean sweep) would claim a
certainty they cannot give. The mean and the number of units are the real ones; with hundreds of
pairs the pseudo-units no longer matter.

The SPRT is a GSPRT on the pentanomial (the normal approximation of the generalised likelihood
ratio used by Fishtest): ``LLR = N (s1 - s0) (2 s - s0 - s1) / (2 var)`` with ``N`` the pairs
played, ``s`` the mean per-pair score (per game), ``var`` its variance as above, and ``s0``/``s1``
the scores of ``elo0``/``elo1``.
"""
from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import Iterable, Optional, Sequence, Tuple

from ..errors import ArgumentTypeError, InvalidArgumentError, check_real, check_str, is_collection

Z95 = 1.959963984540054  # two-sided 95% quantile of the normal distribution


#: The largest count the estimates take: every integer up to it is exact as a float.
MAX_COUNT = 2**53


def _check_counts(name: str, counts: Sequence[int], size: int) -> Tuple[int, ...]:
    try:
        counts = list(counts)
    except TypeError:
        raise ArgumentTypeError(f"{name}: expected {size} counts, got {type(counts).__name__}", name) from None
    if len(counts) != size:
        raise InvalidArgumentError(f"{name}: expected {size} counts, got {len(counts)}", name)
    for c in counts:  # NumPy integers are counts too; a bool is not
        if isinstance(c, bool) or not isinstance(c, numbers.Integral) or c < 0:
            raise InvalidArgumentError(f"{name}: expected non-negative int counts, got {list(counts)}", name)
        if c > MAX_COUNT:  # the estimates divide in floats: beyond this, OverflowError or lost units
            raise InvalidArgumentError(f"{name}: expected counts of at most 2**53, got {list(counts)}", name)
    return tuple(int(c) for c in counts)


def elo_from_score(score: float) -> float:
    """Logistic Elo difference for an expected score in [0, 1] (+-inf at the ends)."""
    score = check_real("score", score)
    if not 0.0 <= score <= 1.0:
        raise InvalidArgumentError(f"score: expected a value in [0, 1], got {score}", "score")
    if score == 0.0:
        return -math.inf
    if score == 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def score_from_elo(elo: float) -> float:
    """Expected score of a player ``elo`` points stronger."""
    if isinstance(elo, (bool, str, bytes)) or not isinstance(elo, numbers.Real):
        raise ArgumentTypeError(f"elo: expected a number, got {type(elo).__name__}", "elo")
    try:
        elo = float(elo)
    except OverflowError:  # an int beyond a float: as good as infinite
        elo = math.inf if elo > 0 else -math.inf
    if math.isnan(elo):
        raise InvalidArgumentError("elo: expected a number, got NaN", "elo")
    if -elo / 400.0 > 300.0:  # 10 ** 300 and beyond: the score is 0 (the power overflowed)
        return 0.0
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


#: Pseudo-units added to each count when a variance is estimated (see the module's docstring).
PRIOR = 1.0


def _mean_var(values: Sequence[float], counts: Sequence[int]) -> Tuple[float, float, int]:
    """The mean of the real units, the variance with PRIOR pseudo-units in each cell, and the
    number of real units."""
    n = sum(counts)
    if n == 0:
        return 0.5, 0.0, 0
    mean = sum(v * c for v, c in zip(values, counts)) / n
    smoothed = [c + PRIOR for c in counts]
    total = sum(smoothed)
    centre = sum(v * c for v, c in zip(values, smoothed)) / total
    var = sum(c * (v - centre) ** 2 for v, c in zip(values, smoothed)) / total
    return mean, var, n


@dataclass(frozen=True)
class Estimate:
    """A score rate with its 95% interval, and the same in Elo."""

    score: float
    low: float
    high: float

    @property
    def elo(self) -> float:
        """The score as a logistic Elo difference (+-inf for a score of 0 or 1)."""
        return elo_from_score(self.score)

    @property
    def elo_low(self) -> float:
        """The interval's lower end in Elo (-inf when it is 0)."""
        return elo_from_score(self.low)

    @property
    def elo_high(self) -> float:
        """The interval's upper end in Elo (+inf when it is 1)."""
        return elo_from_score(self.high)



def _interval(mean: float, var: float, n: int) -> Estimate:
    """Normal 95% interval of a mean of ``n`` units, clipped to [0, 1]; ``var`` is the smoothed
    variance of :func:`_mean_var`, never 0, so a clean sweep is not claimed certain and a worse
    result never gets a narrower interval (the old fallback for a zero variance alone gave a
    near-sweep a tighter interval than the sweep's, and rounding put a sweep's +inf outside its
    own interval)."""
    if n == 0:
        return Estimate(0.5, 0.0, 1.0)
    half = Z95 * math.sqrt(var / n)
    return Estimate(mean, max(0.0, mean - half), min(1.0, mean + half))


def trinomial_estimate(wins: int, draws: int, losses: int) -> Estimate:
    """Score rate of independent games with a normal 95% interval (see :func:`_interval`)."""
    _check_counts("trinomial", (wins, draws, losses), 3)
    return _interval(*_mean_var((1.0, 0.5, 0.0), (wins, draws, losses)))


def pentanomial_estimate(counts: Sequence[int]) -> Estimate:
    """Score rate from pair counts (LL, LD, DD+WL, WD, WW) with a pair-based 95% interval."""
    counts = _check_counts("pentanomial", counts, 5)
    return _interval(*_mean_var((0.0, 0.25, 0.5, 0.75, 1.0), counts))


def pentanomial_counts(pair_scores: Iterable[float]) -> Tuple[int, int, int, int, int]:
    """Count pairs by A's points in the pair: 0, 0.5, 1, 1.5, 2 -> (LL, LD, DD+WL, WD, WW)."""
    if not is_collection(pair_scores):
        raise ArgumentTypeError(f"pair_scores: expected an iterable of pair points, got {type(pair_scores).__name__}",
                                "pair_scores")
    counts = [0] * 5
    for points in pair_scores:
        if isinstance(points, bool):  # True is 1 to Python, not a pair's points
            raise InvalidArgumentError(f"pair_scores: a pair scores 0, 0.5, 1, 1.5 or 2 points, got {points}",
                                       "pair_scores")
        index = points * 2
        if index not in (0, 1, 2, 3, 4):
            raise InvalidArgumentError(f"pair_scores: a pair scores 0, 0.5, 1, 1.5 or 2 points, got {points}",
                                       "pair_scores")
        counts[int(index)] += 1
    return tuple(counts)  # type: ignore[return-value]


@dataclass(frozen=True)
class SPRT:
    """Sequential probability ratio test of H0: elo = elo0 against H1: elo = elo1.

    ``decide(counts)`` returns 'H1' (accept: A is at least about elo1 stronger), 'H0' (reject),
    or None (keep playing). The bounds are Wald's: log(beta/(1-alpha)) and log((1-beta)/alpha).
    """

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05


    #: The widest Elo bound: a 2000 Elo edge is a score of 0.99999 (beyond about 120 000 the score's
    #: arithmetic overflowed, after the whole match was played; infinite bounds never decided).
    MAX_ELO = 2000.0

    def __post_init__(self) -> None:
        for name in ("elo0", "elo1"):
            object.__setattr__(self, name, check_real(name, getattr(self, name), -self.MAX_ELO, self.MAX_ELO))
        if not self.elo0 < self.elo1:
            raise InvalidArgumentError(f"sprt: expected elo0 < elo1, got {self.elo0}, {self.elo1}", "sprt")
        for name in ("alpha", "beta"):
            value = check_real(name, getattr(self, name))
            object.__setattr__(self, name, value)
            if not 0.0 < value < 0.5:
                raise InvalidArgumentError(f"{name}: expected a probability in (0, 0.5), got {value}", name)

    @property
    def lower(self) -> float:
        """Wald's lower LLR bound, log(beta / (1 - alpha)): at or below it H0 is accepted."""
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self) -> float:
        """Wald's upper LLR bound, log((1 - beta) / alpha): at or above it H1 is accepted."""
        return math.log((1.0 - self.beta) / self.alpha)

    def llr(self, counts: Sequence[int]) -> float:
        """The log-likelihood ratio of the pentanomial counts (0 while it cannot be estimated)."""
        counts = _check_counts("pentanomial", counts, 5)
        if sum(counts) == 0:
            return 0.0
        # The pseudo-pairs smooth the variance only: they once entered the mean and the count too,
        # pulling the mean to 0.5 -- with wide bounds (0,600) the first pair then accepted H0,
        # even a WW pair.
        mean, var, n = _mean_var((0.0, 0.25, 0.5, 0.75, 1.0), counts)
        s0, s1 = score_from_elo(self.elo0), score_from_elo(self.elo1)
        return n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)

    def decide(self, counts: Sequence[int]) -> Optional[str]:
        """'H1' or 'H0' once the LLR of the pentanomial ``counts`` reaches a bound, else None (keep playing)."""
        value = self.llr(counts)
        if value >= self.upper:
            return "H1"
        if value <= self.lower:
            return "H0"
        return None


def parse_sprt(text: str, *, alpha: float = 0.05, beta: float = 0.05) -> SPRT:
    """'elo0,elo1' -> SPRT, e.g. '0,10'."""
    parts = check_str("sprt", text).split(",")
    if len(parts) != 2:
        raise InvalidArgumentError(f"sprt: expected 'elo0,elo1' such as '0,10', got {text!r}", "sprt")
    try:
        elo0, elo1 = float(parts[0]), float(parts[1])
    except ValueError:
        raise InvalidArgumentError(f"sprt: expected two numbers 'elo0,elo1', got {text!r}", "sprt") from None
    try:
        return SPRT(elo0, elo1, alpha, beta)
    except InvalidArgumentError as exc:
        if exc.field == "sprt":
            raise
        raise InvalidArgumentError(f"sprt: {exc}", "sprt") from None


def format_elo(value: float) -> str:
    """An Elo difference as reports print it: '+153', '-12', '+inf'."""
    if value == math.inf:
        return "+inf"
    if value == -math.inf:
        return "-inf"
    return f"{round(value) + 0:+d}"  # + 0: no "-0"
