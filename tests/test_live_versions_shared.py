"""A live page's version is worked out once for every device that follows it, not once per device
(referee/services/latest.py): the room displays, the public standings on the players' phones and the director's
devices asking every second cost the reads once; a change recorded through the app is seen by the next device that
asks, at once; a change this process did not make (another worker's, another host's) is seen within
LATEST_SECONDS; and a read that began before a commit is never given out as the answer after it."""
import re

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.orm import Session

from referee import create_app
from referee.services import latest as latest_module, tournaments
from referee.services.latest import LATEST_SECONDS, latest
from referee.store.db import commits, db

from test_director_poll_cost import Counted, roll, seated

HX = {"HX-Request": "true"}


@pytest.fixture
def app(tmp_path):
    return create_app({"TESTING": True, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False,
                       "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 't.sqlite'}"})


@pytest.fixture
def clock(monkeypatch):
    """The services' monotonic clock, moved on by hand."""
    now = [1000.0]
    monkeypatch.setattr(latest_module, "clock", lambda: now[0])
    return now


def version_in(page: str, region: str) -> str:
    tag = re.search(rf'<div id="{region}"[^>]*>', page).group(0)
    return (re.search(r'data-version="([^"]+)"', tag) or re.search(r'[?&](?:amp;)?v=([^"&]+)', tag)).group(1)


PAGES = {"room display": ("/tournaments/{tid}/display", "display-live"),
         "public standings": ("/tournaments/{tid}/standings", "standings-live")}


@pytest.mark.parametrize("page", PAGES)
def test_many_devices_following_a_page_cost_the_reads_once(app, clock, page):
    tid, _ = seated(app, 8)
    path, region = (p.format(tid=tid) if i == 0 else p for i, p in enumerate(PAGES[page]))
    devices = [app.test_client() for _ in range(20)]
    drawn = devices[0].get(path).get_data(as_text=True)
    version = version_in(drawn, region)
    counted = Counted(app)
    first = counted.get(devices[1], f"{path}?v={version}")
    assert first.status_code == 204
    for device in devices[2:]:
        clock[0] += LATEST_SECONDS / 40  # nineteen devices within the same half second
        assert counted.get(device, f"{path}?v={version}").status_code == 204
        assert counted.statements == 0, page  # the answer worked out for the first, given to each


def test_a_change_recorded_through_the_app_is_seen_by_the_next_device_at_once(app, clock):
    tid, ids = seated(app, 4)
    room, phone = app.test_client(), app.test_client()
    display = room.get(f"/tournaments/{tid}/display").get_data(as_text=True)
    version = version_in(display, "display-live")
    assert room.get(f"/tournaments/{tid}/display?v={version}", headers=HX).status_code == 204
    before = commits()
    roll(app, ids[2])  # an entry at table 3, no time passing
    assert commits() > before
    changed = phone.get(f"/tournaments/{tid}/display?v={version}", headers=HX)
    assert changed.status_code == 200
    assert version_in(changed.get_data(as_text=True), "display-live") != version


def test_a_change_another_process_made_is_seen_within_latest_seconds(app, clock):
    tid, ids = seated(app, 4)
    room = app.test_client()
    version = version_in(room.get(f"/tournaments/{tid}/display").get_data(as_text=True), "display-live")
    assert room.get(f"/tournaments/{tid}/display?v={version}", headers=HX).status_code == 204
    # another worker on the same database moves table 2's clock on: a commit this process does not count
    elsewhere = create_engine(app.config["SQLALCHEMY_DATABASE_URI"])
    with elsewhere.begin() as connection:
        connection.execute(text("UPDATE games SET clock_elapsed_seconds = clock_elapsed_seconds + 60 WHERE id = :id"),
                           {"id": ids[1]})
    elsewhere.dispose()
    clock[0] += LATEST_SECONDS / 2
    assert room.get(f"/tournaments/{tid}/display?v={version}", headers=HX).status_code == 204  # not seen yet
    clock[0] += LATEST_SECONDS / 2
    changed = room.get(f"/tournaments/{tid}/display?v={version}", headers=HX)
    assert changed.status_code == 200  # seen at LATEST_SECONDS


def test_a_read_begun_before_a_commit_is_not_the_answer_after_it(app, clock):
    tid, _ = seated(app, 2)
    reads = []

    def read():
        reads.append(tournaments.tournament_version(tid))
        return reads[-1]

    with app.app_context():
        db.session.execute(text("SELECT 1"))  # this unit of work has begun reading
        with Session(db.engine) as other:  # another request commits meanwhile
            other.execute(text("UPDATE games SET title = title"))
            other.commit()
        latest("tournament", tid, read)  # read in the unit of work begun before that commit
        db.session.rollback()  # that unit of work over (nothing committed); the next begins after the commit
        latest("tournament", tid, read)
        assert len(reads) == 2  # read again: the first might not have seen the commit
        latest("tournament", tid, read)
        assert len(reads) == 2  # and that answer, read after it, given again


@pytest.mark.parametrize("page", ["live", "display"])
def test_a_changed_poll_of_a_tournament_page_reads_its_version_once_though_a_commit_comes_between(app, clock,
                                                                                                   monkeypatch, page):
    """The poll's version is read before Flask's request (to answer 204 when it is unchanged); a changed poll's view
    draws the page at that version, not reading it again: with some twenty commits a second in a room of 64 tables,
    one often comes between the two reads, which the shared version then cannot serve."""
    tid, ids = seated(app, 3)
    director = app.test_client()
    director.post(f"/tournaments/{tid}/unlock", data={"pin": "135791"})
    first = director.get(f"/tournaments/{tid}/{page}?v=none", headers=HX)
    assert first.status_code == 200
    read = []
    real = tournaments.tournament_version
    monkeypatch.setattr(tournaments, "tournament_version", lambda t: read.append(t) or real(t))
    roll(app, ids[0])
    monkeypatch.setattr(latest_module, "commits", lambda: len(read))  # a commit after each read: none is shared
    changed = director.get(f"/tournaments/{tid}/{page}?v=before", headers=HX)
    assert changed.status_code == 200 and read == [tid]
    with app.app_context():  # drawn at the version read before Flask's request, which counts the entry
        assert tournaments.live_version(tid).token in changed.get_data(as_text=True)
