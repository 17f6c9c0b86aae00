"""Random games: every entry drawn from ``legal_actions``, invariants checked after every event.

This is where randomness lives (the engine has none): dice, choices and
bids come from a seeded :class:`random.Random`, so a run is repeatable.
"""
from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import dataclass, field
from operator import attrgetter

from ..engine import (
    AwaitRoll, BuildingsChanged, DeedTransferred, Entry, Game, GameOver, GameState, Header, Mortgaged, Paid, Ruleset,
    TradeMade, Unmortgaged, WentBankrupt)
from .policy import Policy

JAIL_MODES = ("random", "short", "long")
CLOCKS = ("random", "max")  # when time is called: at a random turn up to the limit, or at the limit
PLAYER_NAMES = ("Aki", "Ben", "Chie", "Dai", "Emi", "Fumi", "Goro", "Hana")
MAX_ENTRIES_PER_TURN = 400  # a guard against a policy that never ends an auction
SQUARE_KEYS = tuple(str(i) for i in range(100))  # landings are counted by square number, as text (the JSON's keys)
KIND_OF = attrgetter("kind")  # an event's kind, for the counts


@dataclass
class Stats:
    games: int = 0
    events: int = 0
    entries: int = 0
    turns: int = 0
    seconds: float = 0.0
    events_by_type: Counter = field(default_factory=Counter)
    endings: Counter = field(default_factory=Counter)
    landings: Counter = field(default_factory=Counter)
    invariant_violations: int = 0
    violations: list[str] = field(default_factory=list)
    ruleset: Ruleset | None = None  # which of the ruleset's own mechanisms are counted

    def as_dict(self) -> dict:
        secs = self.seconds or 1e-9
        return {
            "games": self.games, "events": self.events, "turns": self.turns, "seconds": round(self.seconds, 3),
            "events_per_second": round(self.events / secs), "turns_per_second": round(self.turns / secs),
            "mechanisms": {name: sum(self.events_by_type[k] + self.endings[k] for k in kinds)
                           for name, kinds in mechanisms(self.ruleset).items()},
            "events_by_type": dict(sorted(self.events_by_type.items())),
            "endings": dict(sorted(self.endings.items())),
            "landings": {k: self.landings[k] for k in sorted(self.landings, key=_landing_order)},
            "invariant_violations": self.invariant_violations,
        }


MECHANISMS = {  # what each mechanism of the rules is counted by: event kinds, or how games ended
    "houses built": ("houses_built",),
    "hotels built": ("hotel_built",),
    "buildings sold": ("houses_sold", "hotel_sold"),
    "bankruptcies to the bank": ("bankrupt_to_bank",),
    "time called": ("time_called",),
    "games ranked by a roll-off": ("last_player_standing_with_rolloff", "timed_finish_with_rolloff",
                                   "ended_by_bankruptcies_with_rolloff", "bank_ran_out_with_rolloff"),
}


# mechanisms a ruleset has only when its options (or cards) say so: (event kinds, whether the ruleset has it)
RULESET_MECHANISMS = {
    "house-shortage auctions won": (("paid.building_auction",), lambda r: r.options.landing_on_own == "nothing"),
    "hotels broken down": (("hotel_broken_down",), lambda r: r.options.landing_on_own == "nothing"),
    "mortgages": (("mortgaged",), lambda r: r.options.mortgages_allowed),
    "mortgages lifted": (("unmortgaged",), lambda r: r.options.mortgages_allowed),
    "trades": (("trade",), lambda r: r.options.trade_timing != "never"),
    "debt negotiations": (("debt_negotiation",), lambda r: r.options.short_payment == "debt"),
    "bankruptcies to a player": (("bankrupt_to_player",), lambda r: r.options.short_payment == "debt"),
    "estate auctions": (("estate_auction_taken",), lambda r: r.options.bankruptcy_to_bank_deeds == "auction_in_board_order"),
    "rescues": (("rescue",), lambda r: r.options.provisional_bankruptcy),
    "games ended by a number of bankruptcies": (("ended_by_bankruptcies", "ended_by_bankruptcies_with_rolloff"),
                                                lambda r: r.options.end_after_bankruptcies),
    "players dealt deeds at the start": (("awaiting.deal",), lambda r: r.options.dealt_deeds),
    "free parking pots collected": (("paid.free_parking",),
                                    lambda r: r.options.free_parking == "tax_pot" and r.options.pot_payments),
    "salaries for landing on GO": (("paid.go_landing",), lambda r: r.options.go_landing_bonus),
    "rents waived, owner in jail": (("rent_waived",), lambda r: not r.options.rent_while_in_jail),
    "rents not claimed in time": (("rent_unclaimed",), lambda r: r.options.rent_claim_turns),
    "turns sat out in jail": (("jail_turn_sat",), lambda r: r.options.jail_mode == "sit_out"),
    "turns skipped instead of the jail fine": (("released.turn_skipped",), lambda r: r.options.jail_skip_turn),
    "games ended when the bank ran out": (("bank_ran_out", "bank_ran_out_with_rolloff"), lambda r: r.options.bank_money),
    "deeds sold back to the bank on landing": (("paid.deed_sold",), lambda r: r.options.landing_on_own != "nothing"),
    "players out at 0": (("bankrupt_to_bank",), lambda r: r.options.short_payment == "all_cash_then_out"),
    "estates shared": (("estate_shared",), lambda r: r.options.bankrupt_estate == "shared_among_survivors"),
    "a fine or a card from the other deck": (("awaiting.fine_or_card",),
                                             lambda r: any(c.effect.kind == "pay_or_draw" for c in r.cards.values())),
}


