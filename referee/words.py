"""Entries and events in words, for the table screen and the game log."""
from __future__ import annotations

from flask import Flask
from flask_babel import gettext as _

from .engine import events as ev
from .engine.entries import Entry
from .engine.state import GameState

def _reason(reason: str) -> str:
    return {
        "salary": _("salary"), "rent": _("rent"), "tax": _("tax"), "purchase": _("for the deed"),
        "auction": _("at auction"), "card": _("by card"), "bail": _("to leave jail"), "mortgage": _("mortgage"),
        "unmortgage": _("to lift a mortgage"), "building": _("for buildings"),
        "building_auction": _("for a building at auction"), "buildings_sold": _("for buildings sold"),
        "bankruptcy": _("in bankruptcy"), "interest": _("mortgage interest"),
        "free_parking": _("from the free parking pot"),
    }.get(reason, reason)


def _lang() -> str:
    from .i18n import current_language

    return current_language()


def square_name(state: GameState, square: int, lang: str | None = None) -> str:
    names = state.ruleset.squares[square].name
    return names.get(lang or _lang()) or names.get("en") or state.ruleset.squares[square].id


def money(state: GameState, amount: int) -> str:
    return state.ruleset.money_text(amount)


def party(state: GameState, who) -> str:
    if who is None:
        return _("the bank")
    if who == ev.POT:
        return _("the free parking pot")
    return state.players[who].name


def event_words(state: GameState, event: ev.Event) -> str | None:
    """One event in words, against the state after it; None for bookkeeping events nobody needs to read."""
    if isinstance(event, ev.Moved):
        return _("%(player)s moves to %(square)s", player=party(state, event.player),
                 square=square_name(state, event.to))
    if isinstance(event, ev.Paid):
        return _("%(payer)s pays %(payee)s %(amount)s %(reason)s", payer=party(state, event.payer),
                 payee=party(state, event.payee), amount=money(state, event.amount), reason=_reason(event.reason))
    if isinstance(event, ev.DeedTransferred):
        return _("%(player)s takes %(square)s", player=party(state, event.to), square=square_name(state, event.square))
    if isinstance(event, ev.Mortgaged):
        return _("%(square)s is mortgaged", square=square_name(state, event.square))
    if isinstance(event, ev.Unmortgaged):
        return _("%(square)s is no longer mortgaged", square=square_name(state, event.square))
    if isinstance(event, ev.Jailed):
        return _("%(player)s goes to jail", player=party(state, event.player))
    if isinstance(event, ev.Released):
        return _("%(player)s leaves jail", player=party(state, event.player))
    if isinstance(event, ev.JailRollFailed):
        return _("%(player)s stays in jail", player=party(state, event.player))
    if isinstance(event, ev.CardDrawn):
        texts = state.ruleset.cards[event.card].text
        return _("%(player)s draws: %(card)s", player=party(state, event.player),
                 card=texts.get(_lang()) or texts.get("en", event.card))
    if isinstance(event, ev.BuildingsChanged):
        return _("buildings: %(levels)s", levels=", ".join(
            f"{square_name(state, sq)} {_('hotel') if lvl == state.hotel_level else _('%(n)s houses', n=lvl)}"
            for sq, lvl in event.levels))
    if isinstance(event, ev.BidVoided):
        return _("%(player)s's winning bid of %(amount)s is void", player=party(state, event.player),
                 amount=money(state, event.amount))
    if isinstance(event, ev.DebtQueued):
        d = event.debt
        return _("%(debtor)s owes %(creditor)s %(amount)s", debtor=party(state, d.debtor),
                 creditor=party(state, d.creditor), amount=money(state, d.amount))
    if isinstance(event, ev.WentBankrupt):
        return _("%(player)s is bankrupt to %(creditor)s", player=party(state, event.player),
                 creditor=party(state, event.creditor))
    if isinstance(event, ev.TradeMade):
        return _("%(first)s and %(second)s trade", first=party(state, event.first), second=party(state, event.second))
    if isinstance(event, ev.TurnBegan):
        return _("%(player)s's turn", player=party(state, event.player))
    if isinstance(event, ev.TimeCalled):
        return _("time is called")
    if isinstance(event, ev.SeatingOrdered):
        return _("order of play: %(players)s", players=", ".join(p.name for p in state.players))
    return None


def pending_words(state: GameState) -> str:
    from .engine.rules import describe_pending

    return describe_pending(state, _, _lang())


def _entry_labels() -> dict[str, str]:
    return {
        "seat_roll": _("seating roll"), "roll": _("rolls"), "buy": _("buys"), "decline": _("declines: auction"),
        "bid": _("bids"), "hammer": _("hammer"), "income_tax": _("income tax"), "card": _("card"),
        "rent_roll": _("rent roll"), "pay_bail": _("pays to leave jail"), "use_jail_card": _("uses a jail card"),
        "mortgage": _("mortgages"), "unmortgage": _("lifts the mortgage on"), "bankrupt": _("bankrupt"),
        "build": _("declares buildings"), "withdraw_build": _("reduces the declaration"),
        "close_builds": _("declarations closed"), "place_building": _("builds on"),
        "sell_buildings": _("sells buildings"), "trade": _("trades with"), "time_called": _("time called"),
        "rolloff": _("roll-off"), "void": _("void"),
    }


def entry_words(entry: Entry) -> str:
    """An entry as the referee recorded it, in the device's language."""
    parts = [_entry_labels().get(entry.type, entry.type)]
    if entry.player:
        parts.insert(0, entry.player)
    if entry.players:
        parts.insert(0, " = ".join(entry.players))
    if entry.dice:
        parts.append(f"{entry.dice[0]}+{entry.dice[1]}")
    if entry.amount is not None:
        parts.append(f"{entry.amount:,}")
    for value in (entry.card, entry.choice, entry.square, entry.partner):
        if value is not None:
            parts.append(str(value))
    if entry.count:
        parts.append(_("the latest %(n)s", n=entry.count))
    if entry.targets:
        parts.append(", ".join(f"{sq} {lvl}" for sq, lvl in entry.targets))
    if entry.note:
        parts.append(f"({entry.note})")
    return " ".join(parts)


def init_app(app: Flask) -> None:
    app.jinja_env.filters["square_name"] = square_name
    app.jinja_env.globals["money"] = money
    app.jinja_env.filters["entry_words"] = entry_words
    app.jinja_env.filters["pending_words"] = pending_words
