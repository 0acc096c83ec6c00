"""`rosen bench`'s figures: aggregates over the suite, stability, time to depth, and A-B differences.

Intervals are 95%. The solve rate's is the one of :mod:`rosen.match.stats` (normal, its variance
smoothed by one pseudo-count a cell: a proportion is a match of won/lost games); means and paired
differences use the normal interval of a mean, ``Z95 * sd / sqrt(n)``, the same formula. A
difference between two configurations is paired by position (both searched the same positions),
which removes most of the positions' own spread.
"""
from __future__ import annotations

import csv
import io
import math
import statistics
from dataclasses import asdict, dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple, TypeVar

from ..match.stats import Z95, trinomial_estimate
from ..search import iterations_per_second
from .runner import Probe

_T = TypeVar("_T")


def mean_interval(values: Sequence[float]) -> Tuple[Optional[float], Optional[float]]:
    """(mean, half-width of its 95% interval); (None, None) for no values, half 0 for one."""
    if not values:
        return None, None
    mean = statistics.fmean(values)
    half = Z95 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return mean, half


@dataclass
class Aggregate:
    """One configuration at one budget and thread count, over the positions it searched."""

    config: str
    budget: int
    threads: int
    positions: int
    failed: int
    iterations: Optional[float] = None     #: mean per search (the protocol's ``nodes``)
    tree_size: Optional[float] = None      #: mean nodes in the tree
    nps: Optional[float] = None            #: all iterations / all search time
    time_ms: Optional[float] = None        #: mean per search
    depth: Optional[float] = None          #: mean over positions of the mean in-tree depth
    depth_max: Optional[float] = None      #: the largest mean depth of a position
    seldepth: Optional[float] = None       #: mean of the deepest ply reached
    seldepth_max: Optional[int] = None
    solve_rate: Optional[float] = None     #: share of positions whose best move is the reference's
    solve_low: Optional[float] = None
    solve_high: Optional[float] = None
    value_error: Optional[float] = None    #: mean |win rate - reference win rate|
    value_error_half: Optional[float] = None
    stable: Optional[float] = None         #: share whose best move equals that of the previous budget
    errors: Dict[str, str] = field(default_factory=dict)  #: position id -> error

    def to_json(self) -> Dict[str, Any]:
        """The fields as a dict for JSON (``errors`` included)."""
        return asdict(self)


def _round(value: Optional[float], digits: int) -> Optional[float]:
    return None if value is None else round(value, digits)


def _filled(value: Optional[_T]) -> _T:
    """A probe's figure that bench.runner fills together with the one the caller checked: an ok
    probe has its move, ``solved`` and ``time_ms``; one with ``iterations`` has the other figures
    of the search's statistics too."""
    if value is None:
        raise TypeError("a probe's figure is missing where the probe's other figures are there")
    return value


def aggregate(probes: Sequence[Probe]) -> List[Aggregate]:
    """One :class:`Aggregate` per (config, threads, budget), in the order the probes came."""
    groups: Dict[Tuple[str, int, int], List[Probe]] = {}
    for p in probes:
        groups.setdefault((p.config, p.threads, p.budget), []).append(p)
    out = []
    previous: Dict[Tuple[str, int], Dict[str, Optional[str]]] = {}
    for (config, threads, budget), group in groups.items():
        ok = [p for p in group if p.ok]
        agg = Aggregate(config, budget, threads, positions=len(group), failed=len(group) - len(ok),
                        errors={p.position: p.error for p in group if p.error is not None})  # not ok
        searched = [p for p in ok if p.iterations is not None]
        if searched:
            agg.iterations = _round(statistics.fmean(_filled(p.iterations) for p in searched), 1)
            agg.tree_size = _round(statistics.fmean(_filled(p.tree_size) for p in searched), 1)
            agg.depth = _round(statistics.fmean(_filled(p.depth) for p in searched), 3)
            agg.depth_max = max(_filled(p.depth) for p in searched)
            agg.seldepth = _round(statistics.fmean(_filled(p.seldepth) for p in searched), 2)
            agg.seldepth_max = max(_filled(p.seldepth) for p in searched)
            agg.nps = _round(iterations_per_second(sum(_filled(p.iterations) for p in searched),
                                                   sum(_filled(p.time_ms) for p in searched)), 1)
        if ok:
            agg.time_ms = _round(statistics.fmean(_filled(p.time_ms) for p in ok), 3)
            solved = sum(bool(p.solved) for p in ok)
            est = trinomial_estimate(solved, 0, len(ok) - solved)
            agg.solve_rate, agg.solve_low, agg.solve_high = (round(x, 4) for x in (est.score, est.low, est.high))
        errors = [p.value_error for p in ok if p.value_error is not None]
        mean, half = mean_interval(errors)
        agg.value_error, agg.value_error_half = _round(mean, 4), _round(half, 4)
        moves = {p.position: p.best_move for p in ok}
        before = previous.get((config, threads))
        if before is not None:
            common = [pid for pid in moves if pid in before]
            if common:
                agg.stable = round(sum(moves[pid] == before[pid] for pid in common) / len(common), 4)
        previous[(config, threads)] = moves
        out.append(agg)
    return out


