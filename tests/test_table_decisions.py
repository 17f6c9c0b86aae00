"""The table screen plays the JMA rulings of the last clauses as a referee would: a winning bid raised by
mortgaging, a get-out-of-jail card bought before the fine, the card that must settle the fine first, a shortage
bid held by a dearer lot; each card says why, with the clause, in English and Japanese."""
import html
import json
from io import BytesIO

import pytest

from referee.services import rulesets
from conftest import new_game, post
from test_table_words import JA, record, screen

# what it checks (words, screens, rules, printed pages) is drawn from the same rows on either database: its app
# tests run on SQLite alone (tests/conftest.py: one_database)
pytestmark = pytest.mark.one_database

JMA = rulesets.load("jma-2006")


def from_position(client, position, players=("Aki", "Ben", "Chie")):
    """A game continued from a position found at the table (a record header with a set-up position)."""
    header = {"format": "referee-game-record", "version": 1, "ruleset": "jma-2006", "players": list(players),
              "seating": "fixed", "position": position}
    r = client.post("/games/import", data={"record": (BytesIO(json.dumps(header).encode()), "game.jsonl"),
                                           "pin": "654321"}, content_type="multipart/form-data")
    assert r.status_code == 302, r.get_data(as_text=True)
    return int(r.headers["Location"].rsplit("/", 1)[1])


def seq_of(client, game_id):
    return len(client.get(f"/games/{game_id}/record.jsonl").get_data(as_text=True).splitlines()) - 1


def test_a_winning_bid_beyond_cash_is_raised_on_the_card_then_paid(client):
    game_id = from_position(client, {"players": {"Ben": {"cash": 100}}, "deeds": {"boardwalk": {"owner": "Ben"}}})
    record(client, game_id, {"type": "roll", "player": "Aki", "dice": [1, 2]}, {"type": "decline", "player": "Aki"},
           {"type": "bid", "player": "Ben", "amount": 250}, {"type": "hammer"})
    page = screen(client, game_id)
    assert "Ben won Baltic Avenue at $250 and raises the cash to pay" in page
    assert ("Ben's winning bid of $250 stands: Ben has $100, and $300 in all with every deed mortgaged and every "
            "building sold. The table waits for the $150 still missing") in page
    assert JMA.clauses["auction_unpayable_bid"].source in page
    assert "mortgage Boardwalk: +$200" in page  # the amount on the button before it is tapped
    ja = screen(client, game_id, **JA)
    assert "Ben の$250の落札は有効です" in ja and "不足の$150が揃うまで進行を止め" in ja and "合計$300" in ja
    record(client, game_id, {"type": "mortgage", "player": "Ben", "square": "boardwalk"})
    page = screen(client, game_id)
    assert "waiting for Ben to roll" in page
    record_lines = client.get(f"/games/{game_id}/record.jsonl").get_data(as_text=True).splitlines()
    assert json.loads(record_lines[-1])["type"] == "mortgage"


def test_after_the_third_failed_roll_a_card_is_bought_on_the_card_and_used(client):
    game_id = from_position(client, {"players": {"Aki": {"in_jail": True, "jail_rolls": 2},
                                                 "Chie": {"jail_cards": ["chest-get-out-of-jail-free"]}}})
    record(client, game_id, {"type": "roll", "player": "Aki", "dice": [1, 2]})
    page = screen(client, game_id)
    assert ("Third failed roll: before paying the $50 fine, Aki may buy a get-out-of-jail card from another "
            "player, for less than $50, and use it.") in page
    assert "Pay the $50 fine and move" in page and "Buy Chie's card" in page
    ja = screen(client, game_id, **JA)
    assert "他のプレイヤーから釈放カードを$50未満で買って使うことができます" in ja and "Chie の釈放カードを買う" in ja
    # the buy form as the screen sends it: the card in a hidden field, the price typed in
    seq = seq_of(client, game_id)
    r = post(client, game_id, seq, {"type": "trade", "player": "Aki", "partner": "Chie"},
             **{"take-cards": "chest-get-out-of-jail-free", "give-cash": "50"})
    assert "A jail card may not go for $50 or more" in r.get_data(as_text=True)
    r = post(client, game_id, seq, {"type": "trade", "player": "Aki", "partner": "Chie"},
             **{"take-cards": "chest-get-out-of-jail-free", "give-cash": "30"})
    assert 'class="flash refused"' not in r.get_data(as_text=True)
    page = screen(client, game_id)
    assert "Use a get-out-of-jail card and move" in page
    record(client, game_id, {"type": "use_jail_card", "player": "Aki"})
    page = screen(client, game_id)
    assert "waiting for Aki to buy or decline States Avenue" in page and "$1,470" in page