def mechanisms(ruleset: Ruleset | None) -> dict[str, tuple[str, ...]]:
    """The mechanisms counted for a ruleset: every ruleset's, and those its options and cards give it."""
    out = dict(MECHANISMS)
    if ruleset is not None:
        out.update({name: kinds for name, (kinds, has) in RULESET_MECHANISMS.items() if has(ruleset)})
    return out


def _landing_order(key: str) -> tuple[int, int]:
    return (1, 0) if key == "jail" else (0, int(key))  # a square's index, as landings() wrote it


class Invariants:
    """Checks that must hold after every event of every game.

    :meth:`after` checks each event against the state's kept counts (the players' cash and the pot, the
    holdings, the houses and hotels on the board): a few comparisons, whatever the board.  :meth:`recount`
    checks the whole board square by square and the kept counts against a recount: the tests run it after every
    event, to check the quick one.
    """

    def __init__(self, ruleset: Ruleset, initial: GameState) -> None:
        self.ruleset = ruleset
        # what the players and the pot should hold: what they held at the start (start cash, or a set-up
        # position's cash) plus what the bank has paid out since
        self.money = sum(p.cash for p in initial.players) + initial.pot
        self.violations: list[str] = []

    def after(self, state: GameState, event) -> None:
        """Check what ``event`` can have changed: cash (a payment, a trade), deeds (a transfer, a trade, a mortgage,
        a bankruptcy), the buildings (the one event that changes them); an event that changes none of these has
        nothing to check (:meth:`recount` checks everything after every event, to show that).  As an observer of the
        engine (``Game.record(entry, invariants)``), it is shown only the events of :attr:`event_types`."""
        check = self._CHECKS.get(type(event))
        if check is not None:
            problems = check(self, state, event)
            if problems:
                self.violations.extend(f"{type(event).__name__}: {p}" for p in problems)

    __call__ = after

    def _paid(self, state: GameState, event: Paid) -> list[str]:
        if event.payer is None:
            self.money += event.amount
        if event.payee is None:
            self.money -= event.amount
        problems = self._money(state)
        if state.bank_cash is not None and state.bank_cash < 0:  # a finite bank (the German variant) pays no more than it has
            problems.append(f"the bank holds {state.bank_cash}")
        return problems

    def _buildings(self, state: GameState, event: BuildingsChanged) -> list[str]:
        problems = self._supply(state, "building supply")
        if state.bank_houses < 0 or state.bank_hotels < 0:
            problems.append("bank building stock below zero")
        return problems

    def _bankrupt(self, state: GameState, event: WentBankrupt) -> list[str]:
        if state.holdings[event.player]:
            return [f"{state.players[event.player].name} is bankrupt and still holds {state.holdings[event.player]}"]
        return []

    _CHECKS = {
        Paid: _paid,
        DeedTransferred: lambda self, state, event: self._deeds(state, (event.square,)),
        Mortgaged: lambda self, state, event: self._deeds(state, (event.square,)),
        Unmortgaged: lambda self, state, event: self._deeds(state, (event.square,)),
        TradeMade: lambda self, state, event: (self._money(state)
                                               + self._deeds(state, event.give.deeds + event.take.deeds)),
        WentBankrupt: _bankrupt,
        BuildingsChanged: _buildings,
    }
    event_types = frozenset(_CHECKS)  # the events that change what is checked: the engine shows it these only

    def recount(self, state: GameState, event) -> None:
        """The checks of :meth:`after` on the whole board: the money, every square, and the kept counts recounted."""
        fresh = state.copy()
        fresh.recount()
        problems = (self._money(state) + self._deeds(state, range(len(state.owner)))
                    + self._supply(fresh, "building supply recounted"))
        counts = state.counts_problem()
        if counts:
            problems.append(counts)
        if problems:
            self.violations.extend(f"{type(event).__name__}: {p}" for p in problems)

    def _supply(self, state: GameState, what: str) -> list[str]:
        """The houses and hotels on the board (the state's counts) and in the bank against the supply."""
        if (state.houses_built + state.bank_houses == self.ruleset.houses
                and state.hotels_built + state.bank_hotels == self.ruleset.hotels):
            return []
        return [f"{what}: {state.houses_built}+{state.bank_houses} houses, {state.hotels_built}+{state.bank_hotels} "
                f"hotels"]

    def _money(self, state: GameState) -> list[str]:
        problems = []
        held = state.pot
        for pl in state.players:
            held += pl.cash
            if pl.cash < 0:
                problems.append(f"{pl.name} has negative cash {pl.cash}")
        if held != self.money:
            problems.append(f"money not conserved: players and pot hold {held}, bank flows say {self.money}")
        return problems

    def _deeds(self, state: GameState, squares) -> list[str]:
        problems = []
        for sq in squares:
            owner = state.owner[sq]
            if owner is not None and (not self.ruleset.squares[sq].is_property or state.players[owner].bankrupt):
                problems.append(f"square {sq} owned by {owner}, who cannot own it")
            if state.mortgaged[sq] and owner is None:
                problems.append(f"square {sq} mortgaged with no owner")
        return problems


