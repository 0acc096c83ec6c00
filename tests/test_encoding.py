"""The observation encoder (cpp/features/encoder.h, rosen.encode; layouts in docs/encoding.md):
golden planes of fixed positions checked square by square, the mover's view, R14 (the pile's
order never shows), record rows (docs/selfplay.md) round-tripping and hostile rows
rejected with the field named, batch splits, and both layouts agreeing with each other and
with the board's symmetries."""
from __future__ import annotations

import hashlib
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rosen
from conftest import random_position, swap_colours
from reference.minimax import from_position
from reference.rules import CARD_VECTOR, score_of
from rosen.encoding import (
    ROW_FIELDS,
    action_names,
    encode,
    feature_names,
    plane_names,
    positions_from_rows,
    rows_from_positions,
    transform,
    transform_actions,
    transform_encoded,
)

PLANE = {name: i for i, name in enumerate(plane_names())}
FEATURE = {name: i for i, name in enumerate(feature_names())}
CONFIGS = [(2, "eager"), (2, "lazy"), (4, "eager"), (4, "lazy")]


def sample_positions(count: int = 30) -> list:
    return [random_position(seed, players, reshuffle, plies=seed * 7 % 130)
            for players, reshuffle in CONFIGS for seed in range(count)]


def squares(plane: np.ndarray) -> set:
    """The squares (as names) where a (9, 9) plane is non-zero."""
    return {"abcdefghi"[f] + str(r + 1) for r, f in zip(*np.nonzero(plane))}


def card_grid(cards) -> set:
    """Where the card grid draws each card: the square the crown reaches from e5."""
    steps = {"N": (0, 1), "NE": (1, 1), "E": (1, 0), "SE": (1, -1), "S": (0, -1), "SW": (-1, -1), "W": (-1, 0),
             "NW": (-1, 1)}
    out = set()
    for card in cards:
        (df, dr), d = steps[card[:-1]], int(card[-1])
        out.add("abcdefghi"[4 + df * d] + str(5 + dr * d))
    return out


def test_version_shapes_and_names():
    assert rosen.ENCODER_VERSION == 2
    pos = rosen.Position.new(seed=1)
    planes, flat = encode(pos), encode(pos, "flat")
    assert planes.shape == (35, 9, 9) and planes.dtype == np.int8
    assert flat.shape == (477,) and flat.dtype == np.float32
    assert len(set(plane_names())) == 35 and len(set(feature_names())) == 477
    assert encode([pos, pos]).shape == (2, 35, 9, 9) and encode([], "flat").shape == (0, 477)
    # Version 2 appended its derived features: the indices of version 1 stay.
    assert feature_names()[397] == "team_seat" and feature_names()[398] == "score.own"
    assert plane_names()[30] == "team_seat" and plane_names()[31:] == ["territory.own", "territory.other",
                                                                       "gain.play", "gain.hero"]
    names = action_names()
    assert names[:3] == ["N1", "N2", "N3"] and names[24] == "H:N1" and names[48:] == ["draw", "pass"]


# --- golden positions, checked by reasoning ---

def test_golden_start_position():
    # Position.new(1): Red NE2,SE1,SW3,W1,NW3; White N1,NE1,NE3,SE2,S3; crown e5; 14 cards in the pile.
    pos = rosen.Position.new(seed=1)
    x = encode(pos)
    assert squares(x[PLANE["crown"]]) == {"e5"}
    assert not x[PLANE["own_tokens"]].any() and not x[PLANE["opponent_tokens"]].any() and x[PLANE["empty"]].all()
    reach = {"g7", "f4", "b2", "d5", "b8"}  # e5 + NE2, SE1, SW3, W1, NW3
    assert squares(x[PLANE["reach.mover"]]) == reach == squares(x[PLANE["play_targets"]])
    assert squares(x[PLANE["cards.mover"]]) == reach  # with the crown on e5 the two coincide
    assert squares(x[PLANE["reach.opponent"]]) == {"e6", "f6", "h8", "g3", "e2"}
    assert not x[PLANE["hero_targets"]].any() and not x[PLANE["reach.partner"]].any()
    assert x[PLANE["cards.pile"]].sum() == 14 and not x[PLANE["cards.discard"]].any()
    expected = {"heroes.mover": 4, "heroes.opponent": 4, "heroes.partner": 0, "hand_size.mover": 5, "supply": 52,
                "pile_size": 14, "draw_legal": 0, "lazy_reshuffle": 0, "four_players": 0, "mover_white": 0,
                "team_seat": 0}
    for name, value in expected.items():
        assert (x[PLANE[name]] == value).all(), name


