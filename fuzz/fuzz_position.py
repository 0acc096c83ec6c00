"""Fuzz target: position and move parsing (rosen.Position, rosen.Move, Position.play/is_legal, pickling).

Input layout: byte 0 flags, byte 1 more flags, then (as the flags say) a seed, a reshuffle word and a
hostile pickle state; the rest is text: the position on the first line, then moves separated by
white space. A committed corpus file is ``b"\\0\\0" + fen + "\\n" + moves``.

Oracle: every call returns or raises ValueError/TypeError (_common.ALLOWED), and
  * whatever parses round-trips: ``Position(p.fen(), same options) == p``, also with the pile
    order hidden, and through pickle; ``Move(str(m)) == m``, also through pickle;
  * ``is_legal(x)`` is True exactly when ``play(x)`` succeeds, and play never changes its position;
  * every legal move is legal by its text and leads to a position that round-trips.
"""
from __future__ import annotations

import os
import pickle
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
if __name__ == "__main__":  # fuzzing: atheris instruments rosen before this module imports it
    from _atheris_main import fuzz_main
    sys.exit(fuzz_main(__file__))
from _common import Input, attempt, check, value  # noqa: E402

import rosen  # noqa: E402

MAX_MOVES = 8


def _hostile_pickle(cls, state) -> bytes:
    """The bytes a tampered pickle of ``cls`` with this state would hold: NEWOBJ, then BUILD, which
    calls ``__setstate__(state)`` exactly as unpickling a saved Move or Position does."""
    body = pickle.dumps(state, protocol=2)[2:-1]  # without PROTO and STOP
    name = f"{cls.__module__}\n{cls.__qualname__}\n".encode()
    return b"\x80\x02c" + name + b")\x81" + body + b"b."


def _roundtrip_position(pos: "rosen.Position", kwargs: dict) -> None:
    again = rosen.Position(pos.fen(), **kwargs)
    check(again == pos and again.fen() == pos.fen(), f"fen round trip: {pos.fen()!r} -> {again.fen()!r}")
    hidden = pos.fen(hide_pile_order=True)
    ok, res = attempt(rosen.Position, hidden, **kwargs)
    check(ok, f"the hidden-pile fen {hidden!r} of a parsed position does not parse: {res!r}")
    check(res.fen(hide_pile_order=True) == hidden, f"hidden fen round trip: {hidden!r}")
    unpickled = pickle.loads(pickle.dumps(pos))
    check(unpickled == pos and unpickled.fen() == pos.fen(), f"pickle round trip of {pos.fen()!r}")


def _check_move_text(text: str) -> None:
    ok, move = attempt(rosen.Move, text)
    if not ok:
        return
    check(rosen.Move(str(move)) == move, f"Move round trip: {text!r} -> {str(move)!r}")
    check(pickle.loads(pickle.dumps(move)) == move, f"Move pickle round trip: {text!r}")


def _play(pos: "rosen.Position", move, kwargs: dict):
    before = pos.fen()
    ok_legal, legal = attempt(pos.is_legal, move)
    ok_play, after = attempt(pos.play, move)
    check(pos.fen() == before, f"play({move!r}) changed its position")
    if ok_legal:
        check(isinstance(legal, bool), f"is_legal({move!r}) returned {legal!r}")
        check(legal == ok_play, f"is_legal({move!r}) is {legal} but play {'succeeded' if ok_play else 'raised'} "
                                f"on {before!r}: {after!r}")
    if ok_play:
        _roundtrip_position(after, kwargs)
        return after
    return None


def one_input(data: bytes) -> None:
    inp = Input(data)
    flags, flags2 = inp.byte(), inp.byte()
    kwargs: dict = {}
    reshuffle = flags & 3
    if reshuffle == 1:
        kwargs["reshuffle"] = "eager"
    elif reshuffle == 2:
        kwargs["reshuffle"] = "lazy"
    elif reshuffle == 3:
        kwargs["reshuffle"] = value(inp, ["eager", "lazy", "EAGER", "", "lazy\0"])
    if flags & 4:
        kwargs["seed"] = inp.integer() if inp.bool() else value(inp)
    walk = flags >> 5  # legal plies to walk at the end
    hostile_state = None
    if flags2 & 1:
        hostile_state = tuple(value(inp, ["NE2", "eager", "lazy", "9/9/9/9/9/9/9/9/9"]) for _ in range(inp.byte() % 5))
    text = inp.rest_text(flags >> 3)
    first, _, rest = text.partition("\n")
    moves = rest.split()[:MAX_MOVES]

    # Parse (a non-str position argument now and then).
    arg = value(Input(first.encode("utf-8", "surrogatepass"))) if flags2 & 2 else first
    ok, pos = attempt(rosen.Position, arg, **kwargs)
    if ok:
        _roundtrip_position(pos, kwargs)
        kwargs_ok = kwargs
    else:
        kwargs_ok = {}
        pos = rosen.Position.new(seed=flags2, players=4 if flags2 & 4 else 2)

    for m in moves:
        _check_move_text(m)
        # The same text played as a string and as a parsed Move.
        nxt = _play(pos, m, kwargs_ok)
        okm, mv = attempt(rosen.Move, m)
        if okm:
            nxt2 = _play(pos, mv, kwargs_ok)
            check((nxt is None) == (nxt2 is None) and (nxt is None or nxt == nxt2),
                  f"play({m!r}) and play(Move({m!r})) disagree on {pos.fen()!r}")
        if nxt is not None:
            pos = nxt

    for ply in range(walk):
        legal = pos.legal_moves()
        if not legal:
            break
        move = legal[(ply * 7 + flags2) % len(legal)]
        check(pos.is_legal(str(move)) and pos.is_legal(move), f"legal move {move} is not legal on {pos.fen()!r}")
        pos = _play(pos, move, kwargs_ok)
        check(pos is not None, f"legal move {move} cannot be played")

    if hostile_state is not None:
        for cls in (rosen.Move, rosen.Position):
            try:
                blob = _hostile_pickle(cls, hostile_state)
            except (pickle.PicklingError, TypeError, AttributeError):
                continue  # a state that Python cannot pickle in the first place
            attempt(pickle.loads, blob)
