"""The players' cards and the board: each player's deeds by colour group with their buildings and mortgages, the
bank's stock, the board's cells and tokens."""
from __future__ import annotations

import re
from dataclasses import dataclass

from markupsafe import Markup

from ..engine import GameState, named, Ruleset
from ..cache import BOARD_PLACES
from ..language import current_language, gettext as _
from .words import count_words, group_name, jail_card_words, level_words, square_name


def player_status(state: GameState, player: int) -> str:
    """Beside a player's name: bankrupt, or in jail (the turns sat out of how many, where the ruleset has players sit
    out their jail turns; else the failed rolls), or nothing."""
    p, opts = state.players[player], state.ruleset.options
    if p.bankrupt:
        return _("bankrupt")
    if not p.in_jail:
        return ""
    if opts.jail_mode == "sit_out":
        return _("in jail (%(n)s of %(max)s turns sat out)", n=p.jail_rolls, max=opts.jail_max_rolls)
    return _("in jail (%(n)s failed)", n=p.jail_rolls)


def pot(state: GameState) -> int | None:
    """The Free Parking pot, where the ruleset keeps one (None otherwise)."""
    return state.pot if state.ruleset.options.free_parking == "tax_pot" else None


def bank_stock_words(state: GameState) -> str:
    """The bank's houses and hotels left: In the bank: 12 houses, 1 hotel."""
    return _("In the bank: %(houses)s, %(hotels)s", houses=count_words("house", state.bank_houses, state.ruleset),
             hotels=count_words("hotel", state.bank_hotels, state.ruleset))


@dataclass(slots=True)
class DeedLine:
    """A deed on a player's card: its name on the board, its buildings in words ("" when none), mortgaged.  The
    words are found when asked (the card's swatches need only the colour and the mortgage; the deed list, drawn
    when opened, names them).  The card's parts are made for every player at every draw, so they are not frozen
    (a frozen one takes twice as long to make); nothing changes them once made."""

    state: GameState
    index: int
    mortgaged: bool

    @property
    def square(self) -> str:
        return square_name(self.state, self.index)

    @property
    def buildings(self) -> str:
        level = self.state.buildings[self.index]
        return level_words(level, self.state.ruleset) if level else ""


@dataclass(slots=True)
class DeedGroup:
    """A player's deeds of one colour group (or of the railroads, the utilities), in the board's order."""

    group: str  # the group's name on the board
    color: str
    deeds: list[DeedLine]
    whole: bool  # the player holds every deed of the group


@dataclass(slots=True)
class Holdings:
    """What a player's card shows besides cash and square: deeds by group, buildings, get-out-of-jail cards."""

    groups: list[DeedGroup]
    deeds: int
    mortgaged: int
    houses: int
    hotels: int
    cards: list[str]  # each card held, by its deck
    ruleset: Ruleset  # the edition's words for buildings

    @property
    def swatches(self) -> list[tuple[str, bool]]:
        """The card's row of colours: each deed's group colour, and whether it is mortgaged, in the list's order."""
        return [(group.color, deed.mortgaged) for group in self.groups for deed in group.deeds]

    @property
    def summary(self) -> str:
        """7 deeds (1 mortgaged) · 6 houses · 1 hotel"""
        parts = [_("%(n)s deeds", n=self.deeds) if self.deeds != 1 else _("1 deed")]
        if self.mortgaged:
            parts[0] = _("%(deeds)s (%(n)s mortgaged)", deeds=parts[0], n=self.mortgaged)
        if self.houses:
            parts.append(count_words("house", self.houses, self.ruleset))
        if self.hotels:
            parts.append(count_words("hotel", self.hotels, self.ruleset))
        return " · ".join(parts)




def board_places(ruleset: Ruleset) -> list[tuple[Markup, str, str, str, int]]:
    """The cells of a 40-square board as it lies on the table, GO at the bottom right and play running clockwise:
    each square's place in the grid and its colour band with the group's name (its cell's attributes), its name,
    its name as a narrow board shows it and as a phone's does (:func:`short_name`) and its index.  The same on every screen of a board in a language: worked out once (the latest few boards
    kept)."""
    return BOARD_PLACES.made_for(ruleset.squares, current_language(), lambda: _places(ruleset))


