"""The Flask application factory."""
from __future__ import annotations

import os
import secrets
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Callable

from flask import Flask, has_request_context, request, templating, url_for
from werkzeug.routing import IntegerConverter
from flask_wtf import CSRFProtect
from flask_talisman import Talisman

from ..services.pins import ORGANISER_PASSWORD_FILE
from ..store.backup import NAMED_INSTANCE, instance_folder
from ..store.db import db, migrate
from ..engine import LARGEST
from ..services import backups
from . import collector

ROOT = Path(__file__).resolve().parents[2]  # the project: its templates/ and instance/
MIGRATIONS = ROOT / "referee" / "store" / "migrations"
MOST_ARM_MS = 5000  # a screen whose controls wait longer than this for a tap is a screen that seems broken
csrf = CSRFProtect()
talisman = Talisman()

# Every screen assumes players and spectators share the venue's Wi-Fi: scripts only from this app (htmx and
# referee.js, no inline script, no eval), no framing by another page, forms posted only here.  Inline style
# attributes are allowed (colour swatches and board cells carry their colours in them).  The web app manifest (the app
# on a tablet's home screen) from this app too.  WebAssembly may be compiled ('wasm-unsafe-eval', which opens no eval of
# script): the table's tablet runs the engine in Pyodide, served by this app (web/offline.py).
CONTENT_SECURITY_POLICY = {
    "default-src": "'self'", "script-src": "'self' 'wasm-unsafe-eval'", "style-src": "'self' 'unsafe-inline'",
    "img-src": "'self' data:", "object-src": "'none'", "base-uri": "'none'", "form-action": "'self'",
    "frame-ancestors": "'none'", "manifest-src": "'self'",
}


def _secret_key(instance: Path) -> str:
    """SECRET_KEY from the environment, else from instance/secret_key (made once, never in the repository).  Several
    worker processes starting at once on a new instance all read the one key written first: the file is complete
    before it takes its name, and a name already taken is never written over."""
    if os.environ.get("SECRET_KEY"):
        return os.environ["SECRET_KEY"]
    path = instance / "secret_key"
    if not path.exists():
        fd, draft = tempfile.mkstemp(dir=instance, prefix=".secret_key.")  # readable by its owner only
        try:
            with os.fdopen(fd, "w") as out:
                out.write(secrets.token_hex(32))
            os.link(draft, path)
        except FileExistsError:
            pass
        finally:
            os.unlink(draft)
    return path.read_text().strip()


class BoundedInt(IntegerConverter):
    """``<int:...>`` in every URL: a number a database column holds (0 to 2**31-1); a larger id is no page
    (404), never an overflow in the database driver."""

    def __init__(self, map, *args, **kwargs):
        kwargs.setdefault("max", LARGEST)
        super().__init__(map, *args, **kwargs)


URLS_KEPT = 4096  # the URLs the templates' url_for keeps (games' pages, each language's switch...), then afresh


class FlatGlobals(templating.Environment):
    """Flask's template environment, each template's globals a plain dict made when it is loaded (jinja's own is a
    ChainMap over the environment's globals, copied key by key in Python into every template's context when it is
    drawn: some 45 names, a third of the time a director's page spends drawing its 64 table cards).  The app
    registers every global before a template is loaded, as jinja asks ("avoid modifying any globals after a template
    is loaded")."""

    def make_globals(self, d):
        return {**self.globals, **(d or {})}


def _urls_built_once() -> Callable[..., str]:
    """The templates' ``url_for``: each URL built once for its endpoint, its values and the site's root (the URL
    map is fixed once the app is made, and no ``url_defaults`` hook adds values to a URL), then read back.
    Flask's builds it anew each time through werkzeug's routing, some 15 us, and every screen's frame names
    seven (the table screen a dozen more).  An external URL (one that names the host), an endpoint named
    relative to the request's blueprint (".index"), a value that cannot be a key, and a page made outside a
    request are built as Flask builds them."""
    built: dict[tuple, str] = {}

    def template_url_for(endpoint: str, **values) -> str:
        if values.get("_external") or endpoint[:1] == "." or not has_request_context():
            return url_for(endpoint, **values)
        try:
            key = (endpoint, request.script_root, *sorted(values.items()))
            return built[key]
        except KeyError:
            found = url_for(endpoint, **values)
            if len(built) >= URLS_KEPT:
                built.clear()
            built[key] = found
            return found
        except TypeError:  # a value that is no key (a list): built each time
            return url_for(endpoint, **values)

    return template_url_for


