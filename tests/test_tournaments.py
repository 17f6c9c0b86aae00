"""Tournaments through the app: create, seat a round, play, call time, standings."""
import pytest

from referee import create_app, service
from referee.demo import build_demo


@pytest.fixture
def app(tmp_path):
    return create_app({"TESTING": True, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False,
                       "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 't.sqlite'}"})


def test_demo_fills_a_round_of_finished_games_and_ranked_standings(app):
    with app.app_context():
        tid = build_demo(seed=3, max_turns=60)
        views = service.round_overview(tid, 1)
        assert [len(v.players) for v in views] == [4, 4] and all(v.over for v in views)
        standings = service.tournament_standings(tid)
        assert sorted(s.player for s in standings) == sorted(p for v in views for p, _, _ in v.players)
        by_player = {st.player: st.total for st in standings}
        for v in views:  # each table gives 10, 6, 3, 1 (14 instead of 10 for a monopoly win)
            assert sorted(by_player[p] for p, _, _ in v.players) in ([1, 3, 6, 10], [1, 3, 6, 14])
    page = app.test_client().get(f"/tournaments/{tid}/standings").get_data(as_text=True)
    assert "佐藤 葵" in page and "김민수" in page and "Jürgen Groß" in page


def test_the_director_seats_a_round_sees_every_table_and_calls_time(app):
    client = app.test_client()
    r = client.post("/tournaments", data={"name": "Cup", "scheme": "jma-placement", "ruleset": "jma-2006",
                                          "players": "\n".join(f"P{i}" for i in range(9)), "pin": "1357",
                                          "round_minutes": "70 60"})
    tid = int(r.headers["Location"].rsplit("/", 1)[1])
    client.post(f"/tournaments/{tid}/rounds", data={"pin": "1357"})
    page = client.get(f"/tournaments/{tid}").get_data(as_text=True)
    assert "Table 1" in page and "Table 2" in page and "70:00" in page
    with app.app_context():
        views = service.round_overview(tid, 1)
        assert sorted(len(v.players) for v in views) == [4, 5]
        for v in views:  # finish the seating roll-off on each table so play has started
            table = service.load(v.game_id)
            while type(table.game.state.pending).__name__ == "SeatingRoll":
                who = table.game.state.players[table.game.state.pending.waiting[0]].name
                dice = [1 + (table.seq % 6), 1 + ((table.seq * 5) % 6)]
                service.record(v.game_id, {"type": "seat_roll", "player": who, "dice": dice}, table.seq)
                table = service.load(v.game_id)
    client.post(f"/tournaments/{tid}/rounds/1/time")
    with app.app_context():
        assert all(service.load(v.game_id).game.state.time_called for v in service.round_overview(tid, 1))
    page = client.post(f"/tournaments/{tid}/rounds", data={"pin": "1357"}, follow_redirects=True).get_data(
        as_text=True)
    assert "round 1 is still being played" in page


def test_the_director_pages_need_the_pin_and_the_standings_do_not(app):
    with app.app_context():
        tid = service.create_tournament("Cup", "asset-share", "jma-2006", ["A", "B", "C", "D"], "1357")
    other = app.test_client()
    assert "/unlock" in other.get(f"/tournaments/{tid}").headers["Location"]
    assert other.get(f"/tournaments/{tid}/standings").status_code == 200
    assert other.post(f"/tournaments/{tid}/unlock", data={"pin": "0000"}).status_code == 403


def test_a_bad_tournament_is_refused_with_its_reason(app):
    client = app.test_client()
    page = client.post("/tournaments", data={"scheme": "no-such-scheme", "ruleset": "jma-2006",
                                             "players": "A\nB", "pin": "1357"}, follow_redirects=True)
    text = page.get_data(as_text=True)
    assert "unknown scoring scheme" in text and "no-such-scheme" in text


def test_tournament_regulations_reach_every_table(app):
    client = app.test_client()
    r = client.post("/tournaments", data={"name": "Cup", "scheme": "jma-placement", "ruleset": "jma-2006",
                                          "players": "A\nB\nC\nD", "pin": "1357", "dealt_deeds": "1",
                                          "no_trades_before_go": "1"})
    tid = int(r.headers["Location"].rsplit("/", 1)[1])
    client.post(f"/tournaments/{tid}/rounds", data={"pin": "1357"})
    with app.app_context():
        game = service.load(service.round_overview(tid, 1)[0].game_id).game
        assert game.header.options == {"dealt_deeds": 2, "trades_before_first_go": False}
        assert game.ruleset.options.dealt_deeds == 2
