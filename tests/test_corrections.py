"""The director's corrections that cannot go wrong: places that follow from the totals as the rules rank a game,
refused with the rule named; a mistaken correction withdrawn by a later row with its reason (the result falls back);
the standings page and PDF marking what is in force and what was withdrawn; the director's table cards showing
the totals that ranked a finished game, not cash.  On SQLite and PostgreSQL."""
import html
import subprocess

import sqlalchemy

from referee import reports
from referee.store.db import db
from referee.services import progress, results, rulesets, standing, tournaments

from test_players_between_rounds import correction, played_table

WORDS = {"assets": "by total assets", "bankrupt": "bankrupt order", "rolloff": "roll-off",
         "monopoly": "last player standing"}


def as_played(before) -> tuple[list[int], list[int], list[int]]:
    """The game's own places, totals and bankrupt rows, as the correction form lists them."""
    ranking = before["ranking"]
    return ([p["rank"] for p in ranking], [p["total"] for p in ranking],
            [i for i, p in enumerate(ranking) if p["bankrupt_order"]])


def standings_points(app, tid) -> dict[str, object]:
    with app.app_context():
        return {st.player: st.total for st in progress.tournament_standings(tid)}


def pdf_text(app, tid, tmp_path) -> str:
    with app.test_request_context():
        data = reports.standings_pdf(tid, "A4")
    path = tmp_path / "standings.pdf"
    path.write_bytes(data)
    text = subprocess.run(["pdftotext", "-enc", "UTF-8", str(path), "-"], capture_output=True, check=True).stdout
    return " ".join(text.decode("utf-8").split())


def test_two_players_in_first_place_or_places_against_the_totals_are_refused_naming_the_rule(app):
    tid, client, game_id, before, points = played_table(app)
    places, totals, gone = as_played(before)
    names = [p["name"] for p in before["ranking"]]
    page = correction(client, tid, game_id, [1, 1, 3, 4], totals, "two winners", bankrupt=gone)
    pair = sorted(names[:2])  # named in seat order
    assert any(f"{a} and {b} are both given place 1: players level on the rules' count are ranked by a roll-off, so "
               "no two players share a place" in page for a, b in (pair, pair[::-1]))
    higher = [totals[0] + 500, *totals[1:]]  # first's total raised: the second cannot be placed above
    page = correction(client, tid, game_id, [2, 1, 3, 4], higher, "swapped", bankrupt=gone)
    assert (f"{names[1]} is placed above {names[0]} with less in total assets: players left standing are ranked by "
            "total assets, the higher first") in page
    with app.app_context():
        assert results.corrections(tid) == []
    assert standings_points(app, tid) == points


def test_a_withdrawn_correction_falls_back_to_the_one_before_then_to_the_games_result_and_stays_marked(app, tmp_path):
    tid, client, game_id, before, points = played_table(app)
    places, totals, gone = as_played(before)
    raised = [totals[0] + 100, *totals[1:]]
    correction(client, tid, game_id, places, raised, "a deed missed in the count", bankrupt=gone)
    swapped = [raised[1], raised[0], *raised[2:]]
    page = correction(client, tid, game_id, [2, 1, 3, 4], swapped, "first and second swapped by mistake", seen=1,
                      bankrupt=gone)
    moved = standings_points(app, tid)
    assert moved != points
    with app.app_context():
        second = next(c for c in results.corrections(tid) if c.number == 2)
    r = client.post(f"/tournaments/{tid}/tables/{game_id}/correct", follow_redirects=True,
                    data={"seen": "2", "withdraw": str(second.id), "reason": "the swap was itself the mistake"})
    page = html.unescape(r.get_data(as_text=True))
    assert ("round 1, table 1: correction 2 withdrawn (the swap was itself the mistake); correction 1 stands again "
            "and the standings follow it") in page
    assert standings_points(app, tid) == points  # correction 1 moved assets only: the places are the game's
    with app.app_context():
        assert results.table_result(tid, game_id)["ranking"][0]["total"] == raised[0]
        assert [(c.number, c.status) for c in results.corrections(tid)] == [(1, "in_force"), (2, "withdrawn")]
    # the same screen sent again changes nothing; a withdrawal is not withdrawn twice
    r = client.post(f"/tournaments/{tid}/tables/{game_id}/correct", follow_redirects=True,
                    data={"seen": "3", "withdraw": str(second.id), "reason": "again"})
    assert "correction 2 of this table is already withdrawn" in html.unescape(r.get_data(as_text=True))
    with app.app_context():
        first = next(c for c in results.corrections(tid) if c.number == 1)
    r = client.post(f"/tournaments/{tid}/tables/{game_id}/correct", follow_redirects=True,
                    data={"seen": "3", "withdraw": str(first.id), "reason": "the slip was right after all"})
    assert "correction 1 withdrawn (the slip was right after all); the game's own result stands again" in (
        html.unescape(r.get_data(as_text=True)))
    with app.app_context():
        assert results.table_result(tid, game_id) == before
        assert [c.status for c in results.corrections(tid)] == ["withdrawn", "withdrawn"]
        assert tournaments.round_overview(tid, 1)[0].corrected is None
    standings = html.unescape(client.get(f"/tournaments/{tid}/standings").get_data(as_text=True))
    assert "Round 1, table 1, correction 2" in standings and "withdrawn" in standings
    assert "the swap was itself the mistake" in standings and "the slip was right after all" in standings
    text = pdf_text(app, tid, tmp_path)
    assert "Corrections by the director" in text
    assert "correction 1" in text and "correction 2" in text and text.count("withdrawn") >= 2
    assert "the swap was itself the mistake" in text


