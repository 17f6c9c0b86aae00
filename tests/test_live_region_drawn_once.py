"""A table's live region is drawn once for every device that shows the table at a version (the second tablet's poll
finds the drawing the first tablet's screen made): what differs from one device or one moment to the next is its
own in each answer, the form token of the device's session, a form key never given to another device, the clock as
it reads at the answer, and the message of the device's own tap."""
import re
from datetime import timedelta


from conftest import new_game, templates_drawn
from test_live_table import HX, live_version
from test_table_words import record, roll

from referee.services import clocks
from referee.web.views import table_live as table_views
from test_record_chain import sql

MARKS = (table_views.TOKEN_MARK, table_views.KEY_MARK, table_views.CLOCK_MARK, table_views.ELAPSED_MARK,
         table_views.MESSAGE_MARK, table_views.LIVE_MARK, table_views.FLASHES_MARK)


def unmarked(text: str) -> bool:
    return not any(mark in text for mark in MARKS)


def own(text: str) -> tuple[set[str], set[str]]:
    """A screen's form tokens and form keys."""
    return (set(re.findall(r'name="csrf_token" value="([^"]+)"', text)),
            set(re.findall(r'name="entry_key" value="([^"]+)"', text)))


def region_of(page: str) -> str:
    """The live region of a page, or of htmx's answer."""
    return page[page.index('<div id="tablelive"'):page.rindex("</main>") if "</main>" in page else None]


def test_the_second_tablets_poll_is_the_first_tablets_drawing_with_its_own_token_and_key(app, client):
    game_id = new_game(client)
    record(client, game_id, roll("Aki", 1, 3))
    second = app.test_client()
    assert second.post(f"/games/{game_id}/unlock", data={"pin": "123456"}).status_code == 302
    version = live_version(second.get(f"/games/{game_id}").get_data(as_text=True))
    with templates_drawn(app) as names:
        record(client, game_id, roll("Ben", 4, 6))  # the tap (to Just Visiting), and the screen it brings
        first = client.get(f"/games/{game_id}").get_data(as_text=True)  # the screen loaded again
        polled = second.get(f"/games/{game_id}?v={version}", headers=HX).get_data(as_text=True)
    assert names.count("table/_live.html") == 1  # drawn once, for the three answers
    assert "waiting for Chie to roll" in polled and live_version(polled) == live_version(first)
    (first_tokens, first_keys), (tokens, keys) = own(first), own(polled)
    assert len(first_keys) == len(keys) == 1 and first_keys != keys  # each answer its own form key
    assert unmarked(first) and unmarked(polled)
    for token, key in ((t, k) for t in tokens for k in keys):  # the second tablet records with its own form
        r = second.post(f"/games/{game_id}/record", data={
            "seq": 2, "entry": '{"type": "roll", "player": "Chie"}', "dice": "1,2", "csrf_token": token,
            "entry_key": key}, headers=HX)
        assert r.status_code == 200 and "Chie" in r.get_data(as_text=True)
        break
    # the same drawing, the device's values apart
    def same(text: str) -> str:
        text = re.sub(r'(name="(csrf_token|entry_key)" value=")[^"]+', r"\1", region_of(text))
        return re.sub(r"(&#34;csrf&#34;: &#34;)[^&]+", r"\1", text).strip()

    assert same(polled) == same(first)


def test_the_clock_in_a_kept_drawing_reads_as_at_the_answer(app, client, monkeypatch):
    game_id = new_game(client, players="Aki\nBen\nChie")
    with app.app_context():
        from referee.store.db import db
        from referee.store.models import GameRow
        db.session.get(GameRow, game_id).time_limit_minutes = 60
        db.session.commit()
        clocks.set_clock(game_id, True)
    other = app.test_client()
    assert other.post(f"/games/{game_id}/unlock", data={"pin": "123456"}).status_code == 302
    first = client.get(f"/games/{game_id}").get_data(as_text=True)
    left = int(re.search(r'class="clock[^"]*" data-left="(\d+)"', first).group(1))
    now = clocks.utcnow()
    monkeypatch.setattr(clocks, "utcnow", lambda: now + timedelta(seconds=125))
    later = other.get(f"/games/{game_id}").get_data(as_text=True)  # the same version: the kept drawing
    assert live_version(later) == live_version(first)
    assert int(re.search(r'class="clock[^"]*" data-left="(\d+)"', later).group(1)) in range(left - 127, left - 122)
    elapsed = float(re.search(r'&#34;elapsed&#34;: ([0-9.]+)', later).group(1))
    assert 124 <= elapsed <= 130


