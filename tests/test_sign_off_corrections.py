"""The players' sign-offs mean what they say.  A refusal is no signature: the count says "1 confirmed, 1 refused" and
who is still to sign, in every language.  A sign-off names the ranking it was given on: when the director corrects a
table's result after players signed, their sign-offs are kept as given on the earlier ranking (no longer counted),
the table's game-over card shows the corrected ranking with the sign-off buttons, and it and the director's card say
the ranking must be signed again; a screen drawn before the correction signs nothing; withdrawing the correction
brings back the ranking signed before, and its sign-offs count again.  The chain covers the ranking a sign-off names
(old sign-offs, which name none, keep their hashes: `referee verify` passes), the record file carries it, and the
migration that adds it leaves the sign-offs stored before as they were.  On SQLite and PostgreSQL."""
import html
import re

import pytest
import sqlalchemy
from flask_migrate import downgrade, upgrade

from referee.engine import chain
from referee import cli
from referee.app import MIGRATIONS
from referee.store.db import db
from referee.cache import FOLDS
from referee.services import folds, games, results, signoffs, stamps

from conftest import migrations_head
from test_players_between_rounds import correction, played_table
from test_rulings_log import text
from test_sign_off import finished_game, sign

SIGN_OFF_RANKING = "c6d2a8f4e1b9"  # the migration by which a sign-off names the ranking it was given on
AGAIN = "The director corrected the final ranking after the players signed off: the corrected ranking must be signed again."


def screen(app, game_id) -> tuple[int, int, str]:
    """What the table screen's sign-off forms carry now: the entries, the sign-offs and the ranking they show."""
    with app.app_context():
        shown = signoffs.sign_offs(folds.load(game_id))
        return shown.entries, len(shown.rows), shown.ranking


def sign_on(client, app, game_id, player, verdict="confirms", reason="", shown=None) -> str:
    """A player's sign-off from the table screen as it is now (or as it was: ``shown``, what :func:`screen` read)."""
    entries, count, ranking = shown or screen(app, game_id)
    return sign(client, game_id, player, verdict, reason, at=(entries, count), ranking=ranking)


def card(director, tid, game_id) -> str:
    """The director's card of the table, as its words read."""
    page = director.get(f"/tournaments/{tid}").get_data(as_text=True)
    start = page.index(f'id="table-{game_id}"')
    return text(page[start:page.index('<div class="player table-card', start + 1)]
                if '<div class="player table-card' in page[start + 1:] else page[start:])


def swapped(before) -> tuple[list[int], list[int], list[int]]:
    """The correction form's places, totals and bankrupt rows with the first two places swapped (their totals too,
    so the places follow the totals)."""
    ranking = before["ranking"]
    totals = [p["total"] for p in ranking]
    return ([2, 1, *range(3, len(ranking) + 1)], [totals[1], totals[0], *totals[2:]],
            [i for i, p in enumerate(ranking) if p["bankrupt_order"]])


def signed_table(app):
    """A tournament's finished table whose first player (in the final ranking) confirmed it and second refused it,
    on a tablet unlocked with the director's PIN."""
    tid, director, game_id, before, _ = played_table(app)
    names = [p["name"] for p in before["ranking"]]
    tablet = app.test_client()
    assert tablet.post(f"/games/{game_id}/unlock", data={"pin": "135791"}).status_code == 302
    sign_on(tablet, app, game_id, names[0])
    sign_on(tablet, app, game_id, names[1], "refuses", "my hotel was not counted")
    return tid, director, tablet, game_id, before, names


def stored(app, game_id) -> list[tuple]:
    with app.app_context():
        return db.session.execute(sqlalchemy.text(
            "SELECT n, player, verdict, ranking FROM sign_offs WHERE game_id = :g ORDER BY n"), {"g": game_id}).all()


def verified(app) -> int:
    """`referee verify` on the app's database: its exit status (0: every record, ruling and sign-off as written)."""
    return cli.main(["verify", "--database", app.config["SQLALCHEMY_DATABASE_URI"]])


