"""The tables' cards on the director's page and on the room's display: each drawn once for what it shows and
kept, so that a live answer draws again only the tables that changed (a round of 64 tables records some twenty
entries a second).

A card is kept under everything it is drawn from (the table as :func:`referee.services.tournaments.round_overview`
reads it, without its clock; on the director's page the devices unlocked at it; the device's language; the
address the app is served under): a table that changed in any way is a new key and is drawn afresh, so a kept card
is never one of a table as it was.  A director's card's clock line (which counts down) and its form's token (which
differs by device) are not kept: they are put in at each answer.  The standings below the tables are kept with the
value they are drawn from (:func:`kept_standings`), and the public standings' and the room display's live regions
with their version, for every phone and every display (:func:`standings_region`, :func:`display_region`)."""
from __future__ import annotations

import dataclasses
import operator
import re
from collections.abc import Callable
from typing import Any

from flask import current_app, render_template, request, url_for
from flask_babel import get_locale
from markupsafe import Markup, escape

from ...cache import Cache, CARD_FIELDS, kept_in
from ...services import clocks
from .drawings import app_cache, mark, put_in

DIRECTOR_CARD = "tournaments/_table_card.html"  # a director's card's pieces, each a macro
DISPLAY_CARD = "tournaments/_display_card.html"
KEPT = 8192  # cards (by their table's value, and with a kept value) and their pieces kept per app (a few rounds of 64 tables, on both pages, in two languages)
KEPT_STANDINGS = 32  # standings kept per app (a few tournaments' pages in a few languages)
CLOCK = mark("clock")  # where a director's card's clock line goes
TOKEN = mark("token")  # where its form's token goes
OOB = mark("oob")  # where an answer of the director's changed parts alone says to swap one in place
KEPT_STANDINGS_REGIONS = 64  # the public standings' live regions kept per app (a few tournaments in a few languages)
KEPT_DISPLAY_REGIONS = 64  # the room displays' live regions kept per app: each tournament's last, in each language
BIG_CLOCK = mark("bigclock")  # where the room display's big clock goes
MINE = mark("mine")  # around each standings line's player, where a phone's own line is marked
POLL = mark("poll")  # where the standings region's poll address (with the phone's name) goes
_MINE = re.compile(f"{MINE}(.*?){MINE}", re.S)


@kept_in(CARD_FIELDS)
def _drawn_from(kind: type) -> Callable[[object], tuple]:
    """What a card of a table's value of type ``kind`` is drawn from: all its fields but its clock (put in at each
    answer), read in one call (``operator.attrgetter``: a card's key made at each poll for every table)."""
    return operator.attrgetter(*(f.name for f in dataclasses.fields(kind) if f.name != "clock"))


def _hashable(key: tuple) -> object:
    """``key`` as a cache's key: itself (hashed in C, where its words would be written out field by field at each
    poll), or its words where one of its values cannot be hashed."""
    try:
        hash(key)
    except TypeError:
        return repr(key)
    return key


def _card(kept: Cache, where: tuple, template: str, row, t, draw: Callable[[], Any], unlocked=None) -> Any:
    """The card of table ``t`` drawn by ``template`` (``draw()``), kept in ``kept`` under everything it is drawn from
    (``where``: the device's language and the address the app is served under; ``unlocked``: the devices unlocked
    at the table, on the director's page)."""
    kind: type = type(t)  # (as a class: mypy takes a type[Any] for a value that is not hashable)

    def by_value() -> Any:
        return kept.get_or_make(_hashable((template, where, row.id, _drawn_from(kind)(t), unlocked)), draw)

    origin = getattr(t, "kept", None)  # a reading of a kept table value: the card kept with that value (the key
    # of a round's 128 finished tables' values, each hashed field by field, cost a millisecond at every poll), which
    # the card does not keep alive (8,192 cards held as many tables' values the live pages had let go)
    return kept.made_for(origin, (template, where, row.id, unlocked), by_value, weakly=True) if origin \
        else by_value()


def _where() -> tuple[str, str]:
    """Where this answer is drawn: the device's language, the address the app is served under."""
    return str(get_locale()), request.script_root


def _kept_cards() -> tuple[Cache, tuple]:
    """The app's kept cards, and where this answer's are drawn."""
    return app_cache("referee.table_cards", KEPT), _where()


def table_cards(row, tables, devices) -> dict[int, tuple[str, str]]:
    """The director's page: for each table (a :class:`TableView`), by its game, its card as kept, in two halves (its
    clock line goes between them), its form's token (:data:`TOKEN`) and where an answer of the changed parts alone
    marks it to be swapped in place (:data:`OOB`) left as marks (``row``: the tournament; ``devices``: the
    tournament's unlocked devices): the same value while the table shows the same."""
    kept, where = _kept_cards()
    pieces: Any = current_app.jinja_env.get_template(DIRECTOR_CARD).module  # its macros, one a piece

    def card(t, unlocked: tuple) -> Callable[[], tuple[str, str]]:
        return lambda: director_card(pieces, kept, where, row, t, unlocked)

    return {t.game_id: _card(kept, where, DIRECTOR_CARD, row, t, card(t, unlocked), unlocked)
            for t in tables for unlocked in (devices.tables.get(t.game_id, ()),)}


