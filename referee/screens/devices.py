"""The devices unlocked for a tournament's tables, in the device's language, as the director's page lists them."""
from __future__ import annotations

from datetime import datetime, timezone

from ..language import gettext as _


def clock_time(moment: datetime) -> str:
    """A moment kept in UTC (naive, as the rows keep it) as the server's clock reads it: 14:32."""
    return moment.replace(tzinfo=timezone.utc).astimezone().strftime("%H:%M")


def device_words(device) -> str:
    """One unlocked device (a :class:`referee.services.grants.Device`): its browser and system, when it was
    unlocked and when its unlock ends; the device reading the page is marked."""
    label = device.label or _("a device that did not say what it is")
    line = _("%(device)s: unlocked at %(since)s, until %(until)s", device=label, since=clock_time(device.since),
             until=clock_time(device.until))
    return _("%(device)s (this device)", device=line) if device.mine else line
