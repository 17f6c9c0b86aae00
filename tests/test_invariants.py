"""The simulator's invariants (issue 13 keeps them exact while making them cheap): each catches what it names."""
from referee.engine.events import Event
from referee.simulate import Invariants

from conftest import give, sq, table


def test_the_building_supply_invariant_counts_houses_and_hotels_on_every_square(jma):
    state = give(table(jma), 0, "mediterranean-avenue", "baltic-avenue")
    invariants = Invariants(jma, state)
    state.buildings[sq(state, "mediterranean-avenue")] = 4  # four houses from the bank
    state.bank_houses -= 4
    state.buildings[sq(state, "baltic-avenue")] = state.hotel_level  # a hotel from the bank
    state.bank_hotels -= 1
    invariants.after(state, Event())
    assert invariants.violations == []  # 4 + 28 houses, 1 + 11 hotels: the supply holds
    state.bank_houses -= 1  # a house gone from the bank onto no square
    invariants.after(state, Event())
    assert invariants.violations == ["Event: building supply: 4+27 houses, 1+11 hotels"]


def test_a_building_that_appears_from_nowhere_is_a_violation(jma):
    state = give(table(jma), 0, "boardwalk", "park-place")
    invariants = Invariants(jma, state)
    state.buildings[sq(state, "boardwalk")] = state.hotel_level
    invariants.after(state, Event())
    assert invariants.violations == ["Event: building supply: 0+32 houses, 1+12 hotels"]
