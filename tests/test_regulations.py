"""Tournament regulations as options: dealt deeds at the start, no trades before anyone passes GO."""
import pytest

from referee.engine import AwaitRoll, DealDeeds, Game, Header, IllegalEntry, legal_actions, parse_entry, with_options

from conftest import cash, do, give, seated_state


def test_two_deeds_dealt_in_reverse_seat_order_and_bought_at_face_value(jma):
    s = seated_state(jma, ("Aki", "Ben", "Chie"), dealt_deeds=2)
    assert s.pending == DealDeeds((2, 1, 0))
    assert legal_actions(s)[0].player == 2
    s = do(s, type="deal", player="Chie", deeds=["boardwalk", "reading-railroad"])
    s = do(s, type="deal", player="Ben", deeds=["baltic-avenue", "electric-company"])
    s = do(s, type="deal", player="Aki", deeds=["st-james-place", "short-line"])
    assert cash(s) == [1500 - 180 - 200, 1500 - 60 - 150, 1500 - 400 - 200]
    assert s.owner[39] == 2 and s.pending == AwaitRoll(0)


def test_a_pair_of_one_colour_two_railroads_or_two_utilities_is_dealt_again(jma):
    s = seated_state(jma, ("Aki", "Ben"), dealt_deeds=2)
    for pair in (["park-place", "boardwalk"], ["reading-railroad", "short-line"],
                 ["electric-company", "water-works"]):
        with pytest.raises(IllegalEntry) as err:
            do(s, type="deal", player="Ben", deeds=pair)
        assert err.value.code == "redeal"


def test_deals_come_in_order_and_only_unowned_deeds(jma):
    s = seated_state(jma, ("Aki", "Ben"), dealt_deeds=2)
    with pytest.raises(IllegalEntry) as err:
        do(s, type="deal", player="Aki", deeds=["boardwalk", "short-line"])
    assert err.value.code == "wrong_player"
    s = do(s, type="deal", player="Ben", deeds=["boardwalk", "short-line"])
    with pytest.raises(IllegalEntry) as err:
        do(s, type="deal", player="Aki", deeds=["boardwalk", "baltic-avenue"])
    assert err.value.code == "not_dealable"


def test_dealing_follows_the_seating_roll_off(jma):
    game = Game(with_options(jma, {"dealt_deeds": 2}), Header("jma-2006", ("Aki", "Ben"), {"dealt_deeds": 2}))
    game.record(parse_entry({"type": "seat_roll", "player": "Aki", "dice": [1, 2]}))
    game.record(parse_entry({"type": "seat_roll", "player": "Ben", "dice": [5, 6]}))
    assert game.state.pending == DealDeeds((1, 0))  # Ben plays first, so Aki is dealt first
    assert game.state.players[1].name == "Aki"


def test_no_trades_before_anyone_passes_go_except_debt_negotiation(jma):
    s = give(seated_state(jma, ("Aki", "Ben"), trades_before_first_go=False), 0, "boardwalk")
    trade = {"type": "trade", "player": "Aki", "partner": "Ben", "give": {"deeds": ["boardwalk"]},
             "take": {"cash": 500}}
    with pytest.raises(IllegalEntry) as err:
        do(s, **trade)
    assert err.value.code == "not_now"
    s.players[0].position = 38
    s = do(do(s, type="roll", player="Aki", dice=[1, 2]), type="decline", player="Aki")  # passes GO
    s = do(s, type="hammer")
    assert s.go_passed
    assert do(s, **trade).owner[39] == 1
