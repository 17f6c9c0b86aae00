"""Players between rounds (issue 15): check-in, drops, late entries and an ordered list of alternates who step in
only between games; table sizes recomputed each round; on SQLite and PostgreSQL."""
import html

import pytest

from referee.services import progress, results, roster, tournaments

from test_formats import places, seat_and_play


def new_tournament(app, players: int, alternates=(), check_in=False, fmt="open") -> tuple[int, object]:
    client = app.test_client()
    r = client.post("/tournaments", data={"name": "Cup", "scheme": "jma-placement", "ruleset": "jma-2006",
                                          "format": fmt, "players": "\n".join(f"P{i:02d}" for i in range(players)),
                                          "alternates": "\n".join(alternates), "check_in": "1" if check_in else "",
                                          "pin": "135791"})
    assert r.status_code == 302, r.data
    return int(r.headers["Location"].rsplit("/", 1)[1]), client


def change(client, tid, seated, action, name="") -> str:
    r = client.post(f"/tournaments/{tid}/players", data={"seated": str(seated), "action": action, "name": name},
                    follow_redirects=True)
    assert r.status_code == 200
    return html.unescape(r.get_data(as_text=True))


def seated_players(app, tid, number) -> list[str]:
    with app.app_context():
        return sorted(p for v in tournaments.round_overview(tid, number) for p, _, _ in v.players)


def test_with_check_in_only_the_players_checked_in_are_seated_at_tables_sized_for_them(app):
    tid, client = new_tournament(app, 10, check_in=True)
    page = change(client, tid, 0, "check_in", "P00")
    assert "P00 is checked in: seated from round 1" in page
    for i in range(1, 8):
        change(client, tid, 0, "check_in", f"P{i:02d}")
    tables = seat_and_play(app, tid)
    assert sorted(map(len, tables)) == [4, 4]  # 8 checked in: two tables of four, P08 and P09 not seated
    assert not {"P08", "P09"} & set(seated_players(app, tid, 1))


def test_a_dropped_player_is_not_seated_again_but_keeps_their_results_and_the_tables_are_resized(app):
    tid, client = new_tournament(app, 9)
    seat_and_play(app, tid)
    assert "P04 has dropped: not seated from round 2 (their results stand)" in change(client, tid, 1, "drop", "P04")
    assert "P04 has already dropped" in change(client, tid, 1, "drop", "P04")  # a second tap changes nothing
    tables = seat_and_play(app, tid)
    assert sorted(map(len, tables)) == [4, 4] and "P04" not in seated_players(app, tid, 2)
    assert "P04" in places(app, tid)  # round 1 still counts
    assert "dropped before a round that has been seated since" in change(client, tid, 2, "reinstate", "P04")


def test_a_drop_is_undone_while_no_round_has_been_seated_since(app):
    tid, client = new_tournament(app, 8)
    seat_and_play(app, tid)
    change(client, tid, 1, "drop", "P01")
    assert "P01 is back: seated from round 2" in change(client, tid, 1, "reinstate", "P01")
    seat_and_play(app, tid)
    assert "P01" in seated_players(app, tid, 2)


@pytest.mark.long  # whole tournaments: scripts/test runs it, --fast leaves it out
def test_alternates_wait_in_order_and_the_first_steps_in_for_a_dropped_player_between_games(app):
    tid, client = new_tournament(app, 8, alternates=["Alt A", "Alt B"])
    seat_and_play(app, tid)
    assert not {"Alt A", "Alt B"} & set(seated_players(app, tid, 1))  # never seated before stepping in
    page = change(client, tid, 1, "drop_for_alternate", "P02")
    assert "P02 has dropped; Alt A steps in for them from round 2" in page
    assert "stepped in for P02 from round 2" in page and "alternate 1: <strong>Alt B</strong>" in page
    seat_and_play(app, tid)
    round2 = seated_players(app, tid, 2)
    assert "Alt A" in round2 and "P02" not in round2 and "Alt B" not in round2
    assert "Alt B steps in: seated from round 3" in change(client, tid, 2, "step_in", "Alt B")
    seat_and_play(app, tid)
    assert len(seated_players(app, tid, 3)) == 9  # tables of 5 and 4


