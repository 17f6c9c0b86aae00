"""Mortgaging and lifting mortgages, with JMA's timing."""
import pytest

from referee.engine import IllegalEntry

from conftest import cash, do, give, table


def test_mortgage_pays_the_mortgage_value(jma):
    s = do(give(table(jma), 0, "boardwalk"), type="mortgage", player="Aki", square="boardwalk")
    assert s.mortgaged[39] and cash(s)[0] == 1700


def test_unmortgage_costs_the_value_plus_10_percent_rounded_up(jma):
    s = give(table(jma), 0, "electric-company", "boardwalk", mortgaged=True)
    assert cash(do(s, type="unmortgage", player="Aki", square="electric-company"))[0] == 1500 - 83
    assert cash(do(s, type="unmortgage", player="Aki", square=39))[0] == 1500 - 220


def test_mortgage_refused_with_buildings_in_the_group(jma):
    s = give(table(jma), 0, "baltic-avenue", "mediterranean-avenue")
    s.set_level(3, 1)
    with pytest.raises(IllegalEntry) as err:
        do(s, type="mortgage", player="Aki", square="mediterranean-avenue")
    assert err.value.code == "buildings_in_group"


def test_mortgage_of_a_deed_not_owned_is_refused(jma):
    with pytest.raises(IllegalEntry) as err:
        do(give(table(jma), 1, "boardwalk"), type="mortgage", player="Aki", square="boardwalk")
    assert err.value.code == "not_owner"


def test_unknown_square_is_refused(jma):
    with pytest.raises(IllegalEntry) as err:
        do(table(jma), type="mortgage", player="Aki", square="piccadilly")
    assert err.value.code == "unknown_square"


def test_jma_no_mortgage_during_another_players_doubles(jma):
    s = do(give(table(jma), 1, "boardwalk"), type="roll", player="Aki", dice=[5, 5])
    with pytest.raises(IllegalEntry) as err:
        do(s, type="mortgage", player="Ben", square="boardwalk")
    assert err.value.code == "not_between_turns"
    assert "ゾロ目中" in err.value.clause


def test_jma_unmortgage_only_between_turns(jma):
    s = do(give(table(jma), 0, "boardwalk", mortgaged=True), type="roll", player="Aki", dice=[1, 2])  # Baltic
    with pytest.raises(IllegalEntry) as err:
        do(s, type="unmortgage", player="Aki", square="boardwalk")
    assert err.value.code == "not_between_turns"


def test_classic_mortgage_any_time(classic):
    s = do(give(table(classic), 1, "boardwalk"), type="roll", player="Aki", dice=[5, 5])
    assert do(s, type="mortgage", player="Ben", square="boardwalk").mortgaged[39]
