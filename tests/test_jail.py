"""Jail: just visiting, and the ways out."""
import pytest

from referee.engine import AwaitRoll, Debt, IllegalEntry, JailFine, legal_actions

from conftest import cash, do, give, sq, seated_state


def jailed(ruleset, **options):
    """Aki in jail, at the start of Aki's turn."""
    s = seated_state(ruleset, **options)
    s.players[0].position = ruleset.jail_index
    s.players[0].in_jail = True
    return s


def test_landing_on_jail_by_the_dice_is_just_visiting(jma):
    s = do(seated_state(jma), type="roll", player="Aki", dice=[4, 6])
    assert s.players[0].position == 10 and not s.players[0].in_jail


def test_pay_50_before_rolling_then_move_by_the_roll(jma):
    s = do(jailed(jma), type="pay_bail", player="Aki")
    assert not s.players[0].in_jail and cash(s)[0] == 1450
    assert s.pending == AwaitRoll(0)
    s = do(s, type="roll", player="Aki", dice=[2, 3])
    assert s.players[0].position == 15 and s.pending.__class__.__name__ == "BuyOrAuction"


def test_bail_cannot_be_paid_after_rolling(jma):
    s = do(jailed(jma), type="roll", player="Aki", dice=[1, 2])
    assert s.pending == AwaitRoll(1)
    with pytest.raises(IllegalEntry) as err:
        do(s, type="pay_bail", player="Aki")
    assert err.value.code == "wrong_player"


def test_jail_card_before_rolling_goes_back_under_its_deck(jma):
    s = jailed(jma)
    s.players[0].jail_cards.append("chest-get-out-of-jail-free")
    s = do(s, type="use_jail_card", player="Aki")
    assert not s.players[0].in_jail and s.players[0].jail_cards == []
    assert cash(s)[0] == 1500


def test_doubles_in_jail_release_and_move_without_an_extra_roll(jma):
    s = do(jailed(jma), type="roll", player="Aki", dice=[3, 3])  # 16 St. James Place
    assert not s.players[0].in_jail and s.players[0].position == 16
    s = do(s, type="decline", player="Aki")
    s = do(s, type="hammer")
    assert s.pending == AwaitRoll(1)


def test_failed_roll_in_jail_ends_the_turn_and_counts(jma):
    s = do(jailed(jma), type="roll", player="Aki", dice=[1, 2])
    assert s.players[0].in_jail and s.players[0].jail_rolls == 1
    assert s.pending == AwaitRoll(1)


def test_third_failed_roll_pays_50_and_moves_by_that_roll(jma):
    s = jailed(jma)
    s.players[0].jail_rolls = 2
    s = do(s, type="roll", player="Aki", dice=[1, 2])
    assert not s.players[0].in_jail
    assert s.players[0].position == 13 and cash(s)[0] == 1450


def test_third_failed_roll_with_a_card_in_hand_offers_card_or_fine(jma):
    s = jailed(jma)
    s.players[0].jail_rolls = 2
    s.players[0].jail_cards.append("chance-get-out-of-jail-free")
    s = do(s, type="roll", player="Aki", dice=[1, 2])
    assert s.pending == JailFine(0, (1, 2))
    by_card = do(s, type="use_jail_card", player="Aki")
    assert by_card.players[0].position == 13 and cash(by_card)[0] == 1500
    assert by_card.players[0].jail_cards == []
    by_fine = do(s, type="pay_bail", player="Aki")
    assert by_fine.players[0].position == 13 and cash(by_fine)[0] == 1450


def test_third_failed_roll_fine_unpaid_is_a_debt_then_the_move(jma):
    s = jailed(jma)
    s.players[0].jail_rolls = 2
    s.players[0].cash = 20
    s = give(s, 0, "boardwalk")
    s = do(s, type="roll", player="Aki", dice=[1, 2])
    assert s.pending == Debt(0, None, 50, "bail")
    assert s.players[0].in_jail
    s = do(s, type="mortgage", player="Aki", square="boardwalk")
    assert cash(s)[0] == 20 + 200 - 50
    assert s.players[0].position == 13 and not s.players[0].in_jail


def test_jma_doubles_after_paying_before_the_roll_roll_again(jma):
    s = do(do(jailed(jma), type="pay_bail", player="Aki"), type="roll", player="Aki", dice=[4, 4])  # 18
    s = do(do(s, type="decline", player="Aki"), type="hammer")
    assert s.pending == AwaitRoll(0)


