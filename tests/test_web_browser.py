"""rosen serve in a real browser: headless Chromium (Playwright's sync API, the system's Chromium)
against a real uvicorn server on a free port. Play by clicking, see the engine answer and the
score, an illegal click's message, a bad position's error, an analysis run and stopped.

The browser is ``$ROSEN_CHROMIUM`` or ``chromium`` on the PATH (.ci/run installs Debian's). Under
CI (``$CI`` set) a missing browser fails these tests; elsewhere they are skipped with the reason.
"""
from __future__ import annotations

import os

import pytest

if os.environ.get("CI"):
    from playwright import sync_api as playwright_api
else:
    playwright_api = pytest.importorskip("playwright.sync_api")

from rosen.web.background import chromium_path, click_first_legal, running_server  # noqa: E402

CHROMIUM = chromium_path()
if CHROMIUM is None:
    message = "no Chromium: apt-get install chromium, or set ROSEN_CHROMIUM to the browser's path"
    if os.environ.get("CI"):
        pytest.fail(message, pytrace=False)
    pytest.skip(message, allow_module_level=True)


@pytest.fixture(scope="module")
def server():
    with running_server() as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture
def page(browser, server):
    context = browser.new_context(viewport={"width": 1180, "height": 860})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(20_000)
    page.goto(server + "/?delay=0")
    page.wait_for_selector("#hands svg.card")
    yield page
    context.close()
    assert not errors, errors


def start_game(page, seed: int, iterations: int = 50) -> None:
    page.evaluate("document.getElementById('new-game').open = true")
    page.fill("#seed", str(seed))
    page.select_option("#budget", "iterations")
    page.fill("#amount", str(iterations))
    # Wait for this game, not the one the page had: the page's own first game once passed the wait
    # while this one was on its way, and a test's click then landed on the new game's hand.
    old = page.evaluate("state.game && state.game.id")
    page.click("#start")
    page.wait_for_function("(old) => state.game && state.game.id !== old && !state.busy && !state.looping", arg=old)


def idle(page) -> None:
    page.wait_for_function("() => !state.busy && !state.looping", timeout=30_000)


def wait_for_health(page, key: str, value: int, timeout: float = 10.0) -> None:
    """Polls /api/health until `key` is `value`. (wait_for_function does not await a promise: a
    function returning fetch(...) is truthy at once, so it cannot wait for the server.)"""
    import time

    deadline = time.monotonic() + timeout
    while True:
        health = page.evaluate("fetch('/api/health').then(r => r.json())")
        if health[key] == value:
            return
        assert time.monotonic() < deadline, f"/api/health {key}: expected {value}, still {health[key]}"
        page.wait_for_timeout(100)


def test_play_by_clicking_and_the_engine_answers(page):
    start_game(page, seed=3)
    assert page.inner_text("#status") == "Your move: Red"
    crown = page.get_attribute("#crown", "data-square")
    card = page.locator("#hands .hand[data-seat=r] svg.card.legal").first
    name = card.get_attribute("data-card")
    card.click()
    idle(page)
    history = page.evaluate("state.game.history.map(h => h.move)")
    assert history[0] == name and len(history) == 3  # our move, the engine's, and the position now
    assert page.inner_text("#status") == "Your move: Red"
    assert page.get_attribute("#crown", "data-square") != crown
    assert page.locator("#board circle.token").count() == 2
    assert "engine:" in page.inner_text("#engine-line")


def test_an_illegal_click_gets_the_servers_message(page):
    start_game(page, seed=4)
    page.click("#hero-toggle")  # no white token yet: no hero move is legal
    page.locator("#hands .hand[data-seat=r] svg.card").first.click()
    page.wait_for_selector("#message:not([hidden])")
    assert "illegal move H:" in page.inner_text("#message") and "legal moves" in page.inner_text("#message")
    assert page.evaluate("state.game.history.length") == 1  # nothing changed


def test_finish_a_game_and_see_the_score(page):
    start_game(page, seed=7, iterations=30)
    for _ in range(200):
        idle(page)
        if page.inner_text("#status").startswith("Game over"):
            break
        assert click_first_legal(page), "no legal move to click while the game runs"
    final = page.inner_text("#final-score")
    scores = page.evaluate("state.game.position.scores")
    assert f"{scores['red']} to {scores['white']}" in final
    assert page.locator("#board path.territory").count() >= 2
    assert "²" in page.inner_text("#scoreline")


