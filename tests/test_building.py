"""Building: declarations, the even rule, the bank's supply, shortage auctions, selling."""
import pytest

from referee.engine import IllegalEntry, legal_actions
from referee.engine.state import AwaitRoll, BuildingAuction, BuildRound, Debt, PlaceBuilding

from conftest import cash, do, give, table

ORANGE = ("st-james-place", "tennessee-avenue", "new-york-avenue")  # 16, 18, 19; $100 a house
PINK = ("st-charles-place", "states-avenue", "virginia-avenue")  # 11, 13, 14; $100 a house
LIGHT_BLUE = ("oriental-avenue", "vermont-avenue", "connecticut-avenue")  # 6, 8, 9; $50 a house


def build(s, player, **targets):
    return do(s, type="build", player=player, targets={k.replace("_", "-"): v for k, v in targets.items()})


def orange_owner(ruleset, **options):
    return give(table(ruleset, ("Aki", "Ben", "Chie"), **options), 0, *ORANGE)


def test_build_pays_the_house_cost_for_each_house(jma):
    s = build(orange_owner(jma), "Aki", st_james_place=1, tennessee_avenue=1, new_york_avenue=2)
    assert [s.buildings[i] for i in (16, 18, 19)] == [1, 1, 2]
    assert cash(s)[0] == 1500 - 400 and s.bank_houses == 28
    assert s.pending == AwaitRoll(0)


def test_build_needs_the_whole_colour_group(jma):
    s = give(table(jma), 0, "st-james-place", "tennessee-avenue")
    with pytest.raises(IllegalEntry) as err:
        build(s, "Aki", st_james_place=1)
    assert err.value.code == "not_whole_group"


def test_build_refused_with_a_mortgaged_lot_in_the_group(jma):
    s = orange_owner(jma)
    s.mortgaged[19] = True
    with pytest.raises(IllegalEntry) as err:
        build(s, "Aki", st_james_place=1)
    assert err.value.code == "mortgaged_in_group"


def test_even_rule_refuses_a_build_that_leaves_lots_two_apart(jma):
    with pytest.raises(IllegalEntry) as err:
        build(orange_owner(jma), "Aki", st_james_place=2)
    assert err.value.code == "uneven"
    assert "St. James Place 2" in err.value.message


def test_hotel_needs_four_houses_on_every_lot_and_returns_them(jma):
    s = build(orange_owner(jma), "Aki", st_james_place=4, tennessee_avenue=4, new_york_avenue=4)
    assert s.bank_houses == 20
    s = do(s, type="build", player="Aki", targets={"new-york-avenue": "hotel"})
    assert s.buildings[19] == 5 and s.bank_houses == 24 and s.bank_hotels == 11
    assert cash(s)[0] == 1500 - 1300


def test_hotel_before_four_houses_everywhere_is_uneven(jma):
    s = build(orange_owner(jma), "Aki", st_james_place=3, tennessee_avenue=3, new_york_avenue=4)
    with pytest.raises(IllegalEntry) as err:
        do(s, type="build", player="Aki", targets={"new-york-avenue": "hotel"})
    assert err.value.code == "uneven"


def test_build_refused_when_cash_is_short(jma):
    s = orange_owner(jma)
    s.players[0].cash = 250
    with pytest.raises(IllegalEntry) as err:
        build(s, "Aki", st_james_place=1, tennessee_avenue=1, new_york_avenue=1)
    assert err.value.code == "cannot_afford"


def test_jma_no_building_during_doubles(jma):
    s = do(orange_owner(jma), type="roll", player="Aki", dice=[5, 5])  # just visiting, rolls again
    with pytest.raises(IllegalEntry) as err:
        build(s, "Aki", st_james_place=1, tennessee_avenue=1, new_york_avenue=1)
    assert err.value.code == "not_between_turns"
    assert "ゾロ目中" in err.value.clause


def test_jma_no_building_while_a_payment_is_unsettled(jma):
    s = give(orange_owner(jma), 1, "baltic-avenue", "mediterranean-avenue")
    s.buildings[3] = 5
    s.players[0].cash = 100
    s = do(s, type="roll", player="Aki", dice=[1, 2])
    assert isinstance(s.pending, Debt)
    with pytest.raises(IllegalEntry) as err:
        build(s, "Aki", st_james_place=1)
    assert err.value.code == "not_now"


