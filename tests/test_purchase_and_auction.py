"""Buying an unowned deed, or auctioning it."""
import pytest

from referee.services import rulesets
from referee.engine import Auction, AwaitRoll, BidPayment, IllegalEntry, legal_actions, next_to_move, tie_winner

from conftest import cash, do, events, give, sq, seated_state


def on_baltic(ruleset, **options):
    """Aki has rolled onto Baltic Avenue ($60) and must buy or decline."""
    return do(seated_state(ruleset, ("Aki", "Ben", "Chie", "Dai"), **options), type="roll", player="Aki", dice=[1, 2])


def test_buy_at_the_list_price(jma):
    s = do(on_baltic(jma), type="buy", player="Aki")
    assert s.owner[3] == 0
    assert cash(s)[0] == 1440
    assert s.pending == AwaitRoll(1)


def test_buy_refused_when_cash_is_short(jma):
    s = on_baltic(jma)
    s.players[0].cash = 50
    with pytest.raises(IllegalEntry) as err:
        do(s, type="buy", player="Aki")
    assert err.value.code == "cannot_afford"
    assert "$50" in err.value.message and "$60" in err.value.message


def test_buyer_may_mortgage_to_raise_the_price(jma):
    s = give(on_baltic(jma), 0, "mediterranean-avenue")
    s.players[0].cash = 40
    s = do(s, type="mortgage", player="Aki", square="mediterranean-avenue")
    assert cash(s)[0] == 70
    s = do(s, type="buy", player="Aki")
    assert s.owner[3] == 0 and cash(s)[0] == 10


def test_decline_starts_an_auction_where_the_decliner_may_bid(jma):
    s = do(on_baltic(jma), type="decline", player="Aki")
    assert s.pending == Auction(3)
    s = do(s, type="bid", player="Aki", amount=30)
    assert s.pending.high_bidder == 0


def test_jma_bids_are_in_10_dollar_steps(jma):
    s = do(on_baltic(jma), type="decline", player="Aki")
    with pytest.raises(IllegalEntry) as err:
        do(s, type="bid", player="Ben", amount=15)
    assert err.value.code == "bad_bid_step"
    assert "$15" in err.value.message
    assert "$10単位" in err.value.clause


def test_classic_bids_may_be_any_amount(classic):
    s = do(on_baltic(classic), type="decline", player="Aki")
    s = do(s, type="bid", player="Ben", amount=15)
    assert s.pending.high_bid == 15


def test_a_bid_must_beat_the_highest_bid(jma):
    s = do(do(on_baltic(jma), type="decline", player="Aki"), type="bid", player="Ben", amount=50)
    with pytest.raises(IllegalEntry) as err:
        do(s, type="bid", player="Chie", amount=50)
    assert err.value.code == "bid_too_low"


def test_highest_bid_buys_at_that_price(jma):
    s = do(on_baltic(jma), type="decline", player="Aki")
    s = do(s, type="bid", player="Ben", amount=40)
    s = do(s, type="bid", player="Chie", amount=70)
    s = do(s, type="hammer")
    assert s.owner[3] == 2
    assert cash(s) == [1500, 1500, 1430, 1500]
    assert s.pending == AwaitRoll(1)


def test_tie_bid_goes_to_next_player_in_turn_order(jma):
    # Aki's turn: Ben moves next, so of Chie and Dai, Chie (nearer after Ben) wins; of Aki and Dai, Dai.
    s = do(on_baltic(jma), type="decline", player="Aki")
    assert do(s, type="bid", players=["Dai", "Chie"], amount=60).pending.high_bidder == 2
    assert do(s, type="bid", players=["Aki", "Dai"], amount=60).pending.high_bidder == 3
    assert do(s, type="bid", players=["Aki", "Ben"], amount=60).pending.high_bidder == 1


def test_classic_refuses_a_tie_bid_and_asks_for_the_first_call(classic):
    s = do(on_baltic(classic), type="decline", player="Aki")
    with pytest.raises(IllegalEntry) as err:
        do(s, type="bid", players=["Ben", "Chie"], amount=60)
    assert err.value.code == "tie_bid"


def test_unpayable_winning_bid_is_void_and_auction_reruns_without_that_bidder(jma):
    s = do(on_baltic(jma), type="decline", player="Aki")
    s.players[1].cash = 100
    s = do(s, type="bid", player="Ben", amount=300)
    evs = events(s, type="hammer")
    assert any(type(e).__name__ == "BidVoided" for e in evs)
    s = do(s, type="hammer")
    assert s.pending == Auction(3, excluded=(1,))
    assert s.owner[3] is None and cash(s)[1] == 100
    with pytest.raises(IllegalEntry) as err:
        do(s, type="bid", player="Ben", amount=10)
    assert err.value.code == "excluded_bidder"
    s = do(do(s, type="bid", player="Dai", amount=20), type="hammer")
    assert s.owner[3] == 3


