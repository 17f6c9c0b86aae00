"""The pending decisions as the screens show them (referee/screens/decisions/): one module per kind of decision,
looked up by its type, each giving its words, its notes and its card as values; the engine's offers they are built
from (ready_entry, leads_to, build_offers).  Asserted on the screen values, not on HTML."""
import typing

import pytest

from referee.engine import (Action, Auction, BuyOrAuction, Debt, Game, Header, IllegalEntry, JailFine, Pending,
                            build_offers, leads_to, legal_actions, parse_entry, ready_entry, with_options)
from referee.screens.decisions import BY_TYPE, decision_screen, pending_words
from referee.screens.decisions.auction import AuctionCard
from referee.screens.decisions.base import NotPending, pending_as
from referee.screens.decisions.jail import JailFineCard
from referee.screens.decisions.purchase import PurchaseCard
from referee.screens.refusals import detail
from referee.services import rulesets
from referee.screens.table import table_screen

from conftest import do, give, place, seated_state


def game_of(ruleset, *entries, players=("Aki", "Ben", "Chie"), **options):
    game = Game(with_options(ruleset, options, "test") if options else ruleset,
                Header(ruleset.id, players, options=options, seating="fixed"))
    for entry in entries:
        game.record(parse_entry(entry))
    return game


def decision_on(state, game=None):
    """The decision ``state`` waits for as the table screen shows it (``game``: the game it is of, where the card
    reads its history; a state set up by hand is shown as the latest state of a game of its ruleset)."""
    by_type = {}
    for a in legal_actions(state):
        by_type.setdefault(a.type, []).append(a)
    return decision_screen(game or game_of(state.ruleset), state, by_type, latest=True)


def test_every_kind_of_pending_decision_has_its_screens_module():
    assert set(typing.get_args(Pending)) <= set(BY_TYPE)
    assert len({decision.template for decision in BY_TYPE.values()}) >= 10  # a template per kind, a few shared


def test_a_decision_module_reads_the_pending_decision_as_its_own_type_and_refuses_another(classic):
    """The one typed accessor every decision module reads the pending decision through: the decision as the type the
    module shows (one of two), and a clear error naming both types when the state waits for another."""
    game = game_of(classic, {"type": "roll", "player": "Aki", "dice": [1, 2]})  # Baltic Avenue
    assert pending_as(game.state, BuyOrAuction) is game.state.pending
    assert pending_as(game.state, Auction, BuyOrAuction) is game.state.pending
    with pytest.raises(NotPending, match="waits for BuyOrAuction, not Auction or Debt"):
        pending_as(game.state, Auction, Debt)


def test_the_buy_card_carries_the_price_on_the_button_and_the_opening_bids_a_decline_leads_to(classic):
    """Official rules: "If you do not wish to buy the property, the Banker sells it through an auction"."""
    game = game_of(classic, {"type": "roll", "player": "Aki", "dice": [1, 2]})  # Baltic Avenue, $60
    screen = table_screen(game, language=rulesets.language("en"))
    card = screen.decision.card
    assert isinstance(game.state.pending, BuyOrAuction) and isinstance(card, PurchaseCard)
    assert (card.player, card.price, card.buy, card.auction_on_decline, card.short_of_cash) == ("Aki", 60, 60, True,
                                                                                               None)
    assert screen.decision.template == "table/decisions/purchase.html"
    assert screen.pending == "waiting for Aki to buy or decline Baltic Avenue"
    # the opening bids are the engine's own minimums at the auction the decline opens: every player, from $1
    after = leads_to(game.state, legal_actions(game.state, kinds=("decline",))[0]).state
    assert isinstance(after.pending, Auction)
    assert [name for name, _ in card.opening_bids] == ["Aki", "Ben", "Chie"]
    minimum = [a.detail["minimum"] for a in legal_actions(after) if a.type == "bid"]
    assert [amounts[0] for _, amounts in card.opening_bids] == minimum


