"""House rules (issue 14): options a ruleset file marks as house rules, on by default and each switched off for one
game on the new-game screen; the Korean wiki's (seed 000) Texas pot, Just Go, no rent in jail, a shared estate."""
import html
import json

import pytest

from referee import create_app
from referee.services import rulesets
from referee.services import folds, games
from referee.engine import RulesetError, with_options
from referee.engine.bankruptcy import estate_shares
from referee.sim.simulate import simulate

from conftest import give, seated_state

HOUSE_RULES = {"free_parking": "nothing", "go_landing_bonus": False, "rent_while_in_jail": True,
               "bankrupt_estate": "to_creditor"}


@pytest.fixture
def app(tmp_path):
    return create_app({"TESTING": True, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False,
                       "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 't.sqlite'}"})


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture(scope="module")
def korean():
    return rulesets.load("korean-house")


def header_options(app, game_id: int) -> dict:
    with app.app_context():
        return folds.load(game_id).game.header.options


def test_korean_house_marks_its_four_house_rules_each_on_with_the_texts_own_rule_when_off(korean):
    house_rules = {k: r for k, r in korean.house_rules.items() if r.default_on}
    assert {k: r.off for k, r in house_rules.items()} == HOUSE_RULES
    for option, rule in house_rules.items():
        assert getattr(korean.options, option) == rule.on != rule.off
        assert rule.name["ko"] and rule.name["en"] and rule.off_clause.text["ko"]
    switched = with_options(korean, {"free_parking": "nothing"})
    assert switched.clauses["free_parking"] == korean.house_rules["free_parking"].off_clause
    assert "사실은 빈 칸" in switched.clauses["free_parking"].text["ko"]


def test_a_house_rule_whose_off_value_is_its_on_value_is_refused():
    data = rulesets._read(rulesets.RULESETS_DIR / "korean-house.toml")
    board = rulesets._read(rulesets.RULESETS_DIR / "boards" / "atlantic-city-us.toml")
    decks = rulesets._read(rulesets.RULESETS_DIR / "decks" / "us-pre-2008.toml")
    data["options"]["free_parking"]["house_rule"]["off"] = "tax_pot"
    from referee.engine import parse_ruleset
    with pytest.raises(RulesetError, match="options.free_parking.house_rule.off: the same as the option's value"):
        parse_ruleset(data, board, decks)


def test_pot_payments_take_a_list_of_known_kinds_of_payment(classic):
    assert with_options(classic, {"pot_payments": ["tax", "bail"]}).options.pot_payments == ("tax", "bail")
    for bad in (["tax", "rent"], "tax", ["tax", "tax"]):
        with pytest.raises(RulesetError, match="options.pot_payments: expected a list of distinct values"):
            with_options(classic, {"pot_payments": bad})


def test_estate_shares_deal_deeds_in_board_order_to_whoever_has_least_never_completing_a_group(classic):
    s = seated_state(classic, ("Aki", "Ben", "Chie", "Dai"), bankrupt_estate="shared_among_survivors")
    s = give(s, 0, "mediterranean-avenue", "baltic-avenue", "reading-railroad", "virginia-avenue",
             "oriental-avenue", "vermont-avenue", "connecticut-avenue")
    s = give(s, 2, "st-charles-place", "states-avenue")
    ids = lambda shares: {s.players[i].name: [s.ruleset.squares[q].id for q in sq] for i, sq in shares.items()}
    # Mediterranean 60 to Ben; Baltic to Chie (Ben would hold all Brown); Reading 200 to Dai; Oriental to Ben and
    # Vermont to Chie (60 each: the first in seat order, then the one with least); Connecticut to Ben (160 each,
    # the first in seat order); Virginia to Dai, not Chie (she would hold all Pink) nor Ben (280 to Dai's 200)
    assert ids(estate_shares(s, 0, s.deeds_of(0))) == {
        "Ben": ["mediterranean-avenue", "oriental-avenue", "connecticut-avenue"],
        "Chie": ["baltic-avenue", "vermont-avenue"],
        "Dai": ["reading-railroad", "virginia-avenue"],
    }
    # the light blues are split three ways; the first survivor in seat order after the bankrupt takes a tie
    assert ids(estate_shares(s, 2, (s.ruleset.square("boardwalk").index,))) == {
        "Dai": ["boardwalk"], "Aki": [], "Ben": []}


