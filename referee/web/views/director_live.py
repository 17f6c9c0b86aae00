"""The director page's live region in parts, and a changed poll answered with the parts that changed alone.

At 64 tables some twenty tables record an entry every second, and the director's page asks every second: drawn
whole, each answer carried every table's card (some 140 kB before compression) for the few that changed.  The region
is made of parts, each one element with an id: the calls for a judge, each round's heading, its tables' cards and
its foot (the slips, calling time), the devices unlocked, the backups, the standings.  Each answer is a drawing of
its own, named by a new random id (:class:`Shown`, kept per app: a card by its kept drawing and its clock line's
state, the others as drawn), which the page sends back with its next poll (``d``) beside the version (``v``, which
alone decides a 204).  A poll naming a drawing still kept, in the same language, whose rounds seat the same tables in
the same order, is answered with the parts that differ from that drawing alone, each marked to be swapped in place
(htmx's out-of-band swap), the version and the new drawing's id in headers (:data:`VERSION_HEADER`,
:data:`DRAWING_HEADER`; the page's script moves the region's next poll to them).  Any other poll (a drawing this
process never made or no longer keeps, another host's, a round seated since, a language changed) is answered with
the whole region.

What a device's poll is compared with is what that device was sent, not what some device was sent at that version:
a version can be read a moment before a commit another process made and drawn with it (the versions are shared for
half a second, :mod:`referee.services.latest`), so two devices' drawings at one version may differ; and an answer
the page did not swap in (a confirmation open under the finger) leaves the page naming the drawing it shows.

A part is compared as drawn before its form token is put in (the token is the device's, made afresh at each answer;
the one the device holds stays good); a running clock's line by its limit and the moment it would have started had
it never stopped (the page counts it down itself from the seconds it was sent: a clock paused and started again is
another moment), a stopped one by its seconds left; the calls for a judge, which say the minutes waited, are sent
again when those change; the devices unlocked, which mark the device asking, with every answer of changes."""
from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from flask import current_app, request
from flask_babel import get_locale
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup, escape

from ...language.i18n import gettext
from .cards import CLOCK, OOB, TOKEN
from .drawings import app_cache, put_in

VERSION_HEADER = "Live-Version"  # an answer of changes: the version its parts bring the region to
DRAWING_HEADER = "Live-Drawing"  # and the id of the drawing they make of it, which the page's next poll names
KEPT_FEET = 64  # rounds' feet kept per app (a few tournaments' rounds, in a few languages)
KEPT_SHOWN = 256  # answers' drawings kept per app (each director's device needs its last: a few minutes of them)
EPOCH = datetime(1970, 1, 1)
SWAP_IN_PLACE = ' hx-swap-oob="true"'
# parts drawn for the device asking (the devices unlocked: its own marked "this device"): sent with every answer of
# changes, never compared
EACH_DEVICE = frozenset({"devices"})


@dataclass(frozen=True)
class Shown:
    """What one answer's region showed: where it was drawn (the tournament, the language, the address the app is
    served under), its rounds (each its number and its tables' games, in the order shown) and each part by its
    element's id, as it is compared (a card: its kept drawing and its clock line's state)."""

    where: tuple
    rounds: tuple[tuple[int, tuple[int, ...]], ...]
    parts: dict[str, object]


@dataclass(frozen=True)
class Region:
    """The region for this answer: its body (without the standings' heading) and its standings, each with this
    answer's form token put in; ``drawing``: this answer's id (the page names it in its next poll); ``changes``:
    only the parts changed since the drawing the poll named, each to be swapped in place (the standings then among
    them, when they changed)."""

    body: Markup
    standings: Markup
    drawing: str
    changes: bool


def _clock_state(t, now: datetime) -> tuple:
    """What a table's clock line shows, as compared between two answers: a running clock by its limit and the moment
    it would have started had it never stopped, to the second (the page counts down from the seconds it was sent: a
    clock paused and started again between two polls is another moment), a stopped one by its seconds left."""
    c = t.clock
    if t.over or t.time_called or not t.started or c.limit_seconds is None or c.time_up:
        return (t.over, t.time_called, t.started, c.limit_seconds is None, c.time_up)
    if c.running:
        return ("running", c.limit_seconds, round((now - EPOCH).total_seconds() - c.elapsed_seconds))
    return ("stopped", int(c.remaining_seconds))


def _clock_words() -> dict[str, str]:
    """A clock line's words in the device's language, escaped, looked up once an answer."""
    words = {"over": gettext("game over"), "called": gettext("time called"), "not_started": gettext("not started"),
             "no_limit": gettext("no time limit"), "up": gettext("time is up"), "stopped": gettext("(stopped)")}
    return {key: str(escape(value)) for key, value in words.items()}


