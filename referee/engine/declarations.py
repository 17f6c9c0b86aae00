"""Building declarations and the house shortage (JMA 補足ルール「家の建て方」「家・ホテルの不足」).

Declarations stand until the referee confirms that no one else follows; when the declared buildings exceed the
bank's stock, hotels are built first, then the shortage is auctioned one building at a time and the winner
chooses the lot.  What a change of levels costs and whether it is even is :mod:`.building`.
"""
from __future__ import annotations

from dataclasses import replace
from operator import attrgetter

from . import events as ev
from .auction import bid_refusal
from .building import (apply_change, buildable_groups, built_this_turn, count_built, entry_targets, others_capacity,
                       placeable, plan_change)
from .entries import Action, Entry
from .errors import IllegalEntry, illegal
from .facts import minimum_bid, raisable_cash, tie_winner
from .phrases import Count, Kind, Lot, Money, Player, Square
from .state import AwaitRoll, BidPayment, BuildingAuction, BuildRound, GameState, PlaceBuilding
from .step import Step
from .timing import build_time, build_timing_refusal

Declaration = tuple[int, tuple[tuple[int, int], ...]]  # (player, ((square, level), ...)): BuildRound.declarations
Declarations = tuple[Declaration, ...]
HotelsFirst = list[tuple[int, dict[int, int]]]  # (player, {square: level}) of the hotels built first


def demand(state: GameState, declarations: Declarations) -> tuple[int, int]:
    houses = hotels = 0
    for player, targets in declarations:
        change = plan_change(state, player, dict(targets), selling=False)
        houses += change.houses_needed
        hotels += change.hotels_needed
    return houses, hotels


def split_hotels(state: GameState, declarations: Declarations) -> tuple[HotelsFirst, Declarations]:
    """JMA 補足ルール「家の建て方」: 家の建設宣言中にホテルの建設宣言があった場合、ホテルの建設を先に行います。

    The parts of the declarations that turn four houses into hotels, group by group (they need no house from
    the bank and give four back each: built first), and the declarations without them."""
    first: HotelsFirst = []
    rest: list[Declaration] = []
    hotel = state.hotel_level
    for player, targets in declarations:
        if all(level != hotel for _, level in targets):
            rest.append((player, targets))  # no hotel declared (targets as _merge keeps them: sorted)
            continue
        by_group: dict[str | None, dict[int, int]] = {}  # (a declared lot is a street: its group is named)
        for sq, level in targets:
            by_group.setdefault(state.ruleset.squares[sq].group, {})[sq] = level
        left = dict(targets)
        for named_lots in by_group.values():
            part = {sq: level for sq, level in named_lots.items() if level != state.buildings[sq]}  # lots that change
            if not part or any(level != state.hotel_level or state.buildings[sq] != state.hotel_level - 1
                               for sq, level in part.items()):
                continue
            try:
                plan_change(state, player, part, selling=False)
            except IllegalEntry:
                continue
            first.append((player, part))
            for sq in named_lots:
                del left[sq]
        if left:
            rest.append((player, tuple(sorted(left.items()))))
    return first, tuple(rest)


def houses_for_declarations(state: GameState, declarations: Declarations, first: HotelsFirst | None = None) -> int:
    """The houses the bank has for the declarations once their hotels are built first: its stock plus the
    houses those hotels give back (``first``: the hotels built first, when :func:`split_hotels` has been asked)."""
    if first is None:
        first, _ = split_hotels(state, declarations)
    return state.bank_houses + sum(state.buildings[sq] for _, part in first for sq in part)


def exceeds_stock(state: GameState, declarations: Declarations) -> bool:
    """Whether the declared buildings exceed what the bank has for them (hotels built first)."""
    houses, hotels = demand(state, declarations)
    return houses > houses_for_declarations(state, declarations) or hotels > state.bank_hotels


def _timing(step: Step, entry: Entry, player: int) -> None:
    refusal = build_timing_refusal(step.state, player)
    if refusal:
        raise refusal


def _merge(declarations: Declarations, player: int, targets: dict[int, int]) -> Declarations:
    merged = dict(next((dict(t) for p, t in declarations if p == player), {}))
    merged.update(targets)
    rest = tuple(d for d in declarations if d[0] != player)
    return rest + ((player, tuple(sorted(merged.items()))),)