def test_a_bad_position_shows_the_field_error(page):
    page.click("#tab-analyse")
    page.wait_for_function("() => state.an.view !== null")
    fen = page.input_value("#fen")
    page.fill("#fen", fen.replace(" r ", " q ", 1) if " r " in fen else fen.replace(" w ", " q ", 1))
    page.click("#load-fen")
    page.wait_for_selector("#fen-error:not([hidden])")
    assert page.inner_text("#fen-error b") == "side"
    page.fill("#fen", fen)
    page.click("#load-fen")
    page.wait_for_selector("#fen-error", state="hidden")


def test_run_and_stop_an_analysis(page, server):
    page.click("#tab-analyse")
    page.wait_for_function("() => state.an.view !== null")
    page.select_option("#an-budget", "infinite")
    page.click("#run")
    page.wait_for_selector("#an-stats")
    page.wait_for_function("() => document.querySelectorAll('#an-moves tr').length > 2")
    assert page.evaluate("fetch('/api/health').then(r => r.json())")["searches_running"] == 1
    page.click("#stop")
    page.wait_for_function("() => document.getElementById('an-stats').textContent.includes('stopped')")
    assert page.locator("#run:enabled").count() == 1
    wait_for_health(page, "searches_running", 0)


def test_closing_the_tab_stops_its_analysis(browser, server):
    context = browser.new_context()
    page = context.new_page()
    page.goto(server + "/?delay=0")
    page.click("#tab-analyse")
    page.wait_for_function("() => state.an.view !== null")
    page.click("#run")
    page.wait_for_selector("#an-stats")
    context.close()  # the tab goes away mid-search
    import json
    import time
    import urllib.request

    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        with urllib.request.urlopen(server + "/api/health") as r:
            if json.load(r)["searches_running"] == 0:
                return
        time.sleep(0.1)
    pytest.fail("the search outlived its tab")


def test_the_analysis_shows_the_rule_it_analyses_under(page):
    # R7: a lazy game taken to the analysis tab was analysed lazy while the selector showed eager,
    # so "Set position" switched it to eager unseen; "New deal" was eager whatever it showed.
    page.evaluate("document.getElementById('new-game').open = true")
    page.select_option("#new-game-form select[name=reshuffle]", "lazy")
    start_game(page, seed=5)
    page.click("#tab-analyse")
    page.wait_for_function("() => state.an.view !== null")
    assert page.input_value("#an-reshuffle") == "lazy"
    assert page.evaluate("state.an.view.reshuffle") == "lazy"
    page.select_option("#an-reshuffle", "eager")  # another rule: the shown position, under it
    page.wait_for_function("() => state.an.view.reshuffle === 'eager'")
    page.select_option("#an-reshuffle", "lazy")
    page.wait_for_function("() => state.an.view.reshuffle === 'lazy'")
    before = page.evaluate("state.an.view.fen")
    page.click("#new-deal")
    page.wait_for_function("(before) => state.an.view.fen !== before", arg=before)
    assert page.evaluate("state.an.view.reshuffle") == "lazy" and page.input_value("#an-reshuffle") == "lazy"


def test_the_new_game_form_sends_the_engines_level(page):
    page.evaluate("document.getElementById('new-game').open = true")
    page.select_option("#level", "3")
    start_game(page, seed=8)
    assert page.evaluate("state.game.strength") == {"iterations": 27, "time_ms": None, "level": 3}


def test_a_late_answer_to_an_earlier_new_game_is_dropped(page):
    # Two New game requests in flight: the first one's late answer replaced the second's game.
    page.evaluate("""() => {
        const real = api;
        let first = true;
        window.api = async (method, path, body) => {
            if (method === "POST" && path === "/api/games" && first) {
                first = false;
                await new Promise((r) => setTimeout(r, 500));
            }
            return real(method, path, body);
        };
    }""")
    page.wait_for_function("() => state.game && !state.busy && !state.looping")
    before = page.evaluate("fetch('/api/health').then(r => r.json())")["games"]  # the page's own game too
    page.evaluate("document.getElementById('new-game').open = true")
    page.fill("#seed", "11")
    page.evaluate("() => { newGame(); }")  # answered late
    page.fill("#seed", "12")
    page.evaluate("() => { newGame(); }")
    page.wait_for_timeout(1000)
    page.wait_for_function("() => state.game && !state.busy && !state.looping")
    import rosen

    assert page.evaluate("state.game.position.fen") == rosen.Position.new(12).fen(hide_pile_order=True)
    # the page's first game and the late one are deleted: one game more, one less
    wait_for_health(page, "games", before)