def test_a_taps_message_is_its_own_and_a_poll_after_it_has_none(app, client):
    game_id = new_game(client)
    other = app.test_client()
    assert other.post(f"/games/{game_id}/unlock", data={"pin": "123456"}).status_code == 302
    version = live_version(other.get(f"/games/{game_id}").get_data(as_text=True))
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    token, key = (next(iter(values)) for values in own(page))
    tapped = client.post(f"/games/{game_id}/record", data={
        "seq": 0, "entry": '{"type": "roll", "player": "Aki"}', "dice": "1,3", "csrf_token": token,
        "entry_key": key}, headers=HX).get_data(as_text=True)
    assert 'class="flash done"' in tapped and "Aki" in tapped
    polled = other.get(f"/games/{game_id}?v={version}", headers=HX).get_data(as_text=True)
    assert live_version(polled) == live_version(tapped) and 'class="flash done"' not in polled
    assert unmarked(polled) and unmarked(tapped)


def test_a_record_altered_behind_the_apps_back_shows_on_a_screen_drawn_before(app, client):
    game_id = new_game(client)
    record(client, game_id, roll("Aki", 1, 3), roll("Ben", 4, 6))
    assert "altered" not in client.get(f"/games/{game_id}").get_data(as_text=True)  # drawn, and kept
    sql(app, "UPDATE entries SET data = :d, hash = :h WHERE game_id = :g AND seq = 2",
        d='{"type": "roll", "player": "Ben", "dice": [6, 6]}', h="0" * 64, g=game_id)
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "The record was altered at entry 2" in page and unmarked(page)


def test_a_deleted_games_number_given_to_a_new_game_shows_the_new_game(app, client, tmp_path):
    app.config["RECORDS_DIR"] = str(tmp_path / "records")
    first = new_game(client, players="Aki\nBen\nChie")
    assert "Aki" in client.get(f"/games/{first}").get_data(as_text=True)  # drawn, and kept
    assert client.post(f"/games/{first}/delete").status_code in (302, 303)
    second = new_game(client, players="Xena\nYuri\nZoe")  # SQLite gives it the deleted game's number
    page = client.get(f"/games/{second}").get_data(as_text=True)
    assert "Xena" in page and "Aki" not in page


def test_a_player_named_as_anything_is_shown_as_named(app, client):
    named = "token" + "0" * 16 + "mark"  # the shape of a mark, not a mark: those are made anew by each process
    game_id = new_game(client, players=f"{named}\nBen\nChie")
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert f"waiting for {named} to roll" in page and all(mark not in named for mark in MARKS)


def lock_token(page: str) -> str:
    return re.search(r'<form method="post" action="/lock" class="lock"><input type="hidden" name="csrf_token" '
                     r'value="([^"]+)"', page).group(1)


def test_the_table_screens_frame_is_drawn_once_with_each_devices_lock_token_notices_and_language_its_own(
        app, client):
    """The table screen's frame (its head, its top bar with the lock form and the language menu) is kept for every
    device that shows the table as a page: each device's page carries its own session's token in its lock form (the
    lock works with it), the notice of its own tap alone and once, and a device in another language its own frame."""
    game_id = new_game(client)
    second = app.test_client()
    assert second.post(f"/games/{game_id}/unlock", data={"pin": "123456"}).status_code == 302
    with templates_drawn(app) as names:
        first = client.get(f"/games/{game_id}").get_data(as_text=True)
        other = second.get(f"/games/{game_id}").get_data(as_text=True)
    assert names.count("table/table.html") == 1  # one frame for both
    assert unmarked(first) and unmarked(other) and lock_token(first) != lock_token(other)
    assert '<html lang="en">' in other and "Aki buys" not in other
    client.post(f"/games/{game_id}/record", data={"seq": 0, "entry": '{"type": "roll", "player": "Aki"}',
                                                  "dice": "1,2"})
    client.post(f"/games/{game_id}/record", data={"seq": 1, "entry": '{"type": "buy", "player": "Aki"}'})
    told = client.get(f"/games/{game_id}").get_data(as_text=True)  # the notice its tap left, in the page's main
    notice = told[told.index("<main>"):told.index('<div id="tablelive"')]
    assert "Aki buys Baltic Avenue" in notice and unmarked(told)
    again = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Aki buys Baltic Avenue" not in again[again.index("<main>"):again.index('<div id="tablelive"')]
    seen = second.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Aki buys Baltic Avenue" not in seen[seen.index("<main>"):seen.index('<div id="tablelive"')]
    second.get("/lang/ja")
    with templates_drawn(app) as names:
        japanese = second.get(f"/games/{game_id}").get_data(as_text=True)
    assert names.count("table/table.html") == 1 and '<html lang="ja">' in japanese and unmarked(japanese)
    assert second.post("/lock", data={"csrf_token": lock_token(japanese)}).status_code == 303  # its own token
    assert second.get(f"/games/{game_id}").status_code == 302  # locked: to the PIN screen
