"""Unlocks kept on the server: one row per grant (a device, the role it opens, for which game or tournament, until
when, and whether it was ended early).

A device's session cookie holds only each grant's token (``secrets.token_urlsafe``, 256 bits); the row keeps the
token's SHA-256, so a copy of the database gives no token that opens anything.  A grant opens nothing once it has
expired or been revoked: by "Lock" on the device, by the director for a table's tablets or for the whole
tournament.  A copy of the cookie taken before then (sniffed on the venue's Wi-Fi) opens nothing after.

What the director sees of a device is ``device``: a short label of its browser and system read from its user agent
when it was unlocked ("Safari · iPad"), and when it was unlocked and until when.  The label is chosen from a fixed
list (or the first word of a user agent it does not know), never the user agent as sent.  It tells the director's
tablets apart from a phone that should not hold a table, not one iPad from another: those differ by the time
they were unlocked.  A copied cookie is the same grant as its original and is listed once; locking ends both.
"""
from __future__ import annotations

import hashlib
import re
import secrets
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import NamedTuple

from sqlalchemy import Connection, Select, bindparam, delete, func, or_, select, update

from ..cache import DEVICES, kept_in, STATEMENTS
from ..store.db import db, read_once, read_plain, uncommitted
from ..store.models import GrantRow, RoundRow, TableRow
from .errors import GameNotFound
from .folds import database_key

GAME, DIRECTOR, ORGANISER = "game", "director", "organiser"
# a tournament's floor judges and its head judge: every table of the tournament opened for its rulings and its calls
# for a judge, nothing else (``referee.web.access``)
JUDGE, HEAD_JUDGE = "judge", "head_judge"
TOURNAMENT_ROLES = (DIRECTOR, JUDGE, HEAD_JUDGE)  # the roles whose target is a tournament
KEPT_AFTER_END = timedelta(days=1)  # an ended grant's row is deleted this long after it ended


def utc(timestamp: float) -> datetime:
    """A moment as the rows keep it: UTC, naive (as the game clock's times)."""
    return datetime.fromtimestamp(timestamp, timezone.utc).replace(tzinfo=None)


def now() -> datetime:
    return utc(time.time())


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class Grant:
    """A grant a device's cookie named: what it opens and whether it still does."""

    token: str  # as the device sent it: held in memory for the request, never stored
    id: int
    role: str
    target: int | None  # the game (a referee's), the tournament (a director's, a judge's), None (the organiser's)
    device: str
    since: datetime
    until: datetime
    revoked: bool

    def live(self, at: datetime) -> bool:
        return not self.revoked and self.until > at


def look_up(tokens: list[str], connection: Connection | None = None) -> list[Grant]:
    """The grants these tokens name (those the server knows: a token it never gave, or of a grant deleted with its
    game or tournament, names none), live or not.  ``connection``: the one to read through (else the session's)."""
    if not tokens:
        return []
    hashes = _hashes(tokens)
    # columns, not objects: the session's connection runs it, past the ORM's steps for loading objects
    rows = read_plain(_look_up_statement(len(hashes)), _named(hashes), connection)
    return [_grant(r, hashes) for r in rows]


def look_up_with(statement: Select, params: dict, tokens: list[str], connection: Connection
                 ) -> tuple[Sequence | None, list[Grant]]:
    """The one row ``statement`` reads (None: it reads none) and the grants these tokens name (as :func:`look_up`),
    in one statement: the row joined with each grant (an unchanged poll of a table's screen, the commonest request
    of all, needs its version and the device's grants; read in two statements, the second round trip was a third of
    the answer's server time under a room's load: each statement lets go of the interpreter while the database
    reads, and waits to take it again behind the other requests)."""
    hashes = _hashes(tokens)
    rows = read_plain(_joined_statement(statement, len(hashes)), {**params, **_named(hashes)}, connection)
    if not rows:
        return None, []
    width = len(rows[0]) - len(GRANT_COLUMNS)
    return rows[0][:width], [_grant(r[width:], hashes) for r in rows if r[width] is not None]


GRANT_COLUMNS = (GrantRow.token_hash, GrantRow.id, GrantRow.role, GrantRow.game_id, GrantRow.tournament_id,
                 GrantRow.device, GrantRow.created_at, GrantRow.expires_at, GrantRow.revoked_at)


def _hashes(tokens: list[str]) -> dict[str, str]:
    """The tokens by their hashes (a token named twice is looked up once)."""
    return {token_hash(t): t for t in tokens}


