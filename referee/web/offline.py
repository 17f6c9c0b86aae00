"""What a table's tablet keeps to go on refereeing when the venue's network or the server fails: Pyodide (CPython
compiled to WebAssembly, installed by scripts/pyodide from the npm registry) and the offline kit, a zip of the
project's own Python that runs on the tablet (the engine, :mod:`referee.tablet`) and every ruleset's values as the
server reads them (``rulesets.json``).  The tablet's Python is the server's: one source of the rules.

Pyodide's files are named by its version (in their path) and kept a year by the devices; the kit is asked for again
by each table screen that loads it, and answered 304 while it is the one the device has (its digest, its ETag).  Pyodide's files that compress are sent gzipped to a device that reads gzip (their gzipped copies are made
once, when they are installed); the kit is a zip, compressed already."""
from __future__ import annotations

import hashlib
import io
import json
import sys
import tomllib
import zipfile
from pathlib import Path

from flask import Blueprint, abort, current_app, request, send_file, send_from_directory, url_for
from werkzeug.wrappers import Response

from ..cache import OFFLINE_KITS
from ..services import rulesets
from .compression import reads_gzip
from .static_files import KEPT_FOR

bp = Blueprint("offline", __name__, url_prefix="/offline")
ROOT = Path(__file__).resolve().parents[2]
SPEC = tomllib.loads((Path(__file__).with_name("pyodide.toml")).read_text(encoding="utf-8"))
PYODIDE_VERSION: str = SPEC["version"]
PYODIDE_FILES: frozenset[str] = frozenset(SPEC["files"])
TYPES = {".mjs": "text/javascript", ".wasm": "application/wasm", ".zip": "application/zip",
         ".json": "application/json"}
KIT_CODE = ("referee/__init__.py", "referee/engine", "referee/tablet")  # the Python the tablet runs
ZIP_TIME = (1980, 1, 1, 0, 0, 0)  # every member's time: the same files make the same zip, so the same digest


def pyodide_folder() -> Path:
    """Where scripts/pyodide installed Pyodide's files (the app's ``PYODIDE_FOLDER`` names another)."""
    configured = current_app.config.get("PYODIDE_FOLDER")
    return Path(configured) if configured else Path(sys.prefix) / "share" / "pyodide" / PYODIDE_VERSION


def _kit_sources() -> list[Path]:
    sources: list[Path] = []
    for name in KIT_CODE:
        path = ROOT / name
        sources += sorted(path.rglob("*.py")) if path.is_dir() else [path]
    return sources


def _sources_digest(sources: list[Path]) -> str:
    """A digest of what the kit is made from: each source's name, size and time of change, and the rulesets'."""
    marks = [(str(p.relative_to(ROOT)), p.stat().st_size, p.stat().st_mtime_ns) for p in sources]
    marks += [(str(p.relative_to(ROOT)), p.stat().st_size, p.stat().st_mtime_ns)
              for p in sorted(rulesets.RULESETS_DIR.rglob("*.toml"))]
    return hashlib.sha256(json.dumps(marks).encode()).hexdigest()


def _member(name: str) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name, ZIP_TIME)
    info.compress_type = zipfile.ZIP_DEFLATED  # a ZipInfo of its own is stored as it is unless told
    return info


def kit() -> tuple[str, bytes]:
    """The offline kit: its digest (12 hexadecimal characters of its SHA-256) and its zip, made once per process
    and again when a file it is made from changes."""
    sources = _kit_sources()
    key = _sources_digest(sources)
    found = OFFLINE_KITS.get(key)
    if found is not None:
        return found
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for path in sources:
            archive.writestr(_member(str(path.relative_to(ROOT))), path.read_bytes(), compresslevel=9)
        values = json.dumps(rulesets.every_ruleset_read(), ensure_ascii=False)  # in the files' order: the engine reads
        # meaning into it (a clause's first text is its original)
        archive.writestr(_member("rulesets.json"), values.encode("utf-8"), compresslevel=9)
    data = out.getvalue()
    return OFFLINE_KITS.keep(key, (hashlib.sha256(data).hexdigest()[:12], data))


def _kept(response: Response) -> Response:
    response.headers["Cache-Control"] = f"public, max-age={KEPT_FOR}, immutable"
    response.vary.add("Accept-Encoding")
    return response


@bp.get("/kit.zip")
def kit_zip():
    """The kit, asked for again by each table screen that loads it, and answered 304 while it is the same."""
    digest, data = kit()
    response = Response(data, mimetype=TYPES[".zip"])
    response.set_etag(digest)
    response.headers["Cache-Control"] = "no-cache"
    return response.make_conditional(request)


@bp.get("/sw.js")
def service_worker():
    """The tablet's service worker (static/sw.js), allowed to keep the requests of every page of the app."""
    response = send_from_directory(current_app.static_folder or "", "sw.js", mimetype="text/javascript",
                                   max_age=0)
    response.headers["Service-Worker-Allowed"] = request.script_root + "/"
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.app_template_global()
def offline_keep(game_id: int) -> str:
    """What a table's tablet keeps in the background to referee offline: Pyodide's files, the kit, the table's
    screen and its record (their addresses, space-separated)."""
    return " ".join([url_for("offline.pyodide_file", name=name) for name in sorted(PYODIDE_FILES)]
                    + [url_for("offline.kit_zip"), url_for("table.table", game_id=game_id),
                       url_for("games.export", game_id=game_id)])


@bp.get(f"/pyodide/{PYODIDE_VERSION}/<name>")
def pyodide_file(name: str):
    """One of Pyodide's files (only those the app serves: referee/web/pyodide.toml), gzipped where its gzipped
    copy is there and the device reads gzip."""
    if name not in PYODIDE_FILES:
        abort(404)
    path = pyodide_folder() / name
    packed = path.with_name(name + ".gz")
    mimetype = TYPES.get(path.suffix, "application/octet-stream")
    if reads_gzip() and packed.is_file():
        response = send_file(packed, mimetype=mimetype, conditional=False, etag=False)
        response.headers["Content-Encoding"] = "gzip"
        return _kept(response)
    if not path.is_file():
        abort(404)
    return _kept(send_file(path, mimetype=mimetype, conditional=False, etag=False))
