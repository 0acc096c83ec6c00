"""Small checks of the pure-Python reference (tests/reference) against RULES.md by hand."""
import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reference.rules import CARDS, RefState

EMPTY = "9/9/9/9/9/9/9/9/9"
START = "9/9/9/9/9/9/9/9/9 e5 r N1,NE2,E3,S1,W2 S3,SW1,NW2,N3,E1 4 4 - *"


def position(ranks, crown, side="r", red="-", white="-", rh=4, wh=4, discard="-", pile="*"):
    return f"{ranks} {crown} {side} {red} {white} {rh} {wh} {discard} {pile}"


def test_card_order_and_start_roundtrip_R1_R3():
    assert len(CARDS) == 24
    assert CARDS[:4] == ["N1", "N2", "N3", "NE1"] and CARDS[-1] == "NW3"
    s = RefState.from_notation(START)
    assert s.to_notation() == "9/9/9/9/9/9/9/9/9 e5 r N1,NE2,E3,S1,W2 N3,E1,S3,SW1,NW2 4 4 - *"
    assert len(s.draw_outcomes()) == 14
    # the crown on e5 with N1 goes to e6 (R2: N = rank + 1), no draw with 5 cards (R4b)
    assert s.legal_moves() == {"N1", "NE2", "E3", "S1", "W2"}
    t = s.apply("n1")
    assert t.to_notation() == ("9/9/9/4r4/9/9/9/9/9 e6 w NE2,E3,S1,W2 N3,E1,S3,SW1,NW2 4 4 N1 *")
    assert t.legal_moves() == {"N3", "E1", "SW1", "S3", "NW2"}


def test_scoring_examples_R10_R11():
    # red: 8 in a row + a 2 + a 1 = 64 + 4 + 1 = 69 ; white: 5 + 2 + 2 + 1 = 34
    # diagonal contact (r at a3/b3 against rank 2 empty) does not connect.
    ranks = "9/9/ww1ww1w2/9/wwwww4/9/rr1r5/9/rrrrrrrr1"
    s = RefState.from_notation(position(ranks, "a1"))
    assert s.scores() == (69, 34)
    assert s.largest() == (8, 5)
    assert s.tokens() == (11, 10)
    diag = RefState.from_notation(position("9/9/9/9/9/9/9/1r7/r8", "a1"))
    assert diag.scores() == (2, 0)  # two territories of 1, not one of 2


def test_hero_move_R4c_R5():
    ranks = "9/9/9/4w4/4r4/9/9/9/9"
    s = RefState.from_notation(position(ranks, "e5", red="N1", white="S1"))
    assert s.legal_moves() == {"H:N1", "draw"}  # N1 cannot be played plainly: e6 occupied
    t = s.apply("h:n1")
    assert t.to_notation() == position("9/9/9/4r4/4r4/9/9/9/9", "e6", side="w",
                                       white="S1", rh=3, discard="N1")
    # no heroes left: no hero move
    s0 = RefState.from_notation(position(ranks, "e5", red="N1", white="S1", rh=0))
    assert s0.legal_moves() == {"draw"}
    # never onto an own token
    own = RefState.from_notation(position("9/9/9/4r4/4r4/9/9/9/9", "e5", red="N1"))
    assert own.legal_moves() == {"draw"}
    with pytest.raises(ValueError):
        own.apply("H:N1")


def test_pass_and_R9_end():
    # red's crown in the corner a1, every red card leaves the board, hand full: pass (R6)
    red = "S1,S2,S3,W1,W2"
    s = RefState.from_notation(position("9/9/9/9/9/9/9/9/r8", "a1", red=red, white="N1"))
    assert not s.is_terminal()
    assert s.legal_moves() == {"pass"}
    t = s.apply("pass")
    assert t.side == 1 and t.grid == s.grid
    assert t.legal_moves() == {"N1", "draw"}
    # both players blocked with full hands: the game is over at load (R9), no moves at all
    white = "SW1,SW2,SW3,W3,NW1"
    end = RefState.from_notation(position("9/9/9/9/9/9/9/9/r8", "a1", red=red, white=white))
    assert end.is_terminal()
    assert end.legal_moves() == set()
    assert end.winner() == "red"
    with pytest.raises(ValueError):
        end.apply("pass")


def test_R8_end_at_52nd_token():
    ranks = "9/9/9/rwrwrw3/rwrwrwrwr/rwrwrwrwr/rwrwrwrwr/rwrwrwrwr/rwrwrwrwr"
    s = RefState.from_notation(position(ranks, "f6", red="E1", white="N1"))
    assert sum(s.tokens()) == 51 and not s.is_terminal() and s.winner() is None
    t = s.apply("E1")
    assert sum(t.tokens()) == 52
    assert t.is_terminal() and t.legal_moves() == set()
    # R12 as the C++ core computes it, from the same board: the two implementations agree.
    import rosen

    assert t.winner() == rosen.Position(t.to_notation()).winner


