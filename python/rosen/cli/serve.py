"""``rosen serve``: play and analyse in a web page (the optional ``rosen[web]`` extra; docs/web.md).

Binds to 127.0.0.1 by default: the page is for the person at this machine. Another ``--host``
needs ``--allow-remote`` (anyone who can reach the port can then use the server) and prints a
warning.
"""
from __future__ import annotations

import argparse
import sys
import threading
import webbrowser

from ..errors import InvalidArgumentError
from ..web.guard import LOCAL_HOSTS  # no web stack needed: guard.py imports none

INSTALL_HINT = 'pip install "rosen[web]"'
#: After Ctrl-C, how long open connections (an analysis stream, a slow upload) may take to end
#: before the server closes them.
SHUTDOWN_GRACE_S = 3
#: The bind addresses of this machine: the Host names the app answers, IPv6 without its brackets.
_LOCAL_HOSTS = tuple(host.strip("[]") for host in LOCAL_HOSTS)


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Add the ``serve`` subcommand to ``sub``."""
    p = sub.add_parser("serve", help="play and analyse in a web page (needs rosen[web])", description=__doc__)
    p.add_argument("--port", type=int, default=8000, help="TCP port (default 8000; 0 picks a free one)")
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1, this machine only)")
    p.add_argument("--allow-remote", action="store_true",
                   help="allow a --host other than this machine (the server has no login: anyone reaching it can use it)")
    p.add_argument("--allowed-host", action="append", default=[], metavar="NAME",
                   help="also answer requests that name this host (repeatable): the public name a reverse proxy "
                        "passes on; requests naming any other host are refused (DNS rebinding)")
    p.add_argument("--open", action="store_true", help="open the page in the default web browser")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Serve the web app on ``--host``:``--port`` until Ctrl-C, printing its address (and opening it with
    ``--open``); returns 0."""
    if not 0 <= args.port <= 65535:
        raise InvalidArgumentError(f"port: expected 0..65535, got {args.port}", "port")
    if args.host not in _LOCAL_HOSTS and not args.allow_remote:
        raise InvalidArgumentError(f"host: {args.host!r} is not this machine; add --allow-remote to serve "
                                   "other machines too", "host")
    try:  # the web stack is optional: never imported before here
        import uvicorn

        from ..web.app import create_app
        from ..web.connections import server_config
    except ImportError as exc:  # exit 2 with one line, as every command's missing extra
        raise ValueError(f"the web stack is not installed ({exc.name or exc} is missing): {INSTALL_HINT}") from None
    if args.host not in _LOCAL_HOSTS:
        print(f"rosen serve: warning: listening on {args.host}: anyone who can reach this port can use the "
              "server (it has no login)", file=sys.stderr)
    # Serving other machines, the Host is whatever name they reach this one by; --allow-remote with
    # a local --host keeps the check (a DNS-rebinding page's Host is its own name). A reverse proxy
    # on this machine passes its public name: --allowed-host.
    for name in args.allowed_host:
        if not name or any(c in name for c in "/:*@ ") and not name.startswith("["):
            raise InvalidArgumentError(f"allowed-host: expected a host name without port or scheme, got {name!r}",
                                       "allowed-host")
    allowed = ["*"] if args.host not in _LOCAL_HOSTS else [*LOCAL_HOSTS, *(n.lower() for n in args.allowed_host)]
    app = create_app(allowed_hosts=allowed)

    class Server(uvicorn.Server):
        def handle_exit(self, sig, frame) -> None:
            # uvicorn waits for open connections before the app's own shutdown runs, and an analysis
            # stream stays open until its search ends: tell the streams first, so they end now.
            app.state.shutting_down.set()
            super().handle_exit(sig, frame)

    config = server_config(app, args.host, args.port, log_level="warning", timeout_graceful_shutdown=SHUTDOWN_GRACE_S)
    server = Server(config)

    def announce() -> None:
        # Once the socket listens (port 0 is known only then), print and maybe open the address.
        while not server.started and not server.should_exit:
            threading.Event().wait(0.05)
        if not server.started:
            return
        port = server.servers[0].sockets[0].getsockname()[1] if server.servers else args.port
        host = "127.0.0.1" if args.host in ("0.0.0.0", "::") else args.host
        url = f"http://{'[' + host + ']' if ':' in host else host}:{port}/"
        print(f"rosen serve: {url}  (Ctrl-C stops)", flush=True)
        if args.open:
            webbrowser.open(url)

    threading.Thread(target=announce, name="rosen-serve-announce", daemon=True).start()
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    return 0