def test_a_decline_that_leaves_the_deed_with_the_bank_says_so_and_offers_no_bids(classic):
    game = game_of(classic, {"type": "roll", "player": "Aki", "dice": [1, 2]}, auction_on_decline=False)
    card = table_screen(game, language=rulesets.language("en")).decision.card
    assert card.auction_on_decline is False and card.opening_bids == []


def test_without_the_cash_there_is_no_buy_button_and_the_card_says_how_much_is_there(classic):
    state = do(place(seated_state(classic), 0, "go", cash=40), type="roll", player="Aki", dice=[1, 2])  # Baltic, $60
    card = decision_on(state).card
    assert (card.buy, card.short_of_cash, card.price) == (None, 40, 60)


def test_an_auction_card_gives_each_bidder_quick_bids_from_their_minimum_and_the_hammer(classic):
    game = game_of(classic, {"type": "roll", "player": "Aki", "dice": [1, 2]}, {"type": "decline", "player": "Aki"},
                   {"type": "bid", "player": "Ben", "amount": 20})
    screen = table_screen(game, language=rulesets.language("en"))
    card = screen.decision.card
    assert isinstance(card, AuctionCard)
    assert (card.high_bid, card.high_bidder, card.hammer) == (20, "Ben", True)
    for bidder in card.bidders:
        assert bidder.quick[0] == bidder.minimum > 20
    assert screen.pending == "auction of Baltic Avenue in progress"


def test_a_quick_bid_beyond_what_its_bidder_can_raise_is_marked_and_still_offered(classic):
    """JMA: a winning bid its bidder cannot pay is found out at the hammer; the card marks such a bid at bid time
    (cash, every building sold, every deed mortgaged: the engine's raisable cash) and keeps it on offer."""
    s = give(seated_state(classic), 1, "oriental-avenue")  # Ben: $20 cash and Oriental Avenue ($50 mortgage)
    s.players[1].cash = 20
    s = do(s, type="roll", player="Aki", dice=[1, 2])
    s = do(s, type="decline", player="Aki")
    s = do(s, type="bid", player="Chie", amount=60)
    ben = next(b for b in decision_on(s).card.bidders if b.name == "Ben")
    assert ben.can_raise == 20 + 50
    assert [(amount, ben.beyond(amount)) for amount in ben.quick][:2] == [(61, False), (62, False)]
    assert [amount for amount in ben.quick if ben.beyond(amount)] == [a for a in ben.quick if a > 70] != []
    aki = next(b for b in decision_on(s).card.bidders if b.name == "Aki")
    assert not any(aki.beyond(amount) for amount in aki.quick)  # $1500: every quick bid is within reach


def test_the_jail_card_on_offer_is_priced_below_the_fine(jma):
    """JMA 補足ルール: before paying the fine after the third failed roll, a player may buy another player's
    get-out-of-jail card for less than the fine, and use it."""
    s = seated_state(jma)
    s.players[0].in_jail, s.players[0].position = True, jma.square("jail").index
    s.players[0].jail_rolls = jma.options.jail_max_rolls - 1
    s.players[1].jail_cards.append(next(c.id for c in jma.cards.values() if c.effect.kind == "get_out_of_jail"))
    s = do(s, type="roll", player="Aki", dice=[1, 2])
    assert isinstance(s.pending, JailFine)
    decision = decision_on(s)
    card = decision.card
    assert isinstance(card, JailFineCard)
    assert (card.fine, card.price_limit) == (jma.money.bail, jma.money.bail - 1)
    assert [(holder, name) for holder, name, _ in card.offers] == [(1, "Ben")]
    assert [w.rule for w in decision.notes] == ["jail_card_purchase_before_fine"]


def test_a_refusal_names_the_decision_awaited_in_that_decisions_own_words(classic):
    game = game_of(classic, {"type": "roll", "player": "Aki", "dice": [1, 2]})
    with pytest.raises(IllegalEntry) as err:
        game.record(parse_entry({"type": "roll", "player": "Ben", "dice": [1, 2]}))
    assert detail(err.value).endswith(pending_words(game.state))
    assert "a roll of the dice" in detail(err.value)
    assert err.value.message == 'a "roll" entry cannot be recorded now: the table waits for: buy or auction (Aki)'