def create_app(test_config: dict | None = None) -> Flask:
    # the instance folder (config.py, the secret key, the organiser's password, the records, the SQLite file):
    # REFEREE_INSTANCE names another, as each of several hosts on one database keeps its own; a name mistyped is
    # not made anew (the host would start with a key and settings of its own)
    instance_path = instance_folder() if test_config is None else ROOT / "instance"
    if test_config is None and os.environ.get(NAMED_INSTANCE) and not instance_path.is_dir():
        raise ValueError(f"{NAMED_INSTANCE} names {instance_path}, which is not a folder: make it (with the "
                         f"host's config.py) or correct the name")
    app = Flask(__name__, instance_path=str(instance_path), instance_relative_config=True,
                template_folder=str(ROOT / "templates"),
                static_folder=str(ROOT / "referee" / "web" / "static"))
    app.url_map.converters["int"] = BoundedInt
    app.jinja_environment = FlatGlobals
    app.jinja_env.globals["url_for"] = _urls_built_once()
    instance = Path(app.instance_path)
    instance.mkdir(parents=True, exist_ok=True)
    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI=f"sqlite:///{instance / 'referee.sqlite'}",
        MAX_CONTENT_LENGTH=8 * 1024 * 1024,
        # the venue network is shared: the session cookie is out of scripts' reach and not sent by other sites'
        # forms; Secure on every request that came over https (SessionOverHttps), and on every request when the
        # app is served over https only (REFEREE_HTTPS=1, or SESSION_COOKIE_SECURE in instance/config.py)
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_SECURE=os.environ.get("REFEREE_HTTPS") == "1",
        # a form's token lasts as long as the tablet's session: a screen left open for hours still records
        WTF_CSRF_TIME_LIMIT=None,
        # how long (ms) a screen's controls wait, once it is shown or changed, before a tap counts: the second touch
        # of a double tap lands on the screen the first brought and acts on nothing (referee.js)
        ARM_MS=600,
        # whether a table screen keeps what its tablet needs to referee offline (the service worker, Pyodide, the
        # kit, the screen and its record: web/offline.py), fetched once in the background
        TABLETS_KEEP_OFFLINE=True,
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
        if os.environ.get("DATABASE_URL"):
            app.config["SQLALCHEMY_DATABASE_URI"] = os.environ["DATABASE_URL"]
        if os.environ.get("REFEREE_SERVER_TIMING") == "1":  # each answer's CPU time, for benchmarks/load.py
            app.config["SERVER_TIMING"] = True
        if os.environ.get("RATELIMIT_STORAGE_URI"):  # where wrong PINs are counted: a store workers share
            app.config["RATELIMIT_STORAGE_URI"] = os.environ["RATELIMIT_STORAGE_URI"]
        if not app.config.get("SECRET_KEY"):
            app.config["SECRET_KEY"] = _secret_key(instance)
        app.config.setdefault("ORGANISER_PASSWORD_FILE", str(instance / ORGANISER_PASSWORD_FILE))
        # every finished game's record file, and a deleted game's (deleted/): a test app keeps none unless told
        app.config.setdefault("RECORDS_DIR", str(instance / "records"))
        # a backup every BACKUP_MINUTES while a game is in play, the last BACKUPS_KEPT kept (services/backups.py):
        # a test app takes none unless told
        app.config.setdefault("BACKUP_MINUTES", backups.DEFAULT_MINUTES)
    else:
        app.config.update(test_config)
    arm = app.config["ARM_MS"]
    if type(arm) is not int or not 0 <= arm <= MOST_ARM_MS:
        raise ValueError(f"ARM_MS must be a whole number of milliseconds from 0 to {MOST_ARM_MS}, not {arm!r}")
    if not str(app.config["SQLALCHEMY_DATABASE_URI"]).startswith("sqlite"):
        # a database server may have closed a pooled connection (restarted, timed out): each is tried before use.
        # A SQLite file has no server, and every device asks every second: it is not asked a "SELECT 1" first
        app.config.setdefault("SQLALCHEMY_ENGINE_OPTIONS", {}).setdefault("pool_pre_ping", True)
    from ..web.sessions import SessionOverHttps

    app.session_interface = SessionOverHttps()
    db.init_app(app)
    migrate.init_app(app, db, directory=str(MIGRATIONS))
    csrf.init_app(app)
    https = bool(app.config["SESSION_COOKIE_SECURE"])
    talisman.init_app(app, force_https=https, strict_transport_security=https, frame_options="DENY",
                      content_security_policy=CONTENT_SECURITY_POLICY, referrer_policy="same-origin",
                      session_cookie_secure=https, session_cookie_http_only=True, session_cookie_samesite="Lax")

    from ..web import access, addresses, compression, polls, proxies, static_files
    from ..language import i18n
    from ..screens import templating
    from ..web import offline
    from ..web.views import errors, games, guide, install, judges, sync, table, tournaments

    from ..services import archive, games as game_records, rulesets
    from . import timing

    polls.init_app(app, [("Strict-Transport-Security", _hsts())] if https else [])  # innermost
    addresses.init_app(app)  # a query string as a browser sends it, for the polls and the views
    proxies.init_app(app)
    access.init_app(app)
    compression.init_app(app, static_files.init_app(app))
    archive.init_app(app, game_records.export_record)
    app.register_blueprint(games.bp)
    app.register_blueprint(table.bp)
    app.register_blueprint(tournaments.bp)
    app.register_blueprint(judges.bp)
    app.register_blueprint(guide.bp)
    app.register_blueprint(install.bp)
    app.register_blueprint(offline.bp)
    app.register_blueprint(sync.bp)
    templating.init_app(app)
    i18n.init_app(app, rulesets.language)
    app.register_error_handler(413, _too_large)
    app.register_error_handler(404, _no_page)
    app.register_error_handler(405, _no_page)
    errors.init_app(app)
    if app.config.get("CREATE_TABLES", True):
        with app.app_context():
            _upgrade_or_create()
    backups.init_app(app)
    timing.init_app(app)
    if test_config is None:
        _settled()
    return app


