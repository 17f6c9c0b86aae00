"""Rulesets as typed values, built strictly from plain data.

A ruleset says everything that differs between editions and house rules: the
board, the card decks, the money, the building supply, every rule option and
the clause text each refusal cites.  The engine reads options, never ruleset
names.  This module holds the values; :mod:`.ruleset_files` builds them from
already-parsed data (dicts, as ``tomllib`` gives them) and refuses anything it
does not know; reading files is :mod:`referee.rulesets`' job.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Mapping


class RulesetError(Exception):
    """A ruleset file does not match the ruleset schema (unknown key, bad value)."""


SQUARE_KINDS = (
    "go", "street", "railroad", "utility", "tax", "chance", "community_chest",
    "jail", "free_parking", "go_to_jail",
)
PROPERTY_KINDS = ("street", "railroad", "utility")
DECKS = ("chance", "community_chest")
CARD_EFFECTS: dict[str, tuple[str, ...]] = {
    "advance_to": ("square",),
    "advance_to_nearest": ("square_kind",),  # plus rent_multiplier or dice_multiplier
    "move_back": ("spaces",),
    "back_to": ("square",),  # back to a named square: no salary, GO is not passed
    "pay_or_draw": ("amount", "deck"),  # pay a fine, or draw a card from the other deck
    "go_to_jail": (),
    "get_out_of_jail": (),
    "collect": ("amount",),
    "pay": ("amount",),
    "pay_each_player": ("amount",),
    "collect_from_each_player": ("amount",),
    "repairs": ("per_house", "per_hotel"),
}

# The clauses the engine cites that are not tied to one option.  Every ruleset
# must give each of them; an unknown key is refused.
CLAUSE_KEYS = (
    "seating", "dice", "doubles", "salary", "purchase", "auction", "rent",
    "railroad_rent", "utility_rent", "mortgaged_rent", "tax", "cards", "jail",
    "jail_release", "mortgage", "unmortgage", "debt", "bankruptcy",
    "between_turns", "correction", "game_end", "building", "building_shortage",
    "selling_buildings", "hotel_sale", "ranking", "trade",
)
# The clauses a ruleset gives where its text has one: ``regulations``, the text that puts a tournament's own
# regulations (大会規定) above the ruleset's rules (JMA 補足ルール「総則」); the other texts are silent.
OPTIONAL_CLAUSE_KEYS = ("regulations",)


def whole_number(where: str, value: Any, minimum: int | None = 0) -> int:
    """``value`` if it is a whole number (not a bool) of at least ``minimum``; RulesetError naming ``where`` if not."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise RulesetError(f"{where}: expected a whole number, got {value!r}")
    if minimum is not None and value < minimum:
        raise RulesetError(f"{where}: must be at least {minimum}, got {value!r}")
    return value


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """An option's type: a whole number (from ``minimum``), true or false, one of ``choices`` (``kind`` str), or a
    list of distinct ``choices`` (``kind`` tuple, kept as a tuple in their order).  ``renamed``: (old, new) for a
    choice once named otherwise, so that a record or a tournament's regulations written with the old name read as
    they always did (no recorded fact is lost)."""

    kind: type
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    renamed: tuple[tuple[str, str], ...] = ()

    def value(self, where: str, value: Any) -> Any:
        """``value`` checked against this type, as the engine keeps it; RulesetError naming ``where`` if not."""
        if self.kind is int:
            return whole_number(where, value, self.minimum)
        if self.kind is bool:
            if not isinstance(value, bool):
                raise RulesetError(f"{where}: expected true or false, got {value!r}")
            return value
        if self.kind is tuple:
            if not isinstance(value, (list, tuple)) or any(v not in self.choices for v in value) \
                    or len(set(value)) != len(value):
                raise RulesetError(f"{where}: expected a list of distinct values among {', '.join(self.choices)}, "
                                   f"got {value!r}")
            return tuple(value)
        for old, new in self.renamed:
            if value == old:
                value = new
        if value not in self.choices:
            raise RulesetError(f"{where}: expected one of {', '.join(self.choices)}, got {value!r}")
        return value


