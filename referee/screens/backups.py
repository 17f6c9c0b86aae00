"""The scheduled backups in the device's language, as the director's page shows them."""
from __future__ import annotations

from ..i18n import gettext as _
from .devices import clock_time


def backup_lines(status) -> list[tuple[str, str]]:
    """What the director's page says of the scheduled backups (a :class:`referee.services.backups.Status`), each
    line with its kind: "done" (the last backup made), "waiting" (none yet), "refused" (the last one failed, or
    one begun long ago never finished)."""
    every = f"{status.minutes:g}"
    each_minute = status.minutes == 1  # (not plural forms: a fraction of a minute is said in minutes)
    plan = (_("One every minute while a game is in play; the last %(kept)s are kept.", kept=status.kept)
            if each_minute else _("One every %(n)s minutes while a game is in play; the last %(kept)s are kept.",
                                  n=every, kept=status.kept))
    if status.last_at is not None:
        lines = [("done", _("Last backup at %(time)s: %(file)s. %(plan)s", time=clock_time(status.last_at),
                            file=status.file_name, plan=plan))]
    else:
        lines = [("waiting", _("No backup taken yet. %(plan)s", plan=plan))]
    if status.failing:
        failed = dict(time=clock_time(status.failed_at), reason=status.failure)
        lines.append(("refused", _("The backup at %(time)s failed (%(reason)s): check that the backup folder "
                                   "exists, can be written and has room. Every entry is still recorded in the "
                                   "database; the next backup is tried in a minute.", **failed) if each_minute else
                      _("The backup at %(time)s failed (%(reason)s): check that the backup folder exists, can be "
                        "written and has room. Every entry is still recorded in the database; the next backup is "
                        "tried in %(n)s minutes.", n=every, **failed)))
    if status.unfinished_since is not None:
        lines.append(("refused", _("The backup begun at %(time)s has not finished: the app's log says why.",
                                   time=clock_time(status.unfinished_since))))
    return lines