def test_golden_after_the_first_move_from_white_s_view():
    pos = rosen.Position.new(seed=1).play("NE2")  # a red token and the crown on g7
    x, f = encode(pos), encode(pos, "flat")
    assert squares(x[PLANE["own_tokens"]]) == set() and squares(x[PLANE["opponent_tokens"]]) == {"g7"}
    assert squares(x[PLANE["crown"]]) == {"g7"} and x[PLANE["empty"]].sum() == 80
    # White's N1, NE1, SE2, S3 from g7 (NE3 would leave the board):
    assert squares(x[PLANE["reach.mover"]]) == {"g8", "h8", "i5", "g4"} == squares(x[PLANE["play_targets"]])
    grid = card_grid(["N1", "NE1", "NE3", "SE2", "S3"])
    assert squares(x[PLANE["cards.mover"]]) == grid == {"e6", "f6", "h8", "g3", "e2"}
    assert squares(x[PLANE["cards.discard"]]) == {"g7"}  # NE2 on the grid
    assert (x[PLANE["mover_white"]] == 1).all() and (x[PLANE["hand_size.opponent"]] == 4).all()
    assert (x[PLANE["supply"]] == 51).all() and (x[PLANE["draw_legal"]] == 0).all()
    assert f[FEATURE["hand.mover.N1"]] == 1 and f[FEATURE["hand.mover.NE2"]] == 0
    assert f[FEATURE["hand.opponent.SE1"]] == 1
    assert f[FEATURE["discard.NE2"]] == 1 and f[FEATURE["crown.g7"]] == 1 and f[FEATURE["opponent_token.g7"]] == 1
    assert f[FEATURE["supply"]] == pytest.approx(51 / 52) and f[FEATURE["pile_size"]] == pytest.approx(14 / 24)
    assert f[FEATURE["mover_white"]] == 1 and f[FEATURE["heroes.mover"]] == 1 and f[FEATURE["four_players"]] == 0


def test_golden_four_player_position_from_the_second_white_seat():
    # Red tokens d6, e6, a white token f6 under the crown; w2 (player 3) to move with S3, W2, W3.
    text = "9/9/9/3rrw3/9/9/9/9/9 f6 w2 NE2,SE1 E3,W1,NW3 NE1,S1 S3,W2,W3 2 1 0 2 E2,SW2,N3 *"
    x, f = encode(rosen.Position(text)), encode(rosen.Position(text), "flat")
    assert squares(x[PLANE["own_tokens"]]) == {"f6"} and squares(x[PLANE["opponent_tokens"]]) == {"d6", "e6"}
    assert squares(x[PLANE["play_targets"]]) == {"f3", "c6"} and squares(x[PLANE["hero_targets"]]) == {"d6"}
    # Seats from w2: opponent = r1 (next), partner = w1, opponent2 = r2.
    assert squares(x[PLANE["cards.opponent"]]) == card_grid(["NE2", "SE1"])
    assert squares(x[PLANE["cards.partner"]]) == card_grid(["E3", "W1", "NW3"])
    assert squares(x[PLANE["reach.opponent2"]]) == {"g7", "f5"}  # r2's NE1, S1 from f6
    for name, value in {"heroes.mover": 2, "heroes.opponent": 2, "heroes.partner": 1, "heroes.opponent2": 0,
                        "hand_size.opponent": 2, "hand_size.partner": 3, "supply": 49, "pile_size": 11,
                        "draw_legal": 0, "four_players": 1, "mover_white": 1, "team_seat": 1}.items():
        assert (x[PLANE[name]] == value).all(), name
    assert f[FEATURE["hand.partner.W1"]] == 1 and f[FEATURE["hand.opponent2.S1"]] == 1 and f[FEATURE["team_seat"]] == 1
    assert f[FEATURE["heroes.partner"]] == pytest.approx(0.25)


def test_layouts_are_pinned_to_the_version():
    # A deliberate change to either layout must bump ENCODER_VERSION and these digests.
    positions = [random_position(seed, players, "eager", plies=25) for seed, players in ((1, 2), (2, 4), (3, 2))]
    digest = hashlib.sha256(encode(positions).tobytes() + encode(positions, "flat").tobytes()).hexdigest()
    assert rosen.ENCODER_VERSION == 2 and digest[:16] == PINNED_DIGEST


PINNED_DIGEST = "36e9e26455c31e88"


# --- the mover's view ---

