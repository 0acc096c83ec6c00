"""rosen serve's JSON API (rosen.web): games, moves, analysis, records, R14 on the wire, and a
server that refuses bad requests with a 4xx JSON error and stays healthy."""
from __future__ import annotations

import contextlib
import json
import re
import threading
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

import rosen
from rosen.match import ALL_CARDS
from rosen.match.game import play_game
from rosen.agents import RandomAgent
from rosen.web.app import create_app
from rosen.web.sessions import Sessions
from rosen.web.views import CARD_ORDER

#: TestClient's default Host, "testserver", is not this machine: the app refuses it (F105).
BASE = "http://127.0.0.1"


@pytest.fixture
def client():
    with TestClient(create_app(), base_url=BASE) as c:
        yield c


def new_game(client, **body):
    body.setdefault("seed", 5)
    if "time_ms" not in body:
        body.setdefault("iterations", 50)
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def assert_error(r, status, field=None):
    assert r.status_code == status, r.text
    data = r.json()
    assert set(data) == {"error", "field"} and data["error"]
    if field is not None:
        assert data["field"] == field, data
    return data


def test_new_game_shows_the_public_deal(client):
    g = new_game(client)
    p = g["position"]
    truth = rosen.Position.new(5)
    assert p["fen"] == truth.fen(hide_pile_order=True) and p["fen"].endswith(" *")
    assert p["turn"] == "r" and g["engine_seats"] == ["w"] and not g["engine_to_move"]
    assert p["hands"] == {"r": sorted(truth.hands[0], key=rosen.web.views.CARD_ORDER.index),
                          "w": sorted(truth.hands[1], key=rosen.web.views.CARD_ORDER.index)}
    assert [m["move"] for m in p["legal_moves"]] == [str(m) for m in truth.legal_moves()]
    for m in p["legal_moves"]:  # targets come from the API, not from the page
        assert m["target"] == truth.play(m["move"]).crown
    assert p["pile_size"] == 14 and len(p["board"]) == 9 and p["crown"] == "e5"


def test_play_a_move_and_the_engine_answers(client):
    g = new_game(client)
    move = g["position"]["legal_moves"][0]["move"]
    r = client.post(f"/api/games/{g['id']}/move", json={"move": move.lower()})
    assert r.status_code == 200
    g = r.json()
    assert g["last_move"] == move and g["engine_to_move"] and g["position"]["turn"] == "w"
    r = client.post(f"/api/games/{g['id']}/engine")
    assert r.status_code == 200
    g = r.json()
    assert g["engine"]["search"]["iterations"] == 50 and g["position"]["turn"] == "r"
    assert len(g["history"]) == 3 and g["history"][1]["red_winrate"] is not None


def test_illegal_move_lists_the_legal_moves_and_changes_nothing(client):
    g = new_game(client)
    before = client.get(f"/api/games/{g['id']}").json()
    data = assert_error(client.post(f"/api/games/{g['id']}/move", json={"move": "H:N1"}), 400, "move")
    assert "legal moves" in data["error"]
    assert_error(client.post(f"/api/games/{g['id']}/move", json={"move": "fly"}), 400)
    assert_error(client.post(f"/api/games/{g['id']}/move", json={"move": "draw:N1"}), 400, "move")
    assert_error(client.post(f"/api/games/{g['id']}/move", json={}), 400, "move")
    assert_error(client.post(f"/api/games/{g['id']}/engine"), 409, "engine")  # not the engine's turn
    assert client.get(f"/api/games/{g['id']}").json() == before


@pytest.mark.parametrize("body, field", [
    ({"players": 3}, "players"), ({"iterations": 0}, "iterations"), ({"time_ms": 10**9}, "time_ms"),
    ({"iterations": 10, "time_ms": 10}, "time_ms"), ({"engine_seats": ["x"]}, "engine_seats"),
    ({"engine_seats": "w"}, "engine_seats"), ({"reshuffle": "never"}, "reshuffle"), ({"seed": -1}, "seed"),
    ({"colour": "red"}, "colour"), ({"iterations": "many"}, "iterations"),
])
def test_bad_game_settings_are_4xx_naming_the_field(client, body, field):
    assert_error(client.post("/api/games", json=body), 400, field)
    assert client.get("/api/health").json()["games"] == 0