def test_option_no_extra_roll_after_prepaid_release(jma):
    s = jailed(jma, doubles_after_prepaid_release_roll_again=False)
    s = do(do(s, type="pay_bail", player="Aki"), type="roll", player="Aki", dice=[4, 4])
    s = do(do(s, type="decline", player="Aki"), type="hammer")
    assert s.pending == AwaitRoll(1)


def test_rent_is_collected_while_the_owner_is_in_jail(jma):
    s = give(seated_state(jma), 1, "baltic-avenue")
    s.players[1].in_jail = True
    s.players[1].position = 10
    assert cash(do(s, type="roll", player="Aki", dice=[1, 2]))[1] == 1504


def test_house_rule_no_rent_while_in_jail(jma):
    s = give(seated_state(jma, rent_while_in_jail=False), 1, "baltic-avenue")
    s.players[1].in_jail = True
    assert cash(do(s, type="roll", player="Aki", dice=[1, 2]))[1] == 1500


def test_pay_bail_refused_when_not_in_jail(jma):
    with pytest.raises(IllegalEntry) as err:
        do(seated_state(jma), type="pay_bail", player="Aki")
    assert err.value.code == "not_in_jail"


def test_jma_third_failed_roll_fine_unpayable_is_bankruptcy_to_the_bank(jma):
    s = give(jailed(jma), 1, "states-avenue")
    s.players[0].jail_rolls, s.players[0].cash = 2, 20
    s = do(s, type="roll", player="Aki", dice=[1, 2])  # would move to States Avenue (13), Ben's
    s = do(s, type="bankrupt", player="Aki")
    assert s.players[0].bankrupt and cash(s)[1] == 1500


def test_jma_destination_creditor_may_take_over_a_jail_fine_bankruptcy_fine_included(jma):
    s = give(jailed(jma), 1, "states-avenue")
    s = give(s, 0, "boardwalk", mortgaged=True)
    s.players[0].jail_rolls, s.players[0].cash = 2, 20
    s = do(s, type="roll", player="Aki", dice=[1, 2])
    with pytest.raises(IllegalEntry) as err:
        do(s, type="bankrupt", player="Aki", creditor="Chie")
    assert err.value.code == "not_the_creditor"
    s = do(s, type="bankrupt", player="Aki", creditor="Ben")
    assert s.players[0].bankrupt
    assert s.owner[39] == 1 and cash(s)[1] == 1500 + 20 - 50


def _before_built_pinks(ruleset, aki_cash=20):
    """Aki in jail after two failed rolls, with ``aki_cash`` and a mortgaged Park Place; Ben's pinks have 3 houses
    each, States Avenue's rent $450."""
    s = give(jailed(ruleset), 1, "st-charles-place", "states-avenue", "virginia-avenue")
    s = give(s, 0, "park-place", mortgaged=True)
    for sid in ("st-charles-place", "states-avenue", "virginia-avenue"):
        s.set_level(sq(s, sid), 3)
    s.bank_houses -= 9
    s.players[0].jail_rolls, s.players[0].cash = 2, aki_cash
    return s


def _jailed_before_built_pinks(ruleset, aki_cash=20):
    """The third roll from :func:`_before_built_pinks` fails: the fine, then States Avenue (13)."""
    return do(_before_built_pinks(ruleset, aki_cash), type="roll", player="Aki", dice=[1, 2])


def test_jma_parts_of_a_split_rescue_stand_once_together_they_cover_the_fine_and_the_rent_ahead(jma):
    """破産 補足ルール: 救済提示(分割救済を含む)は両方の負債を完済できるものでなければならず…"""
    s = give(_jailed_before_built_pinks(jma), 0, "boardwalk", mortgaged=True)
    assert isinstance(s.pending, Debt) and s.pending.amount == 50
    s = do(s, type="trade", player="Aki", partner="Chie", give={"deeds": ["park-place"]}, take={"cash": 100})
    # $120 would pay the fine but not the $450 at States Avenue: a part, and the fine waits
    assert isinstance(s.pending, Debt) and s.players[0].in_jail and len(s.rescue_parts) == 1
    assert [a.type for a in legal_actions(s) if a.player == 0 and a.type == "bankrupt"] == ["bankrupt"]
    s = do(s, type="trade", player="Aki", partner="Chie", give={"deeds": ["boardwalk"]}, take={"cash": 380})
    assert s.rescue_parts == () and s.players[0].position == 13 and not s.players[0].in_jail
    assert cash(s)[0] == 0 and cash(s)[1] == 1500 + 450 and s.owner[37] == s.owner[39] == 2