def test_a_late_entry_plays_from_the_next_round(app):
    tid, client = new_tournament(app, 8)
    seat_and_play(app, tid)
    assert "Zoe enters late: seated from round 2" in change(client, tid, 1, "late_entry", "Zoe")
    assert "Zoe is already in this tournament" in change(client, tid, 1, "alternate", "Zoe")
    seat_and_play(app, tid)
    assert "Zoe" in seated_players(app, tid, 2)


def test_a_stale_screen_a_forged_action_or_a_huge_name_changes_nothing_and_says_why(app):
    tid, client = new_tournament(app, 8)
    seat_and_play(app, tid)
    assert "round 1 has been seated since this screen was drawn: nothing was changed" in change(
        client, tid, 0, "drop", "P01")
    assert "unknown change to a player: teleport" in change(client, tid, 1, "teleport", "P01")
    assert "no player Nobody in this tournament" in change(client, tid, 1, "drop", "Nobody")
    page = change(client, tid, 1, "late_entry", "x" * 1_000_000)
    assert "longer than 60 characters" in page
    page = change(client, tid, 1, "late_entry", "bad\u0000name")
    with app.app_context():
        views = roster.tournament_players(tid)
    assert [v.status for v in views] == ["playing"] * 8


def test_the_director_sees_the_players_list_with_one_button_per_change(app):
    tid, client = new_tournament(app, 8, alternates=["Alt A"])
    client.post(f"/tournaments/{tid}/unlock", data={"pin": "135791"})
    page = html.unescape(client.get(f"/tournaments/{tid}").get_data(as_text=True))
    assert "Players between rounds" in page and "8 to seat" in page and "alternates: 1" in page
    assert "Drop: Alt A steps in" in page and "Late entry (from round 1)" in page and "Step in" in page


# --- the director's corrections -----------------------------------------------------------------------------

def correction(client, tid, game_id, places, assets, reason, seen=0, monopoly=False, bankrupt=()) -> str:
    data = {"seen": str(seen), "reason": reason} | ({"monopoly": "1"} if monopoly else {})
    data |= {f"bankrupt-{i}": "1" for i in bankrupt}
    data |= {f"place-{i}": str(p) for i, p in enumerate(places)} | {f"assets-{i}": str(a) for i, a in enumerate(assets)}
    r = client.post(f"/tournaments/{tid}/tables/{game_id}/correct", data=data, follow_redirects=True)
    assert r.status_code == 200
    return html.unescape(r.get_data(as_text=True))


def played_table(app):
    """A tournament whose first round was played; the first table's game, the result it ended with and the
    standings' points."""
    tid, client = new_tournament(app, 8)
    seat_and_play(app, tid)
    with app.app_context():
        game_id = tournaments.round_overview(tid, 1)[0].game_id
        before = results.table_result(tid, game_id)
        points = {st.player: st.total for st in progress.tournament_standings(tid)}
    return tid, client, game_id, before, points


def test_a_corrected_result_is_kept_with_its_reason_shown_and_the_standings_follow_it(app):
    tid, client, game_id, before, points = played_table(app)
    first, second = before["ranking"][0]["name"], before["ranking"][1]["name"]
    totals = [p["total"] for p in before["ranking"]]
    swapped = [totals[1], totals[0], *totals[2:]]  # the places follow the totals: both were misread
    gone = [i for i, p in enumerate(before["ranking"]) if p["bankrupt_order"]]
    page = correction(client, tid, game_id, [2, 1, 3, 4], swapped, "scoring slip: 1st and 2nd were swapped",
                      bankrupt=gone)
    assert "round 1, table 1: result corrected (scoring slip: 1st and 2nd were swapped)" in page
    assert "Result corrected: scoring slip" in page
    with app.app_context():
        after = {st.player: st.total for st in progress.tournament_standings(tid)}
    assert (after[first], after[second]) == (points[second], points[first])  # 6 and 10 swapped
    standings = html.unescape(client.get(f"/tournaments/{tid}/standings").get_data(as_text=True))
    assert "Corrections by the director" in standings and "scoring slip: 1st and 2nd were swapped" in standings
    # the same screen sent again (a second tap) changes nothing
    page = correction(client, tid, game_id, [1, 2, 3, 4], totals, "again", seen=0, bankrupt=gone)
    assert "corrected since this screen was drawn: nothing was changed" in page
    # the form lists the result that stands (second first now): swapping again puts it back as played
    page = correction(client, tid, game_id, [2, 1, 3, 4], swapped, "back as played", seen=1, bankrupt=gone)
    with app.app_context():
        assert {st.player: st.total for st in progress.tournament_standings(tid)} == points
        assert [c.reason for c in results.corrections(tid)] == ["scoring slip: 1st and 2nd were swapped",
                                                                "back as played"]