def time_to_depth(probes: Sequence[Probe], depths: Sequence[float]) -> List[Dict[str, Any]]:
    """Per (config, threads) and target depth: how many positions reached that mean depth within
    the budgets run, and the median time of the smallest budget that did (so the figure has the
    resolution of the budget ladder)."""
    firsts: Dict[Tuple[str, int], Dict[str, List[Probe]]] = {}
    for p in probes:
        if p.ok and p.depth is not None:
            firsts.setdefault((p.config, p.threads), {}).setdefault(p.position, []).append(p)
    rows = []
    for (config, threads), by_position in firsts.items():
        for target in depths:
            times: List[float] = []
            for runs in by_position.values():
                reached = [p for p in sorted(runs, key=lambda p: p.budget) if _filled(p.depth) >= target]
                if reached:
                    times.append(_filled(reached[0].time_ms))
            rows.append({"config": config, "threads": threads, "depth": target, "reached": len(times),
                         "positions": len(by_position),
                         "median_ms": _round(statistics.median(times), 3) if times else None})
    return rows


@dataclass
class Difference:
    """B minus A at one budget and thread count, paired over the positions both searched."""

    budget: int
    threads: int
    positions: int
    solve: Optional[float] = None       #: difference of solve rates
    solve_half: Optional[float] = None  #: half-width of its 95% interval
    depth: Optional[float] = None
    depth_half: Optional[float] = None
    value_error: Optional[float] = None
    value_error_half: Optional[float] = None
    nps_ratio: Optional[float] = None   #: geometric mean of B's nps / A's, with its interval
    nps_ratio_low: Optional[float] = None
    nps_ratio_high: Optional[float] = None

    def to_json(self) -> Dict[str, Any]:
        """The fields as a dict for JSON."""
        return asdict(self)


def compare(probes: Sequence[Probe], a: str, b: str) -> List[Difference]:
    """B against A, budget by budget (both must have run the same budgets and threads)."""
    index = {(p.config, p.threads, p.budget, p.position): p for p in probes if p.ok}
    keys = sorted({(p.threads, p.budget) for p in probes if p.config == a})
    out = []
    for threads, budget in keys:
        candidates = [(pa, index.get((b, threads, budget, pid)))
                      for (c, t, bu, pid), pa in index.items() if (c, t, bu) == (a, threads, budget)]
        pairs = [(pa, pb) for pa, pb in candidates if pb is not None]
        diff = Difference(budget, threads, len(pairs))
        if pairs:
            diff.solve, diff.solve_half = _rounded(mean_interval([float(_filled(pb.solved)) - float(_filled(pa.solved))
                                                                  for pa, pb in pairs]), 4)
            diff.depth, diff.depth_half = _rounded(mean_interval(
                [pb.depth - pa.depth for pa, pb in pairs if pa.depth is not None and pb.depth is not None]), 3)
            diff.value_error, diff.value_error_half = _rounded(mean_interval(
                [pb.value_error - pa.value_error for pa, pb in pairs
                 if pa.value_error is not None and pb.value_error is not None]), 4)
            logs = [math.log(pb.nps / pa.nps) for pa, pb in pairs if pa.nps and pb.nps]
            mean, half = mean_interval(logs)
            if mean is not None and half is not None:  # both or neither
                diff.nps_ratio, diff.nps_ratio_low, diff.nps_ratio_high = (
                    round(math.exp(x), 3) for x in (mean, mean - half, mean + half))
        out.append(diff)
    return out


def _rounded(pair: Tuple[Optional[float], Optional[float]], digits: int) -> Tuple[Optional[float], Optional[float]]:
    return _round(pair[0], digits), _round(pair[1], digits)


# -- text ---------------------------------------------------------------------------------------

def _fmt(value: Any, spec: str = "") -> str:
    return "-" if value is None else format(value, spec)


def format_table(rows: Sequence[Sequence[object]], header: Sequence[str]) -> str:
    """A plain text table, columns right-aligned except the first."""
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    lines = []
    for row in [header, *rows]:
        cells = [str(c).ljust(w) if i == 0 else str(c).rjust(w) for i, (c, w) in enumerate(zip(row, widths))]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