def test_malformed_requests_get_json_errors(client):
    assert_error(client.post("/api/games", content=b"{not json"), 400, "body")
    assert_error(client.post("/api/games", content=b"[1, 2]"), 400, "body")
    assert_error(client.get("/api/games/nope"), 404, "game")
    assert_error(client.post("/api/games/nope/move", json={"move": "N1"}), 404, "game")
    assert_error(client.get("/api/no-such-thing"), 404)
    assert_error(client.put("/api/games"), 405)
    assert_error(client.post("/api/analyses/nope/stop"), 404, "analysis")
    assert_error(client.get("/api/analyse", params={"fen": "x"}), 400)
    assert_error(client.post("/api/position", content=b"x" * (9 * 1024 * 1024)), 413, "body")
    deep = b"[" * 100000 + b"]" * 100000  # Python's json raises RecursionError, not ValueError
    assert_error(client.post("/api/games", content=deep), 400, "body")
    assert_error(client.post("/api/records", json={"text": deep.decode()}), 400, "text")


def test_bad_position_names_the_field(client):
    start = rosen.Position.new(1).fen(hide_pile_order=True)
    assert client.post("/api/position", json={"fen": start}).json()["fen"] == start
    bad = start.replace(" r ", " x ")
    data = assert_error(client.post("/api/position", json={"fen": bad}), 400, "side")
    assert data["error"].startswith("side")
    assert_error(client.post("/api/position", json={"fen": 42}), 400, "fen")
    assert_error(client.post("/api/position", json={"fen": start, "reshuffle": "x"}), 400, "reshuffle")
    first = str(rosen.Position(start).legal_moves()[0])
    after = client.post("/api/position", json={"fen": start, "move": first}).json()
    assert after["turn"] == "w" and after["fen"] == rosen.Position(start).play(first).fen()
    assert_error(client.post("/api/position", json={"fen": start, "move": "H:N1"}), 400, "move")


@settings(max_examples=150, deadline=None)
@given(text=st.text(max_size=120))
def test_no_text_gives_a_server_error(text):
    with TestClient(create_app(), base_url=BASE) as c:
        r = c.post("/api/position", json={"fen": text})
        assert r.status_code in (200, 400), r.text
        r = c.post("/api/position", content=text.encode("utf-8", "surrogatepass"))
        assert r.status_code < 500


def read_events(response):
    events = []
    for block in response.text.split("\n\n"):
        lines = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
        if "event" in lines:
            events.append((lines["event"], json.loads(lines["data"])))
    return events


def test_analysis_streams_lines_and_ends(client):
    fen = rosen.Position.new(2).fen(hide_pile_order=True)
    r = client.get("/api/analyse", params={"fen": fen, "iterations": 6000})
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
    events = read_events(r)
    assert events[0][0] == "start" and events[-1][0] == "done"
    done = events[-1][1]
    assert done["iterations"] == 6000 and done["pv"] and done["moves"]
    assert done["pv_squares"][0]["move"] == done["pv"][0]
    assert client.get("/api/health").json()["searches_running"] == 0


def test_analysis_stops_on_request():
    sessions = Sessions()
    app = create_app(sessions)
    fen = rosen.Position.new(2).fen(hide_pile_order=True)
    with TestClient(app, base_url=BASE) as c:
        result = {}

        def stream():
            result["r"] = c.get("/api/analyse", params={"fen": fen})  # no budget: until stopped

        t = threading.Thread(target=stream)
        t.start()
        deadline = time.monotonic() + 10
        while not sessions.analyses and time.monotonic() < deadline:
            time.sleep(0.01)
        (analysis_id,) = list(sessions.analyses)
        time.sleep(0.3)
        assert c.get("/api/health").json()["searches_running"] == 1
        assert c.post(f"/api/analyses/{analysis_id}/stop").json() == {"stopped": True}
        t.join(10)
        assert not t.is_alive()
        events = read_events(result["r"])
        assert events[-1][0] == "done" and events[-1][1]["stopped"]
        assert c.get("/api/health").json() == {**c.get("/api/health").json(), "searches_running": 0, "analyses": 0}


