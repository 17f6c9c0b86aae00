"""legal_actions asks cheap predicates and builds no refusal (issue 13); the refusals, built only when an entry is
refused or a reason is asked for, must agree with them exactly.  Checked over every state of simulated games, in
each shipped ruleset, for every player and deed."""
import random

import pytest

from referee.services import rulesets
from referee.engine import (AwaitRoll, Game, GameOver, Header, IllegalEntry, even_layouts_below, even_targets,
                            legal_actions, plan_change, resolve, sale_refusal, smallest_sale, trade_context)
from referee.engine.building import buildable_group_refusal, group_buildable
from referee.engine.declarations import bid_payment_mortgage_refusal, keeps_last_group
from referee.engine.mortgages import may_mortgage, may_unmortgage, mortgage_refusal, unmortgage_refusal
from referee.engine.timing import build_timing_allows, build_timing_refusal, timing_allows, timing_refusal
from referee.sim.simulate import play_game


def states(ruleset_id: str, games: int = 3):
    ruleset = rulesets.load(ruleset_id)
    for seed in range(games):
        game = play_game(ruleset, random.Random(seed), players=4, max_turns=250, check=False)
        state = game.initial
        for entry in game.entries:
            yield state
            state = resolve(state, entry).state
        yield state


@pytest.mark.long  # scripts/test runs it; --fast leaves it out (pyproject.toml's markers)
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


ALL_KINDS = ("roll", "pay_bail", "use_jail_card", "buy", "decline", "bid", "hammer", "income_tax", "card",
             "rent_roll", "bankrupt", "build", "withdraw_build", "close_builds", "place_building", "sell_buildings",
             "trade", "time_called", "mortgage", "unmortgage", "seat_roll", "rolloff", "deal")


def _seen(actions):
    return [(a.type, a.player, a.detail) for a in actions]


@pytest.mark.long  # simulated games: scripts/test runs it, --fast leaves it out
@pytest.mark.parametrize("ruleset_id", sorted(rulesets.available()))
def test_legal_actions_of_some_kinds_or_one_player_are_the_full_list_filtered(ruleset_id):
    """legal_actions(state, kinds, player) works out only what is asked for: the same actions, in the same order,
    as the whole list filtered."""
    asked = [(kind,) for kind in ALL_KINDS] + [("mortgage", "unmortgage"), ("roll", "pay_bail", "use_jail_card"),
                                               ("bid", "hammer"), ("build", "trade", "sell_buildings")]
    checked = 0
    for n, state in enumerate(states(ruleset_id, games=2)):
        if n % 3:
            continue  # every third state: the full list is asked for dozens of times per state
        everything = legal_actions(state)
        for player in [None] + list(range(len(state.players))):
            mine = [a for a in everything if player is None or a.player == player]
            assert _seen(legal_actions(state, None, player)) == _seen(mine)
            for kinds in asked:
                assert _seen(legal_actions(state, kinds, player)) == _seen([a for a in mine if a.type in kinds])
                checked += 1
    assert checked > 10000


@pytest.mark.long  # simulated games: scripts/test runs it, --fast leaves it out
def test_the_simulated_policy_checks_a_trade_as_the_rules_work_it_out(jma):
    """The policy checks the trades it proposes with trade_refusal alone (no copy of the state worked out):
    for every offer it makes in simulated games, that check and recording the trade agree."""
    from referee.sim.policy import Policy, trade_allowed

    compared = allowed = 0
    for state in states("jma-2006", games=4):
        policy = Policy(random.Random(compared), "random")
        for seller in state.active:
            buyers = tuple(b for b in state.active if b != seller)
            for entry in (policy._sell_deed(state, seller, buyers), policy._buy_jail_card(state, seller)):
                if entry is None:
                    continue
                try:
                    resolve(state, entry)
                    accepted = True
                except IllegalEntry:
                    accepted = False
                assert trade_allowed(state, entry) == accepted, entry
                compared += 1
                allowed += accepted
    assert compared > 500 and 0 < allowed < compared


@pytest.mark.parametrize("ruleset_id", ["jma-2006", "korean-house", "classic-short"])
def test_the_simulated_policy_reuses_its_build_options_only_while_the_colour_groups_are_unchanged(ruleset_id):
    """The policy asks legal_actions for the building declarations before a roll only when the colour groups have changed
    (``state.groups_version``): at every roll awaited in simulated games, played in place as the simulator plays
    them, what it kept is what legal_actions lists afresh."""
    from referee.sim.policy import Menu, Policy

    ruleset = rulesets.load(ruleset_id)
    compared = reused = offered = 0
    for seed in range(3):
        game = Game(ruleset, Header(ruleset.id, ["Aki", "Ben", "Chie", "Dai"]), in_place=True)
        policy = Policy(random.Random(seed), "random")
        while type(game.state.pending) is not GameOver and game.state.turn < 300:
            state = game.state
            if type(state.pending) is AwaitRoll:
                reused += policy._builds_of is state and policy._builds_board == state.groups_version
                fresh = legal_actions(state, ("build",))
                assert _seen(policy._build_options(state, Menu(state))) == _seen(fresh)
                compared += 1
                offered += bool(fresh)
            game.record(policy.choose(state))
    assert compared > 500 and reused > 100 and offered > 100


