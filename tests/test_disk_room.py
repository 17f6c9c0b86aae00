"""The room on the disks the app writes to: the director's page warns while the disk holding the database (a SQLite
file's) or the backups is low on room (under LOW_DISK_MB, 200 MB by default, or 5% of a small disk), naming the disk
by what it holds and the room left, never its folder; a scheduled backup that would take the last of its disk's room
is skipped, said in the log and on the director's page, and the next one is made once there is room; and the
backups go to the instance folder's backups/ (as `referee backup` writes them) whatever the database file is called."""
import html
import logging
import re
from datetime import timedelta
from pathlib import Path

import pytest

from referee.store import backup
from referee import create_app
from referee.services import backups, storage
from test_database_failures import filled, small_disk
from test_scheduled_backups import (START, backups_time, director_text, first_table, make_app, new_tournament,
                                    play_one_entry, scheduled, table_in_play, with_clock)

GB = 1024 ** 3
MB = storage.MB


def fake_disks(monkeypatch, database: tuple[int, int, int], backups_disk: tuple[int, int, int], folder: Path):
    """The disk of each folder as (device, size, room left): ``folder`` (the backups') and what is under it on
    ``backups_disk``, every other folder (the database's) on ``database``."""
    def disk_of(path):
        inside = Path(path).resolve().is_relative_to(folder.resolve())
        return storage.Disk(*(backups_disk if inside else database))

    monkeypatch.setattr(storage, "disk_of", disk_of)


class Logged(logging.Handler):
    """What the app's log says from when it is attached (pytest's own capture is on the root logger, which alembic's
    logging set-up empties when the first app of a test process migrates its database)."""

    def __init__(self, app):
        super().__init__(logging.WARNING)
        self.lines: list[str] = []
        app.logger.addHandler(self)

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


def page_words(client, tid: int) -> str:
    """The director's page's words, as read."""
    return html.unescape(director_text(client, tid))


def live_version(client, tid: int) -> str:
    page = client.get(f"/tournaments/{tid}").get_data(as_text=True)
    return re.search(r'id="live-rounds" class="live" hx-get="([^"]+)"', page).group(1).replace("&amp;", "&")


def test_the_directors_page_warns_when_the_disk_holding_the_database_runs_low(tmp_path, monkeypatch):
    folder = tmp_path / "backups"
    app = make_app(f"sqlite:///{tmp_path / 'live.sqlite'}", folder)
    client = app.test_client()
    tid = new_tournament(client)
    fake_disks(monkeypatch, (1, 100 * GB, 10 * GB), (2, 100 * GB, 50 * GB), folder)
    assert "The disk that holds" not in page_words(client, tid)  # room on both disks: nothing said
    poll = live_version(client, tid)
    fake_disks(monkeypatch, (1, 100 * GB, 150 * MB), (2, 100 * GB, 50 * GB), folder)
    words = page_words(client, tid)
    assert ("The disk that holds the database has 150 MB left: when it is full, no entry can be recorded. Free "
            "space on it now.") in words
    assert "holds the backups" not in words and str(tmp_path) not in words
    r = client.get(poll)  # the live region drawn before the disk ran low is drawn again, with the warning
    assert r.status_code == 200 and "The disk that holds the database has 150 MB left" in r.get_data(as_text=True)


