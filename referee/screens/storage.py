"""What a device is told when the database could not answer its request, in the device's language: that nothing
was recorded, why in plain words (``services/storage.py``'s one word: the disk is full, the database stayed busy,
it cannot be reached) and what to do (tap again in a moment, tell the organiser or the director).  No path, no SQL,
no driver's message: those go to the server's log."""
from __future__ import annotations

from dataclasses import dataclass

from ..language import gettext as _


@dataclass(frozen=True)
class Unavailable:
    kind: str  # "full", "busy" or "unreachable"
    title: str
    why: str
    todo: str


def unavailable_words(kind: str, tapped: bool, region: bool) -> Unavailable:
    """The words for a request the database could not answer: ``tapped`` a form sent (a tap), else a page or a
    region asked for; ``region`` a part of a screen (htmx's poll, a panel), which keeps what it shows."""
    why = {
        "full": _("The database could not write: the disk that holds it is full."),
        "busy": _("The database stayed busy with other devices' requests for too long."),
    }.get(kind) or _("The app cannot reach its database.")
    if tapped:
        todo = _("What was recorded before is unchanged. Tap again in a moment; if it happens again, tell the "
                 "organiser or the director.")
    elif region:
        todo = _("This screen keeps what it shows and brings itself up to date when the database answers again. If "
                 "this goes on, tell the organiser or the director.")
    else:
        todo = _("Open the page again in a moment; if it happens again, tell the organiser or the director.")
    return Unavailable(kind, _("Nothing was recorded."), why, todo)
