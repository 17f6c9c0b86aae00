"""The referee's table screen as one value, computed from the game (and the panels asked to be drawn open): the
decision the table waits for in words, the legal actions by type (they drive the buttons), the ways to raise
cash with the amount on each button, the notes beside the decision, the cards, panels and log.  The view adds
what only the request knows (addresses, the form token, the clock) and lays the value out."""
from __future__ import annotations

from dataclasses import asdict, dataclass, is_dataclass
from typing import Any, Callable, Mapping

from ..engine import (Action, BuildRound, CardDrawn, Clock, ended, Game, GameState, legal_actions, Outcome,
                      parse_entry, ranking, TieCall, tie_call)
from ..language import gettext as _, Language, speaking
from .decisions import decision_screen, DecisionScreen
from .decisions.roll import roll_notes
from .decisions.seating import seats_note
from .holdings import bank_stock_words, holdings, Holdings, player_status, pot
from .log import entry_words, event_words, log_lines
from .notes import outcome_notes
from .kind import debt_panels, kind_panels, Place, places, raising_cash
from .panels import build_panels, SalePanel
from .refusals import detail, title
from .sources import clause_words
from .words import Why

RECENT = 30  # log lines on the table screen; the whole log is on its own page
VOID_CHOICES = 5  # runs of latest entries offered one tap each; any other count is typed
# The table screen's panels: the building declarations, the board, the void menu (and each kind's panel,
# kind.kind_panels: mortgages, sales, trades, fines...; and each player's deed list, deeds-<seat>).  Each is drawn as
# its summary alone until it is opened.
PANELS = ("build", "board", "void")


def panel_names(state: GameState) -> frozenset[str]:
    """The panels of a table screen: :data:`PANELS`, each kind's and each player's deed list."""
    return frozenset(PANELS + kind_panels()).union(f"deeds-{seat}" for seat in range(len(state.players)))


@dataclass(frozen=True, slots=True)
class TableScreen:
    """What the table screen shows of a game, at its latest entry or after entry ``upto``."""

    game: Game
    state: GameState
    upto: int | None
    pending: str  # what the table waits for, in words
    decision: DecisionScreen  # the decision the table waits for: its notes, its card, the template laying it out
    actions: dict[str, list[Action]]  # the legal actions by type: the buttons
    ranking: list | None  # the final ranking, once the game is over
    in_debt: bool  # a debt or a winning bid waits for its cash: the kinds' panels raising it are open
    drawn: frozenset[str]  # the panels drawn open
    log: list[tuple[int, str, bool]]  # the latest lines of the log
    roll_notes: list[Why]  # what makes the roll awaited special (the spectators' display shows them too)
    builds: list[SalePanel]
    places: list[Place]  # each kind's buttons the rules offer now (a panel's worked out while it is open)
    can_void: bool
    void_runs: list[tuple[int, int, str]]
    redo: list[str]  # the entries the latest void took back, in words
    holdings: list[Holdings]
    statuses: list[str]  # beside each player's name: bankrupt, in jail (and for how long), or nothing
    pot: int | None  # the Free Parking pot (None: the ruleset keeps none)
    bank_stock: str
    names: list[str]  # the players' names as written in the record: what an entry's "player" must say

    @property
    def pot_squares(self) -> tuple[int, ...]:
        """Where the Free Parking pot lies on the board (none: the ruleset keeps no pot)."""
        return self.state.ruleset.squares_of_kind.get("free_parking", ()) if self.pot is not None else ()

    @property
    def ruleset(self):
        return self.state.ruleset

    def context(self) -> dict[str, Any]:
        """The screen's parts by name, for a template."""
        out = {name: getattr(self, name) for name in self.__slots__}
        out["ruleset"], out["pot_squares"] = self.state.ruleset, self.pot_squares
        return out


def table_screen(game: Game, upto: int | None = None, live: bool = True,
                 panels: frozenset[str] = frozenset(), *, language: Language) -> TableScreen:
    """The table screen of ``game`` in ``language``: at its latest entry, or after entry ``upto`` (nothing to record
    there); ``live`` False for a record that takes no more entries (an altered one: no buttons); ``panels``, the
    panels asked to be drawn open (the others are their summary alone, their contents worked out only when
    opened)."""
    with speaking(language):
        return _table_screen(game, upto, live, panels)


def _table_screen(game: Game, upto: int | None, live: bool, panels: frozenset[str]) -> TableScreen:
    state = game.state if upto is None else game.state_after(upto)
    live = live and upto is None
    latest = upto is None
    by_type: dict[str, list[Action]] = {}
    for a in (legal_actions(state) if live else []):
        by_type.setdefault(a.type, []).append(a)
    in_debt = raising_cash(state)
    building_round = isinstance(state.pending, BuildRound)
    # a debt opens the ways to raise cash, a building round the declarations
    drawn = frozenset((panels & panel_names(state)) | (debt_panels() if in_debt else frozenset())
                      | ({"build"} if building_round else set()))
    decision = decision_screen(game, state, by_type, latest)
    return TableScreen(
        game=game, state=state, upto=upto, pending=decision.words, decision=decision, actions=by_type,
        ranking=ranking(state) if ended(state) else None, in_debt=in_debt, drawn=drawn,  # (a roll-off due: those decided)
        log=log_lines(game, len(game.entries) - RECENT, len(game.entries)),
        roll_notes=seats_note(game, state) + roll_notes(state) if latest else [],
        builds=build_panels(state, by_type.get("build", [])) if "build" in drawn else [],
        places=places(state, by_type, drawn),
        can_void=live and bool(game.effective), void_runs=_void_runs(game) if live and "void" in drawn else [],
        redo=[entry_words(e, game.ruleset) for e in game.redoable()] if live else [],
        holdings=[holdings(state, i) for i in range(len(state.players))],
        statuses=[player_status(state, i) for i in range(len(state.players))], pot=pot(state),
        bank_stock=bank_stock_words(state),
        names=[p.name for p in state.players])


