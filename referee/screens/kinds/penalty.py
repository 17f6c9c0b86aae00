"""A fine for a breach at the table (the engine's :mod:`referee.engine.kinds.penalty`) as the screens show it: a
panel of fines, one button a player and breach with its amount, each behind a confirmation
(``templates/table/kinds/penalty.html``); its line in the log; the fines imposed on the result page and sheet."""
from __future__ import annotations

from ...engine import Action, Entry, EntryFacts, Game, GameState, Ruleset
from ...language import gettext as _
from ..kind import Buttons, Confirmation, EntryScreen, Paper, register_screen
from ..words import money, per_language


def _l(text: str) -> str:
    """A refusal's title as written (English), marked for the catalogues: put in the device's language where shown."""
    return text


@per_language
def _breaches() -> dict[str, str]:
    return {
        "play_in_another_turn": _("playing in another player's turn"), "out_of_turn_move": _("a move out of turn"),
        "dice_off_table": _("the dice left the table"),
    }


def breach_words(rule: str) -> str:
    """What a fine is for (a penalty entry's ``choice``), in the device's language."""
    return _breaches().get(rule, rule)


def _amount(ruleset: Ruleset, rule: str) -> str:
    return ruleset.money_text(getattr(ruleset.options, "penalty_" + rule, 0))


def fine_offers(state: GameState, actions: list[Action]) -> list[Confirmation]:
    """The fines panel: for each player and breach the ruleset (or the tournament's regulations) gives a fine for,
    its amount and where it goes (the bank; the Free Parking pot where the ruleset keeps one and its pot_payments
    name fines)."""
    opts = state.ruleset.options
    to_pot = opts.free_parking == "tax_pot" and "penalty" in opts.pot_payments
    offers = []
    for a in actions:
        assert a.player is not None  # a fine is always someone's
        name = state.players[a.player].name
        amount = money(state, a.detail["amount"])
        breach = breach_words(a.detail["rule"])
        where = _("into the Free Parking pot") if to_pot else _("to the bank")
        offers.append(Confirmation(
            f"{a.player}-{a.detail['rule']}", {"type": "penalty", "player": name, "choice": a.detail["rule"]},
            _("%(player)s: %(breach)s, fine %(amount)s", player=name, breach=breach, amount=amount),
            _("Fine %(player)s %(amount)s for %(breach)s? It is paid %(where)s; if %(player)s cannot pay it, it is "
              "a debt like any other payment. The roll awaited is awaited again afterwards.", player=name,
              amount=amount, breach=breach, where=where),
            _("Yes: %(player)s pays %(amount)s", player=name, amount=amount)))
    return offers


def _sentence(entry: Entry, ruleset: Ruleset, facts: EntryFacts | None) -> str:
    return _("%(player)s is fined %(amount)s: %(breach)s", player=entry.player,
             amount=_amount(ruleset, entry.choice or ""), breach=breach_words(entry.choice or ""))


def fine_lines(game: Game) -> list[tuple[str, ...]]:
    """The fines the referee imposed in the game (voided ones left out), for the result page and sheet: (the
    entry's number, the player, what for, the amount)."""
    ruleset = game.ruleset
    out: list[tuple[str, ...]] = []
    for i in game.effective:
        entry = game.entries[i]
        if entry.type == "penalty" and entry.player is not None and entry.choice is not None:
            out.append((str(i + 1), entry.player, breach_words(entry.choice), _amount(ruleset, entry.choice)))
    return out


def _columns() -> tuple[tuple[str, bool], ...]:
    return (_("entry"), True), (_("player"), False), (_("what for"), False), (_("amount"), True)


register_screen(EntryScreen(
    "penalty", lambda: _("a fine"), _sentence, reasons=lambda: {"penalty": _("as a fine")},
    titles={"no_such_penalty": _l("No such fine in this game")},
    buttons=Buttons("fines", fine_offers, "table/kinds/penalty.html", panel=lambda: _("Fines")),
    paper=Paper(lambda: _("Fines"), _columns, fine_lines)))
