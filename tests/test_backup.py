"""Backups and restores: `referee backup` and `referee restore` (referee/store/backup.py)."""
import contextlib
import os
import shutil
import sqlite3
import stat
import threading
from datetime import datetime
from pathlib import Path

import pytest
import sqlalchemy

from referee.store import backup
from referee import create_app
from referee.services import rulesets
from referee.services import folds, games
from referee.cli import main
from referee.store.db import db
from referee.engine import parse_record, replay
from referee.store.models import GameRow

HERE = Path(__file__).parent
GOLDEN = HERE / "golden" / "jma-short-game.jsonl"  # 45 entries, waiting for Ben to roll
GOLDEN_ENTRIES = 45
PIN = "123456"


def make_app(url: str):
    return create_app({"TESTING": True, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False,
                       "SQLALCHEMY_DATABASE_URI": url})


@pytest.fixture(autouse=True)
def instance(tmp_path, monkeypatch) -> Path:
    """The app's instance folder, where backups go unless told (instance/backups): the test's own."""
    monkeypatch.setattr(backup, "INSTANCE", tmp_path / "instance")
    return tmp_path / "instance"


@pytest.fixture
def live(tmp_path):
    """An app on a SQLite file holding one realistic game (the golden record) and a game made at the table."""
    path = tmp_path / "live.sqlite"
    url = f"sqlite:///{path}"
    app = make_app(url)
    with app.app_context():
        golden = games.import_record(GOLDEN.read_text(encoding="utf-8"), PIN)
        table = games.create_game("Table 2", "jma-2006", ["A", "B", "C"], "fixed", PIN)
        games.record(table, {"type": "roll", "player": "A", "dice": [3, 4]}, 0)
    yield app, url, path, golden
    with app.app_context():
        db.engine.dispose()


def sql_dump(path: Path) -> str:
    """Every table's schema and rows, as SQL: two equal dumps are the same database."""
    with contextlib.closing(sqlite3.connect(path)) as conn:
        return "\n".join(conn.iterdump())


def golden_record() -> str:
    """The golden game's record as the app exports it once imported."""
    header, entries = parse_record(GOLDEN.read_text(encoding="utf-8").splitlines())
    return "\n".join(replay(rulesets.for_header(header), header, entries).to_lines()) + "\n"


def export(app, game_id: int) -> str:
    with app.app_context():
        return games.export_record(game_id)


def one_line(text: str) -> str:
    lines = text.strip().splitlines()
    assert len(lines) == 1, text
    assert "Traceback" not in text
    return lines[0]


# --- backup ---------------------------------------------------------------------------------------------------