OPTION_SPECS: dict[str, OptionSpec] = {
    "seating_order": OptionSpec(str, ("by_roll", "highest_then_seat_order")),
    "doubles_to_jail": OptionSpec(int, minimum=2),
    "auction_on_decline": OptionSpec(bool),
    "auction_min_bid": OptionSpec(int, minimum=1),
    "auction_bid_step": OptionSpec(int, minimum=1),
    "auction_tie": OptionSpec(str, ("next_to_move_first", "refuse")),
    "auction_own_raise": OptionSpec(bool),
    "auction_unpayable_bid": OptionSpec(str, ("void_and_rerun_without_bidder",)),
    "auction_no_bid": OptionSpec(str, ("stays_with_bank",)),
    "monopoly_rent_multiplier": OptionSpec(int, minimum=1),
    "mortgaged_lot_breaks_monopoly_doubling": OptionSpec(bool),
    "mortgaged_deeds_count_for_rent": OptionSpec(bool),
    "income_tax": OptionSpec(str, ("flat", "choice")),
    "income_tax_percent": OptionSpec(int, minimum=0),
    "free_parking": OptionSpec(str, ("nothing", "tax_pot")),
    "pot_payments": OptionSpec(tuple, ("tax", "bail", "card", "penalty")),
    "go_landing_bonus": OptionSpec(bool),
    "rent_while_in_jail": OptionSpec(bool),
    "rent_claim_turns": OptionSpec(int, minimum=0),
    "jail_mode": OptionSpec(str, ("doubles_or_fine", "sit_out")),
    "short_payment": OptionSpec(str, ("debt", "all_cash_then_out")),
    "bank_money": OptionSpec(int, minimum=0),
    "landing_on_own": OptionSpec(str, ("nothing", "build_one_or_sell")),
    "mortgages_allowed": OptionSpec(bool),
    "jailed_may_trade": OptionSpec(bool),
    "jail_skip_turn": OptionSpec(bool),
    "doubles_after_prepaid_release_roll_again": OptionSpec(bool),
    "jail_max_rolls": OptionSpec(int, minimum=1),
    "jail_card_purchase_before_fine": OptionSpec(bool),
    "mortgage_interest_percent": OptionSpec(int, minimum=0),
    "mortgage_interest_rounding": OptionSpec(str, ("up", "down")),
    "mortgage_timing": OptionSpec(str, ("between_turns_or_to_pay", "any_time")),
    "transferred_mortgage_interest": OptionSpec(str, ("on_transfer", "on_unmortgage_only")),
    "bankruptcy_to_bank_deeds": OptionSpec(str, ("auction_in_board_order", "return_unowned")),
    "pay_each_player_bankruptcy_to_bank": OptionSpec(bool),
    "bankrupt_estate": OptionSpec(str, ("to_creditor", "shared_among_survivors")),
    # fine_and_rent_ahead: after the third failed jail roll, the fine and the rent ahead together make the player
    # provisionally bankrupt, a rescue covers both, the square's owner may take a bankruptcy to the bank over
    "jail_exit_bankruptcy": OptionSpec(str, ("fine_and_rent_ahead", "to_bank"),
                                       renamed=(("jma", "fine_and_rent_ahead"),)),
    "houses_per_hotel": OptionSpec(int, minimum=1),
    # before_own_roll: only the player whose turn it is, at its start, before the roll (002: in some editions)
    "build_timing": OptionSpec(str, ("between_turns", "any_time", "before_own_roll")),
    "hotel_breakdown": OptionSpec(str, ("debtors_only", "any_player")),
    "hotel_sale_value": OptionSpec(str, ("five_houses", "four_houses")),
    "after_time_called": OptionSpec(str, ("one_more_roll", "equal_turns", "at_once")),
    "end_after_bankruptcies": OptionSpec(int, minimum=0),
    "ending_bankruptcy_buildings": OptionSpec(str, ("sold_to_bank", "pass_to_creditor")),
    "asset_deed_percent": OptionSpec(int, minimum=0),
    "asset_mortgaged_deed_percent": OptionSpec(int, minimum=0),
    "asset_building_percent": OptionSpec(int, minimum=0),
    "trade_timing": OptionSpec(str, ("between_turns_or_debt", "any_time", "own_turn", "never", "before_own_roll")),
    # price_limits: no gifts, every item of a trade priced within its own limit, no buying back on the spot
    "trade_limits": OptionSpec(str, ("price_limits", "none"), renamed=(("jma", "price_limits"),)),
    "provisional_bankruptcy": OptionSpec(bool),
    "trades_before_first_go": OptionSpec(bool),
    "dealt_deeds": OptionSpec(int, minimum=0),
    "dealt_deeds_redeal_pairs": OptionSpec(bool),
    # the Luxury Tax charged: 0, the amount printed on the board's square; else this amount whatever the board prints
    "luxury_tax_amount": OptionSpec(int, minimum=0),
    # the fines the referee imposes for a breach at the table (the Russian classic rules): each rule's amount, 0 where it carries none
    "penalty_play_in_another_turn": OptionSpec(int, minimum=0),
    "penalty_out_of_turn_move": OptionSpec(int, minimum=0),
    "penalty_dice_off_table": OptionSpec(int, minimum=0),
    "houses_per_turn": OptionSpec(int, minimum=0),  # building levels a player may build in a turn (0: no limit)
}