def clock_line(t, words: dict[str, str]) -> str:
    """A table's clock line on its card, as it reads now (a running one counts down on the page: ``data-left``)."""
    c = t.clock
    if t.over:
        return f'<span class="clock stopped">{words["over"]}</span>'
    if t.time_called:
        return f'<span class="clock up">{words["called"]}</span>'
    if not t.started:
        return f'<span class="clock idle">{words["not_started"]}</span>'
    if c.limit_seconds is None:
        return f'<span class="clock idle">{words["no_limit"]}</span>'
    if c.time_up:
        return f'<span class="clock up">{words["up"]}</span>'
    left = int(c.remaining_seconds)
    line = (f'<span class="clock" data-left="{left}" data-running="{1 if c.running else 0}" data-up="{words["up"]}">'
            f'{left // 60}:{left % 60:02d}</span>')
    return line if c.running else f'{line} <span class="muted">{words["stopped"]}</span>'


def _kept() -> Any:
    return app_cache("referee.director_shown", KEPT_SHOWN)


def _kept_feet() -> Any:
    """The rounds' feet drawn (with their marks), by all each shows."""
    return app_cache("referee.director_round_feet", KEPT_FEET)


def region(context: dict, seen: str | None) -> Region:
    """The director's live region at ``context``'s version (``context``: what the region shows, as the view reads
    it; ``seen``: the drawing the poll names, if any): the parts changed since ``seen`` alone when that drawing is
    kept, in this language, and seats the same tables; the whole region otherwise; what it shows kept under a new
    drawing's id for the next poll."""
    macros: Any = current_app.jinja_env.get_template("tournaments/_live_parts.html").module  # its macros
    oob, token = Markup(OOB), Markup(TOKEN)
    row, cards, words, now = context["row"], context["cards"], _clock_words(), context["now"]
    where = (row.id, str(get_locale()), request.script_root)
    # each piece of the region in order: (the part's id, what it is compared by, as drawn: a table's card drawn only
    # when it is sent); a wrapper has no id
    pieces: list[tuple[str | None, object, Any]] = []

    def drawn(part: str, text: str) -> None:
        pieces.append((part, text, text))

    drawn("judge-calls", str(macros.calls_part(context["calls"], now, oob)))
    rounds = []
    for each in reversed(context["rounds"]):
        number = each.round.number
        pieces.append((None, None, f'<section class="decision round" id="round-{number}">'))
        drawn(f"round-{number}-head", str(macros.round_head(each, context["format"], oob)))
        pieces.append((None, None, '<div class="tables">'))
        for t in each.tables:
            pieces.append((f"table-{t.game_id}", (cards[t.game_id], _clock_state(t, now)), t))
        pieces.append((None, None, "</div>"))
        # kept by what it shows (a round whose clocks have not started lists each of its tables: 128 lines)
        foot = (where, number, row.id, len(each.callable), tuple((t.number, t.seating) for t in each.not_started),
                context["slips_address"], context["slips_only_here"])
        drawn(f"round-{number}-foot", _kept_feet().get_or_make(foot, lambda each=each: str(macros.round_foot(
            each, row, context["slips_address"], context["slips_only_here"], token, oob))))
        pieces.append((None, None, "</section>"))
        rounds.append((number, tuple(t.game_id for t in each.tables)))
    drawn("devices", str(macros.devices_part(context["devices"], row, token, oob)))
    drawn("live-backups", str(macros.backups_part(context["backups"], context["disks"], oob)))
    standings = context["standings_html"]
    standings_drawn = str(macros.standings_part(standings, oob))
    shown = Shown(where, tuple(rounds),
                  {part: compared for part, compared, _ in pieces if part} | {"live-standings": standings})

    def html(drawing: Any) -> str:
        """A piece as sent: a table's card with its clock line as it reads now."""
        if isinstance(drawing, str):
            return drawing
        head, tail = cards[drawing.game_id]
        return f"{head}{clock_line(drawing, words)}{tail}"

    kept, drawing = _kept(), secrets.token_hex(8)
    kept.keep((row.id, drawing), shown)
    before = kept.get((row.id, seen)) if seen else None
    fresh = {TOKEN: generate_csrf()}
    if before is None or before.where != shown.where or before.rounds != shown.rounds:
        body = "".join(html(drawing) for _, _, drawing in pieces)
        return Region(put_in(body, {**fresh, OOB: ""}), put_in(standings_drawn, {OOB: ""}), drawing, False)
    changed = "".join(html(drawing) for part, compared, drawing in pieces
                      if part and (part in EACH_DEVICE or before.parts.get(part) != compared))
    if before.parts.get("live-standings") != standings:
        changed += standings_drawn
    return Region(put_in(changed, {**fresh, OOB: SWAP_IN_PLACE}), Markup(""), drawing, True)
