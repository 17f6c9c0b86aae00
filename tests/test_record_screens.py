"""A tablet's tap sent as a plain form (before its standby is ready, or a browser without scripts) is answered 303,
and the tablet loads the table's screen it is sent on to.  That screen is made by the record's own request, which
has the game in hand, and kept under a one-time name its address carries (``/games/<id>?said=<name>``,
``table_live.made_after``): the screen's request is answered before Flask makes a request of it, with the page
kept, as the views would draw it.  The record's notice goes with the screen, not in the session's cookie, and is
shown once, on the device's next screen of the table (both of a double tap's notices there).  Whatever the kept page
cannot answer goes to the views, with the notice: another device asking, the game moved on meanwhile, a second
screen waiting."""
import html
import json
import re

from conftest import post
from test_changed_table_polls import next_entry, plain, table
from test_unchanged_polls import requests_made  # noqa: F401 (a fixture)

from referee.services import clocks, folds, stamps
from referee.store.db import db
from referee.store.models import GameRow
from referee.web import access, polls
from referee.web.views import table_live

NOTICE = re.compile(r"<main>(.*?)<div id=\"tablelive\"", re.S)


def recorded(app, game_id: int, tablet, seed: int = 0):
    """The tablet records the next legal entry as its plain form sends it: the record's answer (303)."""
    seq, entry = next_entry(app, game_id, seed)
    answer = tablet.post(f"/games/{game_id}/record", data={"seq": seq, "entry": json.dumps(entry)})
    assert answer.status_code == 303, answer.get_data(as_text=True)
    return answer


def notices(page: str) -> str:
    """The notices above a table screen's live region."""
    return NOTICE.search(page).group(1)


def learnt(app, game_id, tablets) -> None:
    """A first record's screen answered by the views (which teach the headers of one answered early)."""
    answer = recorded(app, game_id, tablets[0], 1)
    assert tablets[0].get(answer.headers["Location"]).status_code == 200


def test_a_records_screen_is_answered_before_flasks_request_as_the_views_draw_it(app, requests_made, monkeypatch):
    game_id, _, tablets, _, _, _ = table(app)
    learnt(app, game_id, tablets)
    answer = recorded(app, game_id, tablets[0], 2)
    assert answer.headers["Location"].startswith(f"/games/{game_id}?said=")
    requests_made.clear()
    early = tablets[0].get(answer.headers["Location"])
    assert requests_made == [] and early.status_code == 200
    page = early.get_data(as_text=True)
    assert 'class="flash done"' in notices(page)  # the record's notice, on the screen it leads to
    with app.app_context():
        now = folds.load(game_id)
        assert f'data-seq="{now.seq}"' in page and f'data-version="{stamps.poll_version(game_id)}"' in page
    by_view = tablets[0].get(f"/games/{game_id}")  # the same table drawn by the views (its notice shown already)
    assert requests_made == [f"/games/{game_id}"]
    drawn = by_view.get_data(as_text=True)
    assert notices(drawn).strip() == ""
    assert plain(NOTICE.sub("", page)) == plain(NOTICE.sub("", drawn))
    monkeypatch.setattr(polls.UnchangedPolls, "said", lambda *args: None)  # the views answer a record's screen
    views_said = tablets[0].get(recorded(app, game_id, tablets[0], 3).headers["Location"])
    assert dict(early.headers) == {**dict(views_said.headers), "Content-Length": early.headers["Content-Length"]}
    assert "Cookie" in early.headers["Vary"] and "Set-Cookie" not in early.headers
    # its form records (its token is the device's, its key its own)
    seq, entry = next_entry(app, game_id, 4)
    assert post(tablets[0], game_id, seq, entry).status_code == 200
    with app.app_context():
        assert folds.load(game_id).seq == seq + 1


