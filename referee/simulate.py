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

from .engine import (Action, Auction, AwaitRoll, BidPayment, BuildingAuction, BuildingsChanged, BuildRound,
                     BuyOrAuction, DealDeeds, Debt, DeedTransferred, DrawCard, Entry, FineOrCard, Game, GameOver,
                     GameState, Header, IncomeTaxChoice, JailFine, Mortgaged, Offer, OwnProperty, Paid, PlaceBuilding,
                     RentRoll, RollOff, Ruleset, SeatingRoll, TradeMade, Unmortgaged, WentBankrupt, bank_needs,
                     build_time, deal_refusal, decision_kinds, even_targets, legal_actions, mortgage_choices,
                     raisable_cash, smallest_sale, trade_refusal)

JAIL_MODES = ("random", "short", "long")
CLOCKS = ("random", "max")  # when time is called: at a random turn up to the limit, or at the limit
PLAYER_NAMES = ("Aki", "Ben", "Chie", "Dai", "Emi", "Fumi", "Goro", "Hana")
MAX_ENTRIES_PER_TURN = 400  # a guard against a policy that never ends an auction
SQUARE_KEYS = tuple(str(i) for i in range(100))  # landings are counted by square number, as text (the JSON's keys)
KIND_OF = attrgetter("kind")  # an event's kind, for the counts
# kinds one producer of legal_actions makes at once (mortgage_actions): the Menu asks for them together
MADE_TOGETHER = {"mortgage": ("mortgage", "unmortgage"), "unmortgage": ("mortgage", "unmortgage")}


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
    return (1, 0) if key == "jail" else (0, int(key))


def dice(rng: random.Random) -> tuple[int, int]:
    """Two fair dice (random() scaled: a quarter of the time of two randint calls)."""
    return int(rng.random() * 6) + 1, int(rng.random() * 6) + 1