def test_a_refusal_is_counted_apart_from_the_confirmations_on_both_cards_in_every_language(app):
    tid, director, tablet, game_id, before, names = signed_table(app)
    with app.app_context():
        waiting = signoffs.sign_offs(folds.load(game_id)).waiting
    count = f"1 confirmed, 1 refused, 2 still to sign ({', '.join(waiting)})"
    assert count in text(tablet.get(f"/games/{game_id}").get_data(as_text=True))
    assert count in card(director, tid, game_id) and "signed 2 of 4" not in card(director, tid, game_id)
    for lang, words in (("ja", f"承認 1 人、拒否 1 人、未署名 2 人（{'、'.join(waiting)}）"),
                        ("ko", f"승인 1명, 거부 1명, 미서명 2명({', '.join(waiting)})"),
                        ("de", f"1 bestätigt, 1 abgelehnt, 2 müssen noch abzeichnen ({', '.join(waiting)})")):
        page = text(tablet.get(f"/games/{game_id}", headers={"Accept-Language": lang}).get_data(as_text=True))
        assert words in page, lang
        page = text(director.get(f"/tournaments/{tid}", headers={"Accept-Language": lang}).get_data(as_text=True))
        assert words in page, lang
    for name in names[2:]:
        sign_on(tablet, app, game_id, name)
    page = text(tablet.get(f"/games/{game_id}").get_data(as_text=True))
    assert "3 confirmed, 1 refused" in page and "still to sign" not in page


def test_a_correction_after_sign_off_offers_the_corrected_ranking_for_signature_again(app):
    tid, director, tablet, game_id, before, names = signed_table(app)
    drawn = screen(app, game_id)  # the tablet's screen, drawn before the correction
    places, totals, gone = swapped(before)
    correction(director, tid, game_id, places, totals, "1st and 2nd swapped on the slip", bankrupt=gone)
    with app.app_context():
        corrected = results.table_result(tid, game_id)
    digest = chain.ranking_digest(corrected)

    page = tablet.get(f"/games/{game_id}").get_data(as_text=True)
    words = text(page)
    assert "The final ranking as the director corrected it" in words and AGAIN in words
    assert "Result corrected: 1st and 2nd swapped on the slip" in words
    first = re.search(r'id="corrected-ranking".*?<tr><td>1</td><td>([^<]+)</td>', page, flags=re.S).group(1)
    assert html.unescape(first) == names[1]
    assert "4 still to sign (" in words  # the sign-offs before the correction no longer count
    for name in names:  # every player's buttons are offered again, naming the corrected ranking
        assert f"{name} confirms</button>" in html.unescape(page)
    assert page.count(f'name="ranking" value="{digest}"') == 2 * len(names)
    assert f"{names[0]} confirmed" in words and "on the game's own ranking, before the director corrected it" in words
    director_card = card(director, tid, game_id)
    assert AGAIN in director_card and "4 still to sign (" in director_card
    assert "2 sign-offs for an earlier result" in director_card

    # a screen drawn before the correction signs nothing
    refused = sign_on(tablet, app, game_id, names[2], shown=drawn)
    assert "the director corrected the final ranking, or withdrew a correction, since this screen was drawn" in refused
    assert len(stored(app, game_id)) == 2

    sign_on(tablet, app, game_id, names[1])  # the player who refused the game's ranking confirms the corrected one
    assert stored(app, game_id)[-1] == (3, names[1], "confirms", digest)
    words = text(tablet.get(f"/games/{game_id}").get_data(as_text=True))
    assert "1 confirmed, 3 still to sign (" in words and AGAIN in words
    for name in (names[0], names[2], names[3]):
        sign_on(tablet, app, game_id, name)
    words = text(tablet.get(f"/games/{game_id}").get_data(as_text=True))
    assert "4 confirmed" in words and AGAIN not in words and "still to sign" not in words
    assert AGAIN not in card(director, tid, game_id)
    with app.app_context():
        assert signoffs.verify_all() == []
    assert verified(app) == 0


