"""What a table's tablet keeps to go on refereeing when the venue's network or the server fails: Pyodide (CPython
compiled to WebAssembly, installed by scripts/pyodide from the npm registry) and the offline kit, a zip of the
project's own Python that runs on the tablet (the engine, the screens and their words, :mod:`referee.tablet`, the
table screen's templates, and the libraries they draw with: jinja2, markupsafe, babel), every ruleset's values as the
server reads them (``rulesets.json``), the published documents' words in each language (``languages.json``) and the
URL rules of the table's addresses (``addresses.json``).  The tablet's Python is the server's: one source of the
rules and of the screens.

Pyodide's files are named by its version (in their path) and kept a year by the devices; the kit is asked for again
by each table screen that loads it, and answered 304 while it is the one the device has (its digest, its ETag).  Pyodide's files that compress are sent gzipped to a device that reads gzip (their gzipped copies are made
once, when they are installed); the kit is a zip, compressed already."""
from __future__ import annotations

import hashlib
import importlib
import io
import json
import sys
import tomllib
import zipfile
from pathlib import Path

from flask import Blueprint, abort, current_app, render_template, request, send_file, send_from_directory, url_for
from jinja2 import FileSystemLoader, ModuleLoader
from werkzeug.wrappers import Response

from ..cache import OFFLINE_KITS
from ..language import LANGUAGES
from ..screens.templating import COMPILED_TEMPLATES, environment
from ..services import rulesets
from .compression import reads_gzip
from .forms import ImportForm, NewGameForm
from .static_files import KEPT_FOR

bp = Blueprint("offline", __name__, url_prefix="/offline")
ROOT = Path(__file__).resolve().parents[2]
SPEC = tomllib.loads((Path(__file__).with_name("pyodide.toml")).read_text(encoding="utf-8"))
PYODIDE_VERSION: str = SPEC["version"]
PYODIDE_FILES: frozenset[str] = frozenset(SPEC["files"])
TYPES = {".mjs": "text/javascript", ".wasm": "application/wasm", ".zip": "application/zip",
         ".json": "application/json"}
# The Python the tablet runs: the engine, the screens and their words (the compiled catalogues too), the tablet's
# own; but the server's alone: the QR codes of the printed slips (segno) and the request's language (Flask).
KIT_CODE = ("referee/__init__.py", "referee/engine", "referee/tablet", "referee/screens", "referee/language",
            "referee/cache")
KIT_LEFT_OUT = ("referee/screens/qr.py", "referee/language/i18n.py")
# the table screen's live region and what it includes; the list of the games on a tablet alone
KIT_TEMPLATES = ("templates/table", "templates/_message.html", "templates/tablet/_alone_games.html")
# The libraries the screens draw with, pure Python (markupsafe's C speedups left: it goes on without them); of
# babel's locale data, the app's languages alone (and the root they fall back to).
KIT_LIBRARIES = ("jinja2", "markupsafe", "babel")
KIT_LOCALES = ("root", "en", "ja", "ko", "de")
# The endpoints whose addresses the table's live region makes (its template calls url_for with them).
KIT_ENDPOINTS = ("table.", "games.export")
ZIP_TIME = (1980, 1, 1, 0, 0, 0)  # every member's time: the same files make the same zip, so the same digest


def pyodide_folder() -> Path:
    """Where scripts/pyodide installed Pyodide's files (the app's ``PYODIDE_FOLDER`` names another)."""
    configured = current_app.config.get("PYODIDE_FOLDER")
    return Path(configured) if configured else Path(sys.prefix) / "share" / "pyodide" / PYODIDE_VERSION


def _library_files(name: str) -> list[tuple[str, Path]]:
    """A library's files for the kit (its name in the zip, the file): its Python, and babel's data of the app's
    languages."""
    folder = Path(importlib.import_module(name).__file__ or "").parent
    files = sorted(folder.rglob("*.py"))
    if name == "babel":
        files += [folder / "global.dat"] + [folder / "locale-data" / f"{code}.dat" for code in KIT_LOCALES]
    return [(f"{name}/{p.relative_to(folder).as_posix()}", p) for p in files]


