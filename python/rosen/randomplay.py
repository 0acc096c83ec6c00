"""Statistics of games played by uniformly random legal moves, in C++ across threads."""
from __future__ import annotations

from dataclasses import asdict, dataclass

from . import _core
from .errors import check_int


@dataclass(frozen=True)
class RandomPlayStats:
    """Totals of a random-play run; see :func:`random_play`."""

    games: int
    red_wins: int
    white_wins: int
    draws: int
    plies: int
    blockades: int  #: games that ended because no player could act (R9)
    seconds: float

    @property
    def red_share(self) -> float:
        """The share of games Red (the Red team) won, 0..1 (0 with no games)."""
        return self.red_wins / self.games if self.games else 0.0

    @property
    def white_share(self) -> float:
        """The share of games White (the White team) won, 0..1 (0 with no games)."""
        return self.white_wins / self.games if self.games else 0.0

    @property
    def draw_share(self) -> float:
        """The share of drawn games (R12), 0..1 (0 with no games)."""
        return self.draws / self.games if self.games else 0.0

    @property
    def blockade_share(self) -> float:
        """The share of games that ended with no player able to act (R9), 0..1."""
        return self.blockades / self.games if self.games else 0.0

    @property
    def mean_plies(self) -> float:
        """The mean number of moves a game, draws and passes included (0 with no games)."""
        return self.plies / self.games if self.games else 0.0

    @property
    def games_per_second(self) -> float:
        """Games per second of wall-clock time (inf for a run too short to time)."""
        return self.games / self.seconds if self.seconds > 0 else float("inf")

    def as_dict(self) -> dict:
        """The totals and the derived figures above as one dict (for JSON)."""
        d = asdict(self)
        d.update(red_share=self.red_share, white_share=self.white_share, draw_share=self.draw_share,
                 blockade_share=self.blockade_share, mean_plies=self.mean_plies,
                 games_per_second=self.games_per_second)
        return d


def random_play(games: int = 100_000, seed: int = 0, *, players: int = 2, reshuffle: str = "eager",
                threads: int = 1) -> RandomPlayStats:
    """Play ``games`` fresh seeded deals to the end by uniformly random legal moves.

    Game ``i`` depends only on ``(seed, i)``, so the totals are the same for any ``threads``.
    """
    check_int("games", games, 1)
    for name, value in (("seed", seed), ("players", players), ("threads", threads)):
        check_int(name, value)
    return RandomPlayStats(**_core._random_play(games, seed, players, reshuffle, threads))
