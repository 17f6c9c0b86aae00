"""Players sign off a finished game: each confirms the final ranking on the referee's tablet, or refuses it with a
reason (bounded, printable, required); each sign-off is appended, never edited, and chained with the record (its
hash covers the record's head, the player, the verdict, the reason and the time), so a changed sign-off shows.  A
sign-off for a game not over, by a player not at the table, given twice, from a screen drawn before the record
or the sign-offs changed, is refused naming the rule; a void after a sign-off leaves it "for an earlier result".
Shown on the table, the result page, the result sheet PDF and the director's table card.  On SQLite and
PostgreSQL."""
import html
import random
import subprocess

import sqlalchemy

from referee.engine import chain
from referee import reports
from referee.store.db import db
from referee.store.models import GameRow
from referee.app.demo import play_table
from referee.services import folds, games, signoffs

from conftest import new_game
from test_players_between_rounds import played_table


def finished_game(app, client) -> int:
    """A game of Aki, Ben and Chie played to its end on the client's tablet (the referee's, unlocked)."""
    game_id = new_game(client)
    with app.app_context():
        play_table(game_id, random.Random(3), 6)
        assert folds.load(game_id).game.state.over
    return game_id


def seen(app, game_id) -> tuple[int, int]:
    """How many entries and sign-offs the table screen shows now."""
    with app.app_context():
        table = folds.load(game_id)
        return table.seq, len(signoffs.sign_offs(table).rows)


def sign(client, game_id, player, verdict="confirms", reason="", at=None, app=None, **over) -> str:
    entries, count = at if at is not None else seen(app, game_id)
    data = {"player": player, "verdict": verdict, "reason": reason, "entries": entries, "count": count, **over}
    r = client.post(f"/games/{game_id}/sign-off", data=data, follow_redirects=True)
    assert r.status_code == 200
    return html.unescape(r.get_data(as_text=True))


def stored(app, game_id) -> list[tuple]:
    with app.app_context():
        return db.session.execute(sqlalchemy.text(
            "SELECT n, player, verdict, reason FROM sign_offs WHERE game_id = :g ORDER BY n"), {"g": game_id}).all()


def test_each_player_confirms_or_refuses_once_and_the_table_and_result_page_show_who_signed(app):
    client = app.test_client()
    game_id = finished_game(app, client)
    page = html.unescape(client.get(f"/games/{game_id}").get_data(as_text=True))
    assert "3 still to sign (Aki, Ben, Chie)" in page and "signed 0 of 3" not in page
    for name in ("Aki", "Ben", "Chie"):
        assert f"{name} confirms" in page and f"{name} refuses…" in page
    page = sign(client, game_id, "Aki", app=app)
    assert "Aki confirms the final ranking" in page and "1 confirmed, 2 still to sign (Ben, Chie)" in page
    assert "Aki confirms</button>" not in page  # Aki's buttons are gone: a sign-off is given once
    page = sign(client, game_id, "Ben", "refuses", "  my hotel on Boardwalk was not counted ", app=app)
    assert "Ben refuses the final ranking: my hotel on Boardwalk was not counted" in page
    assert "Ben refused: my hotel on Boardwalk was not counted" in page
    assert "1 confirmed, 1 refused, 1 still to sign (Chie)" in page  # a refusal is no signature of the ranking
    assert stored(app, game_id) == [(1, "Aki", "confirms", ""),
                                    (2, "Ben", "refuses", "my hotel on Boardwalk was not counted")]
    result = html.unescape(client.get(f"/games/{game_id}/result").get_data(as_text=True))
    assert "1 confirmed, 1 refused, 1 still to sign (Chie)" in result and "Aki confirmed" in result
    assert "Ben refused: my hotel on Boardwalk was not counted" in result and "Chie has not signed off" in result
    assert "Chie confirms" not in result  # the result page shows the sign-offs; the table takes them
    last = seen(app, game_id)[0]
    r = client.get(f"/games/{game_id}/entries/{last}")  # the table as it was after the last entry: read only
    assert r.status_code == 200 and "Chie confirms" not in r.get_data(as_text=True)


