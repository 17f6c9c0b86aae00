"""The server's own time for each request, for benchmarks/load.py: with ``SERVER_TIMING`` set (``REFEREE_SERVER_TIMING=1``
in the environment of ``referee serve``, off by default), every answer carries a ``Server-Timing`` header (W3C Server
Timing) saying the CPU time the request's thread spent on it up to its answer's headers, in milliseconds
(``app;dur=0.412``).  CPU time, not the time on the wall clock: what one request costs the machine, whatever else the
machine was doing meanwhile, so that the requests of one kind (a poll answered 204, a table screen) can be told apart
from outside.  Off at a venue: the figure says nothing a player may use, but nothing is sent that is not needed."""
from __future__ import annotations

import time
from typing import Any, Callable, Iterable

WSGIApp = Callable[[dict, Callable[..., Any]], Iterable[bytes]]


class ServerTiming:
    """WSGI middleware: the thread's CPU time from the request's arrival to its answer's headers, as a header."""

    def __init__(self, app: WSGIApp) -> None:
        self.app = app

    def __call__(self, environ: dict, start_response: Callable[..., Any]) -> Iterable[bytes]:
        began = time.thread_time()

        def timed(status: str, headers: list[tuple[str, str]], *exc_info: Any) -> Any:
            spent = (time.thread_time() - began) * 1000
            return start_response(status, [*headers, ("Server-Timing", f"app;dur={spent:.3f}")], *exc_info)

        return self.app(environ, timed)


def init_app(app: Any) -> None:
    """The app's answers timed when its ``SERVER_TIMING`` setting is true (outermost: the proxies' headers and the
    whole of Flask inside the time)."""
    if app.config.get("SERVER_TIMING"):
        app.wsgi_app = ServerTiming(app.wsgi_app)
