"""Mortgaging and lifting mortgages, with JMA's timing."""
import pytest

from referee.engine import IllegalEntry

from conftest import cash, do, give, seated_state


def test_mortgage_pays_the_mortgage_value(jma):
    s = do(give(seated_state(jma), 0, "boardwalk"), type="mortgage", player="Aki", square="boardwalk")
    assert s.mortgaged[39] and cash(s)[0] == 1700


def test_unmortgage_costs_the_value_plus_10_percent_rounded_up(jma):
    s = give(seated_state(jma), 0, "electric-company", "boardwalk", mortgaged=True)
    assert cash(do(s, type="unmortgage", player="Aki", square="electric-company"))[0] == 1500 - 83
    assert cash(do(s, type="unmortgage", player="Aki", square=39))[0] == 1500 - 220


def test_mortgage_refused_with_buildings_in_the_group(jma):
    s = give(seated_state(jma), 0, "baltic-avenue", "mediterranean-avenue")
    s.set_level(3, 1)
    with pytest.raises(IllegalEntry) as err:
        do(s, type="mortgage", player="Aki", square="mediterranean-avenue")
    assert err.value.code == "buildings_in_group"


def test_mortgage_of_a_deed_not_owned_is_refused(jma):
    with pytest.raises(IllegalEntry) as err:
        do(give(seated_state(jma), 1, "boardwalk"), type="mortgage", player="Aki", square="boardwalk")
    assert err.value.code == "not_owner"


def test_unknown_square_is_refused(jma):
    with pytest.raises(IllegalEntry) as err:
        do(seated_state(jma), type="mortgage", player="Aki", square="piccadilly")
    assert err.value.code == "unknown_square"


def test_jma_no_mortgage_during_another_players_doubles(jma):
    s = do(give(seated_state(jma), 1, "boardwalk"), type="roll", player="Aki", dice=[5, 5])
    with pytest.raises(IllegalEntry) as err:
        do(s, type="mortgage", player="Ben", square="boardwalk")
    assert err.value.code == "not_between_turns"
    assert "ゾロ目中" in err.value.clause


def test_jma_unmortgage_only_between_turns(jma):
    s = do(give(seated_state(jma), 0, "boardwalk", mortgaged=True), type="roll", player="Aki", dice=[1, 2])  # Baltic
    with pytest.raises(IllegalEntry) as err:
        do(s, type="unmortgage", player="Aki", square="boardwalk")
    assert err.value.code == "not_between_turns"


def test_classic_mortgage_any_time(classic):
    s = do(give(seated_state(classic), 1, "boardwalk"), type="roll", player="Aki", dice=[5, 5])
    assert do(s, type="mortgage", player="Ben", square="boardwalk").mortgaged[39]


def test_no_deed_is_mortgaged_while_deeds_are_still_being_dealt():
    """A bug found by the legal-actions property test on the shortened game (two deeds dealt before the first
    roll): the rules accepted a mortgage of a dealt deed before every player had been dealt theirs."""
    from referee.services import rulesets
    from referee.engine import Game, Header, IllegalEntry, parse_entry

    game = Game(rulesets.load("classic-short"), Header("classic-short", ("Aki", "Ben", "Chie"), seating="fixed"))
    game.record(parse_entry({"type": "deal", "player": "Chie", "deeds": ["mediterranean-avenue", "boardwalk"]}))
    with pytest.raises(IllegalEntry) as refused:
        game.record(parse_entry({"type": "mortgage", "player": "Chie", "square": "boardwalk"}))
    assert refused.value.code == "not_now"
    assert not game.state.mortgaged[39]