def _grant(columns: Sequence, hashes: dict[str, str]) -> Grant:
    """The grant ``GRANT_COLUMNS`` read, its token found by its hash."""
    hashed, id_, role, game_id, tournament_id, device, created_at, expires_at, revoked_at = columns
    target = game_id if role == GAME else tournament_id if role in TOURNAMENT_ROLES else None
    return Grant(hashes[hashed], id_, role, target, device, created_at, expires_at, revoked_at is not None)


def _hashes_are(count: int):
    """A grant's token hash is one of ``count`` (``hash0``, ``hash1``...): each count its own statement, compiled
    once (a list's parameter expanded at each request was rewritten into the statement's text each time: a sixteenth
    of an unchanged poll's server time); a device's cookie names at most ``referee.web.access.MAX_GRANTS``."""
    return GrantRow.token_hash.in_([bindparam(f"hash{k}") for k in range(count)])


def _named(hashes: dict[str, str]) -> dict[str, str]:
    """The token hashes as :func:`_hashes_are`'s parameters."""
    return {f"hash{k}": h for k, h in enumerate(hashes)}


@kept_in(STATEMENTS)
def _joined_statement(statement: Select, count: int) -> Select:
    """``statement``'s row joined with the grants of ``count`` token hashes: built once for each."""
    read = statement.subquery("read")
    return select(read, *GRANT_COLUMNS).select_from(read.outerjoin(GrantRow, _hashes_are(count))).order_by(
        GrantRow.id)  # as :func:`look_up` orders them


@kept_in(STATEMENTS)
def _look_up_statement(count: int):
    """The grants of ``count`` token hashes, as plain rows (every request of an unlocked device reads its grants):
    one statement, built once for each count."""
    # oldest first, as they were given: the cookie keeps its live grants in this order (a new one goes last, the
    # oldest is let go past ``access.MAX_GRANTS``), and a poll compares them with the cookie's in it
    return select(*GRANT_COLUMNS).where(_hashes_are(count)).order_by(GrantRow.id)


def open_grant(role: str, target: int | None, device: str, minutes: int, replacing: list[str]) -> str:
    """A new grant of ``role`` for ``target`` to a device, for ``minutes``; its token (for the device's cookie only).
    The grants of ``replacing`` (the device's earlier ones for the same role and target) end now, and rows that
    ended more than a day ago are deleted."""
    if role not in (GAME, ORGANISER, *TOURNAMENT_ROLES):
        raise ValueError(f"no role {role!r}")
    at = now()
    token = secrets.token_urlsafe(32)
    if replacing:
        _revoke(GrantRow.token_hash.in_([token_hash(t) for t in replacing]), at)
    db.session.execute(delete(GrantRow).where(or_(GrantRow.expires_at < at - KEPT_AFTER_END,
                                                  GrantRow.revoked_at < at - KEPT_AFTER_END)))
    db.session.add(GrantRow(token_hash=token_hash(token), role=role, device=device[:60],
                            game_id=target if role == GAME else None,
                            tournament_id=target if role in TOURNAMENT_ROLES else None,
                            created_at=at, expires_at=at + timedelta(minutes=minutes)))
    db.session.commit()
    return token


def _revoke(where, at: datetime) -> int:
    """End now every live grant ``where`` selects; how many."""
    done = db.session.execute(update(GrantRow).where(where, GrantRow.revoked_at.is_(None), GrantRow.expires_at > at)
                              .values(revoked_at=at))
    return done.rowcount  # type: ignore[attr-defined]


def revoke(tokens: list[str]) -> int:
    """A device's "Lock": every grant its cookie holds ends now; how many were live."""
    if not tokens:
        return 0
    count = _revoke(GrantRow.token_hash.in_([token_hash(t) for t in tokens]), now())
    db.session.commit()
    return count


def _tables(tournament_id):
    """The games of the tournament's tables (``tournament_id``: its id, or a bound parameter for it)."""
    return select(TableRow.game_id).join(RoundRow, RoundRow.id == TableRow.round_id).where(
        RoundRow.tournament_id == tournament_id)


def lock_table(tournament_id: int, game_id: int) -> tuple[int, int]:
    """The director locks every tablet of one table: each device's grant for that table's game ends now (a device
    the director unlocked keeps the director's grant); the table's number and how many grants were live.
    :class:`GameNotFound` when the game is no table of the tournament."""
    number = db.session.execute(select(TableRow.number).join(RoundRow, RoundRow.id == TableRow.round_id).where(
        RoundRow.tournament_id == tournament_id, TableRow.game_id == game_id)).scalar()
    if number is None:
        raise GameNotFound.of("game {game} is no table of this tournament: no tablet was locked", {"game": game_id})
    count = _revoke((GrantRow.role == GAME) & (GrantRow.game_id == game_id), now())
    db.session.commit()
    return number, count


