"""Answers compressed for the venue's Wi-Fi: sixty-four tablets, their second devices and the displays share one
access point, and a table screen or a live region is HTML that gzip makes three to four times smaller.

A device that says it reads gzip (``Accept-Encoding``, as every browser does) gets its pages, live regions,
stylesheet, scripts, manifest and records gzipped (``Content-Encoding: gzip``); one that does not gets them as they
are.  Pages and live regions are compressed as they are answered, at a middle level (about a tenth of a
millisecond for a table screen); a static file is compressed once at the best level and the result kept, keyed by
the file's digest (``static_files``), so a changed file is compressed again.  Images and PDFs are compressed
already and are sent as they are; so are answers under ``SMALLEST`` bytes (the header would cost more than is
saved), answers of part of a file and answers sent as a stream.

An empty answer (a poll's 204, "nothing changed", the commonest answer of all: every device asks every second) goes
without the headers that only a document needs (its policy of content, frames, permissions and referrers, its
type: some 400 bytes), which no browser reads on an answer with no document.

Every answer of a kind that may be compressed says ``Vary: Accept-Encoding``, so that no cache between the app and
a device hands one device's encoding to another.  A compressed static file's ``ETag`` becomes weak (as nginx's
gzip does): the bytes differ from the file's, and a device asking again with it is still answered 304.

Compressing pages that hold a secret (the forms' CSRF token, the director's page's PINs) next to text an attacker
chose (an address's ``next``, a search) lets one who reads the lengths of the encrypted answers, and can make the
device ask again and again, guess the secret a character at a time (BREACH).  An attacker makes the device ask
from a page of another site: the session's cookie is ``SameSite=Lax``, so only that site's top-level navigations
carry it, and those say where they come from (``Sec-Fetch-Site: cross-site`` or ``same-site``, sent by every
browser a venue's tablets run).  A page or live region asked for from anywhere but the app's own pages or the
device itself (an address typed, a bookmark, the home screen: ``same-origin``, ``none``) is therefore sent as it
is; static files hold no secret and are always compressed.  (A CSRF token also changes its signed part every
second; its fixed part alone opens nothing.)
"""
from __future__ import annotations

import gzip
from pathlib import Path
from typing import Any, Callable, Iterable

from flask import Flask, Response, request
from werkzeug.http import parse_accept_header

from .static_files import StaticVersions

SMALLEST = 500  # bytes: a smaller answer is sent as it is
OWN_ASKING = frozenset({"same-origin", "none"})  # Sec-Fetch-Site of a request made by the app's pages or the user
PAGE_LEVEL = 6  # gzip's level for answers compressed as they are made (zlib's default: most of the gain, quickly)
STATIC_LEVEL = 9  # and for static files, compressed once
COMPRESSIBLE = frozenset({
    "text/html", "text/css", "text/javascript", "application/javascript", "application/json",
    "application/manifest+json", "application/x-ndjson", "image/svg+xml", "text/plain", "text/csv",
})
UNCHANGED_STATUS = frozenset({204, 206, 304})  # no body, or part of one
DOCUMENT_HEADERS = frozenset({"content-security-policy", "permissions-policy", "x-frame-options",
                              "x-content-type-options", "referrer-policy", "content-type"})


class EmptyAnswers:
    """WSGI middleware: a 204 answer sent without ``DOCUMENT_HEADERS`` (set by Flask-Talisman and Flask after the
    app's own hooks have run, so taken off here, outside them)."""

    def __init__(self, app: Callable[[dict, Callable[..., Any]], Iterable[bytes]]) -> None:
        self.app = app

    def __call__(self, environ: dict, start_response: Callable[..., Any]) -> Iterable[bytes]:
        def trimmed(status: str, headers: list[tuple[str, str]], *exc_info: Any) -> Any:
            if status.startswith("204"):
                headers = [(k, v) for k, v in headers if k.lower() not in DOCUMENT_HEADERS]
            return start_response(status, headers, *exc_info)

        return self.app(environ, trimmed)


def reads_gzip() -> bool:
    """Whether the device asking said it reads gzip (a quality above 0 for ``gzip`` or ``*``)."""
    return _reads_gzip(request.headers.get("Accept-Encoding"))


