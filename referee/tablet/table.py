"""A table kept on the tablet: its record (the header and the entries the server had, then the taps made on the
tablet since), folded by the engine, and each tap checked against the table the one before it left, exactly as the
server checks a tap (:func:`referee.services.games.record`): the same parse, the same rules, the same refusal with
its clause."""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from ..engine import (Game, Header, IllegalEntry, MalformedEntry, Outcome, Ruleset, parse_entry, parse_record,
                      parse_ruleset, replay, side_line, with_options)

RulesetFiles = Mapping[str, Mapping[str, Any]]  # ruleset id -> {"ruleset": ..., "board": ..., "decks": ...}


@dataclass(frozen=True)
class Tap:
    """What the engine made of a tap on the tablet: recorded (its entry's number, the decision the table now waits
    for) or refused (the refusal as the server gives it: its code, its message, the clause it enforces)."""

    recorded: bool
    seq: int
    waiting: str = ""
    refusal: Mapping[str, str] | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"recorded": self.recorded, "seq": self.seq, "waiting": self.waiting,
                "refusal": dict(self.refusal) if self.refusal is not None else None}


def ruleset_of(rulesets: RulesetFiles, header: Header) -> Ruleset:
    """The ruleset a record's header names, parsed from the values the server read from its files, with the
    header's options over the file's (as the server's ``rulesets.for_header``)."""
    files = rulesets.get(header.ruleset)
    if files is None:
        raise MalformedEntry(f"this tablet has no ruleset {header.ruleset!r}: open the table once on the network")
    return with_options(parse_ruleset(dict(files["ruleset"]), dict(files["board"]), dict(files["decks"])),
                        header.options)


class KeptTable:
    """The table's record kept on the tablet, and its fold.  ``record``: the record's text as the server exports it
    (``/games/ID/record.jsonl``: its header line, one line per entry, then its rulings' and sign-offs' lines)."""

    def __init__(self, rulesets: RulesetFiles, record: str) -> None:
        lines = record.splitlines()
        sides = [side_line(text) for text in lines]
        # the game's rulings and the players' sign-offs the server's record carries after its entries: no facts of
        # play, set aside (the tablet's record file carries them on); a chain line is made again from the entries
        self.sides = [text for text, side in zip(lines, sides) if side is not None and side[0] != "chain"]
        header, entries = parse_record(["" if side is not None else text for text, side in zip(lines, sides)])
        self.header = header
        # its history kept: the screen says the log in words at every tap (else each drawing folds it again)
        self.game: Game = replay(ruleset_of(rulesets, header), header, entries, history=True)

    @property
    def seq(self) -> int:
        """How many entries the table has."""
        return len(self.game.entries)

    def tap(self, data: Mapping[str, Any]) -> Tap:
        """Check an entry (the form's entry, as JSON values) against the table and record it here, or say why
        not and change nothing."""
        try:
            outcome = self.game.record(parse_entry(dict(data)))
        except (MalformedEntry, IllegalEntry) as refusal:
            return Tap(False, self.seq, type(self.game.state.pending).__name__, refusal.as_dict())
        return Tap(True, self.seq, type(outcome.state.pending).__name__)

    def record_run(self, run: Sequence[Mapping[str, Any]]) -> list[Outcome]:
        """Check the entries of a run (a form's entry, and the one its button adds) in order and record them all,
        or raise (:class:`MalformedEntry`, :class:`IllegalEntry`) and change nothing, as the server records a run."""
        game = self.game.copy()
        outcomes = [game.record(parse_entry(dict(data))) for data in run]
        self.game = game
        return outcomes

    def tap_json(self, text: str) -> str:
        """:meth:`tap` of a JSON entry, its answer as JSON (the tablet's script speaks JSON with Python)."""
        return json.dumps(self.tap(json.loads(text)).as_dict(), ensure_ascii=False)
