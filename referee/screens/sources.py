"""Where a clause comes from, in the device's language: a ruleset's ``source`` names published documents and their
sections as the ruleset file writes them (English, or the original's own words: JMA 補足ルール「土地」); the device
is shown them phrase by phrase in its language (``rulesets/notes/sources.toml``), with the source as written beside
them when the two differ."""
from __future__ import annotations

import re
from functools import lru_cache

from ..i18n import current_language, gettext as _
from ..services import rulesets


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