def test_the_card_settles_the_fine_first_when_fine_and_rent_outrun_the_player(client):
    pinks = {sq: {"owner": "Ben", "buildings": 3} for sq in ("st-charles-place", "states-avenue", "virginia-avenue")}
    game_id = from_position(client, {"players": {"Aki": {"in_jail": True, "jail_rolls": 2, "cash": 60,
                                                         "jail_cards": ["chance-get-out-of-jail-free"]}},
                                     "deeds": pinks})
    record(client, game_id, {"type": "roll", "player": "Aki", "dice": [1, 2]})
    page = screen(client, game_id)
    assert "the get-out-of-jail card settles the fine first" in page
    assert JMA.clauses["jail_exit_bankruptcy"].source in page
    assert "Pay the $50 fine and move" not in page and "Use a get-out-of-jail card and move" in page
    assert "出所料は釈放カードの使用を優先し" in screen(client, game_id, **JA)


def test_a_shortage_bid_below_the_chosen_lots_price_is_held_on_the_card(client):
    orange = {sq: {"owner": "Aki"} for sq in ("st-james-place", "tennessee-avenue", "new-york-avenue")}
    ben = {sq: {"owner": "Ben"} for sq in ("park-place", "boardwalk", "oriental-avenue", "vermont-avenue",
                                             "connecticut-avenue")}
    filler = {sq: {"owner": "Chie", "buildings": 4} for sq in (
        "kentucky-avenue", "indiana-avenue", "illinois-avenue", "atlantic-avenue", "ventnor-avenue", "marvin-gardens")}
    filler.update({"pacific-avenue": {"owner": "Chie", "buildings": 2},
                   "north-carolina-avenue": {"owner": "Chie", "buildings": 1},
                   "pennsylvania-avenue": {"owner": "Chie", "buildings": 1}})
    game_id = from_position(client, {"deeds": {**orange, **ben, **filler}})  # 28 houses stand: 4 in the bank
    record(client, game_id,
           {"type": "build", "player": "Aki", "targets": {"st-james-place": 1, "tennessee-avenue": 1,
                                                          "new-york-avenue": 1}},
           {"type": "build", "player": "Ben", "targets": {"park-place": 1, "boardwalk": 1}},
           {"type": "close_builds"}, {"type": "bid", "player": "Ben", "amount": 150}, {"type": "hammer"})
    page = screen(client, game_id)
    assert "Boardwalk ($200 a building): the bid is held, the auction goes on" in page
    assert "Oriental Avenue: pay $150" in page
    assert "holds the bid: the auction goes on" in page
    done = record(client, game_id, {"type": "place_building", "player": "Ben", "square": "boardwalk"})
    assert "Ben's bid of $150 is below the building price of Boardwalk: the bid is held" in html.unescape(
        done.get_data(as_text=True))
    page = screen(client, game_id)
    assert "Highest bid: $150 by Ben" in page
    assert "Ben's bid of $150 is held: Boardwalk's building price is $200." in page
    assert "each bidder's first quick bid is their own minimum" in page
    assert "ボードウォークの建設定価は$200です" in screen(client, game_id, **JA)


