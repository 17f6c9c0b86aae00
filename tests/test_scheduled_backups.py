"""Backups the app takes while it serves (services/backups.py): one every BACKUP_MINUTES while a game is in play,
one per interval whatever the number of worker processes, the last BACKUPS_KEPT kept, the last one (or its
failure) on the director's page; and a scheduled backup restored into a fresh instance serves its tournament."""
import json
import threading
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from referee.store import backup
from referee import create_app
from referee.cli import main
from referee.store.db import db
from referee.services import backups, folds, tournaments

START = datetime(2026, 11, 26, 9, 0, 0)  # the fake clock's first reading (UTC)
PIN = "135791"


def make_app(url: str, folder, **settings):
    return create_app({"TESTING": True, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False, "SQLALCHEMY_DATABASE_URI": url,
                       "BACKUP_MINUTES": 5, "BACKUPS_KEPT": 3, "BACKUP_DIR": str(folder), **settings})


class FakeClock:
    def __init__(self):
        self.now = START

    def __call__(self) -> datetime:
        return self.now

    def advance(self, minutes: float) -> None:
        self.now += timedelta(minutes=minutes)


def with_clock(app) -> FakeClock:
    clock = FakeClock()
    backups.scheduler_of(app).clock = clock
    return clock


def new_tournament(client) -> int:
    r = client.post("/tournaments", data={"name": "Cup", "scheme": "jma-placement", "ruleset": "jma-2006",
                                          "players": "\n".join(f"P{i}" for i in range(8)), "pin": PIN,
                                          "round_minutes": "70"})
    tid = int(r.headers["Location"].rsplit("/", 1)[1])
    client.post(f"/tournaments/{tid}/rounds", data={"round": "1"})
    return tid


def play_one_entry(app, client, game_id: int) -> None:
    """The table's referee taps the next seating roll on the table screen (the form the screen sends)."""
    with app.app_context():
        table = folds.load(game_id)
        who = table.game.state.players[table.game.state.pending.waiting[0]].name
        seq = table.seq
    dice = f"{1 + seq % 6},{1 + (seq * 5) % 6}"
    r = client.post(f"/games/{game_id}/record", data={"seq": seq, "dice": dice,
                                                      "entry": json.dumps({"type": "seat_roll", "player": who})})
    assert r.status_code in (302, 303), r.get_data(as_text=True)


def first_table(app, tid: int) -> int:
    with app.app_context():
        return tournaments.round_overview(tid, 1)[0].game_id


def table_in_play(app):
    """A tournament seated on the app, its scheduler's first look taken, and the clock a minute on: (clock,
    scheduler, client, tournament, its first table's game)."""
    clock, scheduler = with_clock(app), backups.scheduler_of(app)
    client = app.test_client()
    tid = new_tournament(client)
    game_id = first_table(app, tid)
    scheduler.wait()
    clock.advance(1)
    return clock, scheduler, client, tid, game_id


def scheduled(folder) -> list:
    return sorted(p.name for p in folder.glob("referee-*-auto*") if not p.name.endswith(".partial"))


def director_text(client, tid: int) -> str:
    import re

    page = client.get(f"/tournaments/{tid}").get_data(as_text=True)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))


