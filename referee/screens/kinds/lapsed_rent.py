"""A rent whose owner's claim lapsed, given back (the engine's :mod:`referee.engine.kinds.lapsed_rent`), as the
screens show it: a confirmation under the decision for each rent that lapses now
(``templates/table/kinds/lapsed_rent.html``), and its line in the log."""
from __future__ import annotations

from ...engine import Action, Entry, EntryFacts, GameState, Ruleset
from ...language import gettext as _
from ..kind import Buttons, Confirmation, EntryScreen, register_screen
from ..words import money, square_name, square_words


def rent_offers(state: GameState, actions: list[Action]) -> list[Confirmation]:
    """Each rent whose claim lapses now: what it was, and what giving it back does."""
    offers = []
    for n, a in enumerate(actions, start=1):
        assert a.player is not None  # a rent is always someone's
        player, owner = state.players[a.player].name, state.players[a.detail["owner"]].name
        amount, square = money(state, a.detail["amount"]), square_name(state, a.detail["square"])
        offers.append(Confirmation(
            str(n), {"type": "rent_not_claimed", "player": player, "square": a.detail["square"]},
            _("Rent not claimed: %(amount)s on %(square)s", amount=amount, square=square),
            _("%(owner)s did not ask %(player)s for the %(amount)s rent on %(square)s before this turn began: the "
              "claim has lapsed and the rent goes back.", owner=owner, player=player, amount=amount, square=square),
            _("Yes: %(amount)s back to %(player)s", amount=amount, player=player)))
    return offers


def _sentence(entry: Entry, ruleset: Ruleset, facts: EntryFacts | None) -> str:
    square = square_words(ruleset, entry.square if entry.square is not None else "")
    return _("%(player)s gets back the rent paid on %(square)s: its owner did not claim it in time",
             player=entry.player, square=square)


register_screen(EntryScreen(
    "rent_not_claimed", lambda: _("a rent not claimed in time"), _sentence,
    reasons=lambda: {"rent_not_claimed": _("back: rent not claimed in time")},
    buttons=Buttons("rentclaim", rent_offers, "table/kinds/lapsed_rent.html")))
