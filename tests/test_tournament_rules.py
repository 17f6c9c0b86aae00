"""The director's tournament rules as pure functions on values: the roster between rounds, a correction's places,
and who goes on at a cut.  No app and no database: each rule is asked with plain values."""
from __future__ import annotations

import pytest

from referee.services import rulesets
from referee.tournament import formats
from referee.tournament.corrections import (Kept, check_withdrawal, corrected_result, in_force, number_of,
                                             ranked_by, withdrawn)
from referee.tournament.messages import BadTournament
from referee.tournament.progress import cuts, division_entrants, progress
from referee.tournament.roster import Entrant, active, add, change, listed
from referee.tournament.scoring import GameResult, PlayerResult


def roster(*names: str, **alternates: int) -> tuple[Entrant, ...]:
    return tuple(Entrant(n) for n in names) + tuple(Entrant(n, alternate=k) for n, k in alternates.items())


def refused(call, *args) -> str:
    with pytest.raises(BadTournament) as exc:
        call(*args)
    return exc.value.message


# --- the roster between rounds --------------------------------------------------------------------------------

def test_a_player_checked_out_is_not_seated_until_checked_in_again():
    players, done = change(roster("Aki", "Ben"), "Ben", "check_out", 0)
    assert active(players) == ["Aki"] and done.detail() == "Ben is not checked in: not seated until checked in"
    players, done = change(players, "Ben", "check_in", 0)
    assert active(players) == ["Aki", "Ben"] and done.detail() == "Ben is checked in: seated from round 1"


def test_a_drop_stands_from_the_next_round_and_is_undone_only_before_another_round_is_seated():
    players, done = change(roster("Aki", "Ben", "Chie"), "Ben", "drop", 2)
    assert players[1].dropped_round == 2 and active(players) == ["Aki", "Chie"]
    assert done.detail() == "Ben has dropped: not seated from round 3 (their results stand)"
    back, _ = change(players, "Ben", "reinstate", 2)
    assert active(back) == ["Aki", "Ben", "Chie"]
    assert "as a late entry only" in refused(change, players, "Ben", "reinstate", 3)
    assert refused(change, players, "Ben", "drop", 2) == "Ben has already dropped"


def test_an_alternate_steps_in_for_a_dropped_player_in_the_alternates_order_and_division():
    players = (Entrant("Aki", division="open"), Entrant("Ben", division="junior"),
               Entrant("Dai", alternate=1, division="open"), Entrant("Emi", alternate=2, division="junior"),
               Entrant("Fumi", alternate=3, division="junior"))
    after, done = change(players, "Ben", "drop_for_alternate", 1)
    emi = after[3]
    assert (emi.alternate, emi.joined_round, emi.note, emi.checked_in) == (None, 2, "Ben", True)
    assert done.detail() == "Ben has dropped; Emi steps in for them from round 2"
    assert after[2].alternate == 1 and after[4].alternate == 3  # the open division's alternate waits on
    assert refused(change, players, "Fumi", "step_in", 1) == "alternates step in in their order: Emi comes before Fumi"
    assert refused(change, roster("Aki"), "Aki", "drop_for_alternate", 0) == (
        "no alternate is waiting to step in for Aki")


def test_a_refused_change_leaves_the_roster_as_it_was():
    players = roster("Aki", "Ben")
    assert refused(change, players, "Zed", "drop", 0) == "no player Zed in this tournament"
    assert refused(change, players, "Aki", "promote", 0) == "unknown change to a player: promote"
    assert players == roster("Aki", "Ben")  # values: nothing to undo


def test_a_late_entry_is_seated_from_the_next_round_and_an_alternate_is_last_in_order():
    players, done = add(roster("Aki", "Ben", Chie=1), "Dai", False, 2)
    assert players[-1] == Entrant("Dai", joined_round=3) and done.detail() == "Dai enters late: seated from round 3"
    players, done = add(players, "Emi", True, 2)
    assert players[-1].alternate == 2 and done.detail() == "Emi is alternate 2"
    assert refused(add, players, "aki", False, 2) == "aki is already in this tournament"
    assert refused(add, players, "  ", False, 2) == "a player needs a name"


def test_a_late_entry_taking_a_players_place_drops_them_and_joins_their_division():
    players = (Entrant("Aki", division="junior"), Entrant("Ben", division="junior"), Entrant("Chie", division="open"))
    after, done = add(players, "Dai", False, 1, division="open", replaces="Ben")
    assert after[1].dropped_round == 1 and after[-1] == Entrant("Dai", joined_round=2, note="Ben", division="junior")
    assert done.detail() == "Dai takes the place of Ben from round 2; Ben has dropped"
    assert "as a late entry" in refused(add, after, "Emi", False, 1, "junior", "Ben")


