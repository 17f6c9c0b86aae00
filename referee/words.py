"""Entries and events in words, for the table screen and the game log."""
from __future__ import annotations

from flask import Flask

from .engine import events as ev
from .engine.entries import Entry
from .engine.state import GameState

REASONS = {
    "salary": "salary", "rent": "rent", "tax": "tax", "purchase": "for the deed", "auction": "at auction",
    "card": "by card", "bail": "to leave jail", "mortgage": "mortgage", "unmortgage": "to lift a mortgage",
    "building": "for buildings", "building_auction": "for a building at auction",
    "buildings_sold": "for buildings sold", "bankruptcy": "in bankruptcy", "interest": "mortgage interest",
    "free_parking": "from the free parking pot",
}


def square_name(state: GameState, square: int, lang: str = "en") -> str:
    names = state.ruleset.squares[square].name
    return names.get(lang) or names.get("en") or state.ruleset.squares[square].id


def money(state: GameState, amount: int) -> str:
    return state.ruleset.money_text(amount)


def party(state: GameState, who) -> str:
    if who is None:
        return "the bank"
    if who == ev.POT:
        return "the free parking pot"
    return state.players[who].name


def event_words(state: GameState, event: ev.Event) -> str | None:
    """One event in words, against the state after it; None for bookkeeping events nobody needs to read."""
    if isinstance(event, ev.Moved):
        return f"{party(state, event.player)} moves to {square_name(state, event.to)}"
    if isinstance(event, ev.Paid):
        reason = REASONS.get(event.reason, event.reason)
        return f"{party(state, event.payer)} pays {party(state, event.payee)} {money(state, event.amount)} {reason}"
    if isinstance(event, ev.DeedTransferred):
        return f"{party(state, event.to)} takes {square_name(state, event.square)}"
    if isinstance(event, ev.Mortgaged):
        return f"{square_name(state, event.square)} is mortgaged"
    if isinstance(event, ev.Unmortgaged):
        return f"{square_name(state, event.square)} is no longer mortgaged"
    if isinstance(event, ev.Jailed):
        return f"{party(state, event.player)} goes to jail"
    if isinstance(event, ev.Released):
        return f"{party(state, event.player)} leaves jail ({event.how})"
    if isinstance(event, ev.JailRollFailed):
        return f"{party(state, event.player)} stays in jail"
    if isinstance(event, ev.CardDrawn):
        return f"{party(state, event.player)} draws: {state.ruleset.cards[event.card].text.get('en', event.card)}"
    if isinstance(event, ev.BuildingsChanged):
        return "buildings: " + ", ".join(
            f"{square_name(state, sq)} {'hotel' if lvl == state.hotel_level else f'{lvl} houses'}"
            for sq, lvl in event.levels)
    if isinstance(event, ev.BidVoided):
        return f"{party(state, event.player)}'s winning bid of {money(state, event.amount)} is void"
    if isinstance(event, ev.DebtQueued):
        d = event.debt
        return f"{party(state, d.debtor)} owes {party(state, d.creditor)} {money(state, d.amount)}"
    if isinstance(event, ev.WentBankrupt):
        return f"{party(state, event.player)} is bankrupt to {party(state, event.creditor)}"
    if isinstance(event, ev.TradeMade):
        return f"{party(state, event.first)} and {party(state, event.second)} trade"
    if isinstance(event, ev.TurnBegan):
        return f"{party(state, event.player)}'s turn"
    if isinstance(event, ev.TimeCalled):
        return "time is called"
    if isinstance(event, ev.SeatingOrdered):
        return "order of play: " + ", ".join(p.name for p in state.players)
    return None


def entry_words(entry: Entry) -> str:
    """An entry as the referee recorded it."""
    parts = [entry.type.replace("_", " ")]
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
        parts.append(f"the latest {entry.count}")
    if entry.targets:
        parts.append(", ".join(f"{sq} {lvl}" for sq, lvl in entry.targets))
    if entry.note:
        parts.append(f"({entry.note})")
    return " ".join(parts)


def init_app(app: Flask) -> None:
    app.jinja_env.filters["square_name"] = square_name
    app.jinja_env.globals["money"] = money
    app.jinja_env.filters["entry_words"] = entry_words
