"""Screenshots of ``rosen serve`` for the README and docs/web.md, taken in headless Chromium.

    python tools/web_screenshots.py [--out DIR]     # default: this checkout's docs/img

Writes web-play.png (a game against the engine, mid-game), web-end.png (a finished game with its
territories outlined and summed) and web-analyse.png (a live analysis with its principal
variation). Needs ``rosen[web]``, Playwright and a Chromium (``$ROSEN_CHROMIUM`` or on the PATH).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

from rosen.web.background import chromium_path, click_first_legal, running_server

VIEWPORT = {"width": 1180, "height": 800}
#: The committed screenshots of this checkout, wherever the script is run from.
DOCS_IMG = Path(__file__).resolve().parents[1] / "docs" / "img"


def play_until(page, plies: int) -> None:
    """Play the first legal move by clicking (a marked square, with the hero toggle if only
    heroes can move, else draw or pass) until ``plies`` moves are on the record or the game ends."""
    for _ in range(1000):
        page.wait_for_function("() => !state.busy && !document.querySelector('#status .thinking')", timeout=60_000)
        if page.inner_text("#status").startswith("Game over") or page.evaluate("state.game.history.length - 1") >= plies:
            return
        click_first_legal(page)
        page.wait_for_timeout(30)
    raise RuntimeError("the game did not end")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(DOCS_IMG),
                        help=f"directory of the pictures (default: the committed ones, {DOCS_IMG})")
    args = parser.parse_args(argv)
    browser_path = chromium_path()
    if browser_path is None:  # Playwright would name its own download, which this project does not use
        print("web_screenshots: no Chromium found: set $ROSEN_CHROMIUM to its executable or put chromium on the "
              "PATH (docs/web.md)", file=sys.stderr)
        return 2
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with running_server() as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=browser_path, headless=True)
        page = browser.new_page(viewport=VIEWPORT, device_scale_factor=1)
        page.goto(url + "/?delay=150")
        page.wait_for_selector("#hands svg.card")
        # A game against the engine at 300 iterations a move, from a fixed deal.
        page.evaluate("document.getElementById('new-game').open = true")
        page.fill("#seed", "11")
        page.select_option("#budget", "iterations")
        page.fill("#amount", "300")
        page.click("#start")
        play_until(page, 16)
        page.wait_for_timeout(600)
        page.screenshot(path=str(out / "web-play.png"))
        play_until(page, 10_000)
        page.wait_for_selector("#final-score", timeout=120_000)
        page.wait_for_timeout(600)
        page.screenshot(path=str(out / "web-end.png"))
        # The same game in the analysis tab, a few plies in, searched for two seconds.
        page.click("#tab-analyse")
        page.wait_for_selector("#fen")
        page.click("#first")
        for _ in range(2):
            page.click("#forward")
            page.wait_for_timeout(40)
        page.click("#evaluate")
        page.wait_for_function("() => !document.getElementById('evaluate').disabled", timeout=120_000)
        page.select_option("#an-budget", "time_ms")
        page.fill("#an-amount", "2000")
        page.click("#run")
        page.wait_for_function("() => document.getElementById('an-stats')?.textContent.includes('done')",
                               timeout=30_000)
        page.wait_for_timeout(300)
        page.evaluate("window.scrollTo(0, 0)")  # the clicks above scrolled the side panel
        page.screenshot(path=str(out / "web-analyse.png"))
        browser.close()
    print(f"wrote {out}/web-play.png, web-end.png, web-analyse.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
