"""What each recorded entry did, kept beside the game that recorded it: its events, and what the log, the rulings
and the net-worth chart read of it, each a pure projection of (the state before the entry, the entry, its
outcome), worked out once as the entry is recorded.

A :class:`~.record.Game` keeps a :class:`History` when asked (the app's folds do); a replay or the simulator,
which reads none of it, asks for none and pays nothing for it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .ending import assets
from .entries import Entry
from .events import BidVoided, Event, JailCardReturned, TradeMade
from .facts import next_to_move, tie_winner
from .rules import Outcome
from .ruleset import Ruleset
from .state import Auction, BuildingAuction, BuyOrAuction, FineOrCard, GameState, IncomeTaxChoice, OwnProperty


@dataclass(frozen=True, slots=True)
class EntryFacts:
    """What the log says of an entry beyond its own fields, taken from the table as it was just before it (and
    from what it did): the deed or building an auction entry was for, who won it at what price, a deed's price,
    the buildings on the lots before a change, the mortgaged deeds in a trade and what kind of trade it was, the
    flat income tax the choice was between, the fine a card offered and the deck instead, one's own deed landed
    on."""

    square: int | None = None  # the deed auctioned, bought or declined; the tax square; one's own deed landed on
    kind: str | None = None  # the building auctioned (house or hotel)
    winner: str | None = None  # hammer: the high bidder's name
    amount: int = 0  # hammer: the winning bid; buy: the price; income_tax: the flat tax; fine_or_card: the fine
    void: bool = False  # hammer: the winning bid was void
    levels: tuple[tuple[int, int], ...] = ()  # build, sell_buildings: (lot, buildings before)
    mortgaged: tuple[int, ...] = ()  # trade: deeds that were mortgaged
    context: str = "trade"  # trade: trade, debt_negotiation or rescue
    card: str | None = None  # use_jail_card: the card used, when the entry does not name it
    deck: str | None = None  # fine_or_card: the deck the card instead of the fine is drawn from


@dataclass(frozen=True, slots=True)
class TieCall:
    """Equal calls at once (a ``bid`` entry naming several players): who called, who won, and the player
    whose turn comes next, from whom the rules count (JMA 補足ルール「競売」: 次の手番のプレーヤーから右周りに近い
    プレーヤーのコールを優先)."""

    callers: tuple[str, ...]
    amount: int
    winner: str
    counted_from: str


def square_index(ruleset: Ruleset, ref: int | str) -> int | None:
    """A square named in an entry (an index or an id) by its index, None if there is no such square."""
    try:
        return ruleset.square(ref).index
    except KeyError:
        return None


def entry_facts(before: GameState, entry: Entry, events: tuple[Event, ...] = ()) -> EntryFacts | None:
    """The facts the log needs about ``entry``, from ``before`` (the state it was recorded on) and its
    ``events``; None when the entry's own fields say it all."""
    p = before.pending
    rs = before.ruleset
    if entry.type in ("bid", "hammer") and isinstance(p, (Auction, BuildingAuction)):
        square = p.square if isinstance(p, Auction) else None
        kind = p.kind if isinstance(p, BuildingAuction) else None
        if entry.type == "bid":
            return EntryFacts(square=square, kind=kind)
        winner = None if p.high_bidder is None else before.players[p.high_bidder].name
        return EntryFacts(square=square, kind=kind, winner=winner, amount=p.high_bid,
                          void=any(isinstance(e, BidVoided) for e in events))
    if entry.type in ("buy", "decline") and isinstance(p, BuyOrAuction):
        return EntryFacts(square=p.square, amount=rs.squares[p.square].price)
    if entry.type == "income_tax" and isinstance(p, IncomeTaxChoice):
        return EntryFacts(square=p.square, amount=rs.squares[p.square].amount)
    if entry.type == "fine_or_card" and isinstance(p, FineOrCard):
        return EntryFacts(amount=p.amount, deck=p.deck)
    if entry.type in ("build_house", "sell_to_bank", "keep") and isinstance(p, OwnProperty):
        return EntryFacts(square=p.square)
    if entry.type in ("build", "sell_buildings") and entry.targets:
        levels = []
        for ref, _level in entry.targets:
            index = square_index(rs, ref)
            if index is None:
                return None
            levels.append((index, before.buildings[index]))
        return EntryFacts(levels=tuple(levels))
    if entry.type == "trade":
        made = next((e for e in events if isinstance(e, TradeMade)), None)
        context = made.context if made is not None else "trade"
        deeds = [d for offer in (entry.give, entry.take) if offer is not None for d in offer.deeds]
        mortgaged = tuple(i for i in (square_index(rs, d) for d in deeds) if i is not None and before.mortgaged[i])
        return EntryFacts(mortgaged=mortgaged, context=context) if mortgaged or context != "trade" else None
    if entry.type == "use_jail_card" and entry.card is None:
        used = next((e.card for e in events if isinstance(e, JailCardReturned)), None)
        return EntryFacts(card=used) if used is not None else None
    return None