def test_a_correction_that_is_not_a_ranking_or_lacks_its_reason_is_refused_and_changes_nothing(app):
    tid, client = new_tournament(app, 8)
    seat_and_play(app, tid)
    with app.app_context():
        game_id = tournaments.round_overview(tid, 1)[0].game_id
    totals = [1500] * 4
    assert "are both given place 1: players level on the rules' count are ranked by a roll-off" in correction(
        client, tid, game_id, [1, 1, 3, 4], totals, "x")
    assert "a correction needs its reason" in correction(client, tid, game_id, [1, 2, 3, 4], totals, "  ")
    assert "place must be from 1 to 4" in correction(client, tid, game_id, [0, 2, 3, 4], totals, "x")
    assert "assets must be a whole amount" in correction(client, tid, game_id, [1, 2, 3, 4], [-5, 1, 1, 1], "x")
    assert "reason is longer than 300 characters" in correction(client, tid, game_id, [1, 2, 3, 4], totals,
                                                                "x" * 100_000)
    assert "a monopoly win leaves one player standing: every other player is bankrupt" in correction(
        client, tid, game_id, [1, 2, 3, 4], totals, "x", monopoly=True)
    r = client.get(f"/tournaments/{tid}/tables/999999/correct")
    assert r.status_code == 404
    with app.app_context():
        assert results.corrections(tid) == []


def test_the_director_replaces_a_player_between_rounds_by_a_late_entry_in_their_place(app):
    tid, client = new_tournament(app, 8)
    seat_and_play(app, tid)
    r = client.post(f"/tournaments/{tid}/players", data={"seated": "1", "action": "late_entry", "name": "Zoe",
                                                         "replaces": "P03"}, follow_redirects=True)
    page = html.unescape(r.get_data(as_text=True))
    assert "Zoe takes the place of P03 from round 2; P03 has dropped" in page
    assert "stepped in for P03 from round 2" in page
    seat_and_play(app, tid)
    round2 = seated_players(app, tid, 2)
    assert "Zoe" in round2 and "P03" not in round2


def confirmation(app, action: str, alternates=()) -> tuple[int, object, str]:
    """A tournament of 8 after round 1, its director's page open: the confirmation of ``action`` for P04 (each
    player's form of that action inside its own confirmation, checked here)."""
    tid, client = new_tournament(app, 8, alternates=alternates)
    seat_and_play(app, tid)
    client.post(f"/tournaments/{tid}/unlock", data={"pin": "135791"})
    page = html.unescape(client.get(f"/tournaments/{tid}").get_data(as_text=True))
    assert page.count(f'name="action" value="{action}"') == 8
    assert page.count(f'<details class="confirm" id="{action}-') == 8
    box = page.split(f'<details class="confirm" id="{action}-P04">', 1)[1].split("</details>", 1)[0]
    assert f'value="{action}"' in box
    return tid, client, box


def test_drop_asks_for_a_confirmation_naming_the_player_before_it_is_sent(app):
    """A drop is a change the director confirms: the first tap opens the question, the second sends it."""
    _, _, box = confirmation(app, "drop")
    assert "<summary>Drop…</summary>" in box
    assert "P04 leaves the tournament: not seated from round 2; their results stand." in box
    assert ">Yes: drop P04</button>" in box


