"""A trade between two players (the engine's :mod:`referee.engine.kinds.trade`) as the screens show it: the trade
panel, one builder a pair of players who may trade now, each side's cash, deeds and jail cards to tick, checked
against the rules before it is recorded (``templates/table/kinds/trade.html``, drawn open while a debt is being
raised); its line in the log, its noun, its refusals' titles."""
from __future__ import annotations

from ...engine import Action, Entry, EntryFacts, GameState, Ruleset
from ...language import gettext as _
from ..kind import Buttons, EntryScreen, raising_cash, register_screen
from ..log import trade_words


def _l(text: str) -> str:
    """A refusal's title as written (English), marked for the catalogues: put in the device's language where shown."""
    return text


def trade_pairs(state: GameState, actions: list[Action]) -> list[tuple[int, int]]:
    """The trade panel: each pair of players who may trade now, (proposer, partner) as the rules offer them, each
    pair once (the lower seat proposing), or every proposer's while a debt is being raised (the debtor proposes)."""
    in_debt = raising_cash(state)
    return [(a.player, b) for a in actions if a.player is not None for b in a.detail["partners"]
            if a.player < b or in_debt]


def _sentence(entry: Entry, ruleset: Ruleset, facts: EntryFacts | None) -> str:
    assert entry.player is not None and entry.partner is not None  # (a trade's required fields)
    return trade_words(ruleset, entry.player, entry.partner, entry.give, entry.take,
                       facts.context if facts else "trade", facts.mortgaged if facts else ())


register_screen(EntryScreen(
    "trade", lambda: _("a trade"), _sentence,
    titles={
        "below_mortgage_value": _l("A deed may not go for its mortgage value or less"),
        "buy_back": _l("No buying back at once at another price"),
        "creditor_rescue": _l("A rescue comes from a player other than the creditor"),
        "duplicate_deed": _l("A deed is named twice"),
        "gift": _l("Gifts are not allowed"),
        "jail_card_price": _l("A jail card may not go for $50 or more"),
        "leaves_both_unpaid": _l("The trade would leave the fine and the rent ahead unpayable"),
        "same_player": _l("A player cannot trade with themself"),
    },
    buttons=Buttons("trade", trade_pairs, "table/kinds/trade.html", panel=lambda: _("Trade"), in_debt=True)))
