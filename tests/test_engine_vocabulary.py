"""The protocol vocabulary (rosen.engine.protocol): every line type formats and parses back to
the same value, fields this version does not know survive, and malformed lines are refused."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rosen
from rosen.engine.protocol import (CandidateInfo, GoArgs, InfoString, SearchInfo, error_line, format_bestmove,
                                   parse_bestmove, parse_go, parse_info)

MOVES = st.sampled_from(["N1", "NE2", "H:SW3", "draw", "pass", "E3", "H:N1"])
WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=8)


def rounded(digits, low, high):
    return st.floats(low, high, allow_nan=False).map(lambda x: round(x, digits))


search_infos = st.builds(
    SearchInfo, depth=rounded(2, 0, 200), seldepth=st.integers(0, 10_000), iterations=st.integers(0, 10**12),
    nps=st.integers(0, 10**9), time_ms=st.integers(0, 10**9), winrate=rounded(4, 0, 1), score=rounded(2, -3000, 3000),
    tree_size=st.integers(0, 2**31), pv=st.lists(MOVES, max_size=8).map(tuple),
    extra=st.lists(st.tuples(WORD.filter(lambda w: w not in ("pv", "string", "multipv", "depth", "seldepth", "nodes",
                                                              "nps", "time", "winrate", "score", "tree")),
                             st.integers(0, 99).map(str)), max_size=2).map(tuple))
candidate_infos = st.builds(
    CandidateInfo, multipv=st.integers(1, 64), move=MOVES, visits=st.integers(0, 10**9), winrate=rounded(4, 0, 1),
    score=rounded(2, -3000, 3000), prior=rounded(4, 0, 1), pv=st.lists(MOVES, min_size=1, max_size=6).map(tuple))


@given(search_infos)
def test_search_info_round_trips(info):
    assert parse_info(info.format()) == info


@given(candidate_infos)
def test_candidate_info_round_trips(info):
    assert parse_info(info.format()) == info


@given(st.text(alphabet=st.characters(blacklist_categories=("Cc", "Zs", "Zl", "Zp")), min_size=1, max_size=40))
def test_info_string_round_trips(text):
    assert parse_info(InfoString(text).format()) == InfoString(text)


def test_the_wire_words_are_the_protocols():
    line = SearchInfo(depth=5.46, seldepth=10, iterations=4000, nps=46147, time_ms=87, winrate=0.5962, score=20.52,
                      tree_size=7566, pv=("E3", "NE1", "draw")).format()
    assert line == ("info depth 5.46 seldepth 10 nodes 4000 nps 46147 time 87 winrate 0.5962 score 20.52 "
                    "tree 7566 pv E3 NE1 draw")
    candidate = CandidateInfo(multipv=1, move="E3", visits=2952, winrate=0.5962, score=20.52, prior=0.2,
                              pv=("E3", "NE1", "draw")).format()
    assert candidate == "info multipv 1 move E3 visits 2952 winrate 0.5962 score 20.52 prior 0.2000 pv E3 NE1 draw"


def test_unknown_fields_are_kept_and_errors_are_recognised():
    info = parse_info("info multipv 2 move H:S2 visits 7 hashfull 12 winrate 0.25 score 3 prior 0.1 pv H:S2")
    assert info == CandidateInfo(multipv=2, move="H:S2", visits=7, winrate=0.25, score=3.0, prior=0.1, pv=("H:S2",),
                                 extra=(("hashfull", "12"),))
    error = parse_info(error_line("go: nodes: expected 1..9, got 0"))
    assert isinstance(error, InfoString) and error.is_error and error.error == "go: nodes: expected 1..9, got 0"
    assert InfoString("depth 3 reached").error is None


@pytest.mark.parametrize("line, field", [("bestmove N1", "line"), ("info depth x", "depth"),
                                         ("info nodes", "nodes"), ("info multipv 1 visits 3", "line")])
def test_malformed_info_lines_are_refused_naming_the_field(line, field):
    with pytest.raises(rosen.InvalidArgumentError) as info:
        parse_info(line)
    assert info.value.field == field


def test_bestmove_and_go_round_trip():
    assert parse_bestmove(format_bestmove("H:NE2")) == "H:NE2"
    assert parse_bestmove(format_bestmove(None)) is None
    for go in (GoArgs(nodes=500), GoArgs(movetime=100, infinite=True),
               GoArgs(p1time=1000, p2time=2000, p1inc=10, p2inc=20), GoArgs(),
               GoArgs(p1time=1000, p2time=2000, p1inc=10)):  # written as a pair, as the grammar has it
        assert parse_go(go.format().split()[1:]) == go
        assert parse_go(go.format()) == go  # the whole line, as the docs' round trip says


def test_a_search_result_as_the_engine_reports_it_parses_to_the_search_apis_words():
    # One quantity, one word: the protocol's `nodes` is the API's iterations, `tree` its tree_size.
    result = rosen.search(rosen.Position.new(seed=1), iterations=200, seed=3)
    info = SearchInfo(iterations=result.iterations, tree_size=result.tree_size, pv=tuple(map(str, result.pv)))
    parsed = parse_info(info.format())
    assert parsed.iterations == 200 and parsed.tree_size == result.tree_size > 200
    assert f"nodes {result.iterations} " in info.format() and f"tree {result.tree_size} " in info.format()


def test_edge_lines_of_the_vocabulary():
    # A bare `bestmove` gives no move (as `bestmove (none)` does), not an IndexError.
    assert parse_bestmove("bestmove") is None and parse_bestmove("bestmove (none)") is None
    # An error is one line whatever its message holds (PROTOCOL.md: one line per message).
    assert error_line("bad\nline\r\n  here\t") == "info string error: bad line here"
    assert InfoString("two\nlines").format() == "info string two lines"
    # A candidate with no line of its own is written with the move as its line, and reads back so.
    line = CandidateInfo(multipv=1, move="E3").format()
    assert line.endswith(" pv E3") and parse_info(line).pv == ("E3",)
