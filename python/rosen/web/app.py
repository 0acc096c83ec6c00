"""The web app's routes (Starlette): the page, its static files and the JSON API.

Every error is a JSON object ``{"error": message, "field": name}`` with a 4xx status, and a
refused request changes nothing. Searches run on worker threads, so the event loop keeps
answering while one runs; an analysis streams its progress as Server-Sent Events and stops when
its page goes away (or on ``POST /api/analyses/{id}/stop``). Endpoints: docs/web.md.
"""
from __future__ import annotations

import asyncio
import json
import threading
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, AsyncIterator, Dict, Optional, Sequence

from ..errors import require_extra

require_extra(__name__, "web", "starlette")

from starlette.applications import Starlette  # after the check, which names the extra
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, Response, StreamingResponse
from starlette.responses import JSONResponse as _StarletteJSON
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .. import __version__, _json
from ..errors import RosenError, check_int
from . import views
from .guard import LOCAL_HOSTS, BrowserGuard
from .sessions import (
    MAX_SEARCHES,
    Sessions,
    WebError,
    analysis_limits,
    check_known,
    evaluate,
    load_records,
    parse_position,
)

STATIC = Path(__file__).parent / "static"
#: The largest request body read (a record file of a few hundred games fits).
MAX_BODY_BYTES = 8 * 1024 * 1024
#: A body must keep arriving: BODY_MIN_RATE bytes a second after the first BODY_GRACE_S seconds, or
#: the request is refused with 408 (a client trickling a byte at a time held its connection and a
#: handler for as long as it liked; F108). 8 MiB may take 10 s + 128 s.
BODY_GRACE_S = 10.0
BODY_MIN_RATE = 64 * 1024
#: How often an analysis stream sends the search's progress.
STREAM_INTERVAL_S = 0.25
#: How often a request waiting for the engine's move checks that its client is still there.
DISCONNECT_POLL_S = 0.1


class JSONResponse(_StarletteJSON):
    """Starlette's JSON response written as ASCII: a lone surrogate that a client sent (JSON
    allows ``"\\ud800"``) and an answer repeats (an error naming its key, a record's player name)
    is escaped again instead of failing to encode as UTF-8 (a 500)."""

    def render(self, content: Any) -> bytes:
        """``content`` as compact JSON in ASCII bytes (NaN and infinities raise ValueError)."""
        return json.dumps(content, ensure_ascii=True, allow_nan=False, separators=(",", ":")).encode("ascii")


def error_response(status: int, message: str, field: Optional[str] = None) -> JSONResponse:
    """The answer to a refused request: ``{"error": message, "field": field}`` with HTTP status ``status``."""
    return JSONResponse({"error": message, "field": field}, status_code=status)