def _reads_gzip(accepted: str | None) -> bool:
    return parse_accept_header(accepted)["gzip"] > 0


def _own_asking(site: str | None) -> bool:
    """Whether a request came from the app's own pages or the user (``Sec-Fetch-Site``; not from another site's
    page): a browser that says nothing of it (the header absent, an older one) is taken at its word."""
    return (site or "none") in OWN_ASKING


def answer_body(environ: dict, body: bytes) -> tuple[bytes, list[tuple[str, str]]]:
    """An answer's ``body`` as it is sent to the request ``environ``: gzipped when it is not small, the device reads
    gzip and the app's own page asked; with the headers that go with it (its ``Vary`` and ``Content-Encoding``).
    The views' answers (:func:`init_app`'s hook) and those made before Flask's request (``referee.web.polls``)."""
    if len(body) < SMALLEST:
        return body, []
    if not (_reads_gzip(environ.get("HTTP_ACCEPT_ENCODING")) and _own_asking(environ.get("HTTP_SEC_FETCH_SITE"))):
        return body, [("Vary", "Accept-Encoding")]
    return gzip.compress(body, PAGE_LEVEL, mtime=0), [("Vary", "Accept-Encoding"), ("Content-Encoding", "gzip")]


class StaticCompressed:
    """Each static file gzipped once, by its digest: (digest, the gzipped bytes) per file name."""

    def __init__(self, folder: Path, versions: StaticVersions):
        self.folder = folder.resolve()
        self.versions = versions
        self._kept: dict[str, tuple[str, bytes]] = {}

    def of(self, filename: str) -> bytes | None:
        """static/``filename`` gzipped as it is now; None where there is no such file (or none of that name as it is
        spelled: :meth:`StaticVersions.of`) or it is smaller than ``SMALLEST``."""
        digest = self.versions.of(filename)
        if digest is None:
            return None
        kept = self._kept.get(filename)
        if kept and kept[0] == digest:
            return kept[1]
        try:
            data = (self.folder / filename).read_bytes()
        except OSError:
            return None
        if len(data) < SMALLEST:
            return None
        if self.versions.of(filename) != digest:  # changed while it was read: compressed at the next answer
            return None
        compressed = gzip.compress(data, STATIC_LEVEL, mtime=0)
        self._kept[filename] = (digest, compressed)
        return compressed


def compressible(response: Response) -> bool:
    return (response.status_code not in UNCHANGED_STATUS and response.mimetype in COMPRESSIBLE
            and "Content-Encoding" not in response.headers and "Content-Range" not in response.headers)


def init_app(app: Flask, versions: StaticVersions | None) -> None:
    static = (StaticCompressed(Path(app.static_folder), versions)
              if app.static_folder is not None and versions is not None else None)
    app.wsgi_app = EmptyAnswers(app.wsgi_app)  # type: ignore[method-assign]  # Flask's documented way to wrap it

    def _static(response: Response) -> Response:
        """A static file gzipped (kept), and its 304 with the validators and ``Vary`` its 200 had."""
        filename = (request.view_args or {}).get("filename")
        if static is None or not isinstance(filename, str) or response.mimetype not in COMPRESSIBLE:
            return response
        if response.status_code not in (200, 304) or "Content-Encoding" in response.headers:
            return response
        body = static.of(filename)
        if body is None:  # small, or not a file of that name
            return response
        response.vary.add("Accept-Encoding")
        if not reads_gzip():
            return response
        etag, _ = response.get_etag()
        if etag:
            response.set_etag(etag, weak=True)
        if response.status_code == 304:
            return response
        response.close()  # the file it was to send
        response.direct_passthrough = False
        response.headers.pop("Accept-Ranges", None)  # a part of the gzipped bytes is not a part of the file
        return _gzipped(response, body)

    @app.after_request
    def _compressed(response: Response) -> Response:
        if request.endpoint == "static":
            return _static(response)
        if not compressible(response) or response.is_streamed or response.direct_passthrough:
            return response
        body, said = answer_body(request.environ, response.get_data())
        if said:
            response.vary.add("Accept-Encoding")
        return _gzipped(response, body) if ("Content-Encoding", "gzip") in said else response


def _gzipped(response: Response, body: bytes) -> Response:
    response.set_data(body)
    response.headers["Content-Encoding"] = "gzip"
    return response