def test_jma_a_split_rescue_that_never_covers_both_is_undone_by_the_bankruptcy(jma):
    s = _jailed_before_built_pinks(jma)
    s = do(s, type="trade", player="Aki", partner="Chie", give={"deeds": ["park-place"]}, take={"cash": 100})
    s = do(s, type="bankrupt", player="Aki")  # no further rescue: the part does not stand (未成立のものは無効)
    assert cash(s)[2] == 1500 and s.players[0].bankrupt and s.owner[37] is None  # back to Aki, then to the bank


def test_jma_without_a_rescue_the_fine_is_paid_from_own_assets_and_the_bankruptcy_is_on_the_square_ahead(jma):
    """破産 補足ルール: 自分の資産で出所料の負債を支払える場合は、その処理をして(カード使用を優先)進んだマス目での
    破産となります。"""
    s = give(_jailed_before_built_pinks(jma), 0, "boardwalk")  # $20, and Boardwalk's $200 mortgage value
    s = do(s, type="bankrupt", player="Aki")
    assert s.players[0].bankrupt and s.players[0].position == 13
    assert s.owner[39] == 1 and s.mortgaged[39] and cash(s)[1] == 1500 + 20 + 200 - 50


def test_jma_a_fine_the_cash_pays_waits_while_the_fine_and_the_rent_ahead_outrun_the_player(jma):
    """破産 補足ルール: 刑務所から3回目にゾロ目が出ず、その出所料と出た目で行くべきマスのレンタル料の両方で仮破産となる
    場合、救済提示(分割救済を含む)は両方の負債を完済できるものでなければならず…  Aki's $60 pays the $50 fine, but
    not with the $450 at States Avenue: the fine is not taken at the roll, it waits with Aki still in jail."""
    s = _jailed_before_built_pinks(jma, aki_cash=60)
    assert s.pending == Debt(0, None, 50, "bail") and cash(s)[0] == 60
    assert s.players[0].in_jail and s.players[0].position == jma.jail_index
    assert [(a.type, a.detail["amount"]) for a in legal_actions(s) if a.type == "bankrupt"] == [("bankrupt", 500)]


def test_jma_a_fine_the_cash_pays_is_taken_at_once_when_the_rent_ahead_is_payable_too(jma):
    s = _jailed_before_built_pinks(jma, aki_cash=500)
    assert s.pending == AwaitRoll(1) and s.players[0].position == 13 and cash(s)[0] == 0 and cash(s)[1] == 1950


def test_jma_without_a_rescue_a_fine_the_cash_pays_is_paid_and_the_bankruptcy_is_on_the_square_ahead(jma):
    """破産 補足ルール: この際、自分の資産で出所料の負債を支払える場合は、その処理をして(カード使用を優先)進んだマス目
    での破産となります。"""
    s = do(_jailed_before_built_pinks(jma, aki_cash=60), type="bankrupt", player="Aki")
    assert s.players[0].bankrupt and s.players[0].position == 13 and not s.players[0].in_jail
    assert cash(s) == [0, 1500 + 10, 1500] and s.owner[37] == 1 and s.pot == 0


def test_jma_a_split_rescue_when_the_cash_pays_the_fine_is_undone_by_the_bankruptcy(jma):
    """破産 補足ルール: the parts of a split rescue that never covered both do not stand (未成立のものは無効), also
    when the player's cash alone paid the fine."""
    s = give(_jailed_before_built_pinks(jma, aki_cash=60), 0, "boardwalk")  # $60 and $200: $260 of $500
    s = do(s, type="trade", player="Aki", partner="Chie", give={"deeds": ["boardwalk"]}, take={"cash": 300})
    assert isinstance(s.pending, Debt) and s.pending.reason == "bail" and len(s.rescue_parts) == 1
    assert s.players[0].in_jail and cash(s)[0] == 360
    s = do(s, type="bankrupt", player="Aki")
    assert s.players[0].bankrupt and s.players[0].position == 13 and s.rescue_parts == ()
    assert cash(s) == [0, 1500 + 10, 1500] and s.owner[39] == s.owner[37] == 1 and not s.mortgaged[39]


