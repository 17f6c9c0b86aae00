"""Tournaments through the app: create, seat a round, play, call time, standings."""
import random
import re

import pytest

from conftest import finish_seating

from referee import create_app
from referee.services import clocks, folds, games, progress, tournaments
from referee.services.errors import GameNotFound
from referee.tournament.messages import BadTournament
from referee.app.demo import build_demo, play_table


@pytest.fixture
def app(tmp_path):
    return create_app({"TESTING": True, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False,
                       "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 't.sqlite'}"})


@pytest.mark.long  # scripts/test runs it; --fast leaves it out (pyproject.toml's markers)
def test_demo_fills_a_round_of_finished_games_and_ranked_standings(app):
    with app.app_context():
        tid = build_demo(seed=3, max_turns=60)
        views = tournaments.round_overview(tid, 1)
        assert [len(v.players) for v in views] == [4, 4] and all(v.over for v in views)
        standings = progress.tournament_standings(tid)
        assert sorted(s.player for s in standings) == sorted(p for v in views for p, _, _ in v.players)
        by_player = {st.player: st.total for st in standings}
        for v in views:  # each table gives 10, 6, 3, 1 (14 instead of 10 for a monopoly win)
            assert sorted(by_player[p] for p, _, _ in v.players) in ([1, 3, 6, 10], [1, 3, 6, 14])
    page = app.test_client().get(f"/tournaments/{tid}/standings").get_data(as_text=True)
    assert "佐藤 葵" in page and "김민수" in page and "Jürgen Groß" in page


def test_the_director_seats_a_round_sees_every_table_and_calls_time(app):
    client = app.test_client()
    r = client.post("/tournaments", data={"name": "Cup", "scheme": "jma-placement", "ruleset": "jma-2006",
                                          "players": "\n".join(f"P{i}" for i in range(9)), "pin": "135791",
                                          "round_minutes": "70 60"})
    tid = int(r.headers["Location"].rsplit("/", 1)[1])
    client.post(f"/tournaments/{tid}/rounds", data={"round": "1"})
    page = client.get(f"/tournaments/{tid}").get_data(as_text=True)
    assert "Table 1" in page and "Table 2" in page and "Round 1 · 70 min" in page
    assert page.count("not started") == 2  # both still in the seating roll-off; the clocks have not run
    with app.app_context():
        views = tournaments.round_overview(tid, 1)
        assert sorted(len(v.players) for v in views) == [4, 5]
        for v in views:  # finish the seating roll-off on each table so play has started
            table = folds.load(v.game_id)
            while type(table.game.state.pending).__name__ == "SeatingRoll":
                who = table.game.state.players[table.game.state.pending.waiting[0]].name
                dice = [1 + (table.seq % 6), 1 + ((table.seq * 5) % 6)]
                games.record(v.game_id, {"type": "seat_roll", "player": who, "dice": dice}, table.seq)
                table = folds.load(v.game_id)
    client.post(f"/tournaments/{tid}/rounds/1/time")
    with app.app_context():
        assert all(folds.load(v.game_id).game.state.time_called for v in tournaments.round_overview(tid, 1))
    page = client.post(f"/tournaments/{tid}/rounds", data={"round": "2"}, follow_redirects=True).get_data(
        as_text=True)
    assert "round 1 is still being played" in page


def test_the_director_pages_need_the_pin_and_the_standings_do_not(app):
    with app.app_context():
        tid = tournaments.create_tournament("Cup", "asset-share", "jma-2006", ["A", "B", "C", "D"], "135791")
    other = app.test_client()
    assert "/unlock" in other.get(f"/tournaments/{tid}").headers["Location"]
    assert other.get(f"/tournaments/{tid}/standings").status_code == 200
    assert other.post(f"/tournaments/{tid}/unlock", data={"pin": "000000"}).status_code == 403


def test_a_bad_tournament_is_refused_with_its_reason(app):
    client = app.test_client()
    page = client.post("/tournaments", data={"scheme": "no-such-scheme", "ruleset": "jma-2006",
                                             "players": "A\nB", "pin": "135791"}, follow_redirects=True)
    text = page.get_data(as_text=True)
    assert "unknown scoring scheme" in text and "no-such-scheme" in text


