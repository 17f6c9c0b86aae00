"""The record's hash chain: each entry carries a hash of its own text chained to the one before (as
a commit names its parent), starting from a hash of the game's header.  Changing, inserting or removing a stored
entry breaks the chain at that entry, and every full read of a game notices it (``docs/game-record.md``,
"Tamper evidence").

Pure functions on the record's text: the service writes and checks the stored hashes; the tablet chains the entries
it records on its own, and its record file ends on the hash they chain to (``docs/game-record.md``, "A game refereed
on a tablet alone").
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

from .errors import RefereeError

VERSION = "referee-chain-1"


def canonical(data: Any) -> str:
    """JSON text that does not depend on how a database column gave the object back (key order, spacing)."""
    return json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def genesis(header: Mapping[str, Any]) -> str:
    """The chain's start: the game's header (players, ruleset, options, set-up position) hashed."""
    return hashlib.sha256(f"{VERSION}\n{canonical(header)}".encode("utf-8", "surrogatepass")).hexdigest()


def link(previous: str, seq: int, data: str) -> str:
    """The hash of entry ``seq`` whose stored text is ``data``, after the entry (or header) hashed ``previous``."""
    return hashlib.sha256(f"{previous}\n{seq}\n{data}".encode("utf-8", "surrogatepass")).hexdigest()


def heads(header: Mapping[str, Any], texts: Iterable[str]) -> list[str]:
    """The hashes a record's entries (their stored texts, in order) chain to from its header: ``[k - 1]`` is the
    hash of entry k."""
    out: list[str] = []
    head = genesis(header)
    for seq, data in enumerate(texts, start=1):
        head = link(head, seq, data)
        out.append(head)
    return out


def entry_text(data: Mapping[str, Any]) -> str:
    """An entry's text as the record keeps it (what its hash covers): its JSON values, as the entry writes them."""
    return json.dumps(dict(data), ensure_ascii=False)


def record_head(header: Mapping[str, Any], texts: Sequence[str]) -> str:
    """The hash a record chains to: its last entry's, or its header's while it has none."""
    found = heads(header, texts)
    return found[-1] if found else genesis(header)


CHAIN_LINE = "chain"  # a record file's closing line's one key: {"chain": {"entries": 45, "head": "9f2c…"}}


def chain_line(header: Mapping[str, Any], texts: Sequence[str]) -> str:
    """A record file's closing line as a tablet that refereed the game writes it: how many entries it recorded and
    the hash they chain to, so that the file's header and entries are known to be the ones it recorded."""
    return json.dumps({CHAIN_LINE: {"entries": len(texts), "head": record_head(header, texts)}})


def chain_refusal(said: object, header: Mapping[str, Any], texts: Sequence[str]) -> RefereeError | None:
    """Why a record file's chain line (``said``: the object under its key) is not the one its header and entries
    (their texts) make, or None when it is: it must name every entry of the file and the hash they chain to."""
    if not isinstance(said, dict) or set(said) != {"entries", "head"} or type(said["entries"]) is not int \
            or not isinstance(said["head"], str):
        return RefereeError.of('a chain line is {"chain": {"entries": N, "head": HASH}}, got {value}',
                               {"value": json.dumps(said, ensure_ascii=False)[:200]}, code="bad_chain")
    if said["entries"] != len(texts):
        return RefereeError.of("the chain line names {named} entries, the file has {count}: entries were added or "
                               "removed after the record was written", {"named": said["entries"], "count": len(texts)},
                               code="bad_chain")
    head = record_head(header, texts)
    if said["head"] != head:
        return RefereeError.of("the header and entries chain to {head}, not to the {said} the chain line names: the "
                               "record was changed after it was written", {"head": head[:12],
                                                                          "said": said["head"][:12]},
                               code="bad_chain")
    return None


@dataclass(frozen=True)
class Break:
    """Where the stored record stops being the one that was written: entry ``at`` (counting from 1)."""

    at: int
    reason: str  # "changed" (its text or hash does not follow from the entries before), "missing", "inserted"


def verify(header: Mapping[str, Any], rows: Iterable[tuple[int, str, str | None]]) -> tuple[list[str], str, Break | None]:
    """Check stored rows ``(seq, data, hash)`` in order: the texts of the good entries, the hash they end on, and
    the first break (None when the whole record is as written)."""
    good: list[str] = []
    head = genesis(header)
    for seq, data, stored in rows:
        expected_seq = len(good) + 1
        if seq != expected_seq:
            return good, head, Break(expected_seq, "missing" if seq > expected_seq else "inserted")
        if stored != link(head, seq, data):
            return good, head, Break(seq, "changed")
        good.append(data)
        head = stored
    return good, head, None


RULINGS_VERSION = "referee-rulings-1"


def rulings_genesis(game_id: int) -> str:
    """The start of a game's chain of rulings (a chain of its own beside the entries')."""
    return hashlib.sha256(f"{RULINGS_VERSION}\n{game_id}".encode("utf-8")).hexdigest()


def ruling_link(previous: str, n: int, ruling: Mapping[str, Any]) -> str:
    """The hash of ruling ``n`` (its fields as canonical JSON: entry, claim, ruling, clause, decider, time) after the
    ruling (or the start) hashed ``previous``."""
    return hashlib.sha256(f"{previous}\n{n}\n{canonical(ruling)}".encode("utf-8", "surrogatepass")).hexdigest()


SIGN_OFF_VERSION = "referee-sign-off-1"


def sign_off_link(previous: str, n: int, fields: Mapping[str, Any]) -> str:
    """The hash of a game's sign-off ``n``: what it says (``fields``: the record's head hash and entry count it was
    given on, the player, the verdict, the reason and the time, and the :func:`ranking_digest` of the director's
    corrected result it was given on when there was one) after the sign-off before it hashed ``previous`` (the first
    comes after the game's :func:`genesis`)."""
    text = f"{SIGN_OFF_VERSION}\n{previous}\n{n}\n{canonical(fields)}"
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


RANKING_VERSION = "referee-ranking-1"


def ranking_digest(result: Mapping[str, Any]) -> str:
    """What names a director's corrected result (its places, players, totals and how the game ended, as the
    correction keeps them): the same result gives the same digest, however a database column gave it back."""
    return hashlib.sha256(f"{RANKING_VERSION}\n{canonical(result)}".encode("utf-8", "surrogatepass")).hexdigest()


def verify_sign_offs(start: str, rows: Iterable[tuple[int, Mapping[str, Any], str]], heads: Mapping[int, str | None]
                     ) -> int | None:
    """Check a game's stored sign-offs ``(n, fields, hash)`` in order, from its genesis ``start``: the number of
    the first one that is not as written (changed, inserted, missing, or naming a record head the game's entries
    never had: ``heads`` maps an entry count to the hash of that entry), or None when all are."""
    previous = start
    for expected, (n, fields, stored) in enumerate(rows, start=1):
        if n != expected or stored != sign_off_link(previous, n, fields):
            return expected
        if heads.get(fields["entries"]) != fields["head"]:
            return expected
        previous = stored
    return None
