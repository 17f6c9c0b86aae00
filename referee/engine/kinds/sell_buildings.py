"""A sale of buildings back to the bank, for half of what they cost.

JMA 2006: "権利書の抵当入れ、抵当戻し、家等の売却は、家等の建設および競売より優先となります。"  Official rules: "At any
time a player may, to raise cash, sell hotels and houses back to the Bank for half the purchase price of the houses
or hotels."  The lots are sold evenly, as they are built; what a sale leaves and what the bank pays is
:mod:`..building`'s (:func:`~..building.plan_change`, :func:`~..building.sale_refusal`), which the sell panel and
the debt's screens ask too.  Where buildings go back only with their street, sold on landing there (German
variant, option ``landing_on_own``), no sale is recorded.
"""
from __future__ import annotations

from ..building import apply_change, entry_targets, plan_change, sale_refusal
from ..entries import Action, Entry
from ..registry import EntryType, register
from ..state import Debt, GameState
from ..step import Step
from ..timing import timing_allows, timing_refusal


def _sell_buildings(step: Step, entry: Entry) -> None:
    s = step.state
    who = step.player(entry.player, entry.type)
    if s.ruleset.options.landing_on_own != "nothing":
        raise step.refuse("sell_on_landing", "buildings go back to the bank only with their street, sold on landing "
                          "there", "landing_on_own")
    timing = timing_refusal(s, who, "sell_buildings", for_payment=True)
    if timing:
        raise timing
    change = plan_change(s, who, entry_targets(step, entry), selling=True)
    in_debt = isinstance(s.pending, Debt) and s.pending.debtor == who
    refusal = sale_refusal(s, change, in_debt)
    if refusal:
        raise refusal
    apply_change(step, change, "buildings_sold")


def sale_actions(state: GameState, player: int | None = None) -> list[Action]:
    """The sales of buildings that may be recorded now (``player``: that player's only), for legal_actions: one per
    group with buildings."""
    out: list[Action] = []
    built = [gid for gid, levels in state.group_levels.items() if levels]
    if not built or state.ruleset.options.landing_on_own != "nothing":
        return out
    for i in state.active if player is None else (player,):
        if not timing_allows(state, i, for_payment=True):
            continue
        for gid in built:
            squares = state.ruleset.groups[gid].squares
            if state.owner[squares[0]] == i:
                out.append(Action("sell_buildings", i, {"group": gid, "squares": squares}))
    return out


SELL_BUILDINGS = register(EntryType("sell_buildings", ("player", "targets"), _sell_buildings, offered=sale_actions))