def test_bidder_may_mortgage_during_the_auction_to_pay(jma):
    s = give(do(on_baltic(jma), type="decline", player="Aki"), 1, "reading-railroad")
    s.players[1].cash = 50
    s = do(s, type="bid", player="Ben", amount=120)
    s = do(s, type="mortgage", player="Ben", square="reading-railroad")
    s = do(s, type="hammer")
    assert s.owner[3] == 1 and cash(s)[1] == 30


def test_auction_without_any_bid_leaves_the_deed_with_the_bank(jma):
    s = do(do(on_baltic(jma), type="decline", player="Aki"), type="hammer")
    assert s.owner[3] is None
    assert s.pending == AwaitRoll(1)


def test_bankrupt_player_cannot_bid(jma):
    s = do(on_baltic(jma), type="decline", player="Aki")
    s.players[3].bankrupt = True
    with pytest.raises(IllegalEntry) as err:
        do(s, type="bid", player="Dai", amount=10)
    assert err.value.code == "bankrupt"


def test_buy_is_refused_during_an_auction(jma):
    s = do(on_baltic(jma), type="decline", player="Aki")
    with pytest.raises(IllegalEntry) as err:
        do(s, type="buy", player="Aki")
    assert err.value.code == "not_now"
    assert "auction" in err.value.message
    assert sq(s, "baltic-avenue") == 3


def test_a_winning_bid_the_winner_can_raise_by_mortgaging_stands_and_waits_for_the_cash(jma):
    """競売 補足ルール: the bid is void only when the winner cannot raise it by every means open to them
    (購入のために権利書を抵当に入れたり、家等の売却を行うことは可能)."""
    s = give(do(on_baltic(jma), type="decline", player="Aki"), 1, "boardwalk")  # mortgage value $200
    s.players[1].cash = 100
    s = do(do(s, type="bid", player="Ben", amount=250), type="hammer")
    assert s.pending == BidPayment(1, 250, square=3)
    assert s.owner[3] is None and cash(s)[1] == 100
    mortgages = [(a.player, a.detail["square"]) for a in legal_actions(s) if a.type == "mortgage"]
    assert mortgages == [(1, 39)]  # only the winner raises cash now
    with pytest.raises(IllegalEntry) as err:
        do(s, type="roll", player="Ben", dice=[1, 2])
    assert err.value.code == "not_now"
    s = do(s, type="mortgage", player="Ben", square="boardwalk")
    assert s.owner[3] == 1 and cash(s)[1] == 100 + 200 - 250 and s.pending == AwaitRoll(1)


def test_a_winning_bid_beyond_cash_mortgages_and_buildings_at_half_is_void(jma):
    s = give(do(on_baltic(jma), type="decline", player="Aki"), 1, "boardwalk")
    s.players[1].cash = 100
    s = do(do(s, type="bid", player="Ben", amount=310), type="hammer")  # $100 + $200 < $310
    assert s.pending == Auction(3, excluded=(1,))


def test_equal_calls_between_turns_go_first_to_the_player_about_to_roll(jma):
    """競売 補足ルール: 次の手番のプレーヤーから右周りに近いプレーヤーのコールを優先します. Between turns the
    player whose turn comes next is the one about to roll, not the one after."""
    s = do(on_baltic(jma), type="buy", player="Aki")  # Ben's turn now, between turns
    assert next_to_move(s) == 1
    assert tie_winner(s, [1, 2]) == 1 and tie_winner(s, [2, 3]) == 2
    s = do(s, type="roll", player="Ben", dice=[1, 2])  # during Ben's turn the next player is Chie
    assert next_to_move(s) == 2 and tie_winner(s, [1, 2]) == 2


def test_a_purchase_the_cash_does_not_cover_hints_only_at_what_the_rules_allow():
    """004, Straße: Der Kaufpreis liegt fest und muß sofort und vollständig bezahlt werden; the German variant has
    no mortgages, so the refusal does not suggest mortgaging first (the standard rules' refusal does)."""
    german = rulesets.load("german-simple")
    s = do(seated_state(german), type="roll", player="Aki", dice=[1, 2])
    s.players[0].cash = 100
    with pytest.raises(IllegalEntry) as err:
        do(s, type="buy", player="Aki")
    assert err.value.code == "cannot_afford"
    assert "mortgage" not in err.value.message and "paid at once and in full (or decline)" in err.value.message
    s = on_baltic(rulesets.load("classic"))
    s.players[0].cash = 50
    with pytest.raises(IllegalEntry) as err:
        do(s, type="buy", player="Aki")
    assert "(mortgage first, or decline)" in err.value.message