def aggregate_table(aggregates: Sequence[Aggregate], budget_kind: str) -> str:
    """The aggregates as a text table, one row each; the budget column reads iters or ms by ``budget_kind``."""
    unit = "iters" if budget_kind == "iterations" else "ms"
    header = ["config", unit, "thr", "ok", "nodes", "tree", "nps", "ms", "depth", "dmax", "seld", "solve [95%]",
              "value err", "stable"]
    rows = [[a.config, a.budget, a.threads, f"{a.positions - a.failed}/{a.positions}", _fmt(a.iterations, ",.0f"),
             _fmt(a.tree_size, ",.0f"), _fmt(a.nps, ",.0f"), _fmt(a.time_ms, ".1f"), _fmt(a.depth, ".2f"),
             _fmt(a.depth_max, ".2f"), _fmt(a.seldepth, ".1f"),
             "-" if a.solve_rate is None else f"{a.solve_rate:.0%} [{a.solve_low:.0%}, {a.solve_high:.0%}]",
             "-" if a.value_error is None else f"{a.value_error:.3f}+-{a.value_error_half:.3f}", _fmt(a.stable, ".0%")]
            for a in aggregates]
    return format_table(rows, header)


def depth_table(rows: Sequence[Dict[str, Any]]) -> str:
    """The rows of :func:`time_to_depth` as a text table."""
    header = ["config", "thr", "depth", "reached", "median ms"]
    return format_table([[r["config"], r["threads"], r["depth"], f"{r['reached']}/{r['positions']}",
                          _fmt(r["median_ms"], ".1f")] for r in rows], header)


def difference_table(diffs: Sequence[Difference], budget_kind: str) -> str:
    """The differences (B minus A) as a text table, each with the half-width of its 95% interval and
    the nps ratio B/A with its interval; the budget column reads iters or ms by ``budget_kind``."""
    unit = "iters" if budget_kind == "iterations" else "ms"
    header = [unit, "thr", "pos", "solve B-A [95%]", "depth B-A", "value err B-A", "nps B/A [95%]"]

    def pm(value, half, spec):
        # "+-", not "±": a report must print on an ASCII-only stdout too (it once failed there after the run).
        return "-" if value is None else f"{value:{spec}}+-{half:{spec.lstrip('+')}}"
    rows = [[d.budget, d.threads, d.positions, pm(d.solve, d.solve_half, "+.1%"), pm(d.depth, d.depth_half, "+.2f"),
             pm(d.value_error, d.value_error_half, "+.3f"),
             "-" if d.nps_ratio is None else f"{d.nps_ratio:.2f} [{d.nps_ratio_low:.2f}, {d.nps_ratio_high:.2f}]"]
            for d in diffs]
    return format_table(rows, header)


def probe_table(probes: Sequence[Probe]) -> str:
    """Every probe as a row of a text table (its move, whether it solved the position, the error if any)."""
    header = ["position", "config", "budget", "thr", "move", "ok", "value", "err", "nodes", "depth", "seld", "ms",
              "error"]
    rows = [[p.position, p.config, p.budget, p.threads, _fmt(p.best_move), "-" if p.solved is None else
             ("yes" if p.solved else "no"), _fmt(p.value, ".3f"), _fmt(p.value_error, ".3f"), _fmt(p.iterations),
             _fmt(p.depth, ".2f"), _fmt(p.seldepth), _fmt(p.time_ms, ".1f"), p.error or ""] for p in probes]
    return format_table(rows, header)


def probes_csv(probes: Sequence[Probe]) -> str:
    """Every probe as a CSV row (header first)."""
    out = io.StringIO()
    names = list(Probe.__dataclass_fields__)
    writer = csv.DictWriter(out, fieldnames=names, lineterminator="\n")
    writer.writeheader()
    for p in probes:
        writer.writerow(p.to_json())
    return out.getvalue()


def aggregates_csv(aggregates: Sequence[Aggregate]) -> str:
    """Every aggregate as a CSV row (header first), without the per-position ``errors``."""
    out = io.StringIO()
    names = [n for n in Aggregate.__dataclass_fields__ if n != "errors"]
    writer = csv.DictWriter(out, fieldnames=names, lineterminator="\n", extrasaction="ignore")
    writer.writeheader()
    for a in aggregates:
        writer.writerow(a.to_json())
    return out.getvalue()


__all__: Sequence[str] = ("Aggregate", "Difference", "aggregate", "aggregate_table", "aggregates_csv", "compare",
                          "depth_table", "difference_table", "format_table", "mean_interval", "probe_table",
                          "probes_csv", "time_to_depth")
