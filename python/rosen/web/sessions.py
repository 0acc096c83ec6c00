"""The server's state: games against the engine and running analyses, kept apart from HTTP.

A :class:`GameSession` holds the true game (a real deal, with its pile order) and shows the page
only its public view (R14); the engine searches the public view too. Plain draws are dealt by
:class:`rosen.match.game.Dealer`, so a finished game is an ordinary match record
(``rosen.match.replay`` replays it). Searches are :class:`rosen.engine.search.SlicedSearch`, the
engine protocol's search, run on worker threads (the C++ search releases the GIL); each can be
stopped at once, and :class:`Sessions` counts the running ones (``/api/health``).

Nothing here imports the web stack, so it is tested without one.
"""
from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

from .. import _json
from .._core import Move, Position
from ..engine.protocol import Limits
from ..engine.search import SearchSnapshot, SlicedSearch
from ..engine.strength import STRENGTH_MAX, level_move, strength_iterations
from ..errors import InvalidArgumentError, RosenError, check_choice, check_int, check_players
from ..search import AUTO_EVALUATOR, engine_evaluator
from ..match.game import Dealer, GameRecord, replay
from . import views

#: Engine strength bounds (per move) and the default: half a second.
MAX_ITERATIONS = 1_000_000
MIN_TIME_MS, MAX_TIME_MS, DEFAULT_TIME_MS = 10, 60_000, 500
#: The longest analysis (an analysis without a budget runs until stopped, or this long).
MAX_ANALYSIS_MS = 10 * 60_000
#: Tree nodes per search (40 bytes each): 700 000 nodes, 28 MB. A game keeps its engine's tree
#: between moves (reuse); the endgame solver is off (solve_share 0, the default), so it allocates no
#: table, and open games with engine moves hold up to MAX_GAMES x 28 MB (about 1.8 GB).
TREE_SIZE = 700_000
#: Open games kept; the least recently used one is dropped beyond this.
MAX_GAMES = 64
#: Searches (engine moves, analyses, evaluations) that may run at once.
MAX_SEARCHES = 4
#: Limits of a loaded record file and of one evaluation request.
MAX_RECORD_GAMES = 500
MAX_EVALUATE_POSITIONS = 400
MAX_EVALUATE_ITERATIONS = 20_000


class WebError(Exception):
    """A request the server refuses: an HTTP status, a message and the field at fault."""

    def __init__(self, status: int, message: str, field: Optional[str] = None) -> None:
        super().__init__(message)
        self.status = status
        self.field = field


def _budget(iterations: Any, time_ms: Any, *, max_iterations: int, time_range: Tuple[int, int],
            no_time: Callable[[], Limits]) -> Limits:
    """``iterations`` or ``time_ms`` (not both), checked against their ranges; ``no_time()`` when
    neither is given."""
    if iterations is not None and time_ms is not None:
        raise InvalidArgumentError("time_ms: give iterations or time_ms, not both", "time_ms")
    if iterations is not None:
        return Limits(iterations=check_int("iterations", iterations, 1, max_iterations))
    if time_ms is None:
        return no_time()
    return Limits(time_ms=check_int("time_ms", time_ms, *time_range))


def strength_limits(iterations: Any = None, time_ms: Any = None, level: int = STRENGTH_MAX) -> Limits:
    """The engine's budget per move: ``iterations`` or ``time_ms`` (default 500 ms), checked, and
    capped at the iterations of a ``level`` below full strength (the engine protocol's Strength)."""
    limits = _budget(iterations, time_ms, max_iterations=MAX_ITERATIONS, time_range=(MIN_TIME_MS, MAX_TIME_MS),
                     no_time=lambda: Limits(time_ms=DEFAULT_TIME_MS))
    cap = strength_iterations(level)
    if cap is not None:
        limits = Limits(iterations=min(limits.iterations or cap, cap), time_ms=limits.time_ms)
    return limits


def parse_position(fen: Any, reshuffle: Any = "eager") -> Position:
    """A position from RULES.md notation; errors are :class:`rosen.RosenError` naming the field."""
    if not isinstance(fen, str):
        raise InvalidArgumentError(f"fen: expected a position line (a string), got {type(fen).__name__}", "fen")
    if len(fen) > 1000:
        raise InvalidArgumentError(f"fen: expected one position line, got {len(fen)} characters", "fen")
    return Position(fen, reshuffle=check_choice("reshuffle", reshuffle, ("eager", "lazy")))