def test_R7_eager_and_lazy_reshuffle():
    red = "N1,N2,N3,NE1"
    white = "NE2,NE3,E1,E2,E3"
    discard = ",".join(CARDS[10:])
    text = position(EMPTY, "e5", red=red, white=white, discard=discard, pile="SE1")
    eager = RefState.from_notation(text, "eager").apply("draw")
    assert eager.to_notation().split()[-2:] == ["-", "*"]
    assert eager.draw_outcomes() == set(CARDS[10:])
    lazy = RefState.from_notation(text, "lazy").apply("draw:se1")
    assert lazy.to_notation().split()[-2:] == [discard, "-"]
    # an empty pile beside a discard: eager reshuffles at load, lazy on the next draw
    text2 = position(EMPTY, "e5", red=red, white=white, discard=",".join(CARDS[9:]), pile="-")
    assert RefState.from_notation(text2, "eager").to_notation().split()[-2:] == ["-", "*"]
    lazy2 = RefState.from_notation(text2, "lazy")
    assert lazy2.to_notation() == text2
    assert lazy2.draw_outcomes() == set(CARDS[9:])
    after = lazy2.apply("draw:W3")
    assert after.to_notation().split()[-2:] == ["-", "*"]
    assert after.hands[0] == ["N1", "N2", "N3", "NE1", "W3"]
    assert after.draw_outcomes() == set(CARDS[9:]) - {"W3"}


def test_known_pile_draws_top_only():
    s = RefState.from_notation(position(EMPTY, "e5", red="N1", white="N2",
                                        pile=",".join(reversed(CARDS[2:]))))
    assert s.draw_outcomes() == {"NW3"}
    with pytest.raises(ValueError):
        s.apply("draw:N3")
    assert s.apply("draw:NW3").to_notation().split()[-1] == ",".join(reversed(CARDS[2:-1]))


def test_four_players_R13():
    text = f"{EMPTY} e5 r1 N1,N2,N3 S1,S2,S3 E1,E2,E3 W1,W2,W3 2 2 2 2 - *"
    s = RefState.from_notation(text)
    assert s.to_notation() == text
    assert s.legal_moves() == {"N1", "N2", "N3"}   # hand limit 3: no draw
    t = s.apply("N1")
    assert t.to_notation().split()[2] == "w1" and t.legal_moves() == {"S1", "S2", "S3"}
    with pytest.raises(ValueError):
        t.apply("S1").apply("E1").apply("W1")      # w2's W1 from f5 hits e5: occupied
    t = t.apply("S1").apply("E1").apply("W2")      # e6 r1, e5 w1, f5 r2, d5 w2
    assert t.to_notation().split()[:3] == ["9/9/9/4r4/3wwr3/9/9/9/9", "d5", "r1"]
    assert t.tokens() == (2, 2)
    with pytest.raises(ValueError):
        RefState.from_notation(f"{EMPTY} e5 r1 N1,N2,N3 S1,S2,S3 E1,E2,E3 W1,W2,W3 3 2 2 2 - *")


@pytest.mark.parametrize("text", [
    "9/9/9/9/9/9/9/9/9 e5 r - - 4 4 -",                      # field count
    "9/9/9/9/9/9/9/9 e5 r - - 4 4 - *",                      # 8 ranks
    "9/9/9/9/9/9/9/9/8 e5 r - - 4 4 - *",                    # short rank
    "9/9/9/9/9/9/9/9/x8 e5 r - - 4 4 - *",                   # bad square
    "9/9/9/9/9/9/9/9/9 e5 x - - 4 4 - *",                    # bad side
    "9/9/9/9/9/9/9/9/9 e5 r N4 - 4 4 - *",                   # not a card
    "9/9/9/9/9/9/9/9/9 e5 r N1 N1 4 4 - *",                  # duplicate
    "9/9/9/9/9/9/9/9/9 e5 r N1,N2,N3,E1,E2,E3 - 4 4 - *",    # hand over the limit
    "9/9/9/9/9/9/9/9/9 e5 r - - 5 4 - *",                    # heroes
    "9/9/9/9/9/9/9/9/9 e5 r - - 4 4 - N1",                   # explicit pile not complement
    "9/9/9/9/9/9/9/9/9 d5 r - - 4 4 - *",                    # crown off e5 on an empty board
    "9/9/9/9/9/9/9/9/r8 e5 r - - 4 4 - *",                   # crown on an empty square
    "r8/rrrrrrrrr/rrrrrrrrr/rrrrrrrrr/rrrrrrrrr/rrrrrrrrr/rrrrrrrrr/9/9 a9 r - - 4 4 - *",  # 55 tokens
])
def test_malformed_positions_raise(text):
    with pytest.raises(ValueError):
        RefState.from_notation(text)
