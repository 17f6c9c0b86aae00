"""A live poll whose page has not changed (or a table's screen whose new drawing is kept), answered before the app
makes a request of it.

Every live page asks every second whether it changed, naming the version it was drawn at (htmx's poll:
``HX-Request``, ``?v=``): a table's screen on each of its tablets, its spectators' display, the director's page,
the room's display, the players' phones following the standings.  Nearly every answer is "nothing new" (204).
Flask's request for it (its context, the session, the language, the security headers, the view's dispatch)
cost more than the question itself: about a millisecond of the server's time for one statement's answer.  Here
such a poll is answered from the WSGI call itself, by the same services the views ask:

- the page's version, as its view works it out (:func:`referee.services.stamps.poll_version` for a table's
  screens, :func:`referee.services.tournaments.live_version` for the director's page and the room's display,
  :func:`referee.services.progress.live_progress_and_version` for the standings);
- for a page that needs an unlock (a table's screen, the director's page), the grants the device's session cookie
  names, as :func:`referee.web.access.grants_of` reads them for every request: the poll is answered here only when
  the device holds the page's own grant (the table's referee, the tournament's director) and its cookie would not
  change (every grant it names still live).

A table's screen that changed (the other tablet recorded) is answered here too, when the device holds the table's
grant and its region's drawing at the new version is kept (:func:`referee.web.views.table_live.kept_region`: the
first device to ask at that version had the views draw it): the drawing with this device's form token, a new form
key and the clock put in, compressed as the views compress, with the headers the views gave their own such answer
(learnt from it: :meth:`UnchangedPolls.learning`).

A table's screen that a plain form's record sent the tablet on to (``/games/<id>?said=<name>``) is answered here
too, with the page that record's request made and kept for the device (:func:`referee.web.views.table_live.
made_after`), when the device holds the table's grant, the page is the one waiting for it and the game is still at
the version it was drawn at (:func:`referee.web.views.table_live.kept_page`).

Anything else, a version that moved on a page that is not a table's screen or whose drawing is not kept, a device
that may not see the page, a director's device at a table, a cookie to rewrite, a Host the app does not serve, a
database that does not answer, goes the usual way, to the views, which answer as they always did (the page drawn,
the PIN screen, the 503 notice).  So this answers only what the views would have answered, and the same way (a 204
with no body, ``Vary: Cookie`` where the cookie was read, HSTS where the app is served over https only)."""
from __future__ import annotations

import re
from contextlib import nullcontext
from typing import Any, Callable, Iterable

from flask import Flask
from sqlalchemy import Connection
from werkzeug.exceptions import SecurityError
from werkzeug.http import parse_cookie
from werkzeug.wsgi import get_host

from ..services import backups, grants, progress, stamps, tournaments
from . import access, compression
from .addresses import parameters
from .sessions import SessionOverHttps
from .views import table_live

WSGIApp = Callable[[dict, Callable[..., Any]], Iterable[bytes]]

# each live page that polls (its id at most nine digits: a larger one, which may be past what a column holds, goes
# to the views): its address, the grant it needs (None: open to everyone), its version now (read through
# the connection given, or None: the session's; a tournament's, its Version, which its view takes whole), whether it
# is read through a connection of its own (a table's
# one statement, past the session's steps), and its version read with the device's grants in that one statement
# (a table's screen, whose tablets' polls are most of a room's requests; None: the grants read apart)
Version = Callable[[int, "Connection | None"], "str | tournaments.Version | None"]
WithGrants = Callable[[int, list[str], Connection], tuple["stamps.Stamp | None", list[grants.Grant]]]
# a changed page's answer made here (a table's screen: its kept drawing, :func:`table_live.kept_region`): (the app,
# the request's environ, the page, its stamp read, the device's session, its cookies) -> the answer's HTML, or None
Changed = Callable[[Flask, dict, int, "stamps.Stamp", dict, dict], "str | None"]
TABLE_SCREEN = re.compile(r"/games/([1-9][0-9]{0,8})")  # a table's screen
PAGES: tuple[tuple[re.Pattern[str], str | None, Version, bool, WithGrants | None, Changed | None], ...] = (
    (TABLE_SCREEN, access.GAME, stamps.poll_version, True,
     stamps.poll_stamp_and_grants, table_live.kept_region),
    (re.compile(r"/games/([1-9][0-9]{0,8})/display"), None, stamps.poll_version, True, None, None),
    (re.compile(r"/tournaments/([1-9][0-9]{0,8})/live"), access.DIRECTOR,
     lambda tournament_id, _: tournaments.live_version(tournament_id), False, None, None),
    (re.compile(r"/tournaments/([1-9][0-9]{0,8})/display"), None,
     lambda tournament_id, _: tournaments.live_version(tournament_id), False, None, None),
    (re.compile(r"/tournaments/([1-9][0-9]{0,8})/standings"), None,
     lambda tournament_id, _: progress.live_progress_and_version(tournament_id)[1], False, None, None),
)