class SearchCounter:
    """How many searches run now; refuses one more than :data:`MAX_SEARCHES`."""

    def __init__(self, limit: int = MAX_SEARCHES) -> None:
        self.limit = limit
        self.running = 0
        self.finished = 0
        self._lock = threading.Lock()

    def acquire(self) -> None:
        """Count one more running search; a 503 :class:`WebError` when ``limit`` searches already run."""
        with self._lock:
            if self.running >= self.limit:
                raise WebError(503, f"busy: {self.running} searches are running (the limit is {self.limit}); "
                                    "stop one or try again", "busy")
            self.running += 1

    def release(self) -> None:
        """Count one running search as finished."""
        with self._lock:
            self.running -= 1
            self.finished += 1


#: GameSession._apply's default: the engine's last search stays as it was (a player's move).
_KEEP = object()


class GameSession:
    """One game: the true position, its public history, the engine's seats and strength."""

    def __init__(self, game_id: str, counter: SearchCounter, *, players: int, reshuffle: str, seed: int,
                 engine_seats: List[str], limits: Limits, search_seed: int, level: int = STRENGTH_MAX) -> None:
        self.id = game_id
        self.players = players
        self.reshuffle = reshuffle
        self._seed = seed  # never sent to the page while the game runs: it would reveal the pile
        self.engine_seats = engine_seats
        self.limits = limits
        self.level = level  # the engine protocol's Strength levels: below 10, some random moves
        self.position = Position.new(seed, players=players, reshuffle=reshuffle)
        self.moves: List[str] = []
        self.fens: List[str] = [self.position.fen(hide_pile_order=True)]
        self.red_winrates: List[Optional[float]] = [None]
        self.last_search: Optional[Dict[str, Any]] = None
        self._dealer = Dealer(seed)
        self._counter = counter
        self._search_seed = search_seed
        self._searcher: Optional[SlicedSearch] = None
        self._stop = threading.Event()  # the game is closed
        self._move_stop = threading.Event()  # the engine's current search is to end now
        self._lock = threading.Lock()  # one move at a time: held by a move or the engine's search
        # Held while a move changes the game's fields and while a view reads them: a view (on the
        # event loop) never sees the new position with the old history, and needs no move lock.
        self._fields = threading.Lock()

    # -- moves -----------------------------------------------------------------------------------

    def engine_to_move(self, position: Optional[Position] = None) -> bool:
        """Whether the engine moves next in ``position`` (default: the game's)."""
        position = self.position if position is None else position
        return not position.is_terminal and position.turn in self.engine_seats

    def play(self, move: Any) -> None:
        """A move from the page (a player's seat): ``N2``, ``H:N2``, ``draw`` or ``pass``."""
        if not isinstance(move, str):
            raise InvalidArgumentError(f"move: expected a move in RULES.md notation, got {type(move).__name__}", "move")
        if not self._lock.acquire(blocking=False):
            raise WebError(409, "move: the engine is thinking; wait for its move", "move")
        try:
            if self.position.is_terminal:
                raise WebError(409, "move: the game is over", "move")
            if self.engine_to_move():
                raise WebError(409, f"move: it is the engine's turn ({self.position.turn})", "move")
            if move.strip().lower().startswith("draw:"):
                raise InvalidArgumentError("move: draw with a plain 'draw'; the server deals the card", "move")
            self._apply(move.strip())
        finally:
            self._lock.release()

    def engine_move(self) -> Dict[str, Any]:
        """The engine's move at its seat: searched (blocking; call it on a worker thread) and played."""
        if not self._lock.acquire(blocking=False):
            raise WebError(409, "engine: the engine is already thinking", "engine")
        try:
            if self.position.is_terminal:
                raise WebError(409, "engine: the game is over", "engine")
            if not self.engine_to_move():
                raise WebError(409, f"engine: {self.position.turn} is not an engine seat", "engine")
            public = self.position.hide_pile_order()
            legal = public.legal_moves()
            if len(legal) == 1:  # nothing to think about (a forced pass, say)
                move, search = str(legal[0]), None
            else:
                self._counter.acquire()
                try:
                    if self._searcher is None:
                        self._searcher = new_searcher(self._search_seed, public.players)
                    self._move_stop.clear()
                    if self._stop.is_set():
                        self._move_stop.set()
                    snapshot = self._searcher.run(public, self.limits, self._move_stop)
                finally:
                    self._counter.release()
                move = level_move(snapshot.best_move, public, self.level, self._search_seed)
                # `played` is the move made: below level 10 it may be a random one, not `best_move`
                search = dict(views.search_view(snapshot, public, done=True), played=move)
            if self._stop.is_set():
                raise WebError(410, "engine: the game was closed", "engine")
            self._apply(move, red_winrate=search["red_winrate"] if search else None, search=search)
            return {"move": self.moves[-1], "search": search}
        finally:
            self._lock.release()

    def _apply(self, move: str, red_winrate: Optional[float] = None, search: Any = _KEEP) -> None:
        position = self.position
        if move.lower() == "draw" and position.is_legal("draw"):
            move = "draw:" + self._dealer.card(position)
        after = position.play(move)  # IllegalMoveError (listing the legal moves) leaves all as it was
        if move.startswith("draw:"):
            self._dealer.observe(position, after)
        played, fen = str(Move(move)), after.fen(hide_pile_order=True)  # as the API writes it: h:n2 -> H:N2
        with self._fields:
            self.position = after
            self.moves.append(played)
            self.fens.append(fen)
            self.red_winrates[-1] = red_winrate
            self.red_winrates.append(None)
            if search is not _KEEP:
                self.last_search = search

    def interrupt_search(self) -> None:
        """End the engine's running search now: it plays the best move found so far."""
        self._move_stop.set()
        if self._searcher is not None:
            self._searcher.interrupt()

    def close(self) -> None:
        """Stop the engine's search, if one runs."""
        self._stop.set()
        self.interrupt_search()

    # -- views -----------------------------------------------------------------------------------

    def view(self) -> Dict[str, Any]:
        """The game as the page sees it (R14: public facts only; no seed while it runs)."""
        with self._fields:  # one consistent state, even while a move is being applied
            position, moves, fens = self.position, list(self.moves), list(self.fens)
            red_winrates, last_search = list(self.red_winrates), self.last_search
        return {
            "id": self.id,
            "engine_seats": self.engine_seats,
            "engine_to_move": self.engine_to_move(position),
            "strength": {"iterations": self.limits.iterations, "time_ms": self.limits.time_ms, "level": self.level},
            "position": views.position_view(position),
            "last_move": moves[-1] if moves else None,
            "last_search": last_search,
            "history": views.history_view(fens, moves, red_winrates),
        }

    def record(self) -> Dict[str, Any]:
        """The finished game as a match record (one ``--jsonl`` line); only once it is over."""
        with self._fields:
            position, moves = self.position, list(self.moves)
        winner = position.winner
        if winner is None:  # the game goes on (a finished one has "red", "white" or "draw": R12)
            raise WebError(409, "record: the game is not over (its record would reveal the deal)", "record")
        # A colour is "mcts" or "player", or, a team of both, each seat named: "r1:player+r2:mcts".
        names = {}
        for colour in ("r", "w"):
            kinds = {seat: "mcts" if seat in self.engine_seats else "player"
                     for seat in views.seats(self.players) if seat.startswith(colour)}
            mixed = len(set(kinds.values())) > 1
            names[colour] = "+".join(f"{s}:{k}" for s, k in kinds.items()) if mixed else next(iter(kinds.values()))
        return GameRecord(seed=self._seed, players=self.players, reshuffle=self.reshuffle, red=names["r"],
                          white=names["w"], winner=winner, scores=list(position.scores),
                          moves=moves).to_json()


