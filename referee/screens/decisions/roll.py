"""The roll the table waits for: the dice pad, what makes this roll special (the last one after time is called, a
roll in jail, a roll again after doubles) and, in jail, the ways out before rolling."""
from __future__ import annotations

from dataclasses import dataclass

from ...engine import AwaitRoll, card_for_sale, GameState
from ...language import gettext as _
from ..words import per_language, Why, why
from .base import Decision, pending_as, Seen


@dataclass(frozen=True, slots=True)
class AwaitRollCard:
    player: str  # (what makes this roll special is the table screen's ``roll_notes``: the display shows them too)
    bail: int | None  # the fine that lets the player out before rolling (None: not offered)
    jail_card: bool  # a get-out-of-jail card may be used
    skip: bool  # a turn may be skipped instead of the fine

    @property
    def jail_ways(self) -> bool:
        return self.bail is not None or self.jail_card or self.skip


@per_language
def _ordinals() -> dict[int, str]:
    return {2: _("a second"), 3: _("a third"), 4: _("a fourth"), 5: _("a fifth"), 6: _("a sixth"),
            7: _("a seventh"), 8: _("an eighth"), 9: _("a ninth"), 10: _("a tenth")}


def roll_notes(state: GameState) -> list[Why]:
    """What makes the roll the table waits for special, for the dice pad: the last roll of the game after time
    is called, a roll in jail (and which attempt), a roll again after doubles (and how many)."""
    p = state.pending
    if not isinstance(p, AwaitRoll):
        return []
    rs = state.ruleset
    opts = rs.options
    player = state.players[p.player]
    name = player.name
    notes = []
    if state.time_called and opts.after_time_called == "one_more_roll" and not state.final_roll:
        notes.append(why(rs, _("Last roll of the game: time has been called. Once this roll and all it brings are "
                               "settled, the game ends and is ranked; doubles give no further roll."),
                         "after_time_called"))
    elif state.time_called and opts.after_time_called == "equal_turns":
        notes.append(why(rs, _("Time has been called: play goes on until %(player)s's turn is over, so that "
                               "everyone has had as many turns; then the game ends and is ranked.",
                               player=state.players[max(state.active)].name), "after_time_called"))
    if player.in_jail:
        n, most = player.jail_rolls + 1, opts.jail_max_rolls
        if n >= most:
            fine = rs.money_text(rs.money.bail)
            if player.jail_cards:
                text = _("%(player)s is in jail: roll %(n)s of %(max)s, the last. Without doubles, %(player)s pays "
                         "the %(fine)s fine or uses a get-out-of-jail card, and the token moves by this roll.",
                         player=name, n=n, max=most, fine=fine)
            elif card_for_sale(state, p.player):
                text = _("%(player)s is in jail: roll %(n)s of %(max)s, the last. Without doubles, %(player)s pays "
                         "the %(fine)s fine, or first buys a get-out-of-jail card from another player and uses it, and "
                         "the token moves by this roll.", player=name, n=n, max=most, fine=fine)
            else:
                text = _("%(player)s is in jail: roll %(n)s of %(max)s, the last. Without doubles, %(player)s pays "
                         "the %(fine)s fine and the token moves by this roll.", player=name, n=n, max=most, fine=fine)
        else:
            text = _("%(player)s is in jail: roll %(n)s of %(max)s. Doubles let %(player)s out and the token moves "
                     "by the roll.", player=name, n=n, max=most)
        notes.append(why(rs, text, "jail_release"))
    elif state.doubles and p.player == state.current:
        limit = opts.doubles_to_jail
        notes.append(why(rs, _("%(player)s rolls again: doubles %(n)s of %(limit)s — %(nth)s doubles in a row "
                               "sends %(player)s to jail", player=name, n=state.doubles, limit=limit,
                               nth=_ordinals().get(limit, str(limit))), "doubles_to_jail"))
    return notes


def _card(seen: Seen) -> AwaitRollCard | None:
    a = seen.first("roll")
    if a is None:
        return None
    bail = seen.first("pay_bail")
    return AwaitRollCard(seen.name(a.by), bail.detail["amount"] if bail is not None else None,
                         "use_jail_card" in seen.actions,
                         "skip_jail_turn" in seen.actions)


DECISIONS = (Decision((AwaitRoll,), lambda state: _("waiting for {player} to roll").format(
    player=state.players[pending_as(state, AwaitRoll).player].name), "table/decisions/roll.html", card=_card),)