def test_drop_for_the_alternate_asks_for_a_confirmation_and_a_second_tap_changes_nothing(app):
    """Dropping a player for the first alternate is confirmed as a drop is (a <details class="confirm"> that works
    without script: the first tap opens the question naming both, the second sends it); the same form sent twice
    (a double tap) drops once and lets one alternate step in: the second is refused, nothing changed."""
    tid, client, box = confirmation(app, "drop_for_alternate", ["Alt A", "Alt B"])
    assert "<summary>Drop: Alt A steps in…</summary>" in box
    assert "P04 leaves the tournament and Alt A plays in their place from round 2; P04's results stand." in box
    assert ">Yes: drop P04 for Alt A</button>" in box
    assert "P04 has dropped; Alt A steps in for them from round 2" in change(client, tid, 1, "drop_for_alternate",
                                                                            "P04")
    again = change(client, tid, 1, "drop_for_alternate", "P04")
    assert "P04 has already dropped" in again and "Alt B steps in for them" not in again
    with app.app_context():
        status = {v.name: (v.status, v.alternate) for v in roster.tournament_players(tid)}
    assert status["P04"] == ("dropped", None) and status["Alt A"] == ("playing", None)
    assert status["Alt B"] == ("alternate", 1)


def test_the_new_tournament_form_says_each_formats_fewest_players_before_it_is_sent(app):
    client = app.test_client()
    page = html.unescape(client.get("/tournaments").get_data(as_text=True))
    semis = page.split('value="club-semifinals"', 1)[1].split("</label>", 1)[0]
    assert 'data-least="16"' in semis and "at least 16 players" in semis
    assert 'data-least="2"' in page.split('value="open"', 1)[1].split(">", 1)[0]
    assert "{count} players entered: the format chosen needs at least {n}." in page  # the live count's words


@pytest.mark.long  # whole tournaments: scripts/test runs it, --fast leaves it out
def test_a_late_entrant_with_fewer_games_is_flagged_at_the_cut_with_their_games(app):
    """A player who entered late reaches the cut with fewer games: their total counts fewer games, and the
    director is told so before the final is seated."""
    tid, client = new_tournament(app, 8, fmt="championship")
    seat_and_play(app, tid)
    change(client, tid, 1, "late_entry", "Zoe")
    seat_and_play(app, tid)
    seat_and_play(app, tid)
    client.post(f"/tournaments/{tid}/unlock", data={"pin": "135791"})
    page = html.unescape(client.get(f"/tournaments/{tid}").get_data(as_text=True))
    assert ("Fewer games than the others ranked for this cut (their totals count fewer games): "
            "Zoe (2 of 3 games).") in page
    with app.app_context():
        (cut,) = progress.stage_cuts(tid, "final")
    assert cut.fewer == [("Zoe", 2, 3)]


@pytest.mark.long  # whole tournaments: scripts/test runs it, --fast leaves it out
def test_standings_follow_a_correction_in_a_database_made_anew_whose_rows_are_numbered_as_before(app):
    """A database emptied and made anew (a restore, a new season on the same server) numbers its rows from 1 again:
    the same tournament played the same way, corrected another way, has its own standings, never the ones worked
    out for the first."""
    import sqlalchemy
    from referee.store.db import db

    def corrected(places):
        tid, client, game_id, before, _ = played_table(app)
        totals = [p["total"] for p in before["ranking"]]
        gone = [i for i, p in enumerate(before["ranking"]) if p["bankrupt_order"]]
        order = sorted(range(4), key=lambda i: places[i])
        correction(client, tid, game_id, places, [totals[order.index(i)] for i in range(4)], "scoring slip",
                   bankrupt=gone)
        with app.app_context():
            return tid, [st.player for st in progress.tournament_standings(tid)]

    first_tid, first = corrected([2, 1, 3, 4])
    with app.app_context():  # every row deleted: the next ones are numbered from 1 again
        if db.engine.dialect.name == "postgresql":
            db.session.execute(sqlalchemy.text("TRUNCATE " + ", ".join(f'"{t}"' for t in db.metadata.tables)
                                               + " RESTART IDENTITY CASCADE"))
        else:
            for table in reversed(db.metadata.sorted_tables):
                db.session.execute(table.delete())
        db.session.commit()
    second_tid, second = corrected([4, 3, 2, 1])
    assert second_tid == first_tid and second != first
