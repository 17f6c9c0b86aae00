"""What the referee records: one entry per fact of the game.

An entry is checked for form here (known type, every field present and of
its kind, dice from 1 to 6); whether the rules allow it now is
:mod:`.rules`' job.  An :class:`Action` is an entry the rules would take now,
as ``legal_actions`` lists them for the tablet's buttons.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, TypeVar

from .errors import MalformedEntry
from .numbers import DIGITS, LARGEST, NotWhole, square_ref, whole_number

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
    "fine_or_card": (("player", "choice"), ()),
    "rent_roll": (("player", "dice"), ()),
    "build_house": (("player",), ()),
    "sell_to_bank": (("player",), ()),
    "keep": (("player",), ()),
    "pay_bail": (("player",), ()),
    "use_jail_card": (("player",), ("card",)),
    "skip_jail_turn": (("player",), ()),
    "bankrupt": (("player",), ("creditor",)),
    "build": (("player", "targets"), ()),
    "withdraw_build": (("player", "targets"), ()),
    "close_builds": ((), ()),
    "place_building": (("player", "square"), ()),
    "rolloff": (("player", "dice"), ()),
    "void": (("count",), ()),
}  # and each kind declared in a module of its own (registry.register adds its fields, and its choices below)
INCOME_TAX_CHOICES = ("flat", "percent")
FINE_OR_CARD_CHOICES = ("pay", "draw")
CHOICES: dict[str, tuple[str, ...]] = {}  # entry type -> the values its choice may take (the kinds of .kinds)


# how an offer names its deeds: as the entry gave them (a square's index or id), or as squares of the board (the
# rules' offers, Offer[int])
D = TypeVar("D", bound="int | str", covariant=True)
E = TypeVar("E", bound="int | str")


@dataclass(slots=True, unsafe_hash=True)
class Offer(Generic[D]):
    """One side of a trade: what one player hands to the other at once.  A value nothing changes once made (an
    entry's hash takes in its offers); not frozen, as a frozen one takes twice as long to make and every trade the
    rules check makes two."""

    cash: int = 0
    deeds: tuple[D, ...] = ()
    cards: tuple[str, ...] = ()

    @property
    def empty(self) -> bool:
        return not (self.cash or self.deeds or self.cards)

    def with_deeds(self, deeds: tuple[E, ...]) -> "Offer[E]":
        """The same offer with its deeds named otherwise (as squares of the board, for the rules)."""
        return Offer(self.cash, deeds, self.cards)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.cash:
            out["cash"] = self.cash
        if self.deeds:
            out["deeds"] = list(self.deeds)
        if self.cards:
            out["cards"] = list(self.cards)
        return out


@dataclass(slots=True, unsafe_hash=True)
class Entry:
    """One recorded fact.  ``player`` is a name as written in the record.  Never changed once made (a record is
    only appended to); not a frozen dataclass because a frozen one of sixteen fields takes eight times as long to
    make, and every entry read or played makes one."""

    type: str
    player: str | None = None
    players: tuple[str, ...] = ()
    dice: tuple[int, int] | None = None
    amount: int | None = None
    square: int | str | None = None
    card: str | None = None
    choice: str | None = None
    count: int | None = None
    targets: tuple[tuple[int | str, int | Literal["hotel"]], ...] = ()  # (square, level or "hotel")
    deeds: tuple[int | str, ...] = ()  # deal: the deeds dealt to the player
    partner: str | None = None
    creditor: str | None = None  # bankrupt: the destination's owner who takes over a jail-fine bankruptcy (JMA)
    give: Offer[int | str] | None = None  # from player to partner
    take: Offer[int | str] | None = None  # from partner to player
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


def as_given(value: Any) -> str:
    """A value as the entry gave it, in JSON's words (null, true, "text"), for a refusal's message."""
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        return repr(value)


def _malformed(code: str, pattern: str, /, **params: Any) -> MalformedEntry:
    """A refusal of the entry's form: ``pattern`` (English) filled with ``params`` (the fields and values as given)."""
    return MalformedEntry.of(pattern, params, code=code)


MAX_NAME = 60  # characters of a player's name: a score sheet's column, and what a database column holds
MAX_NOTE = 500  # characters of a referee's note on an entry


def text_problem(field: str, value: str, maximum: int) -> MalformedEntry | None:
    """What makes ``value`` unfit to store and show, as a refusal naming ``field`` (not raised), or None: longer
    than ``maximum`` characters, or a control character (NUL included, which PostgreSQL cannot store) or half of a
    surrogate pair (which no page can show)."""
    if len(value) > maximum:
        return _malformed("too_long", "{field} is longer than {maximum} characters", field=field, maximum=maximum)
    for ch in value:
        if ch < " " or "\x7f" <= ch < "\xa0" or "\ud800" <= ch <= "\udfff":
            return _malformed("bad_text", "{field} contains a character that cannot be stored or shown (U+{code})",
                              field=field, code=f"{ord(ch):04X}")
    return None


def _text(name: str, value: Any, maximum: int = MAX_NAME) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _malformed("bad_field", "{field} must be a non-empty text, got {value}", field=name, value=as_given(value))
    problem = text_problem(name, value, maximum)
    if problem:
        raise problem
    return value


def whole_field(name: str, text: str, minimum: int = 0) -> int:
    """The number typed in a form's field ``name`` (an amount, a count, the dice, the screen's ``seq``): a refusal
    naming the field and the limit unless it is a whole number from ``minimum`` to :data:`LARGEST`."""
    try:
        return whole_number(name, text, minimum, LARGEST)
    except NotWhole as exc:
        raise _refusal(exc) from None


def run_key(key: str, n: int) -> str:
    """The key a tablet keeps the ``n``-th entry of one form's run under (a decline and the opening bid its button
    adds: the form's own key for the first, this for the next), each kept and sent as a tap of its own.  The server
    knows such a pair for the form it recorded whole under ``key`` (``services.sync``)."""
    return key if n == 0 else f"{key[:60]}-{n}"


def json_whole(digits: str) -> int:
    """``parse_int`` for an entry's JSON: a number longer than any an entry may carry is refused as it is read,
    never converted (its bounds are checked with its field's, :func:`_whole`)."""
    most = 10 ** DIGITS - 1
    try:
        return whole_number("number", digits, -most, most)
    except NotWhole as exc:
        raise _malformed("too_large", "{value} has more digits than any number an entry may carry (at most {digits})",
                         value=exc.value, digits=DIGITS) from None


def _refusal(exc: NotWhole) -> MalformedEntry:
    """An entry's refusal of a number: too large for any entry, or not one from the field's minimum."""
    if exc.too_large:
        return _malformed("too_large", "{field} is more than {maximum}, the largest number an entry may carry",
                          field=exc.field, maximum=LARGEST)
    return _malformed("bad_field", "{field} must be a whole number of at least {minimum}, got {value}",
                      field=exc.field, minimum=exc.minimum, value=as_given(exc.given))


def _whole(name: str, value: Any, minimum: int) -> int:
    try:
        return whole_number(name, value, minimum, LARGEST, text=False)
    except NotWhole as exc:
        raise _refusal(exc) from None


def parse_dice(value: Any) -> tuple[int, int]:
    """Two dice, each a whole number from 1 to 6."""
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        raise _malformed("bad_dice", "dice must be two numbers, got {value}", value=as_given(value))
    for die in value:
        if not isinstance(die, int) or isinstance(die, bool) or not 1 <= die <= 6:
            raise _malformed("impossible_die", "impossible die {die}: a die shows 1 to 6", die=as_given(die))
    return (value[0], value[1])


def _offer(side: str, data: Any) -> Offer[int | str]:
    if not isinstance(data, dict):
        raise _malformed("bad_field", "{field} must be an object with cash, deeds and cards, got {value}", field=side,
                         value=as_given(data))
    extra = sorted(set(data) - {"cash", "deeds", "cards"})
    if extra:
        raise _malformed("unknown_field", "unknown field(s) {fields}", fields=", ".join(f"{side}.{x}" for x in extra))
    cash = data.get("cash", 0)
    if cash:
        cash = _whole(f"{side}.cash", cash, 1)
    deeds = data.get("deeds", [])
    cards = data.get("cards", [])
    if not isinstance(deeds, list) or any(isinstance(d, bool) or not isinstance(d, (int, str)) for d in deeds):
        raise _malformed("bad_field", "{field} must be a list of squares, got {value}", field=f"{side}.deeds",
                         value=as_given(deeds))
    if not isinstance(cards, list):
        raise _malformed("bad_field", "{field} must be a list of card ids, got {value}", field=f"{side}.cards",
                         value=as_given(cards))
    return Offer(cash, tuple(deeds), tuple(_text(f"{side}.cards", c) for c in cards))


def parse_entry(data: Any) -> Entry:
    """An :class:`Entry` from a decoded JSON object; :class:`MalformedEntry` if it is not one."""
    if not isinstance(data, dict):
        raise _malformed("not_an_object", "an entry must be a JSON object, got {value}", value=as_given(data))
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in ENTRY_FIELDS:  # (a list or an object is no key of the table)
        raise _malformed("unknown_type", "unknown entry type {type}", type=as_given(kind))
    required, optional = ENTRY_FIELDS[kind]
    allowed = set(required) | set(optional) | {"type", "seq", "note"}
    extra = sorted(set(data) - allowed)
    if extra:
        raise _malformed("unknown_field", "unknown field(s) {fields}", fields=", ".join(extra))
    missing = [f for f in required if f not in data]
    if missing:
        raise _malformed("missing_field", "missing field(s) {fields}", fields=", ".join(missing))
    fields: dict[str, Any] = {}
    if "player" in data:
        fields["player"] = _text("player", data["player"])
    if "players" in data:
        names = data["players"]
        if not isinstance(names, list) or not names:
            raise _malformed("bad_field", "{field} must be a list of names, got {value}", field="players",
                             value=as_given(names))
        fields["players"] = tuple(_text("players", n) for n in names)
    if kind == "bid" and ("player" in data) == ("players" in data):
        raise _malformed("missing_field", "a bid gives either player (one call) or players (equal calls at once)")
    if "dice" in data:
        fields["dice"] = parse_dice(data["dice"])
    if "amount" in data:
        fields["amount"] = _whole("amount", data["amount"], 1)
    if "count" in data:
        fields["count"] = _whole("count", data["count"], 1)
    if "square" in data:
        sq = data["square"]
        if isinstance(sq, bool) or not isinstance(sq, (int, str)):
            raise _malformed("bad_field", "{field} must be an index or a square id, got {value}", field="square",
                             value=as_given(sq))
        fields["square"] = sq
    if "card" in data:
        fields["card"] = _text("card", data["card"])
    if "targets" in data:
        targets = data["targets"]
        if not isinstance(targets, dict) or not targets:
            raise _malformed("bad_field", "{field} must map squares to building levels, got {value}",
                             field="targets", value=as_given(targets))
        for square, level in targets.items():
            if level != "hotel" and (not isinstance(level, int) or isinstance(level, bool) or level < 0):
                raise _malformed("bad_field", "{square}: a level is a number of houses or \"hotel\", got {value}",
                                 square=square, value=as_given(level))
        fields["targets"] = tuple((square_ref(k), v) for k, v in targets.items())
    if "creditor" in data:
        fields["creditor"] = _text("creditor", data["creditor"])
    if "deeds" in data:
        deeds = data["deeds"]
        if not isinstance(deeds, list) or not deeds or any(isinstance(d, bool) or not isinstance(d, (int, str))
                                                            for d in deeds):
            raise _malformed("bad_field", "{field} must be a list of squares, got {value}", field="deeds",
                             value=as_given(deeds))
        fields["deeds"] = tuple(deeds)
    if "partner" in data:
        fields["partner"] = _text("partner", data["partner"])
    for side in ("give", "take"):
        if side in data:
            fields[side] = _offer(side, data[side])
    if "note" in data:
        fields["note"] = _text("note", data["note"], MAX_NOTE)
    if "choice" in data:
        if kind == "fine_or_card" and data["choice"] not in FINE_OR_CARD_CHOICES:
            raise _malformed("bad_field", "{field} must be pay or draw, got {value}", field="choice",
                             value=as_given(data["choice"]))
        choices = CHOICES.get(kind)
        if choices is not None and data["choice"] not in choices:
            raise _malformed("bad_field", "{field} must be one of {choices}, got {value}", field="choice",
                             choices=", ".join(choices), value=as_given(data["choice"]))
        if kind == "income_tax" and data["choice"] not in INCOME_TAX_CHOICES:
            raise _malformed("bad_field", "{field} must be flat or percent, got {value}", field="choice",
                             value=as_given(data["choice"]))
        fields["choice"] = data["choice"]
    return Entry(kind, **fields)


@dataclass(slots=True)
class Action:
    """Something that may be recorded now; ``detail`` carries its limits (price, minimum bid, cards).  Not frozen:
    legal_actions makes dozens at each call, and a frozen dataclass takes three times as long to make."""

    type: str
    player: int | None = None
    detail: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def by(self) -> int:
        """The player whose action it is, for an action of a player (all but the referee's: closing declarations,
        the hammer): ValueError for one of no player."""
        if self.player is None:
            raise ValueError(f"a {self.type} action is no player's")
        return self.player
