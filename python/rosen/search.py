"""Monte Carlo tree search for Rosenkönig (2 players and the 4-player team variant).

The search runs in C++ with the GIL released. It never reads the order of the draw pile
(RULES.md R14): the root is reduced to what a player may know, and every draw is a chance event
whose card is sampled uniformly from the cards the pile can yield. See docs/search.md.

>>> import rosen
>>> result = rosen.search(rosen.Position.new(seed=1), iterations=200, seed=7)
>>> result.best_move in rosen.Position.new(seed=1).legal_moves()
True

The parameters (:class:`SearchParams`) come from one table in the C++ core
(``cpp/search/params.h``): their names, types, defaults, ranges and descriptions are read from
it here, so they are listed and checked in one place only.
"""
from __future__ import annotations

import inspect
import signal
import sys
import threading
from typing import TYPE_CHECKING, Any, Callable, Dict, List, NamedTuple, Optional, Tuple, TypedDict


class _AnyKwargs:
    """``Unpack`` where neither typing (3.11+) nor typing_extensions has it: ``_AnyKwargs()[X]`` is
    ``Any``, so that typing.get_type_hints still reads the signatures (a bare None failed there)."""

    def __getitem__(self, item: Any) -> Any:
        return Any

    def __repr__(self) -> str:
        return "Unpack"


def _typed_kwargs() -> Any:
    """PEP 692's ``Unpack`` at run time: typing's from 3.11; before, typing_extensions' where it is
    installed (not a dependency), else :class:`_AnyKwargs`."""
    if sys.version_info >= (3, 11):
        from typing import Unpack as found
        return found
    try:
        from typing_extensions import Unpack as found
    except ImportError:
        return _AnyKwargs()
    return found


# Typed **kwargs (PEP 692), importable at run time too, so that typing.get_type_hints reads them.
if TYPE_CHECKING:
    from typing_extensions import Unpack
else:
    Unpack = _typed_kwargs()

from . import _core
from ._core import Move, Position
from .errors import ArgumentTypeError

#: Bytes one tree node takes (the unit of ``max_tree_size``).
NODE_BYTES: int = _core._node_bytes


def iterations_per_second(iterations: int, time_ms: float) -> float:
    """The search speed (nps) of ``iterations`` in ``time_ms``: the one formula every report uses.

    Iterations, not tree nodes: with tree reuse a tree holds nodes kept from earlier moves,
    which would overstate the speed.
    """
    return iterations * 1000.0 / time_ms if time_ms > 0 else 0.0


class ParamInfo(NamedTuple):
    """One search parameter as the C++ core describes it."""

    name: str
    type: str                   #: 'int', 'float' or 'str'
    default: Any
    min: Optional[float]        #: inclusive range of numbers (None for words)
    max: Optional[float]
    choices: Tuple[str, ...]    #: the accepted words of a 'str' parameter
    doc: str

    def describe(self) -> str:
        """One line for help texts: the name, what it accepts, its default and its meaning."""
        if self.choices:
            accepts = " | ".join(self.choices)
        elif self.type == "int" and self.min is not None and self.max is not None:  # (a number has a range)
            # whole numbers in full: 1.84467e+19 is not the seed's limit
            accepts = f"{int(self.min)}..{int(self.max)}"
        else:
            accepts = f"{self.min:g}..{self.max:g}"
        return f"{self.name} ({accepts}; default {self.default!r}): {self.doc}"


#: Every search parameter, in declaration order.
PARAMS: Tuple[ParamInfo, ...] = tuple(ParamInfo(*row) for row in _core._search_param_info())
_NAMES = tuple(p.name for p in PARAMS)
_DEFAULT_ITERATIONS = next(p.default for p in PARAMS if p.name == "iterations")