def lock_tournament(tournament_id: int, keep: list[str]) -> int:
    """The director locks every tablet of the tournament: every table's grants, the judges' and the director's
    grants but those of ``keep`` (the tokens of the device that asked, which stays open); how many were live."""
    kept = [token_hash(t) for t in keep]
    count = _revoke(or_((GrantRow.role == GAME) & GrantRow.game_id.in_(_tables(tournament_id)),
                        GrantRow.role.in_(TOURNAMENT_ROLES) & (GrantRow.tournament_id == tournament_id)
                        & GrantRow.token_hash.not_in(kept)), now())
    db.session.commit()
    return count


def lock_directors(tournament_id: int, role: str = DIRECTOR) -> int:
    """Every device unlocked with the tournament's director's PIN (``role``: or with its judges' PIN, its head
    judge's) is locked (a new PIN was set: the old one's unlocks end with it); how many were live.  Committed by the
    caller, with the new PIN."""
    if role not in TOURNAMENT_ROLES:
        raise ValueError(f"no tournament role {role!r}")
    return _revoke((GrantRow.role == role) & (GrantRow.tournament_id == tournament_id), now())


class Device(NamedTuple):
    """A device unlocked for a table or a tournament, as the director's page lists it (a tuple: the director's
    page's cards are kept under their table's devices, hashed at every poll)."""

    label: str  # "Safari · iPad"; "" when its user agent said nothing this app knows
    since: datetime  # UTC
    until: datetime  # UTC
    mine: bool  # the device asking (the director's own)


@dataclass(frozen=True)
class Devices:
    """The devices unlocked now in a tournament: each table's (by its game), the director's, and the judges' (each
    with its role: a judge's or the head judge's); ``hashes``: each one's token's hash, where it is listed (marked
    as the device asking's by :meth:`marked`)."""

    tables: Mapping[int, tuple[Device, ...]]
    director: tuple[Device, ...]
    judges: tuple[tuple[str, Device], ...]  # (JUDGE or HEAD_JUDGE, the device)
    hashes: Mapping[str, tuple[str, int | None, int]] = field(default_factory=dict, repr=False, compare=False)

    @property
    def tablets(self) -> int:
        return sum(map(len, self.tables.values()))

    def marked(self, own: set[str]) -> Devices:
        """These devices with those whose token's hash is in ``own`` (the device asking's) marked as its own: a new
        value where one is listed (the lists it is in copied), this one otherwise (the kept value is shared)."""
        found = [self.hashes[h] for h in own if h in self.hashes]
        if not found:
            return self
        tables, director, judges = dict(self.tables), list(self.director), list(self.judges)
        for where, game, at in found:
            if where == GAME:
                listed = list(tables[game])  # type: ignore[index]
                listed[at] = listed[at]._replace(mine=True)
                tables[game] = tuple(listed)  # type: ignore[index]
            elif where == DIRECTOR:
                director[at] = director[at]._replace(mine=True)
            else:
                judges[at] = (judges[at][0], judges[at][1]._replace(mine=True))
        return Devices(tables, tuple(director), tuple(judges), self.hashes)


def live_grants(tournament) -> tuple:
    """What selects the live grants (neither ended nor expired at the bound parameter ``at``) of the tournament
    ``tournament`` (a bound parameter) and of its tables: the director's page's list, and its version's count."""
    return (or_((GrantRow.role == GAME) & GrantRow.game_id.in_(_tables(tournament)),
                GrantRow.role.in_(TOURNAMENT_ROLES) & (GrantRow.tournament_id == tournament)),
            GrantRow.revoked_at.is_(None), GrantRow.expires_at > bindparam("at"))


def live_count() -> tuple:
    """What names the live grants of :func:`live_grants` as a whole: how many, the latest id, the latest moment one
    was given and the sum of their ids.  Between two moments with the same four, no grant given later than the
    latest of them is live (it would be the latest), and those given before it only ever end; a count alone would
    miss one grant ended and another given at once (a device unlocking again) where, on PostgreSQL, the new one took
    its id before another tablet's, committed first, which stays the latest: the sum moves then.  (The latest id
    alone would not do either: SQLite gives a new row the number after the highest left, so once ended grants' rows
    are deleted a later grant may take an id an earlier one had; the latest moment given moves then.)"""
    return (func.count(GrantRow.id), func.max(GrantRow.id), func.max(GrantRow.created_at), func.sum(GrantRow.id))


