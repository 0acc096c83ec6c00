"""One or more tests per rule of RULES.md (R1-R14), against the engine through its Python API."""
from __future__ import annotations

import pathlib

import pytest

import rosen
from conftest import board_ranks, fen, r12_winner

ALL_CARDS = [d + str(k) for d in ("N", "NE", "E", "SE", "S", "SW", "W", "NW") for k in (1, 2, 3)]


def moves(pos):
    return [str(m) for m in pos.legal_moves()]


# --- R1 material ------------------------------------------------------------------------------

def test_R1_material_24_cards_52_tokens_4_heroes():
    pos = rosen.Position.new(seed=3)
    cards = [c for hand in pos.hands for c in hand] + pos.draw_pile + pos.discard
    assert sorted(cards) == sorted(ALL_CARDS)
    assert len(set(cards)) == 24
    assert pos.supply == 52
    assert pos.heroes == [4, 4]


# --- R2 coordinates and absolute directions ---------------------------------------------------

@pytest.mark.parametrize("card", ALL_CARDS)
def test_R2_card_moves_crown_by_absolute_direction(card):
    vectors = {"N": (0, 1), "NE": (1, 1), "E": (1, 0), "SE": (1, -1), "S": (0, -1), "SW": (-1, -1),
               "W": (-1, 0), "NW": (-1, 1)}
    df, dr = vectors[card[:-1]]
    dist = int(card[-1])
    for side in ("r", "w"):  # N is rank + 1 whoever plays the card
        hand = {"red": card} if side == "r" else {"white": card}
        pos = rosen.Position(fen(side=side, **hand))
        after = pos.play(card)
        target = "abcdefghi"[4 + df * dist] + str(5 + dr * dist)
        assert after.crown == target
        rank, file = int(target[1]) - 1, "abcdefghi".index(target[0])
        assert after.board[rank, file] == (1 if side == "r" else 2)


def test_R2_centre_is_e5_and_board_layout():
    pos = rosen.Position(fen(ranks=board_ranks({1: "r........", 9: "........w"}), crown="a1"))
    assert pos.board[0, 0] == 1   # a1
    assert pos.board[8, 8] == 2   # i9
    assert rosen.Position.new().crown == "e5"


# --- R3 setup ---------------------------------------------------------------------------------

def test_R3_setup_deal():
    pos = rosen.Position.new(seed=11)
    assert pos.crown == "e5" and pos.board.sum() == 0
    assert [len(h) for h in pos.hands] == [5, 5]
    assert pos.pile_size == 14 and pos.discard == []
    assert pos.turn == "r"
    assert not pos.is_terminal


def test_R3_golden_deals_are_pinned():
    # The generator and the shuffle are the project's own: these deals must never change with the
    # compiler or platform. tests/golden/deals.txt holds "players seed position" per line.
    path = pathlib.Path(__file__).parent / "golden" / "deals.txt"
    lines = [line.split(" ", 2) for line in path.read_text().splitlines() if line.strip()]
    assert len(lines) >= 6
    for players, seed, expected in lines:
        assert rosen.Position.new(seed=int(seed), players=int(players)).fen() == expected


# --- R4 a turn --------------------------------------------------------------------------------

def test_R4a_play_places_own_token_and_discards_card():
    pos = rosen.Position(fen(red="N1,E2", white="S1"))
    after = pos.play("E2")
    assert after.crown == "g5" and after.board[4, 6] == 1
    assert after.hands[0] == ["N1"] and after.discard == ["E2"]
    assert after.supply == 51 and after.turn == "w"
    assert after.pile_size == pos.pile_size  # no card is drawn in its place


def test_R4a_play_onto_token_is_not_a_play():
    ranks = board_ranks({5: "....r....", 6: "....w...."})
    pos = rosen.Position(fen(ranks=ranks, red="N1", red_heroes=0))
    assert "N1" not in moves(pos)


def test_R4b_draw_only_below_five_cards():
    five = rosen.Position(fen(red="N1,N2,N3,E1,E2"))
    assert "draw" not in moves(five)
    four = rosen.Position(fen(red="N1,N2,N3,E1"))
    assert "draw" in moves(four)
    after = four.play("draw")
    assert len(after.hands[0]) == 5 and after.pile_size == four.pile_size - 1


