"""The players' sign-offs of a final ranking in words: how many confirmed it, how many refused it (a refusal is no
signature of the ranking: it is counted apart), and who is still to sign.  Computed from the counts the service
read: no request, no SQL."""
from __future__ import annotations

from typing import Sequence

from ..language import ngettext
from .words import separator


def sign_off_count(confirmed: int, refused: int, waiting: Sequence[str]) -> str:
    """"3 confirmed, 1 refused"; "2 confirmed, 1 still to sign (Chie)"; "4 still to sign (Aki, Ben, Chie, Dai)"."""
    parts = []
    if confirmed:
        parts.append(ngettext("%(num)s confirmed", "%(num)s confirmed", confirmed))
    if refused:
        parts.append(ngettext("%(num)s refused", "%(num)s refused", refused))
    if waiting:
        parts.append(ngettext("%(num)s still to sign (%(names)s)", "%(num)s still to sign (%(names)s)",
                              len(waiting), names=separator().join(waiting)))
    return separator().join(parts)
