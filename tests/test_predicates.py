"""legal_actions asks cheap predicates and builds no refusal (issue 13); the refusals, built only when an entry is
refused or a reason is asked for, must agree with them exactly.  Checked over every state of simulated games, in
each shipped ruleset, for every player and deed."""
import random

import pytest

from referee import rulesets
from referee.engine import legal_actions, resolve
from referee.engine.building import buildable_group_refusal, group_buildable
from referee.engine.declarations import bid_payment_mortgage_refusal, keeps_last_group
from referee.engine.mortgages import may_mortgage, may_unmortgage, mortgage_refusal, unmortgage_refusal
from referee.engine.timing import build_timing_allows, build_timing_refusal, timing_allows, timing_refusal
from referee.engine.trading import trade_context
from referee.simulate import play_game


def states(ruleset_id: str, games: int = 3):
    ruleset = rulesets.load(ruleset_id)
    for seed in range(games):
        game = play_game(ruleset, random.Random(seed), players=4, max_turns=250, check=False)
        state = game.initial
        for entry in game.entries:
            yield state
            state = resolve(state, entry).state
        yield state


@pytest.mark.parametrize("ruleset_id", sorted(rulesets.available()))
def test_each_predicate_agrees_with_its_refusal_in_every_state_of_simulated_games(ruleset_id):
    checked = 0
    for state in states(ruleset_id):
        deeds = [sq.index for sq in state.ruleset.squares if sq.is_property]
        for i in range(len(state.players)):
            for square in deeds:
                assert may_mortgage(state, i, square) == (mortgage_refusal(state, i, square) is None)
                assert may_unmortgage(state, i, square) == (unmortgage_refusal(state, i, square) is None)
                assert keeps_last_group(state, i, square) == (bid_payment_mortgage_refusal(state, i, square)
                                                              is not None)
            for group in state.ruleset.groups:
                assert group_buildable(state, i, group) == (buildable_group_refusal(state, i, group) is None)
            assert build_timing_allows(state, i) == (build_timing_refusal(state, i) is None)
            for for_payment in (True, False):
                for negotiating in (True, False):
                    assert timing_allows(state, i, for_payment, negotiating) == (
                        timing_refusal(state, i, "mortgage", for_payment, negotiating) is None)
            checked += 1
    assert checked > 1000


@pytest.mark.parametrize("ruleset_id", sorted(rulesets.available()))
def test_legal_actions_lists_exactly_the_mortgages_and_trades_the_rules_accept(ruleset_id):
    for state in states(ruleset_id, games=2):
        actions = legal_actions(state)
        listed = {(a.type, a.player, a.detail["square"]) for a in actions if a.type in ("mortgage", "unmortgage")}
        accepted = {(kind, i, sq) for i in state.active for sq in state.deeds_of(i)
                    for kind, refusal in (("mortgage", mortgage_refusal), ("unmortgage", unmortgage_refusal))
                    if refusal(state, i, sq) is None}
        assert listed == accepted
        trades = {a.player: a.detail["partners"] for a in actions if a.type == "trade"}
        p = state.pending
        expected = {}
        for a in state.active:
            partners = tuple(b for b in state.active if b != a and trade_context(state, a, b) is not None)
            if partners and (type(p).__name__ != "Debt" or a == p.debtor):
                expected[a] = partners
        assert trades == expected
