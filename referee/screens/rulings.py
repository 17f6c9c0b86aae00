"""The facts behind the rulings the table screen and the log explain: who won equal calls at an auction and
why, and which sales of buildings the rules allow now, at what price.  Every fact comes from the engine
(``tie_winner``, ``next_to_move``, ``plan_change``, ``sale_refusal``); nothing is worked out here a second
way.  The log and the panels (:mod:`.log`, :mod:`.panels`) put them in the device's language."""
from __future__ import annotations

import threading
from dataclasses import dataclass
from weakref import WeakKeyDictionary

from ..engine import (Auction, BuildingAuction, Change, Debt, Entry, even_layouts_below, Game, GameState, IllegalEntry,
                      next_to_move, plan_change, sale_refusal, tie_winner)


@dataclass(frozen=True, slots=True)
class TieCall:
    """Equal calls at once (a ``bid`` entry naming several players): who called, who won, and the player
    whose turn comes next, from whom the rules count (JMA 補足ルール「競売」)."""

    callers: tuple[str, ...]
    amount: int
    winner: str
    counted_from: str


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


# Entries never change once recorded, so what was judged on the state before entry i stays true for as long
# as the Game object lives (the service keeps a Game per game in its cache).
_ties: "WeakKeyDictionary[Game, dict[int, TieCall | None]]" = WeakKeyDictionary()
_ties_lock = threading.Lock()


def remember_tie(game: Game, index: int, state_before: GameState) -> None:
    """Record the judgement of entry ``index`` from the state the table had just before it (the view knows it
    when the entry is recorded), so the log need not fold the record again to explain it."""
    if index >= len(game.entries):  # not recorded into this Game (the service folded the record anew)
        return
    call = tie_call(state_before, game.entries[index])
    with _ties_lock:
        _ties.setdefault(game, {})[index] = call


def tie_calls(game: Game, indices) -> dict[int, TieCall]:
    """The equal calls among entries ``indices`` (0-based), each judged on the state before it."""
    wanted = [i for i in indices if 0 <= i < len(game.entries) and game.entries[i].type == "bid"
              and len(game.entries[i].players) > 1]
    with _ties_lock:
        known = dict(_ties.get(game, {}))
    missing = sorted(i for i in wanted if i not in known)
    if missing:  # one fold of the record up to the last entry still to judge
        fold = Game(game.ruleset, game.header)
        todo = set(missing)
        for i, entry in enumerate(game.entries[: missing[-1] + 1]):
            if i in todo:
                known[i] = tie_call(fold.state, entry)
            fold.record(entry)
        with _ties_lock:
            _ties.setdefault(game, {}).update({i: known[i] for i in missing})
    return {i: known[i] for i in wanted if known.get(i) is not None}


def standing_tie(game: Game) -> TieCall | None:
    """When the standing high bid of the auction in progress came from equal calls: those calls."""
    p = game.state.pending
    if not isinstance(p, (Auction, BuildingAuction)) or p.high_bidder is None:
        return None
    for index in reversed(game.effective):  # the latest bid is this auction's: it has a high bidder
        if game.entries[index].type == "bid":
            call = tie_calls(game, [index]).get(index)
            if call and call.amount == p.high_bid and call.winner == game.state.players[p.high_bidder].name:
                return call
            return None
    return None


def sale_offers(state: GameState, player: int, group: str) -> list[Change]:
    """Every sale of buildings on ``group`` the rules allow ``player`` now (the even rule, the bank's houses,
    a hotel broken into houses only by a debtor where the ruleset says so), each priced by the engine;
    the smallest sale first."""
    squares = state.ruleset.groups[group].squares
    in_debt = isinstance(state.pending, Debt) and state.pending.debtor == player
    offers = [change for change in (_legal_sale(state, player, targets, in_debt)
                                    for targets in even_layouts_below(state, squares)) if change is not None]
    return sorted(offers, key=lambda c: -c.price)


def _legal_sale(state: GameState, player: int, targets: dict[int, int], in_debt: bool) -> Change | None:
    """The sale of buildings to ``targets`` as the engine prices it, or None where the rules refuse it."""
    try:
        change = plan_change(state, player, targets, selling=True)
    except IllegalEntry:
        return None
    return None if sale_refusal(state, change, in_debt) else change