def test_the_players_list_shows_those_in_then_the_alternates_in_order_then_those_who_dropped():
    players = (Entrant("Aki", dropped_round=1), Entrant("Ben"), Entrant("Chie", alternate=5),
               Entrant("Dai", alternate=2), Entrant("Emi", checked_in=False))
    shown = [(v.name, v.status, v.alternate) for v in listed(players)]
    assert shown == [("Ben", "playing", None), ("Emi", "not_checked_in", None), ("Dai", "alternate", 1),
                     ("Chie", "alternate", 2), ("Aki", "dropped", None)]


# --- a correction's places ------------------------------------------------------------------------------------

NAMES = ["Aki", "Ben", "Chie", "Dai"]


def test_a_correction_keeps_places_that_follow_from_the_totals_with_the_rule_that_ranked_each_player():
    result = corrected_result(NAMES, {"Aki": 3, "Ben": 2, "Chie": 1, "Dai": 4},
                              {"Aki": 900, "Ben": 1000, "Chie": 1200, "Dai": 0}, {"Dai"}, False,
                              "a miscounted mortgage")
    assert result == {"reason": "corrected", "ranking": [
        {"rank": 1, "name": "Chie", "total": 1200, "bankrupt_order": 0, "by": "assets"},
        {"rank": 2, "name": "Ben", "total": 1000, "bankrupt_order": 0, "by": "assets"},
        {"rank": 3, "name": "Aki", "total": 900, "bankrupt_order": 0, "by": "assets"},
        {"rank": 4, "name": "Dai", "total": 0, "bankrupt_order": 1, "by": "bankrupt"}]}


def test_equal_totals_are_ranked_by_the_roll_off_the_correction_gives_in_either_order():
    for first, second in (("Aki", "Ben"), ("Ben", "Aki")):
        result = corrected_result(NAMES, {first: 1, second: 2, "Chie": 3, "Dai": 4},
                                  {"Aki": 1500, "Ben": 1500, "Chie": 700, "Dai": 700}, set(), False, "roll-off")
        assert [(p["name"], p["by"]) for p in result["ranking"]] == [
            (first, "rolloff"), (second, "rolloff"), ("Chie", "rolloff"), ("Dai", "rolloff")]


def test_bankrupt_players_rank_below_the_standing_the_later_one_higher_and_a_monopoly_winner_stands_alone():
    result = corrected_result(NAMES, {"Aki": 2, "Ben": 1, "Chie": 4, "Dai": 3}, {"Aki": 0, "Ben": 4000, "Chie": 0,
                              "Dai": 0}, {"Aki", "Chie", "Dai"}, True, "the last bankruptcy was missed")
    assert [(p["name"], p["bankrupt_order"], p["by"]) for p in result["ranking"]] == [
        ("Ben", 0, "monopoly"), ("Aki", 3, "bankrupt"), ("Dai", 2, "bankrupt"), ("Chie", 1, "bankrupt")]
    assert result["reason"] == "monopoly"


@pytest.mark.parametrize("places, assets, bankrupt, monopoly, message", [
    ({"Aki": 1, "Ben": 1, "Chie": 3, "Dai": 4}, (100, 100, 100, 100), set(), False,
     "Aki and Ben are both given place 1: players level on the rules' count are ranked by a roll-off, so no two "
     "players share a place"),
    ({"Aki": 1, "Ben": 2, "Chie": 3, "Dai": 4}, (1000, 1325, 500, 400), set(), False,
     "Aki is placed above Ben with less in total assets: players left standing are ranked by total assets, the "
     "higher first"),
    ({"Aki": 1, "Ben": 2, "Chie": 3, "Dai": 4}, (0, 900, 500, 400), {"Aki"}, False,
     "Aki, bankrupt, is placed above Ben, who was not: bankrupt players rank below every player left standing"),
    ({"Aki": 1, "Ben": 2, "Chie": 3, "Dai": 4}, (900, 800, 500, 400), {"Dai"}, False,
     "Dai is marked bankrupt with assets: a bankrupt player's assets count 0"),
    ({"Aki": 1, "Ben": 2, "Chie": 3, "Dai": 4}, (900, 800, 0, 0), {"Chie", "Dai"}, True,
     "a monopoly win leaves one player standing: every other player is bankrupt"),
])
def test_a_correction_whose_places_do_not_follow_from_its_totals_is_refused_naming_the_rule(places, assets, bankrupt,
                                                                                           monopoly, message):
    assert refused(corrected_result, NAMES, places, dict(zip(NAMES, assets)), bankrupt, monopoly, "x") == message