class AnalysisSession:
    """One analysis: a position searched on a worker thread until its budget ends or it is stopped."""

    def __init__(self, analysis_id: str, counter: SearchCounter, position: Position, limits: Limits,
                 seed: int) -> None:
        self.id = analysis_id
        self.position = position.hide_pile_order()
        self.limits = limits
        self.latest: Optional[SearchSnapshot] = None
        self.result: Optional[SearchSnapshot] = None
        self._counter = counter
        self._stop = threading.Event()
        self._searcher = new_searcher(seed, self.position.players)

    def run(self, progress: Callable[[SearchSnapshot], None] = lambda s: None) -> SearchSnapshot:
        """Search (blocking, on a worker thread); the counter was acquired by :meth:`Sessions.analyse`.
        Stopped after MAX_ANALYSIS_MS whatever the budget: 10**9 iterations take longer. (A timer,
        not a time limit in ``limits``: an iteration budget's slices, and so its search, stay the same.)"""
        watchdog = threading.Timer(MAX_ANALYSIS_MS / 1000.0, self.stop)
        watchdog.daemon = True
        watchdog.start()
        try:
            def seen(snapshot: SearchSnapshot) -> None:
                self.latest = snapshot
                progress(snapshot)
            self.result = self._searcher.run(self.position, self.limits, self._stop, seen)
            return self.result
        finally:
            watchdog.cancel()
            self._counter.release()

    def stop(self) -> None:
        """End the search within a slice (from any thread)."""
        self._stop.set()
        self._searcher.interrupt()

    @property
    def stopped(self) -> bool:
        """True once :meth:`stop` was called."""
        return self._stop.is_set()


