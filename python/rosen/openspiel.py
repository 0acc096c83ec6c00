"""Rosenkönig as an OpenSpiel game: ``import rosen.openspiel`` registers ``python_rosenkoenig``.

>>> import pyspiel
>>> import rosen.openspiel
>>> game = pyspiel.load_game("python_rosenkoenig(players=2,reshuffle=eager)")
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())   # the deal, card by card
(True, 24)

Chance is explicit, as in OpenSpiel's stochastic games: the deal is 10 chance nodes (12 with 4
players), one card each, player 0's hand first; choosing ``draw`` (action 48) leads to a chance
node over the cards the pile can yield (uniform; a pile's order is never part of the state, so
no observation can reveal it, R14). Player actions are the 50 of docs/encoding.md (0..23 play,
24..47 hero, 48 draw, 49 pass); chance outcomes are card ids 0..23. Returns are +1/-1/0 per
player at the end, shared by a team (zero-sum). The observation tensor is the one encoder from
the observer's view: the flat layout (477 floats, named pieces in the observer's ``dict``) by
default, ``layout=planes`` as an observation parameter for the (35, 9, 9) planes.

Parameters: ``players`` (2 or 4) and ``reshuffle`` ("eager" or "lazy", R7).
"""
from __future__ import annotations

import copyreg
import re
from typing import Dict, List, Mapping, Optional

import numpy as np

from .errors import require_extra

require_extra(__name__, "openspiel", "pyspiel", "open_spiel")

import pyspiel  # after the check, which names the extra
from open_spiel.python.observation import IIGObserverForPublicInfoGame

from . import _core
from .encoding import LAYOUTS, action_index, action_names, feature_names, plane_names
from .errors import ArgumentTypeError, IllegalMoveError, InvalidArgumentError, check_choice, check_players

__all__ = ["GAME_TYPE", "RosenkoenigGame", "RosenkoenigState", "max_game_length"]

_CARDS = tuple(action_names()[:24])
_CARD_IDS = {card: i for i, card in enumerate(_CARDS)}
_DRAW = action_index("draw")
#: One entry of a serialised history: ``player:action`` (chance is player -1).
_HISTORY_ENTRY = re.compile(r"-?[0-9]{1,6}:[0-9]{1,6}")


def max_game_length(players: int) -> int:
    """An upper bound of the decisions in a game. A player's hand starts full and never exceeds
    it, so each draws at most as often as it plays or uses a hero; at most 52 plays (R8) and 8
    heroes, so at most 120 actions that are not passes. A pass is followed by another player's
    action, at most ``players - 1`` passes in a row (if no one can act the game is over, R9)."""
    return 120 * players


GAME_TYPE = pyspiel.GameType(
    short_name="python_rosenkoenig",
    long_name="Python Rosenkoenig (The Rose King)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"players": 2, "reshuffle": "eager"},
)


class _PicklesAtEveryProtocol:
    """pyspiel's games and states pickle through pybind11's ``__getstate__``/``__setstate__``; at
    protocols 0 and 1 (and a bare ``__reduce__()``) Python's default reduction builds the object
    with a plain ``__new__`` that pybind11 refuses with a C++ exception no one catches: the process
    aborted (pyspiel's own Python games do the same). The reduction protocol 2 uses, made explicit,
    works at every protocol."""

    def __reduce__(self):
        return copyreg.__newobj__, (type(self),), self.__getstate__()  # type: ignore[attr-defined]

    def __reduce_ex__(self, protocol):
        return self.__reduce__()  # never object's, which picks the default by protocol