def test_tournament_regulations_reach_every_table(app):
    client = app.test_client()
    r = client.post("/tournaments", data={"name": "Cup", "scheme": "jma-placement", "ruleset": "jma-2006",
                                          "players": "A\nB\nC\nD", "pin": "135791", "regulation-dealt_deeds": "1",
                                          "regulation-trades_before_first_go": "1"})
    tid = int(r.headers["Location"].rsplit("/", 1)[1])
    client.post(f"/tournaments/{tid}/rounds", data={"round": "1"})
    with app.app_context():
        game = folds.load(tournaments.round_overview(tid, 1)[0].game_id).game
        assert game.header.options == {"dealt_deeds": 2, "trades_before_first_go": False}
        assert game.ruleset.options.dealt_deeds == 2


# --- the director's page on a tournament day (issue 11) -------------------------------------------------------

def new_tournament(client, players=9, scheme="jma-placement", minutes="70 60") -> int:
    r = client.post("/tournaments", data={"name": "Cup", "scheme": scheme, "ruleset": "jma-2006",
                                          "players": "\n".join(f"P{i}" for i in range(players)), "pin": "135791",
                                          "round_minutes": minutes})
    tid = int(r.headers["Location"].rsplit("/", 1)[1])
    client.post(f"/tournaments/{tid}/rounds", data={"round": "1"})
    return tid


def visible(page: str) -> str:
    """The text a person sees on the page (no tags, styles, scripts or attribute values)."""
    page = re.sub(r"<(style|script)\b.*?</\1>", " ", page, flags=re.S)
    return re.sub(r"<[^>]+>", " ", page)


def live_url(page: str) -> str:
    return re.search(r'id="live-rounds" class="live" hx-get="([^"]+)"', page).group(1).replace("&amp;", "&")


def test_the_director_page_has_no_meta_refresh_and_polls_its_live_region_every_second(app):
    client = app.test_client()
    tid = new_tournament(client)
    page = client.get(f"/tournaments/{tid}").get_data(as_text=True)
    assert 'http-equiv="refresh"' not in page
    region = re.search(r'<div id="live-rounds"[^>]*>', page.replace("\n", " ")).group(0)
    assert 'class="live"' in region and 'hx-trigger="every 1s"' in region
    assert 'hx-select="#live-rounds"' in region and 'hx-swap="outerHTML"' in region
    with app.app_context():
        version = tournaments.tournament_version(tid).token
    drawing = re.search(r'data-drawn="([0-9a-f]+)"', region).group(1)  # this answer's drawing, named back
    assert live_url(page) == f"/tournaments/{tid}/live?v={version}&d={drawing}"
    # the seating form (the round it seats) is on the page but never in the region that is swapped
    assert 'name="round"' in page
    fresh = client.get(f"/tournaments/{tid}/live?v=old").get_data(as_text=True)
    assert 'id="live-rounds"' in fresh and "Table 1" in fresh and 'name="round"' not in fresh


def test_the_live_region_answers_204_until_a_table_records_an_entry_or_its_clock_is_started(app):
    client = app.test_client()
    tid = new_tournament(client)
    url = live_url(client.get(f"/tournaments/{tid}").get_data(as_text=True))
    assert client.get(url).status_code == 204
    assert client.get(url).status_code == 204  # still nothing new: no swap
    with app.app_context():
        game_id = tournaments.round_overview(tid, 1)[0].game_id
        who = folds.load(game_id).game.state.players[0].name
        games.record(game_id, {"type": "seat_roll", "player": who, "dice": [6, 5]}, 0)
    r = client.get(url)
    assert r.status_code == 200
    region = r.get_data(as_text=True)
    assert "waiting for the seating roll of" in region and f"seating roll of {who}," not in region
    url2 = live_url(region)
    assert url2 != url and client.get(url2).status_code == 204
    with app.app_context():
        clocks.set_clock(game_id, True)
    r = client.get(url2)
    assert r.status_code == 200
    assert client.get(live_url(r.get_data(as_text=True))).status_code == 204
    # a device that is not the director's gets nothing to swap in: htmx is sent to the PIN screen
    locked = app.test_client().get(url2, headers={"HX-Request": "true"})
    assert locked.status_code == 403 and locked.headers["HX-Redirect"] == f"/tournaments/{tid}/unlock"