def test_R14_the_pile_order_never_reaches_the_wire(client):
    """Every byte the page receives during games: the true pile order (as a sequence) never appears."""
    wire = []
    for seed in range(3):
        truth = rosen.Position.new(seed)
        order = truth.draw_pile
        g = new_game(client, seed=seed, engine_seats=["r", "w"], iterations=30)
        r = client.get(f"/api/games/{g['id']}")
        wire.append(r.text)
        for _ in range(30):
            r = client.post(f"/api/games/{g['id']}/engine")
            if r.status_code != 200:
                break
            wire.append(r.text)
            view = r.json()
            assert view["position"]["fen"].split()[-1] in ("*", "-")
            assert "draw_pile" not in view["position"] and "seed" not in view
        text = "".join(wire)
        # No run of three pile cards in the pile's order, as whole cards ("SE2,W1,NW3" holds no
        # "E2,W1,NW3"). A run that is also in one of the two fixed orders cards are listed in
        # (hands and sets: rosen.web.views.CARD_ORDER, the position line's rosen.match.ALL_CARDS)
        # says nothing about the pile's order, and may appear by chance.
        for k in range(3, len(order)):
            run = order[k - 3:k]
            if any(run == sorted(run, key=fixed.index) for fixed in (CARD_ORDER, list(ALL_CARDS))):
                continue
            assert not re.search(r"(?<![A-Z0-9])" + ",".join(run) + r"(?![A-Z0-9])", text)
        assert ",".join(order) not in text and " ".join(order) not in text
        # The pile's cards appear only as a set in a fixed order, never in the pile's order.
        assert view["position"]["pile_cards"] == sorted(view["position"]["pile_cards"],
                                                        key=rosen.web.views.CARD_ORDER.index)


def test_R14_a_view_does_not_depend_on_the_pile_order():
    """The page's view of a position (and of a search's line on it) is the same whatever the
    pile's order: positions along random games, with their pile reversed and rotated."""
    from rosen.web.views import position_view

    rng = __import__("random").Random(4)
    checked = 0
    for seed in range(6):
        pos = rosen.Position.new(seed, players=2 if seed % 2 else 4)
        for _ in range(rng.randrange(0, 40)):
            if pos.is_terminal:
                break
            pos = pos.play(rng.choice(pos.legal_moves()))
        fields = pos.fen().split(" ")
        pile = fields[-1].split(",")
        if len(pile) < 2:
            continue
        for order in (pile[::-1], pile[1:] + pile[:1]):
            other = rosen.Position(" ".join(fields[:-1] + [",".join(order)]))
            assert other.draw_pile != pos.draw_pile
            assert position_view(other) == position_view(pos)
            checked += 1
    assert checked >= 6


def test_a_finished_game_is_a_match_record(client):
    g = new_game(client, seed=9, engine_seats=["r", "w"], iterations=20)
    assert_error(client.get(f"/api/games/{g['id']}/record"), 409, "record")
    while not g["position"]["is_terminal"]:
        g = client.post(f"/api/games/{g['id']}/engine").json()
    assert g["position"]["territories"]["red"]["score"] == g["position"]["scores"]["red"]
    record = client.get(f"/api/games/{g['id']}/record").json()
    final = rosen.match.replay(record)
    assert final.fen(hide_pile_order=True) == g["position"]["fen"]
    # ... and loads back as a record file
    games = client.post("/api/records", json={"text": json.dumps(record) + "\n"}).json()["games"]
    assert games[0]["fens"][-1] == g["position"]["fen"] and games[0]["moves"] == record["moves"]
    out = client.post("/api/evaluate", json={"fens": games[0]["fens"][:4], "iterations": 100}).json()
    assert len(out["red_winrates"]) == 4 and all(0 <= w <= 1 for w in out["red_winrates"])


def test_a_record_names_a_team_of_a_person_and_the_engine_seat_by_seat(client):
    # R13: a team whose r1 a person played was recorded as "mcts", the label of its engine seat.
    g = new_game(client, players=4, seed=11, engine_seats=["r2", "w1", "w2"], iterations=20)
    while not g["position"]["is_terminal"]:
        if g["engine_to_move"]:
            g = client.post(f"/api/games/{g['id']}/engine").json()
        else:
            move = g["position"]["legal_moves"][0]["move"]
            g = client.post(f"/api/games/{g['id']}/move", json={"move": move}).json()
    record = client.get(f"/api/games/{g['id']}/record").json()
    assert (record["red"], record["white"]) == ("r1:player+r2:mcts", "mcts")
    assert rosen.match.replay(record).fen(hide_pile_order=True) == g["position"]["fen"]