def test_the_standings_pdf_marks_the_correction_in_force_and_the_one_it_replaced(app, tmp_path):
    tid, client, game_id, before, points = played_table(app)
    places, totals, gone = as_played(before)
    correction(client, tid, game_id, places, [totals[0] + 100, *totals[1:]], "a deed missed", bankrupt=gone)
    correction(client, tid, game_id, places, [totals[0] + 200, *totals[1:]], "two deeds missed", seen=1,
               bankrupt=gone)
    text = pdf_text(app, tid, tmp_path)
    assert "a deed missed — replaced by a later correction" in text
    assert "two deeds missed — in force" in text


def test_the_directors_card_of_a_finished_table_shows_the_totals_that_ranked_it_and_the_rule(app):
    tid, client, game_id, before, points = played_table(app)
    with app.app_context():
        card = tournaments.round_overview(tid, 1)[0]
        money = rulesets.load("jma-2006").money
    assert [(place, name, total) for place, name, total, _ in card.ranked] == [
        (p["rank"], p["name"], p["total"]) for p in before["ranking"]]
    page = html.unescape(client.get(f"/tournaments/{tid}").get_data(as_text=True))
    for place, name, total, by in card.ranked:
        assert (f"<td>{place}. {name}<div class=\"by muted\">{WORDS[by]}</div></td>"
                f"<td class=\"n\">{reports.cash_text(total, money)}</td>") in page
    # a correction's totals and its roll-off are what the card shows then
    places, totals, gone = as_played(before)
    assert before["reason"] == "time" and gone == []  # this table's game ended by time, everyone standing
    level = [totals[0], totals[0], *totals[2:]]  # the second was level with the first: the roll-off ranked them
    correction(client, tid, game_id, [2, 1, 3, 4], level, "equal totals: a roll-off")
    with app.app_context():
        card = tournaments.round_overview(tid, 1)[0]
    assert [(place, name, total, by) for place, name, total, by in card.ranked] == [
        (1, before["ranking"][1]["name"], totals[0], "rolloff"), (2, before["ranking"][0]["name"], totals[0], "rolloff"),
        (3, before["ranking"][2]["name"], totals[2], "assets"), (4, before["ranking"][3]["name"], totals[3], "assets")]
    page = html.unescape(client.get(f"/tournaments/{tid}").get_data(as_text=True))
    assert "Result corrected: equal totals: a roll-off" in page
    first = before["ranking"][1]["name"]
    assert (f"<td>1. {first}<div class=\"by muted\">roll-off</div></td>"
            f"<td class=\"n\">{reports.cash_text(totals[0], money)}</td>") in page


def test_a_tournament_whose_corrections_were_withdrawn_is_deleted_whole(app, tmp_path):
    tid, client, game_id, before, points = played_table(app)
    places, totals, gone = as_played(before)
    correction(client, tid, game_id, places, [totals[0] + 100, *totals[1:]], "a deed missed", bankrupt=gone)
    with app.app_context():
        first = results.corrections(tid)[0]
    client.post(f"/tournaments/{tid}/tables/{game_id}/correct",
                data={"seen": "1", "withdraw": str(first.id), "reason": "it was not missed"})
    app.config["RECORDS_DIR"] = str(tmp_path / "records")
    with app.app_context():
        assert [c.status for c in results.corrections(tid)] == ["withdrawn"]
        tournaments.delete_tournament(tid)
        left = db.session.execute(sqlalchemy.text("SELECT count(*) FROM result_corrections")).scalar()
    assert left == 0


def test_the_live_pages_seating_is_the_tournaments_rows_with_every_correction_and_withdrawal_in_order(app):
    """The director's page and the room display read a tournament's rounds, tables and corrections as values in one
    statement (services/standing.py seating): the same rounds, tables, PINs and corrections, in the same order, as
    the stored rows give, a withdrawal included, and the same correction in force."""
    tid, client, game_id, before, points = played_table(app)
    places, totals, gone = as_played(before)
    correction(client, tid, game_id, places, [totals[0] + 100, *totals[1:]], "a deed missed", bankrupt=gone)
    correction(client, tid, game_id, places, [totals[0] + 200, *totals[1:]], "two deeds missed", seen=1,
               bankrupt=gone)
    with app.app_context():
        second = next(c for c in results.corrections(tid) if c.number == 2)
    client.post(f"/tournaments/{tid}/tables/{game_id}/correct",
                data={"seen": "2", "withdraw": str(second.id), "reason": "one deed only"})
    with app.app_context():
        row = tournaments.get_tournament(tid)
        stored = [(r.number, r.stage, r.final, [(t.id, t.number, t.game_id, t.pin,
                                                 [(c.id, c.withdraws_id, c.reason, c.result) for c in t.corrections])
                                                for t in r.tables]) for r in row.rounds]
        read = [(r.number, r.stage, r.final, [(t.id, t.number, t.game_id, t.pin,
                                               [(c.id, c.withdraws_id, c.reason, c.result) for c in t.corrections])
                                              for t in r.tables]) for r in tournaments.seating(tid)]
        assert read == stored
        assert sum(len(c) for *_, tables in read for *_, c in tables) == 3  # two corrections and a withdrawal
        table = next(t for r in tournaments.seating(tid) for t in r.tables if t.game_id == game_id)
        stored_table = next(t for r in row.rounds for t in r.tables if t.game_id == game_id)
        assert standing.standing_correction(table).id == standing.standing_correction(stored_table).id
        assert standing.standing_correction(table).reason == "a deed missed"
