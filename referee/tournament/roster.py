"""The players of a tournament between rounds: check-in, drops, late entries, alternates and their order.

Pure rules on values: a roster is a tuple of :class:`Entrant`; each change returns the roster after it and what
was done, in words, or raises :class:`BadTournament` and changes nothing.  The service reads the roster from
its rows and writes back what changed.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Sequence

from ..engine import MAX_NAME
from .messages import BadTournament, Done, check_text

MAX_TOURNAMENT_PLAYERS = 512
STATUSES = ("playing", "not_checked_in", "alternate", "dropped")
CHANGES = ("check_in", "check_out", "drop", "drop_for_alternate", "reinstate", "step_in")


@dataclass(frozen=True, slots=True)
class Entrant:
    """A tournament player: ``alternate`` is their place among the alternates while they wait (None once they
    play), ``joined_round`` the round a late entry or an alternate is seated from, ``dropped_round`` the last
    round seated before they dropped, ``note`` the player an alternate or a late entry replaced."""

    name: str
    checked_in: bool = True
    alternate: int | None = None
    joined_round: int | None = None
    dropped_round: int | None = None
    note: str = ""
    division: str = ""
    invited_stage: str | None = None

    @property
    def status(self) -> str:
        """playing, not_checked_in, alternate or dropped."""
        if self.dropped_round is not None:
            return "dropped"
        if self.alternate is not None:
            return "alternate"
        return "playing" if self.checked_in else "not_checked_in"


FIELDS = tuple(Entrant.__dataclass_fields__)


@dataclass(frozen=True)
class PlayerView:
    """A tournament player as the director's players list shows them (``alternate``: 1 is the next to step in)."""

    name: str
    status: str  # playing, not_checked_in, dropped, alternate
    checked_in: bool
    alternate: int | None
    joined_round: int | None
    dropped_round: int | None
    note: str
    division: str = ""
    invited_stage: str | None = None


def listed(players: Sequence[Entrant]) -> list[PlayerView]:
    """Every player: those in first (as entered), then the alternates in their order, then those who dropped."""
    waiting = sorted((p for p in players if p.status == "alternate"), key=lambda p: p.alternate or 0)
    position = {p.name: k for k, p in enumerate(waiting, start=1)}  # the next to step in is alternate 1
    views = [PlayerView(p.name, p.status, p.checked_in, position.get(p.name), p.joined_round, p.dropped_round,
                        p.note, p.division, p.invited_stage) for p in players]
    order = {"playing": 0, "not_checked_in": 0, "alternate": 1, "dropped": 2}
    return sorted(views, key=lambda v: (order[v.status], v.alternate or 0))


def active(players: Sequence[Entrant]) -> list[str]:
    """Who may be seated in the next round: checked in, not an alternate waiting, not dropped."""
    return [p.name for p in players if p.status == "playing"]


def divisions(players: Sequence[Entrant]) -> list[str]:
    """The tournament's divisions in the order their first player was entered ([""]: none)."""
    return list(dict.fromkeys(p.division for p in players)) or [""]


def _find(players: Sequence[Entrant], name: str) -> int:
    found = next((k for k, p in enumerate(players) if p.name == name), None)
    if found is None:
        raise BadTournament.of("no player {name} in this tournament", {"name": str(name)[:60]})
    return found


def _first_alternate(players: Sequence[Entrant], division: str) -> int | None:
    """The alternate who steps in next in ``division``."""
    waiting = [k for k, q in enumerate(players)
               if q.alternate is not None and q.dropped_round is None and q.division == division]
    return min(waiting, key=lambda k: players[k].alternate or 0, default=None)


def _stepped_in(p: Entrant, seated: int, replaces: str) -> Entrant:
    """The alternate is seated from the next round (in place of ``replaces``, when they step in for a player)."""
    return replace(p, alternate=None, checked_in=True, joined_round=seated + 1, note=replaces[:300])