def test_R4b_a_full_hand_draws_no_known_card_either():
    five = rosen.Position(fen(red="N1,N2,N3,E1,E2"))
    assert five.draw_outcomes() == [] and len(five.pile_cards) == 19
    for card in five.pile_cards:
        assert not five.is_legal(f"draw:{card}")
        with pytest.raises(rosen.IllegalMoveError, match="legal moves"):
            five.play(f"draw:{card}")
    assert five.hands[0] == ["N1", "N2", "N3", "E1", "E2"]
    dealt = rosen.Position.new(seed=1)  # a known pile: its top card is no exception
    assert len(dealt.hands[0]) == 5 and not dealt.is_legal("draw:" + dealt.draw_pile[0])


def test_R4b_draw_of_known_card():
    pos = rosen.Position(fen(red="N1"))
    after = pos.play("draw:SW3")
    assert "SW3" in after.hands[0] and "SW3" not in after.pile_cards


def test_R4b_plain_draw_takes_top_of_known_pile():
    pos = rosen.Position.new(seed=5)
    pos = pos.play(pos.legal_moves()[0])
    pos = pos.play(pos.legal_moves()[0])  # Red and White have played: Red holds 4 cards
    top = pos.draw_pile[0]
    after = pos.play("draw")
    assert after.hands[0] == sorted(pos.hands[0] + [top], key=ALL_CARDS.index)
    assert after.draw_pile == pos.draw_pile[1:]


def test_R4c_hero_flips_opponent_token():
    ranks = board_ranks({5: "....r....", 6: "....w...."})
    pos = rosen.Position(fen(ranks=ranks, red="N1", red_heroes=2))
    assert moves(pos) == ["H:N1", "draw"]
    after = pos.play("H:N1")
    assert after.board[5, 4] == 1 and after.crown == "e6"
    assert after.heroes == [1, 4]
    assert after.supply == pos.supply  # no token leaves the supply
    assert after.discard == ["N1"] and after.hands[0] == []


# --- R5 what can never be targeted ------------------------------------------------------------

def test_R5_hero_never_targets_empty_or_own_token():
    ranks = board_ranks({5: "....r....", 6: "....r...."})
    pos = rosen.Position(fen(ranks=ranks, red="N1,S1", red_heroes=4))
    assert "H:N1" not in moves(pos)  # own token
    assert "H:S1" not in moves(pos)  # empty square: only a plain play
    assert "S1" in moves(pos)
    with pytest.raises(rosen.IllegalMoveError):
        pos.play("H:S1")


def test_R5_move_off_the_board_never_legal():
    ranks = board_ranks({9: "r........"})
    pos = rosen.Position(fen(ranks=ranks, crown="a9", red="N1,W2,NW3,S1"))
    assert moves(pos) == ["S1", "draw"]


# --- R6 pass ----------------------------------------------------------------------------------

def _blocked_red():
    # Crown on a1: every card in Red's full hand points off the board; White holds N1.
    ranks = board_ranks({1: "r........"})
    return rosen.Position(fen(ranks=ranks, crown="a1", red="S1,S2,S3,W1,W2", white="N1"))


def test_R6_pass_is_the_only_move_when_stuck():
    pos = _blocked_red()
    assert moves(pos) == ["pass"]
    after = pos.play("pass")
    assert after.turn == "w" and after.hands == pos.hands


def test_R6_pass_never_legal_otherwise():
    pos = rosen.Position(fen(red="N1"))
    assert "pass" not in moves(pos)
    with pytest.raises(rosen.IllegalMoveError, match="legal moves: N1, draw"):
        pos.play("pass")


def test_R6_opponent_moves_again_while_player_is_stuck():
    pos = _blocked_red().play("pass").play("N1")  # White plays N1: crown to a2
    assert pos.turn == "r"
    assert moves(pos) == ["pass"]  # S1 would land on Red's own token on a1
    assert pos.play("pass").turn == "w"


# --- R7 reshuffle -----------------------------------------------------------------------------