def test_no_template_refreshes_its_page_with_a_meta_refresh():
    """A timed meta refresh reloads the page under the reader (axe-core: meta-refresh, critical); the live pages
    poll their region with htmx instead."""
    from pathlib import Path
    templates = Path(__file__).parent.parent / "templates"
    refreshing = [str(t.relative_to(templates)) for t in templates.rglob("*.html")
                  if re.search(r"http-equiv\s*=\s*[\"']?refresh", t.read_text(encoding="utf-8"), re.I)]
    assert refreshing == []


def test_the_standings_poll_their_places_every_second_and_answer_204_until_the_places_change(app):
    """Spectators' phones follow the standings every second: while the round's tables record (which changes no
    place), each poll is a 204; a table that finishes changes the places, and the next poll brings them."""
    client = app.test_client()
    tid = new_tournament(client)
    anyone = app.test_client()  # the standings are open to everyone
    page = anyone.get(f"/tournaments/{tid}/standings").get_data(as_text=True)
    assert 'http-equiv="refresh"' not in page
    region = re.search(r'<div id="standings-live"[^>]*>', page.replace("\n", " ")).group(0)
    assert 'hx-trigger="every 1s"' in region and 'hx-select="#standings-live"' in region
    with app.app_context():
        version = progress.progress_and_version(tid)[1]
    url = re.search(r'hx-get="([^"]+)"', region).group(1).replace("&amp;", "&")
    assert url == f"/tournaments/{tid}/standings?v={version}"
    hx = {"HX-Request": "true"}
    assert anyone.get(url, headers=hx).status_code == 204  # nothing new: no swap
    with app.app_context():
        game_id = tournaments.round_overview(tid, 1)[0].game_id
        finish_seating(game_id)
    assert anyone.get(url, headers=hx).status_code == 204  # a table recorded: no place changed
    with app.app_context():
        play_table(game_id, random.Random(2), 6)
    r = anyone.get(url, headers=hx)
    assert r.status_code == 200 and r.headers["Cache-Control"] == "no-store"
    fresh = r.get_data(as_text=True)
    assert fresh.lstrip().startswith("<div id=\"standings-live\"") and "<html" not in fresh
    with app.app_context():
        later = progress.progress_and_version(tid)[1]
        winner = progress.tournament_standings(tid)[0].player
    assert later != version and f"v={later}" in fresh and winner in fresh
    # a plain visit of the same address (no htmx) is the whole page
    assert "<html" in anyone.get(url).get_data(as_text=True)


def test_the_director_sees_each_tables_clock_what_it_waits_for_its_turn_and_cash(app):
    client = app.test_client()
    tid = new_tournament(client)
    with app.app_context():
        first, second = tournaments.round_overview(tid, 1)
        finish_seating(first.game_id)
        clocks.set_clock(first.game_id, True)
    page = client.get(f"/tournaments/{tid}").get_data(as_text=True)
    card = page[page.index(f'id="table-{first.game_id}"'):page.index(f'id="table-{second.game_id}"')]
    clock = re.search(r'<span class="clock"[^>]*>', card).group(0)
    assert 'data-running="1"' in clock and 'data-up="time is up"' in clock
    assert 69 * 60 <= int(re.search(r'data-left="(\d+)"', clock).group(1)) <= 70 * 60
    assert "turn 1" in card and "waiting for" in card and "$1,500" in card
    rest = page[page.index(f'id="table-{second.game_id}"'):]
    assert "not started" in rest[:rest.index("</table>")]
    client.post(f"/tournaments/{tid}/rounds/1/time")
    page = client.get(f"/tournaments/{tid}").get_data(as_text=True)
    card = page[page.index(f'id="table-{first.game_id}"'):page.index(f'id="table-{second.game_id}"')]
    assert "time called" in card and 'data-running="1"' not in card  # stopped once time is called