def swap_team_seats(pos: rosen.Position) -> rosen.Position:
    """The 4-player position with r1 <-> r2 and w1 <-> w2 (hands, heroes, side)."""
    fields = pos.fen(hide_pile_order=True).split()
    fields[2] = {"r1": "r2", "r2": "r1", "w1": "w2", "w2": "w1"}[fields[2]]
    fields[3:7] = [fields[5], fields[6], fields[3], fields[4]]
    fields[7:11] = [fields[9], fields[10], fields[7], fields[8]]
    return rosen.Position(" ".join(fields), reshuffle=pos.reshuffle)


@pytest.mark.parametrize("players", [2, 4])
def test_encoding_is_from_the_mover_s_view(players):
    # Exchanging the colours (2 players) or the team seats (4 players) changes only that flag.
    swap, flag = (swap_colours, "mover_white") if players == 2 else (swap_team_seats, "team_seat")
    for pos in [random_position(seed, players, "eager", plies=seed * 5 % 90) for seed in range(40)]:
        a, b = encode([pos, swap(pos)]), encode([pos, swap(pos)], "flat")
        assert [name for i, name in enumerate(plane_names()) if (a[0, i] != a[1, i]).any()] == [flag]
        assert [feature_names()[i] for i in np.nonzero(b[0] != b[1])[0]] == [flag]


# --- R14: the pile's order never shows ---

def reorder_pile(pos: rosen.Position, rng: random.Random, seed: int) -> rosen.Position:
    """The same public state with the pile in another explicit order and another generator."""
    fields = pos.fen(hide_pile_order=True).split()
    cards = pos.pile_cards
    rng.shuffle(cards)
    if cards:
        fields[-1] = ",".join(cards)
    return rosen.Position(" ".join(fields), reshuffle=pos.reshuffle, seed=seed)


@pytest.mark.parametrize("players,reshuffle", CONFIGS)
def test_R14_encoding_ignores_the_pile_order_for_every_seat(players, reshuffle):
    rng = random.Random(players)
    seats = set()
    for seed in range(50):
        pos = random_position(seed, players, reshuffle, plies=seed * 3 % 100)
        seats.add(pos.turn)
        variants = [pos, pos.hide_pile_order(), reorder_pile(pos, rng, seed + 1), reorder_pile(pos, rng, seed + 2)]
        for layout in ("planes", "flat"):
            x = encode(variants, layout)
            assert (x == x[0]).all(), (pos.fen(), layout)
    assert len(seats) == players


def test_R14_same_public_state_from_different_deals():
    # Two deals whose hands agree but whose piles are dealt in different orders.
    a = rosen.Position.new(seed=5)
    text = a.fen(hide_pile_order=True)
    b = rosen.Position(text.replace(" *", " " + ",".join(reversed(a.draw_pile))))
    assert a.draw_pile != b.draw_pile
    for move in ("N1", "S1", "E1", "W1"):
        if a.is_legal(move):
            a, b = a.play(move), b.play(move)
    assert (encode(a) == encode(b)).all() and (encode(a, "flat") == encode(b, "flat")).all()


# --- both layouts, symmetries, batches ---

def test_flat_and_planes_agree():
    positions = sample_positions(10)
    planes, flat = encode(positions).reshape(len(positions), 35, 81), encode(positions, "flat")
    for name, plane in (("own_token", "own_tokens"), ("opponent_token", "opponent_tokens"), ("crown", "crown")):
        start = FEATURE[f"{name}.a1"]
        assert (flat[:, start:start + 81] == planes[:, PLANE[plane]]).all()
    for group in ("hand.mover", "hand.opponent", "hand.partner", "hand.opponent2", "discard", "pile"):
        plane = "cards." + group.removeprefix("hand.")
        counts = flat[:, FEATURE[f"{group}.N1"]:FEATURE[f"{group}.N1"] + 24].sum(axis=1)
        assert (counts == planes[:, PLANE[plane]].sum(axis=1)).all(), group
    assert (flat[:, FEATURE["heroes.mover"]] * 4 == planes[:, PLANE["heroes.mover"], 0]).all()
    assert (flat[:, FEATURE["draw_legal"]] == planes[:, PLANE["draw_legal"], 0]).all()
    # The derived features: a score is the sum of the territory-size plane (each territory of n
    # squares counts n, n times), and each legal target's gain (below the plane's cap) is the card's.
    own, other = planes[:, PLANE["territory.own"]].astype(int), planes[:, PLANE["territory.other"]].astype(int)
    assert np.allclose(flat[:, FEATURE["score.own"]] * 100, own.sum(axis=1))
    assert np.allclose(flat[:, FEATURE["score.other"]] * 100, other.sum(axis=1))
    assert np.allclose(flat[:, FEATURE["largest.own"]] * 20, own.max(axis=1))
    for kind in ("play", "hero"):
        gains = flat[:, FEATURE[f"gain.{kind}.N1"]:FEATURE[f"gain.{kind}.N1"] + 24] * 50
        assert np.allclose(np.minimum(gains, 127).sum(axis=1), planes[:, PLANE[f"gain.{kind}"]].sum(axis=1))


