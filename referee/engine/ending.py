"""The end of a game: time called, the last roll, assets, the final ranking and its roll-off."""
from __future__ import annotations

from dataclasses import dataclass

from . import events as ev
from .entries import Entry
from .phrases import Waiting, Player
from .state import GameOver, GameState, RollOff
from .step import Step

# a player's key in a roll-off: (1 and the assets, or 0 and the turn the player went bankrupt), the rolls so far
TieKey = tuple[int, int, tuple[int, ...]]


@dataclass(frozen=True, slots=True)
class Assets:
    """A player's assets as the ruleset counts them for the ranking (元ルール「時間ゲーム」)."""

    cash: int
    deeds: int  # unmortgaged deeds, at the ruleset's share of the printed price
    mortgaged_deeds: int  # mortgaged deeds, at the ruleset's share (JMA: half)
    houses: int  # count
    hotels: int  # count
    buildings: int  # value of houses and hotels
    total: int

    def as_dict(self) -> dict[str, int]:
        return {"cash": self.cash, "deeds": self.deeds, "mortgaged_deeds": self.mortgaged_deeds,
                "houses": self.houses, "hotels": self.hotels, "buildings": self.buildings, "total": self.total}


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int
    player: int
    name: str
    assets: Assets
    bankrupt_order: int  # 0 if not bankrupt
    rolloff: tuple[int, ...]
    decided: bool = True  # False: a roll-off still due decides this place (rank: the first of the places tied)


def assets(state: GameState, player: int) -> Assets:
    """Cash, deeds at their printed price (mortgaged ones at half), buildings at what they cost.

    A hotel counts as the houses it replaced plus one: what was paid for it.
    """
    opts = state.ruleset.options
    p = state.players[player]
    if p.bankrupt:
        return Assets(0, 0, 0, 0, 0, 0, 0)
    deeds = mortgaged = houses = hotels = buildings = 0
    for sq in state.deeds_of(player):
        square = state.ruleset.squares[sq]
        if state.mortgaged[sq]:
            mortgaged += square.price * opts.asset_mortgaged_deed_percent // 100
        else:
            deeds += square.price * opts.asset_deed_percent // 100
        houses += state.houses_on(sq)
        hotels += state.hotels_on(sq)
        buildings += state.buildings[sq] * square.house_cost * opts.asset_building_percent // 100
    return Assets(p.cash, deeds, mortgaged, houses, hotels, buildings, p.cash + deeds + mortgaged + buildings)


def _order(state: GameState, rolls: tuple[tuple[int, ...], ...]) -> tuple[list[int], list[int]]:
    """The ranking, best first, and the players still tied in it.

    JMA 補足ルール「勝負の決め方」: survivors by assets; bankrupt players below them, the one who survived
    longer higher.  Survival is counted in turns: players bankrupt in the same turn survived equally long.
    Players still equal are ranked by their roll-off totals.
    """
    keys = {}
    for i, p in enumerate(state.players):
        if p.bankrupt:
            keys[i] = (0, p.bankrupt_at_turn or 0, rolls[i])
        else:
            keys[i] = (1, assets(state, i).total, rolls[i])
    order = sorted(keys, key=lambda i: keys[i], reverse=True)
    values = list(keys.values())
    tied = [i for i in order if values.count(keys[i]) > 1]
    return order, tied


def _undecided(state: GameState) -> dict[int, TieKey]:
    """During a roll-off: each player whose place it still decides, with the key of the tie (the rank before the
    roll-off and the rolls so far); {} at any other time.  A tie is open while any of its players is still to roll
    in the round (those who have rolled are not yet placed), and while two of its players rolled the same."""
    p = state.pending
    if not isinstance(p, RollOff):
        return {}
    done = min(len(p.rolls[i]) for i in p.waiting)  # the rounds each player still to roll has rolled

    def key(i: int, rounds: int | None = None) -> TieKey:
        pl = state.players[i]
        base = (0, pl.bankrupt_at_turn or 0) if pl.bankrupt else (1, assets(state, i).total)
        return base + (p.rolls[i][:rounds],)
    full = [key(i) for i in range(len(state.players))]
    out = {i: k for i, k in enumerate(full) if full.count(k) > 1}  # rolled the same: rolls again
    rolling = {key(i, done) for i in p.waiting}
    out.update({i: k for i in range(len(state.players)) if (k := key(i, done)) in rolling})
    return out


