"""Where a clause comes from, in the device's language: a ruleset's ``source`` names published documents and their
sections as the ruleset file writes them (English, or the original's own words: JMA 補足ルール「土地」); the device
is shown them phrase by phrase in its language (``rulesets/notes/sources.toml``), with the source as written beside
them when the two differ."""
from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

from ..i18n import current_language, gettext as _
from ..services import rulesets

if TYPE_CHECKING:  # a clause of a loaded ruleset
    from ..engine.ruleset import Clause, Ruleset


@lru_cache(maxsize=None)
def _phrases(lang: str) -> tuple[re.Pattern | None, dict[str, str]]:
    """The phrases that have words in ``lang``, as one pattern (the longest phrase first; a phrase of Latin
    letters only where it stands as whole words) and their words."""
    words = {phrase: names[lang] for phrase, names in rulesets.source_names().items() if lang in names}
    if not words:
        return None, {}
    alternatives = [rf"(?<![A-Za-z]){re.escape(p)}(?![A-Za-z])" if p[:1].isascii() and p[-1:].isascii()
                    else re.escape(p) for p in sorted(words, key=len, reverse=True)]
    return re.compile("|".join(alternatives)), words


def source_in(source: str, lang: str) -> str:
    """``source`` in the words of ``lang`` (phrases with no words in that language kept as written)."""
    pattern, words = _phrases(lang)
    if pattern is None or not source:
        return source
    return pattern.sub(lambda m: words[m.group(0)], source).strip()


def source_words(source: str) -> str:
    """``source`` in the device's language, with the source as written beside it where the two differ:
    "JMA competition rules 2006, supplementary rules “Deeds” (JMA 補足ルール「土地」)"."""
    shown = source_in(source, current_language())
    return _("%(source)s (%(original)s)", source=shown, original=source) if shown != source else source


def original_language(ruleset: Ruleset, clause: Clause) -> str:
    """The language of a clause's original words, the authority: the ruleset's own (its ``clause_language``), else
    the first the clause gives ("" when it gives none)."""
    return ruleset.clause_language if ruleset.clause_language in clause.text else next(iter(clause.text), "")


def reading_language(clause: Clause) -> str:
    """The language the device reads a clause's translation in: its own, where the ruleset gives the clause in it,
    else English."""
    lang = current_language()
    return lang if lang in clause.text else "en"


def clause_words(ruleset: Ruleset, clause: Clause) -> str:
    """A clause as a refusal, a hint or a ruling cites it, in the device's language: its source phrase by phrase and
    its text in that language (:func:`reading_language`, as the rules page shows it), with the clause as the
    ruleset writes it (the source as written, the text in the ruleset's own language) beside them where the two
    differ."""
    lang = current_language()
    own = original_language(ruleset, clause)
    original = f"{clause.source}: {clause.text[own]}" if own else clause.source
    words = clause.text.get(reading_language(clause)) or (clause.text[own] if own else "")
    shown = f"{source_in(clause.source, lang)}: {words}" if words else source_in(clause.source, lang)
    return _("%(source)s (%(original)s)", source=shown, original=original) if shown != original else original
