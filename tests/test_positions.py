"""Set-up positions: a game record that starts from the table as the referee finds it (header field position)."""
import copy
import json
import random
from io import BytesIO

import pytest

from referee.services import rulesets
from referee.cli import main
from referee.engine import (AwaitRoll, Game, RecordError, legal_actions, parse_entry, parse_header, parse_record,
                            with_options)
from referee.sim.policy import Policy
from referee.sim.simulate import Invariants

# what it checks (words, screens, rules, printed pages) is drawn from the same rows on either database: its app
# tests run on SQLite alone (tests/conftest.py: one_database)
pytestmark = pytest.mark.one_database


POSITION = {
    "current": "Ben",
    "players": {"Aki": {"cash": 320, "square": "jail", "in_jail": True, "jail_rolls": 2, "jail_cards": []},
                "Ben": {"cash": 1200, "square": "boardwalk", "jail_cards": ["chance-get-out-of-jail-free"]}},
    "deeds": {"boardwalk": {"owner": "Ben", "buildings": 3}, "park-place": {"owner": "Ben", "buildings": 4},
              "mediterranean-avenue": {"owner": "Chie", "mortgaged": True}, "5": {"owner": "Aki"}},
    "bank": {"houses": 25, "hotels": 12},
}


def header(position=POSITION, **fields) -> dict:
    return {"format": "referee-game-record", "version": 1, "ruleset": "jma-2006", "players": ["Aki", "Ben", "Chie"],
            "seating": "fixed", "position": position, **fields}


def start(data: dict) -> Game:
    h = parse_header(data)
    return Game(with_options(rulesets.load(h.ruleset), h.options), h)


def with_change(path: str, value):
    """The example position with one value set (path: keys joined by '/'; value None deletes the key)."""
    position = copy.deepcopy(POSITION)
    *keys, last = path.split("/")
    target = position
    for key in keys:
        target = target.setdefault(key, {})
    if value is None:
        del target[last]
    else:
        target[last] = value
    return position


def test_a_game_starts_from_the_position_waiting_for_the_current_players_roll():
    s = start(header()).state
    aki, ben, chie = s.players
    assert (aki.cash, aki.position, aki.in_jail, aki.jail_rolls) == (320, 10, True, 2)
    assert (ben.cash, ben.position, ben.jail_cards) == (1200, 39, ["chance-get-out-of-jail-free"])
    assert (chie.cash, chie.position, chie.in_jail) == (1500, 0, False)  # defaults: start cash, GO
    assert s.owner[39] == s.owner[37] == 1 and s.owner[5] == 0 and s.owner[1] == 2 and s.mortgaged[1]
    assert s.buildings[39] == 3 and s.buildings[37] == 4 and (s.bank_houses, s.bank_hotels) == (25, 12)
    assert s.pending == AwaitRoll(1) and s.current == 1 and s.turn == 1
    assert {a.type for a in legal_actions(s) if a.player == 1} >= {"roll", "build", "sell_buildings", "trade"}


def test_the_position_plays_on_a_held_card_is_not_drawn_and_the_jailed_player_leaves_on_the_third_roll():
    game = start(header())
    game.record(parse_entry({"type": "roll", "player": "Ben", "dice": [3, 5]}))  # Boardwalk -> Chance by GO
    cards = next(a.detail["cards"] for a in legal_actions(game.state) if a.type == "card")
    assert "chance-get-out-of-jail-free" not in cards and "chance-bank-dividend" in cards
    for entry in ({"type": "card", "player": "Ben", "card": "chance-bank-dividend"},
                  {"type": "roll", "player": "Chie", "dice": [4, 6]},
                  {"type": "roll", "player": "Aki", "dice": [1, 2]},  # the third failed roll
                  {"type": "pay_bail", "player": "Aki"}):  # (Ben's card could have been bought first)
        game.record(parse_entry(entry))
    aki, ben = game.state.players[:2]
    assert ben.cash == 1200 + 200 + 50 and not aki.in_jail and aki.position == 13 and aki.cash == 320 - 50


def test_defaults_the_first_player_starts_and_in_jail_alone_puts_the_token_in_jail():
    s = start(header({"players": {"Chie": {"in_jail": True}}})).state
    assert s.pending == AwaitRoll(0) and s.players[2].position == 10 and s.players[2].in_jail


