"""The game state: what is true at the table after a run of entries.

A state is only ever changed by applying events (:mod:`.events`); it is
derived from the record, never stored as the truth.  ``pending`` holds the
decision the table is waiting for, as an explicit value: whose roll, buy or
auction, which card, a debt to settle.
"""
from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .ruleset import Ruleset

if TYPE_CHECKING:  # (entries reads the phrases, which read the state)
    from .entries import Offer

Trade = tuple[int, int, "Offer[int]", "Offer[int]"]  # (first, second, give, take): a trade as agreed
Resume = tuple[str, int, str, int]  # (kind, player, how, steps): what the turn does once payments are settled
RecentRent = tuple[int, int, int, int, int]  # (payer, owner, square, amount, turn)

BANK = None  # payer or payee that is the bank


@dataclass(slots=True)
class Player:
    name: str
    cash: int
    position: int = 0
    in_jail: bool = False
    jail_rolls: int = 0  # failed rolls for doubles in this stay
    jail_cards: list[str] = field(default_factory=list)  # card ids held
    bankrupt: bool = False
    bankrupt_at_turn: int | None = None
    bankrupt_order: int = 0  # 1 for the first player to go bankrupt, 2 for the next...

    def copy(self) -> "Player":
        return Player(self.name, self.cash, self.position, self.in_jail, self.jail_rolls,
                      list(self.jail_cards), self.bankrupt, self.bankrupt_at_turn, self.bankrupt_order)


# --- pending decisions (immutable values) ---------------------------------


@dataclass(frozen=True, slots=True)
class SeatingRoll:
    """Players still to roll for the seating order, and every roll so far."""

    waiting: tuple[int, ...]
    rolls: tuple[tuple[int, ...], ...]  # per player: totals of each seating round rolled


@dataclass(frozen=True, slots=True)
class DealDeeds:
    """Tournament regulation: deeds dealt to each player at the start, bought at face value, in reverse seat
    order; ``waiting`` are the players still to be dealt, the next one first."""

    waiting: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class AwaitRoll:
    """The player must roll (after paying bail or using a card, if in jail)."""

    player: int


def awaiting_roll(player: int) -> AwaitRoll:
    """The roll awaited of ``player``: one value per seat, made with the module (a decision is a value nothing
    changes, and the roll awaited is the one made at every turn), not kept as asked for."""
    return _AWAITING_ROLL[player] if 0 <= player < len(_AWAITING_ROLL) else AwaitRoll(player)


_AWAITING_ROLL = tuple(AwaitRoll(seat) for seat in range(8))  # a table's seats (record.MAX_PLAYERS, which imports this)


@dataclass(frozen=True, slots=True)
class BuyOrAuction:
    player: int
    square: int


@dataclass(frozen=True, slots=True)
class Auction:
    """An auction of a deed by the bank."""

    square: int
    high_bid: int = 0
    high_bidder: int | None = None
    excluded: tuple[int, ...] = ()  # bidders whose winning bid was void


@dataclass(frozen=True, slots=True)
class IncomeTaxChoice:
    player: int
    square: int


@dataclass(frozen=True, slots=True)
class DrawCard:
    player: int
    deck: str


@dataclass(frozen=True, slots=True)
class FineOrCard:
    """A card gave the choice: pay a fine, or draw a card from the other deck (Disney edition, 003: 'Pay A 10 Fine
    Or Take A Show Time Card')."""

    player: int
    amount: int
    deck: str  # the deck the other card is drawn from


@dataclass(frozen=True, slots=True)
class OwnProperty:
    """The player landed on a deed of their own (German variant, option ``landing_on_own``): build one house there,
    sell it back to the bank, or leave it as it is."""

    player: int
    square: int


@dataclass(frozen=True, slots=True)
class RentRoll:
    """A card sent the player to an owned utility: a fresh roll sets the rent."""

    player: int
    square: int
    multiplier: int


@dataclass(frozen=True, slots=True)
class JailFine:
    """Third failed roll in jail with a choice to make: pay the fine or use a card (one's own or one bought), then
    move; or, where the edition allows it (``jail_skip_turn``), skip the turn instead."""

    player: int
    dice: tuple[int, int]


@dataclass(frozen=True, slots=True)
class Debt:
    """A payment the debtor could not cover in cash when it fell due."""

    debtor: int
    creditor: int | None  # None: the bank
    amount: int
    reason: str
    to_bank_if_bankrupt: bool = False
    shares: tuple[tuple[int, int], ...] = ()  # (creditor, amount) when one debt is owed to several players


@dataclass(frozen=True, slots=True)
class BuildRound:
    """Building declarations that stand until the referee confirms no one else follows (JMA 補足ルール)."""

    declarations: tuple[tuple[int, tuple[tuple[int, int], ...]], ...]  # (player, ((square, level), ...))
    back_to: "AwaitRoll"
    excluded: tuple[int, ...] = ()  # players whose winning bid was void: out of this round


