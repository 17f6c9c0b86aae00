"""The rulesets of seeds 003 and 004 (issue 14): the shortened game, the time-limit game, the Disney edition (its own
board, cards and words for its buildings and decks) and the simplified German rules (its board in M, a finite bank,
one house or a sale on landing on one's own deed)."""
import html
import json

import pytest

from referee import create_app
from referee.services import rulesets
from referee.services import folds, games
from referee.engine import RulesetError, parse_ruleset
from referee.sim.simulate import simulate

DISNEY_POSITION = {"players": {"Aki": {"square": "pink-3"}},
                   "deeds": {"tarzan": {"owner": "Ben", "buildings": 4}, "brown-2": {"owner": "Ben", "buildings": "hotel"}}}


@pytest.fixture
def app(tmp_path):
    return create_app({"TESTING": True, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False,
                       "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 't.sqlite'}"})


def imported(app, ruleset: str, position: dict, *entries) -> int:
    header = {"format": "referee-game-record", "version": 1, "ruleset": ruleset, "players": ["Aki", "Ben", "Chie"],
              "seating": "fixed", "position": position}
    with app.app_context():
        return games.import_record("\n".join(json.dumps(x) for x in (header, *entries)), "123456")


@pytest.mark.parametrize("lang, cottages, castle, deck", [
    ("en", "4 White Rabbit Cottages", "Sleeping Beauty Castle", "Magic Moments"),
    ("ja", "白ウサギの家4軒", "眠れる森の美女の城", "マジック・モーメント"),
])
def test_the_disney_table_names_its_buildings_and_decks_as_that_edition_does(app, lang, cottages, castle, deck):
    game_id = imported(app, "disney", DISNEY_POSITION, {"type": "roll", "player": "Aki", "dice": [1, 2]})
    client = app.test_client()
    client.post(f"/games/{game_id}/unlock", data={"pin": "123456"})
    page = html.unescape(client.get(f"/games/{game_id}", headers={"Accept-Language": lang}).get_data(as_text=True))
    assert cottages in page and castle in page and deck in page
    assert "Tarzan" in page or "ターザン" in page


def test_the_fine_or_card_choice_shows_both_amounts_on_its_buttons(app):
    game_id = imported(app, "disney", DISNEY_POSITION, {"type": "roll", "player": "Aki", "dice": [1, 2]},
                       {"type": "card", "player": "Aki", "card": "magic-moments-fine-or-show-time"})
    client = app.test_client()
    client.post(f"/games/{game_id}/unlock", data={"pin": "123456"})
    page = html.unescape(client.get(f"/games/{game_id}").get_data(as_text=True))
    assert "Pay $10" in page and "Draw a Show Time card" in page


def test_a_pay_or_draw_card_must_name_the_other_deck():
    data = rulesets._read(rulesets.RULESETS_DIR / "disney.toml")
    board = rulesets._read(rulesets.RULESETS_DIR / "boards" / "disney-edition.toml")
    decks = rulesets._read(rulesets.RULESETS_DIR / "decks" / "disney-edition.toml")
    card = next(c for c in decks["community_chest"] if c["effect"]["kind"] == "pay_or_draw")
    card["effect"]["deck"] = "community_chest"
    with pytest.raises(RulesetError, match="effect.deck: expected the other deck"):
        parse_ruleset(data, board, decks)


def test_a_hotel_sale_value_that_contradicts_the_houses_per_hotel_is_refused():
    data = rulesets._read(rulesets.RULESETS_DIR / "classic-short.toml")
    board = rulesets._read(rulesets.RULESETS_DIR / "boards" / "atlantic-city-us.toml")
    decks = rulesets._read(rulesets.RULESETS_DIR / "decks" / "us-pre-2008.toml")
    data["options"]["hotel_sale_value"]["value"] = "five_houses"
    with pytest.raises(RulesetError, match="hotel_sale_value: 'five_houses' is half of 5 house prices"):
        parse_ruleset(data, board, decks)


