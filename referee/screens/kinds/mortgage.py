"""A deed mortgaged, and a mortgage lifted (the engine's :mod:`referee.engine.kinds.mortgage`), as the screens show
them: one panel of buttons for both, each with its amount (``templates/table/kinds/mortgage.html``); their lines in
the log, their payments' words, their refusals' titles."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...engine import Action, Entry, EntryFacts, GameState, Ruleset
from ...language import gettext as _
from ..kind import Buttons, EntryScreen, register_screen
from ..words import money, per_language, square_name, square_words


def _l(text: str) -> str:
    """A refusal's title as written (English), marked for the catalogues: put in the device's language where shown."""
    return text


@dataclass(frozen=True, slots=True)
class Tap:
    """One button of the mortgages panel: the entry it records, and what it says (the player, the deed and the
    amount paid or received)."""

    entry: dict[str, Any]
    label: str


def mortgage_offers(state: GameState, actions: list[Action]) -> list[Tap]:
    """The mortgages panel: every deed that may be mortgaged (with its mortgage value), then every mortgage that may
    be lifted (with what lifting it costs)."""
    taps = []
    for a in actions:
        assert a.player is not None  # a deed is always someone's
        name, square = state.players[a.player].name, a.detail["square"]
        entry = {"type": a.type, "player": name, "square": state.ruleset.squares[square].id}
        if a.type == "mortgage":
            label = _("%(player)s: mortgage %(square)s +%(amount)s", player=name, square=square_name(state, square),
                      amount=money(state, a.detail["value"]))
        else:
            label = _("%(player)s: lift %(square)s −%(amount)s", player=name, square=square_name(state, square),
                      amount=money(state, a.detail["cost"]))
        taps.append(Tap(entry, label))
    return taps


@per_language
def _mortgage_reasons() -> dict[str, str]:
    return {"mortgage": _("mortgage")}


@per_language
def _unmortgage_reasons() -> dict[str, str]:
    return {"unmortgage": _("to lift a mortgage")}


def _square(entry: Entry, ruleset: Ruleset) -> str:
    return square_words(ruleset, entry.square if entry.square is not None else "")


def _mortgage(entry: Entry, ruleset: Ruleset, facts: EntryFacts | None) -> str:
    return _("%(player)s mortgages %(square)s", player=entry.player, square=_square(entry, ruleset))


def _unmortgage(entry: Entry, ruleset: Ruleset, facts: EntryFacts | None) -> str:
    return _("%(player)s lifts the mortgage on %(square)s", player=entry.player, square=_square(entry, ruleset))


register_screen(EntryScreen(
    "mortgage", lambda: _("a mortgage"), _mortgage, reasons=_mortgage_reasons,
    titles={"already_mortgaged": _l("Already mortgaged")},
    buttons=Buttons("mortgages", mortgage_offers, "table/kinds/mortgage.html", panel=lambda: _("Mortgages"),
                    ahead=True)))
register_screen(EntryScreen(
    "unmortgage", lambda: _("lifting a mortgage"), _unmortgage,
    reasons=_unmortgage_reasons, titles={"not_mortgaged": _l("Not mortgaged")}))
