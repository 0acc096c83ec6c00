"""Games and matches between agents.

- :mod:`rosen.match.game` -- the one game loop (:func:`play_game`), the :class:`Dealer` that
  deals plain draws from the deal, :class:`GameRecord` and :func:`replay`;
- :mod:`rosen.match.runner` -- :func:`run_match`: A against B on colour-swapped pairs of deals;
- :mod:`rosen.match.stats` -- score, Elo, 95% intervals, pentanomial counts, SPRT;
- :mod:`rosen.match.records` -- game records as JSON lines.
"""
from .game import ALL_CARDS, Dealer, GameRecord, SideStats, play_game, replay
from .records import jsonl_writer, read_jsonl, summarise_jsonl
from .runner import MatchResult, a_points, play_pair, run_match
from .stats import SPRT, Estimate, elo_from_score, parse_sprt, pentanomial_counts, pentanomial_estimate

__all__ = ["ALL_CARDS", "Dealer", "Estimate", "GameRecord", "MatchResult", "SPRT", "SideStats", "a_points",
           "elo_from_score", "jsonl_writer", "parse_sprt", "pentanomial_counts", "pentanomial_estimate", "play_game",
           "play_pair", "read_jsonl", "replay", "run_match", "summarise_jsonl"]