# --- the page under an impatient user and a failing server (docs/reliability.md, F65) ------------

# Wraps the page's `api` so that chosen requests answer late or fail: rules are [method, path part,
# delay ms, error message or null, how many times, and optionally "sent": the request reaches the
# server but its answer is lost, as when a connection drops]. Otherwise a request that answers
# late is sent at once, and one that fails is not sent.
FAULTY_API = """(rules) => {
    const real = api;
    window.api = async (method, path, body) => {
        const rule = rules.find((r) => r[4] > 0 && method === r[0] && path.includes(r[1]));
        if (!rule) return real(method, path, body);
        rule[4] -= 1;
        const answer = rule[3] === null || rule[5] === "sent" ? real(method, path, body) : null;
        await new Promise((r) => setTimeout(r, rule[2]));
        if (rule[3] !== null) { if (answer) await answer.catch(() => {}); throw new Error(rule[3]); }
        return answer;
    };
}"""


def playable(page) -> dict:
    return page.evaluate("""() => ({
        status: document.getElementById('status').innerText,
        targets: document.querySelectorAll('#board .target').length,
        cards: document.querySelectorAll('#hands svg.card.legal').length,
        message: document.getElementById('message').hidden ? '' : document.getElementById('message').innerText,
    })""")


def test_new_game_while_the_engine_thinks_gives_a_playable_game(page):
    # The old game's engine request still in flight left the new game with nothing to click.
    start_game(page, seed=3)
    page.evaluate(FAULTY_API, [["POST", "/engine", 1500, None, 1]])
    page.locator("#hands .hand[data-seat=r] svg.card.legal").first.click()
    page.wait_for_selector("#status .thinking")
    old = page.evaluate("state.game.id")
    page.evaluate("document.getElementById('new-game').open = true")
    page.fill("#seed", "4")
    page.click("#start")
    page.wait_for_function("(old) => state.game && state.game.id !== old", arg=old)
    page.wait_for_timeout(2000)  # the old game's engine answer (410: the game was deleted) has come
    shown = playable(page)
    assert shown["status"] == "Your move: Red" and shown["targets"] > 0 and shown["cards"] > 0, shown
    assert shown["message"] == "", shown


def test_a_failed_engine_move_offers_retry(page):
    # A 503 (busy) or a lost connection left "thinking" for ever with no way on but a new game.
    start_game(page, seed=3)
    page.evaluate(FAULTY_API, [["POST", "/engine", 0, "busy: 4 searches are running", 1]])
    page.locator("#hands .hand[data-seat=r] svg.card.legal").first.click()
    page.wait_for_selector("#retry-engine:visible")
    assert page.inner_text("#status") == "Engine (White) has not moved"
    assert "busy" in page.inner_text("#message")
    page.click("#retry-engine")
    idle(page)
    assert page.inner_text("#status") == "Your move: Red"
    assert page.evaluate("state.game.history.length") == 3 and page.locator("#retry-engine").is_hidden()


def test_the_analyse_tab_plays_draws_and_hero_moves(page):
    # The hands, Hero, Draw and Pass lived in the play panel, hidden on the Analyse tab.
    page.click("#tab-analyse")
    page.wait_for_function("() => state.an.view !== null")
    assert page.locator("#hands svg.card.legal").count() > 0 and page.locator("#draw-button").is_visible()
    for _ in range(2):  # Red and White each play a card: Red then holds 4 and may draw
        n = page.evaluate("state.an.fens.length")
        page.locator("#hands svg.card.legal").first.click()
        page.wait_for_function("(n) => state.an.fens.length === n + 1", arg=n)
    page.click("#draw-button")
    page.wait_for_function("() => state.an.moves.length === 3")
    assert page.evaluate("state.an.moves[2]") == "draw"
    assert "Draw pile" in page.inner_text("#game-info")