def test_the_new_game_screen_shows_the_chosen_rulesets_house_rules_each_switched_on(client, korean):
    page = html.unescape(client.get("/").get_data(as_text=True))
    for option, rule in korean.house_rules.items():
        assert f'value="korean-house:{option}"{" checked" if rule.default_on else ""}>' in page
        assert rule.name["en"] in page
    assert not korean.house_rules["income_tax"].default_on  # the flat income tax is offered, switched off
    assert 'data-ruleset="korean-house" hidden' in page  # jma-2006, the default, is chosen: its none are shown


def test_a_house_rule_switched_off_on_the_new_game_screen_is_in_the_header_and_its_own_rule_is_cited(app, client):
    on = ["korean-house:go_landing_bonus", "korean-house:rent_while_in_jail", "korean-house:bankrupt_estate",
          "jma-2006:nothing-here"]
    r = client.post("/games", data={"ruleset": "korean-house", "players": "Aki\nBen", "seating": "fixed",
                                    "pin": "123456", "house_rules_shown": "1", "house_rules": on[:3]})
    assert r.status_code == 302, r.data
    game_id = int(r.headers["Location"].rsplit("/", 1)[1])
    assert header_options(app, game_id) == {"free_parking": "nothing"}
    page = html.unescape(client.get(f"/games/{game_id}/rules").get_data(as_text=True))
    assert "House rule “Texas rule" in page and "switched off for this game" in page
    assert "사실은 빈 칸" in page  # the rule played instead, quoted from the text
    assert "House rule “Just Go" in page and "played." in page
    # a forged switch (not a house rule of any ruleset) is refused and creates nothing
    r = client.post("/games", data={"ruleset": "korean-house", "players": "Aki\nBen", "seating": "fixed",
                                    "pin": "123456", "house_rules_shown": "1", "house_rules": on[3:]})
    assert r.status_code == 400


def test_a_new_game_posted_without_the_switches_plays_every_house_rule(app, client):
    r = client.post("/games", data={"ruleset": "korean-house", "players": "Aki\nBen", "seating": "fixed",
                                    "pin": "123456"})
    assert header_options(app, int(r.headers["Location"].rsplit("/", 1)[1])) == {}


def test_a_rulesets_rules_page_opens_before_any_game_in_its_source_language_and_the_devices(client):
    page = html.unescape(client.get("/rulesets/korean-house", headers={"Accept-Language": "ja"})
                         .get_data(as_text=True))
    assert 'lang="ko"' in page and 'lang="ja"' in page and 'lang="en"' not in page.split("<main")[-1]
    page = html.unescape(client.get("/rulesets/korean-house").get_data(as_text=True))
    assert 'lang="ko"' in page and 'lang="en"' in page.split("<main")[-1]
    assert client.get("/rulesets/no-such-rules").status_code == 404


def test_a_shared_estate_and_a_waived_rent_are_explained_on_the_table_with_their_clause(app, client):
    position = {"players": {"Aki": {"cash": 10, "square": "short-line"}},
                "deeds": {"mediterranean-avenue": {"owner": "Aki"}, "boardwalk": {"owner": "Ben"},
                          "baltic-avenue": {"owner": "Aki", "mortgaged": True}}}
    header = {"format": "referee-game-record", "version": 1, "ruleset": "korean-house",
              "players": ["Aki", "Ben", "Chie"], "seating": "fixed", "position": position}
    record = "\n".join(json.dumps(x) for x in [header, {"type": "roll", "player": "Aki", "dice": [1, 3]}])
    with app.app_context():
        game_id = games.import_record(record, "123456")
    client.post(f"/games/{game_id}/unlock", data={"pin": "123456"})
    r = client.post(f"/games/{game_id}/record", data={"seq": "1", "entry": json.dumps(
        {"type": "bankrupt", "player": "Aki"})}, follow_redirects=True)
    page = html.unescape(r.get_data(as_text=True))
    assert "Aki's deeds are shared out" in page and "Ben Mediterranean Avenue; Chie Baltic Avenue" in page
    assert "The creditor takes the cash; the deeds are shared among the players left." in page
    assert "footnote 19" in page