def test_backup_copies_the_database_and_reports_its_path_size_and_check(live, tmp_path, capsys):
    app, url, path, golden = live
    out = tmp_path / "copy.sqlite"
    assert main(["backup", "--database", url, "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert f"wrote {out} ({out.stat().st_size:,} bytes" in printed
    assert "check: integrity ok; 2 games, 46 entries, 0 tournaments" in printed
    assert sql_dump(out) == sql_dump(path)
    assert export(make_app(f"sqlite:///{out}"), golden) == golden_record()


def test_a_backup_is_one_self_contained_file_only_its_owner_can_read(live, tmp_path):
    _, url, path, _ = live
    result = backup.backup(url, tmp_path / "copy.sqlite")
    assert result.path.read_bytes()[18:20] == b"\x01\x01"  # rollback journal, not the live database's WAL
    assert not Path(f"{result.path}-wal").exists() and not Path(f"{result.path}.partial").exists()
    assert stat.S_IMODE(result.path.stat().st_mode) == 0o600  # it holds PIN hashes and the tables' PINs
    with contextlib.closing(sqlite3.connect(path)) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)  # the live database is left as it was


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_database_and_the_files_beside_it_are_readable_by_their_owner_only(tmp_path):
    """The SQLite file, its write-ahead log and the log's index hold the PIN hashes and the tables' PINs: only their
    owner may read them, whatever the umask (a file an older version made readable by all is made so too)."""
    old = tmp_path / "old.sqlite"
    with contextlib.closing(sqlite3.connect(old)) as conn:
        conn.execute("CREATE TABLE t (x)")
    old.chmod(0o644)
    umask = os.umask(0o022)  # files made as a default umask makes them: readable by every user of the machine
    try:
        for path in (tmp_path / "new.sqlite", old):
            app = make_app(f"sqlite:///{path}")
            with app.app_context():
                games.create_game("Table 1", "jma-2006", ["A", "B"], "fixed", PIN)
                beside = [Path(f"{path}-wal"), Path(f"{path}-shm")]
                assert all(f.exists() for f in beside)  # the app keeps its connection open: the log is there
                assert [mode(f) for f in (path, *beside)] == [0o600] * 3, path
                db.engine.dispose()
    finally:
        os.umask(umask)


def test_every_commit_is_on_the_disk_before_it_returns(tmp_path):
    """synchronous=FULL on every connection of the app (in WAL mode NORMAL may lose the last entries recorded to a
    power cut: a recorded fact is never lost)."""
    app = make_app(f"sqlite:///{tmp_path / 'db.sqlite'}")
    with app.app_context():
        with db.engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 2  # FULL (NORMAL is 1)
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        db.engine.dispose()


def test_backup_by_default_goes_to_the_instance_backups_folder_named_by_the_time(live, instance, tmp_path, capsys):
    """instance/backups, as the README says, whatever the database file is called and wherever it is (never a
    backups/ folder beside a database file named elsewhere)."""
    _, url, _, _ = live
    assert main(["backup", "--database", url]) == 0
    made = list((instance / "backups").iterdir())
    assert len(made) == 1 and made[0].name.startswith("referee-") and made[0].suffix == ".sqlite"
    assert f"wrote {made[0]}" in capsys.readouterr().out
    assert not (tmp_path / "backups").exists()
    when = datetime(2026, 3, 1, 9, 5, 7)
    assert backup.default_backup_path(url, now=when) == instance / "backups" / "referee-20260301-090507.sqlite"
    (instance / "backups" / "referee-20260301-090507.sqlite").touch()
    assert backup.default_backup_path(url, now=when).name == "referee-20260301-090507-2.sqlite"
    assert backup.default_backup_path("postgresql+psycopg://u@h/db", tmp_path, when).name == \
        "referee-20260301-090507.dump"


def test_backup_never_overwrites_a_file(live, tmp_path, capsys):
    _, url, _, _ = live
    out = tmp_path / "precious.txt"
    out.write_text("keep me")
    assert main(["backup", "--database", url, "--out", str(out)]) == 1
    assert "already exists" in one_line(capsys.readouterr().err)
    assert out.read_text() == "keep me"


def test_backup_of_a_missing_database_says_so(tmp_path, capsys):
    assert main(["backup", "--database", str(tmp_path / "none.sqlite"), "--out", str(tmp_path / "b.sqlite")]) == 1
    assert "there is no database at" in one_line(capsys.readouterr().err)
    assert not (tmp_path / "b.sqlite").exists()


def test_backup_during_an_open_write_transaction_succeeds_with_only_what_was_committed(live, tmp_path):
    app, url, path, golden = live
    writer = sqlite3.connect(path, isolation_level=None)
    try:
        writer.execute("BEGIN IMMEDIATE")  # the write lock, held as a tablet's entry is being written
        writer.execute("INSERT INTO entries (game_id, seq, data, recorded_at) VALUES (?, 46, ?, '2026-01-01')",
                       (golden, '{"type": "roll", "player": "Ben", "dice": [1, 2]}'))
        during = backup.backup(url, tmp_path / "during.sqlite", timeout=5)
        writer.execute("COMMIT")
    finally:
        writer.close()
    after = backup.backup(url, tmp_path / "after.sqlite", timeout=5)
    assert during.check.ok and during.check.counts.entries == 46  # the uncommitted entry is not in it
    assert after.check.ok and after.check.counts.entries == 47
    assert export(make_app(f"sqlite:///{during.path}"), golden) == golden_record()


def test_backups_taken_while_games_are_being_written_hold_whole_games_only(live, tmp_path):
    app, url, _, _ = live
    text = GOLDEN.read_text(encoding="utf-8")
    stop, failures = threading.Event(), []

    def write_games():
        try:
            with app.app_context():
                while not stop.is_set():
                    games.import_record(text, PIN)  # 45 entries in one transaction
        except BaseException as exc:  # pragma: no cover - reported below
            failures.append(exc)

    thread = threading.Thread(target=write_games)
    thread.start()
    results = []
    try:
        while len({r.check.counts.games for r in results}) < 4 and len(results) < 500:
            results.append(backup.backup(url, tmp_path / f"b{len(results)}.sqlite", timeout=10))
    finally:
        stop.set()
        thread.join()
    assert not failures
    assert len({r.check.counts.games for r in results}) >= 4  # the backups saw the games being written
    for r in results:
        assert r.check.ok
        assert r.check.counts.entries == 1 + GOLDEN_ENTRIES * (r.check.counts.games - 1)  # never half a game


# --- restore --------------------------------------------------------------------------------------------------


def test_restore_brings_back_exactly_the_database_at_backup_time(live, tmp_path, capsys):
    app, url, path, golden = live
    out = tmp_path / "copy.sqlite"
    assert main(["backup", "--database", url, "--out", str(out)]) == 0
    at_backup, record_at_backup = sql_dump(path), export(app, golden)
    with app.app_context():  # the table goes on, a new game is made, and the golden game is deleted
        games.record(golden, {"type": "roll", "player": "Ben", "dice": [1, 2]}, GOLDEN_ENTRIES)
        later = games.import_record(GOLDEN.read_text(encoding="utf-8"), PIN)
        db.session.delete(db.session.get(GameRow, golden))
        db.session.commit()
    assert sql_dump(path) != at_backup
    capsys.readouterr()

    assert main(["restore", str(out), "--database", url, "--yes"]) == 0
    printed = capsys.readouterr().out
    assert f"restored {out} into {path}: integrity ok; 2 games, 46 entries, 0 tournaments" in printed
    assert sql_dump(path) == at_backup
    assert export(app, golden) == record_at_backup == golden_record()
    with app.app_context():
        assert db.session.get(GameRow, later) is None
        assert folds.load(golden).seq == GOLDEN_ENTRIES
        games.record(golden, {"type": "roll", "player": "Ben", "dice": [1, 2]}, GOLDEN_ENTRIES)  # plays on
    with contextlib.closing(sqlite3.connect(path)) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)


def test_restore_keeps_a_backup_of_the_database_it_replaced(live, instance, tmp_path, capsys):
    app, url, path, golden = live
    out = backup.backup(url, tmp_path / "copy.sqlite").path
    with app.app_context():
        games.record(golden, {"type": "roll", "player": "Ben", "dice": [1, 2]}, GOLDEN_ENTRIES)
    before_restore = sql_dump(path)
    assert main(["restore", str(out), "--database", url, "--yes"]) == 0
    kept = [p for p in (instance / "backups").iterdir() if p.name.endswith("-before-restore.sqlite")]
    assert len(kept) == 1
    assert f"(2 games, 47 entries, 0 tournaments) is kept in {kept[0]}" in capsys.readouterr().out
    assert sql_dump(kept[0]) == before_restore


def test_restore_into_a_database_not_made_yet_creates_it(live, tmp_path, capsys):
    _, url, path, golden = live
    out = backup.backup(url, tmp_path / "copy.sqlite").path
    fresh = tmp_path / "new-machine" / "referee.sqlite"
    assert main(["restore", str(out), "--database", str(fresh)]) == 1
    assert "(no referee database yet)" in capsys.readouterr().err
    assert not fresh.exists()
    umask = os.umask(0o022)
    try:
        assert main(["restore", str(out), "--database", str(fresh), "--yes"]) == 0
    finally:
        os.umask(umask)
    assert sql_dump(fresh) == sql_dump(path)
    assert mode(fresh) == 0o600  # made readable by its owner only before the backup was copied into it
    assert not (tmp_path / "instance" / "backups").exists()  # nothing was there to keep


def test_restore_without_yes_says_what_it_would_replace_and_changes_nothing(live, tmp_path, capsys):
    app, url, path, golden = live
    out = backup.backup(url, tmp_path / "copy.sqlite").path
    with app.app_context():
        games.import_record(GOLDEN.read_text(encoding="utf-8"), PIN)
    before = sql_dump(path)
    capsys.readouterr()
    assert main(["restore", str(out), "--database", url]) == 1
    message = one_line(capsys.readouterr().err)
    assert f"would replace the database {path} (3 games, 91 entries, 0 tournaments)" in message
    assert f"with the backup {out} (2 games, 46 entries, 0 tournaments)" in message
    assert "nothing was changed: run again with --yes" in message
    assert sql_dump(path) == before
    assert not (tmp_path / "backups").exists()


@pytest.mark.parametrize("kind", ["text", "empty", "pg_dump", "missing"])
def test_restore_refuses_a_file_that_is_not_a_sqlite_database_changing_nothing(live, tmp_path, capsys, kind):
    _, url, path, _ = live
    bad = tmp_path / "bad.sqlite"
    if kind == "text":
        bad.write_text("games,entries\n1,45\n")
    elif kind == "empty":
        bad.touch()
    elif kind == "pg_dump":
        bad.write_bytes(b"PGDMP\x01\x0e\x00" + bytes(200))
    before = sql_dump(path)
    assert main(["restore", str(bad), "--database", url, "--yes"]) == 1
    message = one_line(capsys.readouterr().err)
    assert message.startswith("referee restore: ")
    if kind == "missing":
        assert f"there is no file {bad}" in message
    else:
        assert f"{bad} is not a SQLite database" in message
    if kind == "pg_dump":
        assert "restore it into PostgreSQL" in message
    assert sql_dump(path) == before
    assert not (tmp_path / "backups").exists()


def test_restore_refuses_a_sqlite_file_without_the_games_and_entries_tables_changing_nothing(live, tmp_path, capsys):
    _, url, path, _ = live
    other = tmp_path / "other.sqlite"
    with contextlib.closing(sqlite3.connect(other)) as conn:
        conn.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, name TEXT)")  # games, but no entries
        conn.execute("INSERT INTO games (name) VALUES ('chess')")
        conn.commit()
    before = sql_dump(path)
    assert main(["restore", str(other), "--database", url, "--yes"]) == 1
    assert f"{other} is a SQLite database but not a referee one: no entries table" in \
        one_line(capsys.readouterr().err)
    assert sql_dump(path) == before