OWN_HEADERS = frozenset({"content-length", "content-encoding", "vary", "set-cookie", "server-timing"})  # an
# answer's own: not learnt from the views' answer for one made here (:meth:`UnchangedPolls.learning`)

SCHEMES = ("http", "https")  # the schemes whose answers' headers are learnt (a proxy's other word is the views')

READ = "referee.poll_version"  # the WSGI environ's key of the version read here: (the page's path, the version, the
# counts of the table's stamp read with it, or None; a tournament's page: its Version)


def version_read(environ: dict, page: int) -> str | None:
    """The version of game ``page``'s screens (its table screen's, its spectators' display's) read for this request
    before Flask's (:class:`UnchangedPolls`), if one was; None: read it."""
    found = environ.get(READ)
    return found[1] if found is not None and found[0] in (f"/games/{page}", f"/games/{page}/display") else None


def counts_read(environ: dict, page: int) -> tuple[int, ...] | None:
    """The counts of game ``page``'s stamp (:func:`referee.services.stamps.stamp`) read for this request with its
    version, before Flask's (a table's tablet's poll of a screen that changed: its view draws the region at once,
    without reading them again); None: read them."""
    found = environ.get(READ)
    return found[2] if found is not None and found[0] == f"/games/{page}" else None


def tournament_version_read(environ: dict, tournament_id: int) -> tournaments.Version | None:
    """The version of the tournament page this request asks for (the director's live region, the room's display),
    read before Flask's request (:class:`UnchangedPolls`): its view draws the page at it, without reading it again
    (a commit between the two, some twenty a second in a room of 64 tables, would have it read twice); None: read
    it."""
    found = environ.get(READ)
    return found[1] if (found is not None and isinstance(found[1], tournaments.Version)
                        and found[0] in (f"/tournaments/{tournament_id}/live",
                                         f"/tournaments/{tournament_id}/display")) else None


Asked = tuple[int, str | None, Version, bool, WithGrants | None, "Changed | None", str]


def polled(environ: dict) -> Asked | None:
    """The live page a request polls, the grant it needs, its version's readers (``PAGES``) and the version the poll
    names; None for any other request (a page asked for, a form, an entry of the table asked for with ``at``)."""
    if environ.get("REQUEST_METHOD") != "GET" or not environ.get("HTTP_HX_REQUEST"):
        return None
    path = environ.get("PATH_INFO", "")
    for address, needs, version, own, with_grants, changed in PAGES:
        found = address.fullmatch(path)
        if found is None:
            continue
        page = int(found.group(1))
        args = parameters(environ)
        seen = "" if args is None else args.get("v", [""])[0]
        if not seen or args is None or "at" in args:
            return None
        return page, needs, version, own, with_grants, changed, seen
    return None


def said_asked(environ: dict) -> tuple[int, str] | None:
    """The table and the one-time name of the screen a plain form's record made for it, when a request asks for that
    screen as the record sent the tablet on to it (``/games/<id>?said=<name>``, nothing else; :func:`referee.web.
    views.table_live.made_after`); None for any other request."""
    if environ.get("REQUEST_METHOD") != "GET" or environ.get("HTTP_HX_REQUEST"):
        return None
    found = TABLE_SCREEN.fullmatch(environ.get("PATH_INFO", ""))
    args = parameters(environ) if found is not None else None
    if found is None or args is None or list(args) != ["said"] or len(args["said"]) != 1:
        return None
    return int(found.group(1)), args["said"][0]