@dataclass(frozen=True, slots=True)
class BuildingAuction:
    """A house-shortage auction of one building (kind: house or hotel)."""

    kind: str
    round: BuildRound
    high_bid: int = 0
    high_bidder: int | None = None
    excluded: tuple[int, ...] = ()
    held: int | None = None  # the lot the high bidder chose, whose building price the bid did not reach


@dataclass(frozen=True, slots=True)
class PlaceBuilding:
    """The winner of a building auction chooses the lot."""

    player: int
    kind: str
    price: int
    round: BuildRound


@dataclass(frozen=True, slots=True)
class BidPayment:
    """A winning bid the winner's cash does not cover but their assets do: they mortgage and sell buildings
    until it does, then pay (JMA 補足ルール「競売」: 購入のために権利書を抵当に入れたり、家等の売却を行うことは可能).
    ``square``: the deed auctioned; or ``kind`` and ``round``: a building won at a house-shortage auction."""

    player: int
    amount: int
    square: int | None = None
    kind: str | None = None
    round: "BuildRound | None" = None


@dataclass(frozen=True, slots=True)
class RollOff:
    """Players tied in the final ranking roll two dice; the higher total ranks higher (JMA 補足ルール)."""

    waiting: tuple[int, ...]
    rolls: tuple[tuple[int, ...], ...]  # per player: totals of each roll-off round
    reason: str


@dataclass(frozen=True, slots=True)
class GameOver:
    """The game has ended: ``order`` is the final ranking, best first."""

    winner: int | None
    reason: str = "monopoly"  # monopoly (last player standing) or time
    order: tuple[int, ...] = ()
    rolls: tuple[tuple[int, ...], ...] = ()  # roll-off totals, per player, where ties were rolled off


Pending = (SeatingRoll | DealDeeds | AwaitRoll | BuyOrAuction | Auction | IncomeTaxChoice | DrawCard | FineOrCard | OwnProperty
           | RentRoll
           | JailFine | Debt
           | BuildRound | BuildingAuction | PlaceBuilding | BidPayment | RollOff | GameOver)

def seats_of(players: list[Player]) -> dict[str, int]:
    """Each player's seat (index) by name."""
    return {p.name: i for i, p in reversed(list(enumerate(players)))}


# the decisions that may stand in the time between turns (checked by type: no pending class is subclassed)
_BETWEEN_TURNS = frozenset((AwaitRoll, BuildRound, BuildingAuction, PlaceBuilding, BidPayment))


