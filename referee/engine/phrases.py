"""Refusals in words: an English pattern with named placeholders, and typed values to fill them.

The engine says why it refuses an entry as a pattern and its parameters, e.g.
``"{player} does not own {square}"`` with ``player=Player(0), square=Square(39)``.  :func:`render` puts it in
English (the refusal's ``message``, which replays, the command line and the tests read); the web app renders
the same pattern in the device's language by passing its gettext and the language (pybabel extracts the
patterns: see scripts/catalogues).  A parameter that is a word of some language is a typed value here
(a square, a colour group, money, a building level, a card, the decision the table waits for, ...), never an
internal id; plain values (names as entered, numbers, an entry's text as given) are shown as they are.  The
decision awaited and the kinds of entry are the screens' to put in words (each decision has its own): the
renderer's ``say`` gives them, and the engine's English only names them.

Every ``words`` method takes ``_``, the translation of an English text (the identity for English), and
``lang``, the language of the names on the board and the cards.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from .ruleset import Money as Currency, Ruleset
from .state import GameState

Translate = Callable[[str], str]


def identity(text: str) -> str:
    return text


def separator(lang: str) -> str:
    return "、" if lang == "ja" else ", "


def named(names: Mapping[str, str], lang: str, fallback: str) -> str:
    """A name (or a card's text) in ``lang``, else in English, else ``fallback``."""
    return names.get(lang) or names.get("en") or fallback


@dataclass(frozen=True, slots=True)
class Player:
    """A player by seat index; None is the bank."""

    index: int | None

    def words(self, state: GameState, _: Translate, lang: str) -> str:
        return _("the bank") if self.index is None else state.players[self.index].name


@dataclass(frozen=True, slots=True)
class Square:
    """A square by index: its name on the board."""

    index: int

    def words(self, state: GameState, _: Translate, lang: str) -> str:
        sq = state.ruleset.squares[self.index]
        return named(sq.name, lang, sq.id)


@dataclass(frozen=True, slots=True)
class Group:
    """A colour group (or the railroads, the utilities) by its name on the board: Dark Blue, 紺."""

    id: str

    def words(self, state: GameState, _: Translate, lang: str) -> str:
        return named(state.ruleset.groups[self.id].name, lang, self.id)


@dataclass(frozen=True, slots=True)
class Money:
    amount: int

    def words(self, state: GameState, _: Translate, lang: str) -> str:
        return amount_text(state.ruleset, self.amount, lang)


# languages that group thousands with a point (30.000 M); the others with a comma (30,000 M)
DIGIT_GROUPS = {"de": "."}


def amount_text(ruleset: Ruleset, amount: int, lang: str) -> str:
    """An amount in the ruleset's currency, its digits grouped as ``lang`` groups them."""
    return money_text(ruleset.money, amount, lang)


def money_text(money: Currency, amount: int, lang: str) -> str:
    """An amount in a currency (a ruleset's ``Money``), its digits grouped as ``lang`` groups them."""
    return money.text(f"{amount:,}".replace(",", DIGIT_GROUPS.get(lang, ",")))


@dataclass(frozen=True, slots=True)
class Sum:
    """An amount in a ruleset's currency, named where there is no game: a tournament's fine, its bank's money."""

    amount: int
    money: Currency  # the ruleset's Money: its currency and where it goes

    def words(self, state: GameState | None, _: Translate, lang: str) -> str:
        return money_text(self.money, self.amount, lang)


@dataclass(frozen=True, slots=True)
class Level:
    """The buildings on a lot: no buildings, 1 house, 3 houses, hotel."""

    level: int

    def words(self, state: GameState, _: Translate, lang: str) -> str:
        return level_text(self.level, state.hotel_level, _, state.ruleset, lang)


def level_text(level: int, hotel_level: int, _: Translate = identity, ruleset: Ruleset | None = None,
               lang: str = "en") -> str:
    """A building level in words: no buildings, 1 house, 3 houses, hotel (an edition's own buildings by its words:
    1 White Rabbit Cottage)."""
    if level == hotel_level:
        return building_name(ruleset, lang, "hotel", _)
    if level == 0:
        return _("no buildings")
    return building_count(ruleset, lang, "house", level, _)


def building_name(ruleset: Ruleset | None, lang: str, kind: str, _: Translate = identity) -> str:
    """A kind of building: house, hotel, or the edition's own word for it (its board file's terms)."""
    own = ruleset.term(kind, lang) if ruleset is not None else None
    if own is not None:
        return own
    return _("hotel") if kind == "hotel" else _("house")


def building_count(ruleset: Ruleset | None, lang: str, kind: str, n: int, _: Translate = identity) -> str:
    """A number of houses or hotels: 1 house, 3 houses, 2 hotels, or in the edition's own words (its board file's
    terms: "houses" and "hotels" either a plural, or a count with %(n)s where the number goes)."""
    if ruleset is not None and (many := ruleset.term(kind + "s", lang)) is not None:
        if "%(n)s" in many:
            return many % {"n": n}
        return f"{n} {ruleset.term(kind, lang) if n == 1 else many}"
    if kind == "hotel":
        return _("1 hotel") if n == 1 else _("%(n)s hotels") % {"n": n}
    return _("1 house") if n == 1 else _("%(n)s houses") % {"n": n}


@dataclass(frozen=True, slots=True)
class Lot:
    """A lot with its buildings: Boardwalk hotel."""

    square: int
    level: int

    def words(self, state: GameState, _: Translate, lang: str) -> str:
        return f"{Square(self.square).words(state, _, lang)} {Level(self.level).words(state, _, lang)}"


@dataclass(frozen=True, slots=True)
class Count:
    """A number of houses or hotels: 1 house, 3 houses, 1 hotel."""

    kind: str  # house or hotel
    n: int

    def words(self, state: GameState, _: Translate, lang: str) -> str:
        return building_count(state.ruleset, lang, self.kind, self.n, _)


@dataclass(frozen=True, slots=True)
class Kind:
    """A kind of building: house or hotel."""

    kind: str

    def words(self, state: GameState, _: Translate, lang: str) -> str:
        return building_name(state.ruleset, lang, self.kind, _)


@dataclass(frozen=True, slots=True)
class Deck:
    """Chance or Community Chest."""

    deck: str

    def words(self, state: GameState, _: Translate, lang: str) -> str:
        return state.ruleset.term(self.deck, lang) or (_("Chance") if self.deck == "chance" else _("Community Chest"))


@dataclass(frozen=True, slots=True)
class Card:
    """A card by id: a get-out-of-jail card by its deck, any other by its text (an id no deck has, as given)."""

    id: str

    def words(self, state: GameState, _: Translate, lang: str) -> str:
        card = state.ruleset.cards.get(self.id)
        if card is None:
            return repr(self.id)
        if card.effect.kind == "get_out_of_jail":
            return _("the {deck} get-out-of-jail card").format(deck=Deck(card.deck).words(state, _, lang))
        return named(card.text, lang, self.id)


@dataclass(frozen=True, slots=True)
class Waiting:
    """The decision the table waits for (``state.pending``), named by a refusal.  Its words are the screens' (each
    decision's own, in the device's language: pass ``say`` to :func:`render`); the engine's English names its kind
    and whose it is: "the table waits for: buy or auction (Aki)"."""

    def words(self, state: GameState, _: Translate, lang: str) -> str:
        p = state.pending
        kind = re.sub(r"(?<!^)(?=[A-Z])", " ", type(p).__name__).lower() if p is not None else "nothing"
        who = getattr(p, "player", getattr(p, "debtor", None))
        return f"the table waits for: {kind}" + (f" ({state.players[who].name})" if isinstance(who, int) else "")


@dataclass(frozen=True, slots=True)
class EntryKind:
    """A kind of entry (``buy``, ``bid``, ``build``), named by a refusal.  Its words are the screens' (a noun in the
    device's language: pass ``say`` to :func:`render`); the engine's English quotes the type: a "buy" entry."""

    type: str

    def words(self, state: GameState, _: Translate, lang: str) -> str:
        return f'a "{self.type}" entry'


@dataclass(frozen=True, slots=True)
class OptionName:
    """A ruleset's option (one a tournament's regulations set), named by a refusal.  Its words are the screens' (its
    name on the rules page, in the device's language); the engine's English is its key in words."""

    key: str

    def words(self, state: GameState | None, _: Translate, lang: str) -> str:
        return self.key.replace("_", " ")


@dataclass(frozen=True, slots=True)
class OptionValue:
    """A value of a ruleset's option, named by a refusal.  Its words are the screens' (as the rules page says it);
    the engine's English is the value as a ruleset file writes it."""

    key: str
    value: Any

    def words(self, state: GameState | None, _: Translate, lang: str) -> str:
        return json.dumps(self.value, ensure_ascii=False)


@dataclass(frozen=True, slots=True)
class Act:
    """What a player wants to do, as a verb: mortgage a deed, sell buildings."""

    type: str

    def words(self, state: GameState, _: Translate, lang: str) -> str:
        verbs = {
            "mortgage": _("mortgage a deed"), "unmortgage": _("lift a mortgage"),
            "sell_buildings": _("sell buildings"), "build": _("build houses or hotels"), "trade": _("make a trade"),
        }
        return verbs.get(self.type, self.type)


@dataclass(frozen=True, slots=True)
class Goods:
    """One side of a trade: cash, deeds and get-out-of-jail cards, or nothing."""

    cash: int
    deeds: tuple[int, ...]
    cards: int

    def words(self, state: GameState, _: Translate, lang: str) -> str:
        parts = [Money(self.cash).words(state, _, lang)] if self.cash else []
        parts += [Square(sq).words(state, _, lang) for sq in self.deeds]
        parts += [_("a get-out-of-jail card")] * self.cards
        return separator(lang).join(parts) or _("nothing")


@dataclass(frozen=True, slots=True)
class Many:
    """Several values, in a list: Boardwalk, Park Place."""

    items: tuple[Any, ...]

    def words(self, state: GameState, _: Translate, lang: str) -> str:
        return separator(lang).join(words(item, state, _, lang) for item in self.items)


SHOWN = 120  # characters of a value given in an entry that a message repeats


# What a message never repeats as it is: the control characters (NUL, C0, DEL, C1), half of a surrogate pair (no
# page can encode one: an entry's JSON may carry "\ud800"), the line and paragraph separators, and the
# bidirectional overrides and isolates (they would turn the rest of the message around).
UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def _escaped(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def clip(text: str, limit: int = SHOWN) -> str:
    """``text`` as a message repeats it, the one place every refusal's values and every form's messages go through:
    a value longer than ``limit`` (a forged 1 MB name) is cut, its length said, and each character no page may
    show as it is (:data:`UNPRINTABLE`) is written as its escape (``\\u0000``, ``\\ud800``)."""
    shown = text if len(text) <= limit else f"{text[:limit]}… ({len(text):,} characters)"
    return UNPRINTABLE.sub(_escaped, shown)


Say = Callable[[Any, Any], "str | None"]  # a value (and the state it is of) in the caller's words, or None


def words(value: Any, state: GameState | None, _: Translate = identity, lang: str = "en", say: Say | None = None) -> str:
    """One parameter in words: ``say``'s words for it where it has some (the screens say the decision awaited and the
    kinds of entry), else a typed value in ``lang``, anything else as it is (cut when very long)."""
    if say is not None:
        said = say(value, state)
        if said is not None:
            return said
    render_words = getattr(value, "words", None)
    return render_words(state, _, lang) if render_words is not None else clip(str(value))


def render(pattern: str, params: Mapping[str, Any], state: GameState | None, _: Translate = identity,
           lang: str = "en", say: Say | None = None) -> str:
    """``pattern`` translated by ``_``, its placeholders filled with ``params`` in words (``say``'s first)."""
    return _(pattern).format(**{name: words(value, state, _, lang, say) for name, value in params.items()})
