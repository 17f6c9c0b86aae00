"""The public standings' live region is drawn once a version for every phone that follows it, not once a phone: a
room of players' phones asks at the same second after a table finishes.  Each phone's answer is the same drawing
with its own line marked (``?me=``: its player's name; "Your line" on the standings page) and its poll's address,
which names it, put in: what a drawing made for that phone alone would have been."""
import random
import re

import flask
import pytest
from markupsafe import escape

from conftest import finish_seating, templates_drawn
from referee.app.demo import play_table
from referee.services import progress, tournaments
from referee.web.views import drawings

HX = {"HX-Request": "true"}
PLAYERS = ["Jürgen & Söhne", "佐藤 葵", "<b>Bo</b>", "Ann", "Ben", "Cho", "Dee", "Eve"]


@pytest.fixture
def finished(app):
    """A tournament of two tables whose games have finished (the places changed), and the standings' version as a
    phone saw them before."""
    with app.app_context():
        tid = tournaments.create_tournament("Cup", "jma-placement", "jma-2006", PLAYERS, "135791", [60])
        progress.seat_round(tid)
        before = progress.progress_and_version(tid)[1]
        for view in tournaments.round_overview(tid, 1):
            finish_seating(view.game_id)
            play_table(view.game_id, random.Random(5), 8)
        assert progress.progress_and_version(tid)[1] != before
        listed = [s.player for s in progress.tournament_standings(tid)]
    assert sorted(listed) == sorted(PLAYERS)  # every player has a line, names to escape among them
    return tid, before


def region(client, tid, before, me=None) -> str:
    query = {"v": before, **({"me": me} if me is not None else {})}
    r = client.get(f"/tournaments/{tid}/standings", query_string=query, headers=HX)
    assert r.status_code == 200 and r.headers["Cache-Control"] == "no-store"
    return r.get_data(as_text=True)


def own_lines(page: str) -> list[str]:
    return re.findall(r'<tr class="mine" id="me"><td class="place">.*?<td class="name">(.*?)</td>', page, re.S)


def test_the_standings_region_is_drawn_once_a_version_for_every_phone_and_marks_each_phones_own_line(app, finished):
    tid, before = finished
    with templates_drawn(app) as drawn:
        phones = {me: region(app.test_client(), tid, before, me) for me in [*PLAYERS, "", "Nobody"]}
        assert drawn.count("tournaments/_standings_live.html") == 1  # ten phones, one drawing
        for me, page in phones.items():
            assert own_lines(page) == ([escape(me)] if me in PLAYERS else [])
            assert page.count("class=\"mine\"") == (1 if me in PLAYERS else 0)
            assert drawings.mark("mine") not in page and drawings.mark("poll") not in page  # every mark put in
            address = re.search(r'hx-get="([^"]+)"', page).group(1).replace("&amp;", "&")
            with app.test_request_context():
                version = progress.progress_and_version(tid)[1]
                assert address == flask.url_for("tournaments.standings", tournament_id=tid, v=version, me=me or None)
        # what a phone is answered is what its own drawing would be: the same answers from an app that keeps nothing
        for me in (PLAYERS[0], PLAYERS[2], ""):
            app.extensions.pop("referee.standings_regions", None)
            assert region(app.test_client(), tid, before, me) == phones[me]
        assert drawn.count("tournaments/_standings_live.html") == 4


def test_the_standings_page_opens_at_the_phones_own_line_and_names_it_in_its_poll(app, finished):
    """"Your line": the whole page, asked with a name, marks that line (#me), chooses the name in its menu and
    follows the standings with it."""
    tid, _ = finished
    page = app.test_client().get(f"/tournaments/{tid}/standings", query_string={"me": PLAYERS[1]}).get_data(
        as_text=True)
    assert own_lines(page) == [PLAYERS[1]]
    assert f'<option value="{PLAYERS[1]}" selected>' in page
    assert "me=%E4%BD%90%E8%97%A4" in re.search(r'hx-get="([^"]+)"', page).group(1)
    other = app.test_client().get(f"/tournaments/{tid}/standings", query_string={"me": PLAYERS[0]}).get_data(
        as_text=True)
    assert own_lines(other) == [escape(PLAYERS[0])] and " selected>" in other