def test_a_double_click_in_the_analysis_plays_once(page):
    page.click("#tab-analyse")
    page.wait_for_function("() => state.an.view !== null")
    page.evaluate(FAULTY_API, [["POST", "/api/position", 300, None, 2]])
    page.locator("#board .target").first.dblclick()
    page.wait_for_timeout(900)
    assert page.evaluate("state.an.moves.length") == 1 and page.evaluate("state.an.fens.length") == 2
    assert page.inner_text("#ply-label").startswith("ply 1 of 1")


def test_stepping_back_shows_the_ply_it_says(page):
    page.click("#tab-analyse")
    page.wait_for_function("() => state.an.view !== null")
    for _ in range(4):
        n = page.evaluate("state.an.fens.length")
        page.locator("#board .target").first.click()
        page.wait_for_function("(n) => state.an.fens.length === n + 1", arg=n)
    page.evaluate(FAULTY_API, [["POST", "/api/position", 800, None, 1]])
    page.click("#back")  # answered late
    page.click("#back")
    page.wait_for_timeout(1200)
    ply = page.evaluate("state.an.ply")
    assert ply == 2 and page.inner_text("#ply-label").startswith("ply 2 of 4")
    assert page.evaluate("state.an.view.fen") == page.evaluate("state.an.fens[2]") == page.input_value("#fen")


def test_an_analysis_does_not_land_on_the_next_deal(page):
    page.click("#tab-analyse")
    page.wait_for_function("() => state.an.view !== null")
    page.select_option("#an-budget", "infinite")
    page.click("#run")
    page.wait_for_selector("#an-stats")
    before = page.evaluate("state.an.view.fen")
    page.click("#new-deal")
    page.wait_for_function("(before) => state.an.view.fen !== before", arg=before)
    page.wait_for_selector("#run:enabled")
    page.wait_for_timeout(300)
    assert page.locator("#an-best").count() == 0  # nothing was searched on this deal
    assert page.evaluate("state.an.winrates") == [None]


def test_leaving_the_analyse_tab_stops_its_analysis(page):
    page.click("#tab-analyse")
    page.wait_for_function("() => state.an.view !== null")
    page.select_option("#an-budget", "infinite")
    page.click("#run")
    page.wait_for_selector("#an-stats")
    page.click("#tab-play")
    wait_for_health(page, "searches_running", 0, timeout=5.0)


def test_a_late_win_rate_table_lands_only_where_its_positions_are(page):
    page.click("#tab-analyse")
    page.wait_for_function("() => state.an.view !== null")
    page.evaluate(FAULTY_API, [["POST", "/api/evaluate", 1500, None, 1]])
    page.click("#evaluate")
    before = page.evaluate("state.an.view.fen")
    page.click("#new-deal")
    page.wait_for_function("(before) => state.an.view.fen !== before", arg=before)
    page.wait_for_selector("#evaluate:enabled")
    assert page.evaluate("state.an.winrates") == [None]


def test_a_failed_new_deal_shows_its_error(page):
    # newDeal had no catch: an uncaught rejection (the fixture fails on any page error).
    page.click("#tab-analyse")
    page.wait_for_function("() => state.an.view !== null")
    page.evaluate(FAULTY_API, [["POST", "/api/games", 0, "Failed to fetch", 1]])
    page.click("#new-deal")
    page.wait_for_selector("#message:not([hidden])")
    assert page.inner_text("#message") == "Failed to fetch"


def test_number_fields_are_read_whole(page):
    # parseInt read the seed "1e3" (valid in a number field) as 1, and an empty amount as null.
    import rosen

    page.evaluate("document.getElementById('new-game').open = true")
    page.fill("#seed", "1e3")
    page.select_option("#budget", "iterations")
    page.fill("#amount", "50")
    old = page.evaluate("state.game.id")
    page.click("#start")
    page.wait_for_function("(old) => state.game.id !== old && !state.busy && !state.looping", arg=old)
    assert page.evaluate("state.game.position.fen") == rosen.Position.new(1000).fen(hide_pile_order=True)
    page.evaluate("document.getElementById('new-game').open = true")
    page.fill("#amount", "")
    page.click("#start")
    page.wait_for_selector("#message:not([hidden])")
    assert page.inner_text("#message").startswith("iterations: expected a whole number")