def test_backups_are_taken_every_interval_during_a_played_round_the_last_k_kept_and_shown(database, tmp_path):
    folder = tmp_path / "backups"
    app = make_app(database, folder)
    clock, scheduler = with_clock(app), backups.scheduler_of(app)
    client = app.test_client()
    tid = new_tournament(client)
    scheduler.wait()
    assert scheduled(folder) == []  # seated, nothing played yet: no game in play
    assert "No backup taken yet. One every 5 minutes while a game is in play; the last 3 are kept." in \
        director_text(client, tid)
    scheduler.wait()
    clock.advance(1)
    game_id = first_table(app, tid)
    folder.mkdir(exist_ok=True)
    by_hand = folder / "referee-20261126-080000.sqlite"  # a backup taken by hand is never removed
    by_hand.write_bytes(b"kept")
    made = []
    for interval in range(5):
        play_one_entry(app, client, game_id)
        scheduler.wait()
        made.append(scheduled(folder))
        clock.advance(1)  # a minute later: not due again
        client.get(f"/games/{game_id}")
        scheduler.wait()
        assert scheduled(folder) == made[-1]
        clock.advance(4)
    assert [len(m) for m in made] == [1, 2, 3, 3, 3]  # one per interval, the last three kept
    assert made[-1][-1] != made[-2][-1] and made[-1][0] == made[-2][1]  # the oldest goes first
    assert by_hand.read_bytes() == b"kept"
    with app.app_context():
        state = backups.status(app.config, clock())
        assert state.last_at == START + timedelta(minutes=21) and not state.failing
        assert state.file_name == made[-1][-1]
        latest = folder / made[-1][-1]
        assert backup.plan_restore(database, latest).backup.counts.entries == 5  # the fifth entry is in it
    words = director_text(client, tid)
    assert f"Last backup at {backups_time(state.last_at)}: {made[-1][-1]}." in words


def backups_time(moment: datetime) -> str:
    from referee.screens.devices import clock_time

    return clock_time(moment)


def test_several_worker_processes_take_one_backup_per_interval(tmp_path):
    """Four apps on one database (as four gunicorn workers are), each with its own connections, all due at once."""
    url, folder = f"sqlite:///{tmp_path / 'live.sqlite'}", tmp_path / "backups"
    workers = [make_app(url, folder) for _ in range(4)]
    clocks = [with_clock(app) for app in workers]
    client = workers[0].test_client()
    tid = new_tournament(client)
    play_one_entry(workers[0], client, first_table(workers[0], tid))
    for interval in range(2):
        start = threading.Barrier(len(workers))

        def request_ends(app):
            start.wait()
            backups.scheduler_of(app).poke()

        threads = [threading.Thread(target=request_ends, args=(app,)) for app in workers]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        for app in workers:
            backups.scheduler_of(app).wait()
        assert len(scheduled(folder)) == interval + 1
        for clock in clocks:
            clock.advance(5)


def test_only_one_claim_per_interval_succeeds_whoever_asks_at_once(tmp_path):
    url = f"sqlite:///{tmp_path / 'live.sqlite'}"
    workers = [make_app(url, tmp_path / "backups") for _ in range(6)]
    every = timedelta(minutes=5)
    start, won = threading.Barrier(len(workers)), []

    def ask(app):
        with app.app_context():
            start.wait()
            won.append(backups.claim(START, every))
            db.session.remove()

    threads = [threading.Thread(target=ask, args=(app,)) for app in workers]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(won) == [False] * 5 + [True]
    with workers[0].app_context():
        assert not backups.claim(START + every - timedelta(seconds=1), every)
        assert backups.claim(START + every, every)


def test_a_backup_that_fails_shows_on_the_directors_page_until_one_is_made(tmp_path):
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the backups' folder should be")
    app = make_app(f"sqlite:///{tmp_path / 'live.sqlite'}", blocked / "backups")
    clock, scheduler, client, tid, game_id = table_in_play(app)
    play_one_entry(app, client, game_id)
    scheduler.wait()
    words = director_text(client, tid)
    assert f"The backup at {backups_time(clock())} failed (" in words and "not-a-folder" in words
    assert "check that the backup folder exists" in words
    assert "Every entry is still recorded in the database; the next backup is tried in 5 minutes." in words
    scheduler.plan = backups.Settings(5, 3, tmp_path / "backups")  # the director frees the folder
    clock.advance(5)
    play_one_entry(app, client, game_id)
    scheduler.wait()
    words = director_text(client, tid)
    assert "failed" not in words and f"Last backup at {backups_time(clock())}" in words