def test_withdrawing_the_correction_brings_back_the_ranking_signed_before_and_its_sign_offs(app):
    tid, director, tablet, game_id, before, names = signed_table(app)
    places, totals, gone = swapped(before)
    correction(director, tid, game_id, places, totals, "1st and 2nd swapped on the slip", bankrupt=gone)
    sign_on(tablet, app, game_id, names[2])  # on the corrected ranking
    with app.app_context():
        correction_id = results.table_corrections(tid, game_id)[0][0].id
    r = director.post(f"/tournaments/{tid}/tables/{game_id}/correct", follow_redirects=True,
                      data={"seen": "1", "withdraw": str(correction_id), "reason": "the slip was right after all"})
    assert r.status_code == 200 and "correction 1 withdrawn" in html.unescape(r.get_data(as_text=True))

    page = tablet.get(f"/games/{game_id}").get_data(as_text=True)
    words = text(page)
    assert "The final ranking as the director corrected it" not in words and AGAIN not in words
    assert "1 confirmed, 1 refused, 2 still to sign (" in words  # the sign-offs on the game's ranking count again
    assert f"{names[0]} confirmed" in words and f"{names[1]} refused: my hotel was not counted" in words
    assert "on a corrected ranking that no longer stands" in words  # names[2]'s, given on the withdrawn one
    assert f"{names[2]} confirms</button>" in html.unescape(page) and 'name="ranking" value=""' in page
    director_card = card(director, tid, game_id)
    assert "1 confirmed, 1 refused, 2 still to sign (" in director_card and AGAIN not in director_card
    sign_on(tablet, app, game_id, names[2])  # signs the game's own ranking, which stands again
    assert stored(app, game_id)[-1] == (4, names[2], "confirms", None)
    with app.app_context():
        assert signoffs.verify_all() == []
    assert verified(app) == 0


def test_the_tables_live_version_follows_a_correction_and_its_withdrawal(app):
    tid, director, tablet, game_id, before, names = signed_table(app)
    with app.app_context():
        shown = stamps.stamp(folds.load(game_id)).version
    poll = {"HX-Request": "true"}
    assert tablet.get(f"/games/{game_id}?v={shown}", headers=poll).status_code == 204
    places, totals, gone = swapped(before)
    correction(director, tid, game_id, places, totals, "1st and 2nd swapped on the slip", bankrupt=gone)
    r = tablet.get(f"/games/{game_id}?v={shown}", headers=poll)
    assert r.status_code == 200 and AGAIN in text(r.get_data(as_text=True))


def test_the_ranking_a_sign_off_names_is_covered_by_its_hash(app):
    tid, director, tablet, game_id, before, names = signed_table(app)
    places, totals, gone = swapped(before)
    correction(director, tid, game_id, places, totals, "1st and 2nd swapped on the slip", bankrupt=gone)
    sign_on(tablet, app, game_id, names[2])
    for n, forged in ((3, None), (1, "0" * 64)):  # the ranking taken away, or one given to an old sign-off
        with app.app_context():
            original = db.session.execute(sqlalchemy.text(
                "SELECT ranking FROM sign_offs WHERE game_id = :g AND n = :n"), {"g": game_id, "n": n}).scalar()
            db.session.execute(sqlalchemy.text("UPDATE sign_offs SET ranking = :r WHERE game_id = :g AND n = :n"),
                               {"r": forged, "g": game_id, "n": n})
            db.session.commit()
            assert signoffs.sign_offs(folds.load(game_id)).altered == n
            assert [(row.id, at) for row, at, _ in signoffs.verify_all()] == [(game_id, n)]
            db.session.execute(sqlalchemy.text("UPDATE sign_offs SET ranking = :r WHERE game_id = :g AND n = :n"),
                               {"r": original, "g": game_id, "n": n})
            db.session.commit()
            assert signoffs.verify_all() == []