def test_legal_targets_match_the_legal_moves():
    for pos in sample_positions(10):
        x = encode(pos)
        kinds = {m.kind for m in pos.legal_moves()}
        assert (x[PLANE["play_targets"]].sum() > 0) == ("play" in kinds)
        assert (x[PLANE["hero_targets"]].sum() > 0) == ("hero" in kinds)
        assert x[PLANE["draw_legal"], 0, 0] == ("draw" in kinds)


def test_encoding_turns_with_the_board():
    sym = rosen.symmetries()
    positions = sample_positions(8)
    for k in range(8):
        turned = [transform(p, k) for p in positions]
        for layout in ("planes", "flat"):
            expected = transform_encoded(encode(positions, layout), k, layout)
            assert (encode(turned, layout) == expected).all(), (k, layout)
        legal = np.zeros((len(positions), 50), bool)
        for i, p in enumerate(positions):
            legal[i, [action_names().index(str(m)) for m in p.legal_moves()]] = True
        turned_legal = transform_actions(legal, k)
        for i, p in enumerate(turned):
            legal_there = sorted(action_names().index(str(m)) for m in p.legal_moves())
            assert sorted(np.nonzero(turned_legal[i])[0]) == legal_there
        assert (transform_actions(transform_actions(legal, k), int(sym.inverse[k])) == legal).all()


def test_batch_splits_single_positions_and_out_agree():
    positions = sample_positions(12)
    for layout in ("planes", "flat"):
        whole = encode(positions, layout)
        assert (np.concatenate([encode(positions[:17], layout), encode(positions[17:], layout)]) == whole).all()
        assert all((encode(p, layout) == whole[i]).all() for i, p in enumerate(positions))
        out = np.full_like(whole, 7)
        assert encode(positions, layout, out=out) is out and (out == whole).all()
        one = np.full_like(whole[0], 7)
        encode(positions[3], layout, out=one)
        assert (one == whole[3]).all()
        rows = rows_from_positions(positions)
        part = {name: arr[5:40] for name, arr in rows.items()}
        assert (encode(part, layout) == whole[5:40]).all()


# --- record rows ---

def test_rows_round_trip():
    positions = sample_positions(25)
    rows = rows_from_positions(positions)
    assert set(rows) == set(ROW_FIELDS)
    for name, (dtype, shape) in ROW_FIELDS.items():
        assert rows[name].dtype == dtype and rows[name].shape == (len(positions),) + shape, name
    assert positions_from_rows(rows) == [p.hide_pile_order() for p in positions]
    for layout in ("planes", "flat"):
        assert (encode(rows, layout) == encode(positions, layout)).all()


def test_rows_from_an_npz_file_and_with_extra_fields(tmp_path):
    positions = sample_positions(5)
    rows = rows_from_positions(positions)
    legal = np.zeros((len(positions), 50), bool)
    np.savez(tmp_path / "shard.npz", **rows, legal=legal, format=np.array("rosen-selfplay"))
    with np.load(tmp_path / "shard.npz") as shard:
        assert (encode(shard) == encode(positions)).all()


def test_rows_in_other_integer_dtypes_are_accepted_when_they_fit():
    positions = sample_positions(3)
    rows = rows_from_positions(positions)
    rows = {name: arr if name == "tokens" else arr.astype(np.int64) for name, arr in rows.items()}
    assert (encode(rows) == encode(positions)).all()


def two_rows(players: int = 2):
    """Two copies of one row of a game in progress (tests spoil row 1), and its position."""
    pos = random_position(11, players, "eager", plies=20)
    return rows_from_positions([pos, pos]), pos


def lowest_card(mask) -> int:
    mask = int(mask)
    return mask & -mask


