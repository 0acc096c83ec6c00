"""The pictures of `rosen bench` and `rosen strength` (matplotlib, the optional ``rosen[plot]`` extra).

matplotlib is imported only when a picture is drawn, with the Agg backend (files, no display),
so that rosen works without it; :func:`require_matplotlib` says how to install it.
"""
from __future__ import annotations

import math
from typing import Any, Dict, List, Sequence

from .._files import write_whole
from ..errors import InvalidArgumentError

INSTALL_HINT = 'pip install "rosen[plot]"'


def require_matplotlib() -> Any:
    """The pyplot module, or an error that names the extra to install."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise InvalidArgumentError(f"plot: drawing needs matplotlib: {INSTALL_HINT}", "plot") from None
    return plt


def _save(fig: Any, path: str) -> None:
    fig.tight_layout()
    try:
        # Whole or not at all: drawn in place, a full disk left a truncated image where the last
        # run's had been (a rerun's normal case).
        write_whole(path, lambda partial: fig.savefig(partial, dpi=110), "plot", keep_suffix=True)
    except InvalidArgumentError:
        raise
    except ValueError as exc:  # matplotlib's: a format it cannot write
        raise InvalidArgumentError(f"plot: cannot write {path!r}: {exc}", "plot") from None
    finally:
        import matplotlib.pyplot as plt
        plt.close(fig)


def bench_figure(aggregates: Sequence[Any], budget_kind: str, path: str) -> None:
    """Depth and solve rate against budget (one line per configuration and thread count) and,
    when several thread counts were run, nps against threads (one line per budget)."""
    plt = require_matplotlib()
    thread_counts = sorted({a.threads for a in aggregates})
    panels = 3 if len(thread_counts) > 1 else 2
    fig, axes = plt.subplots(1, panels, figsize=(5.2 * panels, 4.2))
    unit = "iterations" if budget_kind == "iterations" else "milliseconds"
    lines: Dict[tuple, List[Any]] = {}
    for a in aggregates:
        lines.setdefault((a.config, a.threads), []).append(a)
    for (config, threads), rows in lines.items():
        label = config if len(thread_counts) == 1 else f"{config}, {threads} thr"
        rows = [r for r in rows if r.depth is not None]
        if not rows:
            continue
        budgets = [r.budget for r in rows]
        line, = axes[0].plot(budgets, [r.depth for r in rows], "o-", label=label + " (mean)")
        axes[0].plot(budgets, [r.seldepth for r in rows], "^--", alpha=0.6, color=line.get_color(),
                     label=label + " (seldepth)")
        solved = [r for r in rows if r.solve_rate is not None]
        axes[1].errorbar([r.budget for r in solved], [100 * r.solve_rate for r in solved],
                         yerr=[[100 * (r.solve_rate - r.solve_low) for r in solved],
                               [100 * (r.solve_high - r.solve_rate) for r in solved]],
                         fmt="o-", capsize=3, label=label)
    axes[0].set(xscale="log", xlabel=f"budget ({unit} per search)", ylabel="depth (plies)",
                title="Search depth against budget")
    axes[1].set(xscale="log", xlabel=f"budget ({unit} per search)", ylabel="reference move found (%)",
                title="Solve rate against budget (95%)", ylim=(0, 100))
    if panels == 3:
        by_budget: Dict[tuple, List[Any]] = {}
        for a in aggregates:
            if a.nps:
                by_budget.setdefault((a.config, a.budget), []).append(a)
        for (config, budget), rows in by_budget.items():
            rows.sort(key=lambda r: r.threads)
            axes[2].plot([r.threads for r in rows], [r.nps for r in rows], "o-", label=f"{config}, {budget}")
        axes[2].set(xlabel="search threads", ylabel="iterations per second", title="Speed against threads",
                    xticks=thread_counts)
    for ax in axes:
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=7)
    _save(fig, path)


def ladder_figure(points: Sequence[Any], budget_kind: str, anchor: str, path: str) -> None:
    """Elo against the anchor by budget, one curve per configuration, 95% error bars. A point
    whose Elo is infinite (a clean sweep) is drawn at its interval's finite end as a triangle; an
    interval open on one side (a score interval reaching 0% or 100%) has its bar run to the
    plot's edge on that side."""
    plt = require_matplotlib()
    fig, ax = plt.subplots(figsize=(7, 4.6))
    curves: Dict[str, List[Any]] = {}
    for p in points:
        curves.setdefault(p.config, []).append(p)
    shown = [v for p in points for v in (p.elo, p.elo_low, p.elo_high) if math.isfinite(v)] or [0.0]
    edge = 10 * (max(shown) - min(shown) + 100)  # an infinite end's bar runs this far: off the plot
    for config, rows in curves.items():
        rows = sorted(rows, key=lambda r: r.budget)
        finite = [r for r in rows if math.isfinite(r.elo)]
        # An infinite end runs to the plot's edge, not left out (a missing bar read as a closed end).
        low = [r.elo - r.elo_low if math.isfinite(r.elo_low) else edge for r in finite]
        high = [r.elo_high - r.elo if math.isfinite(r.elo_high) else edge for r in finite]
        bar = ax.errorbar([r.budget for r in finite], [r.elo for r in finite], yerr=[low, high], fmt="o-",
                          capsize=3, label=config)
        for r in rows:
            if not math.isfinite(r.elo):
                bound = r.elo_low if r.elo > 0 else r.elo_high
                ax.plot([r.budget], [bound], "^" if r.elo > 0 else "v", color=bar[0].get_color())
    ax.axhline(0, color="grey", lw=0.8)
    pad = 0.08 * (max(shown) - min(shown) + 50)
    ax.set_ylim(min(shown + [0.0]) - pad, max(shown + [0.0]) + pad)  # the finite ends; open bars run off it
    unit = "iterations" if budget_kind == "iterations" else "milliseconds"
    ax.set(xscale="log", xlabel=f"budget ({unit} per move)", ylabel=f"Elo against {anchor}",
           title="Strength against budget (95% intervals, paired deals)")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    _save(fig, path)


__all__: Sequence[str] = ("INSTALL_HINT", "bench_figure", "ladder_figure", "require_matplotlib")