def _kit_sources() -> list[tuple[str, Path]]:
    """What the kit carries from files: (its name in the zip, the file)."""
    sources: list[tuple[str, Path]] = []
    for name in KIT_CODE:
        path = ROOT / name
        found = sorted(p for p in path.rglob("*") if p.suffix in (".py", ".mo")) if path.is_dir() else [path]
        sources += [(p.relative_to(ROOT).as_posix(), p) for p in found
                    if p.relative_to(ROOT).as_posix() not in KIT_LEFT_OUT]
    for name in KIT_TEMPLATES:
        path = ROOT / name
        found = sorted(path.rglob("*.html")) if path.is_dir() else [path]
        sources += [(p.relative_to(ROOT).as_posix(), p) for p in found]
    for name in KIT_LIBRARIES:
        sources += _library_files(name)
    return sources


def _compiled_templates(sources: list[tuple[str, Path]]) -> list[tuple[str, bytes]]:
    """The kit's templates compiled as the tablet's environment compiles them (Jinja's modules, for its
    ModuleLoader): the tablet imports them rather than compiling each template itself (the first screen it draws
    offline waits for its templates).  Each module names its template by its name only, not by where the server
    keeps it."""
    env = environment(FileSystemLoader(str(ROOT / "templates")))
    compiled = []
    for zipped, path in sources:
        if zipped.startswith("templates/") and zipped.endswith(".html"):
            name = zipped.removeprefix("templates/")
            code = env.compile(path.read_text(encoding="utf-8"), name, name, raw=True, defer_init=True)
            compiled.append((f"{COMPILED_TEMPLATES}/{ModuleLoader.get_module_filename(name)}", code.encode("utf-8")))
    return compiled


def _sources_digest(sources: list[tuple[str, Path]]) -> str:
    """A digest of what the kit is made from: each source's name, size and time of change, and the rulesets'."""
    marks = [(name, p.stat().st_size, p.stat().st_mtime_ns) for name, p in sources]
    marks += [(str(p.relative_to(ROOT)), p.stat().st_size, p.stat().st_mtime_ns)
              for p in sorted(rulesets.RULESETS_DIR.rglob("*.toml"))]
    return hashlib.sha256(json.dumps(marks).encode()).hexdigest()


def kit_addresses() -> dict[str, str]:
    """The URL rules of the endpoints the table's live region makes addresses of (endpoint -> rule, the first rule
    of each, as Flask's url_for takes it): the tablet makes them as the server does."""
    rules: dict[str, str] = {}
    for rule in current_app.url_map.iter_rules():
        if rule.endpoint.startswith(KIT_ENDPOINTS):
            rules.setdefault(rule.endpoint, rule.rule)
    return rules


def kit_languages() -> dict[str, dict]:
    """Each language's words of the published documents (the rulesets' sources phrase by phrase, their notes), as
    the server reads them: the tablet makes its languages of them and of the compiled catalogues."""
    out = {}
    for code in LANGUAGES:
        language = rulesets.language(code)
        out[code] = {"sources": dict(language.sources),
                     "notes": {rid: {key: list(texts) for key, texts in notes.items()}
                               for rid, notes in language.notes.items()}}
    return out


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
        for name, path in sources:
            archive.writestr(_member(name), path.read_bytes(), compresslevel=9)
        for name, code in _compiled_templates(sources):
            archive.writestr(_member(name), code, compresslevel=9)
        values = {  # the rulesets in the files' order: the engine reads meaning into it (a clause's first text is
            # its original)
            "rulesets.json": rulesets.every_ruleset_read(), "languages.json": kit_languages(),
            "addresses.json": kit_addresses()}
        for name, value in values.items():
            archive.writestr(_member(name), json.dumps(value, ensure_ascii=False).encode("utf-8"), compresslevel=9)
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


@bp.app_template_global()
def offline_keep_alone() -> str:
    """What a tablet keeps to referee games on its own: Pyodide's files, the kit and the page of its games."""
    return " ".join([url_for("offline.pyodide_file", name=name) for name in sorted(PYODIDE_FILES)]
                    + [url_for("offline.kit_zip"), url_for("offline.alone")])


@bp.get("/table")
def alone():
    """The games refereed on this tablet alone, with no server (a club's, a family's): the tablet keeps this page
    and opens it again with no network; its Python makes the games, referees them and keeps their records
    (:mod:`referee.tablet.alone`).  The one thing it sends is a game's record, to the server's import, when asked."""
    return render_template("tablet/alone.html", form=NewGameForm(), import_form=ImportForm())


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