def test_restore_refuses_a_damaged_backup_changing_nothing(live, tmp_path, capsys):
    _, url, path, _ = live
    out = backup.backup(url, tmp_path / "copy.sqlite").path
    data = bytearray(out.read_bytes())
    page = 4096
    assert len(data) > 2 * page
    data[page:] = b"\xa5" * (len(data) - page)  # every page after the first (the schema) overwritten
    out.write_bytes(bytes(data))
    before = sql_dump(path)
    assert main(["restore", str(out), "--database", url, "--yes"]) == 1
    message = one_line(capsys.readouterr().err)
    assert f"{out} " in message and ("integrity check" in message or "not a readable SQLite database" in message)
    assert sql_dump(path) == before


def test_restore_refuses_the_database_itself(live, capsys):
    _, url, path, _ = live
    before = sql_dump(path)
    assert main(["restore", str(path), "--database", url, "--yes"]) == 1
    assert "is the database itself" in one_line(capsys.readouterr().err)
    assert sql_dump(path) == before


def test_restore_waits_for_a_writer_and_gives_up_in_time_changing_nothing(live, tmp_path):
    _, url, path, golden = live
    out = backup.backup(url, tmp_path / "copy.sqlite").path
    before = sql_dump(path)
    writer = sqlite3.connect(path, isolation_level=None)
    try:
        writer.execute("BEGIN IMMEDIATE")
        with pytest.raises(backup.Busy, match="nothing was changed"):
            backup.restore(url, out, keep=False, timeout=0.5)
        writer.execute("ROLLBACK")
    finally:
        writer.close()
    assert sql_dump(path) == before
    assert backup.restore(url, out, keep=False, timeout=5).check.ok  # the lock released, it goes through