def test_an_action_with_nothing_left_to_choose_has_its_ready_entry_and_leads_somewhere(classic):
    game = game_of(classic, {"type": "roll", "player": "Aki", "dice": [1, 2]})
    actions = {a.type: a for a in legal_actions(game.state)}
    assert ready_entry(game.state, actions["buy"]).to_dict() == {"type": "buy", "player": "Aki"}
    assert leads_to(game.state, actions["buy"]).state.owner[classic.square("baltic-avenue").index] == 0
    roll = legal_actions(game_of(classic).state, kinds=("roll",))[0]
    assert ready_entry(game_of(classic).state, roll) is None and leads_to(game_of(classic).state, roll) is None
    assert leads_to(game.state, Action("hammer")) is None  # no auction: the rules refuse it, nothing follows


def test_build_offers_are_the_even_builds_the_rules_accept_with_their_price(classic):
    """Official rules: "you must build evenly"; a house on a light blue lot costs $50."""
    s = give(seated_state(classic), 0, "oriental-avenue", "vermont-avenue", "connecticut-avenue")
    build = next(a for a in legal_actions(s) if a.type == "build" and a.detail["group"] == "light-blue")
    offers = build_offers(s, build)
    assert [sorted(o.levels.values()) for o in offers] == [[0, 0, 1], [1, 1, 1], [2, 2, 2], [3, 3, 3], [4, 4, 4],
                                                          [5, 5, 5]][:len(offers)]
    assert [o.price for o in offers[:2]] == [50, 150]
    poor = place(s, 0, "go", cash=100)
    assert [o.price for o in build_offers(poor, build)] == [50]  # the rules check the cash: $150 is not there


def test_the_debt_card_counts_every_way_to_raise_cash_and_offers_each_with_what_it_raises(classic):
    """Official rules: a player who owes more than they can pay "must turn over to [the creditor] all that he has of
    value" only once selling buildings and mortgaging cannot raise it; until then each way is one tap."""
    s = give(seated_state(classic), 1, "mediterranean-avenue", "baltic-avenue")
    s.set_level(classic.square("baltic-avenue").index, 5)
    s.set_level(classic.square("mediterranean-avenue").index, 5)
    s = give(s, 0, "oriental-avenue", "boardwalk")
    s = do(place(s, 0, "go", cash=10), type="roll", player="Aki", dice=[1, 2])  # Baltic's hotel: $450
    decision = decision_on(s)
    card = decision.card
    assert decision.template == "table/decisions/debt.html"
    assert decision.words == "Aki owes Ben $450 (rent)"
    d = card.figures
    assert (d.owed, d.cash, d.mortgages, d.buildings, d.missing) == (450, 10, 50 + 200, 0, 440)
    assert d.short == 450 - 10 - 250  # only a rescue (or bankruptcy) can bring the rest
    assert sorted((words, amount) for words, amount, _ in card.ways) == [("mortgage Boardwalk", 200),
                                                                        ("mortgage Oriental Avenue", 50)]
    assert {entry["square"] for _, _, entry in card.ways} == {"boardwalk", "oriental-avenue"}
    player, amount, ends = card.bankrupt
    assert (player, amount, ends) == ("Aki", 450, False)  # Ben and Chie play on


def _in_debt_with_buildings(classic, cash, levels):
    """Aki, with ``cash``, owning the groups of ``levels`` (square id -> houses) and Oriental Avenue unbuilt, lands
    on Baltic Avenue's hotel ($450 rent to Ben)."""
    s = give(seated_state(classic), 1, "mediterranean-avenue", "baltic-avenue")
    s.set_level(classic.square("baltic-avenue").index, 5)
    s.set_level(classic.square("mediterranean-avenue").index, 5)
    s = give(s, 0, "oriental-avenue", *levels)
    for square, level in levels.items():
        s.set_level(classic.square(square).index, level)
    return do(place(s, 0, "go", cash=cash), type="roll", player="Aki", dice=[1, 2])