def test_the_director_page_shows_finished_games_as_over_with_no_clock_running(app):
    with app.app_context():
        tid = build_demo(seed=3, max_turns=40)
    client = app.test_client()
    client.post(f"/tournaments/{tid}/unlock", data={"pin": "246802"})
    page = client.get(f"/tournaments/{tid}").get_data(as_text=True)
    assert page.count("game over") == 2 and 'data-running="1"' not in page
    assert "Call time on every table" not in page  # nothing left to call time on


def test_calling_time_asks_for_confirmation_and_names_the_tables_not_started(app):
    client = app.test_client()
    tid = new_tournament(client)
    with app.app_context():
        first, second = tournaments.round_overview(tid, 1)
        finish_seating(first.game_id)
        clocks.set_clock(first.game_id, True)
    page = client.get(f"/tournaments/{tid}").get_data(as_text=True)
    confirm = page[page.index('<details class="confirm" id="call-time-1">'):]
    confirm = confirm[:confirm.index("</details>")]
    assert "<summary>Call time on every table of this round…</summary>" in confirm
    assert f"Table {second.number}: still in the seating roll: time is not called there" in confirm
    assert f"Table {first.number}:" not in confirm
    assert '<button class="danger" type="submit">Confirm: call time on 1 table</button>' in confirm
    with app.app_context():
        finish_seating(second.game_id)  # seated, but its clock never started
    page = client.get(f"/tournaments/{tid}").get_data(as_text=True)
    assert f"Table {second.number}: its clock was never started" in page
    assert "Confirm: call time on 2 tables" in page
    done = client.post(f"/tournaments/{tid}/rounds/1/time", follow_redirects=True).get_data(as_text=True)
    assert "time called on 2 tables" in done
    with app.app_context():
        assert all(v.time_called for v in tournaments.round_overview(tid, 1))


def test_calling_time_leaves_a_table_still_in_its_seating_roll_alone(app):
    client = app.test_client()
    tid = new_tournament(client)
    with app.app_context():
        first, second = tournaments.round_overview(tid, 1)
        finish_seating(first.game_id)
    client.post(f"/tournaments/{tid}/rounds/1/time")
    with app.app_context():
        after = {v.game_id: v for v in tournaments.round_overview(tid, 1)}
    assert after[first.game_id].time_called and not after[second.game_id].time_called
    assert after[second.game_id].seating


def test_a_new_tournament_defaults_to_the_jma_ruleset_and_jma_placement_scoring(app):
    page = app.test_client().get("/tournaments").get_data(as_text=True)
    scheme = re.search(r'<select id="t-scheme" name="scheme".*?</select>', page, re.S).group(0)
    ruleset = re.search(r'<select id="t-ruleset" name="ruleset".*?</select>', page, re.S).group(0)
    assert re.findall(r'<option value="([^"]+)" selected>', scheme) == ["jma-placement"]
    assert re.findall(r'<option value="([^"]+)" selected>', ruleset) == ["jma-2006"]
    assert "JMA competition rules (2006)" in ruleset  # by its name, not its file name


def test_a_new_game_defaults_to_the_jma_ruleset(app):
    page = app.test_client().get("/").get_data(as_text=True)
    ruleset = re.search(r'<select[^>]*name="ruleset".*?</select>', page, re.S).group(0)
    assert re.findall(r'<option[^>]*selected[^>]*>', ruleset) == [
        m for m in re.findall(r'<option[^>]*>', ruleset) if 'value="jma-2006"' in m]


@pytest.fixture
def asset_points(app):
    """A tournament scored in assets (totals in the thousands) with a round of finished games."""
    from referee.app.demo import play_table
    import random

    with app.app_context():
        tid = tournaments.create_tournament("Asset cup", "asset-points", "jma-2006", [f"P{i}" for i in range(8)], "135791")
        progress.seat_round(tid)
        rng = random.Random(4)
        for view in tournaments.round_overview(tid, 1):
            play_table(view.game_id, rng, 30)
        standings = progress.tournament_standings(tid)
    return tid, standings