def test_a_single_declaration_beyond_the_banks_stock_is_refused(jma):
    s = orange_owner(jma)
    s.bank_houses = 2
    with pytest.raises(IllegalEntry) as err:
        build(s, "Aki", st_james_place=1, tennessee_avenue=1, new_york_avenue=1)
    assert err.value.code == "not_in_bank"


def shortage(ruleset):
    """Aki (orange) and Ben (pink) can build; the bank has 4 houses."""
    s = give(orange_owner(ruleset), 1, *PINK)
    s.bank_houses = 4
    return s


def test_declaration_that_others_could_outbid_waits_for_the_referee(jma):
    s = build(shortage(jma), "Aki", st_james_place=1, tennessee_avenue=1, new_york_avenue=1)
    assert isinstance(s.pending, BuildRound)
    assert s.buildings[16] == 0
    s = do(s, type="close_builds")  # no one followed: 3 houses within the 4 in the bank
    assert [s.buildings[i] for i in (16, 18, 19)] == [1, 1, 1]
    assert s.bank_houses == 1 and s.pending == AwaitRoll(0)


def test_declarations_exceeding_the_stock_go_to_a_shortage_auction(jma):
    s = build(shortage(jma), "Aki", st_james_place=1, tennessee_avenue=1, new_york_avenue=1)
    s = build(s, "Ben", st_charles_place=1, states_avenue=1, virginia_avenue=1)
    s = do(s, type="close_builds")
    assert isinstance(s.pending, BuildingAuction) and s.pending.kind == "house"
    with pytest.raises(IllegalEntry) as err:
        do(s, type="bid", player="Chie", amount=100)
    assert err.value.code == "nowhere_to_build"
    s = do(s, type="bid", player="Aki", amount=100)
    s = do(s, type="bid", player="Ben", amount=150)
    s = do(s, type="hammer")
    assert s.pending == PlaceBuilding(1, "house", 150, s.pending.round)
    s = do(s, type="place_building", player="Ben", square="virginia-avenue")
    assert s.buildings[14] == 1 and s.bank_houses == 3 and cash(s)[1] == 1350
    assert isinstance(s.pending, BuildRound)  # declarations are asked again
    assert dict(s.pending.declarations)[1] == ((11, 1), (13, 1))


def test_a_winning_building_bid_below_every_lot_price_does_not_stand(jma):
    s = give(shortage(jma), 2, *LIGHT_BLUE)
    s = build(s, "Aki", st_james_place=1, tennessee_avenue=1, new_york_avenue=1)
    s = build(s, "Ben", st_charles_place=1, states_avenue=1, virginia_avenue=1)
    s = do(do(s, type="close_builds"), type="bid", player="Aki", amount=60)
    with pytest.raises(IllegalEntry) as err:
        do(s, type="hammer")
    assert err.value.code == "below_building_price"
    assert "建設定価以下" in err.value.clause
    # Chie's light blue houses cost $50: a $60 bid stands for her
    s = do(do(s, type="bid", player="Chie", amount=70), type="hammer")
    assert s.pending.player == 2


def test_an_unpayable_building_bid_is_void_and_declarations_restart_without_that_player(jma):
    s = build(shortage(jma), "Aki", st_james_place=1, tennessee_avenue=1, new_york_avenue=1)
    s = build(s, "Ben", st_charles_place=1, states_avenue=1, virginia_avenue=1)
    s = do(do(s, type="close_builds"), type="bid", player="Aki", amount=2000)
    s = do(s, type="hammer")
    assert isinstance(s.pending, BuildRound) and s.pending.excluded == (0,)
    assert 0 not in dict(s.pending.declarations)
    with pytest.raises(IllegalEntry) as err:
        build(s, "Aki", st_james_place=1, tennessee_avenue=1, new_york_avenue=1)
    assert err.value.code == "excluded_builder"
    s = do(s, type="close_builds")
    assert [s.buildings[i] for i in (11, 13, 14)] == [1, 1, 1]


def test_a_declaration_can_be_withdrawn_only_while_demand_exceeds_the_stock(jma):
    s = build(shortage(jma), "Aki", st_james_place=1, tennessee_avenue=1, new_york_avenue=1)
    with pytest.raises(IllegalEntry) as err:
        do(s, type="withdraw_build", player="Aki", targets={"st-james-place": 0, "tennessee-avenue": 0,
                                                            "new-york-avenue": 0})
    assert err.value.code == "declaration_stands"
    s = build(s, "Ben", st_charles_place=1, states_avenue=1, virginia_avenue=1)
    s = do(s, type="withdraw_build", player="Ben", targets={"st-charles-place": 0, "states-avenue": 0,
                                                          "virginia-avenue": 0})
    assert 1 not in dict(s.pending.declarations)
    assert any(a.type == "close_builds" for a in legal_actions(s))


