"""Every decision card finishes its job (issue 11): a player's card shows their deeds by colour group with buildings,
mortgages and get-out-of-jail cards, and the bank's stock; the debt card adds up every way to raise cash, says what
is still missing and offers only the ways to finish the rules allow; the building round panel shows each
declaration with its cost and the levels it ends at, the bank's stock, why a declaration cannot be filled and, at a
shortage auction, the lot and its opening prices.  In English and in Japanese."""
import html
import re

import pytest

from referee.services import rulesets
from referee.engine import AwaitRoll, BuildRound, parse_entry, raisable_cash, resolve
from test_japanese import english_words
from test_table_decisions import from_position
from test_table_words import JA, record, screen

# what it checks (words, screens, rules, printed pages) is drawn from the same rows on either database: its app
# tests run on SQLite alone (tests/conftest.py: one_database)
pytestmark = pytest.mark.one_database

JMA = rulesets.load("jma-2006")
ORANGE = ("st-james-place", "tennessee-avenue", "new-york-avenue")
PINK = ("st-charles-place", "states-avenue", "virginia-avenue")


def part(client, game_id, start, stop, opened="", **headers):
    """The text of one part of the table screen, from the tag ``start`` to ``stop``, as the referee reads it (with
    the panels ``opened`` open: a panel's contents are drawn when it is opened)."""
    page = client.get(f"/games/{game_id}?open={opened}", headers=headers).get_data(as_text=True)
    page = page[page.index(start):]
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page[:page.index(stop)], flags=re.S)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page))).strip()


def players(client, game_id, opened="", **headers):
    return part(client, game_id, '<section class="players">', "</section>", opened, **headers)


def bank_stock(client, game_id, **headers):
    """The line under the players' cards."""
    return part(client, game_id, '<p class="bankstock">', "</p>", **headers)


def decision(client, game_id, **headers):
    return part(client, game_id, '<section class="decision"', "</section>", **headers)


def price(square_id, field):
    return getattr(JMA.square(square_id), field)


def aki_owes_rent(client):
    """Aki ($10, a Chance jail card; 2 houses on each orange lot, Boardwalk, Reading Railroad mortgaged) lands on
    Ben's hotel on Baltic Avenue: $450 rent."""
    deeds = {sq: {"owner": "Aki", "buildings": 2} for sq in ORANGE}
    deeds.update({"boardwalk": {"owner": "Aki"}, "reading-railroad": {"owner": "Aki", "mortgaged": True},
                  "baltic-avenue": {"owner": "Ben", "buildings": "hotel"},
                  "mediterranean-avenue": {"owner": "Ben", "buildings": 4},
                  "oriental-avenue": {"owner": "Chie"}, "electric-company": {"owner": "Chie"}})
    game_id = from_position(client, {"players": {"Aki": {"cash": 10, "jail_cards": ["chance-get-out-of-jail-free"]}},
                                     "deeds": deeds})
    record(client, game_id, {"type": "roll", "player": "Aki", "dice": [1, 2]})
    return game_id


def declarations_beyond_the_bank(client):
    """28 houses stand (4 in the bank); Aki declares a house on each orange lot, Ben one on each pink lot."""
    deeds = {**{sq: {"owner": "Aki"} for sq in ORANGE}, **{sq: {"owner": "Ben"} for sq in PINK},
             "park-place": {"owner": "Ben"}, "boardwalk": {"owner": "Ben"}}
    deeds.update({sq: {"owner": "Chie", "buildings": 4} for sq in (
        "kentucky-avenue", "indiana-avenue", "illinois-avenue", "atlantic-avenue", "ventnor-avenue", "marvin-gardens")})
    deeds.update({"pacific-avenue": {"owner": "Chie", "buildings": 2},
                  "north-carolina-avenue": {"owner": "Chie", "buildings": 1},
                  "pennsylvania-avenue": {"owner": "Chie", "buildings": 1}})
    game_id = from_position(client, {"deeds": deeds})
    record(client, game_id, {"type": "build", "player": "Aki", "targets": {sq: 1 for sq in ORANGE}},
           {"type": "build", "player": "Ben", "targets": {sq: 1 for sq in PINK}})
    return game_id


# --- the players' cards ------------------------------------------------------------------------------------------


