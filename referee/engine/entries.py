"""What the referee records: one entry per fact of the game.

An entry is checked for form here (known type, every field present and of
its kind, dice from 1 to 6); whether the rules allow it now is
:mod:`.rules`' job.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import MalformedEntry

# entry type -> (required fields, optional fields)
ENTRY_FIELDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "seat_roll": (("player", "dice"), ()),
    "roll": (("player", "dice"), ()),
    "deal": (("player", "deeds"), ()),
    "buy": (("player",), ()),
    "decline": (("player",), ()),
    "bid": (("amount",), ("player", "players")),
    "hammer": ((), ()),
    "income_tax": (("player", "choice"), ()),
    "card": (("player", "card"), ()),
    "rent_roll": (("player", "dice"), ()),
    "pay_bail": (("player",), ()),
    "use_jail_card": (("player",), ("card",)),
    "mortgage": (("player", "square"), ()),
    "unmortgage": (("player", "square"), ()),
    "bankrupt": (("player",), ("creditor",)),
    "build": (("player", "targets"), ()),
    "withdraw_build": (("player", "targets"), ()),
    "close_builds": ((), ()),
    "place_building": (("player", "square"), ()),
    "sell_buildings": (("player", "targets"), ()),
    "trade": (("player", "partner", "give", "take"), ()),
    "time_called": ((), ()),
    "rolloff": (("player", "dice"), ()),
    "void": (("count",), ()),
}
INCOME_TAX_CHOICES = ("flat", "percent")


@dataclass(frozen=True, slots=True)
class Offer:
    """One side of a trade: what one player hands to the other at once."""

    cash: int = 0
    deeds: tuple[int | str, ...] = ()
    cards: tuple[str, ...] = ()

    @property
    def empty(self) -> bool:
        return not (self.cash or self.deeds or self.cards)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.cash:
            out["cash"] = self.cash
        if self.deeds:
            out["deeds"] = list(self.deeds)
        if self.cards:
            out["cards"] = list(self.cards)
        return out


@dataclass(frozen=True, slots=True)
class Entry:
    """One recorded fact.  ``player`` is a name as written in the record."""

    type: str
    player: str | None = None
    players: tuple[str, ...] = ()
    dice: tuple[int, int] | None = None
    amount: int | None = None
    square: int | str | None = None
    card: str | None = None
    choice: str | None = None
    count: int | None = None
    targets: tuple[tuple[int | str, int | str], ...] = ()  # (square, level or "hotel")
    deeds: tuple[int | str, ...] = ()  # deal: the deeds dealt to the player
    partner: str | None = None
    creditor: str | None = None  # bankrupt: the destination's owner who takes over a jail-fine bankruptcy (JMA)
    give: Offer | None = None  # from player to partner
    take: Offer | None = None  # from partner to player
    note: str | None = None  # the referee's words, kept in the record for a dispute

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        required, optional = ENTRY_FIELDS[self.type]
        for name in required + optional:
            value = getattr(self, name)
            if value is None or value == ():
                continue
            if name == "targets":
                out[name] = dict(value)
            elif isinstance(value, Offer):
                out[name] = value.to_dict()
            else:
                out[name] = list(value) if isinstance(value, tuple) else value
        if self.note:
            out["note"] = self.note
        return out

    @property
    def bidders(self) -> tuple[str, ...]:
        return self.players or ((self.player,) if self.player else ())


def _text(kind: str, name: str, value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise MalformedEntry(f"{kind}: {name} must be a non-empty text, got {value!r}", code="bad_field")
    return value


def _whole(kind: str, name: str, value: Any, minimum: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise MalformedEntry(f"{kind}: {name} must be a whole number of at least {minimum}, got {value!r}",
                             code="bad_field")
    return value


def parse_dice(kind: str, value: Any) -> tuple[int, int]:
    """Two dice, each a whole number from 1 to 6."""
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        raise MalformedEntry(f"{kind}: dice must be two numbers, got {value!r}", code="bad_dice")
    for die in value:
        if not isinstance(die, int) or isinstance(die, bool) or not 1 <= die <= 6:
            raise MalformedEntry(f"{kind}: impossible die {die!r}: a die shows 1 to 6", code="impossible_die")
    return (value[0], value[1])


def _offer(kind: str, side: str, data: Any) -> Offer:
    if not isinstance(data, dict):
        raise MalformedEntry(f"{kind}: {side} must be an object with cash, deeds and cards, got {data!r}",
                             code="bad_field")
    extra = sorted(set(data) - {"cash", "deeds", "cards"})
    if extra:
        raise MalformedEntry(f"{kind}: {side}: unknown field(s) {', '.join(extra)}", code="unknown_field")
    cash = data.get("cash", 0)
    if cash:
        cash = _whole(kind, f"{side}.cash", cash, 1)
    deeds = data.get("deeds", [])
    cards = data.get("cards", [])
    if not isinstance(deeds, list) or any(isinstance(d, bool) or not isinstance(d, (int, str)) for d in deeds):
        raise MalformedEntry(f"{kind}: {side}.deeds must be a list of squares, got {deeds!r}", code="bad_field")
    if not isinstance(cards, list):
        raise MalformedEntry(f"{kind}: {side}.cards must be a list of card ids, got {cards!r}", code="bad_field")
    return Offer(cash, tuple(deeds), tuple(_text(kind, f"{side}.cards", c) for c in cards))


def parse_entry(data: Any) -> Entry:
    """An :class:`Entry` from a decoded JSON object; :class:`MalformedEntry` if it is not one."""
    if not isinstance(data, dict):
        raise MalformedEntry(f"an entry must be a JSON object, got {data!r}", code="not_an_object")
    kind = data.get("type")
    if kind not in ENTRY_FIELDS:
        raise MalformedEntry(f"unknown entry type {kind!r}", code="unknown_type")
    required, optional = ENTRY_FIELDS[kind]
    allowed = set(required) | set(optional) | {"type", "seq", "note"}
    extra = sorted(set(data) - allowed)
    if extra:
        raise MalformedEntry(f"{kind}: unknown field(s) {', '.join(extra)}", code="unknown_field")
    missing = [f for f in required if f not in data]
    if missing:
        raise MalformedEntry(f"{kind}: missing field(s) {', '.join(missing)}", code="missing_field")
    fields: dict[str, Any] = {}
    if "player" in data:
        fields["player"] = _text(kind, "player", data["player"])
    if "players" in data:
        names = data["players"]
        if not isinstance(names, list) or not names:
            raise MalformedEntry(f"{kind}: players must be a list of names, got {names!r}", code="bad_field")
        fields["players"] = tuple(_text(kind, "players", n) for n in names)
    if kind == "bid" and ("player" in data) == ("players" in data):
        raise MalformedEntry("bid: give either player (one call) or players (equal calls at once)",
                             code="missing_field")
    if "dice" in data:
        fields["dice"] = parse_dice(kind, data["dice"])
    if "amount" in data:
        fields["amount"] = _whole(kind, "amount", data["amount"], 1)
    if "count" in data:
        fields["count"] = _whole(kind, "count", data["count"], 1)
    if "square" in data:
        sq = data["square"]
        if isinstance(sq, bool) or not isinstance(sq, (int, str)):
            raise MalformedEntry(f"{kind}: square must be an index or a square id, got {sq!r}", code="bad_field")
        fields["square"] = sq
    if "card" in data:
        fields["card"] = _text(kind, "card", data["card"])
    if "targets" in data:
        targets = data["targets"]
        if not isinstance(targets, dict) or not targets:
            raise MalformedEntry(f"{kind}: targets must map squares to building levels, got {targets!r}",
                                 code="bad_field")
        for square, level in targets.items():
            if level != "hotel" and (not isinstance(level, int) or isinstance(level, bool) or level < 0):
                raise MalformedEntry(f"{kind}: {square}: a level is a number of houses or \"hotel\", got {level!r}",
                                     code="bad_field")
        fields["targets"] = tuple((int(k) if k.isdigit() else k, v) for k, v in targets.items())
    if "creditor" in data:
        fields["creditor"] = _text(kind, "creditor", data["creditor"])
    if "deeds" in data:
        deeds = data["deeds"]
        if not isinstance(deeds, list) or not deeds or any(isinstance(d, bool) or not isinstance(d, (int, str))
                                                            for d in deeds):
            raise MalformedEntry(f"{kind}: deeds must be a list of squares, got {deeds!r}", code="bad_field")
        fields["deeds"] = tuple(deeds)
    if "partner" in data:
        fields["partner"] = _text(kind, "partner", data["partner"])
    for side in ("give", "take"):
        if side in data:
            fields[side] = _offer(kind, side, data[side])
    if "note" in data:
        fields["note"] = _text(kind, "note", data["note"])
    if "choice" in data:
        if data["choice"] not in INCOME_TAX_CHOICES:
            raise MalformedEntry(f"{kind}: choice must be flat or percent, got {data['choice']!r}",
                                 code="bad_field")
        fields["choice"] = data["choice"]
    return Entry(kind, **fields)