def test_a_low_level_engine_plays_some_moves_its_search_did_not_choose(client):
    # The engine protocol's Strength levels reach the page: below 10 the engine plays a random
    # legal move in (10 - level) of 10 turns, and the level caps its iterations.
    played = {}
    for level in (1, 20):
        g = new_game(client, seed=6, engine_seats=["r", "w"], iterations=300, level=level)
        assert g["strength"]["level"] == level
        assert g["strength"]["iterations"] == (12 if level == 1 else 300)
        played[level] = 0
        for _ in range(16):
            g = client.post(f"/api/games/{g['id']}/engine").json()
            search = g["last_search"]
            if search is not None:
                shown = g["last_move"]  # a draw is shown with its card
                assert (shown.split(":")[0] if shown.startswith("draw:") else shown) == search["played"]
                played[level] += search["played"] != search["best_move"]
    assert played[1] >= 5 and played[20] == 0
    for bad in (0, 21, "5"):
        assert_error(client.post("/api/games", json={"level": bad}), 400, "level")


def test_match_jsonl_records_load(client):
    records = [play_game(RandomAgent(1), RandomAgent(2), seed=s).to_json() for s in range(3)]
    text = "\n".join(json.dumps(r) for r in records)
    games = client.post("/api/records", json={"text": text}).json()["games"]
    assert [g["winner"] for g in games] == [r["winner"] for r in records]
    assert all(g["fens"][-1].endswith(("*", "-")) for g in games)
    broken = dict(records[0], moves=records[0]["moves"][:-1])
    assert_error(client.post("/api/records", json={"text": json.dumps(broken)}), 400, "text")
    assert_error(client.post("/api/records", json={"text": "{"}), 400, "text")
    assert_error(client.post("/api/records", json={"text": ""}), 400, "text")


def test_four_players_with_engine_seats(client):
    g = new_game(client, players=4, engine_seats=["w1", "w2"], iterations=30)
    assert g["position"]["seats"] == ["r1", "w1", "r2", "w2"] and len(g["position"]["hands"]["r2"]) == 3
    g = client.post(f"/api/games/{g['id']}/move", json={"move": g["position"]["legal_moves"][0]["move"]}).json()
    assert g["engine_to_move"] and g["position"]["turn"] == "w1"
    g = client.post(f"/api/games/{g['id']}/engine").json()
    assert g["position"]["turn"] == "r2" and not g["engine_to_move"]


def test_a_request_flood_does_not_stall_the_engine(client):
    g = new_game(client, time_ms=400)
    g = client.post(f"/api/games/{g['id']}/move", json={"move": g["position"]["legal_moves"][0]["move"]}).json()
    result = {}

    def engine():
        start = time.monotonic()
        result["r"] = client.post(f"/api/games/{g['id']}/engine")
        result["s"] = time.monotonic() - start

    t = threading.Thread(target=engine)
    t.start()
    answered = 0
    while t.is_alive():
        assert client.get("/api/health").status_code == 200
        client.post("/api/position", json={"fen": "garbage"})
        client.post(f"/api/games/{g['id']}/move", json={"move": "N1"})  # 409: the engine thinks
        answered += 1
    t.join()
    assert result["r"].status_code == 200 and result["s"] < 3.0
    assert answered > 5  # the server answered while the engine thought


def test_closing_a_game_stops_its_search(client):
    g = new_game(client, time_ms=60_000, engine_seats=["r"])
    t = threading.Thread(target=lambda: client.post(f"/api/games/{g['id']}/engine"))
    start = time.monotonic()
    t.start()
    time.sleep(0.3)
    assert client.delete(f"/api/games/{g['id']}").json() == {"closed": True}
    t.join(10)
    assert time.monotonic() - start < 5
    assert client.get("/api/health").json()["searches_running"] == 0


def test_a_client_gone_during_the_engines_move_stops_the_search():
    """A tab closed while the engine thinks (a real server, a real socket): the search ends at
    once, the engine plays its best move so far, and the server stays healthy."""
    import http.client
    import socket
    import urllib.parse

    from rosen.web.background import running_server

    with running_server() as url, contextlib.ExitStack() as closing:
        host = urllib.parse.urlparse(url)
        conn = closing.enter_context(contextlib.closing(http.client.HTTPConnection(host.hostname, host.port,
                                                                                   timeout=10)))
        conn.request("POST", "/api/games", json.dumps({"seed": 5, "time_ms": 60_000, "engine_seats": ["r"]}),
                     {"Content-Type": "application/json"})
        game = json.loads(conn.getresponse().read())
        sock = socket.create_connection((host.hostname, host.port))
        sock.sendall(f"POST /api/games/{game['id']}/engine HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n".encode())

        def health():
            conn.request("GET", "/api/health")
            return json.loads(conn.getresponse().read())

        start = time.monotonic()
        while health()["searches_running"] == 0 and time.monotonic() - start < 5:
            time.sleep(0.02)
        assert health()["searches_running"] == 1  # the engine is thinking (for up to 60 s)
        sock.close()  # the tab goes away
        while health()["searches_running"] and time.monotonic() - start < 10:
            time.sleep(0.05)
        assert health()["searches_running"] == 0 and time.monotonic() - start < 10
        conn.request("GET", f"/api/games/{game['id']}")
        after = json.loads(conn.getresponse().read())
        assert after["last_move"] is not None  # it played its best move so far; the game goes on
        assert health()["ok"]