def test_a_players_card_shows_deeds_by_colour_group_with_buildings_mortgages_and_jail_cards(client):
    game_id = aki_owes_rent(client)
    text = players(client, game_id, opened="deeds-0,deeds-1")  # the referee opens both deed lists
    aki = text[:text.index("Ben")]
    assert "Aki $10 on Baltic Avenue a get-out-of-jail card (Chance)" in aki  # name, cash, square in sight
    assert "5 deeds (1 mortgaged) · 6 houses" in aki  # the deed list's summary
    assert "Railroads Reading Railroad mortgaged" in aki
    assert "Orange St. James Place 2 houses Tennessee Avenue 2 houses New York Avenue 2 houses" in aki
    assert "Dark Blue Boardwalk" in aki
    assert "2 deeds · 4 houses · 1 hotel Brown Mediterranean Avenue 4 houses Baltic Avenue hotel" in text
    # 32 houses and 12 hotels, less the 6 + 4 houses and the hotel on the board
    assert bank_stock(client, game_id) == "In the bank: 22 houses, 11 hotels"
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert page.count('class="swatch mortgaged"') == 1  # Reading Railroad's swatch is marked in the summary
    assert 'id="deeds-0"' in page  # the list keeps its open state through a live refresh


def test_a_players_card_in_japanese_names_groups_squares_and_the_card_deck_in_japanese(client):
    game_id = aki_owes_rent(client)
    ja = players(client, game_id, opened="deeds-0,deeds-1", **JA)
    assert "釈放カード（チャンス）" in ja and "権利書5枚（うち抵当1枚） · 家6軒" in ja
    assert "オレンジ セント・ジェームス・プレイス 家2軒" in ja and "鉄道 リーディング鉄道 抵当" in ja
    assert bank_stock(client, game_id, **JA) == "銀行の在庫：家22軒、ホテル11軒"
    assert [w for w in english_words() if w in ja] == []


# --- the debt card -----------------------------------------------------------------------------------------------


