"""Seating roll-off, dice, movement, salary and doubles."""
import pytest


from referee.engine import (AwaitRoll, Game, Header, IllegalEntry, MalformedEntry, SeatingRoll, apply, check,
                            parse_entry, resolve, with_options)

from conftest import cash, do, sq, seated_state


def seat(game, name, a, b):
    return game.record(parse_entry({"type": "seat_roll", "player": name, "dice": [a, b]}))


def test_highest_seating_roll_starts_and_jma_orders_everyone_by_roll(jma):
    game = Game(jma, Header("jma-2006", ("Aki", "Ben", "Chie")))
    seat(game, "Aki", 2, 3)
    seat(game, "Ben", 6, 5)
    seat(game, "Chie", 4, 4)
    assert [p.name for p in game.state.players] == ["Ben", "Chie", "Aki"]
    assert game.state.pending == AwaitRoll(0)
    assert game.state.turn == 1


def test_seating_ties_reroll_among_the_tied_players_only(jma):
    game = Game(jma, Header("jma-2006", ("Aki", "Ben", "Chie", "Dai")))
    seat(game, "Aki", 3, 4)
    seat(game, "Ben", 6, 6)
    seat(game, "Chie", 5, 2)
    seat(game, "Dai", 1, 1)
    assert isinstance(game.state.pending, SeatingRoll)
    assert game.state.pending.waiting == (0, 2)  # Aki and Chie tied on 7
    with pytest.raises(IllegalEntry) as err:
        seat(game, "Ben", 1, 2)
    assert err.value.code == "not_waiting"
    assert "基本的な駒の進め方" in err.value.clause
    seat(game, "Aki", 1, 2)
    seat(game, "Chie", 2, 2)
    assert [p.name for p in game.state.players] == ["Ben", "Chie", "Aki", "Dai"]


def test_classic_seating_highest_starts_then_play_follows_seat_order(classic):
    game = Game(classic, Header("classic", ("Aki", "Ben", "Chie", "Dai")))
    seat(game, "Aki", 3, 4)
    seat(game, "Ben", 1, 2)
    seat(game, "Chie", 6, 6)
    seat(game, "Dai", 3, 4)  # ties below the top do not matter
    assert [p.name for p in game.state.players] == ["Chie", "Dai", "Aki", "Ben"]


def test_roll_moves_the_token_by_the_dice_total(jma):
    s = do(seated_state(jma), type="roll", player="Aki", dice=[1, 2])
    assert s.players[0].position == 3
    assert s.pending.__class__.__name__ == "BuyOrAuction"


def test_turn_passes_to_next_player_after_a_plain_roll(jma):
    s = do(seated_state(jma), type="roll", player="Aki", dice=[4, 6])  # Jail, just visiting
    assert s.players[0].position == 10 and not s.players[0].in_jail
    assert s.pending == AwaitRoll(1)


def test_roll_by_the_wrong_player_is_refused(jma):
    with pytest.raises(IllegalEntry) as err:
        do(seated_state(jma), type="roll", player="Ben", dice=[1, 2])
    assert err.value.code == "wrong_player"
    assert "Aki" in err.value.message


def test_impossible_die_is_malformed():
    with pytest.raises(MalformedEntry) as err:
        parse_entry({"type": "roll", "player": "Aki", "dice": [7, 1]})
    assert err.value.code == "impossible_die"
    assert "7" in err.value.message


def test_passing_go_pays_the_salary(jma):
    s = seated_state(jma)
    s.players[0].position = 38
    s = do(s, type="roll", player="Aki", dice=[2, 3])  # 38 -> 3
    assert s.players[0].position == 3
    assert s.players[0].cash == 1700


def test_landing_on_go_pays_the_salary(jma):
    s = seated_state(jma)
    s.players[0].position = 35
    s = do(s, type="roll", player="Aki", dice=[2, 3])
    assert s.players[0].position == 0
    assert cash(s)[0] == 1700


def test_just_go_house_rule_pays_its_own_amount_on_landing_exactly_on_go(jma):
    from dataclasses import replace
    s = seated_state(jma)
    s.ruleset = replace(with_options(jma, {"go_landing_bonus": True}), money=replace(jma.money, go_landing_salary=400))
    s.players[0].position = 35
    assert cash(do(s, type="roll", player="Aki", dice=[2, 3]))[0] == 1900


def test_doubles_give_another_roll(jma):
    s = do(seated_state(jma), type="roll", player="Aki", dice=[5, 5])  # Jail, just visiting
    assert s.pending == AwaitRoll(0)
    assert s.doubles == 1
    s = do(s, type="roll", player="Aki", dice=[1, 2])  # 13 States Avenue
    assert s.pending.__class__.__name__ == "BuyOrAuction"


def test_third_doubles_in_a_row_goes_straight_to_jail_without_moving(jma):
    s = do(seated_state(jma), type="roll", player="Aki", dice=[5, 5])
    s = do(s, type="roll", player="Aki", dice=[6, 6])  # 22 Chance
    s = do(s, type="card", player="Aki", card="chance-bank-dividend")
    assert s.pending == AwaitRoll(0) and s.doubles == 2
    s = do(s, type="roll", player="Aki", dice=[1, 1])
    assert s.players[0].in_jail
    assert s.players[0].position == jma.jail_index
    assert s.pending == AwaitRoll(1)


def test_going_to_jail_during_doubles_ends_the_turn(jma):
    s = seated_state(jma)
    s.players[0].position = 26
    s = do(s, type="roll", player="Aki", dice=[2, 2])  # 30 Go To Jail
    assert s.players[0].in_jail and s.players[0].position == 10
    assert s.pending == AwaitRoll(1)
    assert s.players[0].cash == 1500  # no salary on the way


def test_bankrupt_players_are_skipped_in_turn_order(jma):
    s = seated_state(jma)
    s.players[1].bankrupt = True
    s.recount()  # a player put out by hand: the kept counts (the players still in) follow
    s = do(s, type="roll", player="Aki", dice=[4, 6])
    assert s.pending == AwaitRoll(2)


def test_unknown_player_is_refused(jma):
    with pytest.raises(IllegalEntry) as err:
        do(seated_state(jma), type="roll", player="Zed", dice=[1, 2])
    assert err.value.code == "unknown_player"
    assert "'Zed'" in err.value.message


def test_state_given_to_resolve_is_never_changed(jma):
    s = seated_state(jma)
    before = (cash(s), [p.position for p in s.players], s.pending)
    do(s, type="roll", player="Aki", dice=[3, 4])
    assert (cash(s), [p.position for p in s.players], s.pending) == before
    assert sq(s, "boardwalk") == 39


def test_checking_an_entry_and_applying_its_events_are_separate_steps(jma):
    s = seated_state(jma)
    entry = parse_entry({"type": "roll", "player": "Aki", "dice": [1, 3]})
    events = check(s, entry)
    assert cash(s)[0] == 1500  # checking changes nothing
    after = apply(s, events)
    assert cash(after) == cash(resolve(s, entry).state) == [1300, 1500, 1500]
    assert after.pending == AwaitRoll(1)
