"""Houses and hotels: building declarations, house-shortage auctions, selling.

Levels: a lot holds 0 to ``houses_per_hotel`` houses, or a hotel
(level ``houses_per_hotel + 1``).  A declaration or a sale names the levels
the player wants on each lot of a colour group (``targets``); the even rule,
the bank's supply and the price are checked on that whole change at once.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import combinations

from . import events as ev
from .entries import Entry
from .errors import IllegalEntry
from .phrases import Count, Group, Kind, Level, Lot, Many, Money, Player, Square
from .rules import (Action, _bid_refusal, _refuse, _Step, _timing_refusal, _turn_refusal, minimum_bid, raisable_cash,
                    tie_winner)
from .state import AwaitRoll, BidPayment, BuildingAuction, BuildRound, Debt, GameState, PlaceBuilding


@dataclass(frozen=True, slots=True)
class Change:
    """A change of building levels on one player's lots, with what it costs and takes from the bank."""

    player: int
    levels: dict[int, int]  # square -> new level
    price: int  # positive: paid to the bank; negative: received
    houses_needed: int  # houses the bank must have (to bring lots up to the hotel's houses)
    hotels_needed: int
    house_change: int  # change of the bank's house stock
    hotel_change: int


def houses_at(state: GameState, level: int) -> int:
    return 0 if level == state.hotel_level else level


def hotels_at(state: GameState, level: int) -> int:
    return 1 if level == state.hotel_level else 0


def buildable_group_refusal(state: GameState, player: int, group: str) -> IllegalEntry | None:
    """元ルール「家の建て方」: a whole colour group, none of it mortgaged."""
    squares = state.ruleset.groups[group].squares
    first = state.ruleset.squares[squares[0]]
    if first.kind != "street":
        return _refuse(state, "not_a_street", "{group}: buildings go on streets only", "building", group=Group(group))
    if any(state.owner[i] != player for i in squares):
        return _refuse(state, "not_whole_group", "{player} does not own every lot of the {group} group", "building",
                       player=Player(player), group=Group(group))
    if any(state.mortgaged[i] for i in squares):
        return _refuse(state, "mortgaged_in_group", "a lot of the {group} group is mortgaged: lift the mortgage before "
                       "building", "building", group=Group(group))
    return None