def built_groups(ruleset_id: str):
    """In the states of simulated games, every colour group with buildings: the state, the group, its owner, and
    whether the owner is in debt or not (both, where the state says they are)."""
    for state in states(ruleset_id, games=3):
        p = state.pending
        for gid, group in state.ruleset.groups.items():
            owner = state.owner[group.squares[0]]
            if owner is not None and state.group_levels[gid]:
                for in_debt in {False, type(p).__name__ == "Debt" and p.debtor == owner}:
                    yield state, gid, owner, in_debt


@pytest.mark.long  # simulated games: scripts/test runs it, --fast leaves it out
@pytest.mark.parametrize("ruleset_id", ["jma-2006", "classic"])
def test_sale_allowed_agrees_with_sale_refusal_for_every_even_sale_in_simulated_games(ruleset_id):
    """smallest_sale asks the cheap predicate; the refusal, made when a sale is recorded, must agree with it: for
    every group with buildings and even layout below today's, its owner in debt or not (as the state says)."""
    from referee.engine.building import sale_allowed

    checked = refused = 0
    for state, gid, owner, in_debt in built_groups(ruleset_id):
        for levels in even_layouts_below(state, state.ruleset.groups[gid].squares):
            change = plan_change(state, owner, levels, selling=True)
            allowed = sale_allowed(state, change, in_debt)
            assert allowed == (sale_refusal(state, change, in_debt) is None)
            checked += 1
            refused += not allowed
    assert checked > 200
    assert refused > 10 or rulesets.load(ruleset_id).options.hotel_breakdown != "debtors_only"


@pytest.mark.long  # simulated games: scripts/test runs it, --fast leaves it out
@pytest.mark.parametrize("ruleset_id", ["jma-2006", "classic"])
def test_smallest_sale_is_the_first_even_sale_below_today_the_rules_allow(ruleset_id):
    """smallest_sale passes over a hotel broken into houses from the bank by a player not in debt before planning
    the sale; what it finds must be the first even layout, from today's total down, whose sale the rules accept
    (each planned and checked in full): for every group with buildings in simulated games, its owner in debt or
    not."""
    from referee.engine.building import sale_allowed

    def accepted(state, owner, gid, in_debt, total):
        try:
            change = plan_change(state, owner, even_targets(state, gid, total), selling=True)  # none above today's
        except IllegalEntry:
            return None
        return change.levels if sale_allowed(state, change, in_debt) else None

    compared = passed_over = 0
    for state, gid, owner, in_debt in built_groups(ruleset_id):
        totals = range(state.group_levels[gid] - 1, -1, -1)
        first = next((levels for total in totals if (levels := accepted(state, owner, gid, in_debt, total))), None)
        found = smallest_sale(state, owner, gid, in_debt)
        assert (found and found.levels) == first
        compared += 1
        lots = state.ruleset.groups[gid].squares
        passed_over += not in_debt and state.hotel_level in (state.buildings[sq] for sq in lots)
    assert compared > 200 and passed_over > 10


@pytest.mark.long  # simulated games: scripts/test runs it, --fast leaves it out
@pytest.mark.parametrize("ruleset_id", ["jma-2006", "classic", "korean-house"])
def test_the_simulated_policy_draws_mortgages_from_what_legal_actions_lists(ruleset_id):
    """The policy draws a mortgage, or the lifting of one, from mortgage_choices without making the actions
    (Menu.mortgages): in every state of simulated games, for everyone and for each player, the same choices in the
    same order as legal_actions lists (lifts first where both are asked for)."""
    from referee.sim.policy import Menu

    def listed(state, kinds, player=None):
        actions = legal_actions(state)
        return [(a.type, a.player, a.detail["square"]) for kind in kinds for a in actions
                if a.type == kind and (player is None or a.player == player)]

    compared = offered = 0
    for state in states(ruleset_id, games=2):
        both = ("unmortgage", "mortgage")
        assert Menu(state).mortgages(both) == listed(state, both)
        for i in range(len(state.players)):
            assert Menu(state).mortgages(("mortgage",), i) == listed(state, ("mortgage",), i)
        compared += 1
        offered += bool(Menu(state).mortgages(both))
    assert compared > 300 and offered > 100
