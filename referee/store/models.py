"""Tables: a game (its record header and referee PIN) and its append-only entry log.

No rule logic lives here: the entries are the game record, and the engine
derives everything else from them.
"""
from __future__ import annotations

from datetime import datetime, timezone

from sqlalchemy import JSON, ForeignKey, String, Text, UniqueConstraint, false, true
from typing import TYPE_CHECKING

from sqlalchemy.orm import Mapped, mapped_column, relationship

from .db import db

if TYPE_CHECKING:  # Flask-SQLAlchemy makes db.Model when the app runs; to mypy it is a declarative base like it
    from sqlalchemy.orm import DeclarativeBase

    class Model(DeclarativeBase):
        pass
else:
    Model = db.Model


def _now() -> datetime:
    return datetime.now(timezone.utc)


class GameRow(Model):
    __tablename__ = "games"

    id: Mapped[int] = mapped_column(primary_key=True)
    title: Mapped[str] = mapped_column(String(200), default="")
    # the game record's header: read when the record is folded (the fold is kept), not with every screen
    header: Mapped[dict] = mapped_column(JSON, deferred=True)
    pin_hash: Mapped[str] = mapped_column(String(200))
    time_limit_minutes: Mapped[int | None] = mapped_column(default=None)
    # the game clock: time run before the last start, and when it was last started (UTC) if it is running
    clock_elapsed_seconds: Mapped[float] = mapped_column(default=0.0, server_default="0")
    clock_started_at: Mapped[datetime | None] = mapped_column(default=None)
    created_at: Mapped[datetime] = mapped_column(default=_now)
    # a finished game's ranking and net-worth series, kept when it ends with the chain hash it was computed at
    # (result pages and PDFs read it instead of replaying the record); None while the game goes on.  Read when
    # asked for: its net-worth series grows with the game, and the table screen does not show it
    result: Mapped[dict | None] = mapped_column(JSON, default=None, deferred=True)
    archived: Mapped[bool] = mapped_column(default=False, server_default=false())  # off the games list, kept
    entries: Mapped[list["EntryRow"]] = relationship(back_populates="game", order_by="EntryRow.seq",
                                                      cascade="all, delete-orphan")