def test_a_sign_off_twice_by_a_stranger_or_with_a_bad_reason_is_refused_naming_the_rule_and_writes_nothing(app):
    client = app.test_client()
    game_id = finished_game(app, client)
    sign(client, game_id, "Aki", app=app)
    at = seen(app, game_id)
    cases = [
        (dict(player="Aki"), "Aki has already confirmed this result: a player signs off once, and a sign-off is "
                             "never changed"),
        (dict(player="Zed"), "Zed is not a player at this table: only its players sign off its result"),
        (dict(player="Ben", verdict="maybe"), "a player confirms the final ranking or refuses it"),
        (dict(player="Ben", verdict="refuses", reason="   "), "a refusal needs the player's reason"),
        (dict(player="Ben", verdict="refuses", reason="x" * 201),
         "the reason is longer than 200 characters: it is printed on the result sheet"),
        (dict(player="Ben", verdict="refuses", reason="bad\x00byte"),
         "the reason contains a character that cannot be printed (U+0000)"),
        (dict(player="Ben", reason="fine by me"), "a confirmation carries no reason"),
        (dict(player="Ben", at=(at[0] - 1, at[1])), "the record changed since this screen was drawn"),
        (dict(player="Ben", at=(at[0], 0)), "another sign-off was recorded since this screen was drawn"),
    ]
    for fields, message in cases:
        page = sign(client, game_id, **{"at": at, **fields})
        assert "Not signed off" in page and message in page, fields
    for bad in ({"entries": "many"}, {"count": ""}, {"count": "9" * 400}):
        page = sign(client, game_id, "Ben", at=at, **bad)
        assert "this form is not one the table screen makes: nothing was recorded" in page
    assert stored(app, game_id) == [(1, "Aki", "confirms", "")]


def test_a_game_not_over_is_not_signed_off_and_only_the_tables_referee_records_sign_offs(app):
    client = app.test_client()
    game_id = new_game(client)
    page = sign(client, game_id, "Aki", at=(0, 0))
    assert "the game is not over: the players sign off its final ranking once it has ended" in page
    game_id = finished_game(app, client)
    stranger = app.test_client()  # a player's phone on the venue's Wi-Fi: no unlock
    r = stranger.post(f"/games/{game_id}/sign-off", data={"player": "Aki", "verdict": "confirms", "entries":
                                                          seen(app, game_id)[0], "count": 0})
    assert r.status_code in (302, 303, 403) and stored(app, game_id) == []


def test_a_void_after_the_sign_offs_leaves_them_for_an_earlier_result_and_the_players_sign_the_new_one(app):
    client = app.test_client()
    game_id = finished_game(app, client)
    sign(client, game_id, "Aki", app=app)
    earlier = seen(app, game_id)
    with app.app_context():
        games.record(game_id, {"type": "void", "count": 1}, earlier[0])
        assert not folds.load(game_id).game.state.over  # the entry that ended the game is taken back
    page = sign(client, game_id, "Ben", app=app)
    assert "the game is not over" in page
    with app.app_context():
        games.redo(game_id, folds.load(game_id).seq)
        assert folds.load(game_id).game.state.over
    page = sign(client, game_id, "Aki", at=earlier)  # the screen drawn before the void
    assert "the record changed since this screen was drawn" in page
    page = html.unescape(client.get(f"/games/{game_id}").get_data(as_text=True))
    assert "3 still to sign (Aki, Ben, Chie)" in page and "Sign-offs for an earlier result" in page
    assert f"after entry {earlier[0]}" in page
    page = sign(client, game_id, "Aki", app=app)
    assert "Aki confirms the final ranking" in page and "1 confirmed, 2 still to sign (Ben, Chie)" in page
    assert [r[1] for r in stored(app, game_id)] == ["Aki", "Aki"]


def test_a_sign_off_changed_in_the_database_breaks_its_chain_and_no_more_are_taken(app):
    client = app.test_client()
    game_id = finished_game(app, client)
    sign(client, game_id, "Aki", app=app)
    sign(client, game_id, "Ben", "refuses", "the count was wrong", app=app)
    with app.app_context():
        db.session.execute(sqlalchemy.text("UPDATE sign_offs SET verdict = 'confirms', reason = '' "
                                           "WHERE game_id = :g AND n = 2"), {"g": game_id})
        db.session.commit()
        found = signoffs.sign_offs(folds.load(game_id))
    assert found.altered == 2 and [s.player for s in found.rows] == ["Aki"]
    page = sign(client, game_id, "Chie", app=app)
    assert "the sign-offs of this game were altered at sign-off 2: nothing more is signed at this table" in page
    result = html.unescape(client.get(f"/games/{game_id}/result").get_data(as_text=True))
    assert "The sign-offs of this game were altered at sign-off 2" in result