@pytest.mark.long  # scripts/test runs it; --fast leaves it out (pyproject.toml's markers)
@pytest.mark.parametrize("seed", [1, 2])
def test_korean_house_simulates_clean_and_counts_its_own_mechanisms(korean, seed):
    result = simulate(korean, 40, seed).as_dict()
    assert result["invariant_violations"] == 0
    for name in ("free parking pots collected", "salaries for landing on GO", "rents waived, owner in jail",
                 "estates shared"):
        assert name in result["mechanisms"]
    assert result["mechanisms"]["free parking pots collected"] > 0
    assert result["mechanisms"]["salaries for landing on GO"] > 0
    assert result["mechanisms"]["rents waived, owner in jail"] > 0
    assert "estates shared" not in simulate(rulesets.load("jma-2006"), 1, seed).as_dict()["mechanisms"]


def test_a_variant_is_offered_switched_off_and_switched_on_it_is_in_the_header_and_its_clause_cited(app, client):
    """Official rules (002), Jail: "... or pay the ₩50 fine or skips one turn" (classic's variant jail_skip_turn)."""
    page = html.unescape(client.get("/").get_data(as_text=True))
    assert 'value="classic:jail_skip_turn">' in page  # offered, not checked: classic plays 003's rule
    assert "Skip a turn instead of the jail fine (some editions)" in page
    r = client.post("/games", data={"ruleset": "classic", "players": "Aki\nBen", "seating": "fixed",
                                    "pin": "123456", "house_rules_shown": "1", "house_rules": ["classic:jail_skip_turn"]})
    assert r.status_code == 302, r.data
    game_id = int(r.headers["Location"].rsplit("/", 1)[1])
    assert header_options(app, game_id) == {"jail_skip_turn": True}
    rules = html.unescape(client.get(f"/games/{game_id}/rules").get_data(as_text=True))
    assert "Variant “Skip a turn instead of the jail fine (some editions)”: switched on for this game" in rules
    assert "pay the $50 fine or skips one turn" in rules  # 002's clause is cited, not 003's
    table_page = html.unescape(client.get(f"/games/{game_id}").get_data(as_text=True))
    assert "Variants switched on: Skip a turn instead of the jail fine" in table_page
    r = client.post("/games", data={"ruleset": "classic", "players": "Aki\nBen", "seating": "fixed",
                                    "pin": "123456", "house_rules_shown": "1"})
    game_id = int(r.headers["Location"].rsplit("/", 1)[1])
    assert header_options(app, game_id) == {}
    rules = html.unescape(client.get(f"/games/{game_id}/rules").get_data(as_text=True))
    assert "Variant “Skip a turn instead of the jail fine (some editions)”: not played" in rules


def test_a_jailed_players_skip_button_shows_and_a_double_tap_records_one_skip(app):
    header = {"format": "referee-game-record", "version": 1, "ruleset": "classic", "players": ["Aki", "Ben"],
              "seating": "fixed", "options": {"jail_skip_turn": True},
              "position": {"players": {"Aki": {"square": "jail", "in_jail": True}}}}
    with app.app_context():
        game_id = games.import_record(json.dumps(header), "123456")
    client = app.test_client()
    client.post(f"/games/{game_id}/unlock", data={"pin": "123456"})
    page = html.unescape(client.get(f"/games/{game_id}").get_data(as_text=True))
    assert "Pay $50 to leave jail" in page and "Skip this turn instead of the fine (out of jail next turn)" in page
    for _ in range(2):  # the second tap carries the same screen's seq: stale, refused
        client.post(f"/games/{game_id}/record", data={"seq": "0", "entry": json.dumps(
            {"type": "skip_jail_turn", "player": "Aki"})})
    with app.app_context():
        table_ = folds.load(game_id)
    assert table_.seq == 1 and not table_.game.state.players[0].in_jail
    assert table_.game.state.players[0].cash == 1500
    page = html.unescape(client.get(f"/games/{game_id}").get_data(as_text=True))
    assert "Aki skips this turn instead of the fine and is out of jail" in page


def test_a_variant_whose_on_value_is_the_files_or_that_is_also_a_house_rule_is_refused():
    from referee.engine import parse_ruleset
    board = rulesets._read(rulesets.RULESETS_DIR / "boards" / "atlantic-city-us.toml")
    decks = rulesets._read(rulesets.RULESETS_DIR / "decks" / "us-pre-2008.toml")
    data = rulesets._read(rulesets.RULESETS_DIR / "classic.toml")
    data["options"]["jail_skip_turn"]["variant"]["on"] = False
    with pytest.raises(RulesetError, match="options.jail_skip_turn.variant.on: the same as the option's value"):
        parse_ruleset(data, board, decks)
    data = rulesets._read(rulesets.RULESETS_DIR / "classic.toml")
    data["options"]["jail_skip_turn"]["house_rule"] = dict(data["options"]["jail_skip_turn"]["variant"])
    with pytest.raises(RulesetError, match="a house rule .on by default. or a variant .off by default., not both"):
        parse_ruleset(data, board, decks)


