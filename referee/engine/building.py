"""Houses and hotels on a colour group: the levels a change leads to, what it costs, selling back to the bank.

Levels: a lot holds 0 to ``houses_per_hotel`` houses, or a hotel
(level ``houses_per_hotel + 1``).  A declaration or a sale names the levels
the player wants on each lot of a colour group (``targets``); the even rule,
the bank's supply and the price are checked on that whole change at once.
Declaring buildings, and the house shortage, are :mod:`.declarations`.
"""
from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import dataclass
from itertools import combinations

from . import events as ev
from .entries import Entry
from .errors import IllegalEntry, illegal
from .facts import jail_exit_rent_ahead
from .phrases import Count, Group, Kind, Level, Lot, Many, Money, Player, Square
from .state import BidPayment, Debt, GameState
from .step import Step


@dataclass(slots=True)
class Change:
    """A change of building levels on one player's lots, with what it costs and takes from the bank.  A value that
    nothing changes once made; not frozen, as a frozen one takes three times as long to make and every build or sale
    the rules check (and every sale a player in debt is offered) makes one or more."""

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


def group_buildable(state: GameState, player: int, group: str) -> bool:
    """元ルール「家の建て方」: buildings go on a colour group of streets the player owns whole, none of it mortgaged;
    :func:`buildable_group_refusal` says why not."""
    return (state.group_owner[group] == player and not state.group_mortgaged[group]
            and state.ruleset.squares[state.ruleset.groups[group].squares[0]].kind == "street")


def buildable_groups(state: GameState) -> Iterator[tuple[str, int, tuple[int, ...], int]]:
    """The colour groups buildings may go on now (:func:`group_buildable` for their owner), in board order: each
    group's id, its owner, its lots and their house price."""
    owners, mortgaged = state.group_owner, state.group_mortgaged
    for gid, lots, house_cost in state.ruleset.street_lots:
        owner = owners[gid]
        if owner is not None and not mortgaged[gid]:
            yield gid, owner, lots, house_cost


def buildable_group_refusal(state: GameState, player: int, group: str) -> IllegalEntry | None:
    """Why ``player`` may not build on ``group`` by :func:`group_buildable`, or None."""
    if group_buildable(state, player, group):
        return None
    squares = state.ruleset.groups[group].squares
    first = state.ruleset.squares[squares[0]]
    if first.kind != "street":
        return illegal(state, "not_a_street", "{group}: buildings go on streets only", "building", group=Group(group))
    if any(state.owner[i] != player for i in squares):
        return illegal(state, "not_whole_group", "{player} does not own every lot of the {group} group", "building",
                       player=Player(player), group=Group(group))
    return illegal(state, "mortgaged_in_group", "a lot of the {group} group is mortgaged: lift the mortgage before "
                   "building", "building", group=Group(group))