class EntryRow(Model):
    """One referee entry; ``seq`` counts from 1 per game, and a (game, seq) pair is written once."""

    __tablename__ = "entries"
    __table_args__ = (UniqueConstraint("game_id", "seq", name="uq_entries_game_seq"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seq: Mapped[int] = mapped_column()
    data: Mapped[str] = mapped_column(Text)  # the entry as a JSON object, as in the record file
    hash: Mapped[str | None] = mapped_column(String(64), default=None)  # chain.link of the entry before and this
    recorded_at: Mapped[datetime] = mapped_column(default=_now)
    game: Mapped[GameRow] = relationship(back_populates="entries")


class EntryKeyRow(Model):
    """The key a table screen's form carried when it recorded entries (made when the screen was drawn, random):
    a form sent again with the same key (a tap whose answer was lost, a browser's retry) is told it was recorded,
    once, instead of being recorded twice or refused as stale.  ``seq`` is the first entry that form recorded,
    ``entries`` how many (a decline and its opening bid, a redo); ``body`` the digest of what the form asked, so a
    key sent again with another entry is refused.  Kept beside the entries, not in their hashed text: a key is how
    a request arrived, no fact of play (a replay or a record file is the same without it).  A (game, key) pair is
    written once, in the same commit as the entries it recorded."""

    __tablename__ = "entry_keys"
    __table_args__ = (UniqueConstraint("game_id", "key", name="uq_entry_keys_game_key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    key: Mapped[str] = mapped_column(String(64))
    seq: Mapped[int] = mapped_column()
    entries: Mapped[int] = mapped_column()
    body: Mapped[str] = mapped_column(String(64))
    recorded_at: Mapped[datetime] = mapped_column(default=_now)


class TournamentRow(Model):
    __tablename__ = "tournaments"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    scheme: Mapped[str] = mapped_column(String(80))  # a scoring scheme id (rulesets/scoring/)
    format: Mapped[str] = mapped_column(String(80), default="open", server_default="open")  # rulesets/formats/
    ruleset: Mapped[str] = mapped_column(String(80))
    options: Mapped[dict] = mapped_column(JSON, default=dict)  # tournament regulations over the ruleset
    round_minutes: Mapped[list] = mapped_column(JSON, default=list)  # minutes per round; the last repeats
    pin_hash: Mapped[str] = mapped_column(String(200))
    # the judges' PIN and the head judge's PIN, made by the director when judges are given access (None: none yet),
    # kept readable for the director's page as a table's PIN is; each opens the tournament's rulings and calls for
    # a judge, and nothing else (``referee.web.access``)
    judge_pin: Mapped[str | None] = mapped_column(String(16), default=None)
    head_judge_pin: Mapped[str | None] = mapped_column(String(16), default=None)
    created_at: Mapped[datetime] = mapped_column(default=_now)
    archived: Mapped[bool] = mapped_column(default=False, server_default=false())
    # a random value written anew with every change of the players' rows (services.tournaments.entrants keeps the
    # roster by it: the live pages ask for it every second, 512 rows; None: read each time)
    roster_stamp: Mapped[str | None] = mapped_column(String(16), default=None)
    players: Mapped[list["TournamentPlayer"]] = relationship(order_by="TournamentPlayer.id",
                                                            cascade="all, delete-orphan")
    rounds: Mapped[list["RoundRow"]] = relationship(order_by="RoundRow.number", cascade="all, delete-orphan")


class TournamentPlayer(Model):
    __tablename__ = "tournament_players"
    __table_args__ = (UniqueConstraint("tournament_id", "name", name="uq_tournament_player"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(200))
    # between rounds: a player checks in (seated only then), drops (seated no more after ``dropped_round``),
    # enters late or steps in as an alternate (seated from ``joined_round``); an alternate waits in ``alternate``
    # order (None: not an alternate, or one who has stepped in)
    checked_in: Mapped[bool] = mapped_column(default=True, server_default=true())
    alternate: Mapped[int | None] = mapped_column(default=None)
    joined_round: Mapped[int | None] = mapped_column(default=None)
    dropped_round: Mapped[int | None] = mapped_column(default=None)
    note: Mapped[str] = mapped_column(String(300), default="", server_default="")  # the player an alternate replaced
    division: Mapped[str] = mapped_column(String(60), default="", server_default="")  # its own places and final
    invited_stage: Mapped[str | None] = mapped_column(String(40), default=None)  # a seed who joins at this stage


class RoundRow(Model):
    __tablename__ = "rounds"
    __table_args__ = (UniqueConstraint("tournament_id", "number", name="uq_round_number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), index=True)
    number: Mapped[int] = mapped_column()
    final: Mapped[bool] = mapped_column(default=False)  # of the format's last stage (when it has several)
    stage: Mapped[str | None] = mapped_column(String(40), default=None)  # the id of its stage in the format
    # loaded with every round of a tournament at once, and each table with its corrections ("selectin": one
    # query for them all, not one a table: the director's page reads every table every second)
    tables: Mapped[list["TableRow"]] = relationship(order_by="TableRow.number", cascade="all, delete-orphan",
                                                    lazy="selectin")


class TableRow(Model):
    __tablename__ = "tables"

    id: Mapped[int] = mapped_column(primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id", ondelete="CASCADE"), index=True)
    number: Mapped[int] = mapped_column()
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)  # a game's table found from it
    # the table's own referee PIN, kept readable for the director's page and the table's slip (the game keeps
    # only its hash); None for tables seated before tables had their own PIN (the director's opens them)
    pin: Mapped[str | None] = mapped_column(String(16), default=None)
    corrections: Mapped[list["ResultCorrection"]] = relationship(order_by="ResultCorrection.id",
                                                                 cascade="all, delete-orphan", lazy="selectin")


class ResultCorrection(Model):
    """The director's correction of a table's result after its game, with the reason; every one is kept, never
    edited: the last one not withdrawn stands (the game's own record is never changed).  A withdrawal is a later
    row naming the correction it withdraws (``withdraws_id``), with its reason and no result."""

    __tablename__ = "result_corrections"

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    result: Mapped[dict | None] = mapped_column(JSON)  # as a finished game's kept result (None: a withdrawal)
    reason: Mapped[str] = mapped_column(String(300))
    withdraws_id: Mapped[int | None] = mapped_column(ForeignKey("result_corrections.id"), default=None)
    # known to the session so that deleting a table's rows removes a withdrawal before the row it names
    withdraws: Mapped["ResultCorrection | None"] = relationship(remote_side=[id])
    created_at: Mapped[datetime] = mapped_column(default=_now)


class GrantRow(Model):
    """An unlock given to one device: the role it opens (a game's referee, a tournament's director, the organiser),
    for which game or tournament, until when, and whether it was ended early (the device's "Lock", or the
    director's).  The device's session cookie holds the grant's token; only the token's SHA-256 is kept here, so
    reading the database gives no live token.  ``device`` is a short label of the device's browser and system."""

    __tablename__ = "grants"

    id: Mapped[int] = mapped_column(primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    role: Mapped[str] = mapped_column(String(20))
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True, default=None)
    tournament_id: Mapped[int | None] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), index=True,
                                                      default=None)
    device: Mapped[str] = mapped_column(String(60), default="", server_default="")
    created_at: Mapped[datetime] = mapped_column()  # UTC, naive (as the game clock's times)
    expires_at: Mapped[datetime] = mapped_column()
    revoked_at: Mapped[datetime | None] = mapped_column(default=None)


class RulingRow(Model):
    """A ruling on a disputed entry: who claimed what, the ruling, the clause, who decided (the table's referee, a
    judge, or the head judge on appeal), when.  Appended, never edited: each row's ``hash`` chains it to the game's
    ruling before it (``referee.engine.chain.ruling_link``), so a changed, removed or inserted ruling is seen when the
    game's rulings are read.  ``n`` counts the game's rulings from 1; a (game, n) pair is written once."""

    __tablename__ = "rulings"
    __table_args__ = (UniqueConstraint("game_id", "n", name="uq_rulings_game_n"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    n: Mapped[int] = mapped_column()
    entry: Mapped[int] = mapped_column()  # the entry disputed (its seq)
    claim: Mapped[str] = mapped_column(Text)
    ruling: Mapped[str] = mapped_column(Text)
    clause: Mapped[str] = mapped_column(String(200), default="", server_default="")
    decider: Mapped[str] = mapped_column(String(20))  # "referee", "judge", "head_judge"
    recorded_at: Mapped[datetime] = mapped_column()  # UTC, naive: part of the hashed text
    hash: Mapped[str] = mapped_column(String(64))


class JudgeCallRow(Model):
    """A table's call for a judge: the entry in dispute, who called (the table's referee, or a player), when it
    called, and when a judge's ruling answered it.  ``open_game_id`` is the game's id while the call is open and None once answered: unique, so a table has
    one open call at most, whatever taps or tablets race (two NULLs never collide)."""

    __tablename__ = "judge_calls"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    open_game_id: Mapped[int | None] = mapped_column(unique=True, default=None)
    entry: Mapped[int] = mapped_column()  # the entry in dispute, as the call named it (the latest by default)
    caller: Mapped[str] = mapped_column(String(200), default="", server_default="")  # a player's name; "": the referee
    called_at: Mapped[datetime] = mapped_column()  # UTC, naive
    answered_at: Mapped[datetime | None] = mapped_column(default=None)
    ruling_id: Mapped[int | None] = mapped_column(ForeignKey("rulings.id", ondelete="SET NULL"), default=None)


class SignOffRow(Model):
    """A player's sign-off of a finished game's final ranking, taken at the table on the referee's tablet: they
    confirm it, or refuse it with their reason.  Appended, never edited: ``n`` counts from 1 per game, and a
    (game, n) pair is written once.  Each names the record it was given on (``head``: the hash of the record's last
    entry then, and ``entries``: how many there were; at a tournament's table whose result the director had
    corrected, ``ranking``: the digest of the corrected result, ``chain.ranking_digest``), and ``hash`` chains it
    to the sign-off before it (``chain.sign_off_link``), so a changed, inserted or removed sign-off shows on the
    next read."""

    __tablename__ = "sign_offs"
    __table_args__ = (UniqueConstraint("game_id", "n", name="uq_sign_offs_game_n"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    n: Mapped[int] = mapped_column()
    head: Mapped[str] = mapped_column(String(64))
    entries: Mapped[int] = mapped_column()
    player: Mapped[str] = mapped_column(String(200))
    verdict: Mapped[str] = mapped_column(String(10))  # "confirms" or "refuses"
    reason: Mapped[str] = mapped_column(String(300), default="", server_default="")
    at: Mapped[datetime] = mapped_column()  # UTC, naive, to the second (as hashed)
    # the director's corrected result it was given on (None: the game's own result at ``head``); hashed when set
    ranking: Mapped[str | None] = mapped_column(String(64), default=None)
    hash: Mapped[str] = mapped_column(String(64))


class ScheduledBackupRow(Model):
    """The backups the app takes while serving (``services/backups.py``): one row (id 1), shared by every worker
    process.  A worker takes an interval's backup by moving ``started_at`` on in one conditional update, so one
    backup is taken per interval whatever the number of workers; the last one made and the last failure are kept
    for the director's page.  Moments are UTC, naive."""

    __tablename__ = "scheduled_backups"

    id: Mapped[int] = mapped_column(primary_key=True)
    started_at: Mapped[datetime | None] = mapped_column(default=None)  # the interval's backup was begun
    finished_at: Mapped[datetime | None] = mapped_column(default=None)  # the last backup made
    path: Mapped[str] = mapped_column(String(1000), default="", server_default="")  # the file it was made in
    size: Mapped[int | None] = mapped_column(default=None)
    failed_at: Mapped[datetime | None] = mapped_column(default=None)  # the last backup that could not be made
    failure: Mapped[str] = mapped_column(Text, default="", server_default="")  # why, in one line