def _build_hotels_first(step: Step, declarations: Declarations,
                        split: tuple[HotelsFirst, Declarations] | None = None) -> Declarations:
    """Build the declared hotels that need no house from the bank; the declarations left to build (``split``:
    :func:`split_hotels` of the declarations, when asked already)."""
    first, rest = split or split_hotels(step.state, declarations)
    for player, part in first:
        change = plan_change(step.state, player, part, selling=False)
        if change.price <= step.state.players[player].cash and change.hotels_needed <= step.state.bank_hotels:
            apply_change(step, change, "building")
    return rest


def _build_all(step: Step, declarations: Declarations, split: tuple[HotelsFirst, Declarations] | None = None) -> None:
    for player, targets in _build_hotels_first(step, declarations, split):
        change = plan_change(step.state, player, dict(targets), selling=False)
        if change.price > step.state.players[player].cash:
            continue  # the declaration can no longer be paid for: it lapses
        apply_change(step, change, "building")


def _turn_limit(step: Step, who: int, declarations: Declarations) -> None:
    """Classic rules (003, second classic text), Houses and hotels: "You can build your objects only immediately
    before your move, maximum 3 houses for 1 move."  (option ``houses_per_turn``: each house or hotel a level;
    what the player has built this turn and now declares, together.)"""
    s = step.state
    limit = s.ruleset.options.houses_per_turn
    if not limit:
        return
    mine = next(dict(t) for p, t in declarations if p == who)
    declared = sum(level - s.buildings[sq] for sq, level in mine.items() if level > s.buildings[sq])
    done = built_this_turn(s, who)
    if done + declared > limit:
        raise step.refuse("too_many_this_turn", "{player} builds {limit} buildings a turn at most: {done} built "
                          "already this turn, {declared} more declared", "houses_per_turn", player=Player(who),
                          limit=limit, done=done, declared=declared)


def _back_to(step: Step, round_: BuildRound) -> None:
    step.emit(ev.AwaitingDecision(round_.back_to))


def _build(step: Step, entry: Entry) -> None:
    s = step.state
    who = step.player(entry.player, entry.type)
    _timing(step, entry, who)
    targets = entry_targets(step, entry)
    change = plan_change(s, who, targets, selling=False)
    if change.price > s.players[who].cash:
        raise step.refuse("cannot_afford", "{player} has {cash}; these buildings cost {price}", "building",
                          player=Player(who), cash=Money(s.players[who].cash), price=Money(change.price))
    p = s.pending
    if isinstance(p, BuildRound):
        round_ = p
    else:
        assert isinstance(p, AwaitRoll)  # declarations are made at the roll awaited or in a round of them (build_time)
        round_ = BuildRound((), p)
    declarations = _merge(round_.declarations, who, targets)
    _turn_limit(step, who, declarations)
    split = split_hotels(s, declarations)
    houses_there = houses_for_declarations(s, declarations, split[0])  # hotels declared are built first
    if change.houses_needed > houses_there or change.hotels_needed > s.bank_hotels:
        raise step.refuse("not_in_bank", "the bank has {houses} and {hotels} for it; this needs {houses_needed} and "
                          "{hotels_needed}", "building_shortage", houses=Count("house", houses_there),
                          hotels=Count("hotel", s.bank_hotels), houses_needed=Count("house", change.houses_needed),
                          hotels_needed=Count("hotel", change.hotels_needed))
    if round_.declarations:
        houses, hotels = demand(s, declarations)
    else:  # this declaration alone: what it needs is worked out above
        houses, hotels = change.houses_needed, change.hotels_needed
    others_h, others_t = others_capacity(s, {d[0] for d in declarations})  # (buildable groups' owners are in play)
    if houses + others_h <= houses_there and hotels + others_t <= s.bank_hotels:
        # 補足ルール: no follower could exceed the bank's stock: the declarations stand at once
        if not round_.declarations and not split[0]:
            apply_change(step, change, "building")  # this declaration alone, no hotel built first: as planned above
        else:
            _build_all(step, declarations, split)
        _back_to(step, round_)
    else:
        step.emit(ev.AwaitingDecision(replace(round_, declarations=declarations)))