@pytest.mark.parametrize("ruleset_id, own", [
    ("classic-short", ("games ended by a number of bankruptcies", "players dealt deeds at the start")),
    ("classic-timed", ("players dealt deeds at the start",)),
    ("disney", ("a fine or a card from the other deck", "rents not claimed in time")),
    ("german-simple", ("turns sat out in jail", "deeds sold back to the bank on landing", "players out at 0",
                       "free parking pots collected", "salaries for landing on GO")),
])
@pytest.mark.long  # simulated games: scripts/test runs it, --fast leaves it out
def test_each_edition_simulates_clean_and_counts_its_own_mechanisms(ruleset_id, own):
    result = simulate(rulesets.load(ruleset_id), 40, 3).as_dict()
    assert result["invariant_violations"] == 0
    for name in own:
        assert result["mechanisms"][name] > 0, name


def test_a_lapsed_rent_claim_is_offered_with_its_amount_and_one_tap_after_confirming_returns_it(app):
    position = {"players": {"Aki": {"square": "cruella-de-vils-car"}}, "deeds": {"101-dalmatians": {"owner": "Ben"}}}
    game_id = imported(app, "disney", position, {"type": "roll", "player": "Aki", "dice": [1, 3]})
    client = app.test_client()
    client.post(f"/games/{game_id}/unlock", data={"pin": "123456"})
    page = html.unescape(client.get(f"/games/{game_id}").get_data(as_text=True))
    assert "Rent not claimed: $50 on 101 Dalmatians" in page and "Yes: $50 back to Aki" in page
    entry = {"type": "rent_not_claimed", "player": "Aki", "square": 39}
    r = client.post(f"/games/{game_id}/record", data={"seq": "1", "entry": json.dumps(entry)}, follow_redirects=True)
    assert "rent not claimed in time" in html.unescape(r.get_data(as_text=True))
    with app.app_context():
        state = folds.load(game_id).game.state
    assert [p.cash for p in state.players] == [1500, 1500, 1500]
    again = client.post(f"/games/{game_id}/record", data={"seq": "2", "entry": json.dumps(entry)}, follow_redirects=True)
    assert "no rent Aki paid on 101 Dalmatians lapses now" in html.unescape(again.get_data(as_text=True))


def test_landing_on_ones_own_street_offers_one_house_or_the_sale_with_their_amounts_in_m(app):
    position = {"players": {"Aki": {"square": "los"}}, "deeds": {"badstrasse": {"owner": "Aki"}, "turmstrasse": {"owner": "Aki"}}}
    game_id = imported(app, "german-simple", position, {"type": "roll", "player": "Aki", "dice": [1, 2]})
    client = app.test_client()
    client.post(f"/games/{game_id}/unlock", data={"pin": "123456"})
    page = html.unescape(client.get(f"/games/{game_id}").get_data(as_text=True))
    assert "Build for 500 M: Turmstraße then has 1 house" in page
    assert "Sell Turmstraße to the bank for 600 M" in page and "Leave it as it is" in page
    assert "30,000 M" in page
    german = html.unescape(client.get(f"/games/{game_id}", headers={"Accept-Language": "de"}).get_data(as_text=True))
    assert "30.000 M" in german and "Turmstraße für 600 M an die Bank verkaufen" in german
    for refused in ({"type": "sell_buildings", "player": "Aki", "targets": {"turmstrasse": 0}},
                    {"type": "mortgage", "player": "Aki", "square": "badstrasse"}):
        r = client.post(f"/games/{game_id}/record", data={"seq": "1", "entry": json.dumps(refused)}, follow_redirects=True)
        assert r.status_code in (200, 400, 409)
    with app.app_context():
        assert folds.load(game_id).seq == 1  # nothing recorded by the refused entries


