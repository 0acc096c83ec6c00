"""What keeps other web sites out of ``rosen serve`` (F105).

The server listens on this machine and has no login, so the danger is the user's own browser:
any page it shows may send requests to 127.0.0.1. Browsers let a page *send* a cross-site "simple"
request (a form post, a text/plain fetch, an image) without asking the server, even where they do
not let it read the answer -- enough to start searches until the server is busy, or to push the
user's game out of its 64. And a page whose own name is re-pointed at 127.0.0.1 (DNS rebinding)
is not cross-site at all to the browser. So:

- the Host header must name this machine (Starlette's ``TrustedHostMiddleware``, in ``create_app``:
  a rebinding page's requests carry its own name), and the names ``rosen serve --allowed-host``
  adds; any name when ``--allow-remote`` serves another ``--host``;
- an API request a browser marks as coming from another site (``Sec-Fetch-Site``) is refused, and
  so is a request that changes state from another origin (``Origin``, which every browser sends
  with a cross-origin POST) or with a body that is not JSON (a form's or text/plain, which need no
  CORS preflight; the page sends ``application/json``);
- no page may frame the app (clicks on its buttons under a disguise), and no answer is sniffed as
  another type.

Clients that are not browsers (curl, scripts) send neither ``Origin`` nor ``Sec-Fetch-Site`` and
are unaffected, but for a body's type: JSON, or none given.
"""
from __future__ import annotations

import json
from typing import Any, Awaitable, Callable, Dict, Optional, Tuple

#: The Host names of this machine that ``rosen serve`` answers (brackets as the header spells IPv6).
LOCAL_HOSTS = ("127.0.0.1", "localhost", "[::1]")
#: Added to every answer: no framing by any page, no type sniffing.
SECURITY_HEADERS = (
    (b"x-frame-options", b"DENY"),
    (b"content-security-policy", b"frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
)
_SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
_SAME_SITE = ("same-origin", "none")  # "none": typed in the address bar, a bookmark

Scope = Dict[str, Any]
Receive = Callable[[], Awaitable[Dict[str, Any]]]
Send = Callable[[Dict[str, Any]], Awaitable[None]]


def _header(scope: Scope, name: bytes) -> Optional[str]:
    for key, value in scope.get("headers", ()):
        if key == name:
            return value.decode("latin-1")
    return None


def refusal(scope: Scope) -> Optional[Tuple[int, str]]:
    """``(status, message)`` if the HTTP request of ``scope`` must be refused, else None."""
    method = scope.get("method", "GET")
    site = _header(scope, b"sec-fetch-site")
    if scope.get("path", "").startswith("/api/") and site is not None and site not in _SAME_SITE:
        return 403, f"request: refused, it comes from another site (Sec-Fetch-Site: {site[:40]})"
    if method in _SAFE_METHODS:
        return None
    origin = _header(scope, b"origin")
    if origin is not None:
        scheme = scope.get("scheme", "http")
        if origin != f"{scheme}://{_header(scope, b'host') or ''}":
            return 403, f"request: refused, it comes from another origin (Origin: {origin[:80]})"
    kind = _header(scope, b"content-type")
    if kind is not None and kind.split(";", 1)[0].strip().lower() != "application/json":
        return 415, f"body: expected Content-Type application/json, got {kind[:80]!r}"
    return None


class BrowserGuard:
    """ASGI middleware: refuses what :func:`refusal` names (a JSON error, as every refusal of the
    API) and adds :data:`SECURITY_HEADERS` to every answer. Pure ASGI, so that an analysis's
    event stream passes through unbuffered."""

    def __init__(self, app: Callable[[Scope, Receive, Send], Awaitable[None]]) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        refused = refusal(scope)
        if refused is not None:
            status, message = refused
            body = json.dumps({"error": message, "field": "body" if status == 415 else "request"},
                              ensure_ascii=True).encode("ascii")
            await send({"type": "http.response.start", "status": status,
                        "headers": [(b"content-type", b"application/json"),
                                    (b"content-length", str(len(body)).encode()), *SECURITY_HEADERS]})
            await send({"type": "http.response.body", "body": body})
            return

        async def send_with_headers(message: Dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                message = dict(message, headers=[*message.get("headers", ()), *SECURITY_HEADERS])
            await send(message)

        await self.app(scope, receive, send_with_headers)
