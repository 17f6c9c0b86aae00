"""Time called, the last roll, assets and the final ranking."""
import pytest

from referee.engine import (Auction, AwaitRoll, BuildRound, Debt, GameOver, IllegalEntry, RollOff, assets, places, ranking,
                            winner)
from referee.engine import ended as play_over

from conftest import do, give, seated_state


def ended(s):
    """The game is over, or only the roll-off for tied places is left."""
    return isinstance(s.pending, (GameOver, RollOff))


def test_time_called_between_turns_the_next_roll_is_the_last(jma):
    s = do(seated_state(jma), type="time_called")
    assert s.time_called and s.pending == AwaitRoll(0)
    s = do(s, type="roll", player="Aki", dice=[4, 6])  # just visiting
    assert ended(s) and s.pending.reason == "time"


def test_time_called_the_last_rolls_landing_is_settled_before_the_end(jma):
    s = do(do(seated_state(jma), type="time_called"), type="roll", player="Aki", dice=[1, 2])
    assert s.pending.__class__.__name__ == "BuyOrAuction"
    s = do(s, type="buy", player="Aki")
    assert ended(s) and s.owner[3] == 0


def test_time_called_during_doubles_that_turns_next_roll_is_the_last(jma):
    s = do(seated_state(jma), type="roll", player="Aki", dice=[5, 5])
    s = do(s, type="time_called")
    assert s.pending == AwaitRoll(0)
    s = do(s, type="roll", player="Aki", dice=[6, 6])  # doubles again, but the game is over once settled
    s = do(s, type="card", player="Aki", card="chance-bank-dividend")
    assert ended(s)


def test_time_called_mid_turn_finishes_the_turn_then_the_next_players_roll(jma):
    s = do(seated_state(jma), type="roll", player="Aki", dice=[1, 2])
    s = do(s, type="time_called")
    s = do(s, type="buy", player="Aki")
    assert s.pending == AwaitRoll(1)
    s = do(s, type="roll", player="Ben", dice=[4, 6])
    assert ended(s)


def test_time_called_voids_an_auction_in_progress(jma):
    s = do(do(seated_state(jma), type="roll", player="Aki", dice=[1, 2]), type="decline", player="Aki")
    s = do(s, type="bid", player="Ben", amount=100)
    assert isinstance(s.pending, Auction)
    s = do(s, type="time_called")
    assert s.owner[3] is None and s.pending == AwaitRoll(1)


def test_time_called_voids_building_declarations_in_progress(jma):
    s = give(give(seated_state(jma), 0, "st-james-place", "tennessee-avenue", "new-york-avenue"), 1,
             "st-charles-place", "states-avenue", "virginia-avenue")
    s.bank_houses = 4
    s = do(s, type="build", player="Aki", targets={"st-james-place": 1, "tennessee-avenue": 1,
                                                   "new-york-avenue": 1})
    assert isinstance(s.pending, BuildRound)
    s = do(s, type="time_called")
    assert s.pending == AwaitRoll(0) and s.buildings[16] == 0
    with pytest.raises(IllegalEntry) as err:
        do(s, type="build", player="Aki", targets={"st-james-place": 1, "tennessee-avenue": 1,
                                                   "new-york-avenue": 1})
    assert err.value.code == "time_called"


def test_time_called_provisional_bankruptcy_becomes_bankruptcy(jma):
    s = give(seated_state(jma), 1, "baltic-avenue", "mediterranean-avenue")
    s.set_level(3, 5)
    s.bank_hotels -= 1
    s.players[0].cash = 10
    s = do(s, type="roll", player="Aki", dice=[1, 2])
    assert isinstance(s.pending, Debt)
    s = do(s, type="time_called")
    assert s.players[0].bankrupt and s.players[1].cash == 1510
    assert s.pending == AwaitRoll(1)


def test_time_can_be_called_only_once(jma):
    with pytest.raises(IllegalEntry) as err:
        do(do(seated_state(jma), type="time_called"), type="time_called")
    assert err.value.code == "time_already_called"


def test_equal_turns_option_plays_to_the_end_of_the_round(jma):
    s = do(seated_state(jma, after_time_called="equal_turns"), type="roll", player="Aki", dice=[4, 6])
    s = do(s, type="time_called")
    s = do(s, type="roll", player="Ben", dice=[4, 6])
    assert s.pending == AwaitRoll(2)
    s = do(s, type="roll", player="Chie", dice=[4, 6])
    assert ended(s)


def test_assets_count_deeds_at_price_mortgaged_at_half_and_buildings_at_cost(jma):
    s = give(give(seated_state(jma), 0, "st-james-place", "tennessee-avenue", "new-york-avenue"), 0, "boardwalk",
             mortgaged=True)
    s.set_level(16, 4)
    s.set_level(18, 4)
    s.set_level(19, 5)
    a = assets(s, 0)
    assert (a.cash, a.deeds, a.mortgaged_deeds, a.houses, a.hotels) == (1500, 560, 200, 8, 1)
    assert a.buildings == 13 * 100 and a.total == 1500 + 560 + 200 + 1300