def test_hotels_declared_while_house_declarations_wait_are_built_first_and_the_screen_says_so(client):
    orange = {sq: {"owner": "Aki"} for sq in ("st-james-place", "tennessee-avenue", "new-york-avenue")}
    pink = {sq: {"owner": "Ben"} for sq in ("st-charles-place", "states-avenue", "virginia-avenue")}
    blue = {sq: {"owner": "Chie", "buildings": 4} for sq in ("oriental-avenue", "vermont-avenue",
                                                             "connecticut-avenue")}
    red = {sq: {"owner": "Chie", "buildings": 3} for sq in ("kentucky-avenue", "indiana-avenue", "illinois-avenue")}
    yellow = {sq: {"owner": "Chie", "buildings": 2} for sq in ("atlantic-avenue", "ventnor-avenue", "marvin-gardens")}
    dark = {"park-place": {"owner": "Chie"}, "boardwalk": {"owner": "Chie", "buildings": 1}}
    game_id = from_position(client, {"deeds": {**orange, **pink, **blue, **red, **yellow, **dark}})  # 4 in the bank
    record(client, game_id,
           {"type": "build", "player": "Aki", "targets": {"st-james-place": 1, "tennessee-avenue": 1,
                                                          "new-york-avenue": 1}},
           {"type": "build", "player": "Ben", "targets": {"st-charles-place": 1, "states-avenue": 1,
                                                          "virginia-avenue": 1}})
    done = record(client, game_id, {"type": "build", "player": "Chie",
                                    "targets": {"oriental-avenue": "hotel", "vermont-avenue": "hotel",
                                                "connecticut-avenue": "hotel"}})
    text = html.unescape(done.get_data(as_text=True))
    assert "Hotels declared are built first; the houses they give back go to the house declarations." in text
    assert "waiting for Aki to roll" in screen(client, game_id)


def test_a_void_bid_says_what_the_winner_could_raise_at_most(client):
    game_id = from_position(client, {"players": {"Ben": {"cash": 100}}, "deeds": {"boardwalk": {"owner": "Ben"}}})
    record(client, game_id, {"type": "roll", "player": "Aki", "dice": [1, 2]}, {"type": "decline", "player": "Aki"},
           {"type": "bid", "player": "Ben", "amount": 310})
    done = html.unescape(record(client, game_id, {"type": "hammer"}).get_data(as_text=True))
    assert ("Ben's winning bid of $310 is void: Ben could raise $300 at most, even by mortgaging every deed and "
            "selling every building") in done
    assert "The auction runs again without Ben." in done and JMA.clauses["auction_unpayable_bid"].source in done


def test_the_debt_card_says_when_the_fine_and_the_rent_ahead_make_a_provisional_bankruptcy(client):
    pinks = {sq: {"owner": "Ben", "buildings": 3} for sq in ("st-charles-place", "states-avenue", "virginia-avenue")}
    game_id = from_position(client, {"players": {"Aki": {"cash": 10, "in_jail": True, "jail_rolls": 2}},
                                     "deeds": {**pinks, "park-place": {"owner": "Aki"}, "boardwalk": {"owner": "Aki"}}})
    record(client, game_id, {"type": "roll", "player": "Aki", "dice": [1, 2]})
    page = screen(client, game_id)
    assert ("After the fine, this roll leads to States Avenue: $450 rent to Ben, $500 in all, more than Aki can "
            "raise. A rescue must come from a player other than Ben and cover both;") in page
    assert "Aki owes the bank $50" in page
    ja = screen(client, game_id, **JA)
    assert "ステーツ・アベニューに進み" in ja and "the bank" not in ja


