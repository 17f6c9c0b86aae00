"""Scoring schemes, each with worked examples."""
from fractions import Fraction

import pytest

from referee.services import rulesets
from referee.engine import RulesetError
from referee.tournament.scoring import GameResult, PlayerResult, game_points, parse_scheme, standings


def table(round_, name, *rows, monopoly=None):
    return GameResult(round_, name, tuple(
        PlayerResult(player, rank, assets, monopoly_win=(player == monopoly)) for rank, (player, assets) in
        enumerate(rows, start=1)))


def test_every_shipped_scheme_loads():
    assert rulesets.available_schemes() == ["asset-points", "asset-share", "jma-placement"]
    for scheme_id in rulesets.available_schemes():
        assert rulesets.load_scheme(scheme_id).id == scheme_id


def test_placement_points_4_players_10_6_3_1_and_14_for_a_monopoly_win():
    s = rulesets.load_scheme("jma-placement")
    plain = table(1, "A", ("Aki", 5000), ("Ben", 3000), ("Chie", 1000), ("Dai", 400))
    assert game_points(s, plain) == {"Aki": 10, "Ben": 6, "Chie": 3, "Dai": 1}
    won = table(2, "A", ("Dai", 9000), ("Chie", 0), ("Ben", 0), ("Aki", 0), monopoly="Dai")
    assert game_points(s, won) == {"Dai": 14, "Chie": 6, "Ben": 3, "Aki": 1}


def test_placement_points_5_and_6_player_tables():
    s = rulesets.load_scheme("jma-placement")
    five = table(1, "B", *[(p, 100) for p in "ABCDE"])
    assert list(game_points(s, five).values()) == [10, 6, 4, 2, 1]
    six = table(1, "C", *[(p, 100) for p in "ABCDEF"], monopoly="A")
    assert list(game_points(s, six).values()) == [18, 6, 4, 3, 2, 1]


def test_placement_standings_with_the_tie_broken_by_total_assets():
    s = rulesets.load_scheme("jma-placement")
    games = [
        table(1, "A", ("Aki", 5000), ("Ben", 3000), ("Chie", 1000), ("Dai", 400)),
        table(2, "A", ("Dai", 9000), ("Chie", 0), ("Ben", 0), ("Aki", 0), monopoly="Dai"),
    ]
    result = standings(s, games)
    assert [(r.rank, r.player, r.total) for r in result] == [(1, "Dai", 15), (2, "Aki", 11), (3, "Ben", 9),
                                                           (4, "Chie", 9)]
    assert result[0].monopoly_wins == 1 and result[2].total_assets == 3000


def test_asset_share_in_percent_of_the_table():
    s = rulesets.load_scheme("asset-share")
    four = table(1, "A", ("Aki", 5000), ("Ben", 3000), ("Chie", 1500), ("Dai", 500))
    assert game_points(s, four) == {"Aki": 50, "Ben": 30, "Chie": 15, "Dai": 5}


def test_asset_share_times_1_2_at_six_player_tables_capped_at_100():
    s = rulesets.load_scheme("asset-share")
    six = table(1, "F", ("A", 6000), ("B", 2000), ("C", 1000), ("D", 500), ("E", 300), ("F", 200))
    assert game_points(s, six) == {"A": 72, "B": 24, "C": 12, "D": 6, "E": Fraction(18, 5), "F": Fraction(12, 5)}
    big = table(1, "G", ("A", 9000), ("B", 400), ("C", 300), ("D", 200), ("E", 50), ("F", 50))
    assert game_points(s, big)["A"] == 100  # 90% x 1.2 = 108, capped


def test_asset_share_monopoly_win_scores_120():
    s = rulesets.load_scheme("asset-share")
    won = table(1, "A", ("Aki", 20000), ("Ben", 0), ("Chie", 0), ("Dai", 0), monopoly="Aki")
    assert game_points(s, won) == {"Aki": 120, "Ben": 0, "Chie": 0, "Dai": 0}


def test_asset_points_capped_per_round_counting_the_best_two_of_three():
    s = rulesets.load_scheme("asset-points")
    games = [
        table(1, "A", ("Aki", 12000), ("Ben", 7000)),
        table(2, "A", ("Ben", 9000), ("Aki", 5000)),
        table(3, "A", ("Aki", 9000), ("Ben", 6000)),
    ]
    result = {r.player: r for r in standings(s, games)}
    assert result["Aki"].total == 10000 + 8000  # 12,000 capped at 10,000; 9,000 capped at 8,000; 5,000 dropped
    assert result["Ben"].total == 8000 + 7000  # 9,000 capped at 8,000 in round 2; 6,000 dropped
    assert [counted for _, _, counted in result["Aki"].games] == [True, False, True]


def test_a_scheme_with_an_unknown_key_or_a_wrong_table_is_refused():
    with pytest.raises(RulesetError, match="unknown key"):
        parse_scheme({"scheme": {"id": "x", "name": {"en": "x"}, "kind": "placement", "tiebreaks": [],
                                 "placement": {4: [1, 2, 3, 4]}, "bonus": 3}})
    with pytest.raises(RulesetError, match="expected 4 points"):
        parse_scheme({"scheme": {"id": "x", "name": {"en": "x"}, "kind": "placement", "tiebreaks": [],
                                 "placement": {4: [10, 6, 3]}}})
    with pytest.raises(RulesetError, match="unknown tie-break"):
        parse_scheme({"scheme": {"id": "x", "name": {"en": "x"}, "kind": "asset_share", "tiebreaks": ["luck"]}})


def test_results_come_from_the_engines_final_ranking():
    from pathlib import Path

    from referee.engine import parse_record, replay
    from referee.tournament.results import game_result
    golden = Path(__file__).parent / "golden"
    games = []
    for round_, name in enumerate(("jma-simulated-shortage", "jma-simulated-timed"), start=1):
        header, entries = parse_record((golden / f"{name}.jsonl").read_text(encoding="utf-8").splitlines())
        games.append(game_result(replay(rulesets.for_header(header), header, entries).state, round_, "A"))
    assert [(p.player, p.rank, p.monopoly_win) for p in games[0].players][0] == ("Aki", 1, True)
    assert [(p.player, p.assets) for p in games[1].players][:2] == [("Dai", 6824), ("Aki", 2172)]
    result = standings(rulesets.load_scheme("jma-placement"), games)
    # game 1: Aki wins by monopoly (14), then Chie, Dai, Ben by how long they survived (6, 3, 1);
    # game 2 (time): Dai 10, Aki 6 by assets, then Ben 3 (bankrupt later) and Chie 1.
    assert [(r.rank, r.player, r.total) for r in result] == [(1, "Aki", 14 + 6), (2, "Dai", 3 + 10),
                                                              (3, "Chie", 6 + 1), (4, "Ben", 1 + 3)]


def test_a_game_in_progress_has_no_result(jma):
    from conftest import seated_state
    from referee.engine import IllegalEntry
    from referee.tournament.results import game_result
    with pytest.raises(IllegalEntry, match="has not ended"):
        game_result(seated_state(jma), 1, "A")