def spoiled(case: str):
    """Rows whose row 1 is spoiled in the named way, and the field the error must name."""
    rows, pos = two_rows()
    board = pos.board.ravel()
    empty, red = int(np.argmax(board == 0)), int(np.argmax(board == 1))
    hands, tokens = rows["hands"], rows["tokens"]
    changes = {  # case: (field named, field changed, index in row 1, new value)
        "players3": ("players", "players", (), 3),
        "reshuffle2": ("reshuffle", "reshuffle", (), 2),
        "to_move": ("to_move", "to_move", (), 2),
        "negative_to_move": ("to_move", "to_move", (), -1),
        "overlap": ("tokens", "tokens", (1, red // 64), int(tokens[1, 1, red // 64]) | 1 << (red % 64)),
        "high_bits": ("tokens", "tokens", (1, 1), 1 << 20),
        "too_many": ("tokens", "tokens", (0, 0), (2**64 - 1) & ~int(tokens[1, 1, 0])),  # 64 + tokens of word 1
        "crown_range": ("crown", "crown", (), 81),
        "crown_negative": ("crown", "crown", (), -3),
        "crown_empty": ("crown", "crown", (), empty),
        "unused_hand": ("hands", "hands", (3,), lowest_card(rows["pile"][1])),
        "big_hand": ("hands", "hands", (0,), int(hands[1, 0]) | int(rows["pile"][1])),
        "card_bits": ("hands", "hands", (1,), int(hands[1, 1]) | 1 << 24),
        "twice": ("discard", "discard", (), int(rows["discard"][1]) | lowest_card(hands[1, 0])),
        "twice_in_hands": ("hands", "hands", (1,),  # one of White's cards swapped for one of Red's
                           int(hands[1, 1]) & ~lowest_card(hands[1, 1]) | lowest_card(hands[1, 0])),
        "missing": ("pile", "pile", (), int(rows["pile"][1]) & ~lowest_card(rows["pile"][1])),
        "heroes": ("heroes", "heroes", (0,), 5),
        "negative_heroes": ("heroes", "heroes", (1,), -1),
        "unused_heroes": ("heroes", "heroes", (2,), 1),
    }
    named, name, index, value = changes[case]
    rows[name][(1,) + index] = value
    return rows, named


HOSTILE = ["players3", "reshuffle2", "to_move", "negative_to_move", "overlap", "high_bits", "too_many",
           "crown_range", "crown_negative", "crown_empty", "unused_hand", "big_hand", "card_bits", "twice",
           "twice_in_hands", "missing", "heroes", "negative_heroes", "unused_heroes"]


@pytest.mark.parametrize("case", HOSTILE)
def test_hostile_rows_are_rejected_naming_field_and_row(case):
    rows, field = spoiled(case)
    for call in (lambda: encode(rows), lambda: encode(rows, "flat"), lambda: positions_from_rows(rows)):
        with pytest.raises(rosen.InvalidArgumentError) as err:
            call()
        assert err.value.field == field and str(err.value).startswith(f"{field}: row 1: "), str(err.value)
    # A failed call leaves the caller's buffer as it was, row 0 (a good row) included.
    for out in (np.full((2, 35, 9, 9), 7, np.int8), np.full((2, 477), 7, np.float32)):
        with pytest.raises(rosen.InvalidArgumentError):
            encode(rows, "planes" if out.ndim == 4 else "flat", out=out)
        assert (out == 7).all()


def test_the_crown_off_e5_on_an_empty_board_is_rejected():
    rows = rows_from_positions([rosen.Position.new(seed=2)])
    rows["crown"][0] = 41
    with pytest.raises(rosen.InvalidArgumentError, match="^crown: row 0: .*f5 is empty"):
        encode(rows)


@pytest.mark.parametrize("mutate, exc, field", [
    (lambda r: r.__setitem__("crown", r["crown"].astype(np.float32)), rosen.ArgumentTypeError, "crown"),
    (lambda r: r.__setitem__("tokens", r["tokens"].reshape(len(r["tokens"]), 4)), rosen.InvalidArgumentError, "tokens"),
    (lambda r: r.__setitem__("hands", r["hands"][:1]), rosen.InvalidArgumentError, "hands"),
    (lambda r: r.__setitem__("pile", r["pile"][:, None]), rosen.InvalidArgumentError, "pile"),
    (lambda r: r.pop("heroes"), rosen.InvalidArgumentError, "heroes"),
    (lambda r: r.__setitem__("crown", r["crown"].astype(np.int64) + 300), rosen.InvalidArgumentError, "crown"),
    (lambda r: r.__setitem__("discard", r["discard"].astype(np.int64) - 2**40), rosen.InvalidArgumentError, "discard"),
    (lambda r: r.__setitem__("players", np.array(["2", "2"])), rosen.ArgumentTypeError, "players"),
    # a short field is named, not the field read after it (once "reshuffle: expected shape (1,)")
    (lambda r: r.__setitem__("players", r["players"][:1]), rosen.InvalidArgumentError, "players"),
    (lambda r: r.__setitem__("crown", r["crown"][0]), rosen.InvalidArgumentError, "crown"),  # a scalar
    (lambda r: r.__setitem__("pile", [[1], [1, 2]]), rosen.ArgumentTypeError, "pile"),  # ragged
])
def test_bad_row_arrays_raise_naming_the_field(mutate, exc, field):
    rows, _ = two_rows()
    mutate(rows)
    with pytest.raises(exc) as err:
        encode(rows)
    assert err.value.field == field, str(err.value)


def test_a_scalar_field_is_refused_for_one_row_too():
    # With N = 1, ascontiguousarray once made a scalar one row and the call succeeded.
    rows = rows_from_positions([rosen.Position.new(seed=1)])
    rows["crown"] = rows["crown"][0]
    with pytest.raises(rosen.InvalidArgumentError, match="^crown: expected an array with one entry per row"):
        encode(rows)


def test_a_wider_dtype_is_taken_up_to_the_fields_maximum_and_refused_one_beyond():
    # Checked before narrowing: the value one past the maximum would wrap round to 0.
    from rosen.encoding import ROW_FIELDS

    rows = rows_from_positions([rosen.Position.new(seed=1)])
    for name, value in (("discard", np.iinfo(ROW_FIELDS["discard"][0]).max + 1),
                        ("crown", np.iinfo(ROW_FIELDS["crown"][0]).max + 1), ("crown", np.iinfo(ROW_FIELDS["crown"][0]).min - 1)):
        bad = dict(rows)
        bad[name] = np.array([value], np.int64)
        with pytest.raises(rosen.InvalidArgumentError, match=f"^{name}: values must fit"):
            encode(bad)
    wide = dict(rows, crown=rows["crown"].astype(np.int64))  # the same values in a wider dtype
    assert np.array_equal(encode(wide), encode(rows))


def test_a_symmetry_beyond_the_eight_is_named():
    for call in (lambda k: transform_actions(np.zeros(50), k), lambda k: transform(rosen.Position.new(1), k),
                 lambda k: transform_encoded(np.zeros((35, 9, 9), np.int8), k)):
        for k in (8, -1):
            with pytest.raises(rosen.InvalidArgumentError, match="^k: expected 0..7"):
                call(k)


def test_bad_arguments_raise_naming_the_field():
    pos = rosen.Position.new(seed=1)
    cases = [
        (lambda: encode(pos, "image"), rosen.InvalidArgumentError, "layout"),
        (lambda: encode(pos, 3), rosen.ArgumentTypeError, "layout"),
        (lambda: encode([pos, "e5"]), rosen.ArgumentTypeError, "items"),
        (lambda: encode(42), rosen.ArgumentTypeError, "items"),
        (lambda: encode("9/9/9/9/9/9/9/9/9 e5 r - - 4 4 - *"), rosen.ArgumentTypeError, "items"),
        (lambda: encode([pos], out=np.zeros((1, 31, 9, 9), np.float32)), rosen.ArgumentTypeError, "out"),
        (lambda: encode([pos], out=np.zeros((2, 31, 9, 9), np.int8)), rosen.InvalidArgumentError, "out"),
        (lambda: encode([pos], "flat", out=np.zeros((1, 398), np.float32)[:, ::-1]), rosen.InvalidArgumentError, "out"),
        (lambda: encode([pos], out=[0]), rosen.ArgumentTypeError, "out"),
        (lambda: positions_from_rows([pos]), rosen.ArgumentTypeError, "rows"),
        (lambda: rows_from_positions(pos), rosen.ArgumentTypeError, "positions"),
        (lambda: transform_actions(np.zeros(49), 1), rosen.InvalidArgumentError, "x"),
        (lambda: transform_encoded(np.zeros((31, 9, 8)), 1), rosen.InvalidArgumentError, "x"),
        (lambda: transform_encoded([[1], [1, 2]], 1), rosen.ArgumentTypeError, "x"),  # ragged: a raw ValueError
        (lambda: transform_actions([[1], [1, 2]], 1), rosen.ArgumentTypeError, "x"),
    ]
    for call, exc, field in cases:
        with pytest.raises(exc) as err:
            call()
        assert err.value.field == field, str(err.value)
    with pytest.raises(rosen.InvalidArgumentError, match=r"^out: expected shape \(35, 9, 9\) for one position, got \(1, 35, 9, 9\)"):
        encode(pos, out=np.zeros((1, 35, 9, 9), np.int8))  # once "expected (1, 35, 9, 9), got (1, 1, 35, 9, 9)"
    readonly = np.zeros((1, 398), np.float32)
    readonly.flags.writeable = False
    with pytest.raises(rosen.InvalidArgumentError, match="^out: "):
        encode([pos], "flat", out=readonly)


def test_ragged_input_is_a_named_error_with_the_object_arrays_of_an_older_numpy(monkeypatch):
    # pyproject allows NumPy 1.21, which (before 1.24) makes an object array of ragged nesting,
    # with a warning, where NumPy 2 raises: the ragged input then failed as a wrong shape, naming
    # no raggedness, or as a TypeError of NumPy's own.
    from rosen.encoding import positions_from_rows, rows_from_positions, transform_actions, transform_encoded
    from rosen.territory import score_boards

    real = np.asarray

    def old_asarray(value, *args, **kwargs):
        try:
            return real(value, *args, **kwargs)
        except ValueError:
            return np.array(value, dtype=object)

    monkeypatch.setattr(np, "asarray", old_asarray)
    rows = rows_from_positions([rosen.Position.new(seed=1), rosen.Position.new(seed=2)])
    rows["pile"] = [[1], [1, 2]]
    for call, field in [(lambda: transform_encoded([[1], [1, 2]], 1), "x"),
                        (lambda: transform_actions([[1], [1, 2]], 1), "x"),
                        (lambda: score_boards([[1], [1, 2]]), "boards"),
                        (lambda: positions_from_rows(rows), "pile")]:
        with pytest.raises(rosen.ArgumentTypeError, match=f"^{field}: expected .*, got a ragged list") as err:
            call()
        assert err.value.field == field


def test_action_index_numbers_every_move_as_the_records_do():
    from rosen.encoding import action_index, action_names

    assert [action_index(name) for name in action_names()] == list(range(50))
    assert action_index("draw:SE2") == action_index("draw") == 48 and action_index("pass") == 49
    pos = rosen.Position.new(seed=3)
    assert sorted(action_index(m) for m in pos.legal_moves()) == sorted(
        action_names().index(str(m)) for m in pos.legal_moves())
    with pytest.raises(ValueError, match="^move: expected a card"):
        action_index("NORTH9")
    # the core's notation: any case; a draw's card must be a card (any text after "draw" once passed)
    assert action_index("n1") == 0 and action_index("PASS") == 49 and action_index("Draw:se2") == 48
    for junk in ("drawXYZ", "drawing", "draw:N9"):
        with pytest.raises(rosen.InvalidMoveError, match="^move: "):
            action_index(junk)
    with pytest.raises(rosen.ArgumentTypeError, match="^move: expected a rosen.Move or its text, got NoneType"):
        action_index(None)


# --- version 2: the derived features against a plain computation (reference.rules) ---

def reference_derived(pos: rosen.Position) -> dict:
    """What version 2's derived features should hold, computed from the reference rules' scoring
    (R10, R11) by trying each move on a copy of the grid: {feature name: value}, and the two
    territory planes as {(colour side, rank, file): size}."""
    ref = from_position(pos)
    grid = ref.grid
    own = ref.colour_of(ref.side)
    other = "w" if own == "r" else "r"
    out = {}
    before = {c: score_of(grid, c) for c in "rw"}
    sizes = {}
    for side, colour in (("own", own), ("other", other)):
        out[f"score.{side}"] = before[colour] / 100
        seen = set()
        for r in range(9):
            for f in range(9):
                if grid[r][f] != colour or (r, f) in seen:
                    continue
                region, stack = {(r, f)}, [(r, f)]
                while stack:
                    cr, cf = stack.pop()
                    for dr, df in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                        nr, nf = cr + dr, cf + df
                        if 0 <= nr < 9 and 0 <= nf < 9 and grid[nr][nf] == colour and (nr, nf) not in region:
                            region.add((nr, nf))
                            stack.append((nr, nf))
                seen |= region
                for sq in region:
                    sizes[(side, *sq)] = len(region)
        out[f"largest.{side}"] = max([n for (s, _, _), n in sizes.items() if s == side], default=0) / 20
        out[f"tokens.{side}"] = sum(row.count(colour) for row in grid) / 52
    out["score.difference"] = (before[own] - before[other]) / 100

    def target(card):
        (df, dr), (cf, cr) = CARD_VECTOR[card], ref.crown
        return (cr + dr, cf + df) if 0 <= cf + df < 9 and 0 <= cr + dr < 9 else None

    def with_token(colour, sq):
        g = [row[:] for row in grid]
        g[sq[0]][sq[1]] = colour
        return g

    for move in pos.legal_moves():
        if move.kind == "play":
            card = str(move)
            after = with_token(own, target(card))
            out[f"gain.play.{card}"] = (score_of(after, own) - before[own]) / 50
        elif move.kind == "hero":
            card = str(move)[2:]
            after = with_token(own, target(card))
            out[f"gain.hero.{card}"] = (score_of(after, own) - before[own] + before[other]
                                        - score_of(after, other)) / 50
    next_hand = ref.hands[(ref.side + 1) % ref.players]
    for card in next_hand:
        t = target(card)
        if t is not None and grid[t[0]][t[1]] == ".":
            out[f"threat.opponent.{card}"] = (score_of(with_token(other, t), other) - before[other]) / 50
    return out, sizes


DERIVED = [i for i, name in enumerate(feature_names()) if i >= FEATURE["score.own"]]


def check_derived(pos: rosen.Position) -> None:
    expected, sizes = reference_derived(pos)
    flat, planes = encode(pos, "flat"), encode(pos)
    got = {feature_names()[i]: float(flat[i]) for i in DERIVED if flat[i] != 0}
    assert set(got) == {name for name, value in expected.items() if value != 0}, pos.fen()
    for name, value in got.items():
        assert value == pytest.approx(expected[name], rel=1e-6), (pos.fen(), name)
    for side in ("own", "other"):
        plane = planes[PLANE[f"territory.{side}"]]
        assert {(side, r, f): int(plane[r, f]) for r, f in zip(*np.nonzero(plane))} == \
            {key: n for key, n in sizes.items() if key[0] == side}, pos.fen()


@pytest.mark.parametrize("players,reshuffle", CONFIGS)
def test_derived_features_match_the_reference_rules(players, reshuffle):
    for seed in range(25):
        check_derived(random_position(seed, players, reshuffle, plies=seed * 11 % 150))


def test_derived_features_of_a_position_with_heroes():
    # Red to move with the crown on its token e4; red d5, f5, a white e5 between them: H:N1 takes e5.
    pos = rosen.Position("9/9/9/9/3rwr3/4r4/9/9/9 e4 r N1,S1,E1,W1,NE1 N2,S2,E2,W2,SW1 4 4 - *")
    f = encode(pos, "flat")
    # A red token on e5 joins d5, f5 and e4: 4 * 4 - 3 = 13; White loses its 1-square territory.
    assert f[FEATURE["gain.hero.N1"]] == pytest.approx((13 + 1) / 50) and f[FEATURE["gain.play.N1"]] == 0
    assert f[FEATURE["gain.play.W1"]] == pytest.approx(7 / 50)  # d4 joins d5 and e4: 3 * 3 - 1 - 1
    assert f[FEATURE["score.own"]] == pytest.approx(0.03) and f[FEATURE["score.other"]] == pytest.approx(0.01)
    assert f[FEATURE["score.difference"]] == pytest.approx(0.02) and f[FEATURE["largest.own"]] == pytest.approx(0.05)
    # White's N2 from e4 would land on e6, next to its e5: 4 - 1 = 3.
    assert f[FEATURE["threat.opponent.N2"]] == pytest.approx(3 / 50)
    check_derived(pos)


def test_a_square_whose_east_and_west_neighbours_are_one_territory_joins_it_once():
    # Red's U d4-d3-d2-e2-f2-f3-f4 (7 squares) holds e4 between its two arms, whose north (White's
    # e5) and south (the empty e3) are not in it: S1 from e5 joins it once, 8 * 8 - 7 * 7 = 15.
    pos = rosen.Position("9/9/9/9/4w4/3r1r3/3r1r3/3rrr3/9 e5 r S1,S2,N1,E1,W1 N2,S3,E2,W2,SW1 4 4 - *")
    f = encode(pos, "flat")
    assert f[FEATURE["gain.play.S1"]] == pytest.approx(15 / 50) and f[FEATURE["gain.play.S2"]] == pytest.approx(15 / 50)
    assert pos.play("S1").scores[0] - pos.scores[0] == 15
    check_derived(pos)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from([2, 4]), st.sampled_from(["eager", "lazy"]), st.integers(0, 200))
def test_derived_features_on_random_positions(seed, players, reshuffle, plies):
    pos = random_position(seed, players, reshuffle, plies)
    check_derived(pos)
    k = seed % 8
    for layout in ("planes", "flat"):
        assert (encode(transform(pos, k), layout) == transform_encoded(encode(pos, layout), k, layout)).all()