def _last_card_position(reshuffle):
    # The pile holds one card (NW3); everything else is in hands or the discard pile.
    discard = ",".join(c for c in ALL_CARDS if c not in ("N1", "S1", "NW3"))
    return rosen.Position(fen(red="N1", white="S1", discard=discard, pile="NW3"), reshuffle=reshuffle)


def test_R7_eager_reshuffles_when_last_card_is_drawn():
    pos = _last_card_position("eager").play("draw")
    assert pos.discard == [] and pos.pile_size == 21
    assert pos.draw_pile is None  # the new order is unknown
    assert pos.fen().split()[-2:] == ["-", "*"]


def test_R7_lazy_keeps_empty_pile_until_a_draw():
    pos = _last_card_position("lazy").play("draw")
    assert pos.pile_size == 0 and len(pos.discard) == 21
    assert {c for c, _ in pos.draw_outcomes()} == set(pos.discard)
    after = pos.play("draw:E1")
    assert after.pile_size == 20 and after.discard == [] and "E1" in after.hands[1]


def test_R7_R14_a_plain_draw_from_a_pile_of_unknown_order_is_dealt_by_the_seed():
    # Position(text, seed=S): S drives plain draws where the order is unknown -- a pile written
    # `*`, and the discard a lazy reshuffle brings back once a known pile has run out.
    unknown = fen(red="N1", white="S1")
    emptied = _last_card_position("lazy").fen()
    for text, plies in ((unknown, 1), (emptied, 2)):
        cards = []
        for seed in range(24):
            pos = rosen.Position(text, reshuffle="lazy", seed=seed)
            for _ in range(plies):
                before, pos = pos, pos.play("draw")
            drawn = (set(sum(pos.hands, [])) - set(sum(before.hands, []))).pop()
            again = rosen.Position(text, reshuffle="lazy", seed=seed)
            for _ in range(plies):
                again = again.play("draw")
            assert again == pos  # the same seed, the same card
            cards.append(drawn)
        assert len(set(cards)) >= 8, (text, cards)  # 24 seeds over 20-odd cards: about 16 distinct


def test_R7_eager_position_with_empty_pile_reshuffles_on_load():
    discard = ",".join(c for c in ALL_CARDS if c not in ("N1", "S1"))
    text = fen(red="N1", white="S1", discard=discard, pile="-")
    eager = rosen.Position(text)
    assert eager.pile_size == 22 and eager.discard == []
    lazy = rosen.Position(text, reshuffle="lazy")
    assert lazy.pile_size == 0 and len(lazy.discard) == 22


# --- R8 the 52nd token ------------------------------------------------------------------------

def _ranks_with_51_tokens():
    """51 tokens; e5 (the crown) holds red, e6 is empty: N1 from e5 places the 52nd."""
    rows = {}
    squares = [(r, f) for r in range(1, 10) for f in range(9)]
    empty = set(squares[52:]) | {(6, 4)}
    for r in range(1, 10):
        rows[r] = "".join("." if (r, f) in empty else ("r" if (r + f) % 2 else "w") for f in range(9))
    rows[5] = rows[5][:4] + "r" + rows[5][5:]
    return board_ranks(rows)


def test_R8_game_ends_at_52nd_token():
    # White could still move afterwards.
    text = fen(ranks=_ranks_with_51_tokens(), red="N1", white="N2")
    pos = rosen.Position(text)
    assert pos.supply == 1 and not pos.is_terminal
    after = pos.play("N1")
    assert after.supply == 0 and after.is_terminal
    assert after.legal_moves() == []
    assert after.winner == r12_winner(after) is not None


def test_R8_full_board_is_over_on_load():
    rows = {r: "rw" * 4 + "r" for r in range(1, 10)}
    rows = {r: (row if r <= 5 else "." * 9) for r, row in rows.items()}
    rows[6] = "rrrrrrr.."  # 45 + 7 = 52 tokens
    pos = rosen.Position(fen(ranks=board_ranks(rows), red="N1"))
    assert pos.supply == 0 and pos.is_terminal and pos.legal_moves() == []


# --- R9 nobody can act ------------------------------------------------------------------------