def test_the_record_file_carries_the_ranking_a_sign_off_names_and_an_import_checks_it(app):
    tid, director, tablet, game_id, before, names = signed_table(app)
    places, totals, gone = swapped(before)
    correction(director, tid, game_id, places, totals, "1st and 2nd swapped on the slip", bankrupt=gone)
    sign_on(tablet, app, game_id, names[2])
    with app.app_context():
        record = games.export_record(game_id)
        lines = [line for line in record.splitlines() if line.startswith('{"signoff"')]
        assert '"ranking"' not in lines[0] and '"ranking"' not in lines[1]  # given on the game's own result
        digest = chain.ranking_digest(results.table_result(tid, game_id))
        assert f'"ranking": "{digest}"' in lines[2]
        copy = games.import_record(record, "246810")
        again = signoffs.sign_offs(folds.load(copy))
        assert again.altered is None and again.corrected is None  # the file carries no correction
        assert [(s.player, s.current, s.since) for s in again.rows] == [
            (names[0], True, ""), (names[1], True, ""), (names[2], False, "ranking")]
        assert games.export_record(copy).splitlines()[1:] == record.splitlines()[1:]
        for changed, words in ((lines[2].replace(digest, "1" * 64), "sign-off 3 (" + names[2] + ") is not the one "
                                                                     "signed"),
                               (lines[2].replace(f'"{digest}"', "7"), "a sign-off line holds the player"),
                               (lines[2].replace(digest, "x" * 300), "a sign-off line holds the player")):
            with pytest.raises(Exception) as refused:
                games.import_record(record.replace(lines[2], changed), "246810")
            assert words in str(refused.value), changed


def test_the_migration_leaves_the_sign_offs_stored_before_it_verifying_and_counted(app):
    client = app.test_client()
    game_id = finished_game(app, client)
    sign(client, game_id, "Aki", app=app, ranking="")
    sign(client, game_id, "Ben", "refuses", "the count was wrong", app=app, ranking="")
    with app.app_context():
        downgrade(directory=str(MIGRATIONS), revision="b5e1c7d9a3f2")
        columns = [c["name"] for c in sqlalchemy.inspect(db.engine).get_columns("sign_offs")]
        assert "ranking" not in columns
        upgrade(directory=str(MIGRATIONS))
        FOLDS.clear()
        assert signoffs.verify_all() == []
        shown = signoffs.sign_offs(folds.load(game_id))
        assert shown.altered is None and shown.confirmed == 1 and [s.player for s in shown.refusals] == ["Ben"]
        assert all(s.ranking is None and s.current for s in shown.rows)
    assert verified(app) == 0


def test_the_migration_is_not_taken_back_over_sign_offs_that_name_a_corrected_ranking(app, capfd):
    tid, director, tablet, game_id, before, names = signed_table(app)
    places, totals, gone = swapped(before)
    correction(director, tid, game_id, places, totals, "1st and 2nd swapped on the slip", bankrupt=gone)
    sign_on(tablet, app, game_id, names[2])
    with app.app_context():
        downgrade(directory=str(MIGRATIONS), revision=SIGN_OFF_RANKING)  # the later ones: none of them refuses
        with pytest.raises(SystemExit):  # flask-migrate logs the migration's refusal and exits
            downgrade(directory=str(MIGRATIONS), revision="b5e1c7d9a3f2")
        assert "ranking" in [c["name"] for c in sqlalchemy.inspect(db.engine).get_columns("sign_offs")]
        assert db.session.execute(sqlalchemy.text("SELECT version_num FROM alembic_version")).scalar() == \
            SIGN_OFF_RANKING
        upgrade(directory=str(MIGRATIONS))
        assert db.session.execute(sqlalchemy.text("SELECT version_num FROM alembic_version")).scalar() == \
            migrations_head()
        assert signoffs.verify_all() == []
    assert "1 sign-off(s) name the corrected ranking they were given on" in capfd.readouterr().err
