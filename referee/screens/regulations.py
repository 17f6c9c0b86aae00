"""A tournament's regulations in words, in the device's language: each one in force as the rules page names its
option and says its value ("Fine for dice leaving the table: $50"), with the ruleset's clause that puts them above
its rules (JMA 補足ルール「総則」), and the new-tournament form's words for each regulation's field."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from ..engine import Ruleset
from ..language import current_language, gettext as _
from .rules_page import FINE_OPTIONS, clause_label, option_value_words
from .sources import clause_words
from .words import per_language

CLAUSE = "regulations"  # the ruleset's clause that puts a tournament's regulations first (where its text has one)


@dataclass(frozen=True)
class RegulationWords:
    """The regulations in force, each in words, and the clause that puts them above the ruleset's rules, cited in
    the device's language with the original beside it ("" where the ruleset's text says nothing of them)."""

    items: tuple[str, ...]
    clause: str

    @property
    def text(self) -> str:
        """The regulations in one line, as a stage's parts are joined (stage_words)."""
        return ("、" if current_language() == "ja" else "; ").join(self.items)


def regulation_words(ruleset: Ruleset, in_force: Sequence[tuple[str, Any]]) -> RegulationWords:
    """``in_force``: (option, value) of each regulation set, as the tournament rules list them."""
    clause = ruleset.clauses.get(CLAUSE)
    return RegulationWords(
        tuple(_("%(rule)s: %(value)s", rule=clause_label(option), value=_value_words(ruleset, option, value))
              for option, value in in_force),
        clause_words(ruleset, clause) if clause is not None else "")


def _value_words(ruleset: Ruleset, option: str, value: Any) -> str:
    if option in FINE_OPTIONS and not value:
        return _("no fine")
    return option_value_words(ruleset, option, value)


@per_language
def _field_words() -> dict[str, str]:
    return {
        "dealt_deeds": _("two deeds dealt to each player, bought at face value in reverse seat order (pairs of one "
                         "colour, two railroads or two utilities are dealt again)"),
        "trades_before_first_go": _("no trades except debt negotiation until some player has passed GO"),
        "after_time_called": _("after time is called, play on until every player has had as many turns (the round "
                               "ends when the first player's turn comes round again)"),
    }


def regulation_field_words(option: str) -> str:
    """The new-tournament form's words for a regulation's field: a switch's sentence, else the option's name."""
    return _field_words().get(option) or clause_label(option)