def ranking(state: GameState) -> list[Standing]:
    """The final ranking of an ended game (or the standings so far).  During a roll-off every place it is not for is
    decided at once (JMA 補足ルール「勝負の決め方」: 上記で同位となる場合…サイコロ2個を振って目の大きい人を上位とします:
    the roll-off orders only the players tied); the players it is for share the first of their places, undecided."""
    p = state.pending
    rolls = p.rolls if isinstance(p, (RollOff, GameOver)) and p.rolls else tuple(() for _ in state.players)
    order, _ = _order(state, rolls)
    undecided = _undecided(state)
    first: dict[TieKey, int] = {}  # the first place of each tie still rolled off
    out = []
    for rank, i in enumerate(order, start=1):
        tie = undecided.get(i)
        shown = rank if tie is None else first.setdefault(tie, rank)
        out.append(Standing(shown, i, state.players[i].name, assets(state, i), state.players[i].bankrupt_order,
                            rolls[i], tie is None))
    return out


def ended(state: GameState) -> bool:
    """Whether play is over: the game has ended, its ranking final or a roll-off for some places still due."""
    return isinstance(state.pending, (RollOff, GameOver))


def places(state: GameState) -> dict[int, int]:
    """The places decided once play is over, by player: every place of an ended game, and during a roll-off every
    place but those it is for; {} while the game goes on."""
    if not ended(state):
        return {}
    return {st.player: st.rank for st in ranking(state) if st.decided}


def winner(state: GameState) -> int | None:
    """The winner as soon as play is over, even while a roll-off for a lower place is due; None while the game goes
    on or while a roll-off is for first place."""
    p = state.pending
    if isinstance(p, GameOver):
        return p.winner
    return next((i for i, rank in places(state).items() if rank == 1), None)


def end_game(step: Step, reason: str) -> None:
    s = step.state
    rolls = tuple(() for _ in s.players)
    order, tied = _order(s, rolls)
    if tied:
        step.emit(ev.AwaitingDecision(RollOff(tuple(tied), rolls, reason)))
    else:
        step.emit(ev.AwaitingDecision(GameOver(order[0], reason, tuple(order), rolls)))


def time_is_up(state: GameState, next_player: int, again: bool) -> bool:
    """After time is called: has the game's last roll been played out?"""
    rule = state.ruleset.options.after_time_called
    if rule == "one_more_roll":
        return state.final_roll
    if rule == "at_once":
        return True
    return not again and next_player <= state.current  # play would go back to the first player


def _rolloff(step: Step, entry: Entry) -> None:
    s = step.state
    p = step.expect(entry, RollOff, "ranking")
    try:
        who = s.player_index(entry.player)  # bankrupt players roll off too
    except KeyError:
        raise step.refuse("unknown_player", "no player named {name} at this table", "ranking",
                          name=repr(entry.player)) from None
    if who not in p.waiting:
        raise step.refuse("not_waiting", "{player} is not in the roll-off: {pending}", "ranking", player=Player(who),
                          pending=Waiting())
    dice = entry.dice
    assert dice is not None  # a field every roll-off has (ENTRY_FIELDS)
    rolls = list(p.rolls)
    rolls[who] = rolls[who] + (sum(dice),)
    waiting = tuple(i for i in p.waiting if i != who)
    if waiting:
        step.emit(ev.AwaitingDecision(RollOff(waiting, tuple(rolls), p.reason)))
        return
    order, tied = _order(s, tuple(rolls))
    if tied:
        step.emit(ev.AwaitingDecision(RollOff(tuple(tied), tuple(rolls), p.reason)))
    else:
        step.emit(ev.AwaitingDecision(GameOver(order[0], p.reason, tuple(order), tuple(rolls))))


ENDING_HANDLERS = {"rolloff": _rolloff}