def test_the_debt_card_adds_up_every_way_to_raise_cash_as_a_referee_would(client):
    game_id = aki_owes_rent(client)
    mortgages = sum(price(sq, "mortgage") for sq in ORANGE + ("boardwalk",))  # Reading Railroad is mortgaged already
    buildings = sum(2 * price(sq, "house_cost") // 2 for sq in ORANGE)  # half the price of 6 houses
    assert (mortgages, buildings) == (480, 300)
    text = decision(client, game_id)
    assert "owed to Ben $450 Aki's cash $10 still missing $440" in text
    # Boardwalk's mortgage now; the Orange deeds' once their buildings are sold (the rules: the group first)
    assert "mortgaging the deeds that can be mortgaged now (1) +$200" in text
    assert f"mortgaging the deeds of built groups, after the sale (3) +${mortgages - 200}" in text
    assert f"selling every building (6) +${buildings}" in text
    assert f"in all, with the cash ${10 + mortgages + buildings}" in text
    # the engine's own sum, which decides bankruptcy, is the same
    from referee.services import folds
    with client.application.app_context():
        state = folds.load(game_id).game.state
    assert raisable_cash(state, 0) == 10 + mortgages + buildings
    # each way with what it raises, before it is tapped
    assert "sell buildings on the Orange group: New York Avenue 2 houses → 1 house: +$50" in text
    # the sale that raises the most in one tap, as selling cannot cover it all
    assert "Sell every building that can be sold: one tap Sell 6 houses: +$300" in text
    assert "$140 still missing after it" in text
    assert "mortgage Boardwalk: +$200" in text
    assert "Paid by itself: the $450 goes to Ben the moment Aki has it in cash — $440 still missing." in text


def test_the_debt_card_offers_debt_negotiation_with_anyone_and_no_bankruptcy_while_the_debt_can_be_raised(client):
    game_id = aki_owes_rent(client)
    text = decision(client, game_id)
    assert "Or negotiate: a trade (debt negotiation) Trade with Ben Trade with Chie" in text
    assert "bankrupt" not in text and "Rescue" not in text
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    # each opens that pair's trade form in the trade panel
    assert 'href="#trade-form-0-1"' in page and 'href="#trade-form-0-2"' in page
    assert 'id="trade-form-0-1"' in page and 'id="trade-form-0-2"' in page


def test_the_debt_is_paid_by_itself_once_the_cash_is_raised_as_the_card_says(client):
    game_id = aki_owes_rent(client)
    record(client, game_id, {"type": "mortgage", "player": "Aki", "square": "boardwalk"})
    assert "still missing $240" in decision(client, game_id)  # $450 - $10 - $200
    record(client, game_id, {"type": "sell_buildings", "player": "Aki", "targets": {sq: 0 for sq in ORANGE}})
    assert "waiting for Ben to roll" in screen(client, game_id)
    text = players(client, game_id)
    assert "Aki $60 " in text and "Ben $1,950 " in text  # $10 + $200 + $300 - $450; Ben's $1,500 + $450


def test_a_provisional_bankruptcy_offers_a_rescue_only_from_a_player_other_than_the_creditor(client):
    game_id = from_position(client, {"players": {"Aki": {"cash": 10}}, "deeds": {
        "mediterranean-avenue": {"owner": "Ben", "buildings": 4}, "baltic-avenue": {"owner": "Ben", "buildings": "hotel"},
        "vermont-avenue": {"owner": "Chie"}, "oriental-avenue": {"owner": "Aki"}}})
    record(client, game_id, {"type": "roll", "player": "Aki", "dice": [1, 2]})
    text = decision(client, game_id)
    assert "in all, with the cash $60" in text  # $10 and Oriental Avenue's $50 mortgage
    assert "selling and mortgaging everything leaves $390 short, which only a rescue can bring" in text
    assert "Or a rescue: a trade with a player other than the creditor Rescue by Chie" in text
    assert "Rescue by Ben" not in text and "Trade with" not in text  # Ben is the creditor
    assert "No rescue: bankrupt" in text


def test_a_winning_bid_card_counts_what_the_winner_has_in_all_and_offers_no_trade(client):
    game_id = from_position(client, {"players": {"Ben": {"cash": 100}}, "deeds": {"boardwalk": {"owner": "Ben"}}})
    record(client, game_id, {"type": "roll", "player": "Aki", "dice": [1, 2]}, {"type": "decline", "player": "Aki"},
           {"type": "bid", "player": "Ben", "amount": 250}, {"type": "hammer"})
    text = decision(client, game_id)
    assert "the winning bid $250 Ben's cash $100 still missing $150" in text
    assert "in all, with the cash $300" in text and "mortgage Boardwalk: +$200" in text
    assert "the bid of $250 goes to the bank the moment Ben has it in cash — $150 still missing" in text
    assert "Trade with" not in text and "Rescue by" not in text and "bankrupt" not in text


def test_the_debt_card_in_japanese(client):
    game_id = aki_owes_rent(client)
    ja = decision(client, game_id, **JA)
    assert "Ben への負債 $450 Aki の現金 $10 不足額 $440" in ja
    assert "現金を含めた調達可能額の合計 $790" in ja and "Ben と取引" in ja
    assert "$450が Ben に支払われます" in ja
    for english in ("still missing", "Paid by itself", "Trade with", "in all"):
        assert english not in ja
    assert [w for w in english_words() if w in ja] == []


# --- the building round --------------------------------------------------------------------------------------------


def test_the_building_round_lists_each_declaration_with_its_cost_and_the_levels_it_ends_at(client):
    game_id = declarations_beyond_the_bank(client)
    text = decision(client, game_id)
    assert ("Ben declares cost $300 from the bank: 3 houses Pink St. Charles Place no buildings → 1 house "
            "States Avenue no buildings → 1 house Virginia Avenue no buildings → 1 house") in text
    assert "Aki declares cost $300 from the bank: 3 houses Orange" in text
    assert "houses declared / in the bank 6 / 4" in text
    assert ("Declared in all: 6 houses; the bank has 4 houses for them. Closing the declarations starts a shortage "
            "auction") in text
    # the amount on every button
    assert "No one else follows: close the declarations — the bank is short: an auction of 1 house follows" in text
    assert "Withdraw Aki's declaration of $300" in text and "Withdraw Ben's declaration of $300" in text
    assert bank_stock(client, game_id) == "In the bank: 4 houses, 12 hotels"


def test_the_even_rule_preview_shows_every_lot_of_the_group_even_those_that_stay(client):
    deeds = {"park-place": {"owner": "Ben", "buildings": 1}, "boardwalk": {"owner": "Ben", "buildings": 2},
             **{sq: {"owner": "Aki"} for sq in ORANGE}}
    deeds.update({sq: {"owner": "Chie", "buildings": 4} for sq in (
        "kentucky-avenue", "indiana-avenue", "illinois-avenue", "atlantic-avenue", "ventnor-avenue", "marvin-gardens")})
    deeds.update({"pacific-avenue": {"owner": "Chie", "buildings": 1}, "north-carolina-avenue": {"owner": "Chie"},
                  "pennsylvania-avenue": {"owner": "Chie"}})
    game_id = from_position(client, {"deeds": deeds})  # 4 houses in the bank, Aki could still declare 12
    record(client, game_id, {"type": "build", "player": "Ben", "targets": {"park-place": 2}})
    text = decision(client, game_id)
    assert (f"Ben declares cost ${price('park-place', 'house_cost')} from the bank: 1 house Dark Blue "
            "Park Place 1 house → 2 houses Boardwalk 2 houses (stays)") in text


def test_closing_declarations_the_bank_can_fill_says_what_they_cost_in_all(client):
    deeds = {**{sq: {"owner": "Aki"} for sq in ORANGE}, **{sq: {"owner": "Ben"} for sq in PINK}}
    deeds.update({sq: {"owner": "Chie", "buildings": 4} for sq in (
        "kentucky-avenue", "indiana-avenue", "illinois-avenue", "atlantic-avenue", "ventnor-avenue", "marvin-gardens")})
    deeds.update({"pacific-avenue": {"owner": "Chie", "buildings": 2},
                  "north-carolina-avenue": {"owner": "Chie", "buildings": 1},
                  "pennsylvania-avenue": {"owner": "Chie", "buildings": 1}})
    game_id = from_position(client, {"deeds": deeds})  # 4 houses in the bank; Ben could still declare 12
    record(client, game_id, {"type": "build", "player": "Aki", "targets": {sq: 1 for sq in ORANGE}})
    text = decision(client, game_id)
    assert "No one else follows: close the declarations — build for $300 in all" in text
    assert "Declared in all" not in text  # the bank has enough
    record(client, game_id, {"type": "close_builds"})
    assert "Aki $1,200 " in players(client, game_id)


def test_a_shortage_lot_shows_its_opening_price_for_each_bidder(client):
    game_id = declarations_beyond_the_bank(client)
    record(client, game_id, {"type": "close_builds"})
    text = decision(client, game_id)
    assert "house-shortage auction of one house" in text
    assert "Lot: 1 house" in text
    # the building price of the cheapest lot each could build on: orange and pink $100, green $200
    assert "Aki: from $100 (St. James Place)" in text and "Ben: from $100 (St. Charles Place)" in text
    assert "Chie: from $200 (North Carolina Avenue)" in text
    # the same as each bidder's first quick bid
    assert "Aki $100 $110" in text and "Chie $200 $210" in text
    assert "the buildings go one at a time by auction, and after each the declarations stand again" in text


def test_a_declaration_the_bank_cannot_fill_says_why_and_lapses_when_closed(client):
    """No house in the bank: Chie's declared hotels, built first, would give back 12, and Aki and Ben declare on
    them; Chie withdraws, and their declarations cannot be filled."""
    deeds = {sq: {"owner": "Chie", "buildings": 4} for sq in (
        "oriental-avenue", "vermont-avenue", "connecticut-avenue", "kentucky-avenue", "indiana-avenue",
        "illinois-avenue")}
    deeds.update({"atlantic-avenue": {"owner": "Chie", "buildings": 3}, "ventnor-avenue": {"owner": "Chie", "buildings": 3},
                  "marvin-gardens": {"owner": "Chie", "buildings": 2}})
    deeds.update({**{sq: {"owner": "Aki"} for sq in ORANGE}, **{sq: {"owner": "Ben"} for sq in PINK}})
    game_id = from_position(client, {"deeds": deeds})
    blue = ("oriental-avenue", "vermont-avenue", "connecticut-avenue")
    record(client, game_id, {"type": "build", "player": "Chie", "targets": {sq: "hotel" for sq in blue}},
           {"type": "build", "player": "Aki", "targets": {sq: 1 for sq in ORANGE}})
    text = decision(client, game_id)
    assert "The bank has 0 houses; the hotels declared are built first and give back 12 houses." in text
    record(client, game_id,
           {"type": "build", "player": "Ben", "targets": {"st-charles-place": 4, "states-avenue": 3,
                                                          "virginia-avenue": 3}},
           {"type": "withdraw_build", "player": "Chie", "targets": {sq: 4 for sq in blue}})
    text = decision(client, game_id)
    assert ("Aki declares cost $300 from the bank: 3 houses") in text
    assert "It needs 3 houses; the bank has 0 houses for the declarations: it lapses when the declarations close." in text
    assert "It needs 10 houses; the bank has 0 houses for the declarations" in text
    assert "No one else follows: close the declarations — nothing can be built, they lapse" in text
    record(client, game_id, {"type": "close_builds"})
    assert "Aki $1,500 " in players(client, game_id) and "Ben $1,500 " in players(client, game_id)


def test_a_declaration_its_player_can_no_longer_pay_for_says_so(app):
    from conftest import give, seated_state
    from referee.screens.decisions.build_round import build_round_card

    state = give(seated_state(JMA), 0, *ORANGE)
    orange = tuple(JMA.square(sq).index for sq in ORANGE)
    state.pending = BuildRound(((0, tuple((sq, 1) for sq in orange)),), AwaitRoll(0))
    state.players[0].cash = 250  # the declaration costs $300
    with app.test_request_context():
        card = build_round_card(state)
    assert [d.cost for d in card.declarations] == [300]
    assert card.declarations[0].problems == [
        "Aki has $250, less than the $300 it costs: it lapses when the buildings go up."]
    assert card.close_cost == 0  # and closing builds nothing
    after = resolve(state, parse_entry({"type": "close_builds"})).state
    assert [after.buildings[sq] for sq in orange] == [0, 0, 0] and after.players[0].cash == 250


def test_the_building_round_in_japanese_shows_no_english_group_or_square_names(client):
    game_id = declarations_beyond_the_bank(client)
    ja = decision(client, game_id, **JA)
    assert "Ben の宣言 費用$300 銀行から：家3軒 ピンク セント・チャールズ・プレイス 建物なし → 家1軒" in ja
    assert "宣言された家 / 銀行の在庫 6 / 4" in ja and "追随なし：宣言を締め切る — 在庫不足：家1軒の競売へ" in ja
    record(client, game_id, {"type": "close_builds"})
    ja_auction = decision(client, game_id, **JA)
    assert "競売品：家1軒" in ja_auction and "Aki：$100から（セント・ジェームス・プレイス）" in ja_auction
    for text in (ja, ja_auction):
        assert [w for w in english_words() if re.search(rf"(?<![\w.]){re.escape(w)}(?!\w)", text)] == []
        for english in ("declares", "cost", "Lot", "from $", "in the bank", "Pink", "Orange"):
            assert english not in text


def test_a_quick_bid_beyond_its_bidders_reach_is_marked_on_its_button_and_said_in_words(client):
    """JMA: a winning bid its bidder cannot pay is found out at the hammer; the card says so at bid time, the bid
    still on offer (Ben: $25, nothing to sell or mortgage)."""
    game_id = from_position(client, {"players": {"Ben": {"cash": 25}}})
    record(client, game_id, {"type": "roll", "player": "Aki", "dice": [1, 2]})
    record(client, game_id, {"type": "decline", "player": "Aki"})
    page = html.unescape(client.get(f"/games/{game_id}").get_data(as_text=True))
    assert re.findall(r'class="beyond" type="submit">([^<]*)<', page) == ["$30 ⚠", "$60 ⚠", "$110 ⚠"]
    assert ("⚠ $30, $60, $110: more than Ben can raise ($25) with every building sold and every deed mortgaged. "
            "Still a bid; the hammer finds it out.") in page
    assert 'id="beyond-0"' not in page and 'id="beyond-2"' not in page  # Aki and Chie reach every quick bid
    record(client, game_id, {"type": "bid", "player": "Ben", "amount": 30})  # allowed: the rules take it
    assert "Highest bid: $30 by Ben" in decision(client, game_id)
