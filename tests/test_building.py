"""Building: declarations, the even rule, the bank's supply, shortage auctions, selling."""
import pytest

from referee.engine import (AwaitRoll, BidPayment, BuildingAuction, BuildRound, Debt, IllegalEntry, PlaceBuilding,
                            bid_means, legal_actions)

from conftest import cash, do, give, seated_state

ORANGE = ("st-james-place", "tennessee-avenue", "new-york-avenue")  # 16, 18, 19; $100 a house
PINK = ("st-charles-place", "states-avenue", "virginia-avenue")  # 11, 13, 14; $100 a house
LIGHT_BLUE = ("oriental-avenue", "vermont-avenue", "connecticut-avenue")  # 6, 8, 9; $50 a house


def build(s, player, **targets):
    return do(s, type="build", player=player, targets={k.replace("_", "-"): v for k, v in targets.items()})


def orange_owner(ruleset, **options):
    return give(seated_state(ruleset, ("Aki", "Ben", "Chie"), **options), 0, *ORANGE)


def test_build_pays_the_house_cost_for_each_house(jma):
    s = build(orange_owner(jma), "Aki", st_james_place=1, tennessee_avenue=1, new_york_avenue=2)
    assert [s.buildings[i] for i in (16, 18, 19)] == [1, 1, 2]
    assert cash(s)[0] == 1500 - 400 and s.bank_houses == 28
    assert s.pending == AwaitRoll(0)


def test_build_needs_the_whole_colour_group(jma):
    s = give(seated_state(jma), 0, "st-james-place", "tennessee-avenue")
    with pytest.raises(IllegalEntry) as err:
        build(s, "Aki", st_james_place=1)
    assert err.value.code == "not_whole_group"


def test_build_refused_with_a_mortgaged_lot_in_the_group(jma):
    s = orange_owner(jma)
    s.set_mortgaged(19, True)
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
    s.set_level(3, 5)
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


def test_a_shortage_bid_starts_at_the_building_price_of_the_bidders_cheapest_lot(jma):
    """家・ホテルの不足 補足ルール: 競売は、建てようとする土地の家等の定価以上、$10単位で行います。"""
    s = give(shortage(jma), 2, *LIGHT_BLUE)
    s = build(s, "Aki", st_james_place=1, tennessee_avenue=1, new_york_avenue=1)
    s = build(s, "Ben", st_charles_place=1, states_avenue=1, virginia_avenue=1)
    s = do(s, type="close_builds")
    minimum = {a.player: a.detail["minimum"] for a in legal_actions(s) if a.type == "bid"}
    assert minimum == {0: 100, 1: 100, 2: 50}  # orange and pink houses cost $100, light blue $50
    with pytest.raises(IllegalEntry) as err:
        do(s, type="bid", player="Aki", amount=60)
    assert err.value.code == "below_building_price"
    assert "定価以上" in err.value.clause
    # Chie's light blue houses cost $50: a $60 bid stands for her
    s = do(do(s, type="bid", player="Chie", amount=60), type="hammer")
    assert s.pending.player == 2


def test_a_winning_shortage_bid_below_the_chosen_lots_price_is_held_and_the_auction_goes_on(jma):
    """家・ホテルの不足 補足ルール: 実際に建てたい土地の建設定価以下で落札してしまった場合は、落札を保留してさらに
    競売を継続し、定価以上の金額で落札する必要があります。"""
    s = give(shortage(jma), 2, *LIGHT_BLUE)
    s = give(s, 2, "park-place", "boardwalk")  # dark blue: $200 a house
    s = build(s, "Aki", st_james_place=1, tennessee_avenue=1, new_york_avenue=1)
    s = build(s, "Ben", st_charles_place=1, states_avenue=1, virginia_avenue=1)
    s = do(do(do(s, type="close_builds"), type="bid", player="Chie", amount=150), type="hammer")
    s = do(s, type="place_building", player="Chie", square="boardwalk")
    assert isinstance(s.pending, BuildingAuction)
    assert (s.pending.high_bid, s.pending.high_bidder, s.pending.held) == (150, 2, 39)
    assert s.buildings[39] == 0 and cash(s)[2] == 1500
    s = do(do(s, type="bid", player="Chie", amount=200), type="hammer")
    s = do(s, type="place_building", player="Chie", square="boardwalk")
    assert s.buildings[39] == 1 and cash(s)[2] == 1300


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
    s = give(seated_state(jma), 0, *ORANGE)
    s = give(s, 1, *PINK)
    for i in (16, 18, 19, 11, 13, 14):
        s.set_level(i, 4)
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
    s.set_level(16, 4)
    s.set_level(18, 4)
    s.set_level(19, 5)
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
    s.set_level(3, 5)
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
    big.set_level(39, 5)
    big.set_level(37, 5)
    big.bank_hotels -= 2
    big.players[0].cash = 0
    big.players[0].position = 36
    big = do(big, type="roll", player="Aki", dice=[1, 2])  # Boardwalk hotel: $2,000
    assert big.pending == Debt(0, 1, 2000, "rent")
    big = do(big, type="bankrupt", player="Aki")
    assert big.bank_houses == 32 and big.bank_hotels == 10
    assert cash(big)[1] == 1500 + (4 + 4 + 5) * 50
    assert big.owner[16] == 1 and big.buildings[16] == 0