@kept_in(STATEMENTS)
def _live_rows():
    """The live grants of the tournament ``tournament`` and its tables at ``at``, oldest first, as plain rows of the
    columns the director's page reads: one statement, built once."""
    return (select(GrantRow.id, GrantRow.role, GrantRow.game_id, GrantRow.device, GrantRow.created_at,
                   GrantRow.expires_at, GrantRow.token_hash)
            .where(*live_grants(bindparam("tournament")))
            .order_by(GrantRow.created_at, GrantRow.id))


def devices_of_tournament(tournament_id: int, mine: list[str], live: tuple | None = None) -> Devices:
    """The devices holding a live grant for the tournament or one of its tables now, oldest first; ``mine``: the
    tokens of the device asking.  ``live``: the tournament's live grants as a whole (:func:`live_count`), as a live
    page's version read them (:func:`referee.services.tournaments.tournament_version`): the devices kept under them
    are taken, not read again (some 260 rows at a national final, every second; a grant's device and times never
    change)."""
    database, changed = database_key(), uncommitted()
    found = DEVICES.get((database, tournament_id, live)) if live is not None and not changed else None
    if found is None:
        rows = _live(tournament_id)
        found = _listed(rows)
        if not changed:  # (the rows as committed: what a version's count names)
            DEVICES.keep((database, tournament_id, _counted(rows)), found)
    return found.marked({token_hash(t) for t in mine})


def _counted(rows: Sequence[Sequence]) -> tuple:
    """:func:`live_count` of the live grants ``rows`` (:func:`_live_rows`'s)."""
    if not rows:
        return (0, None, None, None)
    return (len(rows), max(row[0] for row in rows), max(row[4] for row in rows), sum(row[0] for row in rows))


def _listed(rows: Sequence[Sequence]) -> Devices:
    """The devices of the live grants ``rows`` (:func:`_live_rows`'s), none marked as the device asking's."""
    tables: dict[int, list[Device]] = {}
    director: list[Device] = []
    judges: list[tuple[str, Device]] = []
    hashes: dict[str, tuple[str, int | None, int]] = {}
    for _, role, game_id, label, since, until, hashed in rows:
        device = Device(label, since, until, False)
        if role == DIRECTOR:
            hashes[hashed] = (DIRECTOR, None, len(director))
            director.append(device)
        elif role == GAME:
            listed = tables.setdefault(game_id, [])
            hashes[hashed] = (GAME, game_id, len(listed))
            listed.append(device)
        else:
            hashes[hashed] = (role, None, len(judges))
            judges.append((role, device))
    return Devices({game: tuple(listed) for game, listed in tables.items()}, tuple(director), tuple(judges), hashes)


def _live(tournament_id: int) -> Sequence[Sequence]:
    """The tournament's live grants, read once per unit of work."""
    read = read_once("live grants")
    if tournament_id not in read:
        read[tournament_id] = read_plain(_live_rows(), {"tournament": tournament_id, "at": now()})
    return read[tournament_id]


# --- what a device is called -------------------------------------------------

# (a word of the user agent, the name shown), first match wins: the more particular before the more general
# (Edge and Opera say "Chrome" too, Chrome says "Safari", an iPad may say "Macintosh")
BROWSERS = (("Edg", "Edge"), ("OPR/", "Opera"), ("SamsungBrowser", "Samsung Internet"), ("Silk/", "Silk"),
            ("FxiOS", "Firefox"), ("Firefox/", "Firefox"), ("CriOS", "Chrome"), ("Chrome/", "Chrome"),
            ("Chromium", "Chromium"), ("Safari/", "Safari"))
SYSTEMS = (("iPad", "iPad"), ("iPhone", "iPhone"), ("Android", "Android"), ("CrOS", "ChromeOS"),
           ("Windows", "Windows"), ("Macintosh", "Mac"), ("Linux", "Linux"))
_FIRST_WORD = re.compile(r"[A-Za-z][A-Za-z0-9._-]{0,23}")


def device_label(user_agent: str) -> str:
    """A short label of a device from its user agent: "Safari · iPad", "Chrome · Android"; for a user agent
    naming no browser this app knows, its first word ("curl"); "" when it has none."""
    agent = (user_agent or "")[:1000]
    browser = next((name for word, name in BROWSERS if word in agent), None)
    system = next((name for word, name in SYSTEMS if word in agent), None)
    if browser is None:
        first = _FIRST_WORD.match(agent)
        browser = first.group() if first and first.group() != "Mozilla" else None
    return " · ".join(part for part in (browser, system) if part)