class SearchOptions(TypedDict, total=False):
    """The search parameters as keyword arguments (every one optional), for type checkers:
    ``SearchParams(**opts)``, ``rosen.search(pos, **opts)``, ``Searcher(**opts)`` and
    ``MCTSAgent(**opts)`` take them, so a misspelt name or a wrong type is flagged before the
    run-time check (:class:`SearchParams`) would raise. A word (``rollout``, ``reward``,
    ``minimax_values``) is a ``str``: one read from a command line or a file type-checks as well as
    a literal. ``tests/test_typing.py`` holds it to :data:`PARAMS`."""

    iterations: int
    time_ms: int
    exploration: float
    prior_weight: float
    rollout: str
    rollout_cutoff: int
    reward: str
    margin_weight: float
    threads: int
    seed: int
    max_tree_size: int
    temperature: float
    hero_cost: float
    draw_value: float
    block_weight: float
    eval_scale: float
    minimax_weight: float
    minimax_values: str
    puct_c: float
    network_value_weight: float
    solve_share: float


def _iterations_for(time_ms: int) -> int:
    """``iterations`` when it is not given: 0 (no limit) with a time budget, else its default."""
    return 0 if time_ms > 0 else _DEFAULT_ITERATIONS


class SearchParams:
    """Every parameter of the search, keyword-only, checked on construction; immutable.

    ``SearchParams(iterations=5000, rollout="random")``; ``params.replace(seed=3)`` makes a
    changed copy. A bad value raises :class:`rosen.InvalidArgumentError` (wrong type:
    :class:`rosen.ArgumentTypeError`) whose ``field`` is the parameter's name.
    ``SearchParams.PARAMS`` describes every field (name, type, default, range, meaning).

    ``iterations`` goes with ``time_ms`` unless it is given: 1000 without a time budget, 0 (no
    limit) with one, so ``SearchParams(time_ms=200)`` searches 200 ms, as ``rosen analyse
    --time-ms`` and ``go movetime`` do. Given both, the first limit reached ends the search.
    ``replace(time_ms=...)`` keeps that pairing while ``iterations`` is the one that went with the
    old ``time_ms``; an ``iterations`` set to anything else stays.
    """

    __slots__ = _NAMES
    PARAMS = PARAMS

    if TYPE_CHECKING:  # the fields, read-only, for type checkers (at run time they come from the core's table)
        @property
        def iterations(self) -> int: ...
        @property
        def time_ms(self) -> int: ...
        @property
        def exploration(self) -> float: ...
        @property
        def prior_weight(self) -> float: ...
        @property
        def rollout(self) -> str: ...
        @property
        def rollout_cutoff(self) -> int: ...
        @property
        def reward(self) -> str: ...
        @property
        def margin_weight(self) -> float: ...
        @property
        def threads(self) -> int: ...
        @property
        def seed(self) -> int: ...
        @property
        def max_tree_size(self) -> int: ...
        @property
        def temperature(self) -> float: ...
        @property
        def hero_cost(self) -> float: ...
        @property
        def draw_value(self) -> float: ...
        @property
        def block_weight(self) -> float: ...
        @property
        def eval_scale(self) -> float: ...
        @property
        def minimax_weight(self) -> float: ...
        @property
        def minimax_values(self) -> str: ...
        @property
        def puct_c(self) -> float: ...
        @property
        def network_value_weight(self) -> float: ...
        @property
        def solve_share(self) -> float: ...

    def __init__(self, **values: Unpack[SearchOptions]) -> None:
        if hasattr(self, _NAMES[0]):  # __init__ again on a made one: it is a dict key somewhere, perhaps
            raise AttributeError("SearchParams is immutable; use replace(**changes)")
        checked = _core._search_params(dict(values))
        if "iterations" not in values:  # SearchParams(time_ms=200): 200 ms, not 1000 iterations first
            checked["iterations"] = _iterations_for(checked["time_ms"])
        for name, value in checked.items():
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("SearchParams is immutable; use replace(**changes)")

    def as_dict(self) -> Dict[str, Any]:
        """The fields by name, as keyword arguments."""
        return {name: getattr(self, name) for name in _NAMES}

    def replace(self, **changes: Unpack[SearchOptions]) -> "SearchParams":
        """A copy with some fields changed (checked again)."""
        values = {**self.as_dict(), **changes}
        if "time_ms" in changes and "iterations" not in changes and self.iterations == _iterations_for(self.time_ms):
            del values["iterations"]  # the budget's own pairing: it follows the new time_ms
        return SearchParams(**values)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SearchParams) and self.as_dict() == other.as_dict()

    def __hash__(self) -> int:
        return hash(tuple(self.as_dict().items()))

    def __repr__(self) -> str:
        # A field is written when reading it back would give another value: iterations' default
        # follows time_ms (SearchParams(time_ms=200, iterations=1000) once printed as time_ms=200,
        # which reads back with iterations 0).
        def implied(p: ParamInfo) -> Any:
            return _iterations_for(self.time_ms) if p.name == "iterations" else p.default
        changed = ", ".join(f"{p.name}={getattr(self, p.name)!r}" for p in PARAMS if getattr(self, p.name) != implied(p))
        return f"SearchParams({changed})"

    def __reduce__(self):  # pickling goes through the keyword arguments
        return (_from_dict, (self.as_dict(),))