def test_the_sign_off_chain_covers_the_records_head_player_verdict_reason_and_time():
    start = chain.genesis({"players": ["Aki", "Ben"]})
    heads = {7: "h7"}
    first = {"head": "h7", "entries": 7, "player": "Aki", "verdict": "confirms", "reason": "",
             "at": "2026-11-26T14:00:00"}
    second = {**first, "player": "Ben", "verdict": "refuses", "reason": "miscounted"}
    one = chain.sign_off_link(start, 1, first)
    two = chain.sign_off_link(one, 2, second)
    assert chain.verify_sign_offs(start, [(1, first, one), (2, second, two)], heads) is None
    for key, value in (("head", "h6"), ("player", "Chie"), ("verdict", "confirms"), ("reason", "ok"),
                       ("at", "2026-11-26T14:00:01")):
        assert chain.verify_sign_offs(start, [(1, first, one), (2, {**second, key: value}, two)], heads) == 2, key
    assert chain.verify_sign_offs(start, [(2, second, two)], heads) == 1  # the first one removed
    forged = {**first, "head": "h6", "entries": 6}  # rehashed, but naming a head the record never had
    assert chain.verify_sign_offs(start, [(1, forged, chain.sign_off_link(start, 1, forged))], heads) == 1


def test_the_result_sheet_prints_the_sign_offs(app, tmp_path):
    client = app.test_client()
    game_id = finished_game(app, client)
    sign(client, game_id, "Chie", app=app)
    sign(client, game_id, "Aki", "refuses", "rent on Oriental was paid twice", app=app)
    data = client.get(f"/games/{game_id}/result.pdf").data
    path = tmp_path / "result.pdf"
    path.write_bytes(data)
    text = subprocess.run(["pdftotext", "-enc", "UTF-8", str(path), "-"], capture_output=True, check=True).stdout
    text = " ".join(text.decode("utf-8").split())
    assert "Players' sign-off 1 confirmed, 1 refused, 1 still to sign (Ben)" in text
    assert "Aki refused: rent on Oriental was paid twice" in text and "Chie confirmed" in text
    assert "Ben has not signed off" in text
    with app.test_request_context():
        assert "Chie confirmed" in reports.game_html(game_id)


def test_the_directors_table_card_shows_how_many_signed_and_each_refusal(app):
    tid, director, game_id, before, _ = played_table(app)
    names = [p["name"] for p in before["ranking"]]
    page = html.unescape(director.get(f"/tournaments/{tid}").get_data(as_text=True))
    assert "4 still to sign (" in page and "signed 0 of 4" not in page
    tablet = app.test_client()
    r = tablet.post(f"/games/{game_id}/unlock", data={"pin": "135791"})  # the director's PIN opens a table
    assert r.status_code == 302
    sign(tablet, game_id, names[0], app=app)
    sign(tablet, game_id, names[1], "refuses", "the clock ran on during the break", app=app)
    page = html.unescape(director.get(f"/tournaments/{tid}").get_data(as_text=True))
    assert "1 confirmed, 1 refused, 2 still to sign (" in page
    assert f"{names[1]} refused: the clock ran on during the break" in page


def test_a_void_that_takes_back_the_end_takes_the_kept_result_away_and_a_redo_keeps_it_again(app):
    client = app.test_client()
    game_id = finished_game(app, client)
    with app.app_context():
        table = folds.load(game_id)
        assert folds.kept_result(table)["head"] == table.fold.head
        games.record(game_id, {"type": "void", "count": 1}, table.seq)
        db.session.expire_all()
        assert db.session.get(GameRow, game_id).result is None
        games.redo(game_id, folds.load(game_id).seq)
        db.session.expire_all()
        table = folds.load(game_id)
        assert table.game.state.over and folds.kept_result(table)["head"] == table.fold.head
