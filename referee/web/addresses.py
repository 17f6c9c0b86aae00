"""An address as a browser sends it: a query string's bytes that are not UTF-8 percent-encoded, as a browser encodes them.

A browser percent-encodes every byte of an address that is not plain ASCII (``?q=%C3%A9``); a request written by hand
or by a tool may carry the raw bytes instead, and bytes that are not UTF-8 (``?q=\\xff``) made every page's
reading of its parameters fail (Werkzeug decodes the query string strictly): a server error for a forged address.
Here such a query string is percent-encoded before the app reads it, as a browser would have sent it: its
parameters then read as text (an invalid byte stays as ``%FF``, which Werkzeug keeps as it is), and the page
answers them as it answers any other value it does not know (a refusal, its page, or nothing done)."""
from __future__ import annotations

from typing import Any, Callable, Iterable
from urllib.parse import parse_qsl, quote

import werkzeug.urls  # noqa: F401 - registers "werkzeug.url_quote", the error handler the views' parameters read with
from flask import Flask

WSGIApp = Callable[[dict, Callable[..., Any]], Iterable[bytes]]
KEPT = "/?=&;+%:@!$'()*,~"  # the characters a query string keeps as they are (its separators, escapes and marks)


def as_a_browser_sends(query: str) -> str:
    """``query`` (a WSGI string: its bytes as Latin-1) with its bytes percent-encoded when they are not UTF-8; a
    query string that is UTF-8 as it is."""
    raw = query.encode("latin-1", "replace")
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return quote(raw, safe=KEPT)
    return query


def parameters(environ: dict) -> dict[str, list[str]] | None:
    """A request's parameters (its query string's), each name's values in order, read as the views read them
    (Werkzeug's ``request.args``: UTF-8, an invalid escape kept as it is), for an answer made before Flask's
    request (``referee.web.polls``); None for a query string the views would read otherwise (its bytes not UTF-8)."""
    try:
        text = environ.get("QUERY_STRING", "").encode("latin-1").decode()
    except UnicodeError:
        return None
    found: dict[str, list[str]] = {}
    for name, value in parse_qsl(text, keep_blank_values=True, errors="werkzeug.url_quote"):
        found.setdefault(name, []).append(value)
    return found


class BrowserAddresses:
    """WSGI middleware: a query string that is not UTF-8 percent-encoded before the app reads it."""

    def __init__(self, app: WSGIApp) -> None:
        self.app = app

    def __call__(self, environ: dict, start_response: Callable[..., Any]) -> Iterable[bytes]:
        query = environ.get("QUERY_STRING")
        if query and not query.isascii():
            environ["QUERY_STRING"] = as_a_browser_sends(query)
        return self.app(environ, start_response)


def init_app(app: Flask) -> None:
    app.wsgi_app = BrowserAddresses(app.wsgi_app)  # type: ignore[method-assign]  # Flask's documented way to wrap it