def test_hotels_are_auctioned_before_houses(jma):
    s = give(table(jma), 0, *ORANGE)
    s = give(s, 1, *PINK)
    for i in (16, 18, 19, 11, 13, 14):
        s.buildings[i] = 4
    s.bank_houses, s.bank_hotels = 8, 1
    s = do(s, type="build", player="Aki", targets={"st-james-place": "hotel"})
    s = do(s, type="build", player="Ben", targets={"virginia-avenue": "hotel"})
    s = do(s, type="close_builds")
    assert s.pending.kind == "hotel"


def test_selling_buildings_pays_half_price_evenly(jma):
    s = build(orange_owner(jma), "Aki", st_james_place=2, tennessee_avenue=2, new_york_avenue=2)
    s = do(s, type="sell_buildings", player="Aki", targets={"new-york-avenue": 1, "st-james-place": 1})
    assert cash(s)[0] == 1500 - 600 + 100 and s.bank_houses == 28
    with pytest.raises(IllegalEntry) as err:
        do(s, type="sell_buildings", player="Aki", targets={"st-james-place": 0})
    assert err.value.code == "uneven"


def hotel_group(ruleset, **options):
    s = orange_owner(ruleset, **options)
    s.buildings[16], s.buildings[18], s.buildings[19] = 4, 4, 5
    s.bank_houses, s.bank_hotels = 24, 11
    return s


def test_jma_hotel_sale_may_keep_the_groups_houses_4_4_hotel_to_2_3_3(jma):
    s = do(hotel_group(jma), type="sell_buildings", player="Aki",
           targets={"st-james-place": 2, "tennessee-avenue": 3, "new-york-avenue": 3})
    assert s.bank_houses == 24 and s.bank_hotels == 12
    assert cash(s)[0] == 1500 + 5 * 50


def test_jma_hotel_cannot_be_broken_into_houses_from_the_bank_outside_debt(jma):
    with pytest.raises(IllegalEntry) as err:
        do(hotel_group(jma), type="sell_buildings", player="Aki",
           targets={"st-james-place": 4, "tennessee-avenue": 4, "new-york-avenue": 4})
    assert err.value.code == "hotel_breakdown"
    assert "負債" in err.value.clause


def test_jma_player_in_debt_may_break_a_hotel_into_houses_from_the_bank(jma):
    s = give(hotel_group(jma), 1, "baltic-avenue", "mediterranean-avenue")
    s.buildings[3] = 5
    s.bank_hotels -= 1
    s.players[0].cash = 100
    s = do(s, type="roll", player="Aki", dice=[1, 2])
    assert s.pending == Debt(0, 1, 450, "rent")
    s = do(s, type="sell_buildings", player="Aki",
           targets={"st-james-place": 4, "tennessee-avenue": 4, "new-york-avenue": 4})
    assert s.bank_houses == 20 and cash(s)[0] == 150
    s = do(s, type="sell_buildings", player="Aki",
           targets={"st-james-place": 1, "tennessee-avenue": 1, "new-york-avenue": 1})
    assert s.pending == AwaitRoll(1) and cash(s)[0] == 150 + 450 - 450


def test_classic_any_player_may_break_a_hotel_into_houses(classic):
    s = do(hotel_group(classic), type="sell_buildings", player="Aki",
           targets={"st-james-place": 4, "tennessee-avenue": 4, "new-york-avenue": 4})
    assert s.bank_houses == 20 and s.bank_hotels == 12


def test_bankruptcy_to_a_player_sells_every_building_at_half_price(jma):
    big = give(hotel_group(jma), 1, "boardwalk", "park-place")
    big.buildings[39] = big.buildings[37] = 5
    big.bank_hotels -= 2
    big.players[0].cash = 0
    big.players[0].position = 36
    big = do(big, type="roll", player="Aki", dice=[1, 2])  # Boardwalk hotel: $2,000
    assert big.pending == Debt(0, 1, 2000, "rent")
    big = do(big, type="bankrupt", player="Aki")
    assert big.bank_houses == 32 and big.bank_hotels == 10
    assert cash(big)[1] == 1500 + (4 + 4 + 5) * 50
    assert big.owner[16] == 1 and big.buildings[16] == 0
