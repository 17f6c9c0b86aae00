"""The referee's table screen as one value, computed from the game (and the panels asked to be drawn open): the
decision the table waits for in words, the legal actions by type (they drive the buttons), the ways to raise
cash with the amount on each button, the notes beside the decision, the cards, panels and log.  The view adds
what only the request knows (addresses, the form token, the clock) and lays the value out."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..engine import (Action, BidPayment, BuildRound, CardDrawn, Debt, Game, GameState, IllegalEntry, jail_exit_short,
                      legal_actions, Outcome, parse_entry, ranking, resolve, smallest_sale, TieCall,
                      tie_call)
from . import rulings
from .build_round import BuildRoundCard, build_round_card
from .debt import DebtCard, debt_card
from .holdings import bank_stock_words, holdings, Holdings
from .log import entry_words, event_words, log_lines, tie_words
from .notes import decision_notes, jail_card_offers, outcome_notes, roll_notes
from .panels import build_panels, mortgage_way_words, sale_panels, sale_way_words, SalePanel
from .refusals import detail, title
from .words import pending_words, Why

RECENT = 30  # log lines on the table screen; the whole log is on its own page
VOID_CHOICES = 5  # runs of latest entries offered one tap each; any other count is typed
QUICK_BIDS = (0, 1, 2, 5, 10)  # a bidder's buttons: the lowest bid, then this many steps above it
# The table screen's panels: the actions open at any time, the board, the void menu (and each player's deed list,
# deeds-<seat>).  Each is drawn as its summary alone until it is opened.
PANELS = ("mortgages", "build", "sell", "trade", "board", "void")


def panel_names(state: GameState) -> frozenset[str]:
    """The panels of a table screen: :data:`PANELS` and each player's deed list."""
    return frozenset(PANELS).union(f"deeds-{seat}" for seat in range(len(state.players)))


@dataclass(frozen=True, slots=True)
class TableScreen:
    """What the table screen shows of a game, at its latest entry or after entry ``upto``."""

    game: Game
    state: GameState
    upto: int | None
    pending: str  # what the table waits for, in words
    actions: dict[str, list[Action]]  # the legal actions by type: the buttons
    ranking: list | None  # the final ranking, once the game is over
    ways_to_pay: list[tuple[str, int, dict]]  # a debtor's ways to raise cash: (words, amount, the entry)
    raiser: int | None  # the player who must raise cash now
    in_debt: bool
    drawn: frozenset[str]  # the panels drawn open
    decision_notes: list[Why]
    jail_card_offers: list[tuple[int, str]]
    log: list[tuple[int, str, bool]]  # the latest lines of the log
    roll_notes: list[Why]
    standing_tie: Why | None  # the equal calls behind the auction's standing high bid
    sales: list[SalePanel]
    builds: list[SalePanel]
    building_round: bool
    opening_bids: list[tuple[str, list[int]]]  # after a decline, each bidder's first quick bids
    ends_game: dict[str, bool]  # entries whose confirmation says they end the game
    can_void: bool
    void_runs: list[tuple[int, int, str]]
    redo: list[str]  # the entries the latest void took back, in words
    holdings: list[Holdings]
    bank_stock: str
    debt_card: DebtCard | None
    build_card: BuildRoundCard | None
    names: list[str]  # the players' names as written in the record: what an entry's "player" must say

    @property
    def ruleset(self):
        return self.state.ruleset

    def context(self) -> dict[str, Any]:
        """The screen's parts by name, for a template."""
        out = {name: getattr(self, name) for name in self.__slots__}
        out["ruleset"] = self.state.ruleset
        return out


def table_screen(game: Game, upto: int | None = None, live: bool = True,
                 panels: frozenset[str] = frozenset()) -> TableScreen:
    """The table screen of ``game``: at its latest entry, or after entry ``upto`` (nothing to record there);
    ``live`` False for a record that takes no more entries (an altered one: no buttons); ``panels``, the panels
    asked to be drawn open (the others are their summary alone, their contents worked out only when opened)."""
    state = game.state if upto is None else game.state_after(upto)
    live = live and upto is None
    latest = upto is None
    by_type: dict[str, list[Action]] = {}
    for a in (legal_actions(state) if live else []):
        by_type.setdefault(a.type, []).append(a)
    in_debt = isinstance(state.pending, (Debt, BidPayment))
    building_round = isinstance(state.pending, BuildRound)
    # a debt opens the ways to raise cash, a building round the declarations
    drawn = frozenset((panels & panel_names(state)) | ({"sell", "trade"} if in_debt else set())
                      | ({"build"} if building_round else set()))
    return TableScreen(
        game=game, state=state, upto=upto, pending=pending_words(state), actions=by_type,
        ranking=ranking(state) if state.over else None,
        ways_to_pay=ways_to_pay(state, by_type), raiser=_raiser(state), in_debt=in_debt, drawn=drawn,
        decision_notes=decision_notes(state) if latest else [],
        jail_card_offers=jail_card_offers(state) if latest else [],
        log=log_lines(game, len(game.entries) - RECENT, len(game.entries)),
        roll_notes=roll_notes(state) if latest else [],
        standing_tie=_standing_tie(game) if latest else None,
        sales=sale_panels(state, by_type.get("sell_buildings", [])) if "sell" in drawn else [],
        builds=build_panels(state, by_type.get("build", [])) if "build" in drawn else [],
        building_round=building_round,
        opening_bids=_opening_bids(state, by_type) if latest else [],
        ends_game=_ends_game(state, by_type) if latest else {},
        can_void=live and bool(game.effective), void_runs=_void_runs(game) if live and "void" in drawn else [],
        redo=[entry_words(e, game.ruleset) for e in game.redoable()] if live else [],
        holdings=[holdings(state, i) for i in range(len(state.players))], bank_stock=bank_stock_words(state),
        debt_card=debt_card(state, by_type.get("trade", [])) if latest else None,
        build_card=build_round_card(state) if latest else None,
        names=[p.name for p in state.players])


