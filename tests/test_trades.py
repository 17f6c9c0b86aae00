"""Trades, debt negotiation and rescue."""
import pytest

from referee.engine import AwaitRoll, Debt, IllegalEntry

from conftest import cash, do, give, seated_state


def trade(s, player, partner, give=None, take=None):
    return do(s, type="trade", player=player, partner=partner, give=give or {}, take=take or {})


def test_trade_exchanges_cash_deeds_and_cards_at_once(jma):
    s = give(seated_state(jma), 0, "boardwalk")
    s.players[1].jail_cards.append("chance-get-out-of-jail-free")
    s = trade(s, "Aki", "Ben", {"deeds": ["boardwalk"]}, {"cash": 300, "cards": ["chance-get-out-of-jail-free"]})
    assert s.owner[39] == 1 and cash(s)[:2] == [1800, 1200]
    assert s.players[0].jail_cards == ["chance-get-out-of-jail-free"] and s.pending == AwaitRoll(0)


def test_trade_of_a_deed_whose_group_has_buildings_is_refused(jma):
    s = give(seated_state(jma), 0, "baltic-avenue", "mediterranean-avenue")
    s.set_level(1, 1)
    with pytest.raises(IllegalEntry) as err:
        trade(s, "Aki", "Ben", {"deeds": ["baltic-avenue"]}, {"cash": 100})
    assert err.value.code == "buildings_in_group"


def test_trade_of_a_deed_not_owned_is_refused(jma):
    with pytest.raises(IllegalEntry) as err:
        trade(seated_state(jma), "Aki", "Ben", {"deeds": ["boardwalk"]}, {"cash": 500})
    assert err.value.code == "not_owner"


def test_trade_beyond_a_players_cash_is_refused(jma):
    s = give(seated_state(jma), 0, "boardwalk")
    with pytest.raises(IllegalEntry) as err:
        trade(s, "Aki", "Ben", {"deeds": ["boardwalk"]}, {"cash": 1600})
    assert err.value.code == "cannot_afford"


def test_jma_forbids_gifts(jma):
    with pytest.raises(IllegalEntry) as err:
        trade(seated_state(jma), "Aki", "Ben", {"cash": 100}, {})
    assert err.value.code == "gift"
    assert "贈与" in err.value.clause


def test_jma_forbids_an_unmortgaged_deed_for_its_mortgage_value_or_less(jma):
    s = give(seated_state(jma), 0, "boardwalk")
    with pytest.raises(IllegalEntry) as err:
        trade(s, "Aki", "Ben", {"deeds": ["boardwalk"]}, {"cash": 200})
    assert err.value.code == "below_mortgage_value"
    assert trade(s, "Aki", "Ben", {"deeds": ["boardwalk"]}, {"cash": 210}).owner[39] == 1


def test_a_mortgaged_deed_may_go_for_less(jma):
    s = give(seated_state(jma), 0, "boardwalk", mortgaged=True)
    s = trade(s, "Aki", "Ben", {"deeds": ["boardwalk"]}, {"cash": 10})
    assert s.owner[39] == 1 and s.mortgaged[39] and cash(s)[1] == 1490  # JMA: no 10% on transfer


def test_classic_new_owner_of_a_mortgaged_deed_pays_10_percent_at_once(classic):
    s = give(seated_state(classic), 0, "boardwalk", mortgaged=True)
    s = trade(s, "Aki", "Ben", {"deeds": ["boardwalk"]}, {"cash": 10})
    assert cash(s)[1] == 1500 - 10 - 20


def test_jma_forbids_a_jail_card_for_50_or_more(jma):
    s = seated_state(jma)
    s.players[0].jail_cards.append("chest-get-out-of-jail-free")
    with pytest.raises(IllegalEntry) as err:
        trade(s, "Aki", "Ben", {"cards": ["chest-get-out-of-jail-free"]}, {"cash": 50})
    assert err.value.code == "jail_card_price"
    s = trade(s, "Aki", "Ben", {"cards": ["chest-get-out-of-jail-free"]}, {"cash": 40})
    assert s.players[1].jail_cards == ["chest-get-out-of-jail-free"]