class RosenkoenigGame(_PicklesAtEveryProtocol, pyspiel.Game):
    """The game: its parameters fix the player count and the reshuffle rule (R7, R13)."""

    def __init__(self, params: Optional[Dict] = None) -> None:
        if params is not None and not isinstance(params, Mapping):
            raise ArgumentTypeError(f"params: expected a dict of game parameters, got {type(params).__name__}", "params")
        params = dict(params or {})
        players = check_players(params.get("players", 2))  # 2.7 was read as 2, "x" a bare ValueError
        reshuffle = check_choice("reshuffle", params.get("reshuffle", "eager"), ("eager", "lazy"))
        info = pyspiel.GameInfo(num_distinct_actions=len(action_names()), max_chance_outcomes=len(_CARDS),
                                num_players=players, min_utility=-1.0, max_utility=1.0, utility_sum=0.0,
                                max_game_length=max_game_length(players))
        super().__init__(GAME_TYPE, info, {"players": players, "reshuffle": reshuffle})
        self.players = players
        self.reshuffle = reshuffle

    def __reduce__(self):
        # Made again from its parameters: pybind11's state of a Python game is its name alone, and
        # the copy it made (pickle, deepcopy) lacked `players`, so its new_initial_state() failed.
        return type(self), ({"players": self.players, "reshuffle": self.reshuffle},)

    def new_initial_state(self) -> "RosenkoenigState":
        """Before the deal: a chance node."""
        return RosenkoenigState(self)

    def deserialize_state(self, text: str) -> "RosenkoenigState":
        """The state ``state.serialize()`` wrote, rebuilt from its history: every action is checked
        as it is applied (a bad one raises ``InvalidArgumentError`` naming ``state``). OpenSpiel's
        own reader for Python games (still used by ``pyspiel.deserialize_game_and_state``)
        unpickles the text's ``__dict__`` line, which runs whatever the text asks for; this one
        never reads that line: a history determines the whole state."""
        if not isinstance(text, str):
            raise ArgumentTypeError(f"state: expected the text of state.serialize(), got {type(text).__name__}",
                                    "state")
        lines = text.split("\n", 2)
        if len(lines) < 2 or not lines[0].startswith("history=") or not lines[1].startswith("move_number="):
            raise InvalidArgumentError(f"state: expected the text of state.serialize() ('history=...', then "
                                       f"'move_number=...'), got {text[:40]!r}", "state")
        state = self.new_initial_state()
        entries = lines[0][len("history="):]
        for k, entry in enumerate(entries.split(",") if entries else []):
            if not _HISTORY_ENTRY.fullmatch(entry):
                raise InvalidArgumentError(f"state: history entry {k} is {entry[:40]!r}, expected player:action",
                                           "state")
            player, action = (int(x) for x in entry.split(":"))
            if player != state.current_player():
                raise InvalidArgumentError(f"state: history entry {k} ({entry}) is player {player}'s, but player "
                                           f"{state.current_player()} acts there", "state")
            try:
                state.apply_action(action)
            except ValueError as exc:
                raise InvalidArgumentError(f"state: history entry {k} ({entry}): {exc}", "state") from None
        number = lines[1][len("move_number="):]
        if number != str(state.move_number()):
            raise InvalidArgumentError(f"state: move_number={number[:20]} does not match its history's "
                                       f"{state.move_number()}", "state")
        return state

    def make_py_observer(self, iig_obs_type=None, params=None):
        """The encoder's observation; the history as the perfect-recall information state."""
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return RosenkoenigObserver(self, params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class RosenkoenigState(_PicklesAtEveryProtocol, pyspiel.State):
    """A state: the position (its pile never ordered), the cards dealt so far, and whether a
    chosen draw waits for chance to pick its card."""

    def __init__(self, game: RosenkoenigGame) -> None:
        super().__init__(game)
        self._players = game.players
        self._reshuffle = game.reshuffle
        self._hand = 5 if game.players == 2 else 3
        self._dealt: List[int] = []
        self._drawing = False
        self._position = self._deal_position()

    @property
    def position(self) -> _core.Position:
        """The position (the pile's order unknown: it is chance's to decide)."""
        return self._position

    def _dealing(self) -> bool:
        return len(self._dealt) < self._players * self._hand

    def _deal_position(self) -> _core.Position:
        hands = [",".join(_CARDS[c] for c in self._dealt[p * self._hand:(p + 1) * self._hand]) or "-"
                 for p in range(self._players)]
        side, heroes = ("r", "4 4") if self._players == 2 else ("r1", "2 2 2 2")
        text = f"9/9/9/9/9/9/9/9/9 e5 {side} {' '.join(hands)} {heroes} - *"
        return _core.Position(text, reshuffle=self._reshuffle)

    def current_player(self) -> int:
        """The seat to act (0..players-1, Red 1 first), or chance while dealing or resolving a draw."""
        # A plain int, as OpenSpiel's own games answer: PlayerId is an enum (before open-spiel 1.6.6
        # not even an int), which printed as "PlayerId.CHANCE" in playthroughs and messages.
        if self._dealing() or self._drawing:
            return int(pyspiel.PlayerId.CHANCE)
        if self._position.is_terminal:
            return int(pyspiel.PlayerId.TERMINAL)
        return self._turn()

    def _turn(self) -> int:
        turn = self._position.turn  # "r", "w" or "r1", "w1", "r2", "w2"
        return "rw".index(turn[0]) + (2 * (int(turn[1]) - 1) if len(turn) > 1 else 0)

    def _legal_actions(self, player: int) -> List[int]:
        return [action_index(m) for m in self._position.legal_moves()]

    def chance_outcomes(self):
        """(card action, probability) pairs: the cards still to deal, or those a draw can yield (R14)."""
        if self._dealing():
            left = [c for c in range(len(_CARDS)) if c not in self._dealt]
            return [(c, 1.0 / len(left)) for c in left]
        return sorted((_CARD_IDS[card], p) for card, p in self._position.draw_outcomes())

    def _apply_action(self, action: int) -> None:
        """Checked first: a bad action raises and changes nothing (OpenSpiel records it only
        after this returns)."""
        action = int(action)
        if self.is_chance_node():
            if action not in dict(self.chance_outcomes()):
                raise InvalidArgumentError(f"action: chance outcome {action} cannot happen here; expected one of "
                                           f"{[c for c, _ in self.chance_outcomes()]}", "action")
            if self._dealing():
                self._dealt.append(action)
                self._position = self._deal_position()
            else:
                self._position = self._position.play("draw:" + _CARDS[action])
                self._drawing = False
            return
        legal = self._legal_actions(self.current_player()) if not self.is_terminal() else []
        if action not in legal:
            raise IllegalMoveError(f"action: {action} is not legal here; legal actions: {legal}", "action")
        if action == _DRAW:
            self._drawing = True
        else:
            self._position = self._position.play(action_names()[action])

    def _action_to_string(self, player: int, action: int) -> str:
        names = _CARDS if player == pyspiel.PlayerId.CHANCE else action_names()
        if not 0 <= action < len(names):  # a negative id indexed from the end
            raise InvalidArgumentError(f"action: expected 0..{len(names) - 1}, got {action}", "action")
        if player == pyspiel.PlayerId.CHANCE:
            return ("deal:" if self._dealing() else "draw:") + names[action]
        return names[action]

    def is_terminal(self) -> bool:
        """Whether the game is over (R8, R9)."""
        return not self._dealing() and not self._drawing and self._position.is_terminal

    def returns(self) -> List[float]:
        """Each seat's result: +1 for the winning colour's seats, -1 for the other, 0 in a draw or before the end."""
        if not self.is_terminal() or self._position.winner == "draw":
            return [0.0] * self._players
        red = 1.0 if self._position.winner == "red" else -1.0
        return [red if p % 2 == 0 else -red for p in range(self._players)]

    def __str__(self) -> str:
        return self._position.fen(hide_pile_order=True) + (" (drawing)" if self._drawing else "")


def _flat_pieces() -> List[tuple]:
    """The flat layout cut into named pieces, (name, size, shape) in feature order: each group of
    features sharing a name prefix (``hand``, ``discard``, ``pile``, ``own_token``, ...; squares as
    (9, 9), the four hands as (4, 24)), and the single features together as ``public``."""
    groups: Dict[str, int] = {}
    for name in feature_names():
        prefix = name.split(".")[0] if "." in name else "public"
        groups[prefix] = groups.get(prefix, 0) + 1
    shapes = {81: (9, 9), 96: (4, 24)}
    return [(name, size, shapes.get(size, (size,))) for name, size in groups.items()]


class RosenkoenigObserver:
    """The one encoder (docs/encoding.md) from the observer's view, via the RL envs' game."""

    def __init__(self, game: RosenkoenigGame, params: Optional[Dict]) -> None:
        params = dict(params or {})
        layout = check_choice("layout", params.pop("layout", "flat"), LAYOUTS)
        if params:
            raise InvalidArgumentError(f"params: the only observation parameter is layout, got {sorted(params)}",
                                       "params")
        self._layout = layout
        self._game = _core._EnvGame(game.players, game.reshuffle)
        if layout == "flat":
            self.tensor = np.zeros(len(feature_names()), np.float32)
            self.dict = {}
            start = 0
            for name, size, shape in _flat_pieces():
                self.dict[name] = self.tensor[start:start + size].reshape(shape)
                start += size
        else:
            planes = len(plane_names())
            self.tensor = np.zeros(planes * 81, np.float32)
            self.dict = {"observation": self.tensor.reshape(planes, 9, 9)}

    def set_from(self, state: RosenkoenigState, player: int) -> None:
        self._game.load(state.position, 0)
        if self._layout == "flat":
            self._game.observe(player, "flat", self.tensor)
        else:
            self.tensor[:] = self._game.observe(player, "planes").ravel()

    def string_from(self, state: RosenkoenigState, player: int) -> str:
        return str(state)


pyspiel.register_game(GAME_TYPE, RosenkoenigGame)
