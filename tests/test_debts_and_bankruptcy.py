"""A payment that cash cannot cover, and the bankruptcy that ends it."""
import pytest

from referee.engine import Auction, AwaitRoll, Debt, GameOver, IllegalEntry

from conftest import cash, do, give, seated_state


def owes_rent(ruleset, debtor_cash=10, **options):
    """Ben owns Baltic with a hotel ($450); Aki, with little cash, lands there."""
    s = give(seated_state(ruleset, **options), 1, "baltic-avenue", "mediterranean-avenue")
    s.set_level(3, 5)
    s.bank_hotels -= 1
    s.players[0].cash = debtor_cash
    return s


def test_unpayable_rent_becomes_a_pending_debt(jma):
    s = do(owes_rent(jma), type="roll", player="Aki", dice=[1, 2])
    assert s.pending == Debt(0, 1, 450, "rent")
    assert cash(s)[:2] == [10, 1500]


def test_debt_is_paid_as_soon_as_mortgaging_raises_the_cash(jma):
    s = give(owes_rent(jma, debtor_cash=100), 0, "boardwalk", "park-place")
    s = do(s, type="roll", player="Aki", dice=[1, 2])
    s = do(s, type="mortgage", player="Aki", square="boardwalk")
    assert isinstance(s.pending, Debt)
    s = do(s, type="mortgage", player="Aki", square="park-place")
    assert cash(s)[:2] == [100 + 200 + 175 - 450, 1950]
    assert s.pending == AwaitRoll(1)


def test_the_other_side_of_a_debt_negotiation_may_mortgage_for_the_cash_it_needs_under_jma(jma):
    """抵当 補足ルール: 手番と手番の間以外のタイミングで権利書を抵当に入れることのできるのは、権利書の購入(競売を含む)、
    負債の支払い、および負債交渉において必要な現金を捻出する場合に限られます。"""
    s = give(give(owes_rent(jma), 0, "boardwalk"), 2, "park-place")
    s = do(s, type="roll", player="Aki", dice=[1, 2])
    s = do(s, type="mortgage", player="Chie", square="park-place")  # to buy a deed from Aki
    assert s.mortgaged[37] and isinstance(s.pending, Debt)


def test_bankruptcy_is_refused_while_the_debt_can_still_be_raised(jma):
    s = give(owes_rent(jma, debtor_cash=100), 0, "boardwalk", "park-place")
    s = do(s, type="roll", player="Aki", dice=[1, 2])
    with pytest.raises(IllegalEntry) as err:
        do(s, type="bankrupt", player="Aki")
    assert err.value.code == "can_still_pay"
    assert "$475" in err.value.message


def test_bankruptcy_to_a_player_hands_over_cash_deeds_and_cards(jma):
    s = give(give(owes_rent(jma), 0, "oriental-avenue"), 0, "vermont-avenue", mortgaged=True)
    s.players[0].jail_cards.append("chance-get-out-of-jail-free")
    s = do(s, type="roll", player="Aki", dice=[1, 2])
    s = do(s, type="mortgage", player="Aki", square="oriental-avenue")
    s = do(s, type="bankrupt", player="Aki")
    assert s.players[0].bankrupt
    assert cash(s)[:2] == [0, 1560]
    assert s.owner[6] == 1 and s.owner[8] == 1
    assert s.mortgaged[6] and s.mortgaged[8]  # JMA: mortgaged deeds pass as they are, nothing due
    assert s.players[1].jail_cards == ["chance-get-out-of-jail-free"]
    assert s.pending == AwaitRoll(1)


def test_classic_creditor_pays_10_percent_on_mortgaged_deeds_received(classic):
    s = give(owes_rent(classic), 0, "vermont-avenue", mortgaged=True)
    s = do(s, type="roll", player="Aki", dice=[1, 2])
    s = do(s, type="bankrupt", player="Aki")
    assert cash(s)[1] == 1500 + 10 - 5


def test_bankruptcy_to_the_bank_auctions_the_deeds_in_board_order_unmortgaged(jma):
    s = give(give(seated_state(jma), 0, "boardwalk", "reading-railroad"), 0, "oriental-avenue", mortgaged=True)
    s.players[0].cash = 10
    s.players[0].position = 1
    s = do(s, type="roll", player="Aki", dice=[1, 2])  # 4 Income Tax, $200
    assert s.pending == Debt(0, None, 200, "tax")
    s = do(s, type="mortgage", player="Aki", square="boardwalk")
    s = do(s, type="mortgage", player="Aki", square="reading-railroad")
    assert s.pending == AwaitRoll(1) and cash(s)[0] == 110
    # a second tax she cannot pay: Luxury Tax with $110 and nothing left to mortgage
    s = do(do(s, type="roll", player="Ben", dice=[4, 6]), type="roll", player="Chie", dice=[4, 6])
    s.players[0].cash = 10
    s.players[0].position = 35
    s = do(s, type="roll", player="Aki", dice=[1, 2])
    s = do(s, type="bankrupt", player="Aki")
    assert s.players[0].bankrupt
    assert s.pending == Auction(5)
    assert s.owner[5] is None and not any(s.mortgaged)
    s = do(do(s, type="bid", player="Ben", amount=100), type="hammer")
    assert s.owner[5] == 1 and s.pending == Auction(6)
    s = do(s, type="hammer")  # no bid for Oriental Avenue: it stays with the bank
    assert s.owner[6] is None and s.pending == Auction(39)
    s = do(do(s, type="bid", player="Chie", amount=250), type="hammer")
    assert s.owner[39] == 2
    assert s.pending == AwaitRoll(1)