def test_a_reload_keeps_the_game(page):
    start_game(page, seed=9)
    page.locator("#hands .hand[data-seat=r] svg.card.legal").first.click()
    idle(page)
    game = page.evaluate("state.game.id")
    page.reload()
    page.wait_for_function("() => state.game && !state.busy && !state.looping")
    assert page.evaluate("state.game.id") == game and page.evaluate("state.game.history.length") == 3
    assert page.inner_text("#status") == "Your move: Red"


def test_moves_by_keyboard(page):
    start_game(page, seed=3)
    page.focus("#hands .hand[data-seat=r] svg.card.legal")
    page.keyboard.press("Enter")
    idle(page)
    assert page.evaluate("state.game.history.length") == 3
    page.focus("#board .target")
    page.keyboard.press(" ")
    idle(page)
    assert page.evaluate("state.game.history.length") == 5


@pytest.mark.parametrize("request_path", ["/engine", "/move"])
def test_a_move_whose_answer_was_lost_is_picked_up(page, request_path):
    # The server moved, but the answer never came (a dropped connection). The engine's: the page
    # asked again from its stale view ("r is not an engine seat") on every Retry, for ever. The
    # player's own: the page stayed on the old position with no Retry, and a second click was sent
    # as the next seat's move.
    start_game(page, seed=3)
    page.click("#hero-toggle")  # no white token yet: a hero move is refused, with a message
    page.locator("#hands .hand[data-seat=r] svg.card").first.click()
    page.wait_for_selector("#message:not([hidden])")
    page.click("#hero-toggle")
    page.evaluate(FAULTY_API, [["POST", request_path, 0, "Failed to fetch", 1, "sent"]])
    page.locator("#hands .hand[data-seat=r] svg.card.legal").first.click()
    page.wait_for_function("() => state.game.history.length === 3 && !state.busy && !state.looping")
    assert page.inner_text("#status") == "Your move: Red" and page.locator("#retry-engine").is_hidden()
    assert page.locator("#message").is_hidden()  # the move went through: the old message goes too


def test_a_reload_while_the_engine_thinks_waits_for_its_move(page):
    # After the reload the old search still held the game (409 "already thinking"): the page showed
    # "has not moved", and Retry failed for good.
    start_game(page, seed=3)
    page.evaluate("document.getElementById('new-game').open = true")
    page.select_option("#budget", "time_ms")
    page.fill("#amount", "1500")
    old = page.evaluate("state.game.id")
    page.click("#start")
    page.wait_for_function("(old) => state.game.id !== old && !state.busy && !state.looping", arg=old)
    page.locator("#hands .hand[data-seat=r] svg.card.legal").first.click()
    page.wait_for_selector("#status .thinking")
    page.reload()
    page.wait_for_function("() => state.game && state.game.history.length === 3 && !state.busy && !state.looping")
    assert page.inner_text("#status") == "Your move: Red" and page.locator("#retry-engine").is_hidden()


def test_a_late_analysis_answer_leaves_the_play_tab_alone(page):
    # It reset the Hero toggle of the Play tab (still drawn pressed): a hero click played a plain card.
    start_game(page, seed=9)
    page.click("#tab-analyse")
    page.wait_for_function("() => state.an.view !== null")
    page.evaluate(FAULTY_API, [["POST", "/api/position", 1000, None, 1]])
    page.locator("#board .target").first.click()
    page.click("#tab-play")
    page.click("#hero-toggle")
    page.wait_for_timeout(1500)
    assert page.evaluate("state.hero") and page.get_attribute("#hero-toggle", "aria-pressed") == "true"


def test_a_refused_new_game_keeps_the_game_shown(page, server):
    # The shown game was deleted before the new one was asked for: a refused request left the page
    # on a game the server no longer had.
    import json
    import urllib.request

    start_game(page, seed=5)
    game = page.evaluate("state.game.id")
    page.evaluate("document.getElementById('new-game').open = true")
    page.select_option("#budget", "time_ms")
    page.fill("#amount", "100000")
    page.click("#start")
    page.wait_for_selector("#message:not([hidden])")
    assert "time_ms" in page.inner_text("#message") and page.evaluate("state.game.id") == game
    with urllib.request.urlopen(f"{server}/api/games/{game}") as r:
        assert json.load(r)["id"] == game