def _void_runs(game: Game) -> list[tuple[int, int, str]]:
    """The runs of latest entries a void can take back, one button each: (how many, the first one's number,
    the first one in words) for the latest 1 to VOID_CHOICES effective entries (their words read in one pass
    over the log's tail)."""
    latest = game.effective[-VOID_CHOICES:]
    if not latest:
        return []
    words = {n: text for n, text, _ in log_lines(game, latest[0], len(game.entries))}
    return [(count, index + 1, words[index + 1]) for count, index in enumerate(reversed(latest), start=1)]


def _opening_bids(state: GameState, by_type: dict) -> list[tuple[str, list[int]]]:
    """On the buy-or-decline card: the bids the auction a decline opens would accept first, per bidder (the
    engine's own minimums on the table the decline leaves), so a decline and the opening bid are one tap."""
    if not by_type.get("decline"):
        return []
    who = state.players[by_type["decline"][0].player].name
    try:
        after = resolve(state, parse_entry({"type": "decline", "player": who})).state
    except IllegalEntry:
        return []
    return [(after.players[a.player].name, [a.detail["minimum"] + k * a.detail["step"] for k in QUICK_BIDS])
            for a in legal_actions(after) if a.type == "bid"]


def _ends_game(state: GameState, by_type: dict) -> dict[str, bool]:
    """For the entries that ask for a confirmation: whether recording them would end the game (the confirmation
    says so)."""
    ends = {}
    for a in by_type.get("bankrupt", [])[:1]:
        entry = parse_entry({"type": "bankrupt", "player": state.players[a.player].name})
        try:
            ends["bankrupt"] = resolve(state, entry).state.over
        except IllegalEntry:
            ends["bankrupt"] = False
    return ends


def _standing_tie(game: Game) -> Why | None:
    """When the auction's standing high bid came from equal calls: who won them and why."""
    call = rulings.standing_tie(game)
    return tie_words(game.ruleset, call, standing=True) if call else None


def _raiser(state: GameState) -> int | None:
    """The player who must raise cash now: a debtor, or the winner of a bid their cash does not cover."""
    p = state.pending
    if isinstance(p, Debt):
        return p.debtor
    if isinstance(p, BidPayment):
        return p.player
    return None


def ways_to_pay(state: GameState, by_type: dict) -> list[tuple[str, int, dict]]:
    """For a pending debt or winning bid: every way the player can raise cash on their own, with what each
    raises and the entry that records it (the card's buttons)."""
    who = _raiser(state)
    if who is None or jail_exit_short(state):  # the fine waits for a rescue covering the rent ahead too
        return []
    name = state.players[who].name
    squares = state.ruleset.squares
    ways = []
    for a in by_type.get("sell_buildings", []):
        if a.player == who:
            change = smallest_sale(state, a.player, a.detail["group"], in_debt=isinstance(state.pending, Debt))
            if change is not None:
                entry = {"type": "sell_buildings", "player": name,
                         "targets": {squares[sq].id: "hotel" if lvl == state.hotel_level else lvl
                                     for sq, lvl in change.levels.items()}}
                ways.append((sale_way_words(state, a.detail["group"], change), -change.price, entry))
    for a in by_type.get("mortgage", []):
        if a.player == who:
            entry = {"type": "mortgage", "player": name, "square": squares[a.detail["square"]].id}
            ways.append((mortgage_way_words(state, a.detail["square"]), a.detail["value"], entry))
    return ways


# --- what an entry brought about, for the message under the table screen ---------------------------------------

def event_lines(outcomes: list[Outcome]) -> list[str]:
    """What the entries brought about, in words, under the message naming them (a card drawn is left out: the
    message, the log's words for a card entry, names it already)."""
    return [w for o in outcomes for w in (event_words(o.state, e) for e in o.events
                                           if not isinstance(e, CardDrawn)) if w]


def outcome_lines(outcome: Outcome) -> list[str]:
    """An entry's events in words, then the rulings its events carry out that they do not explain."""
    return event_lines([outcome]) + [str(w) for w in outcome_notes(outcome.state, outcome.events)]


def refusal(exc, ruleset) -> dict[str, Any]:
    """The message of a refused entry: what kind of wrong, what was wrong in the device's language, and the
    clause (with its text in every language ``ruleset`` gives: the screen shows the original and the device's
    language)."""
    clause = ruleset.clauses.get(exc.rule) if ruleset is not None else None
    return {"kind": "refused", "title": title(exc.code), "message": detail(exc), "clause": exc.clause,
            "code": exc.code, "rule": exc.rule, "texts": dict(clause.text) if clause else {}}


def equal_calls(state: GameState, data: dict) -> TieCall | None:
    """The equal calls at an auction the entry ``data`` records, judged on ``state`` (before it); None for any
    other entry."""
    return tie_call(state, parse_entry(data))


def entry_said(data: dict, ruleset, tie: TieCall | None = None) -> str:
    """An entry given as data (one the rules accepted), in words."""
    return entry_words(parse_entry(data), ruleset, tie)


@dataclass(frozen=True, slots=True)
class ResultScreen:
    """A game's ranking (the final one, or the standing so far) with every player's assets."""

    state: GameState
    ranking: list


def result_screen(state: GameState) -> ResultScreen:
    return ResultScreen(state, ranking(state))