def test_jma_bankruptcy_on_pay_each_player_card_is_to_the_bank(jma):
    s = seated_state(jma)
    s.players[0].cash = 60
    s.players[0].position = 4
    s = do(s, type="roll", player="Aki", dice=[1, 2])
    s = do(s, type="card", player="Aki", card="chance-chairman-of-the-board")
    assert s.pending == Debt(0, None, 100, "card", True, ((1, 50), (2, 50)))
    assert cash(s) == [60, 1500, 1500]  # nobody is paid part of it
    s = do(s, type="bankrupt", player="Aki")
    assert cash(s) == [0, 1500, 1500]


def test_pay_each_player_debt_once_raised_pays_every_player(jma):
    s = give(seated_state(jma), 0, "boardwalk")
    s.players[0].cash = 60
    s.players[0].position = 4
    s = do(s, type="roll", player="Aki", dice=[1, 2])
    s = do(s, type="card", player="Aki", card="chance-chairman-of-the-board")
    s = do(s, type="mortgage", player="Aki", square="boardwalk")
    assert cash(s) == [160, 1550, 1550]


def test_collect_from_each_player_debts_are_settled_in_turn_order_from_the_drawer(jma):
    s = seated_state(jma, ("Aki", "Ben", "Chie", "Dai"))
    s.players[1].cash = 10
    s.players[3].cash = 20
    s = do(s, type="roll", player="Aki", dice=[1, 1])
    s = do(s, type="card", player="Aki", card="chest-grand-opera-opening")
    assert s.pending == Debt(1, 0, 50, "card")
    s = do(s, type="bankrupt", player="Ben")
    assert s.pending == Debt(3, 0, 50, "card")
    assert cash(s) == [1500 + 10 + 50, 0, 1450, 20]


def test_last_player_standing_wins(jma):
    s = seated_state(jma, ("Aki", "Ben"))
    s = give(s, 1, "baltic-avenue", "mediterranean-avenue")
    s.set_level(3, 5)
    s.bank_hotels -= 1
    s.players[0].cash = 10
    s = do(do(s, type="roll", player="Aki", dice=[1, 2]), type="bankrupt", player="Aki")
    assert isinstance(s.pending, GameOver)
    assert (s.pending.winner, s.pending.reason, s.pending.order) == (1, "monopoly", (1, 0))
    with pytest.raises(IllegalEntry) as err:
        do(s, type="roll", player="Ben", dice=[1, 2])
    assert err.value.code == "game_over"


def _fine_waits_with_own_railroad_ahead(ruleset, **options):
    """Aki ($10, in jail after two failed rolls) owns Pennsylvania Railroad, Chie the other three; the third failed
    roll ([1, 4]) leads to Aki's own railroad, so the fine ($50) waits with no rent ahead."""
    s = give(seated_state(ruleset, **options), 0, "pennsylvania-railroad")
    s = give(s, 2, "reading-railroad", "b-and-o-railroad", "short-line")
    s.players[0].cash, s.players[0].in_jail, s.players[0].jail_rolls = 10, True, 2
    s.players[0].position = 10
    return do(s, type="roll", player="Aki", dice=[1, 4])


def test_after_the_third_failed_jail_roll_a_trade_leaving_fine_and_rent_ahead_unpayable_is_refused(jma):
    """JMA 補足ルール「破産」: 救済提示(分割救済を含む)は両方の負債を完済できるものでなければならず: selling the railroad
    ahead to Chie would make her its owner ($200 with four railroads) and Aki short of both: refused as her rescue.
    Sold to Ben, whose one railroad asks $25, it leaves both payable: debt negotiation, the fine and the rent paid."""
    s = _fine_waits_with_own_railroad_ahead(jma)
    assert s.pending == Debt(0, None, 50, "bail")
    with pytest.raises(IllegalEntry) as err:
        do(s, type="trade", player="Aki", partner="Chie", give={"deeds": ["pennsylvania-railroad"]},
           take={"cash": 110})
    assert err.value.code == "creditor_rescue" and err.value.rule == "jail_exit_bankruptcy"
    assert "$250 in all" in err.value.message and "Chie is owed the rent ahead" in err.value.message
    s = do(s, type="trade", player="Aki", partner="Ben", give={"deeds": ["pennsylvania-railroad"]},
           take={"cash": 110})
    assert not s.players[0].in_jail and s.players[0].position == 15
    assert cash(s)[0] == 10 + 110 - 50 - 25 and s.pending == AwaitRoll(1)


def test_where_the_fine_and_the_rent_ahead_are_not_one_bankruptcy_such_a_sale_is_debt_negotiation(classic):
    """The official rules have no such clause (jail_exit_bankruptcy to_bank): the same sale stands."""
    s = _fine_waits_with_own_railroad_ahead(classic)
    s = do(s, type="trade", player="Aki", partner="Chie", give={"deeds": ["pennsylvania-railroad"]},
           take={"cash": 110})
    assert s.owner[15] == 2