def test_jma_a_split_rescue_covering_both_when_the_cash_pays_the_fine_pays_it_moves_and_pays_the_rent(jma):
    s = give(_jailed_before_built_pinks(jma, aki_cash=60), 0, "boardwalk")
    s = do(s, type="trade", player="Aki", partner="Chie", give={"deeds": ["boardwalk"]}, take={"cash": 300})
    s = do(s, type="trade", player="Aki", partner="Chie", give={"deeds": ["park-place"]}, take={"cash": 150})
    assert s.rescue_parts == () and s.pending == AwaitRoll(1) and not s.players[0].bankrupt
    assert s.players[0].position == 13 and not s.players[0].in_jail
    assert cash(s) == [510 - 50 - 450, 1500 + 450, 1500 - 450] and s.owner[37] == s.owner[39] == 2


def test_jma_a_fine_paid_after_declining_to_buy_a_card_also_waits_for_a_rescue_covering_both(jma):
    """The same when the fine is paid at the jail-fine decision (a card was for sale, 補足ルール「刑務所」)."""
    s = _before_built_pinks(jma, aki_cash=60)
    s.players[2].jail_cards.append("chest-get-out-of-jail-free")
    s = do(s, type="roll", player="Aki", dice=[1, 2])
    assert s.pending == JailFine(0, (1, 2))
    s = do(s, type="pay_bail", player="Aki")
    assert s.pending == Debt(0, None, 50, "bail") and cash(s)[0] == 60 and s.players[0].in_jail


def test_classic_takes_a_fine_the_cash_pays_at_the_roll_and_the_rent_is_a_debt_of_its_own(classic):
    """The official rules have no such clause (jail_exit_bankruptcy to_bank): the fine is paid, the player moves."""
    s = _jailed_before_built_pinks(classic, aki_cash=60)
    assert s.pending == Debt(0, 1, 450, "rent") and s.players[0].position == 13 and cash(s)[0] == 10


def test_classic_has_no_jail_exit_take_over(classic):
    s = give(jailed(classic), 1, "states-avenue")
    s.players[0].jail_rolls, s.players[0].cash = 2, 20
    s = do(s, type="roll", player="Aki", dice=[1, 2])
    with pytest.raises(IllegalEntry) as err:
        do(s, type="bankrupt", player="Aki", creditor="Ben")
    assert err.value.code == "not_the_creditor"


def test_jma_third_failed_roll_without_a_card_may_first_buy_one_from_another_player(jma):
    """刑務所 補足ルール: またこの際に釈放カードを所有していなければ、出所する前に他者から釈放カードを入手する
    交渉を行うことができます。"""
    s = jailed(jma)
    s.players[0].jail_rolls = 2
    s.players[2].jail_cards.append("chest-get-out-of-jail-free")
    s = do(s, type="roll", player="Aki", dice=[1, 2])
    assert s.pending == JailFine(0, (1, 2))
    kinds = {(a.type, a.player) for a in legal_actions(s)}
    assert ("pay_bail", 0) in kinds and ("use_jail_card", 0) not in kinds and ("trade", 0) in kinds
    s = give(s, 2, "boardwalk")
    with pytest.raises(IllegalEntry) as err:  # only a trade that gets Aki a card
        do(s, type="trade", player="Aki", partner="Chie", give={"cash": 450}, take={"deeds": ["boardwalk"]})
    assert err.value.code == "jail_card_trade_only"
    with pytest.raises(IllegalEntry) as err:  # the trade limits hold: a card for less than $50
        do(s, type="trade", player="Aki", partner="Chie", give={"cash": 50}, take={"cards": ["chest-get-out-of-jail-free"]})
    assert err.value.code == "jail_card_price"
    s = do(s, type="trade", player="Aki", partner="Chie", give={"cash": 40},
           take={"cards": ["chest-get-out-of-jail-free"]})
    assert s.pending == JailFine(0, (1, 2)) and s.players[0].jail_cards == ["chest-get-out-of-jail-free"]
    s = do(s, type="use_jail_card", player="Aki")
    assert s.players[0].position == 13 and cash(s)[0] == 1460 and not s.players[0].in_jail


def test_third_failed_roll_without_a_card_anywhere_pays_the_fine_at_once(jma):
    s = jailed(jma)
    s.players[0].jail_rolls = 2
    s = do(s, type="roll", player="Aki", dice=[1, 2])
    assert s.players[0].position == 13 and cash(s)[0] == 1450


def test_the_jailed_player_may_decline_to_buy_and_pay_the_fine(jma):
    s = jailed(jma)
    s.players[0].jail_rolls = 2
    s.players[1].jail_cards.append("chest-get-out-of-jail-free")
    s = do(do(s, type="roll", player="Aki", dice=[1, 2]), type="pay_bail", player="Aki")
    assert s.players[0].position == 13 and cash(s)[0] == 1450