@dataclass(frozen=True, slots=True)
class Options:
    """Every rule switch, typed.  Field names are the option names in the files."""

    seating_order: str
    doubles_to_jail: int
    auction_on_decline: bool
    auction_min_bid: int
    auction_bid_step: int
    auction_tie: str
    auction_own_raise: bool
    auction_unpayable_bid: str
    auction_no_bid: str
    monopoly_rent_multiplier: int
    mortgaged_lot_breaks_monopoly_doubling: bool
    mortgaged_deeds_count_for_rent: bool
    income_tax: str
    income_tax_percent: int
    free_parking: str
    pot_payments: tuple[str, ...]
    go_landing_bonus: bool
    rent_while_in_jail: bool
    rent_claim_turns: int
    jail_mode: str
    short_payment: str
    bank_money: int
    landing_on_own: str
    mortgages_allowed: bool
    jailed_may_trade: bool
    jail_skip_turn: bool
    doubles_after_prepaid_release_roll_again: bool
    jail_max_rolls: int
    jail_card_purchase_before_fine: bool
    mortgage_interest_percent: int
    mortgage_interest_rounding: str
    mortgage_timing: str
    transferred_mortgage_interest: str
    bankruptcy_to_bank_deeds: str
    pay_each_player_bankruptcy_to_bank: bool
    bankrupt_estate: str
    jail_exit_bankruptcy: str
    houses_per_hotel: int
    build_timing: str
    hotel_breakdown: str
    hotel_sale_value: str
    after_time_called: str
    end_after_bankruptcies: int
    ending_bankruptcy_buildings: str
    asset_deed_percent: int
    asset_mortgaged_deed_percent: int
    asset_building_percent: int
    trade_timing: str
    trade_limits: str
    provisional_bankruptcy: bool
    trades_before_first_go: bool
    dealt_deeds: int
    dealt_deeds_redeal_pairs: bool
    luxury_tax_amount: int
    penalty_play_in_another_turn: int
    penalty_out_of_turn_move: int
    penalty_dice_off_table: int
    houses_per_turn: int

    def interest(self, amount: int) -> int:
        """Mortgage interest on ``amount``, rounded as the options say."""
        pct = self.mortgage_interest_percent
        if self.mortgage_interest_rounding == "up":
            return -(-amount * pct // 100)
        return amount * pct // 100


assert {f.name for f in fields(Options)} == set(OPTION_SPECS)


@dataclass(frozen=True, slots=True)
class Clause:
    """A rule text: where it comes from and its words, by language."""

    key: str
    source: str
    text: Mapping[str, str]
    note: str = ""

    def cite(self, lang: str | None = None) -> str:
        words = self.text.get(lang, "") if lang else ""
        if not words:
            words = next(iter(self.text.values()), "")
        return f"{self.source}: {words}" if words else self.source


@dataclass(frozen=True, slots=True)
class Square:
    index: int
    id: str
    kind: str
    name: Mapping[str, str]
    group: str | None = None
    price: int = 0
    mortgage: int = 0
    house_cost: int = 0
    rent: tuple[int, ...] = ()
    dice_multipliers: tuple[int, ...] = ()
    tax: str | None = None
    amount: int = 0
    is_property: bool = field(init=False, repr=False, compare=False)  # a deed: a street, railroad or utility

    def __post_init__(self) -> None:
        object.__setattr__(self, "is_property", self.kind in PROPERTY_KINDS)


@dataclass(frozen=True, slots=True)
class Group:
    id: str
    name: Mapping[str, str]
    color: str
    squares: tuple[int, ...]


# an option and a clause are cited by the same key: the names must differ
assert not set(OPTION_SPECS) & set(CLAUSE_KEYS + OPTIONAL_CLAUSE_KEYS), set(OPTION_SPECS) & set(CLAUSE_KEYS)


@dataclass(frozen=True, slots=True)
class CardEffect:
    kind: str
    square: int | None = None
    square_kind: str | None = None
    rent_multiplier: int = 1
    dice_multiplier: int = 0
    spaces: int = 0
    amount: int = 0
    per_house: int = 0
    per_hotel: int = 0
    deck: str | None = None  # pay_or_draw: the deck the other card comes from


@dataclass(frozen=True, slots=True)
class Card:
    id: str
    deck: str
    text: Mapping[str, str]
    effect: CardEffect


@dataclass(frozen=True, slots=True)
class HouseRule:
    """An option the new-game screen offers as a switch, either a house rule (``[options.X.house_rule]``: in play by
    default, ``on`` being the option's value in the file, and switched off for one game by a header that sets the
    option to ``off``) or an edition's variant (``[options.X.variant]``: not played by default, ``off`` being the
    file's value, and switched on by a header that sets ``on``).  The clause cited is ``on_clause`` or
    ``off_clause`` as the value is ``on`` or ``off``."""

    option: str
    name: Mapping[str, str]
    on: Any
    off: Any
    on_clause: Clause
    off_clause: Clause
    default_on: bool = True

    def clause(self, value: Any) -> Clause | None:
        """The clause cited for this value of the option (None: a value the switch does not set)."""
        return self.on_clause if value == self.on else self.off_clause if value == self.off else None


@dataclass(frozen=True, slots=True)
class Money:
    currency: str
    start_cash: int
    salary: int
    go_landing_salary: int
    bail: int
    symbol_after: bool = False  # 30,000 M rather than $1,500

    def text(self, number: str) -> str:
        """An amount already written out (1,500) with the currency: $1,500, 30,000 M."""
        return f"{number} {self.currency}" if self.symbol_after else f"{self.currency}{number}"


@dataclass(frozen=True, slots=True)
class Ruleset:
    id: str
    name: Mapping[str, str]
    clause_language: str
    squares: tuple[Square, ...]
    groups: Mapping[str, Group]
    cards: Mapping[str, Card]
    decks: Mapping[str, tuple[str, ...]]
    money: Money
    houses: int
    hotels: int
    options: Options
    clauses: Mapping[str, Clause]
    house_rules: Mapping[str, HouseRule] = field(default_factory=dict)
    # an edition's own words (its board file's [board.terms], its decks file's [decks.terms]): the buildings and the
    # decks by language ("houses" and "hotels" may be a count with %(n)s where the number goes)
    terms: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    # worked out from the fields above, once: each square's index by its id, the colour groups of streets (the
    # groups that take buildings), in board order, with their lots and house price, and the squares of each kind
    square_ids: Mapping[str, int] = field(init=False, repr=False, compare=False)
    street_groups: tuple[str, ...] = field(init=False, repr=False, compare=False)
    street_lots: tuple[tuple[str, tuple[int, ...], int], ...] = field(init=False, repr=False, compare=False)
    lift_costs: tuple[int, ...] = field(init=False, repr=False, compare=False)  # per square: mortgage and interest
    squares_of_kind: Mapping[str, tuple[int, ...]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "square_ids", {sq.id: sq.index for sq in self.squares})
        object.__setattr__(self, "squares_of_kind", {kind: tuple(sq.index for sq in self.squares if sq.kind == kind)
                                                     for kind in SQUARE_KINDS})
        object.__setattr__(self, "street_groups", tuple(
            gid for gid, group in self.groups.items() if self.squares[group.squares[0]].kind == "street"))
        object.__setattr__(self, "lift_costs", tuple(sq.mortgage + self.options.interest(sq.mortgage)
                                                     for sq in self.squares))
        object.__setattr__(self, "street_lots", tuple(
            (gid, self.groups[gid].squares, self.squares[self.groups[gid].squares[0]].house_cost)
            for gid in self.street_groups))

    @property
    def jail_index(self) -> int:
        return self._index_of_kind("jail")

    def _index_of_kind(self, kind: str) -> int:
        for sq in self.squares:
            if sq.kind == kind:
                return sq.index
        raise KeyError(kind)

    def square(self, ref: int | str | None) -> Square:
        """A square by index or id; ``KeyError`` naming the reference if none (None, an entry's square not given,
        names none)."""
        if type(ref) is int:  # not a bool
            if 0 <= ref < len(self.squares):
                return self.squares[ref]
        elif isinstance(ref, str) and ref in self.square_ids:
            return self.squares[self.square_ids[ref]]
        raise KeyError(ref)

    def term(self, key: str, lang: str) -> str | None:
        """The edition's own word for a building or a deck (``key`` in :data:`TERMS`), or None (the app's own)."""
        names = self.terms.get(key)
        return (names.get(lang) or names.get("en")) if names else None

    def cite(self, key: str, lang: str | None = None) -> str:
        return self.clauses[key].cite(lang)

    def money_text(self, amount: int) -> str:
        return self.money.text(f"{amount:,}")
