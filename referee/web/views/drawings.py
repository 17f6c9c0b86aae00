"""Drawings kept for every device: a page's part drawn once for what it shows and kept per app (a table's live
region, a table's card, the standings, the room display), with what differs from one device or one moment to the
next put in at each answer where the drawing holds a mark (the device's form token, a new form key, a clock's
reading, a message).

A mark is letters and digits only, so it reads the same in the HTML, in a JSON attribute and escaped; and it is made
anew by each process, so no text typed into a game (a player's name) can be one."""
from __future__ import annotations

import secrets
from collections.abc import Mapping

from flask import current_app
from markupsafe import Markup

from ...cache import Cache

_MADE = secrets.token_hex(8)


def app_cache(name: str, size: int) -> Cache:
    """The app's cache ``name`` (each app its own: a test's app and the next draw afresh), of ``size`` values."""
    kept = current_app.extensions.get(name)
    return kept if kept is not None else current_app.extensions.setdefault(name, Cache(size))


def mark(name: str) -> str:
    """Where a kept drawing's ``name`` goes (this process's mark for it)."""
    return f"{name}{_MADE}mark"


def put_in(drawn: str, values: Mapping[str, str]) -> Markup:
    """A kept drawing with each mark replaced by its value for this answer."""
    for where, value in values.items():
        drawn = drawn.replace(where, value)
    return Markup(drawn)