def test_a_debt_raised_by_selling_four_houses_is_one_button_with_the_houses_and_the_amount(classic):
    """Official rules: buildings are sold back to the bank at half price, evenly; a lot is mortgaged only once its
    group has no buildings.  The debt card's sale plan raises the $390 missing with the four houses of Dark Blue in
    one entry, and counts the mortgages of Park Place and Boardwalk as coming after the sale."""
    s = _in_debt_with_buildings(classic, 60, {"park-place": 2, "boardwalk": 2})
    card = decision_on(s).card
    d = card.figures
    assert (d.missing, d.mortgages_now, d.mortgage_now_count, d.after_sale) == (390, 50, 1, 175 + 200)
    assert d.in_all == 60 + 50 + 375 + 400  # the engine's raisable cash is unchanged: it counts the whole road
    sale = card.sale
    assert (sale.buildings, sale.raises, sale.covers) == ("4 houses", 400, True)
    assert sale.entry == {"type": "sell_buildings", "player": "Aki", "targets": {"park-place": 0, "boardwalk": 0}}
    # only what can be done now: Oriental Avenue's mortgage, not Park Place's or Boardwalk's
    assert [words for words, _, _ in card.ways if words.startswith("mortgage")] == ["mortgage Oriental Avenue"]
    after = do(s, **sale.entry)
    assert not isinstance(after.pending, Debt)
    assert after.players[0].cash == 60 + 400 - 450 and after.players[1].cash == 1500 + 450


def test_a_sale_plan_spanning_two_groups_is_one_entry_and_raises_no_more_than_the_debt_needs(classic):
    """$250 missing: Dark Blue's two houses ($200) and two of Light Blue's three ($50), the nearest sum at or above
    what is missing the engine's offers make, recorded as one sale."""
    s = _in_debt_with_buildings(classic, 200, {"park-place": 1, "boardwalk": 1, "vermont-avenue": 1,
                                               "connecticut-avenue": 1})
    s = give(s, 0, "oriental-avenue")
    s.set_level(classic.square("oriental-avenue").index, 1)
    sale = decision_on(s).card.sale
    assert (sale.raises, sale.covers, sale.buildings) == (250, True, "4 houses")
    assert sum(1 for level in sale.entry["targets"].values() if level == 0) == 4
    after = do(s, **sale.entry)
    assert after.players[0].cash == 200 + 250 - 450


def test_a_sale_plan_that_cannot_cover_the_debt_sells_what_can_be_sold_and_says_what_is_still_missing(classic):
    s = _in_debt_with_buildings(classic, 10, {"park-place": 1, "boardwalk": 1})
    sale = decision_on(s).card.sale
    assert (sale.raises, sale.covers) == (200, False)
    assert sale.entry["targets"] == {"park-place": 0, "boardwalk": 0}


def test_the_building_round_card_says_what_closing_the_declarations_builds(jma):
    """JMA competition rules 2006, 補足ルール: when the bank's houses run short, buildings are declared in a round,
    then built together once no one else follows."""
    s = give(give(seated_state(jma), 0, "oriental-avenue", "vermont-avenue", "connecticut-avenue"), 1,
             "st-charles-place", "states-avenue", "virginia-avenue")
    s.bank_houses = 4  # Ben could outbid a declaration: it waits for the referee
    s = do(s, type="build", player="Aki", targets={"oriental-avenue": 1, "vermont-avenue": 1,
                                                   "connecticut-avenue": 1})
    decision = decision_on(s)
    card = decision.card
    assert decision.template == "table/decisions/build_round.html"
    assert card.close_cost == 150 and card.close_auction is None
    assert [(d.name, d.cost, d.houses) for d in card.declarations] == [("Aki", 150, 3)]
    assert not card.houses_short and not card.hotels_short