def test_entering_analyse_leaves_no_play_card_live(page):
    # The hands moved to the Analyse panel with the Play tab's handlers until the analysis's view
    # came: a click there played in the real game.
    start_game(page, seed=3)
    page.evaluate(FAULTY_API, [["POST", "/api/position", 1500, None, 1]])
    page.click("#to-analyse")
    assert page.locator("#hands svg.card").count() == 0 and page.locator("#board .target").count() == 0
    page.wait_for_function("() => state.an.view !== null")
    assert page.evaluate("state.game.history.length") == 1


def test_a_double_click_at_human_speed_plays_once(page):
    # A local server answers in 20 ms, before the second click of a double click: Draw double-
    # clicked drew for both sides.
    page.click("#tab-analyse")
    page.wait_for_function("() => state.an.view !== null")
    for _ in range(2):  # Red and White play a card: each then holds 4, so each may draw
        n = page.evaluate("state.an.fens.length")
        page.locator("#board .target").first.click()
        page.wait_for_function("(n) => state.an.fens.length === n + 1", arg=n)
    box = page.locator("#draw-button").bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.click(x, y)
    page.wait_for_timeout(150)  # the first click's answer is in by now
    page.mouse.down(click_count=2)  # the second click of the double click (detail 2)
    page.mouse.up(click_count=2)
    page.wait_for_timeout(600)
    assert page.evaluate("state.an.moves")[2:] == ["draw"]


def test_run_while_a_step_is_on_its_way_does_not_land_on_the_next_view(page):
    page.click("#tab-analyse")
    page.wait_for_function("() => state.an.view !== null")
    n = page.evaluate("state.an.fens.length")
    page.locator("#board .target").first.click()
    page.wait_for_function("(n) => state.an.fens.length === n + 1", arg=n)
    page.select_option("#an-budget", "infinite")
    page.evaluate(FAULTY_API, [["POST", "/api/position", 800, None, 1]])
    page.click("#back")  # on its way for 0.8 s
    page.click("#run")  # searches the view still shown, ply 1
    page.wait_for_function("() => state.an.ply === 0")
    page.wait_for_selector("#run:enabled")  # the view's change stopped it
    page.wait_for_timeout(300)
    assert page.locator("#an-best").count() == 0 and page.locator("#board .pv-dot").count() == 0


def test_the_hero_toggle_lets_go_where_no_hero_is_left(page):
    page.click("#tab-analyse")
    page.wait_for_function("() => state.an.view !== null")
    page.click("#hero-toggle")
    page.fill("#fen", "9/9/9/9/9/9/9/9/9 e5 r N2,N3,NE3,W1,W3 N1,SE3,SW2,W2,NW2 0 4 - *")
    page.click("#load-fen")
    page.wait_for_function("() => state.an.view.heroes.r === 0")
    assert not page.evaluate("state.hero") and page.get_attribute("#hero-toggle", "aria-pressed") == "false"
    assert page.locator("#board .target").count() > 0


def test_the_keyboard_focus_survives_an_analysis_redraw(page):
    page.click("#tab-analyse")
    page.wait_for_function("() => state.an.view !== null")
    page.select_option("#an-budget", "infinite")
    page.click("#run")
    page.wait_for_selector("#an-stats")
    page.focus("#hands svg.card.legal")
    name = page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert name
    page.wait_for_timeout(800)  # several info lines redraw the hands
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == name
    page.click("#stop")


def test_a_duplicated_tab_gets_a_game_of_its_own(page):
    start_game(page, seed=3)
    game = page.evaluate("state.game.id")
    with page.context.expect_page() as opened:
        page.evaluate("window.open(location.href)")  # sessionStorage is copied, as by Duplicate tab
    twin = opened.value
    twin.wait_for_function("() => state.game && !state.busy && !state.looping")
    assert twin.evaluate("state.game.id") != game
    twin.close()


def test_new_deal_deals_the_team_game_too(page):
    # "New deal" always asked for a 2-player deal: a 4-player position could be analysed only by
    # pasting its line.
    page.click("#tab-analyse")
    page.select_option("#an-players", "4")
    before = page.evaluate("state.an.view ? state.an.view.fen : null")
    page.click("#new-deal")
    page.wait_for_function("(before) => state.an.view && state.an.view.fen !== before", arg=before)
    assert page.evaluate("state.an.view.fen.split(' ')[2]") == "r1"
    page.select_option("#an-players", "2")
    page.click("#new-deal")
    page.wait_for_function("() => state.an.view.fen.split(' ')[2] === 'r'")
