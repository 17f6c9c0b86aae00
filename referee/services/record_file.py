"""A record file as the app writes and reads it: the header and the entries (the engine's), then the game's
rulings (``{"ruling": ...}`` lines) and the players' sign-offs (``{"signoff": ...}`` lines), which are no facts of
play and are set aside before the engine reads the file, and, in a file a tablet wrote, the hash its entries chain
to (``{"chain": ...}``, checked against them) (``docs/game-record.md``)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ..engine import chain
from ..engine import Game, Header, RecordError, parse_record, replay, side_line
from . import rulesets, rulings, signoffs



@dataclass
class Sides:
    """A record file's ruling, sign-off and chain lines: each line's number and the object under its key."""

    rulings: list[tuple[int, object]] = field(default_factory=list)
    signoffs: list[tuple[int, object]] = field(default_factory=list)
    chain: list[tuple[int, object]] = field(default_factory=list)


def split(lines: list[str]) -> tuple[list[str], Sides]:
    """A record file's lines with its ruling and sign-off lines left blank (the engine reads entries only; the
    entries' line numbers stay as in the file), and those lines set aside."""
    kept: list[str] = []
    sides = Sides()
    for number, text in enumerate(lines, start=1):
        side = side_line(text)
        if side is not None:
            key, value = side
            {"ruling": sides.rulings, "signoff": sides.signoffs}.get(key, sides.chain).append((number, value))
        kept.append("" if side is not None else text)
    return kept, sides


def entry_texts(game: Game) -> list[str]:
    """Each recorded entry's text as the database stores it (what its hash covers)."""
    return [chain.entry_text(entry.to_dict()) for entry in game.entries]


def over_after(game: Game) -> Callable[[int], bool]:
    """Whether the game was over after its first k entries (each asked once)."""
    known: dict[int, bool] = {}

    def over(k: int) -> bool:
        if k not in known:
            known[k] = game.state_after(k).over
        return known[k]
    return over


@dataclass(frozen=True)
class Read:
    """A record file read and checked whole: its header, the game its entries make, and its sides."""

    header: Header
    game: Game
    sides: Sides


def read(text: str) -> Read:
    """A record file's header and entries replayed (:class:`RecordError` naming the line of the first the rules
    refuse; :class:`RulesetError` for a header naming no ruleset), its ruling and sign-off lines set aside, its
    chain line checked against its header and entries (:class:`RecordError` naming that line: the file was changed
    after the tablet that refereed the game wrote it)."""
    lines, sides = split(text.splitlines())
    header, entries = parse_record(lines)
    game = replay(rulesets.for_header(header), header, entries)
    for number, said in sides.chain:
        wrong = chain.chain_refusal(said, header.to_dict(), entry_texts(game))
        if wrong is not None:
            raise RecordError(number, wrong.message, code=wrong.code, refusal=wrong)
    return Read(header, game, sides)


def check(text: str) -> Read:
    """A record file checked as an import checks it (``referee verify FILE``), writing nothing: its entries
    replayed, each ruling line as if recorded then, each sign-off line's hash chain and what it names;
    :class:`RecordError` naming the line of the first that is not right."""
    found = read(text)
    game = found.game
    rulings.checked_lines(found.sides.rulings, game.ruleset.clauses, len(game.entries))
    header = found.header.to_dict()
    signoffs.checked_lines(found.sides.signoffs, header, chain.heads(header, entry_texts(game)),
                           [p.name for p in game.state.players], over_after(game))
    return found