def test_jma_a_debtor_breaks_a_hotel_into_bank_houses_only_as_far_as_the_debt_needs(jma):
    """土地の売却 補足ルール: 支払う現金を調達するのに必要な範囲内において、銀行にある家を加えてホテルを4軒以下の家に
    することができます。"""
    s = give(hotel_group(jma), 1, "baltic-avenue", "mediterranean-avenue")
    s.set_level(3, 5)
    s.bank_hotels -= 1
    s.players[0].cash = 350
    s = do(s, type="roll", player="Aki", dice=[1, 2])
    assert s.pending == Debt(0, 1, 450, "rent")  # $100 short
    with pytest.raises(IllegalEntry) as err:  # 4, 4, hotel -> 3, 3, 4 raises $150: one house fewer already does
        do(s, type="sell_buildings", player="Aki",
           targets={"st-james-place": 3, "tennessee-avenue": 3, "new-york-avenue": 4})
    assert err.value.code == "breakdown_beyond_need"
    assert "必要な範囲内" in err.value.clause and "$100" in err.value.message
    s = do(s, type="sell_buildings", player="Aki",
           targets={"st-james-place": 4, "tennessee-avenue": 3, "new-york-avenue": 4})
    assert s.pending == AwaitRoll(1) and cash(s)[0] == 350 + 100 - 450 and s.bank_houses == 24 - 3


def test_jma_while_the_jail_fine_waits_with_the_rent_ahead_a_hotel_breakdown_counts_both_as_owed(jma):
    """土地の売却 補足ルール: 支払う現金を調達するのに必要な範囲内において… and 破産 補足ルール: 刑務所から3回目に
    ゾロ目が出ず、その出所料と出た目で行くべきマスのレンタル料の両方で仮破産となる場合: Aki's $60 pays the $50 fine but
    not with the $450 rent at Ben's States Avenue, so both are owed while the fine waits, and breaking a hotel into
    houses from the bank is within what they need (not refused as owing $-10)."""
    s = give(seated_state(jma), 1, *PINK)
    s = give(s, 0, "mediterranean-avenue", "baltic-avenue")
    for i in (11, 13, 14):
        s.set_level(i, 3)
    s.set_level(1, 5)
    s.set_level(3, 5)
    s.bank_houses -= 9
    s.bank_hotels -= 2
    s.players[0].position, s.players[0].in_jail, s.players[0].jail_rolls, s.players[0].cash = 10, True, 2, 60
    s = do(s, type="roll", player="Aki", dice=[1, 2])
    assert s.pending == Debt(0, None, 50, "bail")
    s = do(s, type="sell_buildings", player="Aki", targets={"mediterranean-avenue": 4})
    assert s.buildings[1] == 4 and s.bank_houses == 32 - 9 - 4 and cash(s)[0] == 60 + 25
    assert s.pending == Debt(0, None, 50, "bail") and s.players[0].in_jail


def houses_waiting_and_light_blue_at_four(ruleset):
    """Aki and Ben have declared 3 houses each, 4 in the bank; Chie's light blue lots have 4 houses each."""
    s = give(shortage(ruleset), 2, *LIGHT_BLUE)
    for i in (6, 8, 9):
        s.set_level(i, 4)
    s = build(s, "Aki", st_james_place=1, tennessee_avenue=1, new_york_avenue=1)
    return build(s, "Ben", st_charles_place=1, states_avenue=1, virginia_avenue=1)


def test_jma_a_hotel_declared_while_house_declarations_wait_is_built_first_and_its_houses_count(jma):
    """家の建て方 補足ルール: 家の建設宣言中にホテルの建設宣言があった場合、ホテルの建設を先に行います。"""
    s = houses_waiting_and_light_blue_at_four(jma)
    assert isinstance(s.pending, BuildRound)  # 6 houses declared, 4 in the bank
    s = do(s, type="build", player="Chie",
           targets={"oriental-avenue": "hotel", "vermont-avenue": "hotel", "connecticut-avenue": "hotel"})
    # the hotels give back 12 houses: every declaration stands, no shortage auction
    assert [s.buildings[i] for i in (6, 8, 9)] == [5, 5, 5]
    assert [s.buildings[i] for i in (16, 18, 19, 11, 13, 14)] == [1] * 6
    assert s.bank_houses == 4 + 12 - 6 and s.bank_hotels == 9 and s.pending == AwaitRoll(0)


