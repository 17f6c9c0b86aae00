"""Refusals in words: an English pattern with named placeholders, and typed values to fill them.

The engine says why it refuses an entry as a pattern and its parameters, e.g.
``"{player} does not own {square}"`` with ``player=Player(0), square=Square(39)``.  :func:`render` puts it in
English (the refusal's ``message``, which replays, the command line and the tests read); the web app renders
the same pattern in the device's language by passing its gettext and the language (pybabel extracts the
patterns: see scripts/catalogues).  A parameter that is a word of some language is a typed value here
(a square, a colour group, money, a building level, a card, the decision the table waits for, ...), never an
internal id; plain values (names as entered, numbers, an entry's text as given) are shown as they are.

Every ``words`` method takes ``_``, the translation of an English text (the identity for English), and
``lang``, the language of the names on the board and the cards.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from .facts import card_first, card_for_sale
from .state import (AwaitRoll, Auction, BidPayment, BuildingAuction, BuildRound, BuyOrAuction, DealDeeds, Debt,
                    DrawCard, FineOrCard, GameOver, GameState, OwnProperty, IncomeTaxChoice, JailFine, PlaceBuilding, RentRoll, RollOff,
                    SeatingRoll)

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


def amount_text(ruleset, amount: int, lang: str) -> str:
    """An amount in the ruleset's currency, its digits grouped as ``lang`` groups them."""
    return ruleset.money.text(f"{amount:,}".replace(",", DIGIT_GROUPS.get(lang, ",")))


@dataclass(frozen=True, slots=True)
class Level:
    """The buildings on a lot: no buildings, 1 house, 3 houses, hotel."""

    level: int

    def words(self, state: GameState, _: Translate, lang: str) -> str:
        return level_text(self.level, state.hotel_level, _, state.ruleset, lang)


def level_text(level: int, hotel_level: int, _: Translate = identity, ruleset=None, lang: str = "en") -> str:
    """A building level in words: no buildings, 1 house, 3 houses, hotel (an edition's own buildings by its words:
    1 White Rabbit Cottage)."""
    if level == hotel_level:
        return building_name(ruleset, lang, "hotel", _)
    if level == 0:
        return _("no buildings")
    return building_count(ruleset, lang, "house", level, _)


def building_name(ruleset, lang: str, kind: str, _: Translate = identity) -> str:
    """A kind of building: house, hotel, or the edition's own word for it (its board file's terms)."""
    own = ruleset.term(kind, lang) if ruleset is not None else None
    if own is not None:
        return own
    return _("hotel") if kind == "hotel" else _("house")


def building_count(ruleset, lang: str, kind: str, n: int, _: Translate = identity) -> str:
    """A number of houses or hotels: 1 house, 3 houses, 2 hotels, or in the edition's own words (its board file's
    terms: "houses" and "hotels" either a plural, or a count with %(n)s where the number goes)."""
    many = ruleset.term(kind + "s", lang) if ruleset is not None else None
    if many is not None:
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
class Pending:
    """What the table is waiting for, in words (:func:`describe_pending`)."""

    def words(self, state: GameState, _: Translate, lang: str) -> str:
        return describe_pending(state, _, lang)


@dataclass(frozen=True, slots=True)
class EntryKind:
    """A kind of entry, as a noun: a purchase, a bid, a building declaration."""

    type: str

    def words(self, state: GameState, _: Translate, lang: str) -> str:
        nouns = {
            "seat_roll": _("a seating roll"), "deal": _("dealing deeds"), "roll": _("a roll of the dice"),
            "buy": _("a purchase"), "decline": _("declining to buy"), "bid": _("a bid"),
            "hammer": _("the hammer"), "income_tax": _("the choice of how to pay income tax"),
            "card": _("a card drawn"), "fine_or_card": _("the choice of a fine or a card"),
            "rent_not_claimed": _("a rent not claimed in time"), "build_house": _("a house built on landing"),
            "sell_to_bank": _("a deed sold back to the bank"), "keep": _("leaving one's own deed as it is"), "rent_roll": _("the roll for the utility rent"),
            "pay_bail": _("paying the fine to leave jail"), "use_jail_card": _("using a get-out-of-jail card"),
            "skip_jail_turn": _("skipping a turn instead of the jail fine"),
            "mortgage": _("a mortgage"), "unmortgage": _("lifting a mortgage"), "bankrupt": _("a bankruptcy"),
            "build": _("a building declaration"), "withdraw_build": _("reducing a building declaration"),
            "close_builds": _("closing the building declarations"), "place_building": _("placing a building"),
            "sell_buildings": _("a sale of buildings"), "trade": _("a trade"), "time_called": _("calling time"),
            "rolloff": _("a roll-off roll"), "void": _("taking back entries"),
        }
        return nouns.get(self.type, self.type)


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


def _escaped(match: re.Match) -> str:
    return f"\\u{ord(match.group()):04x}"


