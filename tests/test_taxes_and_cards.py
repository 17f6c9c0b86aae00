"""Income and luxury tax; Chance and Community Chest cards."""
import pytest

from referee.engine import AwaitRoll, DrawCard, IllegalEntry, IncomeTaxChoice

from conftest import cash, do, give, place, seated_state


def test_jma_income_tax_is_a_flat_200(jma):
    s = do(seated_state(jma), type="roll", player="Aki", dice=[1, 3])
    assert cash(s)[0] == 1300
    assert s.pending == AwaitRoll(1)


def test_classic_income_tax_is_chosen_before_counting_and_10_percent_counts_all_assets(classic):
    s = give(seated_state(classic), 0, "boardwalk", "reading-railroad")
    s.players[0].cash = 900
    s = do(s, type="roll", player="Aki", dice=[1, 3])
    assert s.pending == IncomeTaxChoice(0, 4)
    paid = do(s, type="income_tax", player="Aki", choice="percent")
    assert cash(paid)[0] == 900 - (900 + 400 + 200) // 10
    assert cash(do(s, type="income_tax", player="Aki", choice="flat"))[0] == 700


def test_jma_luxury_tax_is_the_75_printed_on_the_board(jma):
    s = do(place(seated_state(jma), 0, "short-line"), type="roll", player="Aki", dice=[1, 2])
    assert cash(s)[0] == 1425


def test_classic_luxury_tax_is_the_official_main_rule_100_and_a_game_may_play_the_printed_75(classic):
    """002, General: "must pay the Bank ₩100 (in some editions of the game, only ₩75)": classic charges the main
    rule whatever the board prints; luxury_tax_amount 0 (a header's option) charges the printed amount."""
    s = do(place(seated_state(classic), 0, "short-line"), type="roll", player="Aki", dice=[1, 2])
    assert cash(s)[0] == 1400
    s = do(place(seated_state(classic, luxury_tax_amount=0), 0, "short-line"), type="roll", player="Aki", dice=[1, 2])
    assert cash(s)[0] == 1425


def test_a_fixed_luxury_tax_leaves_the_income_tax_square_as_printed(jma):
    s = do(seated_state(jma, luxury_tax_amount=100), type="roll", player="Aki", dice=[1, 3])
    assert cash(s)[0] == 1300


def test_free_parking_pot_house_rule_collects_taxes_and_pays_the_lander(jma):
    s = do(seated_state(jma, free_parking="tax_pot", pot_payments=["tax"]), type="roll", player="Aki", dice=[1, 3])
    assert s.pot == 200
    s = place(s, 1, "virginia-avenue")
    s = do(s, type="roll", player="Ben", dice=[2, 4])
    assert s.pot == 0 and cash(s)[1] == 1700


def on_chance(ruleset, **options):
    return do(place(seated_state(ruleset, **options), 0, "income-tax"), type="roll", player="Aki", dice=[1, 2])


def test_landing_on_chance_waits_for_the_card_drawn(jma):
    assert on_chance(jma).pending == DrawCard(0, "chance")


def test_a_card_from_the_other_deck_is_refused(jma):
    with pytest.raises(IllegalEntry) as err:
        do(on_chance(jma), type="card", player="Aki", card="chest-bank-error")
    assert err.value.code == "unknown_card"


def test_advance_to_go_card_pays_salary(jma):
    s = do(on_chance(jma), type="card", player="Aki", card="chance-advance-to-go")
    assert s.players[0].position == 0 and cash(s)[0] == 1700


def test_advance_card_passing_go_pays_salary(jma):
    s = do(place(seated_state(jma), 0, "community-chest-3"), type="roll", player="Aki", dice=[1, 2])  # 36 Chance
    s = do(s, type="card", player="Aki", card="chance-advance-to-st-charles-place")
    assert s.players[0].position == 11 and cash(s)[0] == 1700


def test_go_back_three_spaces_lands_on_income_tax(jma):
    s = do(on_chance(jma), type="card", player="Aki", card="chance-go-back-3-spaces")
    assert s.players[0].position == 4 and cash(s)[0] == 1300


def test_go_to_jail_card_sends_the_player_to_jail_without_salary(jma):
    s = do(on_chance(jma), type="card", player="Aki", card="chance-go-to-jail")
    assert s.players[0].in_jail and cash(s)[0] == 1500
    assert s.pending == AwaitRoll(1)


def test_pay_and_collect_cards(jma):
    assert cash(do(on_chance(jma), type="card", player="Aki", card="chance-poor-tax"))[0] == 1485
    assert cash(do(on_chance(jma), type="card", player="Aki", card="chance-bank-dividend"))[0] == 1550


def test_pay_each_player_card(jma):
    s = do(on_chance(jma), type="card", player="Aki", card="chance-chairman-of-the-board")
    assert cash(s) == [1400, 1550, 1550]


def test_collect_from_each_player_card(jma):
    s = do(place(seated_state(jma), 0, "go"), type="roll", player="Aki", dice=[1, 1])  # 2 Community Chest
    s = do(s, type="card", player="Aki", card="chest-grand-opera-opening")
    assert cash(s) == [1600, 1450, 1450]


def test_repairs_card_charges_per_house_and_hotel(jma):
    s = give(on_chance(jma), 0, "baltic-avenue", "mediterranean-avenue", "boardwalk")
    s.set_level(1, 2)
    s.set_level(3, 5)
    s.set_level(39, 0)
    s = do(s, type="card", player="Aki", card="chance-general-repairs")
    assert cash(s)[0] == 1500 - 2 * 25 - 100


def test_get_out_of_jail_card_is_kept_and_cannot_be_drawn_while_held(jma):
    s = do(on_chance(jma), type="card", player="Aki", card="chance-get-out-of-jail-free")
    assert s.players[0].jail_cards == ["chance-get-out-of-jail-free"]
    s = do(place(s, 1, "income-tax"), type="roll", player="Ben", dice=[1, 2])
    with pytest.raises(IllegalEntry) as err:
        do(s, type="card", player="Ben", card="chance-get-out-of-jail-free")
    assert err.value.code == "card_held"
    assert "Aki" in err.value.message