class Policy:
    """Random but plausible choices among the legal actions."""

    HOARDING = 0.4  # the share of players who keep four houses rather than build hotels

    def __init__(self, rng: random.Random, jail: str) -> None:
        self.rng = rng
        self.jail = jail
        self.hoarders: dict[int, bool] = {}
        # the build declarations last asked for, the state they were asked on and its groups_version then
        # (_build_options)
        self._builds_of: GameState | None = None
        self._builds_board = -1
        self._builds: list[Action] = []

    def hoards(self, player: int) -> bool:
        """Whether this player keeps four houses on a lot rather than build a hotel: the tournament tactic of
        holding houses so that the bank runs short (and other players must bid for what is left)."""
        if player not in self.hoarders:
            self.hoarders[player] = self.rng.random() < self.HOARDING
        return self.hoarders[player]

    def choose(self, state: GameState, actions: list[Action] | None = None) -> Entry:
        """An entry drawn from ``actions`` (the legal actions), or from the kinds of legal actions this policy
        asks for, each worked out when first asked for (``actions`` None)."""
        p = state.pending
        if type(p) is AwaitRoll and actions is None:  # the most frequent decision first
            return self._await_roll(state, p)
        by_type = Menu(state, actions)
        decide = self._DECISIONS.get(type(p))
        if decide is None:
            raise RuntimeError(f"no policy for {p!r} with {sorted(by_type)}")
        return decide(self, state, p, by_type)

    def _deal_deeds(self, state: GameState, p: DealDeeds, by_type: Menu) -> Entry:
        return self._deal(state, by_type["deal"][0])

    def _roll_for_order(self, state: GameState, p: SeatingRoll | RollOff, by_type: Menu) -> Entry:
        kind = "seat_roll" if isinstance(p, SeatingRoll) else "rolloff"
        return Entry(kind, player=state.name(by_type[kind][0].player), dice=dice(self.rng))

    def _debt(self, state: GameState, p: Debt, by_type: Menu) -> Entry:
        rng, name = self.rng, state.name
        trades = by_type.by_player("trade", p.debtor)
        if trades and rng.random() < 0.3:
            entry = self._debt_trade(state, p, trades)
            if entry:
                return entry
        for a in by_type.by_player("sell_buildings", p.debtor):
            sale = self._sale(state, a.player, a.detail["group"], in_debt=True)
            if sale:
                return sale
        mortgages = by_type.mortgages(("mortgage",), p.debtor)
        if mortgages:
            return self._mortgage(state, rng.choice(mortgages))
        taker = by_type["bankrupt"][0].detail["may_take_over"]
        if taker is not None and rng.random() < 0.5:  # JMA: the owner of the square ahead takes it over
            return Entry("bankrupt", player=name(p.debtor), creditor=name(taker))
        return Entry("bankrupt", player=name(p.debtor))

    def _build_round(self, state: GameState, p: BuildRound, by_type: Menu) -> Entry:
        rng = self.rng
        declared = {player for player, _ in p.declarations}
        builds = [a for a in by_type.get("build", []) if a.player not in declared]
        if builds and rng.random() < 0.85:  # houses are short: whoever can build declares
            entry = self._build(state, rng.choice(builds))
            if entry:
                return entry
        withdrawals = by_type.get("withdraw_build", [])
        if withdrawals and rng.random() < 0.15:
            a = rng.choice(withdrawals)
            return Entry("withdraw_build", player=state.name(a.player),
                         targets=tuple((sq, state.buildings[sq]) for sq, _ in a.detail["targets"]))
        return Entry("close_builds")

    def _place_building(self, state: GameState, p: PlaceBuilding, by_type: Menu) -> Entry:
        detail = by_type["place_building"][0].detail
        lots = [sq for sq in detail["squares"] if sq not in detail["held"]]
        if not lots or detail["held"] and self.rng.random() < 0.1:  # wants a dearer lot: the bid is held
            lots = list(detail["held"])
        return Entry("place_building", player=state.name(p.player),
                     square=state.ruleset.squares[self.rng.choice(lots)].id)

    def _bid_payment(self, state: GameState, p: BidPayment, by_type: Menu) -> Entry:
        """A winning bid to raise: mortgage, or sell buildings."""
        mortgages = by_type.mortgages(("mortgage",), p.player)
        if mortgages:
            return self._mortgage(state, self.rng.choice(mortgages))
        for a in by_type.by_player("sell_buildings", p.player):
            sale = self._sale(state, a.player, a.detail["group"], in_debt=False)
            if sale:
                return sale
        raise RuntimeError(f"no way to raise the winning bid of {p!r}")

    def _buy_or_auction(self, state: GameState, p: BuyOrAuction, by_type: Menu) -> Entry:
        rng, name = self.rng, state.name
        if "buy" in by_type and rng.random() < 0.75:
            return Entry("buy", player=name(p.player))
        own = by_type.mortgages(("mortgage",), p.player) if "buy" not in by_type else []
        price = state.ruleset.squares[p.square].price
        if own and raisable_cash(state, p.player) >= price and rng.random() < 0.5:
            return self._mortgage(state, rng.choice(own))
        return Entry("decline", player=name(p.player))

    def _income_tax(self, state: GameState, p: IncomeTaxChoice, by_type: Menu) -> Entry:
        a = by_type["income_tax"][0]
        return Entry("income_tax", player=state.name(a.player), choice=self.rng.choice(("flat", "percent")))

    def _card(self, state: GameState, p: DrawCard, by_type: Menu) -> Entry:
        a = by_type["card"][0]
        return Entry("card", player=state.name(a.player), card=self.rng.choice(a.detail["cards"]))

    def _fine_or_card(self, state: GameState, p: FineOrCard, by_type: Menu) -> Entry:
        return Entry("fine_or_card", player=state.name(p.player), choice=self.rng.choice(("pay", "draw")))

    def _own_property(self, state: GameState, p: OwnProperty, by_type: Menu) -> Entry:
        """On a deed of one's own (German variant): mostly a house when one can be built, now and then a sale."""
        rng = self.rng
        if "build_house" in by_type and rng.random() < 0.8:
            return Entry("build_house", player=state.name(p.player))
        if rng.random() < 0.05:
            return Entry("sell_to_bank", player=state.name(p.player))
        return Entry("keep", player=state.name(p.player))

    def _rent_roll(self, state: GameState, p: RentRoll, by_type: Menu) -> Entry:
        return Entry("rent_roll", player=state.name(by_type["rent_roll"][0].player), dice=dice(self.rng))

    def _jail_fine(self, state: GameState, p: JailFine, by_type: Menu) -> Entry:
        """Third failed roll: a card in hand, or one to buy from another player."""
        rng, jailed = self.rng, p.player
        if "use_jail_card" not in by_type and by_type.by_player("trade", jailed) and rng.random() < 0.5:
            entry = self._buy_jail_card(state, jailed)
            if entry and trade_allowed(state, entry):
                return entry
        kind = rng.choice([k for k in ("pay_bail", "use_jail_card", "skip_jail_turn") if k in by_type])
        return Entry(kind, player=state.name(jailed))

    def _buy_jail_card(self, state: GameState, buyer: int) -> Entry | None:
        """An offer for another player's get-out-of-jail card, below the JMA limit of the fine."""
        sellers = [i for i in state.active if i != buyer and state.players[i].jail_cards]
        if not sellers:
            return None
        seller = self.rng.choice(sellers)
        price = self.rng.randint(1, state.ruleset.money.bail - 1)
        if state.players[buyer].cash < price:
            return None
        return Entry("trade", player=state.name(buyer), partner=state.name(seller), give=Offer(cash=price),
                     take=Offer(cards=(state.players[seller].jail_cards[0],)))

    def _mortgage(self, state: GameState, choice: tuple[str, int, int]) -> Entry:
        """The entry of a choice of :meth:`Menu.mortgages`."""
        kind, player, square = choice
        return Entry(kind, player=state.name(player), square=state.ruleset.squares[square].id)

    def _deal(self, state: GameState, action: Action) -> Entry:
        """Deal deeds as a shuffled deck would: draw again while the rules say to redeal."""
        while True:
            squares = self.rng.sample(action.detail["available"], action.detail["count"])
            if deal_refusal(state, action.player, squares) is None:
                return Entry("deal", player=state.name(action.player),
                             deeds=tuple(state.ruleset.squares[sq].id for sq in squares))

    def _sell_deed(self, state: GameState, seller: int, buyers: tuple[int, ...]) -> Entry | None:
        """The seller offers one deed (none of its group built on) to a buyer for about its price."""
        rng = self.rng
        deeds = [sq for sq in state.deeds_of(seller) if not state.group_has_buildings(sq)]
        if not deeds or not buyers:
            return None
        sq = rng.choice(deeds)
        buyer = rng.choice(buyers)
        square = state.ruleset.squares[sq]
        price = square.mortgage // 2 if state.mortgaged[sq] else square.mortgage + 10 * rng.randint(1, 20)
        if price > state.players[buyer].cash or price < 1:
            return None
        return Entry("trade", player=state.name(seller), partner=state.name(buyer),
                     give=Offer(deeds=(square.id,)), take=Offer(cash=price))

    def _completing_trade(self, state: GameState, action: Action) -> Entry | None:
        """The player offers cash, above the printed price, for the one lot missing from a colour group."""
        buyer = action.player
        wanted = []
        for group in state.ruleset.groups.values():
            if state.ruleset.squares[group.squares[0]].kind != "street":
                continue
            missing = [sq for sq in group.squares if state.owner[sq] != buyer]
            if len(missing) == 1 and state.owner[missing[0]] in action.detail["partners"]:
                wanted.append(missing[0])
        if not wanted:
            return None
        square = state.ruleset.squares[self.rng.choice(wanted)]
        price = square.price + 10 * self.rng.randint(2, square.price // 10 + 20)
        if price > state.players[buyer].cash:
            return None
        return Entry("trade", player=state.name(buyer), partner=state.name(state.owner[square.index]),
                     give=Offer(cash=price), take=Offer(deeds=(square.id,)))

    def _debt_trade(self, state: GameState, debt: Debt, trades: list[Action]) -> Entry | None:
        """The debtor (whose trades these are) sells a deed to a partner."""
        entry = self._sell_deed(state, debt.debtor, trades[0].detail["partners"])
        return entry if entry and trade_allowed(state, entry) else None

    def _build(self, state: GameState, action: Action) -> Entry | None:
        """Declare up to as many levels as the player's cash allows (at least one), evenly."""
        top = state.hotel_level - 1 if self.hoards(action.player) else state.hotel_level
        cash_for = state.players[action.player].cash // action.detail["house_cost"]
        if cash_for < 1:
            return None  # not even one level (as below, without counting the levels)
        squares, group = action.detail["squares"], action.detail["group"]
        current = state.group_levels[group]  # the levels on the group's lots, kept
        affordable = min(len(squares) * top - current, cash_for)  # room for more, and cash
        if affordable < 1:
            return None
        add = self.rng.randint(1, affordable)
        targets = even_targets(state, group, current + add)  # even levels on a buildable group
        houses, hotels = bank_needs(state, targets)
        if houses > state.bank_houses or hotels > state.bank_hotels:
            return None
        return Entry("build", player=state.name(action.player),
                     targets=tuple((state.ruleset.squares[sq].id, lvl) for sq, lvl in targets.items()))

    def _sale(self, state: GameState, player: int, group: str, in_debt: bool) -> Entry | None:
        change = smallest_sale(state, player, group, in_debt)
        if change is None:
            return None
        return Entry("sell_buildings", player=state.name(player),
                     targets=tuple((state.ruleset.squares[sq].id, lvl) for sq, lvl in change.levels.items()))

    def _await_roll(self, state: GameState, p: AwaitRoll, by_type: Menu | None = None) -> Entry:
        """Before the roll: build, trade, sell, mortgage or leave jail, each with its chance (drawn before the
        legal actions of its kind are asked for), else roll.  (The menu of legal actions is made when a chance
        first needs it: most rolls need none.)"""
        rng = self.rng
        name = state.name
        if rng.random() < 0.7:
            builds = self._build_options(state, by_type)
            if builds:
                entry = self._build(state, rng.choice(builds))
                if entry:
                    return entry
        if rng.random() < 0.05 and (by_type := by_type or Menu(state)).get("trade"):
            entry = self._completing_trade(state, rng.choice(by_type["trade"]))
            if entry and trade_allowed(state, entry):
                return entry
        if rng.random() < 0.03 and (by_type := by_type or Menu(state)).get("trade"):
            a = rng.choice(by_type["trade"])
            entry = self._sell_deed(state, a.player, a.detail["partners"])
            if entry and trade_allowed(state, entry):
                return entry
        if rng.random() < 0.02 and (by_type := by_type or Menu(state)).get("sell_buildings"):
            a = rng.choice(by_type["sell_buildings"])
            entry = self._sale(state, a.player, a.detail["group"], in_debt=False)
            if entry:
                return entry
        if state.between_turns and rng.random() < 0.08:
            extras = (by_type := by_type or Menu(state)).mortgages(("unmortgage", "mortgage"))
            if extras:
                return self._mortgage(state, rng.choice(extras))
        if state.recent_rents and state.ruleset.options.rent_claim_turns and rng.random() < 0.05:
            lapsed = (by_type or Menu(state)).get("rent_not_claimed")  # an owner who forgot to ask for the rent
            if lapsed:
                a = lapsed[0]
                return Entry("rent_not_claimed", player=name(a.player), square=state.ruleset.squares[a.detail["square"]].id)
        if state.players[p.player].in_jail:  # out by the fine or a card, or try for doubles
            by_type = by_type or Menu(state)
            releases = by_type.get("use_jail_card", []) + by_type.get("pay_bail", [])
            skip = by_type.get("skip_jail_turn")
            if (releases or skip) and (self.jail == "short" or (self.jail == "random" and rng.random() < 0.5)):
                if skip and (not releases or rng.random() < 0.5):
                    return Entry("skip_jail_turn", player=name(p.player))
                return Entry(releases[0].type, player=name(p.player))
        return Entry("roll", player=state.players[p.player].name, dice=dice(rng))

    def _build_options(self, state: GameState, by_type: Menu | None) -> list[Action]:
        """The legal building declarations before a roll, asked of legal_actions again only when the colour groups
        (whole owners, mortgaged lots, hotels: ``state.groups_version``) have changed since they were last asked
        for on this state, and not at all when it is no time to build: nothing else decides them (test_predicates
        checks the kept list against a fresh one)."""
        if not build_time(state):
            return []  # no declarations now (during doubles, after time is called)
        if self._builds_of is not state or self._builds_board != state.groups_version:
            builds = by_type.get("build", []) if by_type is not None else legal_actions(state, ("build",))
            self._builds_of, self._builds_board, self._builds = state, state.groups_version, builds
        return self._builds

    def _auction(self, state: GameState, p: Auction | BuildingAuction, by_type: Menu) -> Entry:
        rng = self.rng
        if isinstance(p, Auction):
            price = state.ruleset.squares[p.square].price
        else:
            price = 150  # a typical house price
        bids = by_type.get("bid", [])
        hammer = "hammer" in by_type
        if hammer and p.high_bidder is not None and (rng.random() < 0.35 or p.high_bid >= price * 1.5 or not bids):
            if state.players[p.high_bidder].cash < p.high_bid:
                own = by_type.mortgages(("mortgage",), p.high_bidder)
                if own and rng.random() < 0.7:
                    return self._mortgage(state, rng.choice(own))
            return Entry("hammer")
        no_bid_chance = 0.05 if isinstance(p, Auction) else 0.0
        if hammer and (not bids or (p.high_bidder is None and rng.random() < no_bid_chance)):
            return Entry("hammer")
        step = bids[0].detail["step"]
        callers = rng.sample(bids, 2) if len(bids) > 1 and bids[0].detail["equal_calls"] and rng.random() < 0.1 \
            else [rng.choice(bids)]
        amount = max(a.detail["minimum"] for a in callers) + step * rng.randint(0, 4)
        if isinstance(p, BuildingAuction):
            amount = max(amount, 50 + step * rng.randint(0, 10))
        if len(callers) > 1:
            return Entry("bid", players=tuple(state.name(a.player) for a in callers), amount=amount)
        return Entry("bid", player=state.name(callers[0].player), amount=amount)

    _DECISIONS = {  # the policy's choice for each kind of decision the table may wait for
        DealDeeds: _deal_deeds, SeatingRoll: _roll_for_order, RollOff: _roll_for_order, Debt: _debt,
        BuildRound: _build_round, BuildingAuction: _auction, PlaceBuilding: _place_building, BidPayment: _bid_payment,
        AwaitRoll: _await_roll, BuyOrAuction: _buy_or_auction, Auction: _auction, IncomeTaxChoice: _income_tax,
        DrawCard: _card, FineOrCard: _fine_or_card, OwnProperty: _own_property, RentRoll: _rent_roll, JailFine: _jail_fine,
    }


_ASKED: dict[tuple[type, str], tuple[str, ...]] = {}  # (decision, kind) -> the kinds Menu.get asks for at once


class Menu:
    """The legal actions by type, as a dict would give them: grouped from a full list, or each type worked out by
    ``legal_actions(state, (type,))`` when first asked for."""

    __slots__ = ("state", "complete", "by_type")

    def __init__(self, state: GameState, actions: list[Action] | None = None) -> None:
        self.state = state
        self.complete = actions is not None
        self.by_type: dict[str, list[Action]] = {}
        for a in actions or ():
            self.by_type.setdefault(a.type, []).append(a)

    def get(self, kind: str, default=None):
        by_type = self.by_type
        found = by_type.get(kind)
        if found is None and not self.complete:
            key = (type(self.state.pending), kind)
            kinds = _ASKED.get(key)
            if kinds is None:
                answers = decision_kinds(self.state)
                # the decision's answers all at once, and kinds made together (mortgages and their lifting)
                kinds = _ASKED[key] = tuple(answers) if kind in answers else MADE_TOGETHER.get(kind, (kind,))
            if len(kinds) == 1:
                found = by_type[kind] = legal_actions(self.state, kinds)
            else:
                for k in kinds:
                    by_type[k] = []
                for a in legal_actions(self.state, kinds):
                    by_type[a.type].append(a)
                found = by_type[kind]
        return found or default

    def __getitem__(self, kind: str) -> list[Action]:
        found = self.get(kind)
        if not found:
            raise KeyError(kind)
        return found

    def __contains__(self, kind: str) -> bool:
        return bool(self.get(kind))

    def mortgages(self, kinds: tuple[str, ...], player: int | None = None) -> list[tuple[str, int, int]]:
        """The mortgages or lifts of mortgages (``kinds``, in that order) that may be recorded now, as (entry type,
        player, square), ``player``'s only if given: from the actions when they were given or already worked out,
        else from :func:`mortgage_choices`, what legal_actions makes them of, without making them (a fifth of the
        time: the policy draws one of two dozen)."""
        if self.complete or "mortgage" in self.by_type:
            return [(a.type, a.player, a.detail["square"]) for kind in kinds for a in self.by_type.get(kind, ())
                    if player is None or a.player == player]
        choices = mortgage_choices(self.state, player)
        return [(t, i, sq) for kind in kinds for t, i, sq, _ in choices if t == kind]

    def by_player(self, kind: str, player: int) -> list[Action]:
        """One player's legal actions of a kind (only theirs worked out, when not already)."""
        if self.complete or kind in self.by_type:
            return [a for a in self.by_type.get(kind, ()) if a.player == player]
        return legal_actions(self.state, (kind,), player)

    def __iter__(self):
        if not self.complete:
            self.by_type, self.complete = {}, True
            for a in legal_actions(self.state):
                self.by_type.setdefault(a.type, []).append(a)
        return iter(self.by_type)


def trade_allowed(state: GameState, entry: Entry) -> bool:
    """Whether the rules accept this proposed trade (the policy tries offers the rules may refuse): the engine's
    own check of a trade, :func:`trade_refusal`, on the offers with their deeds as squares."""
    def squares(offer: Offer) -> Offer:
        return offer.with_deeds(tuple(state.ruleset.square(ref).index for ref in offer.deeds))

    return trade_refusal(state, state.player_index(entry.player), state.player_index(entry.partner),
                         squares(entry.give), squares(entry.take)) is None


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
        if state.bank_cash is not None and state.bank_cash < 0:  # a finite bank (004) pays no more than it has
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
    jail = len(ruleset.squares)
    landed = [0] * (jail + 1)  # landings on each square, and in jail (the last), counted into stats at the end
    record, choose, add_kinds = game.record, policy.choose, kinds.extend
    landing_due: int | None = None
    entries_this_turn = last_turn = 0
    while True:
        state = game.state
        pending = type(state.pending)
        if landing_due is not None and (pending is AwaitRoll or pending is GameOver):  # the roll's move has ended
            pl = state.players[landing_due]
            landed[jail if pl.in_jail else pl.position] += 1
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
        if entry.type == "roll":
            landing_due = state.pending.player  # before the state changes in place
        add_kinds(map(KIND_OF, record(entry, observe).events))  # (the events themselves are not kept: fewer
        # objects alive, fewer collections of the garbage collector)
    stats.entries += len(game.entries)
    stats.events += len(kinds)
    stats.events_by_type.update(kinds)
    stats.landings.update({"jail" if at == jail else SQUARE_KEYS[at]: n for at, n in enumerate(landed) if n})
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