def test_the_records_notice_stays_out_of_the_cookie_and_is_shown_once(app):
    game_id, _, tablets, _, _, _ = table(app)
    answer = recorded(app, game_id, tablets[0])
    with tablets[0].session_transaction() as session:
        assert "_flashes" not in session
    first = tablets[0].get(answer.headers["Location"]).get_data(as_text=True)
    assert 'class="flash done"' in notices(first)
    again = tablets[0].get(answer.headers["Location"]).get_data(as_text=True)  # reloaded: drawn, nothing said
    assert notices(again).strip() == ""


def test_another_device_asking_for_a_records_screen_is_drawn_its_own_without_the_notice(app, requests_made):
    game_id, _, tablets, _, _, _ = table(app)
    learnt(app, game_id, tablets)
    answer = recorded(app, game_id, tablets[0], 2)
    requests_made.clear()
    other = tablets[1].get(answer.headers["Location"])  # the same table's other tablet, at the first one's address
    assert other.status_code == 200 and requests_made == [f"/games/{game_id}"]
    assert notices(other.get_data(as_text=True)).strip() == ""
    requests_made.clear()
    own = tablets[0].get(answer.headers["Location"])
    assert requests_made == [] and 'class="flash done"' in notices(own.get_data(as_text=True))


def test_a_records_screen_after_the_game_moved_on_is_drawn_now_with_its_notice(app, requests_made):
    game_id, _, tablets, _, _, _ = table(app)
    learnt(app, game_id, tablets)
    answer = recorded(app, game_id, tablets[0], 2)
    recorded(app, game_id, tablets[1], 3)  # the other tablet records meanwhile
    requests_made.clear()
    page = tablets[0].get(answer.headers["Location"]).get_data(as_text=True)
    assert requests_made == [f"/games/{game_id}"]
    with app.app_context():
        assert f'data-seq="{folds.load(game_id).seq}"' in page
    assert 'class="flash done"' in notices(page)


def test_two_taps_screens_waiting_show_both_notices_in_order_on_the_next(app, requests_made):
    game_id, _, tablets, _, _, _ = table(app)
    learnt(app, game_id, tablets)
    first = recorded(app, game_id, tablets[0], 2)
    second = recorded(app, game_id, tablets[0], 3)  # the first screen never loaded (the browser went on)
    requests_made.clear()
    page = html.unescape(tablets[0].get(second.headers["Location"]).get_data(as_text=True))
    assert requests_made == [f"/games/{game_id}"]
    said = notices(page)
    assert said.count('class="flash done"') == 2
    with app.app_context():
        entries = folds.load(game_id).game.entries
    assert first.status_code == second.status_code == 303 and len(entries) >= 3


def test_a_forged_records_screen_address_is_drawn_by_the_views(app):
    game_id, _, tablets, _, _, _ = table(app)
    learnt(app, game_id, tablets)
    recorded(app, game_id, tablets[0], 2)
    for said in ("x" * 1_000_000, "%00", "\u30c6", "a&said=b", "", "a" * 40):
        answer = tablets[1].get(f"/games/{game_id}?said={said}")
        assert answer.status_code == 200, said
        assert notices(answer.get_data(as_text=True)).strip() == ""


def test_a_notice_flashed_before_a_record_is_kept_with_its_screen_whoever_draws_it(app, requests_made):
    game_id, _, tablets, _, _, _ = table(app)
    learnt(app, game_id, tablets)
    stale = tablets[0].post(f"/games/{game_id}/record", data={"seq": 0, "entry": json.dumps(
        {"type": "roll", "player": "nobody"})})  # refused (a stale screen): flashed, its screen never loaded
    assert stale.status_code == 303 and "said=" not in stale.headers["Location"]
    answer = recorded(app, game_id, tablets[0], 2)
    recorded(app, game_id, tablets[1], 3)  # the game moves on: the views draw the first tablet's screen
    page = tablets[0].get(answer.headers["Location"]).get_data(as_text=True)
    said = notices(page)
    assert 'class="flash refused"' in said and 'class="flash done"' in said
    assert said.index('class="flash refused"') < said.index('class="flash done"')  # in the order they came