def play_game(ruleset: Ruleset, rng: random.Random, players: int = 4, jail: str = "random",
              max_turns: int = 1000, stats: Stats | None = None, check: bool = True, recount: bool = False) -> Game:
    """Play one random game to its end: one player left, or time called when turn ``max_turns`` is over.
    ``check``: the invariants after every event; ``recount``: the whole board recounted after every event too."""
    stats = stats if stats is not None else Stats()
    header = Header(ruleset.id, PLAYER_NAMES[:players])
    game = Game(ruleset, header, in_place=True)  # the policy reads the latest state only
    policy = Policy(rng, jail)
    invariants = Invariants(ruleset, game.initial)

    def check_and_recount(state: GameState, event) -> None:
        invariants.after(state, event)
        invariants.recount(state, event)

    observe = check_and_recount if recount else invariants if check else None
    kinds: list[str] = []  # every event's kind, counted once the game is over
    in_jail = len(ruleset.squares)  # the landings counter of a player in jail, after the squares
    landed = [0] * (in_jail + 1)  # landings on each square, and in jail (the last), counted into stats at the end
    record, choose, add_kinds = game.record, policy.choose, kinds.extend
    landing_due: int | None = None
    entries_this_turn = last_turn = 0
    while True:
        state = game.state
        pending = type(state.pending)
        if landing_due is not None and (pending is AwaitRoll or pending is GameOver):  # the roll's move has ended
            pl = state.players[landing_due]
            landed[in_jail if pl.in_jail else pl.position] += 1
            landing_due = None
        if pending is GameOver:
            break
        turn = state.turn
        if turn != last_turn:
            last_turn, entries_this_turn = turn, 0
            if turn > max_turns and not state.time_called:  # the table's clock has run out: a timed finish
                add_kinds(map(KIND_OF, record(Entry("time_called"), observe).events))
                continue
        entries_this_turn += 1
        if entries_this_turn > MAX_ENTRIES_PER_TURN:
            invariants.violations.append(f"turn {turn}: more than {MAX_ENTRIES_PER_TURN} entries")
            break
        entry = choose(state)
        if entry.type == "roll" and isinstance(state.pending, AwaitRoll):  # (a roll is only ever awaited)
            landing_due = state.pending.player  # before the state changes in place
        add_kinds(map(KIND_OF, record(entry, observe).events))  # (the events themselves are not kept: fewer
        # objects alive, fewer collections of the garbage collector)
    stats.entries += len(game.entries)
    stats.events += len(kinds)
    stats.events_by_type.update(kinds)
    stats.landings.update({"jail" if at == in_jail else SQUARE_KEYS[at]: n for at, n in enumerate(landed) if n})
    game.in_place = False  # whoever records more on it gets a new state for each entry
    stats.games += 1
    stats.turns += game.state.turn
    stats.endings[_ending(game)] += 1
    stats.invariant_violations += len(invariants.violations)
    stats.violations.extend(invariants.violations[:5])
    return game


def _ending(game: Game) -> str:
    """How a game ended, for the counts: by time or by bankruptcies, and whether a roll-off ranked it."""
    state = game.state
    if not isinstance(state.pending, GameOver):
        return "unfinished"
    how = {"time": "timed_finish", "bankruptcies": "ended_by_bankruptcies", "bank": "bank_ran_out"}.get(
        state.pending.reason,
                                                                             "last_player_standing")
    return how + ("_with_rolloff" if any(state.pending.rolls) else "")


def simulate(ruleset: Ruleset, games: int, seed: int, players: int = 4, jail: str = "random",
             max_turns: int = 1000, clock: str = "random", recount: bool = False) -> Stats:
    """Play ``games`` random games from ``seed``.

    A tournament calls time on a whole round at once, and the tables are then at different points of
    their games: with ``clock="random"`` each game's time is called after a turn drawn evenly from 1 to
    ``max_turns`` (if it has not ended before); with ``clock="max"`` every game runs to ``max_turns``.
    """
    rng = random.Random(seed)
    stats = Stats(ruleset=ruleset)
    start = time.perf_counter()
    for _ in range(games):
        limit = rng.randint(1, max_turns) if clock == "random" else max_turns
        play_game(ruleset, rng, players, jail, limit, stats, recount=recount)
    stats.seconds = time.perf_counter() - start
    return stats