@dataclass(slots=True)
class GameState:
    ruleset: Ruleset
    players: list[Player]
    owner: list[int | None]
    mortgaged: list[bool]
    buildings: list[int]  # per square: 0-4 houses, houses_per_hotel + 1 = hotel
    bank_houses: int
    bank_hotels: int
    pending: Pending | None
    current: int = 0  # index of the player whose turn it is
    doubles: int = 0  # doubles rolled in a row this turn
    turn: int = 0  # turns started, from 1
    turn_started: bool = False  # the current player has acted (paid bail, used a card, rolled)
    prepaid_release: bool = False  # left jail this turn by paying or by card, before rolling
    pot: int = 0  # free parking pot, where the ruleset keeps one
    last_dice: tuple[int, int] = (0, 0)
    go_passed: bool = False  # some player has passed or landed on GO (tournament trade regulation)
    time_called: bool = False
    final_roll: bool = False  # after time is called: the last roll has been made
    recent_trades: tuple[Trade, ...] = ()  # (first, second, give, take) of each trade made since the last roll
    rescue_parts: tuple[Trade, ...] = ()  # trades recorded as parts of a split rescue not yet covering both debts (JMA)
    interest_paid: tuple[int, ...] = ()  # mortgaged deeds just received whose 10% was paid on transfer, until the next roll
    resume: Resume | None = None  # what the turn does once every pending payment is settled
    debts: list[Debt] = field(default_factory=list)  # waiting behind the one in ``pending``
    estate_auctions: list[int] = field(default_factory=list)  # deeds the bank still has to auction
    # counts kept up to date as ``owner``, ``buildings`` and ``mortgaged`` change (set_owner, set_level,
    # set_mortgaged), so that no rule has to recount the board: each player's deeds in board order, who owns each
    # whole colour group, each group's building levels and mortgaged lots, the houses and hotels standing on the
    # board (:meth:`recount` works them out afresh, to check them)
    holdings: list[tuple[int, ...]] = field(default_factory=list)
    group_owner: dict[str, int | None] = field(default_factory=dict)  # who owns every lot of the group, if one player
    group_levels: dict[str, int] = field(default_factory=dict)
    group_mortgaged: dict[str, int] = field(default_factory=dict)  # mortgaged lots of each group
    houses_built: int = 0
    hotels_built: int = 0
    # per player: the printed price of every deed held (mortgaged or not) and what its buildings cost (a hotel:
    # the houses it replaced plus one): net worth less cash, as income tax counts it (元ルール「所得税」)
    holdings_value: list[int] = field(default_factory=list)
    # the level that stands for a hotel (houses_per_hotel + 1): read on every building rule, so kept at hand
    hotel_level: int = 0
    # rents paid from one player to another in the last turns: (payer, owner, square, amount, turn), for an owner's
    # claim that lapses (option rent_claim_turns)
    recent_rents: tuple[RecentRent, ...] = ()
    # what the bank holds, where it is finite (option bank_money; None: the bank never runs out)
    bank_cash: int | None = None
    bank_emptied: bool = False  # the finite bank's money fell to 0 (004: the game ends after that round)
    # the players still in the game (not bankrupt), in seat order: kept as players go bankrupt, as it is read at
    # almost every decision
    active: tuple[int, ...] = ()
    # each player's seat by name (read for every entry); replaced, never changed, when the seating is decided
    seats: dict[str, int] = field(default_factory=dict)
    # counts every change of where buildings may go: a colour group's whole owner, the mortgaged lots of a group
    # owned whole, a hotel built or gone (a group of hotels has no room left), the seating; whoever keeps what they
    # worked out from those (the simulator's build options) may reuse it while this is unchanged
    groups_version: int = 0
    # the building levels each player has built in this turn, by seat (() before any: option houses_per_turn)
    built_this_turn: tuple[int, ...] = ()

    @classmethod
    def new(cls, ruleset: Ruleset, names: list[str], seating: str = "roll") -> "GameState":
        n = len(ruleset.squares)
        players = [Player(name, ruleset.money.start_cash) for name in names]
        pending: Pending
        if seating == "roll":
            pending = SeatingRoll(tuple(range(len(names))), tuple(() for _ in names))
        elif ruleset.options.dealt_deeds:
            pending = DealDeeds(tuple(reversed(range(len(names)))))
        else:
            pending = AwaitRoll(0)
        state = cls(ruleset, players, [None] * n, [False] * n, [0] * n,
                    ruleset.houses, ruleset.hotels, pending)
        state.hotel_level = ruleset.options.houses_per_hotel + 1
        if ruleset.options.bank_money:  # 004: the bank starts with 200,000 M and pays each player's start money
            state.bank_cash = ruleset.options.bank_money - ruleset.money.start_cash * len(names)
        state.recount()
        if seating != "roll":
            state.turn = 1
        return state

    def copy(self) -> "GameState":
        return GameState(
            self.ruleset, [p.copy() for p in self.players], self.owner[:], self.mortgaged[:],
            self.buildings[:], self.bank_houses, self.bank_hotels, self.pending, self.current,
            self.doubles, self.turn, self.turn_started, self.prepaid_release, self.pot, self.last_dice,
            self.go_passed, self.time_called, self.final_roll, self.recent_trades, self.rescue_parts,
            self.interest_paid, self.resume, self.debts[:], self.estate_auctions[:], self.holdings[:],
            self.group_owner.copy(), self.group_levels.copy(), self.group_mortgaged.copy(), self.houses_built,
            self.hotels_built, self.holdings_value[:], self.hotel_level, self.recent_rents, self.bank_cash,
            self.bank_emptied, self.active, self.seats, self.groups_version, self.built_this_turn,
        )

    # --- the board's counts ----------------------------------------------

    def set_owner(self, square: int, owner: int | None) -> None:
        """Give a deed to ``owner`` (None: back to the bank), keeping each player's holdings."""
        old = self.owner[square]
        if old == owner:
            return
        self.owner[square] = owner
        value = self._value(square)
        if old is not None:
            self.holdings[old] = tuple(sq for sq in self.holdings[old] if sq != square)
            self.holdings_value[old] -= value
        if owner is not None:
            self.holdings[owner] = tuple(sorted(self.holdings[owner] + (square,)))
            self.holdings_value[owner] += value
        group = self.ruleset.squares[square].group
        if group is not None:
            whole = self._whole_group_owner(group)
            if whole != self.group_owner[group]:
                self.group_owner[group] = whole
                self.groups_version += 1

    def set_mortgaged(self, square: int, mortgaged: bool) -> None:
        """Mortgage a deed or lift its mortgage, keeping each group's count of mortgaged lots."""
        if self.mortgaged[square] != mortgaged:
            self.mortgaged[square] = mortgaged
            group = self.ruleset.squares[square].group
            assert group is not None  # only a deed is mortgaged, and every deed is of a group
            self.group_mortgaged[group] += 1 if mortgaged else -1
            if self.group_owner[group] is not None:
                self.groups_version += 1

    def _whole_group_owner(self, group: str) -> int | None:
        squares, owners = self.ruleset.groups[group].squares, self.owner
        owner = owners[squares[0]]
        for sq in squares:
            if owners[sq] != owner:
                return None
        return owner

    def set_level(self, square: int, level: int) -> None:
        """Put ``level`` buildings on a lot (0-4 houses, ``hotel_level`` a hotel), keeping the counts."""
        old = self.buildings[square]
        self.buildings[square] = level
        sq = self.ruleset.squares[square]
        group, owner = sq.group, self.owner[square]
        assert group is not None  # buildings stand on streets only, and every street is of a group
        self.group_levels[group] += level - old
        if owner is not None:
            self.holdings_value[owner] += (level - old) * sq.house_cost
        hotel = self.hotel_level
        self.houses_built += (0 if level == hotel else level) - (0 if old == hotel else old)
        hotels = (level == hotel) - (old == hotel)
        if hotels:
            self.hotels_built += hotels
            self.groups_version += 1  # a hotel built or gone: its group may have filled up, or have room again

    def _value(self, square: int) -> int:
        sq = self.ruleset.squares[square]
        return sq.price + self.buildings[square] * sq.house_cost

    def recount(self) -> None:
        """Work the counts out afresh from ``owner``, ``buildings`` and ``mortgaged``."""
        self.holdings = [tuple(sq for sq, o in enumerate(self.owner) if o == i) for i in range(len(self.players))]
        self.holdings_value = [sum(self._value(sq) for sq in deeds) for deeds in self.holdings]
        self.group_owner = {gid: self._whole_group_owner(gid) for gid in self.ruleset.groups}
        self.group_levels = {gid: sum(self.buildings[sq] for sq in group.squares)
                             for gid, group in self.ruleset.groups.items()}
        self.group_mortgaged = {gid: sum(self.mortgaged[sq] for sq in group.squares)
                                for gid, group in self.ruleset.groups.items()}
        self.hotels_built = self.buildings.count(self.hotel_level)
        self.houses_built = sum(self.buildings) - self.hotels_built * self.hotel_level
        self.active = tuple(i for i, p in enumerate(self.players) if not p.bankrupt)
        self.seats = seats_of(self.players)
        self.groups_version += 1

    def counts_problem(self) -> str | None:
        """What the kept counts get wrong against a recount, or None."""
        fresh = self.copy()
        fresh.recount()
        for name in ("holdings", "holdings_value", "group_owner", "group_levels", "group_mortgaged", "houses_built",
                     "hotels_built", "active", "seats"):
            if getattr(fresh, name) != getattr(self, name):
                return f"{name} kept as {getattr(self, name)!r}, recounted {getattr(fresh, name)!r}"
        return None

    # --- derived facts ---------------------------------------------------

    @property
    def between_turns(self) -> bool:
        """JMA 補足ルール: the time after one turn ends and before the next player rolls."""
        return self.doubles == 0 and not self.turn_started and type(self.pending) in _BETWEEN_TURNS

    @property
    def over(self) -> bool:
        return isinstance(self.pending, GameOver)

    def deeds_of(self, player: int) -> tuple[int, ...]:
        """The player's deeds, in board order."""
        return self.holdings[player]

    def houses_on(self, square: int) -> int:
        b = self.buildings[square]
        return 0 if b == self.hotel_level else b

    def hotels_on(self, square: int) -> int:
        return 1 if self.buildings[square] == self.hotel_level else 0

    def group_has_buildings(self, square: int) -> bool:
        group = self.ruleset.squares[square].group
        return group is not None and self.group_levels[group] > 0

    def seats_from(self, first: int) -> tuple[int, ...]:
        """The seats still in the game in turn order, beginning at seat ``first`` or, if it is out or past the last
        seat, the next one still in (going round the table)."""
        active = self.active  # in seat order
        k = bisect_left(active, first)
        return active[k:] + active[:k]

    def next_player(self, after: int) -> int:
        """The next player in seat order after ``after`` still in the game (``after`` if none other is)."""
        active = self.active  # seats_from(after + 1)[0], without making the order
        k = bisect_left(active, after + 1)
        return active[k] if k < len(active) else active[0] if active else after

    def name(self, player: int | None) -> str:
        return "the bank" if player is None else self.players[player].name

    def player_index(self, name: str | None) -> int:
        """The seat of the player so named; ``KeyError`` if none (or the name is not a text)."""
        seat = self.seats.get(name) if isinstance(name, str) else None
        if seat is None:
            raise KeyError(name)
        return seat
