"""What the services refuse, each kind its own type (a refusal of the rules is the engine's or the tournament
rules' own: :class:`IllegalEntry`, :class:`MalformedEntry`, :class:`BadTournament`)."""
from __future__ import annotations

from ..engine import IllegalEntry, MalformedEntry, RecordError, RefereeError, StaleEntry
from ..tournament.messages import BadTournament


class ClockStopped(RefereeError):
    """The clock of a game that is over, or on which time has been called, cannot be started again."""

    code = "clock_stopped"


class NothingToRedo(RefereeError):
    code = "nothing_to_redo"


class GameNotFound(RefereeError):
    code = "not_found"


class BadGameSetup(RefereeError):
    code = "bad_setup"


class RecordAltered(RefereeError):
    """The stored record is not the one that was written (its hash chain breaks), or no longer replays."""

    code = "record_altered"


class NotDeletable(RefereeError):
    code = "not_deletable"


__all__ = ["BadGameSetup", "BadTournament", "ClockStopped", "GameNotFound", "IllegalEntry", "MalformedEntry",
           "NotDeletable", "NothingToRedo", "RecordAltered", "RecordError", "RefereeError", "StaleEntry"]
