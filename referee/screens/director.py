"""The director's page's table cards: each drawn once for what it shows and kept, so that a live answer draws
again only the tables that changed (a round of 64 tables records some twenty entries a second).

A card is kept under everything it is drawn from (the table as :func:`referee.services.tournaments.round_overview`
reads it, without its clock; the devices unlocked at it; the device's language; the address the app is served
under): a table that changed in any way is a new key and is drawn afresh, so a kept card is never one of a table
as it was.  Its clock line (which counts down) and its form's token (which differs by device) are not kept: they
are put in at each answer."""
from __future__ import annotations

import dataclasses
import threading
from collections import OrderedDict

from flask import current_app, render_template, request
from flask_babel import get_locale
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup

KEPT = 1024  # cards kept per app (a few rounds of 64 tables, in two languages)
CLOCK = "\x00clock\x00"  # where a card's clock line goes
TOKEN = "\x00token\x00"  # where its form's token goes
_lock = threading.Lock()


def _kept() -> "OrderedDict[str, tuple[str, str]]":
    with _lock:
        return current_app.extensions.setdefault("referee.director_cards", OrderedDict())


def table_cards(row, tables, devices) -> dict[int, tuple[Markup, Markup]]:
    """For each table (a :class:`TableView`), by its game: its card as two halves, the clock line to go between
    them (``row``: the tournament; ``devices``: the tournament's unlocked devices)."""
    kept, token, out = _kept(), generate_csrf(), {}
    language, root = str(get_locale()), request.script_root
    for t in tables:
        unlocked = devices.tables.get(t.game_id, [])
        key = repr((language, root, row.id, dataclasses.replace(t, clock=None), unlocked))
        with _lock:
            halves = kept.get(key)
            if halves is not None:
                kept.move_to_end(key)
        if halves is None:
            page = render_template("tournaments/_table_card.html", t=t, row=row, unlocked=unlocked,
                                   clockline=Markup(CLOCK), token=Markup(TOKEN))
            head, tail = page.split(CLOCK)
            halves = (head, tail)
            with _lock:
                kept[key] = halves
                while len(kept) > KEPT:
                    kept.popitem(last=False)
        out[t.game_id] = (Markup(halves[0].replace(TOKEN, token)), Markup(halves[1].replace(TOKEN, token)))
    return out
