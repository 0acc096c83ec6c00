"""The web server's connections: what uvicorn leaves open (F108).

uvicorn closes a kept-alive connection a few seconds after its last answer, but one that has not
sent a whole request head yet is never timed out, and nothing bounds how many are open. About a
thousand sockets that connect and send nothing (the usual limit of a process's open files) left
``rosen serve`` unable to accept anyone for as long as they stayed, and its log grew by a megabyte a
second of failed accepts. So here:

- a connection must send a complete request head within ``HEAD_TIMEOUT_S`` of connecting, and of
  each answer it was given, or it is closed (a client trickling a header a byte at a time is too);
- a connection whose client stops reading its answers (the server's buffer for it full) for
  ``WRITE_STALL_S`` is dropped, and a connection closed with answers still unsent is dropped at
  once (asyncio's close waits for the client to read them: for ever, from one that never does);
- when the open connections pass the cap (the open-file limit less a reserve), the one idle the
  longest -- no request in progress, or its client not reading -- is closed to make room; if every
  other is busy, the newcomer.

Requests in progress are otherwise left to the app: a body must keep arriving
(``rosen.web.app.read_json``), and an analysis stream ends with its search.
"""
from __future__ import annotations

from typing import Any, Optional

#: Seconds a connection may take to send a request head, from connecting or from its last answer.
HEAD_TIMEOUT_S = 10.0
#: Seconds an answer may wait for its client to read on, before the connection is dropped.
WRITE_STALL_S = 30.0
#: The most connections open at once, wherever the open-file limit allows more.
MAX_CONNECTIONS = 4096
#: Open files kept free of connections below the process's limit: the page's static files being
#: sent, the event loop's own, and the sockets accepted before the cap can close others.
FD_RESERVE = 128
#: Connections accepted at a time (the listen backlog; asyncio accepts up to this many in a row
#: before any of them is counted). uvicorn's 2048 let one burst run past the open-file limit.
BACKLOG = 64


def connection_cap() -> int:
    """How many connections the server keeps open at most: ``MAX_CONNECTIONS``, or fewer where the
    process may open fewer files (``RLIMIT_NOFILE`` less ``FD_RESERVE``; 1024 on most Linux
    desktops, 256 on macOS)."""
    try:
        import resource
    except ImportError:  # Windows: no per-process limit of open files of this kind
        return MAX_CONNECTIONS
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return MAX_CONNECTIONS
    return max(16, min(MAX_CONNECTIONS, soft - FD_RESERVE))


def guarded_protocol(head_timeout_s: float = HEAD_TIMEOUT_S, max_connections: Optional[int] = None,
                     write_stall_s: float = WRITE_STALL_S) -> type:
    """uvicorn's h11 protocol class with the deadlines and the connection cap above (the cap by
    default ``connection_cap()``), for ``uvicorn.Config(http=...)``."""
    if not head_timeout_s > 0:
        raise ValueError(f"head_timeout_s: expected a positive number of seconds, got {head_timeout_s!r}")
    if not write_stall_s > 0:
        raise ValueError(f"write_stall_s: expected a positive number of seconds, got {write_stall_s!r}")
    cap = connection_cap() if max_connections is None else max_connections
    if cap < 1:
        raise ValueError(f"max_connections: expected at least 1, got {cap!r}")
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class GuardedH11Protocol(H11Protocol):  # type: ignore[misc]  # uvicorn's class, untyped here
        _head_timer: Any = None
        _stall_timer: Any = None  # set while the client does not read (writing paused)
        _cycle_awaited: Any = None  # the request cycle current when the wait for a head began
        idle_since = 0.0

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._await_head()
            if len(self.connections) > cap:
                self._make_room()

        def connection_lost(self, exc: Optional[Exception]) -> None:
            for timer in (self._head_timer, self._stall_timer):
                if timer is not None:
                    timer.cancel()
            super().connection_lost(exc)

        def on_response_complete(self) -> None:
            super().on_response_complete()  # may start the next, pipelined request
            if not self.transport.is_closing():
                self._await_head()

        def pause_writing(self) -> None:
            super().pause_writing()
            if self._stall_timer is None:
                self.idle_since = self.loop.time()
                self._stall_timer = self.loop.call_later(write_stall_s, self._close)

        def resume_writing(self) -> None:
            super().resume_writing()
            if self._stall_timer is not None:
                self._stall_timer.cancel()
                self._stall_timer = None

        def busy(self) -> bool:
            """Whether a request is in progress (its head read, its answer not yet complete)."""
            return self.cycle is not None and not self.cycle.response_complete

        def evictable(self) -> bool:
            """Whether the cap may close this connection: no request in progress, or its client not
            reading its answers; or already closing but for answers its client does not read."""
            if self.transport.is_closing():
                return self.transport.get_write_buffer_size() > 0
            return not self.busy() or self._stall_timer is not None

        def _await_head(self) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
            self.idle_since = self.loop.time()
            self._cycle_awaited = self.cycle
            self._head_timer = self.loop.call_later(head_timeout_s, self._head_overdue)

        def _head_overdue(self) -> None:
            self._head_timer = None
            # A new cycle means a request head arrived in time; its answer re-arms the wait.
            if self.cycle is self._cycle_awaited and not self.busy():
                self._close()

        def _make_room(self) -> None:
            idle = [c for c in self.connections if isinstance(c, GuardedH11Protocol) and c.evictable()]
            (min(idle, key=lambda c: c.idle_since) if idle else self)._close()

        def _close(self) -> None:
            if self._stall_timer is not None:
                self._stall_timer.cancel()
                self._stall_timer = None
            if self.transport.get_write_buffer_size():
                # close() would wait for the client to read what is buffered: drop it instead.
                self.transport.abort()
                return
            if self.transport.is_closing():
                return
            try:  # as uvicorn closes a kept-alive connection that stayed idle
                self.conn.send(h11.ConnectionClosed())
            except h11.LocalProtocolError:
                pass
            self.transport.close()

    return GuardedH11Protocol


def server_config(app: Any, host: str, port: int, *, head_timeout_s: float = HEAD_TIMEOUT_S,
                  max_connections: Optional[int] = None, write_stall_s: float = WRITE_STALL_S, **config: Any) -> Any:
    """A ``uvicorn.Config`` serving ``app`` on ``host``:``port`` with the guarded protocol; other
    keyword arguments go to ``uvicorn.Config``."""
    import uvicorn

    config.setdefault("backlog", BACKLOG)
    return uvicorn.Config(app, host=host, port=port, http=guarded_protocol(head_timeout_s, max_connections, write_stall_s),
                          **config)