def plan_change(state: GameState, player: int, targets: dict[int, int], selling: bool) -> Change:
    """Check a build or a sale of buildings on whole groups; :class:`IllegalEntry` if the rules refuse it."""
    levels: dict[int, int] = {}
    groups = []
    hotel, buildings, all_squares, owners = state.hotel_level, state.buildings, state.ruleset.squares, state.owner
    for square, level in targets.items():
        sq = all_squares[square]
        if sq.kind != "street":
            raise illegal(state, "not_a_street", "{square} cannot hold buildings", "building", square=Square(square))
        if owners[square] != player:
            raise illegal(state, "not_owner", "{player} does not own {square}", "building", player=Player(player),
                          square=Square(square))
        if not 0 <= level <= hotel:
            raise illegal(state, "bad_level", "{level} buildings on {square}: a lot holds at most {houses} houses or "
                          "one hotel", "building", level=level, square=Square(square), houses=hotel - 1)
        current = buildings[square]
        if selling and level > current:
            raise illegal(state, "wrong_direction", "{square}: {now} now; a sale cannot take it to {level}",
                          "selling_buildings", square=Square(square), now=Level(current), level=Level(level))
        if not selling and level < current:
            raise illegal(state, "wrong_direction", "{square}: {now} now; a build cannot take it to {level}",
                          "building", square=Square(square), now=Level(current), level=Level(level))
        levels[square] = level
        group = sq.group
        assert group is not None  # a street's: every deed is of a group
        if group not in groups:
            groups.append(group)
    if not selling:
        for group in groups:
            refusal = buildable_group_refusal(state, player, group)
            if refusal:
                raise refusal
    price = 0
    houses_needed = hotels_needed = house_change = hotel_change = 0
    all_groups = state.ruleset.groups
    for group in groups:
        squares = all_groups[group].squares
        after = [levels.get(i, buildings[i]) for i in squares]
        if max(after) - min(after) > 1:
            raise illegal(state, "uneven", "{lots}: the lots of a group must differ by at most one building",
                          "building", lots=Many(tuple(Lot(i, a) for i, a in zip(squares, after))))
        for i, new in zip(squares, after):
            old = buildings[i]
            if new == old:
                continue
            price += (new - old) * all_squares[i].house_cost
            hotels = (new == hotel) - (old == hotel)  # hotels_at(new) - hotels_at(old), as every count here
            house_change -= (0 if new == hotel else new) - (0 if old == hotel else old)
            hotel_change -= hotels
    if not selling:
        houses_needed, hotels_needed = bank_needs(state, levels)
    else:
        # the bank pays half the building price; a hotel's is five house prices (option hotel_sale_value)
        price = -((-price) // 2)
    return Change(player, levels, price, houses_needed, hotels_needed, house_change, hotel_change)


def bank_needs(state: GameState, levels: dict[int, int]) -> tuple[int, int]:
    """The houses and hotels the bank must have to build lots up to ``levels``: the houses that bring each lot up
    to the hotel's houses (a hotel stands on a lot with its houses: 元ルール「ホテル」), and the hotels."""
    hotel = state.hotel_level
    top = hotel - 1
    houses = hotels = 0
    for sq, new in levels.items():
        old = state.buildings[sq]
        if new > old:
            houses += min(new, top) - min(old, top)
            hotels += (new == hotel) - (old == hotel)
    return houses, hotels


def _won_building_lot_refusal(state: GameState, change: Change) -> IllegalEntry | None:
    """A building won at a shortage auction is paid for by selling buildings, if need be, but not the ones it needs:
    a sale that would leave the winner no lot to place it on is refused (found by the simulator: a winner sold the
    houses under the only lots a hotel could go on, and had nowhere to put it)."""
    p = state.pending
    if type(p) is not BidPayment or p.square is not None or p.player != change.player:
        return None
    kind = p.kind
    assert kind is not None  # the payment for a building won (no deed): it carries the building's kind
    after = state.copy()
    for sq, level in change.levels.items():
        after.set_level(sq, level)
    if placeable(after, p.player, kind):
        return None
    return illegal(state, "needed_for_won_building", "{player} won a {kind} and must place it: this sale leaves no lot "
                   "where it could go", "building_shortage", player=Player(p.player), kind=Kind(kind))


def sale_refusal(state: GameState, change: Change, in_debt: bool) -> IllegalEntry | None:
    """JMA 補足ルール: a hotel is not broken into houses from the bank, except by a player in debt."""
    if -change.house_change > state.bank_houses:
        return illegal(state, "house_shortage", "the bank has {houses}; this sale needs {needed}",
                       "selling_buildings", houses=Count("house", state.bank_houses),
                       needed=Count("house", -change.house_change))
    lot_kept = _won_building_lot_refusal(state, change)
    if lot_kept:
        return lot_kept
    breakdown = change.house_change < 0 and change.hotel_change > 0
    if not breakdown or state.ruleset.options.hotel_breakdown != "debtors_only":
        return None
    if not in_debt:
        return illegal(state, "hotel_breakdown", "a hotel may only be replaced by houses already standing in its "
                       "group, unless the player is in debt", "hotel_sale")
    return _beyond_need_refusal(state, change)


def sale_allowed(state: GameState, change: Change, in_debt: bool) -> bool:
    """Whether :func:`sale_refusal` accepts the sale; a hotel broken into houses from the bank by a player not in
    debt (which :func:`smallest_sale` meets at every hotel) is answered without making its refusal."""
    if (not in_debt and change.house_change < 0 and change.hotel_change > 0
            and state.ruleset.options.hotel_breakdown == "debtors_only"):
        return False
    return sale_refusal(state, change, in_debt) is None


def _beyond_need_refusal(state: GameState, change: Change) -> IllegalEntry | None:
    """JMA 補足ルール「土地の売却」: 手持ち現金で支払えない負債を負ったときに限り、支払う現金を調達するのに必要な範囲内
    において、銀行にある家を加えてホテルを4軒以下の家にすることができます。

    A debtor's sale that breaks hotels into houses from the bank is refused when the same sale with one building
    fewer sold on one of its groups would already raise the cash still owed.  While the fine of the third failed
    jail roll waits with the rent ahead as one provisional bankruptcy (JMA 補足ルール「破産」), both are owed."""
    debt = state.pending
    assert isinstance(debt, Debt)  # asked only of a sale by a player in debt: the debt pending is theirs
    short = debt.amount + jail_exit_rent_ahead(state) - state.players[change.player].cash
    for group in {state.ruleset.squares[sq].group for sq in change.levels}:
        assert group is not None  # a change's lots are streets, each of a group
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
            return illegal(state, "breakdown_beyond_need",
                           "{player} owes {short} more than their cash; selling to {lots} raises {amount}, enough: a "
                           "hotel is broken into houses from the bank only as far as the debt needs", "hotel_sale",
                           player=Player(change.player), short=Money(short),
                           lots=Many(tuple(Lot(i, smaller.levels[i]) for i in squares)), amount=Money(-smaller.price))
    return None


def smallest_sale(state: GameState, player: int, group: str, in_debt: bool) -> Change | None:
    """The smallest legal sale of buildings on a group (one level where the rules allow it), or None."""
    squares = state.ruleset.groups[group].squares
    buildings = state.buildings
    current = sum(buildings[sq] for sq in squares)
    # a hotel broken into houses from the bank by a player not in debt (sale_allowed refuses it) is passed over
    # before the change is planned: a player selling off a row of hotels meets it at every level down to none
    no_breakdown = not in_debt and state.ruleset.options.hotel_breakdown == "debtors_only"
    for total in range(current - 1, -1, -1):
        targets = even_targets(state, group, total)
        if any(targets[sq] > buildings[sq] for sq in squares):
            continue
        if no_breakdown:
            houses_taken = sum(houses_at(state, targets[sq]) - houses_at(state, buildings[sq]) for sq in squares)
            hotels_back = sum(hotels_at(state, buildings[sq]) - hotels_at(state, targets[sq]) for sq in squares)
            if houses_taken > 0 and hotels_back > 0:
                continue
        try:
            change = plan_change(state, player, targets, selling=True)
        except IllegalEntry:
            continue
        if sale_allowed(state, change, in_debt):
            return change
    return None


def even_targets(state: GameState, group: str, total: int) -> dict[int, int]:
    """Levels for a group with ``total`` levels in all, as even as possible, extra levels on the first lots."""
    squares = state.ruleset.groups[group].squares
    base, extra = divmod(total, len(squares))
    order = sorted(squares, key=state.buildings.__getitem__, reverse=True)  # the most built first (a stable sort)
    return {i: base + (1 if k < extra else 0) for k, i in enumerate(order)}


def even_layouts_below(state: GameState, squares: tuple[int, ...]) -> Iterator[dict[int, int]]:
    """Every layout of fewer buildings on a group that the even rule allows (levels at most one apart, none above
    today's), as the lots it changes: ``total`` levels in all are ``base`` on each lot and one more on ``extra``
    of them, so the layouts are the totals times the choices of those lots."""
    for total in range(sum(state.buildings[sq] for sq in squares) - 1, -1, -1):
        base, extra = divmod(total, len(squares))
        for raised in combinations(squares, extra):
            levels = {sq: base + (sq in raised) for sq in squares}
            if all(levels[sq] <= state.buildings[sq] for sq in squares):
                yield {sq: level for sq, level in levels.items() if level != state.buildings[sq]}


def placeable(state: GameState, player: int, kind: str) -> list[int]:
    """Lots where one more building of ``kind`` is legal for the player (even rule, group, level)."""
    out = []
    for gid, group in state.ruleset.groups.items():
        if not group_buildable(state, player, gid):
            continue
        low = min(state.buildings[i] for i in group.squares)
        for i in group.squares:
            level = state.buildings[i]
            if level != low:
                continue
            if kind == "hotel" and level == state.hotel_level - 1 or kind == "house" and level < state.hotel_level - 1:
                out.append(i)
    return out


def others_capacity(state: GameState, declared: Collection[int]) -> tuple[int, int]:
    """Houses and hotels the players other than ``declared`` could still declare on buildable groups (ignoring
    cash), all asked in one pass over the groups."""
    houses = hotels = 0
    hotel = state.hotel_level
    buildings = state.buildings
    for _, owner, lots, _ in buildable_groups(state):
        if owner not in declared:
            for i in lots:
                level = buildings[i]
                if level < hotel:
                    houses += hotel - 1 - level
                    hotels += 1
    return houses, hotels


def apply_change(step: Step, change: Change, reason: str) -> None:
    if reason == "building":
        count_built(step, change.player, change.levels)
    if change.price > 0:
        step.emit(ev.Paid(change.player, None, change.price, reason))
    elif change.price < 0:
        step.bank_pays(change.player, -change.price, reason)
    step.emit(ev.BuildingsChanged(tuple(sorted(change.levels.items())), change.house_change, change.hotel_change))


def entry_targets(step: Step, entry: Entry) -> dict[int, int]:
    s = step.state
    out = {}
    for ref, level in entry.targets:
        square = step.square(ref, entry.type)
        out[square] = s.hotel_level if level == "hotel" else level
    return out





def count_built(step: Step, player: int, levels: dict[int, int]) -> None:
    """Count the building levels ``player`` builds (``levels``: each lot's level after), where the ruleset limits
    them a turn (option ``houses_per_turn``: 003, "maximum 3 houses for 1 move")."""
    s = step.state
    if s.ruleset.options.houses_per_turn:
        added = sum(level - s.buildings[sq] for sq, level in levels.items() if level > s.buildings[sq])
        if added:
            step.emit(ev.BuiltThisTurn(player, added))


def built_this_turn(state: GameState, player: int) -> int:
    """The building levels ``player`` has built in this turn (counted only where the ruleset limits them)."""
    return state.built_this_turn[player] if state.built_this_turn else 0