def test_the_flat_income_tax_of_the_players_agreement_is_a_switch_of_the_new_game_screen(app, client, korean):
    """Korean wiki (000), 2.3 세금접수처: "가끔 사람들간의 합의로 소득세가 고정되기도 하며" (sometimes, by the players'
    agreement, the income tax is fixed): off by default (the usual rule is the choice), switched on it plays
    income_tax = flat and cites that passage."""
    rule = korean.house_rules["income_tax"]
    assert (korean.options.income_tax, rule.on, rule.off) == ("choice", "flat", "choice")
    assert "고정되기도" in rule.on_clause.text["ko"] and rule.name["ja"] and rule.name["de"]
    r = client.post("/games", data={"ruleset": "korean-house", "players": "Aki\nBen", "seating": "fixed",
                                    "pin": "123456", "house_rules_shown": "1",
                                    "house_rules": [f"korean-house:{option}" for option in HOUSE_RULES]
                                    + ["korean-house:income_tax"]})
    assert r.status_code == 302, r.data
    game_id = int(r.headers["Location"].rsplit("/", 1)[1])
    assert header_options(app, game_id) == {"income_tax": "flat"}
    rules = html.unescape(client.get(f"/games/{game_id}/rules").get_data(as_text=True))
    assert "Variant “Flat income tax: M200 (by the players' agreement)”: switched on for this game" in rules
    assert "by the players' agreement, the income tax is fixed" in rules


def test_trades_and_building_at_the_start_of_ones_turn_are_variants_of_the_new_game_screen(app, client):
    """Official rules (002), General: "In some editions, players must do any trades, building improvements etc. at
    the start of their turn before rolling the dice": two switches, off by default; switched on, each is in the
    header and the rules page says so."""
    page = html.unescape(client.get("/").get_data(as_text=True))
    for option, name in (("build_timing", "Build only at the start of one's own turn, before the roll (some editions)"),
                         ("trade_timing", "Trade only at the start of one's own turn, before the roll (some editions)")):
        assert f'value="classic:{option}">' in page and name in page  # offered, not checked
    r = client.post("/games", data={"ruleset": "classic", "players": "Aki\nBen", "seating": "fixed", "pin": "123456",
                                    "house_rules_shown": "1",
                                    "house_rules": ["classic:build_timing", "classic:trade_timing"]})
    assert r.status_code == 302, r.data
    game_id = int(r.headers["Location"].rsplit("/", 1)[1])
    assert header_options(app, game_id) == {"build_timing": "before_own_roll", "trade_timing": "before_own_roll"}
    rules = html.unescape(client.get(f"/games/{game_id}/rules").get_data(as_text=True))
    assert "only by the player whose turn it is, at its start, before the roll" in rules
    assert "at the start of their turn before rolling the dice" in rules


def test_the_russian_editions_three_houses_a_turn_is_a_variant_of_the_new_game_screen(app, client):
    """Classic rules (003, second classic text): "maximize - 3 houses (object) for 1 move": a switch, off by
    default; switched on, houses_per_turn is 3 in the header and the rules page cites 003."""
    page = html.unescape(client.get("/").get_data(as_text=True))
    assert 'value="classic:houses_per_turn">' in page and "At most 3 houses or hotels a turn (Russian edition)" in page
    r = client.post("/games", data={"ruleset": "classic", "players": "Aki\nBen", "seating": "fixed", "pin": "123456",
                                    "house_rules_shown": "1", "house_rules": ["classic:houses_per_turn"]})
    assert r.status_code == 302, r.data
    game_id = int(r.headers["Location"].rsplit("/", 1)[1])
    assert header_options(app, game_id) == {"houses_per_turn": 3}
    rules = html.unescape(client.get(f"/games/{game_id}/rules").get_data(as_text=True))
    assert "maximize - 3 houses (object) for 1 move" in rules