def test_standings_show_points_with_separators_and_no_trailing_decimal(app, asset_points):
    tid, standings = asset_points
    client = app.test_client()
    big = [s for s in standings if s.total >= 1000]
    assert big
    page = client.get(f"/tournaments/{tid}/standings").get_data(as_text=True)
    for s in big:
        assert f"<strong>{int(s.total):,}</strong>" in page
        assert f"{float(s.total)}" not in page and f"{int(s.total)}" not in page
    client.set_cookie("lang", "ja")
    page = client.get(f"/tournaments/{tid}/standings").get_data(as_text=True)
    for s in big:
        assert f"<strong>{int(s.total):,}点</strong>" in page


def test_numbers_are_formatted_for_the_locale(app):
    from fractions import Fraction

    from referee.reports import cash_text, number_text, points_text

    with app.test_request_context():
        assert points_text(Fraction(1708)) == "1,708" and points_text(1708.0) == "1,708"
        assert points_text(Fraction(250, 3)) == "83.3"  # a scheme that gives fractions: one decimal at most
        assert points_text(Fraction(250, 3), 0) == "83"
        assert number_text(Fraction(12345, 2), 3) == "6,172.5" and cash_text(15000, "$") == "$15,000"
    with app.test_request_context(headers={"Cookie": "lang=ja"}):
        assert points_text(Fraction(1708)) == "1,708点" and cash_text(1500) == "$1,500"


def test_the_director_page_and_the_standings_are_in_japanese(app):
    client = app.test_client()
    tid = new_tournament(client)
    with app.app_context():
        first, second = tournaments.round_overview(tid, 1)
        finish_seating(first.game_id)
    client.set_cookie("lang", "ja")
    page = client.get(f"/tournaments/{tid}").get_data(as_text=True)
    for text in ("第1回戦", "第1卓", "未開始", "スタート順のサイコロ中：この卓には終了の合図をしません",
                 "確定：1卓に終了の合図", "この回戦の全卓に終了の合図", "次の回戦の組み合わせ", "第2回戦を組む",
                 "順位点（モノポリー勝ちボーナス）", "9人", "順位表", "ゲーム時計が一度も開始されていません"):
        assert text in page, text
    shown = visible(page)
    for english in ("Round", "Table", "turn", "not started", "Confirm", "Seat", "players", "standings", "min",
                    "waiting for", "result"):
        assert english not in shown, english
    refused = client.post(f"/tournaments/{tid}/rounds", data={"round": "2"}, follow_redirects=True)
    assert "第1回戦はまだ対戦中です" in refused.get_data(as_text=True)
    index = client.get("/tournaments").get_data(as_text=True)
    assert "新しい大会" in index and "日本モノポリー協会 競技ルール（2006年）" in index


def test_a_tournament_tables_screen_is_named_by_its_seat_in_the_devices_language(app):
    client = app.test_client()
    tid = new_tournament(client)
    with app.app_context():
        game_id = tournaments.round_overview(tid, 1)[0].game_id
    assert client.post(f"/games/{game_id}/unlock", data={"pin": "135791"}).status_code == 302  # the director's PIN
    ja = visible(client.get(f"/games/{game_id}", headers={"Accept-Language": "ja"}).get_data(as_text=True))
    en = visible(client.get(f"/games/{game_id}/display").get_data(as_text=True))
    assert "Cup 第1回戦 第1卓" in ja
    assert "Cup: round 1, table 1" in en
    assert "round 1, table 1" not in ja


def test_a_round_whose_tables_the_finite_bank_cannot_stake_is_refused_and_seats_nothing(app):
    """004, 2: the bank pays every player's start money in full: a tournament whose regulations shrink the German
    variant's bank below a table's start money is told so when it seats a round, and no table is seated."""
    with app.app_context():
        tid = tournaments.create_tournament("Cup", "jma-placement", "german-simple", ["A", "B", "C", "D"], "135791",
                                            options={"bank_money": 100000})
        with pytest.raises(BadTournament) as err:
            progress.seat_round(tid)
        assert "4 players need 120,000 M of start money, 30,000 M each; the bank's 100,000 M pays at most 3" in (
            err.value.message)
        with pytest.raises(GameNotFound):  # no round was seated
            tournaments.round_overview(tid, 1)