def tie_call(state: GameState, entry: Entry) -> TieCall | None:
    """The equal calls ``entry`` records, judged on ``state``, the state BEFORE the entry; None for any other
    entry."""
    if entry.type != "bid" or len(entry.players) < 2:
        return None
    try:
        bidders = [state.player_index(name) for name in entry.players]
    except KeyError:
        return None
    return TieCall(tuple(entry.players), entry.amount or 0, state.players[tie_winner(state, bidders)].name,
                   state.players[next_to_move(state)].name)


def worth(state: GameState) -> list[int]:
    """Every player's assets, in seat order (a point of the net-worth chart)."""
    return [assets(state, i).total for i in range(len(state.players))]


class History:
    """Each recorded entry's events and projections, by the entry's index in the record (a void included):
    ``facts`` (:func:`entry_facts`), ``ties`` (:func:`tie_call`), ``turns`` (the turn after the entry) and
    ``points`` (every player's assets after an entry that began a turn, else None: the chart's points).
    ``said`` is the words the screens have put them in, by (language, index): kept with the game they describe,
    as they never change once said."""

    __slots__ = ("events", "facts", "ties", "turns", "points", "said")

    def __init__(self) -> None:
        self.events: list[tuple[Event, ...]] = []
        self.facts: list[EntryFacts | None] = []
        self.ties: list[TieCall | None] = []
        self.turns: list[int] = []
        self.points: list[list[int] | None] = []
        self.said: dict[tuple[str, int], Any] = {}

    def copy(self) -> History:
        """The same history, its lists its own (the entries after this point are added to one of them only); the
        words said are shared, as they never change once said of an entry."""
        other = History.__new__(History)
        other.events, other.facts, other.ties = list(self.events), list(self.facts), list(self.ties)
        other.turns, other.points, other.said = list(self.turns), list(self.points), self.said
        return other

    def add(self, before: GameState, entry: Entry, outcome: Outcome, first: bool) -> None:
        """Keep what ``entry``, recorded on ``before``, did (``first``: it is the first entry in effect, so the
        chart starts with it)."""
        after = outcome.state
        self.events.append(outcome.events)
        void = entry.type == "void"
        self.facts.append(None if void else entry_facts(before, entry, outcome.events))
        self.ties.append(tie_call(before, entry))
        self.turns.append(after.turn)
        self.points.append(worth(after) if not void and (first or after.turn != before.turn) else None)

    def net_worth(self, effective: list[int], final: GameState) -> tuple[list[str], list[list[int]]]:
        """Players (in turn order) and, for each turn of the game, every player's assets at its start, plus the
        final assets: read from the entries in effect, each kept as it was recorded."""
        points: list[list[int]] = []
        last_turn = -1
        for index in effective:
            if self.turns[index] != last_turn:
                last_turn = self.turns[index]
                point = self.points[index]
                assert point is not None  # kept for every entry that began a turn, and for the first in effect
                points.append(point)
        points.append(worth(final))
        return [p.name for p in final.players], points