def test_the_live_region_is_sent_again_when_a_backup_is_made(tmp_path):
    import re

    app = make_app(f"sqlite:///{tmp_path / 'live.sqlite'}", tmp_path / "backups")
    clock, scheduler = with_clock(app), backups.scheduler_of(app)
    client = app.test_client()
    tid = new_tournament(client)
    play_one_entry(app, client, first_table(app, tid))
    scheduler.wait()
    page = client.get(f"/tournaments/{tid}").get_data(as_text=True)
    url = re.search(r'id="live-rounds" class="live" hx-get="([^"]+)"', page).group(1).replace("&amp;", "&")
    assert client.get(url).status_code == 204
    clock.advance(5)
    client.get(f"/tournaments/{tid}/standings")  # any request: the next backup is due and taken
    scheduler.wait()
    r = client.get(url)
    assert r.status_code == 200 and f"Last backup at {backups_time(clock())}" in r.get_data(as_text=True)


@pytest.mark.parametrize("setting, value, says", [
    ("BACKUP_MINUTES", "five", "BACKUP_MINUTES in instance/config.py must be a number of minutes from 0"),
    ("BACKUP_MINUTES", -1, "BACKUP_MINUTES in instance/config.py must be a number of minutes from 0"),
    ("BACKUPS_KEPT", 0, "BACKUPS_KEPT in instance/config.py must be a whole number from 1 to 1000"),
    ("BACKUPS_KEPT", 2.5, "BACKUPS_KEPT in instance/config.py must be a whole number from 1 to 1000"),
])
def test_a_backup_setting_that_cannot_be_used_is_named_when_the_app_starts(tmp_path, setting, value, says):
    with pytest.raises(backups.BadSetting, match=says):
        make_app(f"sqlite:///{tmp_path / 'live.sqlite'}", tmp_path / "backups", **{setting: value})


def test_no_backup_is_scheduled_when_backup_minutes_is_zero(tmp_path):
    app = make_app(f"sqlite:///{tmp_path / 'live.sqlite'}", tmp_path / "backups", BACKUP_MINUTES=0)
    client = app.test_client()
    tid = new_tournament(client)
    play_one_entry(app, client, first_table(app, tid))
    backups.scheduler_of(app).wait()
    assert not (tmp_path / "backups").exists() and "Backups" not in director_text(client, tid)


def test_a_scheduled_backup_restored_into_a_fresh_instance_serves_its_tournament(tmp_path, capsys):
    folder = tmp_path / "backups"
    app = make_app(f"sqlite:///{tmp_path / 'live.sqlite'}", folder)
    clock = with_clock(app)
    client = app.test_client()
    tid = new_tournament(client)
    game_id = first_table(app, tid)
    backups.scheduler_of(app).wait()
    clock.advance(1)
    play_one_entry(app, client, game_id)
    backups.scheduler_of(app).wait()
    [made] = scheduled(folder)
    spare = tmp_path / "spare" / "instance" / "referee.sqlite"  # the spare machine's instance folder, empty
    assert main(["restore", str(folder / made), "--database", str(spare), "--yes"]) == 0  # as the README's drill
    assert "integrity ok; 2 games, 1 entry, 1 tournament" in capsys.readouterr().out
    restored = create_app({"TESTING": True, "SECRET_KEY": "other", "WTF_CSRF_ENABLED": False,
                           "SQLALCHEMY_DATABASE_URI": f"sqlite:///{spare}"})
    spare_client = restored.test_client()
    standings = spare_client.get(f"/tournaments/{tid}/standings")
    assert standings.status_code == 200 and "Cup" in standings.get_data(as_text=True)
    assert spare_client.get(f"/tournaments/{tid}").status_code in (302, 303)  # the director's PIN is asked for
    r = spare_client.post(f"/tournaments/{tid}/unlock", data={"pin": PIN})
    assert r.status_code in (302, 303)
    table = spare_client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "P" in table and "seating roll" in table


def test_a_relative_backup_folder_is_in_the_instance_folder(tmp_path):
    app = make_app(f"sqlite:///{tmp_path / 'live.sqlite'}", "spare-copies")
    assert backups.scheduler_of(app).plan.directory == Path(app.instance_path) / "spare-copies"