def test_ranking_by_assets_with_bankrupt_players_below_by_how_long_they_survived(jma):
    s = seated_state(jma, ("Aki", "Ben", "Chie", "Dai"))
    s.players[0].bankrupt, s.players[0].bankrupt_at_turn, s.players[0].cash = True, 12, 0
    s.players[3].bankrupt, s.players[3].bankrupt_at_turn, s.players[3].cash = True, 7, 0
    s.players[1].cash = 900
    s.current, s.pending = 1, AwaitRoll(1)
    s = do(s, type="time_called")
    s = do(s, type="roll", player="Ben", dice=[1, 2])
    s = do(s, type="decline", player="Ben")
    s = do(s, type="hammer")
    assert isinstance(s.pending, GameOver)
    assert [st.name for st in ranking(s)] == ["Chie", "Ben", "Aki", "Dai"]
    assert [st.rank for st in ranking(s)] == [1, 2, 3, 4]


def test_tied_assets_are_ranked_by_a_dice_roll_off(jma):
    s = do(seated_state(jma, ("Aki", "Ben", "Chie")), type="time_called")
    s = do(s, type="roll", player="Aki", dice=[4, 6])
    assert s.pending == RollOff((0, 1, 2), ((), (), ()), "time")
    with pytest.raises(IllegalEntry) as err:
        do(s, type="roll", player="Ben", dice=[1, 2])
    assert err.value.code == "game_over" and "roll off" in err.value.message
    s = do(s, type="rolloff", player="Aki", dice=[3, 3])
    s = do(s, type="rolloff", player="Ben", dice=[6, 5])
    s = do(s, type="rolloff", player="Chie", dice=[2, 4])
    assert isinstance(s.pending, RollOff) and s.pending.waiting == (0, 2)  # Aki and Chie rolled 6
    s = do(s, type="rolloff", player="Aki", dice=[1, 1])
    s = do(s, type="rolloff", player="Chie", dice=[1, 2])
    assert isinstance(s.pending, GameOver)
    assert [st.name for st in ranking(s)] == ["Ben", "Chie", "Aki"]
    assert ranking(s)[1].rolloff == (6, 3)


def test_players_bankrupt_in_the_same_turn_survived_equally_long_and_roll_off(jma):
    s = seated_state(jma, ("Aki", "Ben", "Chie", "Dai"))
    s.players[1].cash = s.players[3].cash = 20
    s = do(s, type="roll", player="Aki", dice=[1, 1])
    s = do(s, type="card", player="Aki", card="chest-grand-opera-opening")
    s = do(s, type="bankrupt", player="Ben")
    s = do(s, type="bankrupt", player="Dai")
    assert s.players[1].bankrupt_at_turn == s.players[3].bankrupt_at_turn
    s = do(s, type="roll", player="Aki", dice=[1, 2])  # doubles: Aki rolls again, to Reading Railroad
    s = do(do(s, type="decline", player="Aki"), type="hammer")
    s = do(s, type="time_called")
    s = do(s, type="roll", player="Chie", dice=[4, 6])
    assert isinstance(s.pending, RollOff) and s.pending.waiting == (1, 3)
    s = do(do(s, type="rolloff", player="Ben", dice=[1, 1]), type="rolloff", player="Dai", dice=[6, 6])
    assert [st.name for st in ranking(s)] == ["Aki", "Chie", "Dai", "Ben"]


def _time_up_with(jma, cash):
    """Four players with this cash each; time is called and Aki's last roll (Just Visiting) ends the game."""
    s = seated_state(jma, ("Aki", "Ben", "Chie", "Dai"))
    for i, amount in enumerate(cash):
        s.players[i].cash = amount
    s = do(s, type="time_called")
    return do(s, type="roll", player="Aki", dice=[4, 6])


def test_a_roll_off_for_a_lower_place_does_not_hold_back_the_winner_or_the_places_decided(jma):
    s = _time_up_with(jma, (2000, 1500, 1000, 1000))
    assert s.pending == RollOff((2, 3), ((), (), (), ()), "time")
    assert play_over(s) and not s.over  # play is over; the result is final only once the roll-off has placed them
    assert winner(s) == 0 and places(s) == {0: 1, 1: 2}
    assert [(st.rank, st.name, st.decided) for st in ranking(s)] == [
        (1, "Aki", True), (2, "Ben", True), (3, "Chie", False), (3, "Dai", False)]
    s = do(s, type="rolloff", player="Dai", dice=[1, 2])  # rolled, not yet placed: Chie is still to roll
    assert winner(s) == 0 and places(s) == {0: 1, 1: 2}
    s = do(s, type="rolloff", player="Chie", dice=[3, 3])
    assert s.over and places(s) == {0: 1, 1: 2, 2: 3, 3: 4}


def test_a_roll_off_for_first_place_leaves_no_winner_until_it_is_decided(jma):
    s = _time_up_with(jma, (1800, 1800, 1500, 1500))  # two ties: first and third
    assert winner(s) is None and places(s) == {}
    s = do(s, type="rolloff", player="Aki", dice=[3, 4])
    s = do(s, type="rolloff", player="Ben", dice=[3, 4])  # equal again: Aki and Ben roll once more
    assert winner(s) is None and places(s) == {}
    s = do(s, type="rolloff", player="Chie", dice=[6, 6])
    s = do(s, type="rolloff", player="Dai", dice=[1, 1])  # third and fourth are placed; first still rolls off
    assert isinstance(s.pending, RollOff) and s.pending.waiting == (0, 1)
    assert winner(s) is None and places(s) == {2: 3, 3: 4}
    assert [(st.rank, st.decided) for st in ranking(s)][:2] == [(1, False), (1, False)]
    s = do(s, type="rolloff", player="Ben", dice=[5, 6])
    s = do(s, type="rolloff", player="Aki", dice=[1, 2])
    assert s.over and winner(s) == 1 and places(s) == {1: 1, 0: 2, 2: 3, 3: 4}