# cleandoc first: Python 3.13 strips a docstring's indentation when it compiles it and earlier ones
# do not, so a Fields list indented to match the source would stand apart under 3.13's help().
SearchParams.__doc__ = inspect.cleandoc(SearchParams.__doc__ or "") + "\n\nFields:\n\n" + "\n".join(
    f"- {p.describe()}" for p in PARAMS) + "\n"
SearchParams.__init__.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
    [inspect.Parameter("self", inspect.Parameter.POSITIONAL_ONLY)]
    + [inspect.Parameter(p.name, inspect.Parameter.KEYWORD_ONLY, default=p.default) for p in PARAMS])


def _from_dict(d: dict) -> SearchParams:
    return SearchParams(**d)


class MoveInfo(NamedTuple):
    """Statistics of one root move, from the view of the side to move."""

    move: Move
    visits: int
    winrate: float   #: mean reward 0..1 (1 = a sure win for the mover)
    prior: float     #: the policy's probability: the network's with an evaluator, else the heuristic's
                     #: (uniform with rollout="random")
    score: float     #: expected score margin where rollouts end (R11), own minus opponent
    pv: List[Move]   #: this move and the most visited line after it, to the first draw


class SearchResult:
    """What a search found; numbers are from the view of the side to move at the root.

    best_move: the most visited root move. moves: :class:`MoveInfo` per root move, most visited
    first, each with its own line. pv: the principal variation (the best move's line), ending at
    the first draw, whose card is unknown. depth: mean plies inside the tree per iteration;
    seldepth: the deepest. tree_size: nodes in the trees (all threads). iterations: playouts of
    this search. reused_visits: root visits kept from the previous search by tree reuse (visits:
    the root moves' visits together, these included). nps:
    iterations per second (of the tree). time_ms: elapsed. winrate, score: of the best move.
    proven: the endgame solver (``solve_share``) proved the position's value; winrate is then that
    exact expected result and best_move a move that attains it (docs/search.md, "Endgame solver").
    """

    __slots__ = ("best_move", "moves", "pv", "depth", "seldepth", "tree_size", "iterations", "reused_visits", "nps",
                 "time_ms", "winrate", "score", "proven")

    def __init__(self, raw: Any) -> None:
        self.best_move = Move(raw.best_move)
        self.moves: List[MoveInfo] = [MoveInfo(Move(m), v, w, p, s, [Move(x) for x in line])
                                      for (m, v, w, p, s, line) in raw.moves]
        self.pv: List[Move] = [Move(m) for m in raw.pv]
        self.depth: float = raw.depth
        self.seldepth: int = raw.seldepth
        self.tree_size: int = raw.tree_size
        self.iterations: int = raw.iterations
        self.reused_visits: int = raw.reused_visits
        self.nps: float = raw.nps
        self.time_ms: float = raw.time_ms
        self.winrate: float = raw.winrate
        self.score: float = raw.score
        self.proven: bool = raw.proven

    def __getstate__(self) -> Dict[str, Any]:
        # explicit, so that protocols 0 and 1 pickle it too (a slotted class without one refuses them)
        return {name: getattr(self, name) for name in self.__slots__}

    def __setstate__(self, state: Dict[str, Any]) -> None:
        for name in self.__slots__:
            setattr(self, name, state[name])

    @property
    def visits(self) -> int:
        """Visits of all root moves together: the iterations plus what tree reuse kept of them.
        After reuse it can be a few fewer: the kept root's first visit in each thread's tree, when
        it was still a leaf, went to no move, and in a full tree (``max_tree_size``) a visit that
        cannot expand the kept root ends there; the same position searched again keeps them all."""
        return sum(m.visits for m in self.moves)

    def __repr__(self) -> str:
        top = ", ".join(f"{m.move}:{m.visits}/{m.winrate:.3f}" for m in self.moves[:5])
        return (f"SearchResult(best_move={str(self.best_move)!r}, winrate={self.winrate:.3f}, score={self.score:+.1f}, "
                f"{'proven=True, ' if self.proven else ''}"
                f"pv='{' '.join(str(m) for m in self.pv)}', depth={self.depth:.1f}, seldepth={self.seldepth}, "
                f"tree_size={self.tree_size}, iterations={self.iterations}, nps={self.nps:.0f}, "
                f"time_ms={self.time_ms:.1f}, moves=[{top}])")