def live_view(screen: TableScreen, *, row: Any, seq: int, clock: Clock, version: str, altered: Any,
              sign_offs: Any, judge: Mapping[str, Any], csrf: str, entry_key: str,
              url_for: Callable[..., str]) -> dict[str, Any]:
    """The table screen's live region as its template lays it out: the screen's parts, with what its drawer knows
    (the server from its database and the request, a tablet from what it keeps): the game's ``row`` (its ``id``
    and ``time_limit_minutes``), the number of entries, the clock, the ``version`` a live screen compares, the
    alteration found (None), the players' sign-offs (None but at the game's end), the judge's line (``rulings``,
    ``seated``, ``called``), the form token, this drawing's key (a form of it sent twice records once) and the
    addresses (``url_for``: the server's, or the tablet's made from the same rules)."""
    game_id = row.id
    return {
        **screen.context(), "row": row, "seq": seq, "clock": clock, "version": version, "altered": altered,
        "sign_offs": sign_offs, "judge": judge,
        # every entry form on the screen posts here with the same token: worked out once, not per form
        "record_url": url_for("table.record", game_id=game_id), "csrf": csrf, "entry_key": entry_key,
        "table_url": url_for("table.table", game_id=game_id),
        "entry_url": entry_address(url_for, game_id),  # the log's lines link to the table at their entry: this and n
        # a closed panel's address is this and its name (one url_for for all of them), its link's word "Show"
        "panel_url": url_for("table.panel", game_id=game_id, name="x")[:-1], "show": _("Show"),
        # what a tablet that draws this region itself while the server cannot be reached needs beyond the record
        "kept": {"game": game_id, "limit_minutes": row.time_limit_minutes, "elapsed": clock.elapsed_seconds,
                 "running": clock.running, "judge": {**judge, "called": _plain(judge.get("called"))}, "csrf": csrf},
    }


def _plain(value: Any) -> Any:
    """A value as JSON values: a dataclass's fields as a mapping (the judge's call), others as they are."""
    return asdict(value) if is_dataclass(value) and not isinstance(value, type) else value


def entry_address(url_for: Callable[..., str], game_id: int) -> str:
    """The address of the table at an entry, without the entry's number (a log line adds it: one url_for for the
    whole log)."""
    return url_for("table.entry", game_id=game_id, n="0")[:-1]


def _void_runs(game: Game) -> list[tuple[int, int, str]]:
    """The runs of latest entries a void can take back, one button each: (how many, the first one's number,
    the first one in words) for the latest 1 to VOID_CHOICES effective entries (their words read in one pass
    over the log's tail)."""
    latest = game.effective[-VOID_CHOICES:]
    if not latest:
        return []
    words = {n: text for n, text, _ in log_lines(game, latest[0], len(game.entries))}
    return [(count, index + 1, words[index + 1]) for count, index in enumerate(reversed(latest), start=1)]


# --- what an entry brought about, for the message under the table screen ---------------------------------------

def event_lines(outcomes: list[Outcome]) -> list[str]:
    """What the entries brought about, in words, under the message naming them (a card drawn is left out: the
    message, the log's words for a card entry, names it already)."""
    return [w for o in outcomes for w in (event_words(o.state, e) for e in o.events
                                           if not isinstance(e, CardDrawn)) if w]


def outcome_lines(outcome: Outcome) -> list[str]:
    """An entry's events in words, then the rulings its events carry out that they do not explain."""
    return event_lines([outcome]) + [str(w) for w in outcome_notes(outcome.state, outcome.events)]


def recorded(game: Game, before: int, outcomes: list[Outcome]) -> dict[str, Any]:
    """The message of entries just recorded (``before``: how many the table had): the log's words for them (who won
    the hammer, for how much, the lot...: what the referee is told is what the log keeps), then what they brought
    about (one entry's events and the rulings they carry out; a run's events)."""
    words = " · ".join(w for _, w, _ in log_lines(game, before, before + len(outcomes)))
    return {"kind": "done", "message": words,
            "details": outcome_lines(outcomes[0]) if len(outcomes) == 1 else event_lines(outcomes)}


def refusal(exc, ruleset) -> dict[str, Any]:
    """The message of a refused entry: what kind of wrong, what was wrong in the device's language, and the
    clause (with its text in every language ``ruleset`` gives: the screen shows the original and the device's
    language)."""
    clause = ruleset.clauses.get(exc.rule) if ruleset is not None else None
    return {"kind": "refused", "title": title(exc.code), "message": detail(exc), "clause": refusal_clause(exc, ruleset),
            "code": exc.code, "rule": exc.rule, "texts": dict(clause.text) if clause else {}}


def refusal_clause(exc, ruleset) -> str:
    """The clause a refusal cites, in the device's language with the original beside it (:func:`clause_words`), or
    as the refusal gives it where ``ruleset`` (None: not known) holds no clause of that name."""
    clause = ruleset.clauses.get(exc.rule) if ruleset is not None and exc.rule else None
    return clause_words(ruleset, clause) if clause is not None else exc.clause


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