# --- which database, PostgreSQL ----------------------------------------------------------------------------------


def test_the_database_backed_up_is_the_one_the_app_is_configured_with(tmp_path, monkeypatch):
    instance = tmp_path / "instance"
    instance.mkdir()
    monkeypatch.delenv("DATABASE_URL", raising=False)
    assert backup.database_url(instance) == f"sqlite:///{instance / 'referee.sqlite'}"
    (instance / "config.py").write_text('SQLALCHEMY_DATABASE_URI = "postgresql+psycopg://ref@db/referee"\n')
    assert backup.database_url(instance) == "postgresql+psycopg://ref@db/referee"
    url = f"sqlite:///{tmp_path / 'env.sqlite'}"
    monkeypatch.setenv("DATABASE_URL", url)
    assert backup.database_url(instance) == url  # the environment wins, as in create_app
    monkeypatch.setenv("SECRET_KEY", "t")  # so create_app writes nothing in the real instance folder
    app = create_app()
    assert backup.database_url() == app.config["SQLALCHEMY_DATABASE_URI"] == url
    with app.app_context():
        db.engine.dispose()


def test_postgresql_urls_become_libpq_ones_with_the_password_kept_off_the_command_line():
    dsn, env = backup.libpq_dsn("postgresql+psycopg://ref:s%40cret@db.example:5433/referee?sslmode=require")
    assert dsn == "postgresql://ref@db.example:5433/referee?sslmode=require"
    assert env["PGPASSWORD"] == "s@cret"
    dsn, env = backup.libpq_dsn("postgresql+psycopg://postgres@/referee_test?host=/tmp/pg.x&port=54329")
    assert dsn == "postgresql://postgres@/referee_test?host=%2Ftmp%2Fpg.x&port=54329"
    assert "s@cret" not in backup.pg_restore_command("postgresql+psycopg://ref:s%40cret@db/referee", "b.dump")


