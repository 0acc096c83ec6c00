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
    page.wait_for_function("() => fetch('/api/health').then(r => r.json()).then(h => h.searches_running === 0)")


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
    page.wait_for_function("(n) => fetch('/api/health').then(r => r.json()).then(h => h.games === n)", arg=before)
