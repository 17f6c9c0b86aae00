"""Where a clause comes from, in the device's language: a ruleset's ``source`` names published documents and their
sections as the ruleset file writes them (English, or the original's own words: JMA 補足ルール「土地」); the device
is shown them phrase by phrase in its language (``rulesets/notes/sources.toml``), with the source as written beside
them when the two differ."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..language import current, gettext as _

if TYPE_CHECKING:  # a clause of a loaded ruleset
    from ..engine.ruleset import Clause, Ruleset


def source_words(source: str) -> str:
    """``source`` in the device's language, with the source as written beside it where the two differ:
    "JMA competition rules 2006, supplementary rules “Deeds” (JMA 補足ルール「土地」)"."""
    shown = current().source_in(source)
    return _("%(source)s (%(original)s)", source=shown, original=source) if shown != source else source


def original_language(ruleset: Ruleset, clause: Clause) -> str:
    """The language of a clause's original words, the authority: the ruleset's own (its ``clause_language``), else
    the first the clause gives ("" when it gives none)."""
    return ruleset.clause_language if ruleset.clause_language in clause.text else next(iter(clause.text), "")


def reading_language(clause: Clause) -> str:
    """The language the device reads a clause's translation in: its own, where the ruleset gives the clause in it,
    else English."""
    lang = current().code
    return lang if lang in clause.text else "en"


def clause_words(ruleset: Ruleset, clause: Clause) -> str:
    """A clause as a refusal, a hint or a ruling cites it, in the device's language: its source phrase by phrase and
    its text in that language (:func:`reading_language`, as the rules page shows it), with the clause as the
    ruleset writes it (the source as written, the text in the ruleset's own language) beside them where the two
    differ."""
    language = current()
    own = original_language(ruleset, clause)
    original = f"{clause.source}: {clause.text[own]}" if own else clause.source
    words = clause.text.get(reading_language(clause)) or (clause.text[own] if own else "")
    shown = f"{language.source_in(clause.source)}: {words}" if words else language.source_in(clause.source)
    return _("%(source)s (%(original)s)", source=shown, original=original) if shown != original else original