def change(players: tuple[Entrant, ...], name: str, action: str, seated: int) -> tuple[tuple[Entrant, ...], Done]:
    """One change to a player after ``seated`` rounds: the roster after it and what was done.  ``action``:
    check_in, check_out (not checked in after all), drop (seated no more from the next round: a game in progress
    is finished), drop_for_alternate (drop, and the first alternate steps in for them), reinstate (undo a drop
    while no round has been seated since), step_in (the alternate plays from the next round)."""
    out = list(players)
    k = _find(players, name)
    p = players[k]
    params = {"name": p.name, "round": seated + 1}
    if action in ("check_in", "check_out"):
        if p.dropped_round is not None or p.alternate is not None:
            raise BadTournament.of("{name} is not on the list of players to seat: check-in is for them only", params)
        out[k] = replace(p, checked_in=action == "check_in")
        done = (Done.of("{name} is checked in: seated from round {round}", params) if out[k].checked_in else
                Done.of("{name} is not checked in: not seated until checked in", params))
    elif action in ("drop", "drop_for_alternate"):
        if p.dropped_round is not None:
            raise BadTournament.of("{name} has already dropped", params)
        if p.alternate is not None:
            raise BadTournament.of("{name} is an alternate: taken off the list by dropping is not needed; they are "
                                   "never seated unless they step in", params)
        out[k] = replace(p, dropped_round=seated)
        done = Done.of("{name} has dropped: not seated from round {round} (their results stand)", params)
        if action == "drop_for_alternate":
            first = _first_alternate(out, p.division)
            if first is None:
                raise BadTournament.of("no alternate is waiting to step in for {name}", params)
            out[first] = _stepped_in(out[first], seated, p.name)
            done = Done.of("{name} has dropped; {alternate} steps in for them from round {round}",
                           params | {"alternate": out[first].name})
    elif action == "reinstate":
        if p.dropped_round is None:
            raise BadTournament.of("{name} has not dropped", params)
        if p.dropped_round != seated:
            raise BadTournament.of("{name} dropped before a round that has been seated since: they may enter "
                                   "again as a late entry only", params)
        out[k] = replace(p, dropped_round=None)
        done = Done.of("{name} is back: seated from round {round}", params)
    elif action == "step_in":
        if p.alternate is None or p.dropped_round is not None:
            raise BadTournament.of("{name} is not an alternate waiting to step in", params)
        first = _first_alternate(players, p.division)
        if first != k:
            raise BadTournament.of("alternates step in in their order: {first} comes before {name}",
                                   params | {"first": players[first].name if first is not None else "-"})
        out[k] = _stepped_in(p, seated, "")
        done = Done.of("{name} steps in: seated from round {round}", params)
    else:
        raise BadTournament.of("unknown change to a player: {action}", {"action": str(action)[:40]})
    return tuple(out), done


def add(players: tuple[Entrant, ...], name: str, alternate: bool, seated: int, division: str = "",
        replaces: str = "") -> tuple[tuple[Entrant, ...], Done]:
    """A late entry (seated from the next round, with no points before it) or an alternate, last in order, after
    ``seated`` rounds; in ``division`` when the tournament has divisions.  A late entry may take the place of a
    player (``replaces``), who drops: the director's replacement of a player between rounds.  The roster after
    it (the new player last) and what was done."""
    name = (name or "").strip()
    if not name:
        raise BadTournament.of("a player needs a name", {})
    check_text("name", name, MAX_NAME)
    if any(p.name.casefold() == name.casefold() for p in players):
        raise BadTournament.of("{name} is already in this tournament", {"name": name})
    division = (division or "").strip()
    check_text("division", division, MAX_NAME)
    if division not in divisions(players):
        raise BadTournament.of("no division {division} in this tournament (it has {divisions})",
                               {"division": division or "-", "divisions": ", ".join(divisions(players))[:200]})
    if len(players) >= MAX_TOURNAMENT_PLAYERS:
        raise BadTournament.of("a tournament has at most {n} players", {"n": MAX_TOURNAMENT_PLAYERS})
    order = max((p.alternate for p in players if p.alternate is not None), default=0) + 1
    out = list(players)
    gone = None
    if replaces:
        k = _find(players, replaces)
        gone = players[k]
        if alternate or gone.status not in ("playing", "not_checked_in"):
            raise BadTournament.of("{name} can take the place of a player still in, as a late entry", {"name": name})
        out[k] = replace(gone, dropped_round=seated)
        division = gone.division
    out.append(Entrant(name=name, alternate=order if alternate else None, division=division,
                       joined_round=None if alternate else seated + 1, note=gone.name if gone else ""))
    if gone is not None:
        done = Done.of("{name} takes the place of {player} from round {round}; {player} has dropped",
                       {"name": name, "player": gone.name, "round": seated + 1})
    elif alternate:
        done = Done.of("{name} is alternate {n}", {"name": name, "n": order})
    else:
        done = Done.of("{name} enters late: seated from round {round}", {"name": name, "round": seated + 1})
    return tuple(out), done


def bad_player_line(exc: ValueError) -> BadTournament:
    """The refusal of a players line that :func:`formats.player_line` cannot read."""
    kind, line = exc.args
    if kind == "no_name":
        return BadTournament.of("a player needs a name: {line}", {"line": line})
    return BadTournament.of("after the name and the division only \"invited\" may follow: {line}", {"line": line})