def test_the_header_writes_the_position_back_as_given_and_the_record_reads_the_same():
    game = start(header(meta={"title": "begun on paper"}))
    data = game.header.to_dict()
    assert data["position"] == POSITION and parse_header(data) == game.header
    again_header, entries = parse_record(game.to_lines())
    assert again_header == game.header and entries == []
    assert start(data).state.players[0].cash == 320


def test_a_tournaments_dealt_deeds_are_not_dealt_again_in_a_position():
    s = start(header({"deeds": {"boardwalk": {"owner": "Aki"}}}, options={"dealt_deeds": 2})).state
    assert s.pending == AwaitRoll(0)


@pytest.mark.parametrize("data, words", [
    (header(seating="roll"), 'position needs "seating": "fixed"'),
    (header(position=[1, 2]), "position must be an object, got [1, 2]"),
    (header(with_change("pot", 100)), "position: unknown field(s) pot"),
    (header(with_change("current", "Zed")), "position.current: 'Zed' is not a player of this record"),
    (header(with_change("players/Zed", {"cash": 5})), "position.players: 'Zed' is not a player of this record"),
    (header(with_change("players/Aki/money", 5)), "position.players.Aki: unknown field(s) money"),
    (header(with_change("players/Aki/cash", -5)), "position.players.Aki.cash must be a whole number from 0 to "
                                                  "1,000,000,000, got -5"),
    (header(with_change("players/Aki/cash", 10**9 + 1)), "got 1000000001"),
    (header(with_change("players/Aki/cash", 12.5)), "position.players.Aki.cash must be a whole number"),
    (header(with_change("players/Aki/cash", True)), "position.players.Aki.cash must be a whole number"),
    (header(with_change("players/Chie", {"square": "narnia"})), "position.players.Chie.square: no square 'narnia'"),
    (header(with_change("players/Chie", {"square": 40})), "position.players.Chie.square: no square 40"),
    (header(with_change("players/Chie", {"square": ["go"]})), "position.players.Chie.square must be a square id"),
    (header(with_change("players/Aki/square", "boardwalk")), "position.players.Aki: in_jail needs the jail square "
                                                              "('jail'), got square 'boardwalk'"),
    (header(with_change("players/Aki/in_jail", "yes")), "position.players.Aki.in_jail must be true or false"),
    (header(with_change("players/Aki/in_jail", None)), "position.players.Aki.jail_rolls: 2: failed jail rolls are "
                                                       "counted only for a player in jail"),
    (header(with_change("players/Aki/jail_rolls", 3)), "position.players.Aki.jail_rolls must be from 0 to 2"),
    (header(with_change("players/Aki/jail_cards", ["chance-go-to-jail"])),
     "position.players.Aki.jail_cards: 'chance-go-to-jail' is not a get-out-of-jail card"),
    (header(with_change("players/Aki/jail_cards", ["chance-get-out-of-jail-free"])),
     "'chance-get-out-of-jail-free' is already held by Aki: a card is held by one player at most"),
    (header(with_change("players/Aki/jail_cards", "chest-get-out-of-jail-free")),
     "position.players.Aki.jail_cards must be a list of card ids"),
    (header(with_change("deeds/income-tax", {"owner": "Aki"})), "position.deeds: 'income-tax' is not a deed"),
    (header(with_change("deeds/4", {"owner": "Aki"})), "position.deeds: '4' (income-tax) is not a deed"),
    (header(with_change("deeds/reading-railroad", {"owner": "Aki"})), "reading-railroad is given twice"),
    (header(with_change("deeds/short-line", {"mortgaged": True})), "position.deeds.short-line: owner is missing"),
    (header(with_change("deeds/short-line", {"owner": "Zed"})), "position.deeds.short-line.owner: 'Zed' is not a "
                                                                 "player"),
    (header(with_change("deeds/short-line", {"owner": "Aki", "mortgaged": 1})), "mortgaged must be true or false"),
    (header(with_change("deeds/short-line", {"owner": "Aki", "buildings": 1})), "short-line is not a street"),
    (header(with_change("deeds/boardwalk/buildings", 5)), 'must be 0 to 4 houses or "hotel", got 5'),
    (header(with_change("deeds/boardwalk/buildings", "castle")), 'must be a number of houses or "hotel"'),
    (header(with_change("deeds/park-place/owner", "Aki")), "buildings on the dark-blue group (park-place 4, "
                                                          "boardwalk 3) need one owner of every lot"),
    (header(with_change("deeds/boardwalk/mortgaged", True)), "with boardwalk mortgaged: no lot of a group with "
                                                             "buildings is mortgaged"),
    (header(with_change("deeds/boardwalk/buildings", 2)), "park-place 4, boardwalk 2: the lots of a group differ "
                                                          "by at most one building"),
    (header(with_change("bank/houses", 32)), "position.bank.houses: 32, but the supply less the board leaves 25"),
    (header(with_change("bank/stock", 1)), "position.bank: unknown field(s) stock"),
    (header(with_change("bank/hotels", -1)), "position.bank.hotels must be a whole number"),
])
def test_a_bad_position_is_refused_naming_the_field_and_the_value(data, words):
    with pytest.raises(RecordError) as err:
        start(data)
    assert err.value.code == "bad_header" and err.value.line == 1
    assert words in str(err.value)