def test_one_disk_holding_the_database_and_the_backups_is_named_once_in_the_devices_language(tmp_path, monkeypatch):
    folder = tmp_path / "backups"
    app = make_app(f"sqlite:///{tmp_path / 'live.sqlite'}", folder)
    client = app.test_client()
    tid = new_tournament(client)
    client.get("/lang/ja")
    fake_disks(monkeypatch, (1, 500 * GB, 120 * MB), (1, 500 * GB, 120 * MB), folder)
    words = page_words(client, tid)
    assert words.count("データベースとバックアップのあるディスクの空きが残り 120 MB です。") == 1
    assert "データベースのあるディスク" not in words
    fake_disks(monkeypatch, (1, 500 * GB, 80 * GB), (2, 64 * GB, int(2.5 * GB) // 1000), folder)
    words = page_words(client, tid)
    assert "バックアップのあるディスクの空きが残り 2.6 MB です。" in words
    assert "空きが足りないと、次からのバックアップは取られません。" in words


def test_with_backups_off_the_page_warns_of_the_databases_disk_alone(tmp_path, monkeypatch):
    folder = tmp_path / "backups"
    app = make_app(f"sqlite:///{tmp_path / 'live.sqlite'}", folder, BACKUP_MINUTES=0)
    client = app.test_client()
    tid = new_tournament(client)
    fake_disks(monkeypatch, (1, 100 * GB, 40 * MB), (2, 100 * GB, 1 * MB), folder)
    words = page_words(client, tid)
    assert "Disk space The disk that holds the database has 40 MB left" in words
    assert "Backups" not in words and "holds the backups" not in words


def test_a_disk_is_low_under_200_mb_or_under_5_percent_of_a_small_disk():
    big, stick = 500 * GB, 128 * MB
    assert storage.Disk(1, big, 199 * MB).low(200) and not storage.Disk(1, big, 201 * MB).low(200)
    assert not storage.Disk(1, stick, 7 * MB).low(200) and storage.Disk(1, stick, 6 * MB).low(200)  # 6.4 MB kept
    assert not storage.Disk(1, big, 0).low(0)  # LOW_DISK_MB = 0: no room kept, no warning
    assert storage.Disk(1, big, 10 * MB).kept(50) == 50 * MB


def test_a_low_disk_setting_that_cannot_be_used_is_named_when_the_app_starts(tmp_path):
    with pytest.raises(backups.BadSetting, match="LOW_DISK_MB in instance/config.py must be a number of MB from 0"):
        make_app(f"sqlite:///{tmp_path / 'live.sqlite'}", tmp_path / "backups", LOW_DISK_MB="lots")


def test_a_backup_that_would_take_the_last_of_its_disks_room_is_skipped_said_and_the_next_made(tmp_path, monkeypatch):
    folder = tmp_path / "backups"
    app = make_app(f"sqlite:///{tmp_path / 'live.sqlite'}", folder)
    clock, scheduler, client, tid, game_id = table_in_play(app)
    fake_disks(monkeypatch, (1, 100 * GB, 10 * GB), (2, 100 * GB, 150 * MB), folder)  # under 200 MB and the database
    log = Logged(app)
    play_one_entry(app, client, game_id)
    scheduler.wait()
    app.logger.removeHandler(log)
    assert scheduled(folder) == []
    assert any(line.startswith("the scheduled backup was skipped: 157,286,400 bytes free") for line in log.lines)
    with app.app_context():
        skipped = backups.status(app.config, clock()).no_room
        size = storage.database_size(app.config["SQLALCHEMY_DATABASE_URI"])  # (its log has grown since)
    assert skipped.free == 150 * MB and 200 * MB < skipped.needed <= size + 200 * MB  # the database and 200 MB
    words = page_words(client, tid)
    assert (f"The backup at {backups_time(clock())} was skipped: the backups' disk had 150 MB left and a backup needs "
            f"200 MB (the database and the room kept free). Every entry is still recorded in the database") in words
    assert "The disk that holds the backups has 150 MB left" in words and str(tmp_path) not in words
    fake_disks(monkeypatch, (1, 100 * GB, 10 * GB), (2, 100 * GB, 50 * GB), folder)  # room made
    clock.advance(5)
    play_one_entry(app, client, game_id)
    scheduler.wait()
    assert len(scheduled(folder)) == 1
    words = page_words(client, tid)
    assert "skipped" not in words and f"Last backup at {backups_time(clock())}" in words


def test_on_a_real_small_disk_the_backup_that_would_fill_it_is_skipped_and_made_once_there_is_room(tmp_path):
    with small_disk(tmp_path / "stick", "2m") as stick:
        app = make_app(f"sqlite:///{tmp_path / 'live.sqlite'}", stick)
        clock, scheduler, client, tid, game_id = table_in_play(app)
        filler = filled(stick)
        play_one_entry(app, client, game_id)
        scheduler.wait()
        assert scheduled(stick) == [] and not list(stick.glob("*.partial"))
        with app.app_context():
            assert backups.status(app.config, clock()).no_room is not None
        filler.unlink()
        clock.advance(5)
        play_one_entry(app, client, game_id)
        scheduler.wait()
        assert len(scheduled(stick)) == 1


def test_scheduled_backups_of_a_database_file_elsewhere_go_to_the_instance_backups_folder(tmp_path):
    elsewhere = tmp_path / "ssd" / "referee.sqlite"
    elsewhere.parent.mkdir()
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False,
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{elsewhere}", "BACKUP_MINUTES": 5})
    assert backups.scheduler_of(app).plan.directory == Path(app.instance_path) / "backups"
    assert backup.backup_dir() == backup.INSTANCE / "backups"  # where `referee backup` writes them too
    instance = tmp_path / "instance"  # another instance folder: the backup is made there, not beside the database
    plan = backups.settings({"BACKUP_MINUTES": 5}, instance)
    with app.app_context():
        made = backups.take(f"sqlite:///{elsewhere}", plan, START + timedelta(minutes=1))
    assert made.path.parent == instance / "backups" and made.path.name.endswith("-auto.sqlite")
    assert not (elsewhere.parent / "backups").exists()


def test_a_backups_folder_named_through_a_folder_not_made_yet_is_looked_at_on_its_own_disk(tmp_path, monkeypatch):
    """BACKUP_DIR may go up from a folder that does not exist yet (``instance/not-yet/../../backups``): the disk
    looked at is the one the folder resolves to, not the nearest folder that exists on the way up the words."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    named = tmp_path / "instance" / "not-yet" / ".." / ".." / "elsewhere" / "backups"
    app = make_app(f"sqlite:///{tmp_path / 'db.sqlite'}", named)
    looked_at = []
    monkeypatch.setattr(storage, "disk_of", lambda folder: looked_at.append(Path(folder)) or storage.Disk(1, GB, GB))
    with app.app_context():
        backups.low_disks(app)
    assert elsewhere / "backups" in looked_at and not any(".." in folder.parts for folder in looked_at)