SHORT_LETTERS = 6  # a Latin word a narrow board shows whole; a longer one is cut to its first four letters and "."
TINY_LETTERS = 3  # on a phone's board: a Latin word's first three letters and "."
SHORT_CJK = 6  # Japanese or Korean characters a narrow board shows of a name's first word


def short_name(name: str, letters: int = SHORT_LETTERS) -> str:
    """A square's name as a narrow board shows it, abbreviated at a word's end, never broken mid-word: its first
    word (its first two when the first is a short one, "St. James", "New York"), a Latin word longer than
    ``letters`` cut to its first ``letters - 2`` letters and a full stop ("Kentucky Avenue": "Kent."; on a phone,
    ``letters`` 3: "Ken."), a Japanese or Korean name to its first word ("ケンタッキー・アベニュー": "ケンタッキー",
    "켄터키 애비뉴": "켄터키")."""
    words = [w for w in re.split(r"[\s・·]+", name.strip()) if w]
    if not words:
        return name
    first = words[0]
    if len(first) <= 3 and len(words) > 1 and letters > TINY_LETTERS:  # "St.", "New": the next word says which
        first = f"{first} {words[1]}"
    if any(ord(c) > 0x2E80 for c in first):  # CJK: lines may break between characters
        return first[:SHORT_CJK]
    if len(first) <= letters:
        return first
    cut = max(letters - 2, TINY_LETTERS)
    return first[:cut].rstrip(".-") + "."


def _places(ruleset: Ruleset) -> list[tuple[Markup, str, str, str, int]]:
    places = []
    for sq in ruleset.squares:
        i = sq.index
        row, col = (11, 11 - i) if i <= 10 else (21 - i, 1) if i < 20 else (1, i - 19) if i <= 30 else (i - 29, 11)
        group = ruleset.groups.get(sq.group) if sq.group else None
        attrs = (Markup(' title="{}" style="grid-row:{}; grid-column:{}; border-top:10px solid {}"').format(
                     group_name(ruleset, group.id), row, col, group.color) if group is not None
                 else Markup(' style="grid-row:{}; grid-column:{}"').format(row, col))
        name = named(sq.name, current_language(), sq.id)
        places.append((attrs, name, short_name(name), short_name(name, TINY_LETTERS), i))
    return places


def board_tokens(state: GameState) -> dict[int, list[int]]:
    """The players in the game on each square the board shows a token on, in seat order."""
    tokens: dict[int, list[int]] = {}
    for seat, p in enumerate(state.players):
        if not p.bankrupt:
            tokens.setdefault(p.position, []).append(seat)
    return tokens


def holdings(state: GameState, player: int) -> Holdings:
    """A player's deeds grouped by colour group (groups in board order), each with its buildings and whether it is
    mortgaged; the houses and hotels standing on them; the get-out-of-jail cards held, by deck."""
    rs = state.ruleset
    owned = state.deeds_of(player)
    by_group: dict[str | None, list[int]] = {}  # (None: the deeds of no colour group, railroads and utilities)
    for sq in owned:
        by_group.setdefault(rs.squares[sq].group, []).append(sq)
    groups = []
    for gid, squares in by_group.items():
        group = rs.groups.get(gid) if gid else None
        lines = [DeedLine(state, sq, state.mortgaged[sq]) for sq in squares]
        groups.append(DeedGroup(group_name(rs, gid) if gid else "", group.color if group else "#ddd", lines,
                                group is not None and len(squares) == len(group.squares)))
    return Holdings(groups, len(owned), sum(state.mortgaged[sq] for sq in owned),
                    sum(state.houses_on(sq) for sq in owned), sum(state.hotels_on(sq) for sq in owned),
                    [jail_card_words(rs, c) for c in state.players[player].jail_cards], rs)