class Sessions:
    """Every open game and running analysis of one server, by id."""

    def __init__(self, max_games: int = MAX_GAMES, max_searches: int = MAX_SEARCHES) -> None:
        self.games: "OrderedDict[str, GameSession]" = OrderedDict()
        self.analyses: Dict[str, AnalysisSession] = {}
        self.searches = SearchCounter(max_searches)
        self.max_games = max_games
        self._lock = threading.Lock()

    def new_game(self, body: Mapping[str, Any]) -> GameSession:
        """A game from the page's settings: players, reshuffle, seed, engine_seats, strength."""
        check_known(body, sorted(("players", "reshuffle", "seed", "engine_seats", "iterations", "time_ms", "level",
                                  "search_seed")), "setting")
        players = check_players(body.get("players", 2))
        reshuffle = check_choice("reshuffle", body.get("reshuffle", "eager"), ("eager", "lazy"))
        seed = body.get("seed")
        # A random deal from the whole range the page can hold exactly (JavaScript's safe integers):
        # from 2**32 seeds the hands on show narrowed the search for the pile to a few candidates.
        seed = secrets.randbelow(2**53) if seed is None else check_int("seed", seed, 0, 2**63 - 1)
        engine_seats = body.get("engine_seats", ["w"] if players == 2 else ["w1", "w2"])
        if not isinstance(engine_seats, list):
            raise InvalidArgumentError("engine_seats: expected a list of seats", "engine_seats")
        for seat in engine_seats:
            check_choice("engine_seats", seat, views.seats(players))
        level = check_int("level", body.get("level", STRENGTH_MAX), 1, STRENGTH_MAX)
        limits = strength_limits(body.get("iterations"), body.get("time_ms"), level)
        search_seed = check_int("search_seed", body.get("search_seed", 0), 0, 2**63 - 1)
        game = GameSession(secrets.token_hex(8), self.searches, players=players, reshuffle=reshuffle, seed=seed,
                           engine_seats=sorted(set(engine_seats), key=views.seats(players).index),
                           limits=limits, search_seed=search_seed, level=level)
        with self._lock:
            self.games[game.id] = game
            while len(self.games) > self.max_games:
                _, old = self.games.popitem(last=False)
                old.close()
        return game

    def game(self, game_id: str) -> GameSession:
        """The open game ``game_id``, now the most recently used; a 404 :class:`WebError` if there is none."""
        with self._lock:
            game = self.games.get(game_id)
            if game is None:
                raise WebError(404, f"game: no game '{game_id[:40]}' (it ended or the server restarted)", "game")
            self.games.move_to_end(game_id)
            return game

    def close_game(self, game_id: str) -> None:
        """Stop game ``game_id``'s search, if one runs, and drop the game; a 404 :class:`WebError` if there is none."""
        game = self.game(game_id)
        with self._lock:
            self.games.pop(game_id, None)
        game.close()

    def analyse(self, position: Position, limits: Limits, seed: int = 0) -> AnalysisSession:
        """Register an analysis (counted as running from now); the caller runs it on a thread."""
        self.searches.acquire()
        analysis = AnalysisSession(secrets.token_hex(8), self.searches, position, limits, seed)
        with self._lock:
            self.analyses[analysis.id] = analysis
        return analysis

    def forget_analysis(self, analysis: AnalysisSession) -> None:
        """Drop ``analysis`` from the running analyses once it has ended (nothing if it is already gone)."""
        with self._lock:
            self.analyses.pop(analysis.id, None)

    def stop_analysis(self, analysis_id: str) -> None:
        """Stop the running analysis ``analysis_id``; a 404 :class:`WebError` if there is none."""
        with self._lock:
            analysis = self.analyses.get(analysis_id)
        if analysis is None:
            raise WebError(404, f"analysis: no running analysis '{analysis_id[:40]}'", "analysis")
        analysis.stop()

    def stop_all(self) -> None:
        """Stop every search (the server is shutting down)."""
        with self._lock:
            games, analyses = list(self.games.values()), list(self.analyses.values())
        for game in games:
            game.close()
        for analysis in analyses:
            analysis.stop()

    def health(self) -> Dict[str, Any]:
        """What ``/api/health`` reports: ok, open games, running analyses, and searches running and finished."""
        return {"ok": True, "games": len(self.games), "analyses": len(self.analyses),
                "searches_running": self.searches.running, "searches_finished": self.searches.finished}