def test_jma_hotels_first_at_close_when_others_could_still_follow(jma):
    s = give(shortage(jma), 2, *LIGHT_BLUE)
    s = give(s, 3 - 1, "park-place", "boardwalk")  # Chie could still declare dark blue houses
    for i in (6, 8, 9):
        s.set_level(i, 4)
    s.bank_houses = 0
    s = do(s, type="build", player="Chie", targets={"oriental-avenue": "hotel"})
    s = build(s, "Aki", st_james_place=1, tennessee_avenue=1, new_york_avenue=1)
    assert isinstance(s.pending, BuildRound)
    s = do(s, type="close_builds")
    assert s.buildings[6] == 5 and [s.buildings[i] for i in (16, 18, 19)] == [1, 1, 1] and s.bank_houses == 1


def test_jma_a_shortage_bid_the_winner_can_raise_waits_for_the_cash_then_the_lot_is_chosen(jma):
    s = build(shortage(jma), "Aki", st_james_place=1, tennessee_avenue=1, new_york_avenue=1)
    s = build(s, "Ben", st_charles_place=1, states_avenue=1, virginia_avenue=1)
    s = give(s, 1, "boardwalk")
    s.players[1].cash = 150
    s = do(do(do(s, type="close_builds"), type="bid", player="Ben", amount=300), type="hammer")
    assert s.pending == BidPayment(1, 300, kind="house", round=s.pending.round)
    s = do(s, type="mortgage", player="Ben", square="boardwalk")
    assert isinstance(s.pending, PlaceBuilding) and s.pending.price == 300
    s = do(s, type="place_building", player="Ben", square="virginia-avenue")
    assert s.buildings[14] == 1 and cash(s)[1] == 150 + 200 - 300


def test_jma_a_hotel_declared_with_the_groups_other_lots_named_unchanged_is_still_built_first(jma):
    """The table screen's form names every lot of the group: 4, 4 stay, one lot to hotel."""
    s = houses_waiting_and_light_blue_at_four(jma)
    s = do(s, type="build", player="Chie",
           targets={"oriental-avenue": "hotel", "vermont-avenue": 4, "connecticut-avenue": 4})
    if isinstance(s.pending, BuildRound):
        s = do(s, type="close_builds")
    assert s.buildings[6] == 5 and [s.buildings[i] for i in (16, 18, 19, 11, 13, 14)] == [1] * 6
    assert s.bank_houses == 4 + 4 - 6 and s.pending == AwaitRoll(0)


def test_a_winner_raising_a_won_hotel_cannot_sell_the_houses_it_needs(jma):
    """Found by the simulator (Disney edition, seed 0, game 389): the winner of a hotel at a shortage auction sold
    houses from the only group a hotel could go on to raise the bid, and then had no lot to place it.  A sale that
    leaves no such lot is refused; a sale elsewhere is not."""
    s = give(seated_state(jma), 0, *LIGHT_BLUE, *ORANGE)
    for square in LIGHT_BLUE:
        s.set_level(s.ruleset.square(square).index, 4)
    for square in ORANGE:
        s.set_level(s.ruleset.square(square).index, 1)
    s.bank_houses -= 15
    s.pending = BidPayment(0, 2000, kind="hotel", round=BuildRound((), AwaitRoll(0)))
    with pytest.raises(IllegalEntry) as refused:
        do(s, type="sell_buildings", player="Aki", targets={square: 3 for square in LIGHT_BLUE})
    assert refused.value.code == "needed_for_won_building"
    after = do(s, type="sell_buildings", player="Aki", targets={square: 0 for square in ORANGE})
    assert [after.buildings[after.ruleset.square(sq).index] for sq in ORANGE] == [0, 0, 0]


def test_a_shortage_bid_is_judged_payable_only_by_means_that_leave_a_lot_to_build_on(jma):
    """Found by the simulator (the time-limit game, seed 0): a hotel won at a shortage auction whose winner could pay
    only by selling the houses the hotel needs was judged payable, and then could not be paid.  What the winner can
    raise and still build keeps one group's mortgage values and its buildings: here cash $100, with Light Blue's 12
    houses ($300 back) and mortgages ($160) kept, so a $200 bid is beyond them and is void at the hammer."""

    s = give(seated_state(jma), 0, *LIGHT_BLUE)
    for square in LIGHT_BLUE:
        s.set_level(s.ruleset.square(square).index, 4)
    s.bank_houses -= 12
    s.players[0].cash = 100
    assert bid_means(s, 0, "hotel", 200) == 100