def test_the_debt_card_counts_the_cash_against_the_fine_and_the_rent_ahead_when_the_cash_pays_the_fine(client):
    """JMA 補足ルール「破産」: "救済提示(分割救済を含む)は両方の負債を完済できるものでなければならず": Aki's $60 pays the $50
    fine, but not the fine and the $450 rent ahead: the fine waits, and what is still missing is $500 less the $60
    in cash, $440 (not the rent alone), with no word of a payment made the moment the cash is there."""
    pinks = {sq: {"owner": "Ben", "buildings": 3} for sq in ("st-charles-place", "states-avenue", "virginia-avenue")}
    game_id = from_position(client, {"players": {"Aki": {"cash": 60, "in_jail": True, "jail_rolls": 2}},
                                     "deeds": {**pinks, "park-place": {"owner": "Aki"}, "boardwalk": {"owner": "Aki"}}})
    record(client, game_id, {"type": "roll", "player": "Aki", "dice": [1, 2]})
    page = screen(client, game_id)
    assert "still missing $440" in page and "still missing $450" not in page
    assert ("The fine of $50 waits with the rent ahead ($450): Aki cannot raise both, so neither is paid until a "
            "rescue covers both;") in page
    assert "the moment Aki has it in cash" not in page


def test_a_roll_off_for_third_place_shows_the_winner_and_the_places_decided_at_once(client):
    """JMA 補足ルール「勝負の決め方」: the roll-off ranks only the players tied; first and second stand at once, on the
    table screen while the roll-off is due and on the result page."""
    game_id = from_position(client, {"players": {"Aki": {"cash": 2000}, "Chie": {"cash": 1000}, "Dai": {"cash": 1000}}},
                            players=("Aki", "Ben", "Chie", "Dai"))
    record(client, game_id, {"type": "time_called"}, {"type": "roll", "player": "Aki", "dice": [4, 6]})
    page = screen(client, game_id)
    assert "waiting for the roll-off of Chie, Dai" in page or "waiting for the roll-off of Chie and Dai" in page
    assert "Ranking: the roll-off decides only the places marked" in page
    assert " 1 Aki $2,000 " in page and " 2 Ben $1,500 " in page
    assert " 3= (roll-off) Chie $1,000 " in page and " 3= (roll-off) Dai $1,000 " in page
    result = screen(client, game_id, "/result")
    assert "Ranking: a roll-off still decides the places marked" in result and " 1 Aki $2,000 " in result
    assert " 3= (roll-off) Dai $1,000 " in result


def test_the_bank_line_shows_the_money_of_a_finite_bank(client):
    """004, 2 and 3: a bank of 200,000 M that pays the start money, and whose running out ends the game: the table
    screen's bank line says what it holds (110,000 M after three players' 30,000 M); the standard bank has no such
    line."""
    for ruleset, words in (("german-simple", "The bank holds 110,000 M."), ("jma-2006", None)):
        game_id = new_game(client, ruleset=ruleset)
        page = client.get(f"/games/{game_id}").get_data(as_text=True)
        line = html.unescape(page.split('<p class="bankstock">', 1)[1].split("</p>", 1)[0])
        assert (words in line) if words else ("The bank holds" not in line), line


def test_a_new_game_the_finite_bank_cannot_stake_is_refused_with_its_reason_in_english_and_german(client):
    form = {"title": "", "ruleset": "german-simple", "players": "\n".join("ABCDEFG"), "seating": "fixed",
            "pin": "123456"}
    r = client.post("/games", data=form)
    assert r.status_code == 400
    page = html.unescape(r.get_data(as_text=True))
    assert "7 players need 210,000 M of start money, 30,000 M each; the bank's 200,000 M pays at most 6 players" in page
    assert "2. Bank und Schulden" in page  # the rule it comes from, cited
    r = client.post("/games", data=form, headers={"Accept-Language": "de"})
    assert r.status_code == 400
    assert ("7 Spieler brauchen 210.000 M Startkapital, 30.000 M je Spieler; die 200.000 M der Bank zahlen höchstens 6 "
            "Spielern den vollen Betrag") in html.unescape(r.get_data(as_text=True))
