"""The simulator's players: random but plausible choices among the legal actions (:class:`Policy`), the dice,
and the menu of legal actions a choice is drawn from, made only as far as a choice needs it (:class:`Menu`).

The randomness is a seeded :class:`random.Random` the caller passes in, so a run is repeatable.
"""
from __future__ import annotations

import random
from typing import Callable, Iterator

from ..engine import registry
from ..engine import (
    Action, Auction, AwaitRoll, BidPayment, BuildingAuction, BuildRound, BuyOrAuction, DealDeeds, Debt, DrawCard,
    Entry, EntryType, FineOrCard, GameState, IncomeTaxChoice, JailFine, Offer, OwnProperty, PlaceBuilding, RentRoll,
    RollOff, Ruleset, SeatingRoll, bank_needs, made_with, simulated, build_time, deal_refusal, decision_kinds,
    even_targets, legal_actions, mortgage_choices, raisable_cash, smallest_sale, trade_refusal)


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
        self._builds_current = -1  # the player on turn when they were asked for
        # the kinds of modules of their own the simulator records (registry.simulated), for the ruleset of the game
        # last played and the registry's generation then
        self._kinds: list[EntryType] = []
        self._kinds_of: Ruleset | None = None
        self._kinds_generation = -1

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
            sale = self._sale(state, a.by, a.detail["group"], in_debt=True)
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
            sale = self._sale(state, a.by, a.detail["group"], in_debt=False)
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
            if deal_refusal(state, action.by, squares) is None:
                return Entry("deal", player=state.name(action.by),
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
        buyer = action.by
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
        seller = state.owner[square.index]
        assert seller is not None  # wanted: a lot a partner owns
        return Entry("trade", player=state.name(buyer), partner=state.name(seller),
                     give=Offer(cash=price), take=Offer(deeds=(square.id,)))

    def _debt_trade(self, state: GameState, debt: Debt, trades: list[Action]) -> Entry | None:
        """The debtor (whose trades these are) sells a deed to a partner."""
        entry = self._sell_deed(state, debt.debtor, trades[0].detail["partners"])
        return entry if entry and trade_allowed(state, entry) else None

    def _build(self, state: GameState, action: Action) -> Entry | None:
        """Declare up to as many levels as the player's cash allows (at least one), evenly."""
        top = state.hotel_level - 1 if self.hoards(action.by) else state.hotel_level
        cash_for = state.players[action.by].cash // action.detail["house_cost"]
        if cash_for < 1:
            return None  # not even one level (as below, without counting the levels)
        squares, group = action.detail["squares"], action.detail["group"]
        current = state.group_levels[group]  # the levels on the group's lots, kept
        affordable = min(len(squares) * top - current, cash_for)  # room for more, and cash
        limit = state.ruleset.options.houses_per_turn  # and what is left of a turn's limit (the Russian editions' rules)
        if limit:
            affordable = min(affordable, limit - (state.built_this_turn[action.by] if state.built_this_turn else 0))
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
        menu = by_type if by_type is not None else Menu(state)  # (made as asked: most rolls ask nothing)
        if rng.random() < 0.7:
            builds = self._build_options(state, menu)
            if builds:
                entry = self._build(state, rng.choice(builds))
                if entry:
                    return entry
        if rng.random() < 0.05 and menu.get("trade"):
            entry = self._completing_trade(state, rng.choice(menu["trade"]))
            if entry and trade_allowed(state, entry):
                return entry
        if rng.random() < 0.03 and menu.get("trade"):
            a = rng.choice(menu["trade"])
            entry = self._sell_deed(state, a.by, a.detail["partners"])
            if entry and trade_allowed(state, entry):
                return entry
        if rng.random() < 0.02 and menu.get("sell_buildings"):
            a = rng.choice(menu["sell_buildings"])
            entry = self._sale(state, a.by, a.detail["group"], in_debt=False)
            if entry:
                return entry
        if state.between_turns and rng.random() < 0.08:
            extras = menu.mortgages(("unmortgage", "mortgage"))
            if extras:
                return self._mortgage(state, rng.choice(extras))
        if state.ruleset is not self._kinds_of or registry.generation != self._kinds_generation:  # (asked once a
            # game, and again after a kind is registered or taken away)
            self._kinds = simulated(state.ruleset.options)
            self._kinds_of, self._kinds_generation = state.ruleset, registry.generation
        for kind in self._kinds:  # the kinds of modules of their own the game's options allow: a rent not claimed,
            # a fine...
            sim = kind.simulated
            assert sim is not None and kind.ready is not None  # (simulated() lists those the simulator records)
            if (sim.possible is None or sim.possible(state)) and rng.random() < sim.rate:  # (none drawn where
                # none could be offered: the same games)
                offered = menu.get(kind.name)
                if offered:
                    return kind.ready(state, offered[0] if sim.first else rng.choice(offered))
        if state.players[p.player].in_jail:  # out by the fine or a card, or try for doubles
            releases = menu.get("use_jail_card", []) + menu.get("pay_bail", [])
            skip = menu.get("skip_jail_turn")
            if (releases or skip) and (self.jail == "short" or (self.jail == "random" and rng.random() < 0.5)):
                if skip and (not releases or rng.random() < 0.5):
                    return Entry("skip_jail_turn", player=state.name(p.player))
                return Entry(releases[0].type, player=state.name(p.player))
        return Entry("roll", player=state.players[p.player].name, dice=dice(rng))

    def _build_options(self, state: GameState, by_type: Menu) -> list[Action]:
        """The legal building declarations before a roll, asked of legal_actions again only when the colour groups
        (whole owners, mortgaged lots, hotels: ``state.groups_version``) have changed since they were last asked
        for on this state, and not at all when it is no time to build: nothing else decides them (test_predicates
        checks the kept list against a fresh one)."""
        if not build_time(state):
            return []  # no declarations now (during doubles, after time is called)
        # (and the player on turn, where only they build: build_timing before_own_roll)
        if (self._builds_of is not state or self._builds_board != state.groups_version
                or state.ruleset.options.build_timing == "before_own_roll" and self._builds_current != state.current):
            builds = by_type.get("build", [])
            self._builds_of, self._builds_board, self._builds = state, state.groups_version, builds
            self._builds_current = state.current
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

    # the policy's choice for each kind of decision the table may wait for
    _DECISIONS: dict[type, Callable[..., Entry]] = {
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
                # the decision's answers all at once, and kinds offered together (mortgages and their lifting)
                kinds = _ASKED[key] = tuple(answers) if kind in answers else made_with(kind)
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
            return [(a.type, a.by, a.detail["square"]) for kind in kinds for a in self.by_type.get(kind, ())
                    if player is None or a.player == player]
        choices = mortgage_choices(self.state, player)
        return [(t, i, sq) for kind in kinds for t, i, sq, _ in choices if t == kind]

    def by_player(self, kind: str, player: int) -> list[Action]:
        """One player's legal actions of a kind (only theirs worked out, when not already)."""
        if self.complete or kind in self.by_type:
            return [a for a in self.by_type.get(kind, ()) if a.player == player]
        return legal_actions(self.state, (kind,), player)

    def __iter__(self) -> Iterator[str]:
        if not self.complete:
            self.by_type, self.complete = {}, True
            for a in legal_actions(self.state):
                self.by_type.setdefault(a.type, []).append(a)
        return iter(self.by_type)


def trade_allowed(state: GameState, entry: Entry) -> bool:
    """Whether the rules accept this proposed trade (the policy tries offers the rules may refuse): the engine's
    own check of a trade, :func:`trade_refusal`, on the offers with their deeds as squares."""
    def squares(offer: Offer[int | str] | None) -> Offer[int]:
        given: Offer[int | str] = offer or Offer()  # a side the trade leaves out hands nothing
        return given.with_deeds(tuple(state.ruleset.square(ref).index for ref in given.deeds))

    return trade_refusal(state, state.player_index(entry.player), state.player_index(entry.partner),
                         squares(entry.give), squares(entry.take)) is None