async def read_json(request: Request) -> Dict[str, Any]:
    """The request's body as a JSON object, or a 400/413 naming what was wrong."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BODY_BYTES:  # refused before a byte is read
        raise WebError(413, f"body: larger than {MAX_BODY_BYTES} bytes", "body")
    # A bytearray grows in place: `bytes +=` copied the body so far at every chunk, and a client
    # sending 8 MiB in 1460-byte pieces held the event loop for 3 s (F106).
    body = bytearray()
    loop = asyncio.get_running_loop()
    task = asyncio.current_task()
    start = loop.time()
    expired = False
    timer: asyncio.TimerHandle

    # One timer, not a timeout around each piece (a task per piece cost 7x F106's time on 8 MiB in
    # TCP-sized pieces): when it fires it moves to the new due time if the body kept pace, else
    # it cancels this task, which is then waiting for the next piece inside the try below.
    def check_pace() -> None:
        nonlocal timer, expired
        due = start + BODY_GRACE_S + len(body) / BODY_MIN_RATE
        if loop.time() < due:
            timer = loop.call_at(due, check_pace)
        else:
            expired = True
            assert task is not None
            task.cancel()

    timer = loop.call_at(start + BODY_GRACE_S, check_pace)
    try:
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_BODY_BYTES:
                raise WebError(413, f"body: larger than {MAX_BODY_BYTES} bytes", "body")
    except ClientDisconnect:  # the client left mid-upload: nobody reads the answer, but no traceback
        raise WebError(400, "body: the client disconnected before sending it all", "body") from None
    except asyncio.CancelledError:
        if not expired:  # the server's own cancellation (shutdown), not the pace's
            raise
        uncancel = getattr(task, "uncancel", None)  # Python 3.11+: the cancel is handled here
        if uncancel is not None:
            uncancel()
        raise WebError(408, f"body: arriving too slowly (expected {BODY_MIN_RATE} bytes a second after "
                            f"{BODY_GRACE_S:g} s; {len(body)} received)", "body") from None
    finally:
        timer.cancel()
    if not body.strip():
        return {}
    try:
        data = _json.loads(bytes(body))
    except ValueError as exc:
        raise WebError(400, f"body: not valid JSON ({exc})", "body") from None
    if not isinstance(data, dict):
        raise WebError(400, f"body: expected a JSON object, got {type(data).__name__}", "body")
    return data


def only(body: Dict[str, Any], *known: str) -> Dict[str, Any]:
    """``body`` if it holds no key but ``known`` (a misspelt key was ignored, its default used)."""
    check_known(body, known, "field")
    return body


def sse(event: str, data: Any) -> str:
    """One Server-Sent Event."""
    return f"event: {event}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


def create_app(sessions: Optional[Sessions] = None, max_searches: int = MAX_SEARCHES,
               allowed_hosts: Sequence[str] = LOCAL_HOSTS) -> Starlette:
    """The app; ``sessions`` may be given to look inside it (tests). ``allowed_hosts``: the Host
    names it answers (default: this machine's; ``["*"]`` any, as ``rosen serve --allow-remote`` with
    another ``--host``)."""
    state = sessions if sessions is not None else Sessions(max_searches=max_searches)
    executor = ThreadPoolExecutor(max_workers=state.searches.limit + 2, thread_name_prefix="rosen-web-search")
    shutting_down = threading.Event()

    async def in_thread(fn: Any, *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(executor, fn, *args)

    async def watched(request: Request, on_leave: Any, fn: Any, *args: Any, at_shutdown: bool = False) -> Any:
        """``fn(*args)`` on a worker thread, calling ``on_leave()`` at each poll while its client
        is gone (or, ``at_shutdown``, the server is shutting down): a search must not outlive
        the request that wanted it."""
        running = asyncio.ensure_future(in_thread(fn, *args))
        while not (await asyncio.wait({running}, timeout=DISCONNECT_POLL_S))[0]:
            if (at_shutdown and shutting_down.is_set()) or await request.is_disconnected():
                on_leave()
        return running.result()

    # -- the page -------------------------------------------------------------------------------

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    async def health(request: Request) -> Response:
        return JSONResponse({**state.health(), "version": __version__})

    # -- games ----------------------------------------------------------------------------------

    async def new_game(request: Request) -> Response:
        game = state.new_game(await read_json(request))
        return JSONResponse(game.view(), status_code=201)

    async def get_game(request: Request) -> Response:
        return JSONResponse(state.game(request.path_params["game_id"]).view())

    async def play_move(request: Request) -> Response:
        game = state.game(request.path_params["game_id"])
        body = only(await read_json(request), "move")
        if "move" not in body:
            raise WebError(400, "move: missing (a move in RULES.md notation: N2, H:N2, draw, pass)", "move")
        game.play(body["move"])
        return JSONResponse(game.view())

    async def engine_move(request: Request) -> Response:
        game = state.game(request.path_params["game_id"])
        # A tab closed while the engine thinks: stop the search; the engine plays its best move
        # so far, so the game stays whole for whoever looks at it next.
        played = await watched(request, game.interrupt_search, game.engine_move)
        return JSONResponse({**game.view(), "engine": played})

    async def game_record(request: Request) -> Response:
        return JSONResponse(state.game(request.path_params["game_id"]).record())

    async def close_game(request: Request) -> Response:
        state.close_game(request.path_params["game_id"])
        return JSONResponse({"closed": True})

    # -- positions, analysis, records ------------------------------------------------------------

    async def position(request: Request) -> Response:
        body = only(await read_json(request), "fen", "reshuffle", "move")
        pos = parse_position(body.get("fen"), body.get("reshuffle", "eager"))
        move = body.get("move")
        if move is not None:  # a move played on the pasted position (a plain draw deals a random card)
            if not isinstance(move, str):
                raise WebError(400, "move: expected a move in RULES.md notation", "move")
            pos = pos.play(move)
        return JSONResponse(views.position_view(pos))

    async def analyse(request: Request) -> Response:
        if request.method == "HEAD":  # Starlette routes HEAD with GET: answer it without a search
            return Response(media_type="text/event-stream", headers={"Cache-Control": "no-cache"})
        q = request.query_params
        pos = parse_position(q.get("fen"), q.get("reshuffle", "eager"))
        if pos.is_terminal:
            raise WebError(400, "fen: the game is over; there is nothing to analyse", "fen")
        limits = analysis_limits(_int_param(q, "iterations"), _int_param(q, "time_ms"))
        seed = check_int("seed", _int_param(q, "seed") or 0, 0, 2**63 - 1)
        analysis = state.analyse(pos, limits, seed)
        loop = asyncio.get_running_loop()
        try:
            future = loop.run_in_executor(executor, analysis.run)
        except BaseException:
            state.searches.release()
            state.forget_analysis(analysis)
            raise

        async def events() -> AsyncIterator[str]:
            try:
                yield sse("start", {"id": analysis.id, "position": views.position_view(analysis.position)})
                sent = None
                while not future.done():
                    await asyncio.wait({future}, timeout=STREAM_INTERVAL_S)
                    latest = analysis.latest
                    if latest is not None and latest is not sent and not future.done():
                        sent = latest
                        yield sse("info", views.search_view(latest, analysis.position))
                    if shutting_down.is_set() or await request.is_disconnected():
                        analysis.stop()
                result = await future
                yield sse("done", {**views.search_view(result, analysis.position, done=True), "stopped": analysis.stopped})
            finally:
                # The page went away (or the stream failed): the search must not outlive it.
                analysis.stop()
                state.forget_analysis(analysis)

        return StreamingResponse(events(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})

    async def stop_analysis(request: Request) -> Response:
        state.stop_analysis(request.path_params["analysis_id"])
        return JSONResponse({"stopped": True})

    async def records(request: Request) -> Response:
        body = only(await read_json(request), "text")
        games, omitted = await in_thread(load_records, body.get("text"))
        return JSONResponse({"games": games, "omitted": omitted})

    async def evaluate_positions(request: Request) -> Response:
        body = only(await read_json(request), "fens", "reshuffle", "iterations")
        stop = threading.Event()
        try:
            winrates = await watched(request, stop.set, evaluate, body.get("fens"), body.get("reshuffle", "eager"),
                                     body.get("iterations", 1000), state.searches, stop, at_shutdown=True)
        finally:
            stop.set()
        if shutting_down.is_set():  # stopped part way: its nulls would read as finished games
            raise WebError(503, "fens: the server is shutting down; the evaluation was stopped", "fens")
        return JSONResponse({"red_winrates": winrates})

    # -- errors ---------------------------------------------------------------------------------

    async def web_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, WebError)
        response = error_response(exc.status, str(exc), exc.field)
        if exc.status == 408:  # the rest of the body is not read: the connection cannot carry another request
            response.headers["connection"] = "close"
        return response

    async def rosen_error(request: Request, exc: Exception) -> Response:
        return error_response(400, str(exc), getattr(exc, "field", None))

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        return error_response(exc.status_code, str(exc.detail), None)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        shutting_down.set()
        state.stop_all()
        executor.shutdown(wait=False, cancel_futures=True)

    routes = [
        Route("/", index),
        Route("/api/health", health),
        Route("/api/games", new_game, methods=["POST"]),
        Route("/api/games/{game_id}", get_game, methods=["GET"]),
        Route("/api/games/{game_id}", close_game, methods=["DELETE"]),
        Route("/api/games/{game_id}/move", play_move, methods=["POST"]),
        Route("/api/games/{game_id}/engine", engine_move, methods=["POST"]),
        Route("/api/games/{game_id}/record", game_record, methods=["GET"]),
        Route("/api/position", position, methods=["POST"]),
        Route("/api/analyse", analyse, methods=["GET"]),
        Route("/api/analyses/{analysis_id}/stop", stop_analysis, methods=["POST"]),
        Route("/api/records", records, methods=["POST"]),
        Route("/api/evaluate", evaluate_positions, methods=["POST"]),
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
    ]
    # Other web sites kept out (guard.py, F105): BrowserGuard refuses cross-site API requests and
    # heads every answer, the Host check's refusal too (Starlette's plain-text 400), so it is outermost.
    middleware = [Middleware(BrowserGuard), Middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts))]
    app = Starlette(routes=routes, lifespan=lifespan, middleware=middleware, exception_handlers={
        WebError: web_error, RosenError: rosen_error, HTTPException: http_error})
    app.state.sessions = state
    app.state.shutting_down = shutting_down  # rosen serve sets it at Ctrl-C: open streams end then
    return app


def _int_param(query: Any, name: str) -> Optional[int]:
    """An integer query parameter, None if absent; a 400 naming it if it is not a number."""
    text = query.get(name)
    if text is None or text == "":
        return None
    try:
        return int(text)
    except ValueError:
        raise WebError(400, f"{name}: expected an integer, got {text[:40]!r}", name) from None