def test_postgresql_without_the_client_tools_says_to_install_them(tmp_path, monkeypatch, capsys):
    empty = tmp_path / "bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    url = "postgresql+psycopg://ref:pw@/referee?host=/nonexistent"
    assert main(["backup", "--database", url, "--out", str(tmp_path / "b.dump")]) == 1
    message = one_line(capsys.readouterr().err)
    assert "pg_dump is not installed: install the PostgreSQL client tools" in message
    dump = tmp_path / "b.dump"
    assert not dump.exists()
    dump.write_bytes(b"PGDMP\x01\x0e\x00" + bytes(200))
    assert main(["restore", str(dump), "--database", url, "--yes"]) == 1
    assert "pg_restore is not installed: install the PostgreSQL client tools" in one_line(capsys.readouterr().err)


def test_unsupported_databases_are_refused_in_one_line(capsys):
    assert main(["backup", "--database", "mysql://ref@db/referee"]) == 1
    assert "not supported" in one_line(capsys.readouterr().err)
    assert main(["backup", "--database", "sqlite://"]) == 1
    assert "in-memory" in one_line(capsys.readouterr().err)


@pytest.fixture
def postgresql():
    url = os.environ.get("TEST_DATABASE_URL")
    if not url:
        pytest.skip("TEST_DATABASE_URL is not set: scripts/test starts a PostgreSQL server and sets it")
    missing = [tool for tool in ("pg_dump", "pg_restore") if shutil.which(tool) is None]
    if missing:
        pytest.skip(f"{' and '.join(missing)} not on PATH: install the PostgreSQL client tools")
    engine = sqlalchemy.create_engine(url)
    with engine.begin() as conn:
        conn.execute(sqlalchemy.text("DROP SCHEMA public CASCADE; CREATE SCHEMA public"))
    engine.dispose()
    return url


def test_postgresql_backup_and_restore_bring_back_the_database_at_backup_time(postgresql, tmp_path, monkeypatch,
                                                                               capsys):
    app = make_app(postgresql)

    def rows() -> list:
        with app.app_context():
            return [list(db.session.execute(sqlalchemy.text(f"SELECT * FROM {t} ORDER BY id")))
                    for t in ("games", "entries")]

    with app.app_context():
        golden = games.import_record(GOLDEN.read_text(encoding="utf-8"), PIN)
    out = tmp_path / "copy.dump"
    assert main(["backup", "--database", postgresql, "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "pg_dump custom format" in printed and "check: integrity ok; 1 game, 45 entries" in printed
    assert "pg_restore --clean --if-exists" in printed
    at_backup = rows()
    with app.app_context():
        games.record(golden, {"type": "roll", "player": "Ben", "dice": [1, 2]}, GOLDEN_ENTRIES)
        later = games.import_record(GOLDEN.read_text(encoding="utf-8"), PIN)
        db.session.delete(db.session.get(GameRow, golden))
        db.session.commit()
        db.engine.dispose()  # no pooled connection holds a table the restore drops

    not_a_dump = tmp_path / "copy.sqlite"
    not_a_dump.write_text("hello")
    assert main(["restore", str(not_a_dump), "--database", postgresql, "--yes"]) == 1
    assert "is not a pg_dump custom-format file" in one_line(capsys.readouterr().err)
    assert main(["restore", str(out), "--database", postgresql]) == 1
    assert "(1 game, 45 entries, 0 tournaments)" in one_line(capsys.readouterr().err)
    assert rows() != at_backup

    assert main(["restore", str(out), "--database", postgresql, "--yes"]) == 0
    assert "integrity ok; 1 game, 45 entries" in capsys.readouterr().out
    with app.app_context():
        db.engine.dispose()  # as restarting the app would
    assert rows() == at_backup
    assert export(app, golden) == golden_record()
    with app.app_context():
        assert db.session.get(GameRow, later) is None
    kept = list((tmp_path / "instance" / "backups").glob("*-before-restore.dump"))
    assert len(kept) == 1 and backup.plan_restore(postgresql, kept[0]).backup.counts.games == 1
    with app.app_context():
        db.engine.dispose()
