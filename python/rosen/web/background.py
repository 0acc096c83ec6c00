"""The web server on a thread of this process, and the browser to drive it: for the browser
tests and ``tools/web_screenshots.py``.

``chromium_path()`` finds a Chromium for Playwright's ``executable_path``: ``$ROSEN_CHROMIUM``
if set, else ``chromium`` / ``chromium-browser`` / ``google-chrome`` on the PATH (Debian's
``apt-get install chromium``; ``.ci/run`` installs it), else None.
"""
from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from contextlib import contextmanager
from typing import Any, Iterator, Optional

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def chromium_path() -> Optional[str]:
    """The Chromium executable to drive, or None if there is none."""
    explicit = os.environ.get("ROSEN_CHROMIUM")
    if explicit:
        return explicit if os.path.exists(explicit) else shutil.which(explicit)
    for name in CHROMIUM_NAMES:
        found = shutil.which(name)
        if found:
            return found
    return None


def free_port() -> int:
    """A TCP port of 127.0.0.1 that is free now (the system picks it; nothing keeps it free)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def running_server(app: Any = None, port: int = 0, **config: Any) -> Iterator[str]:
    """A uvicorn server for ``app`` (default: a new :func:`rosen.web.app.create_app`) on
    127.0.0.1 in a thread, configured as ``rosen serve``'s (``config``: keyword arguments of
    :func:`rosen.web.connections.server_config`); yields its base URL and shuts it down afterwards."""
    from ..errors import require_extra

    require_extra(__name__, "web", "uvicorn")
    import uvicorn

    from .app import create_app
    from .connections import server_config

    port = port or free_port()
    server = uvicorn.Server(server_config(app if app is not None else create_app(), "127.0.0.1", port,
                                          **{"log_level": "warning", **config}))
    thread = threading.Thread(target=server.run, name="rosen-web-server", daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError(f"the web server did not start on port {port}")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


def click_first_legal(page: Any) -> bool:
    """Play the first legal move on the page by clicking, as a player would: a marked target
    square (turning the hero toggle on first when only heroes can move), else Draw, else Pass.
    False if nothing could be clicked. For the browser tests and the screenshot tool
    (``page`` is a Playwright page)."""
    if not page.locator("#board .target").count() and page.locator("#hero-toggle:enabled").count():
        page.click("#hero-toggle")
    if page.locator("#board .target").count():
        page.locator("#board .target").first.click()
    elif page.locator("#draw-button:enabled").count():
        page.click("#draw-button")
    elif page.locator("#pass-button:enabled").count():
        page.click("#pass-button")
    else:
        return False
    return True
