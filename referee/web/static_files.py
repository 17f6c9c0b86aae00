"""The app's static files (stylesheet, scripts, icons) named by their version and kept by the devices for a year.

Every address of a static file the app writes carries its content's digest (``/static/referee.css?v=3f9a...``,
added by ``url_for``).  Asked for at the digest of the file as it is now, the answer may be kept a year without
asking again (``Cache-Control: public, max-age=31536000, immutable``): a tablet that opens its next screen takes
the stylesheet and the scripts from its own cache instead of asking the venue's Wi-Fi for each, every time.  A
changed file has a new digest, so a new address, which no device has kept.  Asked for at another digest (an old
page after an upgrade) or none, the file is answered as before, to be asked again each time (``no-cache``)."""
from __future__ import annotations

import hashlib
import posixpath
from pathlib import Path

from flask import Flask, Response, request

KEPT_FOR = 365 * 24 * 3600  # a year, in seconds
VERSION = "v"  # the address's argument that names the version
DIGEST_CHARS = 12  # hexadecimal characters of the file's SHA-256 kept in the address


class StaticVersions:
    """Each static file's digest, read once and again only when the file's size or time of change is not what it
    was (a file edited while the app runs gets its new digest at the next address built for it; an address already
    built and kept by the templates' cache of addresses is answered ``no-cache``, its digest being the old one)."""

    def __init__(self, folder: Path):
        self.folder = folder.resolve()
        self._known: dict[str, tuple[int, int, str]] = {}  # name -> (size, mtime_ns, digest)

    def of(self, filename: str) -> str | None:
        """The digest of static/``filename``; None for a name outside the folder, no file there, or a name spelled
        otherwise than plainly (``./a.css``, ``icons/../a.css``: one file is kept under one name, not under every
        spelling a device may send)."""
        if filename != posixpath.normpath(filename) or filename.startswith("/"):
            return None
        try:
            path = (self.folder / filename).resolve()
            stat = path.stat() if path.is_relative_to(self.folder) else None
        except (OSError, ValueError):  # no such file, a name too long, a NUL in it
            return None
        if stat is None:
            return None
        known = self._known.get(filename)
        if known and known[:2] == (stat.st_size, stat.st_mtime_ns):
            return known[2]
        try:
            digest = hashlib.sha256(path.read_bytes()).hexdigest()[:DIGEST_CHARS]
        except OSError:
            return None
        self._known[filename] = (stat.st_size, stat.st_mtime_ns, digest)
        return digest


def init_app(app: Flask) -> StaticVersions | None:
    """The static files' addresses versioned and their answers kept; the digests (None: the app has no static
    folder)."""
    if app.static_folder is None:
        return None
    versions = StaticVersions(Path(app.static_folder))

    @app.url_defaults
    def _versioned(endpoint: str, values: dict) -> None:
        if endpoint == "static" and VERSION not in values and isinstance(values.get("filename"), str):
            digest = versions.of(values["filename"])
            if digest is not None:
                values[VERSION] = digest

    @app.after_request
    def _kept_a_year(response: Response) -> Response:
        if request.endpoint != "static" or response.status_code not in (200, 304):
            return response
        filename = (request.view_args or {}).get("filename")
        asked = request.args.get(VERSION)
        if asked and isinstance(filename, str) and asked == versions.of(filename):
            response.cache_control.no_cache = None
            response.cache_control.public = True
            response.cache_control.max_age = KEPT_FOR
            response.cache_control.immutable = True
        return response

    return versions