def test_R9_blockade_is_over_on_load():
    ranks = board_ranks({1: "r........"})
    pos = rosen.Position(fen(ranks=ranks, crown="a1", red="S1,S2,S3,W1,W2", white="W3,SW1,SW2,SW3,NW1"))
    assert pos.is_terminal and pos.legal_moves() == []
    assert pos.winner == "red"


def test_R9_a_token_of_the_other_colour_is_no_target_without_a_hero():
    # Red's only card on the board points at White's token on a2: with no hero left (R4 c) Red
    # cannot act; White's cards all point off the board: nobody can act, the game is over.
    ranks = board_ranks({1: "r........", 2: "w........"})
    text = fen(ranks=ranks, crown="a1", red="N1,S1,S2,S3,W1", white="W3,SW1,SW2,SW3,NW1", red_heroes=0)
    assert rosen.Position(text).is_terminal and rosen.Position(text).legal_moves() == []
    with_hero = rosen.Position(text.replace(" 0 4 ", " 1 4 "))
    assert not with_hero.is_terminal and "H:N1" in [str(m) for m in with_hero.legal_moves()]


def test_R9_blockade_after_a_draw_ends_game():
    ranks = board_ranks({1: "r........"})
    hands = ["S1", "S2", "S3", "W1", "W2", "W3", "SW1", "SW2", "SW3"]
    discard = ",".join(c for c in ALL_CARDS if c not in hands + ["NW1", "N1"])
    text = fen(ranks=ranks, crown="a1", side="w", red="S1,S2,S3,W1,W2", white="W3,SW1,SW2,SW3",
               discard=discard, pile="NW1,N1")
    pos = rosen.Position(text)
    assert not pos.is_terminal
    after = pos.play("draw")  # White draws NW1: now nobody can act
    assert after.is_terminal and after.legal_moves() == []


# --- R10 territories --------------------------------------------------------------------------

def test_R10_diagonal_contact_does_not_connect():
    pos = rosen.Position(fen(ranks=board_ranks({1: "r.r......", 2: ".r......."}), crown="a1"))
    assert pos.territories("red") == [1, 1, 1]
    assert pos.scores == (3, 0)


def test_R10_orthogonal_contact_connects():
    pos = rosen.Position(fen(ranks=board_ranks({1: "rrr......", 2: "..r......"}), crown="a1"))
    assert pos.territories("red") == [4]


# --- R11 scoring ------------------------------------------------------------------------------

def test_R11_rulebook_example_8_2_1_scores_69():
    rows = {1: "rrrrrrrr.", 3: "rr.......", 5: "....r...."}
    pos = rosen.Position(fen(ranks=board_ranks(rows)))
    assert pos.territories("red") == [8, 2, 1]
    assert pos.scores == (69, 0)


def test_R11_rulebook_example_5_2_2_1_scores_34():
    rows = {1: "wwwww....", 3: "ww..ww...", 5: "....w...."}
    pos = rosen.Position(fen(ranks=board_ranks(rows)))
    assert pos.territories("white") == [5, 2, 2, 1]
    assert pos.scores == (0, 34)


# --- R12 winner and tie-breaks ----------------------------------------------------------------

def _blockaded(rows):
    # A finished game (R9) with the crown on a1 and only off-board cards in both full hands.
    return rosen.Position(fen(ranks=board_ranks(rows), crown="a1", red="S1,S2,S3,W1,W2",
                              white="W3,SW1,SW2,SW3,NW1"))


def test_R12_higher_score_wins():
    pos = _blockaded({1: "r........", 5: "..ww.ww.."})
    assert pos.scores == (1, 8) and pos.winner == "white"


def test_R12_equal_score_larger_territory_wins():
    # Red [3] = 9 with 3 tokens; White [2, 2, 1] = 9 with 5 tokens: the largest territory decides
    # before the token count.
    pos = _blockaded({1: "rrr......", 5: "ww.ww.w.."})
    assert pos.scores == (9, 9) and pos.largest == (3, 2) and pos.token_counts == (3, 5)
    assert pos.winner == "red"


