"""Shared fixtures: the shipped rulesets and a new game's state to set positions on; each test's tier (marker); a
PostgreSQL database of its own for each parallel worker; PIN hashes at a test's cost and each template compiled
once per process."""
from __future__ import annotations

import contextlib
import functools
import gc
import inspect
import json
import os
import shutil
import types
import weakref
from pathlib import Path

import flask
import jinja2
import pytest
import sqlalchemy

from referee import create_app
from referee.app.collector import Settling
from referee.store.db import db
from referee.cache import LIVE_VERSIONS
from referee.language import speaking
from referee.services import rulesets
from referee.engine import GameState, Ruleset, parse_entry, resolve, with_options

pytest_plugins = ["browser_support"]  # the browser tests' shared app server and chromium


@pytest.fixture(scope="session")
def jma() -> Ruleset:
    return rulesets.load("jma-2006")


@pytest.fixture(scope="session")
def classic() -> Ruleset:
    return rulesets.load("classic")


def seated_state(ruleset: Ruleset, players=("Aki", "Ben", "Chie"), **options) -> GameState:
    """The state of a new game with the seating already decided (players in the order given), Aki to roll."""
    return GameState.new(with_options(ruleset, options, "test"), list(players), seating="fixed")


def do(state: GameState, **entry) -> GameState:
    """The state after recording one entry (raises if the rules refuse it)."""
    return resolve(state, parse_entry(entry)).state


def events(state: GameState, **entry):
    return resolve(state, parse_entry(entry)).events


def sq(state: GameState, square_id: str) -> int:
    return state.ruleset.square(square_id).index


def give(state: GameState, player: int, *square_ids: str, mortgaged: bool = False) -> GameState:
    """Hand deeds to a player (setting up a position, as a referee would find it)."""
    state = state.copy()
    for sid in square_ids:
        i = sq(state, sid)
        state.set_owner(i, player)
        state.set_mortgaged(i, mortgaged)
    return state


def place(state: GameState, player: int, square_id: str, cash: int | None = None) -> GameState:
    state = state.copy()
    state.players[player].position = sq(state, square_id)
    if cash is not None:
        state.players[player].cash = cash
    return state


def cash(state: GameState) -> list[int]:
    return [p.cash for p in state.players]


@contextlib.contextmanager
def said_in(app, lang: str = "en"):
    """A request's context of ``app`` for a device reading ``lang``, the screens handed that language (as the app
    binds it for each request it answers)."""
    with app.test_request_context(headers={"Accept-Language": lang}), speaking(rulesets.language(lang)):
        yield


def seated_first_table(app, pin: str) -> tuple[int, int, str, str]:
    """A four-player JMA tournament (director's PIN ``pin``) with its first round seated: its first table's seating
    roll-off over; (the tournament, the table's game, its first player, the table's PIN)."""
    from referee.services import folds, progress, tournaments
    from referee.store.db import db

    with app.app_context():
        tid = tournaments.create_tournament("Poll Cup", "jma-placement", "jma-2006",
                                            ["Aki", "Ben", "Chie", "Dan"], pin, [60])
        progress.seat_round(tid, 1)
        table = tournaments.round_overview(tid, 1)[0]
        finish_seating(table.game_id)
        first = folds.load(table.game_id).game.state.players[0].name
        db.session.remove()
    return tid, table.game_id, first, table.pin


def finish_seating(game_id: int) -> None:
    """Every player of a seated table rolls for the order of play until it is decided (play can begin), in the app
    context the caller is in."""
    from referee.services import folds, games

    table = folds.load(game_id)
    while type(table.game.state.pending).__name__ == "SeatingRoll":
        who = table.game.state.players[table.game.state.pending.waiting[0]].name
        dice = [1 + (table.seq % 6), 1 + ((table.seq * 5) % 6)]
        games.record(game_id, {"type": "seat_roll", "player": who, "dice": dice}, table.seq)
        table = folds.load(game_id)


# --- the web tier's steps through the test client: a new game, an entry recorded through the table's form ---------