class UnchangedPolls:
    """WSGI middleware around Flask's own call: a poll of a page still at the version it names, by a device that may
    see it, answered 204 here (:mod:`referee.web.polls`), and a table's tablet's poll of its screen that changed
    answered with the region's drawing kept at the new version, when one is; every other request handed to Flask."""

    def __init__(self, app: Flask, wsgi: WSGIApp, secure: list[tuple[str, str]]) -> None:
        self.app = app
        self.wsgi = wsgi
        self.secure = secure  # the headers every answer carries when the app is served over https only (HSTS)
        # the headers the views gave a changed poll's answer made here (its region's), by the request's scheme:
        # learnt from their own answer (the security headers Flask-Talisman sets on every page, its Content-Type,
        # its Cache-Control), so that one made here carries what theirs carries
        self.region_headers: dict[str, list[tuple[str, str]]] = {}
        self.page_headers: dict[str, list[tuple[str, str]]] = {}  # and those of a table's screen, as a page

    def __call__(self, environ: dict, start_response: Callable[..., Any]) -> Iterable[bytes]:
        asked = polled(environ)
        said = said_asked(environ) if asked is None else None
        if asked is None and said is None:
            return self.wsgi(environ, start_response)
        answer = self.answer(environ, *asked) if asked is not None else self.said(environ, *said) if said else None
        if answer is not None:
            status, headers, body = answer
            start_response(status, headers)
            backups.scheduler_of(self.app).poke()  # as every request's end does
            return [body] if body else []
        if said is not None:  # the views' answer teaches the headers of one made here
            return self.wsgi(environ, self.learning(environ, start_response, self.page_headers))
        if asked is not None and asked[5] is not None:
            return self.wsgi(environ, self.learning(environ, start_response, self.region_headers))
        return self.wsgi(environ, start_response)

    def answer(self, environ: dict, page: int, needs: str | None, version: Version, own: bool,
               with_grants: WithGrants | None, changed: Changed | None, seen: str
               ) -> tuple[str, list[tuple[str, str]], bytes] | None:
        """The answer its view would give, when the page is still at ``seen`` (204) or, for a page that ``changed``
        answers, has moved on and a drawing of it is kept (200), and the device may see it; None to leave the
        request to the views.  ``own``: read through a connection of its own."""
        https_only = bool(self.app.config.get("SESSION_COOKIE_SECURE"))
        try:
            if not self.here(environ):
                return None
            with self.app.app_context(), (stamps.polling() if own else nullcontext()) as connection:
                cookie = self.device(environ) if needs is not None else None
                if needs is not None and cookie is None:
                    return None
                named: list[grants.Grant] | None = None
                counts: tuple[int, ...] | None = None
                read: stamps.Stamp | None = None
                now: str | tournaments.Version | None
                if cookie is not None and connection is not None and with_grants is not None:
                    tokens = access.tokens_in(cookie)
                    read, named = with_grants(page, tokens, connection)
                    if read is None:  # no such game: its grants were not read (the statement found no row)
                        now = None
                    else:
                        now, counts = read.version, read.counts
                        environ[access.GRANTS_READ] = (tokens, named)  # the view takes them, not read them again
                else:
                    now = version(page, connection)
                environ[READ] = (environ.get("PATH_INFO"), now, counts)  # the view compares it, not read it again
                moved = (now.token if isinstance(now, tournaments.Version) else now) != seen
                if moved and (changed is None or read is None or cookie is None):
                    return None
                headers = self.secure if https_only else []
                if cookie is None:
                    return "204 NO CONTENT", headers, b""
                if not holds(cookie, named, needs, page, connection):
                    return None
                if not moved:
                    return "204 NO CONTENT", [("Vary", "Cookie"), *headers], b""
                assert changed is not None and read is not None  # (a page moved on is answered here only so)
                return self.changed(environ, changed, page, read, cookie)
        except Exception:  # noqa: BLE001 - the views answer it, with their own page for what went wrong
            return None

    def said(self, environ: dict, page: int, name: str) -> tuple[str, list[tuple[str, str]], bytes] | None:
        """The table screen a plain form's record made and kept under ``name`` (:func:`said_asked`), answered as the
        views answer the screen, when the device holds the table's unlock and the game is still at the version it
        was drawn at (:func:`referee.web.views.table_live.kept_page`); None to leave the request to the views."""
        learnt = self.page_headers.get(environ.get("wsgi.url_scheme", ""))
        try:
            if learnt is None or not self.here(environ):
                return None
            with self.app.app_context(), stamps.polling() as connection:
                cookie = self.device(environ)
                if cookie is None:
                    return None
                read, named = stamps.poll_stamp_and_grants(page, access.tokens_in(cookie), connection)
                if read is None or not holds(cookie, named, access.GAME, page, connection):
                    return None
                html = table_live.kept_page(environ, page, name, read, cookie, parse_cookie(environ))
            return None if html is None else page_answer(environ, html, learnt)
        except Exception:  # noqa: BLE001 - the views answer it, with their own page for what went wrong
            return None

    def changed(self, environ: dict, changed: Changed, page: int, read: stamps.Stamp, cookie: dict
                ) -> tuple[str, list[tuple[str, str]], bytes] | None:
        """A changed page's answer made here (``changed``: its drawing kept at the version ``read``), with the
        headers the views gave the same answer and compressed as theirs is; None: the views answer it."""
        learnt = self.region_headers.get(environ.get("wsgi.url_scheme", ""))
        if learnt is None:
            return None
        html = changed(self.app, environ, page, read, cookie, parse_cookie(environ))
        return None if html is None else page_answer(environ, html, learnt)

    def learning(self, environ: dict, start_response: Callable[..., Any], into: dict[str, list[tuple[str, str]]]
                 ) -> Callable[..., Any]:
        """``start_response`` noting, ``into`` the headers kept by scheme, those of the views' answer to a request
        whose answer can be made here (a changed poll: :meth:`changed`; a record's screen: :meth:`said`): all but
        those of its own body and cookie."""
        def noted(status: str, headers: list[tuple[str, str]], *exc_info: Any) -> Any:
            if status.startswith("200") and not exc_info and environ.get("wsgi.url_scheme") in SCHEMES:
                into[environ["wsgi.url_scheme"]] = [(k, v) for k, v in headers if k.lower() not in OWN_HEADERS]
            return start_response(status, headers, *exc_info)

        return noted

    def here(self, environ: dict) -> bool:
        """Whether a request may be answered here at all: not one in the clear to an app served over https only (the
        views send it to https), and its Host one the views accept (one they refuse, 400, is theirs)."""
        if self.app.config.get("SESSION_COOKIE_SECURE") and environ.get("wsgi.url_scheme") != "https":
            return False
        try:
            get_host(environ, self.app.config.get("TRUSTED_HOSTS"))
        except SecurityError:
            return False
        return True

    def device(self, environ: dict) -> dict | None:
        """The device's session as Flask reads it (its signed cookie: :meth:`SessionOverHttps.read`); None when it
        has none, one not signed by this app, or one of the time unlocks lived in the cookie itself (the views let
        them go, and the cookie with them)."""
        interface = self.app.session_interface
        value = parse_cookie(environ).get(self.app.config["SESSION_COOKIE_NAME"])
        cookie = interface.read(self.app, value) if isinstance(interface, SessionOverHttps) and value else None
        return None if cookie is None or "unlocks" in cookie else cookie