def test_R12_equal_score_and_largest_more_tokens_wins():
    # Red [2, 1, 1, 1, 1] = 8 with 6 tokens; White [2, 2] = 8 with 4 tokens: equal largest (2).
    pos = _blockaded({1: "r.r.r....", 3: "rr.r.....", 7: "ww.ww...."})
    assert pos.scores == (8, 8)
    assert pos.largest == (2, 2)
    assert pos.token_counts == (6, 4)
    assert pos.winner == "red"


def test_R12_all_equal_is_a_draw():
    pos = _blockaded({1: "r........", 3: "rr.......", 7: "ww.......", 9: ".......w."})
    assert pos.scores == (5, 5) and pos.largest == (2, 2) and pos.token_counts == (3, 3)
    assert pos.winner == "draw"


def test_R12_no_winner_while_game_goes_on():
    assert rosen.Position.new(seed=1).winner is None


# --- R13 four players -------------------------------------------------------------------------

def test_R13_four_player_setup():
    pos = rosen.Position.new(seed=2, players=4)
    assert pos.players == 4
    assert [len(h) for h in pos.hands] == [3, 3, 3, 3]
    assert pos.pile_size == 12 and pos.heroes == [2, 2, 2, 2]
    assert pos.turn == "r1"


def test_R13_turn_order_and_hand_limit():
    pos = rosen.Position.new(seed=2, players=4)
    order = []
    for _ in range(4):
        order.append(pos.turn)
        assert "draw" not in moves(pos)  # three cards: the hand is full
        pos = pos.play(pos.legal_moves()[0])
    assert order == ["r1", "w1", "r2", "w2"] and pos.turn == "r1"
    assert len(pos.hands[0]) == 2 and "draw" in moves(pos)  # below the limit of 3: draw is legal


def test_R13_partners_share_colour_and_keep_own_heroes():
    ranks = board_ranks({5: "....r....", 6: "....w....", 4: "....r...."})
    text = f"{ranks} e5 r2 S1 - N1 - 2 2 1 2 - *"
    pos = rosen.Position(text)
    assert moves(pos) == ["H:N1", "draw"]
    after = pos.play("H:N1")
    assert after.heroes == [2, 2, 0, 2]  # only Red 2's hero is spent
    assert after.board[5, 4] == 1  # flipped to the team colour
    assert after.turn == "w2"


def test_R13_hero_never_targets_partner_token():
    ranks = board_ranks({5: "....r....", 6: "....r...."})
    pos = rosen.Position(f"{ranks} e5 r2 - - N1 - 2 2 2 2 - *")
    assert "H:N1" not in moves(pos)


def fen4(ranks="9/9/9/9/9/9/9/9/9", crown="e5", side="r1", hands=("-", "-", "-", "-"), heroes=(2, 2, 2, 2),
         discard="-", pile="*"):
    """A 4-player position line: hands and heroes in seat order r1, w1, r2, w2 (RULES.md R13)."""
    return f"{ranks} {crown} {side} {' '.join(hands)} {' '.join(map(str, heroes))} {discard} {pile}"


#: Full 3-card hands that point off the board from a1 (S, W, SW), one per seat but the last.
_STUCK_HANDS = ("S1,S2,S3", "W1,W2,W3", "SW1,SW2,SW3")


def test_R6_R13_a_pass_hands_the_turn_to_the_next_seat():
    # r1, w1 and r2 hold full hands that all point off the board: each passes in seat order, and
    # w2, who can play, moves after them.
    pos = rosen.Position(fen4(board_ranks({1: "r........"}), "a1", hands=_STUCK_HANDS + ("N1,NW1,NW2",)))
    for seat, following in (("r1", "w1"), ("w1", "r2"), ("r2", "w2")):
        assert pos.turn == seat and moves(pos) == ["pass"]
        after = pos.play("pass")
        assert after.turn == following and after.hands == pos.hands
        pos = after
    assert moves(pos) == ["N1"]
    after = pos.play("N1")
    assert after.turn == "r1" and after.crown == "a2" and after.board[1, 0] == 2


def test_R9_R13_four_players_over_when_no_seat_can_act():
    ranks = board_ranks({1: "r........", 5: "..ww....."})
    pos = rosen.Position(fen4(ranks, "a1", hands=_STUCK_HANDS + ("NW1,NW2,NW3",)))
    assert pos.is_terminal and pos.legal_moves() == []
    assert pos.scores == (1, 4) and pos.winner == "white" == r12_winner(pos)