def new_game(client, players="Aki\nBen\nChie", seating="fixed", pin="123456", ruleset="jma-2006"):
    r = client.post("/games", data={"title": "Table 1", "ruleset": ruleset, "players": players,
                                    "seating": seating, "pin": pin})
    assert r.status_code == 302, r.data
    return int(r.headers["Location"].rsplit("/", 1)[1])


def post(client, game_id, seq, entry, **fields):
    return client.post(f"/games/{game_id}/record", data={"seq": seq, "entry": json.dumps(entry), **fields},
                       follow_redirects=True)



@contextlib.contextmanager
def templates_drawn(app):
    """The names of the templates ``app`` draws while the block runs, in the order it draws them (Flask's
    template_rendered signal): what a kept drawing saves is a template not drawn."""
    drawn: list[str] = []

    def noted(sender, template, context, **extra):
        drawn.append(template.name)

    flask.template_rendered.connect(noted, app)
    try:
        yield drawn
    finally:
        flask.template_rendered.disconnect(noted, app)


# --- the app's fixtures (the web tier): a fresh database, the app on it, a test client ------------------------------

@pytest.fixture(params=["sqlite", "postgresql"])
def database(request, tmp_path):
    """A fresh, empty database: a SQLite file, or the PostgreSQL server scripts/test starts."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'test.sqlite'}"
    url = os.environ.get("TEST_DATABASE_URL")
    if not url:
        pytest.skip("TEST_DATABASE_URL is not set: scripts/test starts a PostgreSQL server and sets it")
    key = sqlalchemy.make_url(url).render_as_string(hide_password=False)
    if emptied(url):
        MIGRATED.add(key)
    else:
        MIGRATED.discard(key)
    return url


@pytest.hookimpl(tryfirst=True)
def pytest_generate_tests(metafunc):
    """A module marked ``one_database`` checks what is drawn from the same rows on either database (its words, its
    screens, its rules, its printed pages): its tests that make an app run on SQLite alone.  What the database itself
    does (storing, reading back, ordering, refusing, failing, numbers at its limits, several workers or hosts) stays
    tested on both; a module of that kind is never marked."""
    if "database" in metafunc.fixturenames and metafunc.definition.get_closest_marker("one_database"):
        # as a parametrize mark, before pytest reads the marks and the fixture's own params (which then stand aside)
        metafunc.definition.add_marker(pytest.mark.parametrize("database", ["sqlite"], indirect=True))


# The PostgreSQL databases just emptied at the migrations' head: the next app made on one finds it as a new database
# migrated (tests/conftest.py's migrated_schema_copied lets it skip Alembic's no-op upgrade, which reads every
# migration's script, once).
MIGRATED: set[str] = set()


@functools.cache
def _emptying_engine(url: str) -> sqlalchemy.Engine:
    """One connection per test process to empty its PostgreSQL database with (not one made and dropped per test)."""
    engine = sqlalchemy.create_engine(url, poolclass=sqlalchemy.pool.StaticPool)
    KEPT.add(engine)
    return engine


KEPT: "weakref.WeakSet[sqlalchemy.Engine]" = weakref.WeakSet()  # engines the tests' teardown leaves connected


def emptied(url: str) -> bool:
    """The worker's PostgreSQL database made as a new one is for the next app: its tables emptied (and their numbering
    started again) when its schema is the migrations' head, as the last test's app left it, so the next app finds
    nothing to migrate; else (a test migrated it down, or made other tables) the schema dropped, for the next app to
    migrate from nothing.  The migrations write no rows: empty tables at the head are a new database migrated.
    Whether the tables were emptied at the head (True) or the schema dropped."""
    with _emptying_engine(url).begin() as conn:
        tables = set(conn.execute(sqlalchemy.text(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public'")).scalars())
        at = conn.execute(sqlalchemy.text("SELECT version_num FROM alembic_version")).scalars().all() \
            if "alembic_version" in tables else []
        if at == [migrations_head()] and tables == {*db.metadata.tables, "alembic_version"}:
            conn.execute(sqlalchemy.text("TRUNCATE " + ", ".join(f'"{t}"' for t in sorted(db.metadata.tables))
                                         + " RESTART IDENTITY CASCADE"))
            return True
        conn.execute(sqlalchemy.text("DROP SCHEMA public CASCADE; CREATE SCHEMA public"))
        return False


@functools.cache
def migrations_head() -> str:
    from alembic.script import ScriptDirectory

    from referee.app import MIGRATIONS

    return ScriptDirectory(str(MIGRATIONS)).get_current_head()


@pytest.fixture
def app(database):
    LIVE_VERSIONS.clear()  # a database emptied by the last test, not through this process's sessions (uncounted)
    return create_app({"TESTING": True, "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False,
                       "SQLALCHEMY_DATABASE_URI": database})


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def postgresql():
    """The PostgreSQL database of this worker, for a test that starts servers on it (scripts/test sets it)."""
    url = os.environ.get("TEST_DATABASE_URL")
    if not url:
        pytest.skip("TEST_DATABASE_URL is not set: scripts/test starts a PostgreSQL server and sets it")
    return url


# Tiers.  Every test gets exactly one of these markers registered in pyproject.toml (and a few also `long`, set by
# hand), so that `scripts/test --fast` (`-m "not browser and not postgres and not server and not long"`) is the fast
# loop:
#   browser   its module is tests/test_browser*.py (chromium, a live server);
#   postgres  it runs on the PostgreSQL server (the `database` fixture's "postgresql" param, or `postgresql`);
#   server    it starts the app's server (referee serve, gunicorn's workers) or a redis server in processes of their own
#             (tests/server_support.py's starters), named by the test, a fixture it uses or a helper of the tests;
#   web       it creates a Flask app: create_app (or Flask) is named by the test, a fixture it uses, or a helper of
#             the tests that either calls (followed through the tests' own functions, not into referee/);
#   engine    anything else: the engine, the rulesets, the simulator and the command line on records.
POSTGRES_FIXTURES = {"postgresql"}
APP_NAMES = {"create_app", "Flask"}
EVERY_TEST = {"postgres_database_of_this_worker", "cheaper_password_hashes", "shared_template_code",
              "migrated_schema_copied", "shared_url_builders"}  # autouse below


def _names_the_app(names: set, strings: set, scope: dict) -> bool:
    return bool(names & APP_NAMES) or any(app in text for text in strings for app in APP_NAMES)  # or monkeypatch's "x.y"


def _names_a_server(names: set, strings: set, scope: dict) -> bool:
    return any(getattr(scope.get(name), "starts_a_server", False) for name in names)


def _reaches(func, seen: set, names_it) -> bool:
    """Whether ``func`` (a test, a fixture or a helper of the tests) names what ``names_it`` looks for, directly or
    through the functions of the tests it names."""
    func = inspect.unwrap(func)
    code = getattr(func, "__code__", None)
    if code is None or code in seen:
        return False
    seen.add(code)
    names, strings, stack = set(), set(), [code]
    while stack:  # the function's own names and those of the functions and lambdas inside it
        c = stack.pop()
        names.update(c.co_names)
        strings.update(k for k in c.co_consts if isinstance(k, str))
        stack.extend(k for k in c.co_consts if isinstance(k, types.CodeType))
    scope = getattr(func, "__globals__", {})
    if names_it(names, strings, scope):
        return True
    for name in names:
        value = scope.get(name)
        if isinstance(value, types.FunctionType) and _is_test_code(value) and _reaches(value, seen, names_it):
            return True
    return False


def _is_test_code(func) -> bool:
    module = inspect.getmodule(func)
    name = getattr(module, "__name__", "")
    return name == "conftest" or name.startswith("test_")


def _item_reaches(item, names_it) -> bool:
    """Whether a test, or a fixture of the tests it uses, reaches what ``names_it`` looks for."""
    seen: set = set()
    if _reaches(item.function, seen, names_it):
        return True
    for name in set(item.fixturenames) - EVERY_TEST:
        for fixturedef in item._fixtureinfo.name2fixturedefs.get(name, ()):
            if _is_test_code(fixturedef.func) and _reaches(fixturedef.func, seen, names_it):
                return True
    return False


def _tier(item) -> str:
    if item.path.name.startswith("test_browser"):
        return "browser"
    params = getattr(getattr(item, "callspec", None), "params", {})
    if params.get("database") == "postgresql" or POSTGRES_FIXTURES & set(item.fixturenames):
        return "postgres"
    if item.stash[_STARTS_A_SERVER]:
        return "server"
    if _item_reaches(item, _names_the_app):
        return "web"
    return "engine"


_STARTS_A_SERVER = pytest.StashKey[bool]()


@pytest.hookimpl(wrapper=True)
def pytest_collection_modifyitems(items):
    """Each test's tier, before -m selects on them; once every other plugin has selected and ordered, the tests that
    start servers first, then the browser tests, in their order, then the others in theirs.  The browser tests are
    the longest (they mostly wait on the screen's arming and its live polls): run in parallel, each worker starts on
    them and the short tests fill in at the end (scripts/test hands the tests out one at a time in this order)."""
    for item in items:
        item.stash[_STARTS_A_SERVER] = _item_reaches(item, _names_a_server)
        item.add_marker(_tier(item))
    yield
    items.sort(key=_order)  # a stable sort: each tier keeps its order


# The tests that start real servers (gunicorn's workers on a new database, five times; referee serve behind a proxy), on
# SQLite or PostgreSQL: the longest of all, handed out before even the browser tests, so no worker is left running
# one at the end.
def _order(item) -> int:
    if item.stash[_STARTS_A_SERVER]:
        return 0
    return 1 if item.get_closest_marker("browser") else 2


# The tests' temporary folders (their SQLite databases above all) on a memory filesystem where the machine has one
# with room.  The app has SQLite put every commit on the disk before it returns (synchronous=FULL), as it must at a
# venue; on a disk that wait was half of a web test's time, on memory it is none, and the app's settings stay the
# ones it runs with.  Removed after a passing run; a failed run's kept for a look until the next run begins.
MEMORY_DISK = Path("/dev/shm")
MEMORY_DISK_ROOM = 2 * 1024 ** 3


def _memory_disk() -> Path | None:
    try:
        mounts = Path("/proc/mounts").read_text()
        room = os.statvfs(MEMORY_DISK)
    except OSError:
        return None
    if f" {MEMORY_DISK} tmpfs " not in mounts or room.f_bavail * room.f_frsize < MEMORY_DISK_ROOM:
        return None
    return MEMORY_DISK


def pytest_configure(config):
    if hasattr(config, "workerinput") or config.option.basetemp:  # a worker takes its folder from the controller's
        return
    disk = _memory_disk()
    if disk is not None:
        for left in disk.glob(f"referee-tests-{os.getuid()}-*"):  # a failed run's, kept until the next run begins
            if not _running(left.name.rsplit("-", 1)[1]):
                shutil.rmtree(left, ignore_errors=True)
        config.option.basetemp = str(disk / f"referee-tests-{os.getuid()}-{os.getpid()}")
        config.stash[_ON_MEMORY] = Path(config.option.basetemp)


_ON_MEMORY = pytest.StashKey[Path]()


def _running(pid: str) -> bool:
    """Whether the process ``pid`` (a run of the tests that made a folder) is still running."""
    try:
        os.kill(int(pid), 0)
    except (ValueError, ProcessLookupError):
        return False
    except PermissionError:
        return True
    return True


# The tests' objects that live for the whole run (the app's modules, the rulesets, the tests collected) are kept out
# of the garbage collector's sweeps once collected, and a sweep comes after 20,000 new objects rather than 700: the
# collector went over them again and again, a fifth of a web test's time (measured with farm-bench on three test
# files, one process: 0.82 of the time frozen, 0.89 of that again at the higher threshold).
def pytest_collection_finish(session):
    gc.collect()
    gc.freeze()
    gc.set_threshold(20000, 50, 100)


# A test's apps are let go in cycles (the app, its extensions, its engine), which the collector, sweeping seldom now,
# would leave for long with their pooled connections open: after a test on the PostgreSQL server the engines it
# connected with are disposed of (their pools' connections closed), or the server's connections run out ("too many
# clients already") within fifty tests.  A connection still checked out (a test that kept one) is let go by a whole
# sweep of the collector, the way all were before (half a second a test).
CONNECTED: "weakref.WeakSet[sqlalchemy.Engine]" = weakref.WeakSet()


@sqlalchemy.event.listens_for(sqlalchemy.Engine, "engine_connect")
def _connected(connection):
    CONNECTED.add(connection.engine)


def pytest_runtest_teardown(item):
    # a test that made the app as a server makes it (create_app() with no test settings) installed a serving
    # process's callback of the collector (referee/app/collector.py), which freezes what survives each full sweep:
    # taken out, so that this process sweeps its own way and lets the test's apps and connections go
    gc.callbacks[:] = [callback for callback in gc.callbacks if not isinstance(callback, Settling)]
    if item.get_closest_marker("postgres"):
        engines = [engine for engine in CONNECTED if engine.url.get_backend_name() == "postgresql" and engine not in KEPT]
        CONNECTED.clear()
        for engine in engines:
            engine.dispose()
        if any(getattr(engine.pool, "checkedout", lambda: 0)() for engine in engines):  # a NullPool keeps none
            gc.collect()


def pytest_sessionfinish(session, exitstatus):
    base = session.config.stash.get(_ON_MEMORY, None)
    if base is not None and exitstatus == 0:
        shutil.rmtree(base, ignore_errors=True)


@pytest.fixture(scope="session", autouse=True)
def postgres_database_of_this_worker(request):
    """Run in parallel (pytest -n), each worker has a PostgreSQL database of its own, made from TEST_DATABASE_URL's
    server for this run (its name with the worker's, e.g. referee_test_gw1) and dropped after it: the postgres tests
    empty their database before each test, so two workers must never share one.  Nothing is made when no
    postgres test is to run, and one process alone uses TEST_DATABASE_URL's database itself."""
    url = os.environ.get("TEST_DATABASE_URL")
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not url or not worker or not any(item.get_closest_marker("postgres") for item in request.session.items):
        yield
        return
    import sqlalchemy

    base = sqlalchemy.engine.make_url(url)
    name = f"{base.database}_{worker}"
    server = sqlalchemy.create_engine(base, isolation_level="AUTOCOMMIT")  # CREATE DATABASE runs outside one
    with server.connect() as conn:
        conn.execute(sqlalchemy.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))  # left by a killed run
        conn.execute(sqlalchemy.text(f'CREATE DATABASE "{name}"'))
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("TEST_DATABASE_URL", base.set(database=name).render_as_string(hide_password=False))
        yield
    with server.connect() as conn:  # WITH (FORCE): the apps' pooled connections are still open
        conn.execute(sqlalchemy.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    server.dispose()


# The PINs and passwords the tests make are hashed by scrypt as in the app, at a lower cost: n = 2**8 instead of
# werkzeug's 2**15 (at the full cost the hashes took over a third of the fast loop's time; at 2**10, 2.4 ms a hash,
# still a few seconds of it; below 2**7 werkzeug's memory bound for scrypt is refused by OpenSSL).  Only the default
# method's cost changes: check_password_hash reads the method and cost back from each hash, as for a real one.
TEST_HASH_METHOD = "scrypt:256:8:1"


@pytest.fixture(scope="session", autouse=True)
def cheaper_password_hashes():
    from werkzeug import security

    hasher = security.generate_password_hash
    if list(inspect.signature(hasher).parameters)[:2] != ["password", "method"]:  # werkzeug changed: leave it
        yield
        return
    defaults = hasher.__defaults__
    hasher.__defaults__ = (TEST_HASH_METHOD,) + defaults[1:]
    yield
    hasher.__defaults__ = defaults


class SharedTemplateCode(jinja2.BytecodeCache):
    """Jinja's compiled templates kept for every app this test process creates (each test makes its own app, and
    each app compiled every template it drew anew).  Keyed as Jinja keys them, by the template's name and file, and
    checked against the source's checksum: an edited template is compiled again."""

    def __init__(self):
        self.code = {}

    def load_bytecode(self, bucket):
        if bucket.key in self.code:
            bucket.bytecode_from_string(self.code[bucket.key])

    def dump_bytecode(self, bucket):
        self.code[bucket.key] = bucket.bytecode_to_string()


@pytest.fixture(scope="session", autouse=True)
def shared_template_code():
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(flask.Flask, "jinja_options", {**flask.Flask.jinja_options, "bytecode_cache": SharedTemplateCode()})
        yield


# A new SQLite database file gets the migrated schema copied from the first one this test process migrated, instead
# of Alembic running every migration again for each test's app (over half of a small web test's time).  The copy is
# the migrations' own result at the current head: the first new database of each process is migrated for real, and
# a database that exists already (an app made again on it, an older schema) or one in memory is upgraded for real
# as always.  A PostgreSQL database the `database` fixture has just emptied at the head (MIGRATED) is a new database
# migrated already: its first app skips Alembic's upgrade, which would find nothing to do after reading every
# migration's script; any other is upgraded for real.  The servers the tests start in processes of their own migrate
# for real too.
@pytest.fixture(scope="session", autouse=True)
def migrated_schema_copied(tmp_path_factory):
    from referee import app as app_module
    from referee.store.backup import owner_only
    from referee.store.db import db

    migrate = app_module._upgrade_or_create
    made: list[Path] = []  # the migrated schema, once this process has made it

    def upgrade_or_copy():
        url = db.engine.url
        if url.get_backend_name() == "postgresql":
            key = url.render_as_string(hide_password=False)
            at_head = key in MIGRATED
            MIGRATED.discard(key)
            return None if at_head else migrate()
        path = Path(url.database) if url.get_backend_name() == "sqlite" and url.database else None
        if path is None or url.database == ":memory:" or url.database.startswith("file:") or not _new_file(path):
            return migrate()
        if not made:
            migrate()
            db.engine.dispose()  # the last connection closed: the write-ahead log folded into the file
            schema = tmp_path_factory.mktemp("schema") / "migrated.sqlite"
            shutil.copyfile(path, schema)
            made.append(schema)
            return None
        db.engine.dispose()
        shutil.copyfile(made[0], path)
        owner_only(path)  # as the app makes its database files
        return None

    upgrade_or_copy.migrate = migrate  # the real one, for the tests of migrating itself
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(app_module, "_upgrade_or_create", upgrade_or_copy)
        yield


def _new_file(path: Path) -> bool:
    """Whether a SQLite database file is new: not there, or empty with no write-ahead log beside it."""
    if not path.exists():
        return True
    return path.stat().st_size == 0 and not Path(f"{path}-wal").exists()


# Werkzeug compiles two small functions for each of the app's URL rules (building its addresses) from a syntax tree,
# anew in every app: with each test making its own app, that was most of an app's making.  Kept per test process, keyed
# by all that the generated code is made from (the rule, its parts, its defaults, its converters' kinds): a changed
# rule compiles anew.  The functions read the rule's own converters when called, so each app's rules stay its own.
@pytest.fixture(scope="session", autouse=True)
def shared_url_builders():
    from werkzeug.routing import rules

    compile_builder = rules.Rule._compile_builder
    if list(inspect.signature(compile_builder).parameters) != ["self", "append_unknown"]:  # werkzeug changed
        yield
        return
    built: dict = {}

    def built_once(rule, append_unknown=True):
        try:
            key = (append_unknown, rule.rule, repr(rule._trace), tuple((k, type(c)) for k, c in rule._converters.items()),
                   tuple(sorted((str(k), repr(v)) for k, v in (rule.defaults or {}).items())))
        except AttributeError:  # werkzeug's rule keeps other parts: compiled as it would be
            return compile_builder(rule, append_unknown)
        if key not in built:
            built[key] = compile_builder(rule, append_unknown)
        return built[key]

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(rules.Rule, "_compile_builder", built_once)
        yield