def _withdraw_build(step: Step, entry: Entry) -> None:
    s = step.state
    round_ = step.expect(entry, BuildRound, "building_shortage")
    who = step.player(entry.player, entry.type)
    if not exceeds_stock(s, round_.declarations):
        raise step.refuse("declaration_stands", "a declaration may be withdrawn or reduced only while the declared "
                          "buildings exceed the bank's stock", "building_shortage")
    old = dict(next((dict(t) for p, t in round_.declarations if p == who), {}))
    if not old:
        raise step.refuse("no_declaration", "{player} has declared nothing", "building_shortage", player=Player(who))
    new = {sq: lvl for sq, lvl in entry_targets(step, entry).items()}
    for sq, lvl in new.items():
        if sq not in old or lvl > old[sq] or lvl < s.buildings[sq]:
            raise step.refuse("bad_withdrawal", "{lot} is not a reduction of the declaration", "building_shortage",
                              lot=Lot(sq, lvl))
    old.update(new)
    kept = {sq: lvl for sq, lvl in old.items() if lvl != s.buildings[sq]}
    rest = tuple(d for d in round_.declarations if d[0] != who)
    if kept:
        plan_change(s, who, kept, selling=False)  # the reduced declaration must itself be even
        rest = rest + ((who, tuple(sorted(kept.items()))),)
    step.emit(ev.AwaitingDecision(replace(round_, declarations=rest)))


def _close_builds(step: Step, entry: Entry) -> None:
    s = step.state
    round_ = step.expect(entry, BuildRound, "building_shortage")
    # a declaration the bank's stock can no longer meet on its own lapses: the player must wait
    houses_there = houses_for_declarations(s, round_.declarations)
    declarations = tuple(d for d in round_.declarations if _fits_stock(s, d, houses_there))
    if demand(s, declarations)[1] > s.bank_hotels:  # ホテルの建設は家の競売より優先
        step.emit(ev.AwaitingDecision(BuildingAuction("hotel", replace(round_, declarations=declarations))))
        return
    declarations = _build_hotels_first(step, declarations)  # their houses go back to the bank first
    if demand(step.state, declarations)[0] > step.state.bank_houses:
        step.emit(ev.AwaitingDecision(BuildingAuction("house", replace(round_, declarations=declarations))))
    else:
        _build_all(step, declarations)
        _back_to(step, round_)


def _fits_stock(state: GameState, declaration: Declaration, houses: int) -> bool:
    player, targets = declaration
    change = plan_change(state, player, dict(targets), selling=False)
    return change.houses_needed <= houses and change.hotels_needed <= state.bank_hotels


def _groups_to_build_on(state: GameState, player: int, kind: str, price: int) -> set[str]:
    """The colour groups where the winner of a shortage bid at ``price`` could put the building."""
    squares = state.ruleset.squares
    groups: set[str] = set()
    for i in placeable(state, player, kind):
        sq = squares[i]
        if sq.house_cost <= price:
            assert sq.group is not None  # a lot is a street, of a group
            groups.add(sq.group)
    return groups


def bid_means(state: GameState, player: int, kind: str, price: int) -> int:
    """What the winner of a shortage bid can raise and still build: every means (cash, mortgages, buildings sold
    at half) less what one group to build on must keep, the cheapest: its mortgage values (a lot can hold a building
    only while no deed of its group is mortgaged: 同色のすべての土地の権利書が抵当に入っていない状態である必要があります)
    and the buildings standing there (a hotel goes only on a lot with its houses: found by the simulator, a winner
    whose only way to pay was to sell them)."""
    squares = state.ruleset.squares
    groups = _groups_to_build_on(state, player, kind, price)
    keep = min((sum(squares[i].mortgage + state.buildings[i] * squares[i].house_cost // 2
                    for i in state.ruleset.groups[g].squares) for g in groups), default=0)
    return raisable_cash(state, player) - keep


def keeps_last_group(state: GameState, player: int, square: int) -> bool:
    """While the winner of a shortage bid raises its cash: whether mortgaging ``square`` would take the last group
    they could build on (:func:`bid_payment_mortgage_refusal` says so)."""
    p = state.pending
    if not isinstance(p, BidPayment) or p.kind is None or p.player != player:
        return False
    return _groups_to_build_on(state, player, p.kind, p.amount) == {state.ruleset.squares[square].group}