def _hsts() -> str:
    """The Strict-Transport-Security header Flask-Talisman adds to an https answer, as it is configured."""
    value = f"max-age={talisman.strict_transport_security_max_age}"
    if talisman.strict_transport_security_include_subdomains:
        value += "; includeSubDomains"
    if talisman.strict_transport_security_preload:
        value += "; preload"
    return value


def _settled() -> None:
    """The objects made so far set aside from the collector of reference cycles, and each full collection from
    now on followed by setting aside what survived it (:mod:`referee.app.collector`): a full collection otherwise
    walks all of them again and holds every request of the process meanwhile.  What is made while serving is still
    collected."""
    collector.settle()


def _no_page(error):
    """An address that is no page of this app (an id past any game's, a form's address opened as a page): said in
    the device's language, with the app's header."""
    from flask import render_template
    from flask_babel import gettext

    if error.code == 405:
        message = gettext("this address takes a form sent from a screen, not a page opened: nothing was recorded")
    else:
        message = gettext("there is no such page")
    return render_template("error.html", message=message), error.code


def _too_large(error):
    """A request larger than MAX_CONTENT_LENGTH (a record file, a form): nothing is read or recorded."""
    from flask import current_app, render_template
    from flask_babel import gettext

    limit = f'{current_app.config["MAX_CONTENT_LENGTH"] / (1024 * 1024):.3g}'
    return render_template("error.html", message=gettext(
        "what was sent is larger than %(n)s MB, the most this app reads: nothing was recorded", n=limit)), 413


def _upgrade_or_create() -> None:
    """Bring the database schema up to date (Alembic migrations in migrations/), one process at a time: several
    worker processes starting on a new database (gunicorn -w 4) would otherwise each run the same migrations at
    once, and all but one fail to start.  The first to take the lock migrates; the others then find the schema up
    to date."""
    from flask_migrate import upgrade

    with migration_lock(db.engine):
        upgrade(directory=str(MIGRATIONS))


MIGRATION_LOCK_KEY = 0x7265_6665_7265_65  # PostgreSQL's advisory lock for migrating (b"referee"), per database


@contextmanager
def migration_lock(engine):
    """Held while migrating: on SQLite a lock on the file beside the database (its name with ``-migrating``), on
    PostgreSQL a transaction's advisory lock (released however the transaction ends).  An in-memory SQLite
    database belongs to one process and takes none."""
    from sqlalchemy import text

    url = engine.url
    if url.get_backend_name() == "sqlite":
        if not url.database or url.database == ":memory:" or url.database.startswith("file::memory:"):
            yield
            return
        import fcntl

        with open(f"{url.database}-migrating", "a") as held:
            fcntl.flock(held, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(held, fcntl.LOCK_UN)
    elif url.get_backend_name() == "postgresql":
        with engine.connect() as conn:
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK_KEY})
            try:
                yield
            finally:
                conn.rollback()
        engine.dispose()  # the lock's connection and the migration's are not kept open in the pool: the server's
        # connections are counted, and the app opens what it needs when it serves
    else:
        yield