def test_jma_forbids_buying_back_at_once_at_a_different_price(jma):
    s = give(seated_state(jma), 0, "boardwalk")
    s = trade(s, "Aki", "Ben", {"deeds": ["boardwalk"]}, {"cash": 500})
    with pytest.raises(IllegalEntry) as err:
        trade(s, "Aki", "Ben", {"cash": 450}, {"deeds": ["boardwalk"]})
    assert err.value.code == "buy_back"
    s = do(s, type="roll", player="Aki", dice=[4, 6])
    s = do(s, type="roll", player="Ben", dice=[4, 6])  # after a roll it is no longer "on the spot"
    assert trade(s, "Aki", "Ben", {"cash": 450}, {"deeds": ["boardwalk"]}).owner[39] == 0


def test_classic_allows_gifts(classic):
    assert cash(trade(seated_state(classic), "Aki", "Ben", {"cash": 100}, {}))[:2] == [1400, 1600]


def test_jma_no_trade_during_doubles(jma):
    s = give(do(seated_state(jma), type="roll", player="Aki", dice=[5, 5]), 0, "boardwalk")
    with pytest.raises(IllegalEntry) as err:
        trade(s, "Aki", "Ben", {"deeds": ["boardwalk"]}, {"cash": 300})
    assert err.value.code == "not_now"


def owing(ruleset):
    """Aki owes Ben $450 rent (hotel on Baltic) with $100 cash and Boardwalk to her name."""
    s = give(give(seated_state(ruleset), 1, "baltic-avenue", "mediterranean-avenue"), 0, "boardwalk")
    s.set_level(3, 5)
    s.bank_hotels -= 1
    s.players[0].cash = 100
    return do(s, type="roll", player="Aki", dice=[1, 2])


def test_debt_negotiation_a_debtor_may_sell_a_deed_before_mortgaging(jma):
    s = owing(jma)
    assert s.pending == Debt(0, 1, 450, "rent")
    s = trade(s, "Aki", "Chie", {"deeds": ["boardwalk"]}, {"cash": 400})
    assert s.owner[39] == 2 and cash(s) == [50, 1950, 1100] and s.pending == AwaitRoll(1)


def test_debt_negotiation_an_unpaid_claim_counts_as_cash(jma):
    s = owing(jma)
    s.players[0].cash = 300
    s.players[1].cash = 100  # Ben can pay for Boardwalk with the $450 Aki owes him
    s = trade(s, "Aki", "Ben", {"deeds": ["boardwalk"]}, {"cash": 500})
    assert s.owner[39] == 1
    assert cash(s)[:2] == [350, 50]  # the $450 claim is settled; Ben pays $50 more in cash
    assert s.pending == AwaitRoll(1)


def test_only_the_debtor_trades_while_a_debt_is_pending_under_jma(jma):
    s = give(owing(jma), 2, "park-place")
    with pytest.raises(IllegalEntry) as err:
        trade(s, "Ben", "Chie", {"cash": 200}, {"deeds": ["park-place"]})
    assert err.value.code == "not_now"


def test_rescue_trade_with_a_non_creditor_pays_the_debt(jma):
    s = give(owing(jma), 0, "boardwalk", mortgaged=True)
    s = give(s, 0, "park-place", mortgaged=True)
    with pytest.raises(IllegalEntry) as err:
        trade(s, "Aki", "Ben", {"deeds": ["park-place"]}, {"cash": 400})
    assert err.value.code == "creditor_rescue"
    s = trade(s, "Aki", "Chie", {"deeds": ["park-place", "boardwalk"]}, {"cash": 400})
    assert s.pending == AwaitRoll(1) and cash(s)[:3] == [50, 1950, 1100]


def test_no_trade_after_time_is_called(jma):
    s = do(give(seated_state(jma), 0, "boardwalk"), type="time_called")
    with pytest.raises(IllegalEntry) as err:
        trade(s, "Aki", "Ben", {"deeds": ["boardwalk"]}, {"cash": 300})
    assert err.value.code == "not_now"


CARD = "chance-get-out-of-jail-free"