def _params(params: Optional[SearchParams], kwargs: dict) -> SearchParams:
    if params is None:
        return SearchParams(**kwargs)
    if not isinstance(params, SearchParams):
        raise ArgumentTypeError(f"params: expected a rosen.SearchParams, got {type(params).__name__}", "params")
    return params.replace(**kwargs) if kwargs else params


def optional_evaluator(evaluator: Any) -> Tuple[Any, Any]:
    """``(None, None)`` for no evaluator (None, ``""`` or ``"none"`` in any case, as the frontends
    read them: :data:`NO_EVALUATOR`), else ``(as_evaluator(evaluator), its native network)``: what
    a C++ search (rosen's, the expectimax) takes as its ``network`` argument. Only searches with a
    network import rosen.learning."""
    if is_no_evaluator(evaluator):
        return None, None
    from .learning.evaluator import as_evaluator

    loaded = as_evaluator(evaluator)
    return loaded, loaded._core


def _check_position(position: Any) -> Position:
    if not isinstance(position, Position):
        raise ArgumentTypeError(f"position: expected a rosen.Position, got {type(position).__name__}", "position")
    return position  # a finished game is refused by the C++ searcher, with the same InvalidArgumentError


def run_interruptibly(call: Callable[[], Any], stop: Callable[[], None], name: str,
                      withdraw: Optional[Callable[[], None]] = None) -> Any:
    """``call()`` (a long compiled call that releases the GIL) so that a Ctrl-C ends it: Python
    runs signal handlers in the main thread between bytecodes, never inside a compiled call, so a
    call of minutes would hold a Ctrl-C that long. The main thread waits for a worker thread that
    makes the call (an event's wait is interrupted by signals); on Ctrl-C (or any exception a
    signal handler raises) it calls ``stop()``, waits for the call to end, calls ``withdraw()``
    (a stop that came after the call ended must not end the next one) and re-raises. The call's
    own exception is re-raised too. Outside the main thread, which receives no signals, it is
    simply ``call()``.

    The call must never outlive this function: one still running when the interpreter exits
    aborts the process (its C++ threads are destroyed unjoined). So a Ctrl-C during ``start()`` is
    held back until the thread runs, further ones wait for the stop, and the wait is on an event
    the worker sets, not on ``join()``: in CPython 3.11 an interrupted join can mark a running
    thread as ended."""
    if threading.current_thread() is not threading.main_thread():
        return call()
    outcome: Dict[str, Any] = {}
    done = threading.Event()

    def work() -> None:
        try:
            outcome["result"] = call()
        except BaseException as exc:  # re-raised in the caller's thread
            outcome["error"] = exc
        finally:
            done.set()

    worker = threading.Thread(target=work, name=name, daemon=True)
    held: List[Any] = []
    previous = signal.getsignal(signal.SIGINT)
    hold = callable(previous)  # only a Python-level handler can be held back
    started = False
    try:
        if hold:
            signal.signal(signal.SIGINT, lambda signum, frame: held.append(frame))
        try:
            worker.start()
            started = True
        finally:
            if hold:
                signal.signal(signal.SIGINT, previous)
        if held and callable(previous):  # (held only when previous is callable: hold)
            previous(signal.SIGINT, held[0])  # the default handler raises KeyboardInterrupt here
        done.wait()
    except BaseException:
        if started:
            _wait_for_stop(stop, done, withdraw)
        raise
    if "error" in outcome:
        raise outcome["error"]
    return outcome["result"]


