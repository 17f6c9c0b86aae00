"""Tables: a game (its record header and referee PIN) and its append-only entry log.

No rule logic lives here: the entries are the game record, and the engine
derives everything else from them.
"""
from __future__ import annotations

from datetime import datetime, timezone

from sqlalchemy import JSON, ForeignKey, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .db import db


def _now() -> datetime:
    return datetime.now(timezone.utc)


class GameRow(db.Model):
    __tablename__ = "games"

    id: Mapped[int] = mapped_column(primary_key=True)
    title: Mapped[str] = mapped_column(String(200), default="")
    header: Mapped[dict] = mapped_column(JSON)  # the game record's header
    pin_hash: Mapped[str] = mapped_column(String(200))
    time_limit_minutes: Mapped[int | None] = mapped_column(default=None)
    # the game clock: time run before the last start, and when it was last started (UTC) if it is running
    clock_elapsed_seconds: Mapped[float] = mapped_column(default=0.0, server_default="0")
    clock_started_at: Mapped[datetime | None] = mapped_column(default=None)
    created_at: Mapped[datetime] = mapped_column(default=_now)
    entries: Mapped[list["EntryRow"]] = relationship(back_populates="game", order_by="EntryRow.seq",
                                                      cascade="all, delete-orphan")


class EntryRow(db.Model):
    """One referee entry; ``seq`` counts from 1 per game, and a (game, seq) pair is written once."""

    __tablename__ = "entries"
    __table_args__ = (UniqueConstraint("game_id", "seq", name="uq_entries_game_seq"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seq: Mapped[int] = mapped_column()
    data: Mapped[str] = mapped_column(Text)  # the entry as a JSON object, as in the record file
    recorded_at: Mapped[datetime] = mapped_column(default=_now)
    game: Mapped[GameRow] = relationship(back_populates="entries")
