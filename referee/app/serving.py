"""How ``referee serve`` runs the app: granian, its connections and HTTP in Rust, the app in ``THREADS`` threads of one
worker process (:func:`serve`), with room among the process's open files for the connections the devices keep open
(:func:`open_files`).  Measured against waitress, the server before it, on the same machine one run after the other
(benchmarks/NOTES.md): a fifth less of the server's time a request at 64 tables, where waitress's own thread, its
loop over the kept connections and its reading of each request's headers in Python, was a fifth of the whole.

granian starts each request's environ from a copy of the process's environment (its WSGI answer sets the request's
own variables over it): the worker lets go of the variables named as a request's (``HTTP_PROXY`` would read as a
header the device sent) and :class:`RequestOnly` takes the others out of each request before the app reads it, so
that no secret given in the environment (SECRET_KEY, a database URL's password) is in a request."""
from __future__ import annotations

import os
import resource
from collections.abc import Callable, Iterable
from typing import Any

from flask import Flask

THREADS = 8  # requests answered at once

# connections kept open at once: every device keeps its own open between its polls (a national final's 64 tables,
# two devices each, the director's page and the room's display, and the spectators' phones on the standings), each
# an open file of the worker process
CONNECTIONS = 1000


def open_files(wanted: int) -> int:
    """Room for ``wanted`` connections among the files this process may have open (each is one; the database and
    the app's own files take some 50 more): the soft limit raised as far as the hard one allows; how many
    connections that leaves room for."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    needed = wanted + 64
    if soft != resource.RLIM_INFINITY and soft < needed:
        raised = needed if hard == resource.RLIM_INFINITY else min(needed, hard)
        if raised > soft:
            soft = raised
            resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    return wanted if soft == resource.RLIM_INFINITY else max(1, min(wanted, soft - 64))


# a request's own variables (PEP 3333's and the headers'): no variable of the process's environment is taken for one
REQUEST_VARIABLES = ("HTTP_", "CONTENT_", "REMOTE_", "REQUEST_", "SERVER_", "PATH_INFO", "QUERY_STRING", "SCRIPT_NAME",
                     "GATEWAY_INTERFACE", "wsgi.")


class RequestOnly:
    """WSGI middleware: a request's environ without the variables of the process's environment the server copied
    into it (``copied``: their names, none of which is a request's own)."""

    def __init__(self, app: Callable[..., Iterable[bytes]], copied: Iterable[str]) -> None:
        self.app = app
        self.copied = tuple(copied)

    def __call__(self, environ: dict, start_response: Callable[..., Any]) -> Iterable[bytes]:
        for name in self.copied:
            environ.pop(name, None)
        return self.app(environ, start_response)


def served() -> Flask:
    """The app as the server's worker runs it (granian's factory, called in the worker process): made as
    ``create_app`` makes it, each request's environ its own: the process's variables named as a request's are let
    go (``HTTP_PROXY`` would read as a header the device sent), the others taken out of each request
    (:class:`RequestOnly`)."""
    from . import create_app

    app = create_app()
    open_files(CONNECTIONS)
    for name in [name for name in os.environ if name.startswith(REQUEST_VARIABLES)]:
        del os.environ[name]
    app.wsgi_app = RequestOnly(app.wsgi_app, list(os.environ))  # type: ignore[method-assign]
    return app


RESPAWN_SECONDS = 1.0  # a worker that died is started again after this long (the devices' next polls find it)


def serve(host: str, port: int) -> None:
    """Serve the app on ``host``:``port`` until stopped (SIGINT or SIGTERM): one worker process, ``THREADS``
    threads answering, every connection a device keeps open kept; a worker that dies (out of memory, killed) is
    started again, so the tables' next taps are answered without the operator."""
    from granian import Granian
    from granian.constants import Interfaces

    Granian("referee.app.serving:served", address=host, port=port, interface=Interfaces.WSGI, factory=True,
            workers=1, blocking_threads=THREADS, websockets=False, log_access=False,
            respawn_failed_workers=True, respawn_interval=RESPAWN_SECONDS).serve()