def test_R9_R13_a_draw_that_leaves_no_seat_able_to_act_ends_the_game():
    hands = _STUCK_HANDS + ("NW1,NW2",)
    discard = ",".join(c for c in ALL_CARDS if c not in ",".join(hands).split(",") + ["NW3"])
    pos = rosen.Position(fen4(board_ranks({1: "r........"}), "a1", "w2", hands, discard=discard, pile="NW3"))
    assert not pos.is_terminal and moves(pos) == ["draw"]
    after = pos.play("draw")
    assert after.is_terminal and after.legal_moves() == [] and after.winner == "red" == r12_winner(after)


def test_R11_R13_partners_tokens_make_one_territory():
    # r1 plays N1 (e6), w1 E1 (f6), r2 NW1 (e7): r1's and r2's tokens join into one red
    # territory of 2, scored 2^2 = 4 for the team.
    pos = rosen.Position(fen4(hands=("N1", "E1", "NW1", "S1")))
    for card in ("N1", "E1", "NW1"):
        pos = pos.play(card)
    assert pos.territories("red") == [2] and pos.territories("white") == [1]
    assert pos.scores == (4, 1)


def test_R13_a_player_without_heroes_cannot_use_the_partners():
    # r2 has spent both heroes; r1 still holds 2, which r2 may not use (a hero is a player's own).
    ranks = board_ranks({5: "....r....", 6: "....w....", 4: "....r...."})
    pos = rosen.Position(fen4(ranks, side="r2", hands=("S1", "-", "N1", "-"), heroes=(2, 2, 0, 2)))
    assert moves(pos) == ["draw"]
    with pytest.raises(rosen.IllegalMoveError, match="legal moves: draw"):
        pos.play("H:N1")


def test_R7_R13_four_players_reshuffle_eager_at_the_last_card_lazy_at_the_next_draw():
    hands = ("N1", "S1", "E1", "W1")
    discard = ",".join(c for c in ALL_CARDS if c not in hands + ("NW3",))
    for reshuffle, pile_size, discard_size in (("eager", 19, 0), ("lazy", 0, 19)):
        pos = rosen.Position(fen4(hands=hands, discard=discard, pile="NW3"), reshuffle=reshuffle)
        after = pos.play("draw")
        assert after.turn == "w1" and after.hands[0] == ["N1", "NW3"]
        assert after.pile_size == pile_size and len(after.discard) == discard_size


def test_R8_R13_the_52nd_token_ends_the_four_player_game():
    pos = rosen.Position(fen4(_ranks_with_51_tokens(), side="w2", hands=("N2", "-", "-", "N1")))
    assert pos.supply == 1 and not pos.is_terminal
    after = pos.play("N1")
    assert after.supply == 0 and after.is_terminal and after.legal_moves() == []
    assert after.winner == r12_winner(after) is not None


# --- R14 hidden information -------------------------------------------------------------------

def test_R14_pile_order_can_be_hidden():
    pos = rosen.Position.new(seed=4)
    hidden = pos.hide_pile_order()
    assert hidden.fen().split()[-1] == "*"
    assert pos.fen(hide_pile_order=True) == hidden.fen()
    assert hidden.draw_pile is None and sorted(hidden.pile_cards) == sorted(pos.draw_pile)


def test_R14_draw_from_unknown_order_is_uniform_over_pile():
    pos = rosen.Position.new(seed=4)
    pos = pos.play(pos.legal_moves()[0])
    pos = pos.play(pos.legal_moves()[0])  # Red to move with 4 cards: a draw is legal
    hidden = pos.hide_pile_order()
    outcomes = hidden.draw_outcomes()
    assert sorted(c for c, _ in outcomes) == sorted(hidden.pile_cards)
    assert all(abs(p - 1 / len(outcomes)) < 1e-12 for _, p in outcomes)
    # A known order yields only its top card.
    assert [c for c, _ in pos.draw_outcomes()] == [pos.draw_pile[0]]