def bid_payment_mortgage_refusal(state: GameState, player: int, square: int) -> IllegalEntry | None:
    """While the winner of a shortage bid raises its cash: no mortgage of the last group they could build on."""
    if keeps_last_group(state, player, square):
        p = state.pending
        assert isinstance(p, BidPayment) and p.kind is not None  # only then does a mortgage keep a group
        return illegal(state, "last_lot_group", "{square}: mortgaging it would leave {player} no lot to build the "
                       "{kind} on", "building_shortage", square=Square(square), player=Player(player),
                       kind=Kind(p.kind))
    return None


def building_minimum_bid(state: GameState, auction: BuildingAuction, player: int) -> int:
    """JMA 補足ルール「家・ホテルの不足」: 競売は、建てようとする土地の家等の定価以上、$10単位で行います。
    The least a player may bid: above the standing bid, in the ruleset's steps, and no less than the building
    price of the cheapest lot where they could build."""
    lots = placeable(state, player, auction.kind)
    floor = min((state.ruleset.squares[i].house_cost for i in lots), default=0)
    step = state.ruleset.options.auction_bid_step
    return max(minimum_bid(state, auction), -(-floor // step) * step)


def bid_on_building(step: Step, entry: Entry, auction: BuildingAuction) -> None:
    s = step.state
    amount = entry.amount
    assert amount is not None  # a field every bid has (ENTRY_FIELDS)
    bidders = [step.player(name, entry.type) for name in entry.bidders]
    refusal = bid_refusal(s, auction, bidders, amount)
    if refusal:
        raise refusal
    for b in bidders:
        if not placeable(s, b, auction.kind):
            raise step.refuse("nowhere_to_build", "{player} has no lot where a {kind} may be built",
                              "building_shortage", player=Player(b), kind=Kind(auction.kind))
        low = building_minimum_bid(s, auction, b)
        if amount < low:
            raise step.refuse("below_building_price", "bid of {amount} by {player}: a bid for a {kind} starts at the "
                              "building price of a lot where they could build, {minimum} at the least",
                              "building_shortage", amount=Money(amount), player=Player(b),
                              kind=Kind(auction.kind), minimum=Money(low))
    winner = bidders[0] if len(bidders) == 1 else tie_winner(s, bidders)
    step.emit(ev.AwaitingDecision(replace(auction, high_bid=amount, high_bidder=winner, held=None)))


def hammer_building(step: Step, entry: Entry, auction: BuildingAuction) -> None:
    s = step.state
    winner = auction.high_bidder
    if winner is None:  # nobody bid: the declarations are asked again
        step.emit(ev.AwaitingDecision(auction.round))
        return
    lots = [i for i in placeable(s, winner, auction.kind) if s.ruleset.squares[i].house_cost <= auction.high_bid]
    if not lots:
        raise step.refuse("below_building_price", "{amount} is below the building price of every lot where {player} "
                          "could build: the auction goes on", "building_shortage", amount=Money(auction.high_bid),
                          player=Player(winner))
    if bid_means(s, winner, auction.kind, auction.high_bid) < auction.high_bid:
        # 誤って、支払うことのできない金額で落札してしまった場合は無効とし、そのプレーヤー以外による建設の宣言からやりなおします
        step.emit(ev.BidVoided(winner, auction.high_bid))
        round_ = auction.round
        rest = tuple(d for d in round_.declarations if d[0] != winner)
        step.emit(ev.AwaitingDecision(replace(round_, declarations=rest, excluded=round_.excluded + (winner,))))
        return
    step.pay_bid(BidPayment(winner, auction.high_bid, kind=auction.kind, round=auction.round))


def _place_building(step: Step, entry: Entry) -> None:
    s = step.state
    p = step.expect(entry, PlaceBuilding, "building_shortage")
    who = step.expect_actor(entry, p.player, "building_shortage")
    square = step.square(entry.square, entry.type)
    if square not in placeable(s, who, p.kind):
        raise step.refuse("cannot_place", "a {kind} cannot go on {square} now", "building", kind=Kind(p.kind),
                          square=Square(square))
    cost = s.ruleset.squares[square].house_cost
    if cost > p.price:
        # 実際に建てたい土地の建設定価以下で落札してしまった場合は、落札を保留してさらに競売を継続し、
        # 定価以上の金額で落札する必要があります
        step.emit(ev.BidHeld(who, p.price, square))
        step.emit(ev.AwaitingDecision(BuildingAuction(p.kind, p.round, p.price, who, held=square)))
        return
    change = plan_change(s, who, {square: s.buildings[square] + 1}, selling=False)
    if change.houses_needed > s.bank_houses or change.hotels_needed > s.bank_hotels:
        raise step.refuse("not_in_bank", "the bank has {houses} and {hotels}", "building_shortage",
                          houses=Count("house", s.bank_houses), hotels=Count("hotel", s.bank_hotels))
    step.emit(ev.Paid(who, None, p.price, "building_auction"))
    count_built(step, who, change.levels)
    step.emit(ev.BuildingsChanged(tuple(change.levels.items()), change.house_change, change.hotel_change))
    # the declarations are asked again; what is now built is no longer declared
    declarations = []
    for player, targets in p.round.declarations:
        left = tuple((sq, lvl) for sq, lvl in targets if lvl > s.buildings[sq])
        if left:
            try:
                plan_change(s, player, dict(left), selling=False)
                declarations.append((player, left))
            except IllegalEntry:
                pass  # no longer even on its own: the player declares again
    step.emit(ev.AwaitingDecision(replace(p.round, declarations=tuple(declarations))))


def declaration_actions(state: GameState, player: int | None = None) -> list[Action]:
    """The building declarations, shortage bids and placings that may be recorded now, for legal_actions
    (``player``: that player's declarations only; legal_actions drops the rest of others' actions)."""
    out: list[Action] = []
    p = state.pending
    if isinstance(p, BuildRound):
        out.append(Action("close_builds", None, {"declarations": p.declarations}))
        if exceeds_stock(state, p.declarations):
            out.extend(Action("withdraw_build", who, {"targets": targets}) for who, targets in p.declarations)
    elif isinstance(p, BuildingAuction):
        for i in state.active:
            if i not in p.excluded and (i != p.high_bidder or p.held is not None or state.ruleset.options.auction_own_raise) and placeable(state, i, p.kind):
                out.append(Action("bid", i, {"building": p.kind, "minimum": building_minimum_bid(state, p, i),
                                             "step": state.ruleset.options.auction_bid_step,
                                             "equal_calls": state.ruleset.options.auction_tie != "refuse"}))
        if p.high_bidder is None or any(state.ruleset.squares[i].house_cost <= p.high_bid
                                        for i in placeable(state, p.high_bidder, p.kind)):
            out.append(Action("hammer", None, {"building": p.kind, "high_bid": p.high_bid,
                                               "high_bidder": p.high_bidder}))
    elif isinstance(p, PlaceBuilding):
        lots = tuple(placeable(state, p.player, p.kind))
        out.append(Action("place_building", p.player, {
            "kind": p.kind, "price": p.price, "squares": lots,
            "held": tuple(i for i in lots if state.ruleset.squares[i].house_cost > p.price)}))
    if not build_time(state):  # build_timing_allows, but for the players out of a round of declarations
        return out
    excluded = p.excluded if isinstance(p, BuildRound) else ()
    if state.ruleset.options.build_timing == "before_own_roll":  # 002, some editions: the player on turn alone
        player = state.current if player is None or player == state.current else -1
    top, levels = state.hotel_level, state.group_levels
    limit = state.ruleset.options.houses_per_turn  # 003: at most so many a turn (0: no limit)
    builds = []  # the buildable groups with room for more, in board order
    for gid, i, lots, house_cost in buildable_groups(state):
        if levels[gid] >= top * len(lots) or i in excluded or player is not None and i != player:
            continue
        if limit and built_this_turn(state, i) >= limit:
            continue
        builds.append(Action("build", i, {"group": gid, "squares": lots, "house_cost": house_cost}))
    if len(builds) > 1:
        builds.sort(key=_by_player)  # by player, each player's groups in board order (the sort keeps their order)
    out.extend(builds)
    return out


_by_player = attrgetter("player")


# what declaration_actions makes at each kind of decision (nothing at the others: build_time is False there)
DECLARATION_KINDS_AT: dict[type, frozenset[str]] = {
    AwaitRoll: frozenset(("build",)), BuildRound: frozenset(("close_builds", "withdraw_build", "build")),
    BuildingAuction: frozenset(("bid", "hammer")), PlaceBuilding: frozenset(("place_building",)),
}
DECLARATION_HANDLERS = {
    "build": _build, "withdraw_build": _withdraw_build, "close_builds": _close_builds,
    "place_building": _place_building,
}
