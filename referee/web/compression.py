"""Answers compressed for the venue's Wi-Fi: sixty-four tablets, their second devices and the displays share one
access point, and a table screen or a live region is HTML that gzip makes three to four times smaller.

A device that says it reads gzip (``Accept-Encoding``, as every browser does) gets its pages, live regions,
stylesheet, scripts, manifest and records gzipped (``Content-Encoding: gzip``); one that does not gets them as they
are.  Pages and live regions are compressed as they are answered, at a middle level (about a tenth of a
millisecond for a table screen); a static file is compressed once at the best level and the result kept, keyed by
the file's digest (``static_files``), so a changed file is compressed again.  Images and PDFs are compressed
already and are sent as they are; so are answers under ``SMALLEST`` bytes (the header would cost more than is
saved), answers of part of a file and answers sent as a stream.

Every answer of a kind that may be compressed says ``Vary: Accept-Encoding``, so that no cache between the app and
a device hands one device's encoding to another.  A compressed static file's ``ETag`` becomes weak (as nginx's
gzip does): the bytes differ from the file's, and a device asking again with it is still answered 304.

Compressing pages that hold a secret (the forms' CSRF token) next to text an attacker chose lets one who reads
the lengths of the encrypted answers and can make the device send many requests guess the secret (BREACH).  Here
the session's cookie is ``SameSite=Lax``: a page of another site that makes the device ask for the app's pages
sends no cookie with those requests, so the answers carry no secret of the device's; and at most venues the app is
served over plain HTTP on the venue's own network, where compression hides nothing that was not readable anyway.
"""
from __future__ import annotations

import gzip
from pathlib import Path

from flask import Flask, Response, request

from .static_files import StaticVersions

SMALLEST = 500  # bytes: a smaller answer is sent as it is
PAGE_LEVEL = 6  # gzip's level for answers compressed as they are made (zlib's default: most of the gain, quickly)
STATIC_LEVEL = 9  # and for static files, compressed once
COMPRESSIBLE = frozenset({
    "text/html", "text/css", "text/javascript", "application/javascript", "application/json",
    "application/manifest+json", "application/x-ndjson", "image/svg+xml", "text/plain", "text/csv",
})
UNCHANGED_STATUS = frozenset({204, 206, 304})  # no body, or part of one


def reads_gzip() -> bool:
    """Whether the device asking said it reads gzip (a quality above 0 for ``gzip`` or ``*``)."""
    return request.accept_encodings["gzip"] > 0


class StaticCompressed:
    """Each static file gzipped once, by its digest: (digest, the gzipped bytes) per file name."""

    def __init__(self, folder: Path, versions: StaticVersions):
        self.folder = folder.resolve()
        self.versions = versions
        self._kept: dict[str, tuple[str, bytes]] = {}

    def of(self, filename: str) -> bytes | None:
        """static/``filename`` gzipped as it is now; None where there is no such file."""
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

    @app.after_request
    def _compressed(response: Response) -> Response:
        if not compressible(response):
            return response
        if request.endpoint == "static":
            filename = (request.view_args or {}).get("filename")
            if static is None or not isinstance(filename, str) or (response.content_length or 0) < SMALLEST:
                return response
            response.vary.add("Accept-Encoding")
            body = static.of(filename) if reads_gzip() else None
            if body is None:
                return response
            response.close()  # the file it was to send
            response.direct_passthrough = False
            etag, _ = response.get_etag()
            if etag:
                response.set_etag(etag, weak=True)
        else:
            if response.is_streamed or response.direct_passthrough:
                return response
            data = response.get_data()
            if len(data) < SMALLEST:
                return response
            response.vary.add("Accept-Encoding")
            if not reads_gzip():
                return response
            body = gzip.compress(data, PAGE_LEVEL, mtime=0)
        response.set_data(body)
        response.headers["Content-Encoding"] = "gzip"
        return response
