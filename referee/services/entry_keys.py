"""The keys the table screen's entry forms carry, so that a form sent twice records once and is told so.

A key is made when the screen is drawn (random, unguessable) and sent with whichever form of that screen is
tapped.  The first time it comes, the entries the form asks for are recorded and the key is kept with them, in
the same commit, unique per game.  When the same key comes again (the tap's answer was lost on the way and the
browser, or the referee, sent the form again), nothing is recorded: the sender is told the entries it recorded
then, once (:class:`AlreadyRecorded`), and a key sent with another entry than the one it recorded is refused
(:class:`KeyReused`).  Keys are kept beside the entries, not in their hashed text: a key says how a request came,
no fact of play, so a replay, a record file and the chain are the same without it.
"""
from __future__ import annotations

import hashlib
import json
import re
import secrets

from sqlalchemy import bindparam, select

from ..cache import STATEMENTS, kept_in
from ..store.db import db, insert_rows, read_plain
from ..engine import RefereeError
from ..store.models import EntryKeyRow

KEY = re.compile(r"[A-Za-z0-9_-]{16,64}")  # what new_key makes (24 characters), with room to spare
MAX_KEYS = 8  # the keys a returning screen names (its region's and its open panels')

__all__ = ["KEY", "AlreadyRecorded", "KeyReused", "body", "new_key", "entries_of_keys", "kept_keys"]


class AlreadyRecorded(Exception):
    """The form was sent before with this key and its entries were recorded then: nothing is recorded again.
    ``seq``: the first entry it recorded; ``entries``: how many."""

    def __init__(self, seq: int, entries: int) -> None:
        super().__init__(f"entries {seq} to {seq + entries - 1} were recorded with this key")
        self.seq, self.entries = seq, entries


class KeyReused(RefereeError):
    """A key that recorded one entry sent with another: nothing is recorded."""

    code = "key_reused"


def new_key() -> str:
    """A new screen's key: 18 random bytes (144 bits), in 24 characters an address or a form carries as they are."""
    return secrets.token_urlsafe(18)


def body(expected_seq: int, asked: object) -> str:
    """The digest of what a form asks (the table it saw and its entries, as the engine reads them): the same form
    sent again has the same digest."""
    text = json.dumps({"seq": expected_seq, "asked": asked}, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


@kept_in(STATEMENTS)
def _repeat_statement():
    """What a form's key recorded, if it did, in the game ``game``: one statement, built once (every tap asks it)."""
    return select(EntryKeyRow.seq, EntryKeyRow.entries, EntryKeyRow.body).where(
        EntryKeyRow.game_id == bindparam("game"), EntryKeyRow.key == bindparam("key"))


def repeat(game_id: int, key: str, digest: str) -> None:
    """Raise :class:`AlreadyRecorded` when this key recorded this same form before, :class:`KeyReused` when it
    recorded another; return when the key is new."""
    rows = read_plain(_repeat_statement(), {"game": game_id, "key": key})
    if not rows:
        return
    seq, entries, body_ = rows[0]
    if body_ == digest:
        raise AlreadyRecorded(seq, entries)
    raise KeyReused.of("this screen's form already recorded entry {n}; it was sent again with another entry, which "
                       "was not recorded: look at the table again", {"n": seq})


def keep(game_id: int, key: str, digest: str, first: int, entries: int) -> None:
    """Write the key of entries being recorded in the session's transaction (committed with them; a key another
    process kept at the same moment raises the database's IntegrityError, here or at the commit)."""
    insert_rows(EntryKeyRow, {"game_id": game_id, "key": key, "seq": first, "entries": entries, "body": digest})


def kept_keys(game_id: int, keys: list[str]) -> set[str]:
    """Which of these keys the game keeps (with entries recorded by their forms)."""
    found: set[str] = set()
    for start in range(0, len(keys), 500):  # a bounded list of values in each statement
        found.update(db.session.scalars(select(EntryKeyRow.key).where(
            EntryKeyRow.game_id == game_id, EntryKeyRow.key.in_(keys[start:start + 500]))))
    return found


def entries_of_keys(game_id: int, keys: list[str], after: int) -> set[int]:
    """The numbers of the game's entries after ``after`` that forms with these keys recorded."""
    keys = [k for k in keys if KEY.fullmatch(k)][:MAX_KEYS]
    if not keys:
        return set()
    rows = db.session.execute(select(EntryKeyRow.seq, EntryKeyRow.entries).where(
        EntryKeyRow.game_id == game_id, EntryKeyRow.key.in_(keys), EntryKeyRow.seq + EntryKeyRow.entries > after + 1))
    return {n for seq, count in rows for n in range(seq, seq + count) if n > after}