def test_serve_without_the_extra_says_how_to_install(monkeypatch, capsys):
    import builtins

    from rosen.cli import main

    real_import = builtins.__import__

    def no_uvicorn(name, *args, **kwargs):
        if name == "uvicorn":
            raise ImportError("No module named 'uvicorn'", name="uvicorn")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_uvicorn)
    assert main(["serve"]) == 2
    assert capsys.readouterr().err == ('rosen serve: error: the web stack is not installed (uvicorn is missing): '
                                       'pip install "rosen[web]"\n')
    # A remote host's warning is for a server that listens: none without the extra.
    assert main(["serve", "--host", "0.0.0.0", "--allow-remote"]) == 2
    assert "warning" not in capsys.readouterr().err


def test_serve_refuses_a_remote_host_without_the_flag(capsys):
    from rosen.cli import main

    for name in ("*", "evil.example:8000", "http://evil.example", ""):
        assert main(["serve", "--allowed-host", name]) == 2
        assert "allowed-host: expected a host name without port or scheme" in capsys.readouterr().err

    assert main(["serve", "--host", "0.0.0.0"]) == 2
    assert "--allow-remote" in capsys.readouterr().err


def test_a_lone_surrogate_in_a_request_is_a_4xx_or_echoed_not_a_500(client):
    # JSON may carry "\ud800", which Python keeps as a lone surrogate; answers that repeat it (an
    # unknown key in the error, a record's player name) once failed to encode: a 500.
    r = client.post("/api/games", content=b'{"\\ud800": 1}', headers={"Content-Type": "application/json"})
    assert_error(r, 400)
    line = json.dumps(play_game(RandomAgent(1), RandomAgent(2), seed=3, red_name="\ud800x").to_json())
    r = client.post("/api/records", content=json.dumps({"text": line}).encode(),
                    headers={"Content-Type": "application/json"})
    assert r.status_code == 200, r.text
    assert r.json()["games"][0]["red"] == "\ud800x"


def test_head_on_the_analysis_stream_starts_no_search(client):
    fen = rosen.Position.new(2).fen(hide_pile_order=True)
    r = client.head("/api/analyse", params={"fen": fen})
    assert r.status_code == 200 and r.content == b""
    assert client.get("/api/health").json()["searches_running"] == 0


def test_a_body_cut_off_by_its_client_is_a_quiet_400():
    import asyncio

    from starlette.requests import ClientDisconnect

    from rosen.web.app import read_json
    from rosen.web.sessions import WebError

    class Gone:  # a request whose client left after the headers
        headers: dict = {}

        async def stream(self):
            raise ClientDisconnect()
            yield b""  # an async generator

    with pytest.raises(WebError) as info:
        asyncio.run(read_json(Gone()))
    assert info.value.status == 400 and info.value.field == "body"


def test_a_view_never_mixes_a_new_position_with_the_old_history():
    # A view is read on the event loop while the engine's move is applied on a worker thread.
    import sys

    sessions = Sessions()
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible: the race shows within a game
    try:
        for seed in range(12):
            game = sessions.new_game({"engine_seats": ["r", "w"], "iterations": 1, "seed": seed})

            def play_out():
                while not game.position.is_terminal:
                    game.engine_move()

            engine = threading.Thread(target=play_out)
            engine.start()
            while engine.is_alive():
                view = game.view()
                history = view["history"]
                assert history[-1]["fen"] == view["position"]["fen"] and history[-1]["move"] is None
                assert view["last_move"] == (history[-2]["move"] if len(history) > 1 else None)
            engine.join()
    finally:
        sys.setswitchinterval(old)


