"""Rent on streets, railroads and utilities."""
from referee.engine import RentRoll

from conftest import cash, do, give, place, seated_state


def test_street_base_rent_goes_to_the_owner(jma):
    s = give(seated_state(jma), 1, "baltic-avenue")
    s = do(s, type="roll", player="Aki", dice=[1, 2])
    assert cash(s)[:2] == [1496, 1504]


def test_no_rent_on_your_own_property(jma):
    s = do(give(seated_state(jma), 0, "baltic-avenue"), type="roll", player="Aki", dice=[1, 2])
    assert cash(s)[0] == 1500


def test_unimproved_rent_doubles_when_one_owner_holds_the_whole_colour_group(jma):
    s = give(seated_state(jma), 1, "baltic-avenue", "mediterranean-avenue")
    s = do(s, type="roll", player="Aki", dice=[1, 2])
    assert cash(s)[:2] == [1492, 1508]


def test_jma_mortgaged_lot_in_the_group_does_not_cancel_the_doubling(jma):
    s = give(give(seated_state(jma), 1, "baltic-avenue"), 1, "mediterranean-avenue", mortgaged=True)
    s = do(s, type="roll", player="Aki", dice=[1, 2])
    assert cash(s)[0] == 1492


def test_option_mortgaged_lot_cancels_the_doubling(jma):
    s = seated_state(jma, mortgaged_lot_breaks_monopoly_doubling=True)
    s = give(give(s, 1, "baltic-avenue"), 1, "mediterranean-avenue", mortgaged=True)
    s = do(s, type="roll", player="Aki", dice=[1, 2])
    assert cash(s)[0] == 1496


def test_no_rent_on_a_mortgaged_lot(jma):
    s = give(seated_state(jma), 1, "baltic-avenue", mortgaged=True)
    s = do(s, type="roll", player="Aki", dice=[1, 2])
    assert cash(s)[:2] == [1500, 1500]


def test_rent_by_buildings_on_the_lot(jma):
    s = give(seated_state(jma), 1, "baltic-avenue", "mediterranean-avenue")
    s.set_level(3, 3)
    assert cash(do(s, type="roll", player="Aki", dice=[1, 2]))[0] == 1500 - 180
    s.set_level(3, 5)
    assert cash(do(s, type="roll", player="Aki", dice=[1, 2]))[0] == 1500 - 450


def test_railroad_rent_by_number_owned_counting_mortgaged_ones_jma(jma):
    s = give(give(seated_state(jma), 1, "reading-railroad", "b-and-o-railroad"), 1, "short-line", mortgaged=True)
    s = do(s, type="roll", player="Aki", dice=[2, 3])
    assert cash(s)[0] == 1400  # three railroads: $100


def test_utility_rent_is_4x_the_dice_with_one_and_10x_with_both(jma):
    start = place(seated_state(jma), 0, "connecticut-avenue")  # 9, three to Electric Company
    one = give(start, 1, "electric-company")
    assert cash(do(one, type="roll", player="Aki", dice=[1, 2]))[0] == 1500 - 12
    both = give(start, 1, "electric-company", "water-works")
    assert cash(do(both, type="roll", player="Aki", dice=[1, 2]))[0] == 1500 - 30


def test_jma_mortgaged_water_works_still_makes_electric_company_10x(jma):
    s = give(give(place(seated_state(jma), 0, "connecticut-avenue"), 1, "electric-company"), 1, "water-works",
             mortgaged=True)
    assert cash(do(s, type="roll", player="Aki", dice=[1, 2]))[0] == 1500 - 30


def test_nearest_railroad_card_pays_twice_the_rent(jma):
    s = give(place(seated_state(jma), 0, "income-tax"), 1, "reading-railroad", "pennsylvania-railroad")
    s = do(s, type="roll", player="Aki", dice=[1, 2])  # 7 Chance
    s = do(s, type="card", player="Aki", card="chance-nearest-railroad-1")
    assert s.players[0].position == 15
    assert cash(s)[:2] == [1400, 1600]  # two railroads: $50, twice: $100


def test_nearest_utility_card_rolls_again_and_pays_10x(jma):
    s = give(place(seated_state(jma), 0, "income-tax"), 1, "electric-company")
    s = do(s, type="roll", player="Aki", dice=[1, 2])  # 7 Chance
    s = do(s, type="card", player="Aki", card="chance-nearest-utility")
    assert s.players[0].position == 12
    assert s.pending == RentRoll(0, 12, 10)
    s = do(s, type="rent_roll", player="Aki", dice=[6, 5])
    assert cash(s)[:2] == [1390, 1610]


def test_nearest_railroad_card_passing_go_pays_salary_and_offers_the_unowned_railroad(jma):
    s = do(place(seated_state(jma), 0, "community-chest-3"), type="roll", player="Aki", dice=[1, 2])  # 36 Chance
    s = do(s, type="card", player="Aki", card="chance-nearest-railroad-2")
    assert s.players[0].position == 5
    assert cash(s)[0] == 1700
    assert s.pending.__class__.__name__ == "BuyOrAuction"
