"""Things of a game by their names in the device's language: squares, colour groups, building levels, money, players
and the bank, cards and decks, a ruling with its clause (:class:`Why`); the word tables made once per language."""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Callable, Literal

from ..engine import amount_text, building_count, Change, Deck, GameState, level_text, named, POT, Ruleset
from ..language import current, current_language, gettext as _
from . import kind
from .sources import source_words


def per_language(make: Callable[[], dict]) -> Callable[[], dict]:
    """A table of words made once for each language, kept with the language (:meth:`Language.table`): each of its
    gettext calls costs microseconds, and the table screen and the log would otherwise translate every word of it
    for every line they show."""
    @functools.wraps(make)
    def table() -> dict:
        return current().table(make)

    return table


def reason_words(reason: str) -> str:
    return _reasons().get(reason) or kind.reason(reason) or reason


@per_language
def _reasons() -> dict[str, str]:
    return {
        "salary": _("salary"), "go_landing": _("salary for landing on GO"), "rent": _("rent"), "tax": _("tax"),
        "purchase": _("for the deed"),
        "auction": _("at auction"), "card": _("by card"), "bail": _("to leave jail"), "building": _("for buildings"),
        "building_auction": _("for a building at auction"),
        "bankruptcy": _("in bankruptcy"), "interest": _("mortgage interest"),
        "free_parking": _("(all of it)"), "deed_sold": _("for the deed sold back"),
    }  # and the payments of each kind of .kinds (kind.reason)


def square_name(state: GameState, square: int, lang: str | None = None) -> str:
    sq = state.ruleset.squares[square]
    return named(sq.name, lang or current_language(), sq.id)


def square_words(ruleset: Ruleset, ref: int | str) -> str:
    """A square named in an entry (an index or an id) by its name on the board."""
    try:
        sq = ruleset.square(ref)
    except KeyError:
        return str(ref)
    return sq.name.get(current_language()) or sq.name.get("en") or sq.id


def group_name(ruleset: Ruleset, group: str) -> str:
    """A colour group by its name on the board (Dark Blue, 紺), never its id."""
    g = ruleset.groups.get(group)
    return group if g is None else named(g.name, current_language(), group)


def level_words(level: int | Literal["hotel"], ruleset: Ruleset) -> str:
    """A building level in words: no buildings, 1 house, 3 houses, hotel."""
    hotel = ruleset.options.houses_per_hotel + 1
    return level_text(hotel if isinstance(level, str) else level, hotel, _, ruleset, current_language())


def separator() -> str:
    return "、" if current_language() == "ja" else ", "


def names_and(names) -> str:
    """Aki, Ben and Chie / Aki、BenとChie."""
    names = list(names)
    if len(names) < 2:
        return "".join(names)
    return _("%(names)s and %(last)s", names=separator().join(names[:-1]), last=names[-1])


@dataclass(frozen=True, slots=True)
class Why:
    """A ruling in words, with the clause of the active ruleset it rests on (``rule`` is the clause's key, the
    anchor on the rules page; ``source`` is where the clause comes from)."""

    text: str
    rule: str
    source: str

    def __str__(self) -> str:
        return _("%(why)s (%(source)s)", why=self.text, source=self.source) if self.source else self.text


def why(ruleset: Ruleset, text: str, rule: str) -> Why:
    clause = ruleset.clauses.get(rule)
    return Why(text, rule, source_words(clause.source) if clause else "")


def money(state: GameState, amount: int) -> str:
    """An amount in the game's currency, its digits grouped as the device's language groups them (1.600 M)."""
    return amount_text(state.ruleset, amount, current_language())


def party(state: GameState, who) -> str:
    if who is None:
        return _("the bank")
    if who == POT:
        return _("the free parking pot")
    return state.players[who].name


def change_words(state: GameState, change: Change) -> str:
    """A change of buildings lot by lot: Boardwalk hotel → 4 houses, Park Place 4 houses → 3 houses."""
    rs = state.ruleset
    return separator().join(
        _("%(square)s %(before)s → %(after)s", square=square_name(state, sq),
          before=level_words(state.buildings[sq], rs), after=level_words(level, rs))
        for sq, level in sorted(change.levels.items()) if level != state.buildings[sq])


def refusal_text(exc, say=None) -> str:
    """A refusal's message in the device's language (``say``: words for the values the screens say, as
    :func:`referee.screens.refusals.detail` gives them)."""
    return exc.detail(_, current_language(), say)


def card_words(ruleset: Ruleset, card: str) -> str:
    c = ruleset.cards.get(card)
    return (c.text.get(current_language()) or c.text.get("en") or card) if c else card


def deck_words(ruleset: Ruleset, deck: str) -> str:
    """A deck by the name of its squares on the board (Chance, 共同基金)."""
    for sq in ruleset.squares:
        if sq.kind == deck:
            return named(sq.name, current_language(), deck)
    return deck


def jail_card_words(ruleset: Ruleset, card: str) -> str:
    """A get-out-of-jail card by its deck, never its id: a get-out-of-jail card (Chance)."""
    c = ruleset.cards.get(card)
    if c is None:
        return _("a get-out-of-jail card")
    return _("a get-out-of-jail card (%(deck)s)", deck=deck_words(ruleset, c.deck))


def deck_name(state: GameState, deck: str) -> str:
    """A deck by its name in this edition: Chance, Community Chest, Show Time, Magic Moments."""

    return Deck(deck).words(state, _, current_language())


def in_language(names) -> str:
    """A text given by language (a house rule's name) in the device's language, else English."""
    return named(names, current_language(), next(iter(names.values()), ""))


def ruleset_name(ruleset: Ruleset) -> str:
    """A ruleset by its name in the device's language."""
    return named(ruleset.name, current_language(), ruleset.id)


def count_words(kind: str, n: int, ruleset: Ruleset) -> str:
    """A number of houses or hotels in words: 1 house, 3 houses, 1 hotel (the edition's own words where the ruleset
    has them: Disney's, the German variant's)."""
    return building_count(ruleset, current_language(), kind, n, _)