def test_a_client_gone_during_an_evaluation_stops_its_searches():
    """POST /api/evaluate's searches stop when its client leaves (they held every search slot)."""
    import http.client
    import socket
    import urllib.parse

    from rosen.web.background import running_server

    fens = [rosen.Position.new(s).fen(hide_pile_order=True) for s in range(400)]  # the most it takes
    body = json.dumps({"fens": fens, "iterations": 20_000}).encode()
    with running_server() as url, contextlib.ExitStack() as closing:
        host = urllib.parse.urlparse(url)
        conn = closing.enter_context(contextlib.closing(http.client.HTTPConnection(host.hostname, host.port,
                                                                                   timeout=10)))
        sock = socket.create_connection((host.hostname, host.port))
        sock.sendall(b"POST /api/evaluate HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     + f"Content-Length: {len(body)}\r\n\r\n".encode() + body)

        def running():
            conn.request("GET", "/api/health")
            return json.loads(conn.getresponse().read())["searches_running"]

        start = time.monotonic()
        while running() == 0 and time.monotonic() - start < 5:
            time.sleep(0.02)
        assert running() == 1  # 400 positions at 20 000 iterations: ten seconds of work or more
        sock.close()
        closed = time.monotonic()
        while running() and time.monotonic() - closed < 10:
            time.sleep(0.05)
        assert running() == 0 and time.monotonic() - closed < 3  # it stopped, not finished


def test_ctrl_c_stops_rosen_serve_while_an_analysis_streams():
    # uvicorn waits for open connections before the app's shutdown ran, and a stream without a
    # budget stays open until its search ends (up to 10 minutes): the server would not stop.
    import http.client
    import signal
    import subprocess
    import sys
    import urllib.parse

    proc = subprocess.Popen([sys.executable, "-m", "rosen", "serve", "--port", "0"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    closing = contextlib.ExitStack()
    try:
        line = proc.stdout.readline()
        url = urllib.parse.urlparse(re.search(r"http://\S+", line).group(0))
        conn = closing.enter_context(contextlib.closing(http.client.HTTPConnection(url.hostname, url.port,
                                                                                   timeout=10)))
        fen = rosen.Position.new(2).fen(hide_pile_order=True)
        conn.request("GET", "/api/analyse?" + urllib.parse.urlencode({"fen": fen}))
        stream = closing.enter_context(contextlib.closing(conn.getresponse()))
        assert stream.status == 200 and stream.readline().startswith(b"event: start")
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=30) == 0
        assert time.monotonic() - sent < 15  # the stream is told at once; 3 s of grace at most otherwise
        assert "Traceback" not in proc.stderr.read()
    finally:
        closing.close()
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdout.close()
        proc.stderr.close()


def test_misspelt_fields_are_named_not_ignored(client):
    # /api/games refused unknown keys; the other endpoints dropped them, so a misspelt
    # "iteration" silently searched the default 1000.
    g = new_game(client)
    legal = g["position"]["legal_moves"][0]["move"]
    fen = g["position"]["fen"]
    for path, body, key in [(f"/api/games/{g['id']}/move", {"move": legal, "mvoe": 1}, "mvoe"),
                            ("/api/position", {"fen": fen, "reshufle": "lazy"}, "reshufle"),
                            ("/api/records", {"text": "", "texts": []}, "texts"),
                            ("/api/evaluate", {"fens": [fen], "iteration": 5}, "iteration")]:
        data = assert_error(client.post(path, json=body), 400, key)
        assert data["error"].startswith(f"{key}: unknown field (known: ")
    assert client.get(f"/api/games/{g['id']}").json()["position"]["fen"] == fen  # the move was not played


def test_records_say_how_many_games_were_left_out(client):
    from rosen.web.sessions import load_records
    records = [json.dumps(play_game(RandomAgent(1), RandomAgent(2), seed=s).to_json()) for s in range(3)]
    games, omitted = load_records("\n".join(records), limit=2)
    assert [g["line"] for g in games] == [1, 2] and omitted == 1
    assert client.post("/api/records", json={"text": "\n".join(records)}).json()["omitted"] == 0


def test_a_search_beyond_the_limit_is_a_503_naming_busy():
    sessions = Sessions(max_searches=1)
    with TestClient(create_app(sessions), base_url=BASE) as c:
        g = new_game(c, engine_seats=["r"], iterations=50)  # red: the engine is to move
        sessions.searches.acquire()  # another client's search holds the one place
        try:
            data = assert_error(c.post(f"/api/games/{g['id']}/engine"), 503, "busy")
            assert data["error"].startswith("busy: 1 searches are running (the limit is 1)")
        finally:
            sessions.searches.release()


def test_an_analysis_by_iterations_ends_at_the_time_cap_too(client, monkeypatch):
    # 10**9 iterations took far longer than the 10 minutes the API promises for any analysis.
    import rosen.web.sessions as sessions
    monkeypatch.setattr(sessions, "MAX_ANALYSIS_MS", 300)
    fen = rosen.Position.new(2).fen(hide_pile_order=True)
    events = read_events(client.get("/api/analyse", params={"fen": fen, "iterations": 10**9}))
    done = events[-1][1]
    assert events[-1][0] == "done" and done["stopped"] and 0 < done["iterations"] < 10**9


def test_R14_a_random_deal_is_drawn_from_more_seeds_than_the_hands_can_narrow():
    # From 2**32 seeds the two hands on show left about nine candidates for the pile (four players:
    # one); the page keeps integers exactly up to 2**53 - 1, and the seeds now span that range.
    sessions = Sessions(max_games=100)
    seeds = [sessions.new_game({})._seed for _ in range(40)]
    assert all(0 <= s < 2**53 for s in seeds)
    assert max(seeds) >= 2**48 and len(set(seeds)) == 40


def test_the_least_recently_used_game_is_the_one_dropped():
    sessions = Sessions(max_games=2)
    g1, g2, g3 = (sessions.new_game({"seed": i}) for i in range(3))
    assert (g1.id in sessions.games, g2.id in sessions.games, g3.id in sessions.games) == (False, True, True)
    sessions.game(g2.id)  # used again: g3 is now the least recently used
    g4 = sessions.new_game({"seed": 4})
    assert (g2.id in sessions.games, g3.id in sessions.games, g4.id in sessions.games) == (True, False, True)


def test_evaluate_gives_reds_win_rate_whoever_is_to_move():
    from rosen.engine.protocol import Limits
    from rosen.web.sessions import SearchCounter, evaluate, new_searcher

    pos = rosen.Position.new(seed=1)
    pos = pos.play(pos.legal_moves()[0])
    assert pos.colour_to_move == "white"
    fen = pos.fen(hide_pile_order=True)
    red = evaluate([fen], "eager", 300, SearchCounter(), threading.Event())[0]
    white = new_searcher(0, 2).run(rosen.Position(fen), Limits(iterations=300), threading.Event()).root.winrate
    assert white != 0.5 and red == round(1.0 - white, 4)


def test_evaluate_defaults_to_1000_iterations_and_gives_null_at_a_finished_game(client):
    # docs/web.md: iterations 1 to 20 000, default 1 000; null where the game is over
    pos = rosen.Position.new(seed=4)
    start = pos.fen(hide_pile_order=True)
    while not pos.is_terminal:
        pos = pos.play(pos.legal_moves()[-1])
    end = pos.fen(hide_pile_order=True)
    default = client.post("/api/evaluate", json={"fens": [start, end]}).json()["red_winrates"]
    assert default == client.post("/api/evaluate", json={"fens": [start, end], "iterations": 1000}).json()["red_winrates"]
    assert default[1] is None and 0 < default[0] < 1
    assert default[0] != client.post("/api/evaluate", json={"fens": [start], "iterations": 200}).json()["red_winrates"][0]


# F105: other web sites kept out. A browser sends cross-site "simple" requests (a form post, a
# text/plain fetch) without asking the server; any page could start searches until the server
# was busy, or push the user's game out of its 64; a page re-pointed at 127.0.0.1 (DNS rebinding)
# could read the answers too.

def test_a_host_that_is_not_this_machine_is_refused(client):
    assert client.get("/api/health", headers={"Host": "evil.example:8000"}).status_code == 400
    assert client.post("/api/games", json={}, headers={"Host": "evil.example"}).status_code == 400
    for host in ("127.0.0.1:8000", "localhost", "[::1]:8000"):
        assert client.get("/api/health", headers={"Host": host}).status_code == 200, host
    with TestClient(create_app(allowed_hosts=["*"]), base_url="http://evil.example") as c:  # --allow-remote
        assert c.get("/api/health").status_code == 200


@pytest.mark.parametrize("argv, evil_host", [([], 400), (["--host", "0.0.0.0", "--allow-remote"], 200),
                                              (["--host", "127.0.0.1", "--allow-remote"], 400),
                                              (["--allowed-host", "Evil.example"], 200),  # a reverse proxy's name
                                              (["--allowed-host", "other.example"], 400)])
def test_rosen_serve_answers_other_host_names_only_when_serving_other_machines(monkeypatch, capsys, argv, evil_host):
    import uvicorn

    from rosen.cli import main

    served = []

    def run(self):  # instead of listening: keep the app rosen serve built
        served.append(self.config.app)
        self.should_exit = True

    monkeypatch.setattr(uvicorn.Server, "run", run)
    assert main(["serve", "--port", "0", *argv]) == 0
    with TestClient(served[0], base_url="http://evil.example") as c:
        assert c.get("/api/health").status_code == evil_host
    with TestClient(served[0], base_url=BASE) as c:
        assert c.get("/api/health").status_code == 200


def test_cross_site_requests_change_nothing(client):
    games = len(client.app.state.sessions.games)
    for headers, status, field in (
            ({"Sec-Fetch-Site": "cross-site"}, 403, "request"),
            ({"Sec-Fetch-Site": "same-site"}, 403, "request"),
            ({"Origin": "http://evil.example"}, 403, "request"),
            ({"Origin": "null"}, 403, "request"),                       # a sandboxed frame, a file
            ({"Content-Type": "text/plain;charset=UTF-8"}, 415, "body"),  # what needs no preflight
            ({"Content-Type": "application/x-www-form-urlencoded"}, 415, "body"),
            ({"Content-Type": "multipart/form-data; boundary=x"}, 415, "body")):
        r = client.post("/api/games", content=b'{"engine_seats": []}', headers=headers)
        assert r.status_code == status and r.json()["field"] == field, (headers, r.text)
    assert client.get("/api/analyse?fen=x", headers={"Sec-Fetch-Site": "cross-site"}).status_code == 403
    assert len(client.app.state.sessions.games) == games
    # the page itself: same origin, JSON (or no body); a script without browser headers
    same = {"Origin": BASE, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/json"}
    game = client.post("/api/games", content=b'{"engine_seats": []}', headers=same)
    assert game.status_code == 201
    move = game.json()["position"]["legal_moves"][0]["move"]
    assert client.post(f"/api/games/{game.json()['id']}/move", json={"move": move},
                       headers={"Origin": BASE, "Sec-Fetch-Site": "same-origin"}).status_code == 200
    assert client.post("/api/games", content=b"").status_code == 201
    assert client.get("/", headers={"Sec-Fetch-Site": "cross-site"}).status_code == 200  # a link to the page


def test_no_page_may_frame_the_app_and_nothing_is_sniffed(client):
    for r in (client.get("/"), client.get("/api/health"), client.get("/static/app.js"),
              client.post("/api/games", content=b"x", headers={"Content-Type": "text/plain"}),
              client.get("/api/health", headers={"Host": "evil.example"})):
        assert r.headers["x-frame-options"] == "DENY"
        assert r.headers["content-security-policy"] == "frame-ancestors 'none'"
        assert r.headers["x-content-type-options"] == "nosniff"



def test_a_body_sent_in_small_pieces_is_read_in_linear_time():
    # F106: `body += chunk` on bytes copied the body so far at every piece: 8 MiB in 1460-byte
    # pieces (TCP segments of a slow upload) took 1.6 s of the event loop against 0.03 s in one
    # piece (about 48x); grown in place, about 1.4x. The ratio of one run, not a time (shared machines).
    import asyncio
    import statistics

    from starlette.requests import Request

    from rosen.web.app import read_json

    payload = json.dumps({"text": "x" * (8 * 1024 * 1024 - 100)}).encode()

    def read_time(piece: int) -> float:
        pieces = iter([payload[i:i + piece] for i in range(0, len(payload), piece)])

        async def receive():
            chunk = next(pieces, None)
            return {"type": "http.request", "body": chunk or b"", "more_body": chunk is not None}

        request = Request({"type": "http", "method": "POST", "path": "/api/records", "headers": []}, receive)
        start = time.perf_counter()
        assert asyncio.run(read_json(request))["text"][:3] == "xxx"
        return time.perf_counter() - start

    small = statistics.median(read_time(1460) for _ in range(3))
    whole = statistics.median(read_time(len(payload)) for _ in range(3))
    assert small < 10 * whole, (small, whole)


def test_a_declared_body_over_the_limit_is_refused_before_it_is_read(client):
    r = client.post("/api/position", content=b"{}", headers={"Content-Length": str(9 * 1024 * 1024)})
    assert r.status_code == 413 and r.json()["field"] == "body"