def _wait_for_stop(stop: Callable[[], None], done: threading.Event, withdraw: Optional[Callable[[], None]]) -> None:
    """Stop the call, wait for it and withdraw the stop, whatever further Ctrl-Cs arrive meanwhile."""
    for step in (stop, done.wait, withdraw):
        while step is not None:
            try:
                step()
                break
            except KeyboardInterrupt:
                pass


#: Budgets short enough to search in the calling thread even in the main one (Searcher._short).
_SHORT_MS, _SHORT_ITERATIONS = 100, 5000


class Searcher:
    """A persistent search: keeps its trees between calls and reuses the subtree of a position
    that lies a few plies below the last one searched (our move, their reply, draws between).

    ``Searcher(**params)`` or ``Searcher(params=SearchParams(...))``.

    ``evaluator`` (a network file path, ``builtin``, ``builtin-team``, a
    :class:`rosen.learning.Network` or a :class:`rosen.Evaluator`; None, ``""`` or ``"none"``: no
    network) guides the search with a network: PUCT selection over its policy
    (``puct_c``) and its value at the leaves (blended with a rollout's by
    ``network_value_weight``); see docs/learning.md. Without one the search is UCT with
    rollouts, exactly as it always was. The network is not a search parameter: ``params`` stay
    numbers, comparable and picklable.

    Cancelling: ``stop()`` may be called from any thread. It ends the running search within an
    iteration; when no search is running, the *next* search returns at once (zero iterations,
    the policy's favourite move), so a stop sent just before ``search()`` starts is never lost.
    Each search clears the request when it returns; ``clear_stop()`` withdraws one that no
    search has honoured yet. ``reset()`` forgets the trees (a new game).

    A searcher pickles (e.g. into a worker process) as a fresh one with the same parameters and
    network: its trees stay behind, so its next search is a new searcher's.
    """

    def __init__(self, params: Optional[SearchParams] = None, *, evaluator: Any = None,
                 **kwargs: Unpack[SearchOptions]) -> None:
        self._params = _params(params, dict(kwargs))
        self._evaluator, network = optional_evaluator(evaluator)
        self._searcher = _core._Searcher(self._params.as_dict(), network=network)

    @property
    def params(self) -> SearchParams:
        """The parameters, fixed when the searcher was made (read-only: the C++ searcher was built
        with them; a searcher with others is a new ``Searcher(params=...)``)."""
        return self._params

    @property
    def evaluator(self) -> Any:
        """The network that guides the search (an :class:`rosen.Evaluator`), or None (read-only)."""
        return self._evaluator

    def search(self, position: Position, *, iterations: Optional[int] = None,
               time_ms: Optional[int] = None) -> SearchResult:
        """Search ``position`` within the budget (the GIL is released meanwhile). In the main
        thread a Ctrl-C stops the search at once and raises ``KeyboardInterrupt`` (a budget of at
        most 100 ms or 5 000 iterations just ends first).

        ``iterations`` and ``time_ms``, if either is given, are this search's whole budget instead
        of the parameters' (one left out is no limit of its kind; a player on a game clock decides
        each move's time); the trees are kept as with the parameters' budget."""
        position = _check_position(position)
        run: Callable[[Position], Any]
        if iterations is None and time_ms is None:
            iterations, time_ms = self.params.iterations, self.params.time_ms
            run = self._searcher.search  # the parameters' budget, as it always was
        else:
            # Checked as the parameters are (their bounds, not both 0).
            budget = self.params.replace(iterations=0 if iterations is None else iterations,
                                         time_ms=0 if time_ms is None else time_ms)
            iterations, time_ms = budget.iterations, budget.time_ms

            def limited(position: Position) -> Any:
                self._searcher.limit_reuse(budget.time_ms)
                return self._searcher.search(position, iterations=budget.iterations, time_ms=budget.time_ms, stream=0)
            run = limited
        if 0 < time_ms <= _SHORT_MS or 0 < iterations <= _SHORT_ITERATIONS:
            return SearchResult(run(position))
        return SearchResult(run_interruptibly(lambda: run(position), self._searcher.stop,
                                              "rosen-search", withdraw=self._searcher.clear_stop))

    def stop(self) -> None:
        """End the running search, or else the next one, at once (see the class docstring)."""
        self._searcher.stop()

    def clear_stop(self) -> None:
        """Withdraw a stop request that no search has honoured yet."""
        self._searcher.clear_stop()

    @property
    def stop_requested(self) -> bool:
        """True while a stop request waits for a search to honour it."""
        return self._searcher.stop_requested

    def reset(self) -> None:
        """Forget the trees, so that the next search starts from scratch."""
        self._searcher.reset()

    def __reduce__(self) -> Tuple[Any, ...]:
        return _fresh_searcher, (self.params, self.evaluator)

    def __repr__(self) -> str:
        with_network = f", evaluator={self.evaluator!r}" if self.evaluator is not None else ""
        return f"Searcher({self.params!r}{with_network})"