def test_amounts_in_refusals_group_their_digits_as_the_language_does():
    from referee.engine.phrases import Money, identity  # the phrase that names an amount, not the ruleset's money
    from conftest import seated_state

    state = seated_state(rulesets.load("german-simple"))
    assert [Money(31600).words(state, identity, lang) for lang in ("de", "en", "ja")] == ["31.600 M", "31,600 M",
                                                                                          "31,600 M"]


@pytest.mark.parametrize("ruleset_id, position, entries, tapped", [
    ("german-simple", {"players": {"Aki": {"square": "los"}}, "deeds": {"turmstrasse": {"owner": "Aki"}}},
     [{"type": "roll", "player": "Aki", "dice": [1, 2]}], {"type": "build_house", "player": "Aki"}),
    ("disney", DISNEY_POSITION, [{"type": "roll", "player": "Aki", "dice": [1, 2]},
                                 {"type": "card", "player": "Aki", "card": "magic-moments-fine-or-show-time"}],
     {"type": "fine_or_card", "player": "Aki", "choice": "pay"}),
    ("disney", {"players": {"Aki": {"square": "cruella-de-vils-car"}}, "deeds": {"101-dalmatians": {"owner": "Ben"}}},
     [{"type": "roll", "player": "Aki", "dice": [1, 3]}], {"type": "rent_not_claimed", "player": "Aki", "square": 39}),
])
def test_a_double_tap_on_a_new_decision_button_records_one_entry(app, ruleset_id, position, entries, tapped):
    game_id = imported(app, ruleset_id, position, *entries)
    client = app.test_client()
    client.post(f"/games/{game_id}/unlock", data={"pin": "123456"})
    seq = str(len(entries))
    for _ in range(2):  # the second tap carries the same screen's seq: stale, refused
        client.post(f"/games/{game_id}/record", data={"seq": seq, "entry": json.dumps(tapped)})
    with app.app_context():
        table = folds.load(game_id)
    assert table.seq == len(entries) + 1  # one entry recorded, not two
    assert table.game.entries[-1].type == tapped["type"]


@pytest.mark.parametrize("entry", [
    {"type": "fine_or_card", "player": "Aki", "choice": "x" * 1_000_000},
    {"type": "fine_or_card", "player": "Aki", "choice": "pay\u0000"},
    {"type": "fine_or_card", "player": "Aki", "choice": None},
    {"type": "rent_not_claimed", "player": "Aki", "square": -5},
    {"type": "rent_not_claimed", "player": "Aki", "square": 10 ** 40},
    {"type": "rent_not_claimed", "player": "Aki", "square": [[[[["deep"]]]]]},
    {"type": "build_house", "player": "Nobody"},
    {"type": "sell_to_bank", "player": "Aki", "extra": 1},
    {"type": "keep"},
])
def test_hostile_entries_for_the_new_decisions_get_a_message_and_change_nothing(app, entry):
    game_id = imported(app, "disney", DISNEY_POSITION, {"type": "roll", "player": "Aki", "dice": [1, 2]},
                       {"type": "card", "player": "Aki", "card": "magic-moments-fine-or-show-time"})
    client = app.test_client()
    client.post(f"/games/{game_id}/unlock", data={"pin": "123456"})
    r = client.post(f"/games/{game_id}/record", data={"seq": "2", "entry": json.dumps(entry)}, follow_redirects=True)
    assert r.status_code < 500
    assert "refused" in r.get_data(as_text=True) or r.status_code in (400, 413)
    with app.app_context():
        assert folds.load(game_id).seq == 2


def test_a_forged_or_huge_house_rule_switch_is_refused_with_a_message(app):
    client = app.test_client()
    for value in ("korean-house:" + "x" * 100_000, "korean-house:free_parking\u0000", "../../etc"):
        r = client.post("/games", data={"ruleset": "korean-house", "players": "Aki\nBen", "seating": "fixed",
                                        "pin": "123456", "house_rules_shown": "1", "house_rules": [value]})
        assert r.status_code == 400 and "House rules" in html.unescape(r.get_data(as_text=True))
    assert client.get("/rulesets/" + "x" * 5000).status_code == 404