def test_a_notice_flashed_before_a_record_shows_once_on_the_page_answered_early(app, requests_made):
    game_id, _, tablets, _, _, _ = table(app)
    learnt(app, game_id, tablets)
    tablets[0].post(f"/games/{game_id}/record", data={"seq": 0, "entry": json.dumps(
        {"type": "roll", "player": "nobody"})})  # refused (a stale screen): flashed, its screen never loaded
    answer = recorded(app, game_id, tablets[0], 2)
    requests_made.clear()
    said = notices(tablets[0].get(answer.headers["Location"]).get_data(as_text=True))
    assert requests_made == []
    assert said.count('class="flash refused"') == 1 and said.count('class="flash done"') == 1
    assert said.index('class="flash refused"') < said.index('class="flash done"')


def test_a_records_screen_asked_otherwise_than_it_was_drawn_or_late_is_drawn_by_the_views(app, requests_made,
                                                                                          monkeypatch):
    game_id, _, tablets, _, _, _ = table(app)
    learnt(app, game_id, tablets)
    answer = recorded(app, game_id, tablets[0], 2)
    tablets[0].set_cookie("lang", "ja")  # the device's language changed meanwhile
    requests_made.clear()
    page = tablets[0].get(answer.headers["Location"]).get_data(as_text=True)
    assert requests_made == [f"/games/{game_id}"] and '<html lang="ja">' in page
    assert 'class="flash done"' in notices(page)
    tablets[0].delete_cookie("lang")
    monkeypatch.setattr(table_live, "SAID_SECONDS", -1)  # drawn too long ago (its clock's reading the POST's)
    answer = recorded(app, game_id, tablets[0], 3)
    requests_made.clear()
    page = tablets[0].get(answer.headers["Location"]).get_data(as_text=True)
    assert requests_made == [f"/games/{game_id}"] and 'class="flash done"' in notices(page)


def test_in_several_worker_processes_a_records_notice_is_flashed_as_before(app):
    """The screen's request may reach another process, which keeps nothing of the first's: the notice goes in the
    session's cookie, the screen drawn by the views wherever it is asked for."""
    app.extensions[access.WORKER_PROCESSES] = 4
    game_id, _, tablets, _, _, _ = table(app)
    answer = recorded(app, game_id, tablets[0])
    assert answer.headers["Location"] == f"/games/{game_id}"
    with tablets[0].session_transaction() as session:
        assert session["_flashes"]
    assert 'class="flash done"' in notices(tablets[0].get(answer.headers["Location"]).get_data(as_text=True))


def test_a_record_that_stops_the_game_clock_leads_to_its_screen_with_the_clock_stopped_answered_as_kept(
        app, requests_made):
    """The game clock stops with the game (time called: JMA competition rules 2006, 補足ルール, the time-limit game):
    the screen the record leads to is drawn from the row as that record leaves it, the clock stopped, at the version
    a poll then reads, so it is answered as it was kept."""
    game_id, _, tablets, _, _, _ = table(app)
    learnt(app, game_id, tablets)
    with app.app_context():
        db.session.get(GameRow, game_id).time_limit_minutes = 60
        db.session.commit()
        clocks.set_clock(game_id, True)
        seq = folds.load(game_id).seq
    answer = tablets[0].post(f"/games/{game_id}/record",
                             data={"seq": seq, "entry": json.dumps({"type": "time_called"})})
    assert answer.status_code == 303 and "?said=" in answer.headers["Location"], answer.get_data(as_text=True)
    requests_made.clear()
    early = tablets[0].get(answer.headers["Location"])
    assert requests_made == [] and early.status_code == 200
    page = html.unescape(early.get_data(as_text=True))
    with app.app_context():
        now = folds.load(game_id)
        assert now.game.state.time_called and not clocks.clock(now.row).running
        assert f'data-version="{stamps.poll_version(game_id)}"' in page
    assert "(stopped)" in page
