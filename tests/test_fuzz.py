"""Property-based tests (hypothesis): the parsers never crash and always either round-trip or raise
a field-naming ValueError; random sequences of API calls never corrupt a position; the territory
scorer agrees with the plain reference on arbitrary boards."""
from __future__ import annotations

import pickle

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

import rosen
from reference.rules import territories as reference_territories

CARDS = [d + str(k) for d in ("N", "NE", "E", "SE", "S", "SW", "W", "NW") for k in (1, 2, 3)]
TOKENS = st.sampled_from(["-", "*", "r", "w", "r1", "e5", "a1", "i9", "j1", "0", "4", "5", "9", "N1", "H:N1",
                          "N1,N2", "N1,,N2", "/", "9/9", "\x00", "\xff", "é", "  "] + CARDS)


def assert_parses_or_explains(text: str) -> None:
    try:
        pos = rosen.Position(text)
    except rosen.InvalidPositionError as exc:
        assert exc.field and str(exc).startswith(exc.field)
        return
    assert rosen.Position(pos.fen()) == pos  # whatever parses round-trips


@given(st.text(max_size=200))
def test_fuzz_arbitrary_text_never_crashes_the_position_parser(text):
    assert_parses_or_explains(text)


@given(st.integers(0, 1000), st.lists(st.tuples(st.integers(0, 12), TOKENS), min_size=1, max_size=3),
       st.sampled_from([2, 4]))
def test_fuzz_mutated_positions(seed, edits, players):
    fields = rosen.Position.new(seed=seed, players=players).fen().split()
    for index, token in edits:
        if index < len(fields):
            fields[index] = token
    assert_parses_or_explains(" ".join(fields))


@given(st.text(max_size=30))
def test_fuzz_move_parser(text):
    try:
        move = rosen.Move(text)
    except rosen.InvalidMoveError as exc:
        assert exc.field == "move"
        return
    assert rosen.Move(str(move)) == move
    assert str(move).lower() == text.lower() or str(move).lower() == text.lower().strip()


def test_hostile_inputs_do_not_crash():
    huge = "N1," * 400_000
    for text in [huge, "9/" * 500_000, "\x00" * 1000, bytes(range(256)).decode("latin-1")]:
        assert_parses_or_explains(text)
        try:
            rosen.Move(text)
        except rosen.InvalidMoveError as exc:
            assert len(str(exc)) < 300  # the message quotes a short (40-byte), escaped excerpt


class PositionMachine(RuleBasedStateMachine):
    """Random sequences of legal and illegal calls on one game: state only changes by legal moves."""

    def __init__(self):
        super().__init__()
        self.pos = rosen.Position.new(seed=0)

    @rule(seed=st.integers(0, 2**64 - 1), players=st.sampled_from([2, 4]), lazy=st.booleans(), hide=st.booleans())
    def new_game(self, seed, players, lazy, hide):
        self.pos = rosen.Position.new(seed=seed, players=players, reshuffle="lazy" if lazy else "eager")
        if hide:
            self.pos = self.pos.hide_pile_order()

    @precondition(lambda self: not self.pos.is_terminal)
    @rule(data=st.data())
    def play_legal(self, data):
        move = data.draw(st.sampled_from(self.pos.legal_moves()))
        before = self.pos.fen()
        after = self.pos.play(move)
        assert self.pos.fen() == before  # immutable
        self.pos = after

    @precondition(lambda self: not self.pos.is_terminal and "draw" in [str(m) for m in self.pos.legal_moves()])
    @rule(data=st.data())
    def draw_known_card(self, data):
        card = data.draw(st.sampled_from([c for c, _ in self.pos.draw_outcomes()]))
        self.pos = self.pos.play("draw:" + card)
        assert card in [c for hand in self.pos.hands for c in hand]

    @rule(text=st.one_of(st.sampled_from(CARDS + ["H:" + c for c in CARDS] + ["draw:" + c for c in CARDS] +
                                         ["pass", "draw"]), st.text(max_size=8)))
    def play_anything(self, text):
        before = self.pos.fen()
        legal = [str(m) for m in self.pos.legal_moves()]
        try:
            self.pos = self.pos.play(text)
        except rosen.IllegalMoveError as exc:
            assert "legal moves:" in str(exc)
            assert self.pos.fen() == before
        except rosen.InvalidMoveError:
            assert self.pos.fen() == before
        else:
            name = str(rosen.Move(text))
            assert name in legal or (name.startswith("draw:") and "draw" in legal)

    @rule()
    def round_trips(self):
        assert rosen.Position(self.pos.fen(), reshuffle=self.pos.reshuffle) == self.pos
        assert pickle.loads(pickle.dumps(self.pos)) == self.pos

    @invariant()
    def conservation(self):
        assert sum(self.pos.token_counts) + self.pos.supply == 52
        assert sum(len(h) for h in self.pos.hands) + self.pos.pile_size + len(self.pos.discard) == 24


TestPositionMachine = PositionMachine.TestCase
TestPositionMachine.settings = settings(max_examples=60, stateful_step_count=60, deadline=None,
                                        suppress_health_check=[HealthCheck.too_slow])


def reference_stats(board: np.ndarray):
    grid = [["." if v == 0 else ("r" if v == 1 else "w") for v in row] for row in board]
    stats = []
    for colour in ("r", "w"):
        sizes = [n for c, n in reference_territories(grid) if c == colour]
        stats.append((sum(n * n for n in sizes), max(sizes, default=0), sum(sizes), len(sizes)))
    return stats


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 2), min_size=81, max_size=81), st.floats(0, 1))
def test_fuzz_score_boards_matches_reference(values, density):
    board = np.array(values, dtype=np.int8).reshape(9, 9)
    board[np.random.default_rng(len(values)).random((9, 9)) > density] = 0  # also sparse boards
    result = rosen.score_boards(board)
    for colour, (score, largest, tokens, count) in enumerate(reference_stats(board)):
        assert (result.score[colour], result.largest[colour], result.tokens[colour], result.count[colour]) == (
            score, largest, tokens, count)