def _fresh_searcher(params: SearchParams, evaluator: Any) -> Searcher:
    """What a pickled :class:`Searcher` loads as (``evaluator`` is keyword-only there)."""
    return Searcher(params, evaluator=evaluator)


#: The evaluator setting of rosen's own frontends (``rosen play``, ``rosen analyse``, ``rosen engine``'s
#: ``EvalFile``, ``rosen serve``) unless told otherwise: the shipped network of the game being played,
#: "builtin" (trained on 2-player games) or "builtin-team" (trained on 4-player team games); the
#: 2-player network in the team game was measured no better than rollouts (docs/strength.md,
#: "The engine's evaluator").
AUTO_EVALUATOR = "auto"
#: The settings that mean "no network: rollouts".
NO_EVALUATOR = ("", "none")


def is_no_evaluator(setting: Any) -> bool:
    """Whether an evaluator setting means "no network": None, ``""`` or ``"none"`` (any case). A
    network file named ``none`` is ``./none``."""
    return setting is None or (isinstance(setting, str) and setting.lower() in NO_EVALUATOR)


def is_auto(setting: Any) -> bool:
    """Whether an evaluator setting is ``"auto"`` (any case): the shipped network of the game played."""
    return isinstance(setting, str) and setting.lower() == AUTO_EVALUATOR


def engine_evaluator(setting: Any, players: int) -> Any:
    """The evaluator a frontend searches a ``players``-player game with, for ``setting``:
    ``"auto"`` (:data:`AUTO_EVALUATOR`) is the shipped network of that game ("builtin" with 2 players,
    "builtin-team" with 4); ``""``, ``"none"`` or None is None; anything else is read as
    :class:`Searcher`'s ``evaluator`` (a bad file raises an error naming it). Networks are read once
    and shared."""
    if is_no_evaluator(setting):
        return None
    # Only searches with a network load rosen.learning.
    from .learning.evaluator import as_evaluator
    from .learning.network import builtin_for

    if is_auto(setting):
        setting = builtin_for(players)

    return as_evaluator(setting)


def search(position: Position, params: Optional[SearchParams] = None, *, evaluator: Any = None,
           **kwargs: Unpack[SearchOptions]) -> SearchResult:
    """One search of ``position`` with fresh trees; parameters as keywords or ``params=``, and an
    optional network (``evaluator``, as :class:`Searcher` takes it)."""
    return Searcher(params, evaluator=evaluator, **kwargs).search(position)