def page_answer(environ: dict, html: str, learnt: list[tuple[str, str]]) -> tuple[str, list[tuple[str, str]], bytes]:
    """A page made here (a changed region, a record's screen), compressed as the views compress theirs, with the
    headers the views gave the same answer (``learnt``) and its own (it depends on the device's cookie)."""
    body, encoded = compression.answer_body(environ, html.encode())
    vary = ", ".join([v for k, v in encoded if k == "Vary"] + ["Cookie"])
    return "200 OK", [*learnt, ("Vary", vary), *[(k, v) for k, v in encoded if k != "Vary"],
                      ("Content-Length", str(len(body)))], body


def holds(cookie: dict, named: list[grants.Grant] | None, needs: str | None, page: int,
          connection: Connection | None) -> bool:
    """Whether the device whose session is ``cookie`` holds the grant ``needs`` of ``page``, live, and its cookie
    names no grant that ended (the views drop those from it): from the grants read with the page's version
    (``named``), else read now."""
    found, at, live = access.judged(named) if named is not None else access.grants_of(cookie, connection)
    if live != cookie.get("grants", []):
        return False
    return any(x.role == needs and x.target == page and x.live(at) for x in found)


def init_app(app: Flask, secure: list[tuple[str, str]]) -> None:
    """Unchanged polls answered before Flask's request (innermost: inside the proxies' headers, so a request's
    scheme is the one the trusted proxy says).  ``secure``: the headers Flask-Talisman adds to every answer of an
    app served over https only (its Strict-Transport-Security), which the views' 204 carries too."""
    app.wsgi_app = UnchangedPolls(app, app.wsgi_app, secure)  # type: ignore[method-assign]  # Flask's documented way