@pytest.mark.parametrize("places, monopoly, reason, message", [
    ({"Aki": 1, "Ben": 2, "Chie": 3, "Dai": 5}, False, "x", "Dai's place must be from 1 to 4"),
    ({"Aki": True, "Ben": 2, "Chie": 3, "Dai": 4}, False, "x", "Aki's place must be from 1 to 4"),
    ({"Aki": 1, "Ben": 2, "Chie": 3, "Dai": 4}, False, "   ", "a correction needs its reason, for the record"),
    ({"Aki": 1, "Ben": 2, "Chie": 3}, False, "x",
     "a correction gives a place and assets for each player of the table, and no one else"),
])
def test_a_correction_whose_places_cannot_stand_is_refused_naming_why(places, monopoly, reason, message):
    assets = dict.fromkeys(NAMES, 100)
    assert refused(corrected_result, NAMES, places, assets, set(), monopoly, reason) == message


def test_a_corrections_reason_is_held_to_the_length_a_record_keeps():
    places = {n: k for k, n in enumerate(NAMES, start=1)}
    message = refused(corrected_result, NAMES, places, dict.fromkeys(NAMES, 0), set(), False, "x" * 301)
    assert message == "reason is longer than 300 characters"


def test_a_kept_result_without_its_rule_says_it_from_the_bankruptcy_and_how_the_game_ended():
    assert ranked_by({"rank": 1, "bankrupt_order": 0}, True) == "monopoly"
    assert ranked_by({"rank": 2, "bankrupt_order": 1}, True) == "bankrupt"
    assert ranked_by({"rank": 1, "bankrupt_order": None}, False) == "assets"
    assert ranked_by({"rank": 2, "bankrupt_order": 0, "by": "rolloff"}, False) == "rolloff"


# --- withdrawing a correction: rows only ever added -------------------------------------------------------------

def test_withdrawing_the_correction_in_force_falls_back_to_the_one_before_then_to_the_games_own_result():
    rows = [Kept(10), Kept(11)]
    assert in_force(rows) == 11
    rows.append(Kept(12, withdraws=11))
    assert in_force(rows) == 10 and withdrawn(rows) == {11}
    rows.append(Kept(13, withdraws=10))
    assert in_force(rows) is None  # the game's own result stands
    rows.append(Kept(14))
    assert in_force(rows) == 14 and number_of(rows, 14) == 3  # the third correction of the table


def test_withdrawing_a_replaced_correction_leaves_the_later_one_in_force():
    rows = [Kept(1), Kept(2), Kept(3, withdraws=1)]
    assert in_force(rows) == 2


@pytest.mark.parametrize("target, reason, message", [
    (99, "x", "this table has no such correction to withdraw: nothing was changed"),
    (3, "x", "a withdrawal stays on the record: to change the result again, correct it"),
    (1, "x", "correction 1 of this table is already withdrawn"),
    (2, "  ", "a withdrawal needs its reason, for the record"),
    (2, "x" * 301, "reason is longer than 300 characters"),
])
def test_a_withdrawal_that_cannot_stand_is_refused_naming_why(target, reason, message):
    rows = [Kept(1), Kept(2), Kept(3, withdraws=1)]
    assert refused(check_withdrawal, rows, target, reason) == message


def test_a_withdrawal_keeps_its_reason_as_typed_without_the_spaces_around_it():
    assert check_withdrawal([Kept(1)], 1, "  entered on the wrong table ") == "entered on the wrong table"


# --- who goes on at a cut --------------------------------------------------------------------------------------

def result(round_, table, *names):
    return GameResult(round_, str(table), tuple(PlayerResult(n, i + 1, 1000 - 100 * i) for i, n in enumerate(names)))


def test_the_best_of_the_preliminaries_go_on_to_the_final_and_those_equal_at_the_cut_are_named():
    fmt = rulesets.load_format("championship")
    scheme = rulesets.load_scheme("jma-placement")
    tables = ("ABCD", "EFGH", "IJKL")  # the same finish at every table, every round: equal by every tie-break
    seated = [formats.SeatedRound(n, "preliminary", tuple(map(tuple, tables))) for n in (1, 2, 3)]
    games = [result(n, t, *table) for n in (1, 2, 3) for t, table in enumerate(tables, start=1)]
    players = tuple(Entrant(n) for n in "ABCDEFGHIJKL")
    at = progress(fmt, lambda stage: scheme, players, seated, games, playing=False)
    assert [st.rank for st in at.places] == [1, 1, 1, 4, 4, 4, 7, 7, 7, 10, 10, 10]
    assert at.next_stages[0].id == "final" and at.champion is None
    (cut,) = cuts(players, at, "final")
    seconds = [st.player for st in at.places[3:6]]
    assert cut.going == [st.player for st in at.places[:4]] and set(cut.going[:3]) == set("AEI")
    assert cut.tied == seconds[1:] and set(seconds) == set("BFJ")  # two of B, F, J left out though equal
    # a player who dropped is not seated in the final: the next in the standings goes on instead
    dropped = tuple(Entrant(n, dropped_round=3 if n == "A" else None) for n in "ABCDEFGHIJKL")
    going, _ = division_entrants(dropped, fmt, fmt.stage("final"), at.divisions[0])
    assert "A" not in going and going == [st.player for st in at.places if st.player != "A"][:4]