def test_jma_limits_hold_for_a_bundle_a_deed_with_a_jail_card_for_a_token_sum(jma):
    """その他 補足ルール: 抵当に入っていない権利書の抵当価額以下での譲渡 ... 釈放カードの$50以上での譲渡 ... できません,
    judged on the bundle as a whole: each item must be able to fetch a price within its own limit."""
    s = give(seated_state(jma), 0, "boardwalk")  # mortgage value $200
    s.players[0].jail_cards.append(CARD)
    with pytest.raises(IllegalEntry) as err:
        trade(s, "Aki", "Ben", {"deeds": ["boardwalk"], "cards": [CARD]}, {"cash": 10})
    assert err.value.code == "below_mortgage_value" and "bundle" in err.value.message
    with pytest.raises(IllegalEntry) as err:  # $201 for the deed leaves nothing for the card: a gift
        trade(s, "Aki", "Ben", {"deeds": ["boardwalk"], "cards": [CARD]}, {"cash": 201})
    assert err.value.code == "below_mortgage_value"
    s = trade(s, "Aki", "Ben", {"deeds": ["boardwalk"], "cards": [CARD]}, {"cash": 230})  # e.g. $205 + $25
    assert s.owner[39] == 1 and s.players[1].jail_cards == [CARD]


def test_jma_an_unmortgaged_deed_swapped_for_a_jail_card_is_refused(jma):
    s = give(seated_state(jma), 0, "boardwalk")
    s.players[1].jail_cards.append(CARD)
    with pytest.raises(IllegalEntry) as err:
        trade(s, "Aki", "Ben", {"deeds": ["boardwalk"]}, {"cards": [CARD]})
    assert err.value.code == "below_mortgage_value"
    with pytest.raises(IllegalEntry) as err:  # the card would go for $60 or more
        trade(s, "Aki", "Ben", {"cash": 60}, {"cards": [CARD]})
    assert err.value.code == "jail_card_price"
    s = trade(s, "Aki", "Ben", {"deeds": ["boardwalk"]}, {"cards": [CARD], "cash": 160})  # $201 = $160 + $41
    assert s.owner[39] == 1 and s.players[0].jail_cards == [CARD]


def test_jma_unequal_sums_of_cash_are_a_gift(jma):
    with pytest.raises(IllegalEntry) as err:
        trade(seated_state(jma), "Aki", "Ben", {"cash": 100}, {"cash": 50})
    assert err.value.code == "gift"


def test_jma_two_deeds_for_one_sum_must_each_fetch_more_than_its_mortgage_value(jma):
    s = give(seated_state(jma), 0, "mediterranean-avenue", "baltic-avenue")  # $30 each
    with pytest.raises(IllegalEntry) as err:
        trade(s, "Aki", "Ben", {"deeds": ["mediterranean-avenue", "baltic-avenue"]}, {"cash": 61})
    assert err.value.code == "below_mortgage_value"
    s = trade(s, "Aki", "Ben", {"deeds": ["mediterranean-avenue", "baltic-avenue"]}, {"cash": 62})
    assert s.owner[1] == s.owner[3] == 1


def test_jma_buying_back_part_of_a_bundle_at_once_is_refused(jma):
    s = give(seated_state(jma), 0, "boardwalk", "park-place")
    s = trade(s, "Aki", "Ben", {"deeds": ["boardwalk", "park-place"]}, {"cash": 800})
    with pytest.raises(IllegalEntry) as err:
        trade(s, "Aki", "Ben", {"cash": 400}, {"deeds": ["boardwalk"]})
    assert err.value.code == "buy_back"
    s = trade(s, "Aki", "Ben", {"cash": 800}, {"deeds": ["boardwalk", "park-place"]})  # undone exactly
    assert s.owner[39] == s.owner[37] == 0


def test_classic_a_mortgaged_deed_received_and_lifted_at_once_costs_the_10_percent_once(classic):
    """Official rules: "the new owner must immediately pay 10% interest on the mortgage and at their option may
    pay the principal or hold the property. If the player holds the property and later wishes to lift the
    mortgage they must pay an additional 10% interest at that time." """
    s = give(seated_state(classic), 0, "boardwalk", mortgaged=True)
    s = trade(s, "Aki", "Ben", {"deeds": ["boardwalk"]}, {"cash": 10})
    assert cash(s)[1] == 1500 - 10 - 20
    lifted = do(s, type="unmortgage", player="Ben", square="boardwalk")
    assert cash(lifted)[1] == 1500 - 10 - 20 - 200 and not lifted.mortgaged[39]
    later = do(do(s, type="roll", player="Aki", dice=[1, 2]), type="decline", player="Aki")
    later = do(later, type="hammer")
    later = do(later, type="unmortgage", player="Ben", square="boardwalk")  # held, then lifted: 10% again
    assert cash(later)[1] == 1500 - 10 - 20 - 220
