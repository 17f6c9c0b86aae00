"""Any input at all: the engine refuses with a reason or applies, never crashes, never half-applies."""
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.services import rulesets
from referee.engine import Game, Header, MalformedEntry, RefereeError, legal_actions, parse_entry
from referee.sim.policy import Policy
from referee.sim.simulate import Invariants

NAMES = ("Aki", "Ben", "Chie", "Zed", "", 7)
TYPES = ("seat_roll", "roll", "buy", "decline", "bid", "hammer", "income_tax", "card", "rent_roll", "pay_bail",
         "use_jail_card", "mortgage", "unmortgage", "bankrupt", "build", "withdraw_build", "close_builds",
         "place_building", "sell_buildings", "trade", "time_called", "rolloff", "deal", "void", "teleport")
values = st.one_of(st.none(), st.booleans(), st.integers(-5, 2000), st.text(max_size=12),
                   st.sampled_from(["boardwalk", "go", "hotel", "chance-go-to-jail", "Aki", "Ben"]),
                   st.lists(st.integers(-1, 7), max_size=3))
entries = st.fixed_dictionaries({"type": st.sampled_from(TYPES)}, optional={
    "player": st.sampled_from(NAMES), "dice": st.lists(st.integers(0, 7), min_size=0, max_size=3),
    "amount": values, "card": values, "square": values, "count": values, "choice": values,
    "partner": st.sampled_from(NAMES), "targets": st.dictionaries(st.sampled_from(["boardwalk", "park-place", "9"]),
                                                                   values, max_size=2),
    "give": st.dictionaries(st.sampled_from(["cash", "deeds", "cards", "x"]), values, max_size=2),
    "take": st.dictionaries(st.sampled_from(["cash", "deeds", "cards"]), values, max_size=2),
    "deeds": values, "players": st.lists(st.sampled_from(NAMES), max_size=3)})


@pytest.mark.long  # scripts/test runs it; --fast leaves it out (pyproject.toml's markers)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), noise=st.lists(entries, min_size=1, max_size=25))
def test_random_and_forged_entries_are_refused_or_applied_and_the_invariants_hold(seed, noise):
    ruleset = rulesets.load("jma-2006")
    game = Game(ruleset, Header("jma-2006", ("Aki", "Ben", "Chie")))
    policy = Policy(random.Random(seed), "random")
    invariants = Invariants(ruleset, game.initial)
    for data in noise:
        for _ in range(3):  # some legal play between the forged entries
            if game.state.over:
                break
            shadow = game.state.copy()
            outcome = game.record(policy.choose(game.state, legal_actions(game.state)))
            for event in outcome.events:  # every event on its own, as referee simulate checks them
                event.apply(shadow)
                invariants.after(shadow, event)
                invariants.recount(shadow, event)
        before = json.dumps([game.state.players[i].cash for i in range(3)]), len(game.entries)
        shadow = game.state.copy()
        try:
            outcome = game.record(parse_entry(data))
        except (MalformedEntry, RefereeError) as exc:
            assert exc.message and exc.code
            assert (json.dumps([game.state.players[i].cash for i in range(3)]), len(game.entries)) == before
        else:
            if data["type"] == "void":  # a correction refolds the record: the money is counted afresh
                invariants.money = sum(p.cash for p in game.state.players) + game.state.pot
            for event in outcome.events:
                event.apply(shadow)
                invariants.after(shadow, event)
                invariants.recount(shadow, event)
    assert not invariants.violations