def director_card(pieces: Any, kept: Cache, where: tuple, row, t, unlocked: tuple) -> tuple[str, str]:
    """A director's card of table ``t``, in two halves (its clock line goes between them): its opening and its foot
    as kept (each under all it is drawn from: a table that records an entry draws neither again), its play drawn."""
    opening = kept.get_or_make(_hashable(("opening", where, t.game_id, t.number, t.division, t.over)),
                               lambda: str(pieces.opening(t, Markup(OOB))))
    foot = kept.get_or_make(_hashable(("foot", where, row.id, t.game_id, t.number, t.pin, t.over, t.altered,
                                       unlocked, t.sign_offs, t.corrected)),
                            lambda: str(pieces.foot(t, row, unlocked, Markup(TOKEN))))
    before, after = str(pieces.play(t, Markup(CLOCK))).split(CLOCK)
    return opening + before, after + foot


def display_cards(row, tables) -> dict[int, Markup]:
    """The room's display: each table's card, by its game."""
    kept, where = _kept_cards()

    def card(t) -> Callable[[], str]:
        return lambda: render_template(DISPLAY_CARD, row=row, t=t)

    return {t.game_id: Markup(_card(kept, where, DISPLAY_CARD, row, t, card(t))) for t in tables}


def kept_standings(template: str, row, progress, **context) -> Markup:
    """The standings drawn by ``template`` (``row``: the tournament; ``progress``: where it stands), drawn once for
    the value ``progress`` is and kept with it: the service gives the same value while the places are the same, so
    a live answer in the middle of a round (256 players' rows) draws none of them again, and new standings are a
    new value, drawn afresh."""
    return app_cache("referee.standings", KEPT_STANDINGS).made_for(
        progress, (template, _where(), row.id, row.scheme, row.ruleset),
        lambda: Markup(render_template(template, row=row, progress=progress, standings=progress.places,
                                       format=progress.format, **context)))


def standings_region(draw: Callable[..., str], tournament_id: int, version: str, me: str) -> Markup:
    """The public standings' live region for this answer: drawn once for the standings' ``version`` (in the device's
    language, under the address the app is served at) for every phone that follows it, not once a phone (a room of
    players' phones asks at the same second after a table finishes), with this phone's own line (``me``: its
    player's name) marked and its poll's address, which names it, put in.  ``draw(mine_mark=..., poll_address=...)``
    draws it, with each line's player between two marks and the poll's address a mark."""
    drawn = app_cache("referee.standings_regions", KEPT_STANDINGS_REGIONS).get_or_make(
        (tournament_id, version, _where()), lambda: draw(mine_mark=Markup(MINE), poll_address=Markup(POLL)))
    own = str(escape(me))
    marked = _MINE.sub(lambda line: ' class="mine" id="me"' if me and line.group(1) == own else "", drawn)
    return put_in(marked, {POLL: str(escape(url_for("tournaments.standings", tournament_id=tournament_id, v=version,
                                                      me=me or None)))})


def display_region(draw: Callable[..., tuple[str, list]], tournament_id: int, version: str,
                   big_clock: Callable[[list], str]) -> Markup:
    """The room display's live region for this answer: drawn once for the tournament's ``version`` (in the device's
    language, under the address the app is served at) for every display that follows it (a hall's projectors, the
    screens by its doors), with the big clock as it reads now put in.  ``draw(big_clock=...)`` draws it, the big clock
    a mark, and gives the round's tables it shows (each with its clock as it read then); ``big_clock(tables)`` draws
    the big clock of the tables, each clock as it reads now (the version changes when a clock starts or stops, so
    within one a running clock has only run on)."""
    kept, where = app_cache("referee.display_regions", KEPT_DISPLAY_REGIONS), (tournament_id, _where())
    found = kept.get(where)  # the last version drawn alone: a version is asked for only until the next (at 128 tables
    # a new one every second; kept by version, 64 of them each held its round's 128 tables' values)
    if found is None or found[0] != version:
        found = kept.keep(where, (version, *draw(big_clock=Markup(BIG_CLOCK)), clocks.utcnow()))
    _, drawn, tables, at = found
    since = (clocks.utcnow() - at).total_seconds()
    now = [t.reading(t.clock.later(since)) for t in tables]
    return put_in(drawn, {BIG_CLOCK: str(big_clock(now))})