def check_known(body: Mapping[str, Any], known: Sequence[str], what: str) -> None:
    """An error naming the first key of ``body`` not in ``known`` (a misspelt key would otherwise
    be ignored and its default used); ``what`` the keys are, in the message."""
    for key in body:
        if key not in known:
            shown = key if len(key) <= 40 and key.isprintable() else repr(key[:40])  # no megabyte echoed
            raise InvalidArgumentError(f"{shown}: unknown {what} (known: {', '.join(known)})", shown)


def analysis_limits(iterations: Any = None, time_ms: Any = None) -> Limits:
    """An analysis's budget: iterations, or time_ms, or neither (until stopped, at most 10 minutes;
    an iteration budget is stopped there too: :meth:`AnalysisSession.run`)."""
    return _budget(iterations, None if time_ms == 0 else time_ms, max_iterations=10**9,
                   time_range=(1, MAX_ANALYSIS_MS), no_time=lambda: Limits(time_ms=MAX_ANALYSIS_MS, infinite=True))


def load_records(text: Any, limit: int = MAX_RECORD_GAMES) -> Tuple[List[Dict[str, Any]], int]:
    """The first ``limit`` games of a match / self-play JSONL file, each replayed
    (``rosen.match.replay`` checks it) into the public positions of every ply, and how many
    records after them were left out."""
    if not isinstance(text, str):
        raise InvalidArgumentError("text: expected the JSONL file's text", "text")
    games = []
    lines = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    if not lines:
        raise InvalidArgumentError("text: the file holds no game record", "text")
    for n, line in lines[:limit]:
        try:
            record = _json.loads(line)
        except ValueError as exc:
            raise InvalidArgumentError(f"text: line {n} is not JSON ({exc})", "text") from None
        if not isinstance(record, dict):
            raise InvalidArgumentError(f"text: line {n} is not a game record (a JSON object)", "text")
        fens: List[str] = []
        try:
            position = replay(record, visit=lambda p: fens.append(p.fen(hide_pile_order=True)))
        except (RosenError, TypeError, ValueError) as exc:
            raise InvalidArgumentError(f"text: line {n}: {exc}", "text") from None
        moves = [str(move) for move in record["moves"]]
        games.append({"line": n, "red": str(record.get("red", "")), "white": str(record.get("white", "")),
                      "players": record["players"], "reshuffle": record["reshuffle"], "winner": position.winner,
                      "scores": list(position.scores), "moves": moves, "fens": fens})
    return games, max(0, len(lines) - limit)


def new_searcher(seed: int, players: int) -> SlicedSearch:
    """A one-thread searcher for a ``players``-player game with the engine's default evaluator
    (the shipped network of the game: rosen.search.AUTO_EVALUATOR)."""
    return SlicedSearch(threads=1, seed=seed, max_tree_size=TREE_SIZE,
                        evaluator=engine_evaluator(AUTO_EVALUATOR, players))


def evaluate(fens: Any, reshuffle: Any, iterations: Any, counter: SearchCounter, stop: threading.Event) -> List[
        Optional[float]]:
    """Red's win rate at each position by a short search (None where the game is over); blocking."""
    if not isinstance(fens, list) or not fens:
        raise InvalidArgumentError("fens: expected a non-empty list of positions", "fens")
    if len(fens) > MAX_EVALUATE_POSITIONS:
        raise InvalidArgumentError(f"fens: at most {MAX_EVALUATE_POSITIONS} positions, got {len(fens)}", "fens")
    iterations = check_int("iterations", iterations, 1, MAX_EVALUATE_ITERATIONS)
    positions = []
    for i, fen in enumerate(fens):
        try:
            positions.append(parse_position(fen, reshuffle))
        except RosenError as exc:
            raise InvalidArgumentError(f"fens[{i}]: {exc}", "fens") from None
    counter.acquire()
    try:
        searchers: Dict[int, SlicedSearch] = {}  # one a player count (a record holds one game)
        out: List[Optional[float]] = []
        for position in positions:
            if position.is_terminal or stop.is_set():
                out.append(None)
                continue
            if position.players not in searchers:
                searchers[position.players] = new_searcher(0, position.players)
            searcher = searchers[position.players]
            snapshot = searcher.run(position, Limits(iterations=iterations), stop)
            out.append(round(views.red_winrate(snapshot.root.winrate, position.colour_to_move), 4))
        return out
    finally:
        counter.release()
