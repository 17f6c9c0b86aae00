"""Time called (the engine's :mod:`referee.engine.kinds.time_called`) as the screens show it: its line in the log,
its noun and its refusal's title.  Its button has no place of its own among the kinds': where it is drawn depends
on the round's clock (a reminder above the decision once the time is up, else under the panels), which the table
screen's template is given by the view (``templates/table/_live.html``)."""
from __future__ import annotations

from ...engine import Entry, EntryFacts, Ruleset
from ...language import gettext as _
from ..kind import EntryScreen, register_screen


def _l(text: str) -> str:
    """A refusal's title as written (English), marked for the catalogues: put in the device's language where shown."""
    return text


def _sentence(entry: Entry, ruleset: Ruleset, facts: EntryFacts | None) -> str:
    return _("the referee calls time")


register_screen(EntryScreen(
    "time_called", lambda: _("calling time"), _sentence,
    titles={"time_already_called": _l("Time has already been called")}))
