"""The simulator's invariants (issue 13 keeps them exact while making them cheap): each catches what it names, the
quick per-event checks read counts the state keeps as events apply, and a whole-board recount checks those counts."""
import random

import pytest

from referee.engine import BuildingsChanged, DeedTransferred, Event
from referee.sim.simulate import Invariants, Stats, play_game

from conftest import give, sq, seated_state


def test_the_building_supply_invariant_counts_houses_and_hotels_on_the_board(jma):
    state = give(seated_state(jma), 0, "mediterranean-avenue", "baltic-avenue")
    invariants = Invariants(jma, state)
    built = BuildingsChanged(((sq(state, "mediterranean-avenue"), 4), (sq(state, "baltic-avenue"), state.hotel_level)),
                             -4, -1)  # four houses and a hotel from the bank
    built.apply(state)
    invariants.after(state, built)
    invariants.recount(state, built)
    assert invariants.violations == []  # 4 + 28 houses, 1 + 11 hotels: the supply holds
    state.bank_houses -= 1  # a house gone from the bank onto no square
    invariants.after(state, Event())
    assert invariants.violations == []  # the quick check looks only at what an event can change
    invariants.after(state, built)
    assert invariants.violations == ["BuildingsChanged: building supply: 4+27 houses, 1+11 hotels"]


def test_a_building_written_behind_the_counts_back_is_found_by_the_recount(jma):
    state = give(seated_state(jma), 0, "boardwalk", "park-place")
    invariants = Invariants(jma, state)
    state.buildings[sq(state, "boardwalk")] = state.hotel_level  # not through set_level: the counts miss it
    invariants.after(state, Event())
    assert invariants.violations == []
    invariants.recount(state, Event())
    supply, counts = invariants.violations
    assert supply == "Event: building supply recounted: 0+32 houses, 1+12 hotels"
    # the first count the write missed: Aki's deeds and buildings (Boardwalk 400 + Park Place 350, and a hotel: five
    # building prices of 200)
    assert counts == "Event: holdings_value kept as [750, 0, 0], recounted [1750, 0, 0]"


def test_a_deed_handed_to_a_bankrupt_player_is_a_violation(jma):
    state = give(seated_state(jma), 0, "boardwalk")
    invariants = Invariants(jma, state)
    state.players[1].bankrupt = True
    event = DeedTransferred(sq(state, "boardwalk"), 1)
    event.apply(state)
    invariants.after(state, event)
    assert invariants.violations == [f"DeedTransferred: square {sq(state, 'boardwalk')} owned by 1, who cannot own it"]


@pytest.mark.long  # scripts/test runs it; --fast leaves it out (pyproject.toml's markers)
def test_the_kept_counts_match_a_recount_after_every_event_of_simulated_games(jma):
    stats = Stats()
    for seed in range(6):
        play_game(jma, random.Random(seed), players=4, max_turns=400, stats=stats, recount=True)
    assert stats.violations == [] and stats.invariant_violations == 0
    assert stats.events_by_type["buildings_changed"] == 0  # the events are counted by their kinds:
    assert stats.events_by_type["houses_built"] and stats.events_by_type["hotel_built"]  # buildings went up
    assert stats.events_by_type["trade"] and stats.events_by_type["bankrupt_to_player"]  # deeds changed hands


def test_the_seating_order_moves_every_count_with_its_player(jma):
    """No deed is owned at the seating roll today, but the seating event keeps the counts right whatever the board:
    deeds, their value and whole groups follow their owner to the new seat."""
    from referee.engine import SeatingOrdered

    state = give(seated_state(jma), 2, "boardwalk", "park-place")
    state = give(state, 0, "baltic-avenue")
    SeatingOrdered((2, 0, 1)).apply(state)  # the third player rolled highest: now seat 0
    assert state.counts_problem() is None
    assert state.owner[sq(state, "boardwalk")] == 0 and state.owner[sq(state, "baltic-avenue")] == 1
    assert state.group_owner["dark-blue"] == 0 and state.holdings_value[0] == 750
