"""The scheduled backups, and the room left on the disks of the database and the backups, in the device's language,
as the director's page shows them (the disk named by what it holds, never by its folder)."""
from __future__ import annotations

from babel.numbers import format_decimal

from ..language import current_language, gettext as _
from .devices import clock_time

MB = 1024 * 1024


def megabytes(size: int) -> str:
    """A size in MB in the device's locale: "150 MB", "0.4 MB" (a tenth of a MB below 10 MB)."""
    amount = size / MB
    shown = round(amount, 1) if amount < 10 else round(amount)
    return f"{format_decimal(shown, '#,##0.#', locale=current_language())} MB"


def disk_lines(disks) -> list[str]:
    """What the director's page says of each disk low on room (:class:`referee.services.storage.LowDisk`): what it
    holds, the room left, and what to do."""
    lines = []
    for disk in disks:
        free = megabytes(disk.free)
        if disk.holds == "backups":
            lines.append(_("The disk that holds the backups has %(free)s left: the next backups are skipped when there "
                           "is no room for them. Free space on it, or have the organiser put the backups on another "
                           "disk.", free=free))
        elif disk.holds == "both":
            lines.append(_("The disk that holds the database and the backups has %(free)s left: when it is full, no "
                           "entry can be recorded. Free space on it now, or have the organiser put the backups on "
                           "another disk.", free=free))
        else:
            lines.append(_("The disk that holds the database has %(free)s left: when it is full, no entry can be "
                           "recorded. Free space on it now.", free=free))
    return lines


def backup_lines(status) -> list[tuple[str, str]]:
    """What the director's page says of the scheduled backups (a :class:`referee.services.backups.Status`), each
    line with its kind: "done" (the last backup made), "waiting" (none yet), "refused" (the last one failed or was
    skipped for lack of room, or one begun long ago never finished)."""
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
    if status.no_room is not None:
        room = dict(time=clock_time(status.failed_at), free=megabytes(status.no_room.free),
                    needed=megabytes(status.no_room.needed))
        lines.append(("refused", _("The backup at %(time)s was skipped: the backups' disk had %(free)s left and a "
                                   "backup needs %(needed)s (the database and the room kept free). Every entry is "
                                   "still recorded in the database; free space on that disk, or have the organiser put "
                                   "the backups on another disk.", **room)))
    elif status.failing:
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