def test_the_building_supply_bounds_a_position():
    streets = [sq.id for sq in rulesets.load("jma-2006").squares if sq.kind == "street"]
    everything = {sid: {"owner": "Aki", "buildings": "hotel"} for sid in streets}
    with pytest.raises(RecordError) as err:
        start(header({"deeds": everything}))
    assert "0 houses and 22 hotels on the board; the supply is 32 and 12" in str(err.value)


def test_replay_prints_a_position_game_and_refuses_a_bad_one_in_one_line(tmp_path, capsys):
    good = tmp_path / "good.jsonl"
    good.write_text(json.dumps(header()) + "\n" + json.dumps({"type": "roll", "player": "Ben", "dice": [1, 2]}) + "\n",
                    encoding="utf-8")
    assert main(["replay", str(good), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert {p["name"]: p["cash"] for p in summary["players"]} == {"Aki": 320, "Ben": 1400, "Chie": 1500}
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(header(with_change("players/Aki/jail_rolls", 7))) + "\n", encoding="utf-8")
    assert main(["replay", str(bad)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "line 1: header: position.players.Aki.jail_rolls must be from 0 to 2" in err


def test_money_is_conserved_from_the_positions_cash_in_random_play():
    game = start(header())
    invariants = Invariants(game.ruleset, game.initial)
    policy = Policy(random.Random(3), "random")
    for _ in range(300):
        if game.state.over:
            break
        def check(state, event):
            invariants.after(state, event)
            invariants.recount(state, event)  # the position's holdings and buildings counted from the start
        game.record(policy.choose(game.state, legal_actions(game.state)), check)
    assert not invariants.violations


def test_an_imported_record_with_a_position_is_stored_and_continued(client):
    text = (json.dumps(header(meta={"title": "begun on paper"}), ensure_ascii=False) + "\n"
            + json.dumps({"seq": 1, "type": "roll", "player": "Ben", "dice": [1, 2]}) + "\n").encode()
    r = client.post("/games/import", data={"record": (BytesIO(text), "paper.jsonl"), "pin": "654321"},
                    content_type="multipart/form-data")
    game_id = int(r.headers["Location"].rsplit("/", 1)[1])
    exported = client.get(f"/games/{game_id}/record.jsonl").get_data(as_text=True).splitlines()
    assert json.loads(exported[0])["position"] == POSITION
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "$320" in page and "$1,400" in page


def test_an_imported_record_with_a_bad_position_is_refused_with_its_reason(client):
    text = json.dumps(header(with_change("deeds/boardwalk/buildings", 2))).encode() + b"\n"
    page = client.post("/games/import", data={"record": (BytesIO(text), "bad.jsonl"), "pin": "654321"},
                       content_type="multipart/form-data", follow_redirects=True).get_data(as_text=True)
    assert "the lots of a group differ by at most one building" in page


def test_a_record_nested_ten_thousand_deep_is_refused_with_a_message():
    header = json.dumps({"format": "referee-game-record", "version": 1, "ruleset": "jma-2006",
                         "players": ["Aki", "Ben"], "seating": "fixed"})
    with pytest.raises(RecordError) as err:
        parse_record([header[:-1] + ', "position": ' + "[" * 10000 + "]" * 10000 + "}"])
    assert err.value.line == 1 and "nested more than 8 levels deep" in err.value.message


def test_a_huge_value_in_a_position_is_cut_in_its_message():
    header = {"format": "referee-game-record", "version": 1, "ruleset": "jma-2006", "players": ["Aki", "Ben"],
              "seating": "fixed", "position": {"deeds": {"x" * 1_000_000: {"owner": "Aki"}}}}
    with pytest.raises(RecordError) as err:
        Game(rulesets.load("jma-2006"), parse_header(header))
    assert len(err.value.message) < 1000 and "1,000,0" in err.value.message