def plan_change(state: GameState, player: int, targets: dict[int, int], selling: bool) -> Change:
    """Check a build or a sale of buildings on whole groups; :class:`IllegalEntry` if the rules refuse it."""
    levels: dict[int, int] = {}
    groups = []
    for square, level in targets.items():
        sq = state.ruleset.squares[square]
        if sq.kind != "street":
            raise _refuse(state, "not_a_street", "{square} cannot hold buildings", "building", square=Square(square))
        if state.owner[square] != player:
            raise _refuse(state, "not_owner", "{player} does not own {square}", "building", player=Player(player),
                          square=Square(square))
        if not 0 <= level <= state.hotel_level:
            raise _refuse(state, "bad_level", "{level} buildings on {square}: a lot holds at most {houses} houses or "
                          "one hotel", "building", level=level, square=Square(square), houses=state.hotel_level - 1)
        current = state.buildings[square]
        if selling and level > current:
            raise _refuse(state, "wrong_direction", "{square}: {now} now; a sale cannot take it to {level}",
                          "selling_buildings", square=Square(square), now=Level(current), level=Level(level))
        if not selling and level < current:
            raise _refuse(state, "wrong_direction", "{square}: {now} now; a build cannot take it to {level}",
                          "building", square=Square(square), now=Level(current), level=Level(level))
        levels[square] = level
        if sq.group not in groups:
            groups.append(sq.group)
    if not selling:
        for group in groups:
            refusal = buildable_group_refusal(state, player, group)
            if refusal:
                raise refusal
    price = 0
    houses_needed = hotels_needed = house_change = hotel_change = 0
    top = state.hotel_level - 1
    for group in groups:
        squares = state.ruleset.groups[group].squares
        after = [levels.get(i, state.buildings[i]) for i in squares]
        if max(after) - min(after) > 1:
            raise _refuse(state, "uneven", "{lots}: the lots of a group must differ by at most one building",
                          "building", lots=Many(tuple(Lot(i, a) for i, a in zip(squares, after))))
        for i, new in zip(squares, after):
            old = state.buildings[i]
            price += (new - old) * state.ruleset.squares[i].house_cost
            house_change -= houses_at(state, new) - houses_at(state, old)
            hotel_change -= hotels_at(state, new) - hotels_at(state, old)
            if not selling:
                houses_needed += max(0, min(new, top) - min(old, top))
                hotels_needed += hotels_at(state, new) - hotels_at(state, old)
    if selling:
        # the bank pays half the building price; a hotel's is five house prices (option hotel_sale_value)
        price = -((-price) // 2)
    return Change(player, levels, price, houses_needed, hotels_needed, house_change, hotel_change)


def sale_refusal(state: GameState, change: Change, in_debt: bool) -> IllegalEntry | None:
    """JMA 補足ルール: a hotel is not broken into houses from the bank, except by a player in debt."""
    if -change.house_change > state.bank_houses:
        return _refuse(state, "house_shortage", "the bank has {houses}; this sale needs {needed}",
                       "selling_buildings", houses=Count("house", state.bank_houses),
                       needed=Count("house", -change.house_change))
    breakdown = change.house_change < 0 and change.hotel_change > 0
    if not breakdown or state.ruleset.options.hotel_breakdown != "debtors_only":
        return None
    if not in_debt:
        return _refuse(state, "hotel_breakdown", "a hotel may only be replaced by houses already standing in its "
                       "group, unless the player is in debt", "hotel_sale")
    return _beyond_need_refusal(state, change)


def _beyond_need_refusal(state: GameState, change: Change) -> IllegalEntry | None:
    """JMA 補足ルール「土地の売却」: 手持ち現金で支払えない負債を負ったときに限り、支払う現金を調達するのに必要な範囲内
    において、銀行にある家を加えてホテルを4軒以下の家にすることができます。

    A debtor's sale that breaks hotels into houses from the bank is refused when the same sale with one building
    fewer sold on one of its groups would already raise the cash still owed."""
    debt = state.pending
    short = debt.amount - state.players[change.player].cash
    for group in {state.ruleset.squares[sq].group for sq in change.levels}:
        squares = state.ruleset.groups[group].squares
        sold_to = sum(change.levels.get(i, state.buildings[i]) for i in squares)
        if sold_to >= sum(state.buildings[i] for i in squares):
            continue
        fewer = dict(change.levels)
        fewer.update(even_targets(state, group, sold_to + 1))
        if any(fewer[i] > state.buildings[i] for i in squares):
            continue
        try:
            smaller = plan_change(state, change.player, fewer, selling=True)
        except IllegalEntry:
            continue
        if -smaller.price >= short:
            return _refuse(state, "breakdown_beyond_need",
                           "{player} owes {short} more than their cash; selling to {lots} raises {amount}, enough: a "
                           "hotel is broken into houses from the bank only as far as the debt needs", "hotel_sale",
                           player=Player(change.player), short=Money(short),
                           lots=Many(tuple(Lot(i, smaller.levels[i]) for i in squares)), amount=Money(-smaller.price))
    return None


def smallest_sale(state: GameState, player: int, group: str, in_debt: bool) -> Change | None:
    """The smallest legal sale of buildings on a group (one level where the rules allow it), or None."""
    squares = state.ruleset.groups[group].squares
    current = sum(state.buildings[sq] for sq in squares)
    for total in range(current - 1, -1, -1):
        targets = even_targets(state, group, total)
        if any(targets[sq] > state.buildings[sq] for sq in squares):
            continue
        try:
            change = plan_change(state, player, targets, selling=True)
        except IllegalEntry:
            continue
        if sale_refusal(state, change, in_debt) is None:
            return change
    return None


def group_capacity(state: GameState, player: int) -> tuple[int, int]:
    """Houses and hotels the player could still declare on buildable groups (ignoring cash)."""
    houses = hotels = 0
    top = state.hotel_level - 1
    for gid, group in state.ruleset.groups.items():
        if buildable_group_refusal(state, player, gid) is None:
            for i in group.squares:
                houses += max(0, top - min(state.buildings[i], top))
                hotels += 1 - hotels_at(state, state.buildings[i])
    return houses, hotels


def demand(state: GameState, declarations) -> tuple[int, int]:
    houses = hotels = 0
    for player, targets in declarations:
        change = plan_change(state, player, dict(targets), selling=False)
        houses += change.houses_needed
        hotels += change.hotels_needed
    return houses, hotels


def split_hotels(state: GameState, declarations) -> tuple[list[tuple[int, dict[int, int]]], tuple]:
    """JMA 補足ルール「家の建て方」: 家の建設宣言中にホテルの建設宣言があった場合、ホテルの建設を先に行います。

    The parts of the declarations that turn four houses into hotels, group by group (they need no house from
    the bank and give four back each: built first), and the declarations without them."""
    first: list[tuple[int, dict[int, int]]] = []
    rest = []
    for player, targets in declarations:
        by_group: dict[str, dict[int, int]] = {}
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


def houses_for_declarations(state: GameState, declarations) -> int:
    """The houses the bank has for the declarations once their hotels are built first: its stock plus the
    houses those hotels give back."""
    first, _ = split_hotels(state, declarations)
    return state.bank_houses + sum(state.buildings[sq] for _, part in first for sq in part)


def exceeds_stock(state: GameState, declarations) -> bool:
    """Whether the declared buildings exceed what the bank has for them (hotels built first)."""
    houses, hotels = demand(state, declarations)
    return houses > houses_for_declarations(state, declarations) or hotels > state.bank_hotels


def even_targets(state: GameState, group: str, total: int) -> dict[int, int]:
    """Levels for a group with ``total`` levels in all, as even as possible, extra levels on the first lots."""
    squares = state.ruleset.groups[group].squares
    base, extra = divmod(total, len(squares))
    order = sorted(squares, key=lambda i: -state.buildings[i])
    return {i: base + (1 if k < extra else 0) for k, i in enumerate(order)}


def even_layouts_below(state: GameState, squares: tuple[int, ...]):
    """Every layout of fewer buildings on a group that the even rule allows (levels at most one apart, none above
    today's), as the lots it changes: ``total`` levels in all are ``base`` on each lot and one more on ``extra``
    of them, so the layouts are the totals times the choices of those lots."""
    for total in range(sum(state.buildings[sq] for sq in squares) - 1, -1, -1):
        base, extra = divmod(total, len(squares))
        for raised in combinations(squares, extra):
            levels = {sq: base + (sq in raised) for sq in squares}
            if all(levels[sq] <= state.buildings[sq] for sq in squares):
                yield {sq: level for sq, level in levels.items() if level != state.buildings[sq]}


def build_timing_refusal(state: GameState, player: int) -> IllegalEntry | None:
    """JMA 補足ルール: building happens between turns, not during doubles or an unsettled payment."""
    p = state.pending
    if state.time_called:
        return _refuse(state, "time_called", "time has been called: nothing more is built", "after_time_called")
    if isinstance(p, BuildRound):
        if player in p.excluded:
            return _refuse(state, "excluded_builder", "{player} made an unpayable winning bid and is out of this round "
                           "of declarations", "building_shortage", player=Player(player))
        return None
    if not isinstance(p, AwaitRoll):
        return _turn_refusal(state, player, "build", "not_now", "build_timing")
    if state.ruleset.options.build_timing == "between_turns" and not state.between_turns:
        return _turn_refusal(state, player, "build", "not_between_turns", "build_timing")
    return None


def building_actions(state: GameState) -> list[Action]:
    """The building entries that may be recorded now, for legal_actions."""
    out: list[Action] = []
    p = state.pending
    if isinstance(p, BuildRound):
        out.append(Action("close_builds", None, {"declarations": p.declarations}))
        if exceeds_stock(state, p.declarations):
            out.extend(Action("withdraw_build", player, {"targets": targets}) for player, targets in p.declarations)
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
    for i in state.active:
        can_build = build_timing_refusal(state, i) is None
        can_sell = _timing_refusal(state, i, "sell_buildings", for_payment=True) is None
        for gid, group in state.ruleset.groups.items():
            if can_build and buildable_group_refusal(state, i, gid) is None and any(
                    state.buildings[sq] < state.hotel_level for sq in group.squares):
                out.append(Action("build", i, {"group": gid, "squares": group.squares,
                                               "house_cost": state.ruleset.squares[group.squares[0]].house_cost}))
            if can_sell and state.owner[group.squares[0]] == i and any(state.buildings[sq] for sq in group.squares):
                out.append(Action("sell_buildings", i, {"group": gid, "squares": group.squares}))
    return out


def _timing(step: _Step, entry: Entry, player: int) -> None:
    refusal = build_timing_refusal(step.state, player)
    if refusal:
        raise refusal


def _targets(step: _Step, entry: Entry) -> dict[int, int]:
    s = step.state
    out = {}
    for ref, level in entry.targets:
        square = step.square(ref, entry.type)
        out[square] = s.hotel_level if level == "hotel" else level
    return out


def _merge(declarations, player: int, targets: dict[int, int]):
    merged = dict(next((dict(t) for p, t in declarations if p == player), {}))
    merged.update(targets)
    rest = tuple(d for d in declarations if d[0] != player)
    return rest + ((player, tuple(sorted(merged.items()))),)


def _build_hotels_first(step: _Step, declarations) -> tuple:
    """Build the declared hotels that need no house from the bank; the declarations left to build."""
    first, rest = split_hotels(step.state, declarations)
    for player, part in first:
        change = plan_change(step.state, player, part, selling=False)
        if change.price <= step.state.players[player].cash and change.hotels_needed <= step.state.bank_hotels:
            apply_change(step, change, "building")
    return rest


def _build_all(step: _Step, declarations) -> None:
    for player, targets in _build_hotels_first(step, declarations):
        change = plan_change(step.state, player, dict(targets), selling=False)
        if change.price > step.state.players[player].cash:
            continue  # the declaration can no longer be paid for: it lapses
        apply_change(step, change, "building")


def apply_change(step: _Step, change: Change, reason: str) -> None:
    if change.price > 0:
        step.emit(ev.Paid(change.player, None, change.price, reason))
    elif change.price < 0:
        step.emit(ev.Paid(None, change.player, -change.price, reason))
    step.emit(ev.BuildingsChanged(tuple(sorted(change.levels.items())), change.house_change, change.hotel_change))


def _back_to(step: _Step, round_: BuildRound) -> None:
    step.emit(ev.AwaitingDecision(round_.back_to))


def _build(step: _Step, entry: Entry) -> None:
    s = step.state
    who = step.player(entry.player, entry.type)
    _timing(step, entry, who)
    targets = _targets(step, entry)
    change = plan_change(s, who, targets, selling=False)
    if change.price > s.players[who].cash:
        raise step.refuse("cannot_afford", "{player} has {cash}; these buildings cost {price}", "building",
                          player=Player(who), cash=Money(s.players[who].cash), price=Money(change.price))
    p = s.pending
    round_ = p if isinstance(p, BuildRound) else BuildRound((), p)
    declarations = _merge(round_.declarations, who, targets)
    houses_there = houses_for_declarations(s, declarations)  # hotels declared are built first
    if change.houses_needed > houses_there or change.hotels_needed > s.bank_hotels:
        raise step.refuse("not_in_bank", "the bank has {houses} and {hotels} for it; this needs {houses_needed} and "
                          "{hotels_needed}", "building_shortage", houses=Count("house", houses_there),
                          hotels=Count("hotel", s.bank_hotels), houses_needed=Count("house", change.houses_needed),
                          hotels_needed=Count("hotel", change.hotels_needed))
    houses, hotels = demand(s, declarations)
    others_h = others_t = 0
    declared = {d[0] for d in declarations}
    for i in s.active:
        if i not in declared:
            h, t = group_capacity(s, i)
            others_h, others_t = others_h + h, others_t + t
    if houses + others_h <= houses_there and hotels + others_t <= s.bank_hotels:
        # 補足ルール: no follower could exceed the bank's stock: the declarations stand at once
        _build_all(step, declarations)
        _back_to(step, round_)
    else:
        step.emit(ev.AwaitingDecision(replace(round_, declarations=declarations)))


def _withdraw_build(step: _Step, entry: Entry) -> None:
    s = step.state
    round_ = step.expect(entry, BuildRound, "building_shortage")
    who = step.player(entry.player, entry.type)
    if not exceeds_stock(s, round_.declarations):
        raise step.refuse("declaration_stands", "a declaration may be withdrawn or reduced only while the declared "
                          "buildings exceed the bank's stock", "building_shortage")
    old = dict(next((dict(t) for p, t in round_.declarations if p == who), {}))
    if not old:
        raise step.refuse("no_declaration", "{player} has declared nothing", "building_shortage", player=Player(who))
    new = {sq: lvl for sq, lvl in _targets(step, entry).items()}
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


def _close_builds(step: _Step, entry: Entry) -> None:
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


def _fits_stock(state: GameState, declaration, houses: int) -> bool:
    player, targets = declaration
    change = plan_change(state, player, dict(targets), selling=False)
    return change.houses_needed <= houses and change.hotels_needed <= state.bank_hotels


def placeable(state: GameState, player: int, kind: str) -> list[int]:
    """Lots where one more building of ``kind`` is legal for the player (even rule, group, level)."""
    out = []
    for gid, group in state.ruleset.groups.items():
        if buildable_group_refusal(state, player, gid) is not None:
            continue
        low = min(state.buildings[i] for i in group.squares)
        for i in group.squares:
            level = state.buildings[i]
            if level != low:
                continue
            if kind == "hotel" and level == state.hotel_level - 1 or kind == "house" and level < state.hotel_level - 1:
                out.append(i)
    return out


def _groups_to_build_on(state: GameState, player: int, kind: str, price: int) -> set[str]:
    """The colour groups where the winner of a shortage bid at ``price`` could put the building."""
    return {state.ruleset.squares[i].group for i in placeable(state, player, kind)
            if state.ruleset.squares[i].house_cost <= price}


def bid_means(state: GameState, player: int, kind: str, price: int) -> int:
    """What the winner of a shortage bid can raise and still build: every means (cash, mortgages, buildings sold
    at half) less the mortgage values of one group to build on, the cheapest to keep (a lot can hold a building
    only while no deed of its group is mortgaged: 同色のすべての土地の権利書が抵当に入っていない状態である必要があります)."""
    groups = _groups_to_build_on(state, player, kind, price)
    keep = min((sum(state.ruleset.squares[i].mortgage for i in state.ruleset.groups[g].squares)
                for g in groups), default=0)
    return raisable_cash(state, player) - keep


def bid_payment_mortgage_refusal(state: GameState, player: int, square: int) -> IllegalEntry | None:
    """While the winner of a shortage bid raises its cash: no mortgage of the last group they could build on."""
    p = state.pending
    if not isinstance(p, BidPayment) or p.kind is None or p.player != player:
        return None
    groups = _groups_to_build_on(state, player, p.kind, p.amount)
    if groups == {state.ruleset.squares[square].group}:
        return _refuse(state, "last_lot_group", "{square}: mortgaging it would leave {player} no lot to build the "
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


def bid_on_building(step: _Step, entry: Entry, auction: BuildingAuction) -> None:
    s = step.state
    bidders = [step.player(name, entry.type) for name in entry.bidders]
    refusal = _bid_refusal(s, auction, bidders, entry.amount)
    if refusal:
        raise refusal
    for b in bidders:
        if not placeable(s, b, auction.kind):
            raise step.refuse("nowhere_to_build", "{player} has no lot where a {kind} may be built",
                              "building_shortage", player=Player(b), kind=Kind(auction.kind))
        low = building_minimum_bid(s, auction, b)
        if entry.amount < low:
            raise step.refuse("below_building_price", "bid of {amount} by {player}: a bid for a {kind} starts at the "
                              "building price of a lot where they could build, {minimum} at the least",
                              "building_shortage", amount=Money(entry.amount), player=Player(b),
                              kind=Kind(auction.kind), minimum=Money(low))
    winner = bidders[0] if len(bidders) == 1 else tie_winner(s, bidders)
    step.emit(ev.AwaitingDecision(replace(auction, high_bid=entry.amount, high_bidder=winner, held=None)))


def hammer_building(step: _Step, entry: Entry, auction: BuildingAuction) -> None:
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


def _place_building(step: _Step, entry: Entry) -> None:
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


def _sell_buildings(step: _Step, entry: Entry) -> None:
    s = step.state
    who = step.player(entry.player, entry.type)
    timing = _timing_refusal(s, who, "sell_buildings", for_payment=True)
    if timing:
        raise timing
    change = plan_change(s, who, _targets(step, entry), selling=True)
    in_debt = isinstance(s.pending, Debt) and s.pending.debtor == who
    refusal = sale_refusal(s, change, in_debt)
    if refusal:
        raise refusal
    apply_change(step, change, "buildings_sold")


BUILDING_HANDLERS = {
    "build": _build, "withdraw_build": _withdraw_build, "close_builds": _close_builds,
    "place_building": _place_building, "sell_buildings": _sell_buildings,
}