def clip(text: str, limit: int = SHOWN) -> str:
    """``text`` as a message repeats it, the one place every refusal's values and every form's messages go through:
    a value longer than ``limit`` (a forged 1 MB name) is cut, its length said, and each character no page may
    show as it is (:data:`UNPRINTABLE`) is written as its escape (``\\u0000``, ``\\ud800``)."""
    shown = text if len(text) <= limit else f"{text[:limit]}… ({len(text):,} characters)"
    return UNPRINTABLE.sub(_escaped, shown)


def words(value: Any, state: GameState | None, _: Translate = identity, lang: str = "en") -> str:
    """One parameter in words: a typed value in ``lang``, anything else as it is (cut when very long)."""
    render_words = getattr(value, "words", None)
    return render_words(state, _, lang) if render_words is not None else clip(str(value))


def render(pattern: str, params: Mapping[str, Any], state: GameState | None, _: Translate = identity,
           lang: str = "en") -> str:
    """``pattern`` translated by ``_``, its placeholders filled with ``params`` in words."""
    return _(pattern).format(**{name: words(value, state, _, lang) for name, value in params.items()})


def describe_pending(state: GameState, _: Translate = identity, lang: str = "en") -> str:
    """What the table is waiting for, in words.  ``_`` translates the message patterns (the web app passes
    its gettext); ``lang`` picks square names."""
    p = state.pending
    def name(i: int | None) -> str:
        return _("the bank") if i is None else state.players[i].name

    def sq(i: int) -> str:
        return named(state.ruleset.squares[i].name, lang, state.ruleset.squares[i].id)

    if isinstance(p, DealDeeds):
        return _("dealing deeds: waiting for {player}'s deeds").format(player=name(p.waiting[0]))
    if isinstance(p, SeatingRoll):
        return _("waiting for the seating roll of {players}").format(
            players=separator(lang).join(name(i) for i in p.waiting))
    if isinstance(p, AwaitRoll):
        return _("waiting for {player} to roll").format(player=name(p.player))
    if isinstance(p, BuyOrAuction):
        return _("waiting for {player} to buy or decline {square}").format(player=name(p.player), square=sq(p.square))
    if isinstance(p, Auction):
        return _("auction of {square} in progress").format(square=sq(p.square))
    if isinstance(p, IncomeTaxChoice):
        return _("waiting for {player} to choose how to pay income tax").format(player=name(p.player))
    if isinstance(p, DrawCard):
        deck = Deck(p.deck).words(state, _, lang)
        return _("waiting for the {deck} card {player} drew").format(deck=deck, player=name(p.player))
    if isinstance(p, OwnProperty):
        return _("{player} is on {square}, their own: build, sell it back, or leave it").format(
            player=name(p.player), square=sq(p.square))
    if isinstance(p, FineOrCard):
        return _("waiting for {player} to pay {amount} or draw a {deck} card").format(
            player=name(p.player), amount=state.ruleset.money_text(p.amount), deck=Deck(p.deck).words(state, _, lang))
    if isinstance(p, RentRoll):
        return _("waiting for {player}'s roll for the utility rent").format(player=name(p.player))
    if isinstance(p, JailFine):
        if card_first(state):
            return _("waiting for {player} to use the get-out-of-jail card to leave jail").format(player=name(p.player))
        if not state.players[p.player].jail_cards and not card_for_sale(state, p.player):
            return _("third failed roll: waiting for {player} to pay the fine and move, or skip a turn").format(
                player=name(p.player))
        if not state.players[p.player].jail_cards:
            return _("third failed roll: waiting for {player} to pay the fine, or buy a get-out-of-jail card and use "
                     "it").format(player=name(p.player))
        return _("waiting for {player} to pay the fine or use a card to leave jail").format(player=name(p.player))
    if isinstance(p, Debt):
        return _("{debtor} owes {creditor} {amount} ({reason})").format(
            debtor=name(p.debtor), creditor=name(p.creditor), amount=state.ruleset.money_text(p.amount), reason=_(p.reason))
    if isinstance(p, BuildRound):
        return _("building declarations: waiting for others to follow, or for the referee to close them")
    if isinstance(p, BuildingAuction):
        return _("house-shortage auction of one {kind}").format(kind=_(p.kind))
    if isinstance(p, PlaceBuilding):
        return _("waiting for {player} to choose the lot for the {kind}").format(player=name(p.player),
                                                                                kind=_(p.kind))
    if isinstance(p, BidPayment):
        if p.square is not None:
            return _("{player} won {square} at {amount} and raises the cash to pay").format(
                player=name(p.player), square=sq(p.square), amount=state.ruleset.money_text(p.amount))
        assert p.kind is not None  # no deed: a building won, of this kind
        return _("{player} won a {kind} at {amount} and raises the cash to pay").format(
            player=name(p.player), kind=_(p.kind), amount=state.ruleset.money_text(p.amount))
    if isinstance(p, GameOver):
        return _("the game is over")
    if isinstance(p, RollOff):
        return _("waiting for the roll-off of {players}").format(
            players=separator(lang).join(name(i) for i in p.waiting))
    return _("nothing pending")

