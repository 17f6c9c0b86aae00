"""Players between rounds: check-in, drops, late entries, alternates (the rules are
:mod:`referee.tournament.roster`; this reads the roster from its rows and writes back what changed)."""
from __future__ import annotations

from ..store.db import db
from ..store.models import TournamentPlayer, TournamentRow
from ..tournament import roster
from ..tournament.messages import BadTournament, Done
from ..tournament.formats import player_line
from ..tournament.roster import FIELDS, MAX_TOURNAMENT_PLAYERS, Entrant, PlayerView, bad_player_line
from .tournaments import entrants, get_tournament, roster_stamp

# A player's line as the director types it (name, division, invited) is read by the tournament's rules: the web's
# form asks this service, as the web asks no rules.
__all__ = ["MAX_TOURNAMENT_PLAYERS", "PlayerView", "add_player", "bad_player_line", "player_line", "change_player",
           "tournament_players"]


def tournament_players(tournament_id: int) -> list[PlayerView]:
    """Every player: those in first (as entered), then the alternates in their order, then those who dropped."""
    return roster.listed(entrants(get_tournament(tournament_id)))


def _between_rounds(row: TournamentRow, expected: int | None) -> int:
    """The number of rounds seated, checked against what the director's screen showed (a stale screen changes
    nothing)."""
    seated = len(row.rounds)
    if expected is not None and expected != seated:
        raise BadTournament.of("round {round} has been seated since this screen was drawn: nothing was changed",
                               {"round": seated})
    return seated


def _write(row: TournamentRow, after: tuple[Entrant, ...]) -> None:
    """The roster's rows made to say what ``after`` says (a player added is a new row, last)."""
    for p, value in zip(row.players, after):
        for f in FIELDS:
            if getattr(p, f) != getattr(value, f):
                setattr(p, f, getattr(value, f))
    for value in after[len(row.players):]:
        row.players.append(TournamentPlayer(**{f: getattr(value, f) for f in FIELDS}))
    row.roster_stamp = roster_stamp()  # (the roster kept by the one before is asked for no more)
    db.session.commit()


def change_player(tournament_id: int, name: str, action: str, expected: int | None = None) -> Done:
    """One change to a player between rounds (:func:`referee.tournament.roster.change`); what was done, in words
    to flash.  ``expected``: the rounds seated when the director's screen was drawn."""
    row = get_tournament(tournament_id)
    seated = _between_rounds(row, expected)
    after, done = roster.change(entrants(row), name, action, seated)
    _write(row, after)
    return done


def add_player(tournament_id: int, name: str, alternate: bool, expected: int | None = None,
               division: str = "", replaces: str = "") -> Done:
    """A late entry or an alternate (:func:`referee.tournament.roster.add`); what was done, in words to flash."""
    row = get_tournament(tournament_id)
    seated = _between_rounds(row, expected)
    after, done = roster.add(entrants(row), name, alternate, seated, division, replaces)
    _write(row, after)
    return done
