"""Who may do what on a venue network that players and spectators share.

Three roles, each opened on one device (its session cookie) by a secret, each for a limited time:

- a **table referee** opens one game with that game's PIN (a tournament's table has a PIN of its own, printed
  on its slip and shown on the director's page) and may record in that game only;
- the **director** opens a tournament with the director's PIN: its page, seating and calling time, and every
  table of that tournament;
- a **judge** opens a tournament with its judges' PIN, the **head judge** with its head judge's PIN (both made by
  the director on the director's page): the judge's screen (the tournament's calls for a judge, live), and at every
  table of the tournament the ruling form of the dispute view (a judge's ruling; the head judge's too with the head
  judge's PIN).  Nothing else: no entry of play, no seating, no time, no correction, no locking; a judge's device
  is answered 403 there, nothing recorded.  The director may rule as a judge or the head judge;
- the **organiser** opens the creation of games and tournaments with the organiser password, when one is set
  (``instance/organiser_password``, written by ``referee organiser-password``); without one, anyone who
  reaches the app may create them, as a home game expects.

The spectators' display, the standings and the results need nothing and record nothing.

An unlock is a grant kept on the server (:mod:`referee.services.grants`): the device's cookie holds only the
grant's token, the database only the token's hash.  It ends ``UNLOCK_MINUTES`` after it was given
(``instance/config.py``; 240 by default: a long round and its final), when the tablet is locked with "Lock this
tablet", or when the director locks the table's tablets or every tablet of the tournament; a copy of the cookie
taken before opens nothing after.  The session cookie is Secure whenever the request came over https.  Wrong secrets are counted by
Flask-Limiter, per device (all forms together), per table, per tournament's director's PIN and for the organiser
password (each from every device together); past a limit every attempt is refused, right or wrong, until the window
has passed (``PIN_FAILURES_PER_DEVICE``, ``PIN_FAILURES_PER_TARGET``, ``DIRECTOR_PIN_FAILURES``,
``ORGANISER_PASSWORD_FAILURES``) or, for the director's PIN and the organiser password, a new one is set on the
server.  The counts are kept in ``RATELIMIT_STORAGE_URI``: one process's memory by default, a store several worker
processes share (redis://) otherwise.
"""
from __future__ import annotations

import hashlib
import time
from collections.abc import Mapping
from datetime import datetime
from functools import wraps
from pathlib import Path

from flask import Flask, current_app, flash as flask_flash, g, redirect, render_template, request, session, url_for
from ..language.i18n import gettext
from flask_limiter import Limiter
from flask_limiter.errors import RateLimitExceeded
from flask_limiter.util import get_remote_address
from limits import parse
from sqlalchemy import Connection
from werkzeug.security import check_password_hash

from ..language.i18n import same_site_path
from ..services import grants
from ..services.pins import organiser_password_in

limiter = Limiter(key_func=get_remote_address, strategy="moving-window")

GAME, DIRECTOR, ORGANISER = grants.GAME, grants.DIRECTOR, grants.ORGANISER
JUDGE, HEAD_JUDGE = grants.JUDGE, grants.HEAD_JUDGE
DEFAULTS = {
    "UNLOCK_MINUTES": 240,
    # wrong PINs or passwords before further attempts are refused for the rest of the window: per device (every
    # PIN and password form together), and per table (several devices together); a device that is refused
    # waits, the director can still open a table from the director's page
    "PIN_FAILURES_PER_DEVICE": "5 per 15 minutes",
    "PIN_FAILURES_PER_TARGET": "10 per 15 minutes",
    # wrong director's PINs for one tournament, and wrong organiser passwords, from every device together: past
    # either that secret is refused until the window has passed or a new one is set on the server
    "DIRECTOR_PIN_FAILURES": "20 per 15 minutes",
    # wrong judges' PINs for one tournament (the judges' and the head judge's together), from every device together:
    # past it the judges' PINs are refused until the window has passed or the director makes a new one
    "JUDGE_PIN_FAILURES": "20 per 15 minutes",
    "ORGANISER_PASSWORD_FAILURES": "20 per 15 minutes",
    "RATELIMIT_STORAGE_URI": "memory://",  # per process; several workers: a shared store (redis://...)
    "RATELIMIT_IN_MEMORY_FALLBACK_ENABLED": True,  # a shared store that cannot be reached: counted per process
    "RATELIMIT_HEADERS_ENABLED": False,
}


def flash(notice: dict[str, str]) -> None:
    """A notice for the next page (``kind``: done, refused...; ``message``: its words), kept in the session as the
    dict the templates read."""
    flask_flash(notice)  # type: ignore[arg-type]  # Flask types a message as str; it keeps any JSON value



MAX_GRANTS = 24  # the grants one device's cookie holds at most (the oldest is let go beyond)


def tokens_in(cookie: Mapping[str, object]) -> list[str]:
    """The grant tokens a device's session cookie holds (its unlocks); anything else in their place opens nothing."""
    tokens = cookie.get("grants")
    return [t for t in tokens if isinstance(t, str) and len(t) <= 100][:MAX_GRANTS] if isinstance(tokens, list) else []


def grants_of(cookie: Mapping[str, object], connection: Connection | None = None
              ) -> tuple[list[grants.Grant], datetime, list[str]]:
    """The grants a device's session cookie names, as the server keeps them, live or not; the moment they are
    judged at (the request's: a grant live at it opens, for the whole request); and the tokens of those live then,
    which are all the cookie keeps.  ``connection``: the one to read through (else the session's)."""
    tokens = tokens_in(cookie)
    return judged(grants.look_up(tokens, connection) if tokens else [])


def judged(found: list[grants.Grant]) -> tuple[list[grants.Grant], datetime, list[str]]:
    """The grants found for a device's cookie (:func:`grants_of`), the moment they are judged at, and the tokens of
    those live then."""
    at = grants.utc(time.time())
    return found, at, [x.token for x in found if x.live(at)]


def _tokens() -> list[str]:
    """The grant tokens this device's cookie holds."""
    return tokens_in(session)


def _grants() -> list[grants.Grant]:
    """The grants this device's cookie names, as the server keeps them (looked up once per request).  Those no longer
    live (locked, expired, or deleted with their game) are dropped from the cookie; a cookie of the time unlocks
    lived in the cookie itself is let go (its unlocks end)."""
    if "grants" not in g:
        found, at, live = _grants_read() or grants_of(session)
        g.grants, g.grants_at = found, at
        if live != session.get("grants", []):
            if live:
                session["grants"] = live
            else:
                session.pop("grants", None)
        session.pop("unlocks", None)
    return g.grants


GRANTS_READ = "referee.poll_grants"  # the WSGI environ's key of the grants a live poll's cookie names, read with the
# page's version before Flask's request (referee.web.polls): (the tokens, the grants they name)


def _grants_read() -> tuple[list[grants.Grant], datetime, list[str]] | None:
    """:func:`grants_of` this device's cookie, as read for this request already (a live poll's, in the statement
    that read its page's version); None: read them."""
    read = request.environ.get(GRANTS_READ)
    return judged(read[1]) if read is not None and read[0] == tokens_in(session) else None


def _live() -> list[grants.Grant]:
    found = _grants()
    return [x for x in found if x.live(g.grants_at)]


def grant(role: str, target: int | None = None) -> None:
    """This device holds ``role`` (for ``target``) until the unlock time has passed, or it is locked: a new grant
    on the server, its token in the device's cookie (an earlier grant of the device for the same ends)."""
    live = _live()
    same = [x.token for x in live if (x.role, x.target) == (role, target)]
    token = grants.open_grant(role, target, grants.device_label(request.user_agent.string),
                              int(current_app.config["UNLOCK_MINUTES"]), same)
    session["grants"] = [x.token for x in live if x.token not in same][-(MAX_GRANTS - 1):] + [token]
    g.pop("grants", None)


def holds(role: str, target: int | None = None) -> bool:
    return any((x.role, x.target) == (role, target) for x in _live())


def any_unlock() -> bool:
    return bool(_tokens()) and bool(_live())


def drop(role: str, target: int | None = None) -> None:
    """This device no longer holds ``role`` for ``target`` (a deleted tournament)."""
    ended = [x.token for x in _live() if (x.role, x.target) == (role, target)]
    if ended:
        grants.revoke(ended)
        session["grants"] = [t for t in _tokens() if t not in ended]
        g.pop("grants", None)


def lock() -> None:
    """"Lock" on this device: every grant its cookie holds ends on the server (a copy of the cookie opens nothing
    after), and the cookie forgets them."""
    grants.revoke(_tokens())
    session.pop("grants", None)
    session.pop("unlocks", None)
    g.pop("grants", None)


def lock_table(tournament_id: int, game_id: int) -> tuple[int, int]:
    """The director locks every tablet of one table; the table's number and how many were open."""
    locked = grants.lock_table(tournament_id, game_id)
    g.pop("grants", None)
    return locked


def lock_tournament(tournament_id: int) -> int:
    """The director locks every tablet of the tournament, the director's other devices too; this one stays open."""
    count = grants.lock_tournament(tournament_id, keep=_tokens())
    g.pop("grants", None)
    return count


def devices(tournament_id: int, unlocked: tuple = ()) -> grants.Devices:
    """The devices unlocked now for the tournament and each of its tables (this one marked); ``unlocked``: its live
    grants as a whole as the page's version read them (:func:`grants.live_count`, :func:`grants.devices_of_tournament`)."""
    return grants.devices_of_tournament(tournament_id, mine=_tokens(), live=unlocked or None)


def _held_before(role: str, target: int | None) -> bool:
    """This device's cookie named a grant of ``role`` for ``target`` that has ended (locked or expired)."""
    return any((x.role, x.target) == (role, target) and not x.live(g.grants_at) for x in _grants())


def _tournament_of(game_id: int) -> int | None:
    """The tournament that seated the game (None: a game of its own), asked once per request."""
    seen = g.setdefault("tournament_of", {})
    if game_id not in seen:
        from ..services import games

        seen[game_id] = games.tournament_of_game(game_id)
    return seen[game_id]


def may_referee(game_id: int) -> bool:
    """This device may record in the game: its referee, or the director of the tournament that seated it (never a
    judge: a judge rules, the table's referee records)."""
    if holds(GAME, game_id):
        return True
    if not any(x.role == DIRECTOR for x in _live()):
        return False
    tournament = _tournament_of(game_id)
    return tournament is not None and holds(DIRECTOR, tournament)


def judge_level(tournament_id: int | None) -> str | None:
    """How this device may rule at the tournament's tables: ``HEAD_JUDGE`` (the head judge's PIN, or the director's,
    who may rule as the head judge), ``JUDGE`` (the judges' PIN), or None."""
    if tournament_id is None:
        return None
    if holds(DIRECTOR, tournament_id) or holds(HEAD_JUDGE, tournament_id):
        return HEAD_JUDGE
    return JUDGE if holds(JUDGE, tournament_id) else None


def deciders_allowed(game_id: int) -> frozenset[str]:
    """Whom this device may record a ruling on the game as: the table's referee (its unlock), a judge (a judge's,
    the head judge's or the director's unlock of the tournament that seated it), the head judge (the head judge's
    or the director's)."""
    allowed = {"referee"} if holds(GAME, game_id) else set()
    level = judge_level(_tournament_of(game_id)) if any(x.role != GAME for x in _live()) else None
    if level is not None:
        allowed.add("judge")
    if level == HEAD_JUDGE:
        allowed.add("head_judge")
    return frozenset(allowed)


def may_judge(game_id: int) -> bool:
    """This device may rule on the game as a judge or the head judge."""
    return "judge" in deciders_allowed(game_id)


def _only_a_judge(tournament_id: int | None, what: str):
    """The answer to a device holding a judge's unlock of the tournament, and not the role an action needs: 403,
    saying what a judge's unlock opens (nothing recorded); None for any other device."""
    if tournament_id is None or judge_level(tournament_id) is None:
        return None
    message = (gettext("a judge's unlock opens this tournament's rulings and calls for a judge, not the table's "
                       "entries of play: nothing was recorded") if what == GAME else
               gettext("a judge's unlock opens this tournament's rulings and calls for a judge, not the director's "
                       "page (seating, time, corrections, locking): nothing was changed"))
    return render_template("error.html", message=message,
                           back=(url_for("judges.calls", tournament_id=tournament_id),
                                 gettext("The calls for a judge"))), 403


def referee_required(view):
    @wraps(view)
    def wrapped(game_id: int, *args, **kwargs):
        if not may_referee(game_id):
            judge = _only_a_judge(_tournament_of(game_id), GAME) if any(x.role != GAME for x in _live()) else None
            if judge is not None:
                return judge
            _said_locked(_held_before(GAME, game_id))
            if request.headers.get("HX-Request"):  # a live poll or a check: the tablet reloads to the PIN screen
                return "", 403, {"HX-Redirect": url_for("table.unlock_form", game_id=game_id)}
            return redirect(url_for("table.unlock_form", game_id=game_id))
        return view(game_id, *args, **kwargs)
    wrapped.needs = GAME  # the role a view needs, as the tests of roles list them
    return wrapped


def _said_locked(held: bool) -> None:
    """A form sent from a tablet whose unlock has ended (or was never given) is not recorded: say so on the PIN
    screen it is sent to.  A tablet that held an unlock here that has ended (it was locked, on it or by the
    director, or its time ran out) is told so once on the PIN screen, as its page or its live poll finds it."""
    if request.method == "POST":
        flash({"kind": "refused", "message": gettext(
            "this tablet is locked (its unlock ended, or it was locked): nothing was recorded; give the PIN, then "
            "tap again")})
    elif held:
        flash({"kind": "refused", "message": gettext(
            "this tablet is locked (its unlock ended, or it was locked): give the PIN to record again")})


def director_required(view):
    @wraps(view)
    def wrapped(tournament_id: int, *args, **kwargs):
        if not holds(DIRECTOR, tournament_id):
            judge = _only_a_judge(tournament_id, DIRECTOR)
            if judge is not None:
                return judge
            _said_locked(_held_before(DIRECTOR, tournament_id))
            if request.headers.get("HX-Request"):
                return "", 403, {"HX-Redirect": url_for("tournaments.unlock_form", tournament_id=tournament_id)}
            return redirect(url_for("tournaments.unlock_form", tournament_id=tournament_id))
        return view(tournament_id, *args, **kwargs)
    wrapped.needs = DIRECTOR
    return wrapped


# --- the organiser password --------------------------------------------------


def organiser_password_hash() -> str | None:
    """The organiser password's hash: ``ORGANISER_PASSWORD_HASH`` in the config, else the file
    ``ORGANISER_PASSWORD_FILE`` names (instance/organiser_password when the app runs from its instance; a test
    app reads none unless told)."""
    configured = current_app.config.get("ORGANISER_PASSWORD_HASH")
    if configured:
        return configured
    name = current_app.config.get("ORGANISER_PASSWORD_FILE")
    return organiser_password_in(Path(name) if name else None)


def creation_open() -> bool:
    """Games and tournaments may be created from this device: no organiser password, or it was given."""
    return organiser_password_hash() is None or holds(ORGANISER)


def check_organiser(password: str) -> bool:
    stored = organiser_password_hash()
    return stored is not None and check_password_hash(stored, password)


def organiser_required(view):
    @wraps(view)
    def wrapped(*args, **kwargs):
        if not creation_open():
            flash({"kind": "refused", "message": gettext(
                "creating games and tournaments needs the organiser password on this tablet")})
            back = same_site_path(request.referrer) if request.method == "POST" else request.path
            return redirect(url_for("games.organiser_form", next=back)), 303
        return view(*args, **kwargs)
    return wrapped


# --- guessing ---------------------------------------------------------------


def _failed(response) -> bool:
    return response.status_code == 403


def _game_key() -> str:
    return f"game-{(request.view_args or {}).get('game_id')}"


def _mark(stored_hash: str | None) -> str:
    """A short mark of a secret's stored hash: a count keyed by it starts afresh once the secret is changed."""
    return hashlib.sha256((stored_hash or "").encode()).hexdigest()[:16]


def _director_key_of(tournament_id: int | None) -> str:
    from ..services import tournaments

    return f"director-{tournament_id}-{_mark(tournaments.director_pin_hash(tournament_id))}"


def _director_key() -> str:
    return _director_key_of((request.view_args or {}).get("tournament_id"))


def _director_cap(tournament_id: int):
    """The director's-PIN cap of a tournament as the limiter counts it: its limit, and the count's identifiers (the
    same as the director's form's: one count for every form where the director's PIN may be typed)."""
    return parse(current_app.config[CAPS[DIRECTOR][0]]), (_director_key_of(tournament_id), CAPS[DIRECTOR][2])


def director_pin_may_be_tried(tournament_id: int) -> bool:
    """Whether the director's PIN may still be tried (its cap not reached): a table's PIN form, which takes the
    director's PIN too, checks it only then, and still takes the table's own PIN."""
    if not limiter.enabled:
        return True
    item, keys = _director_cap(tournament_id)
    return limiter.limiter.test(item, *keys)


def count_director_guess(tournament_id: int) -> None:
    """A wrong PIN at a table's form is a wrong director's PIN too: counted against the tournament's cap, so a crowd
    cannot guess the director's PIN table by table, beyond the cap."""
    if limiter.enabled:
        item, keys = _director_cap(tournament_id)
        limiter.limiter.hit(item, *keys)


def _organiser_key() -> str:
    return f"organiser-{_mark(organiser_password_hash())}"


def _judge_key() -> str:
    from ..services import judges

    tournament_id = (request.view_args or {}).get("tournament_id")
    return f"judge-{tournament_id}-{_mark(judges.pins_mark(tournament_id))}"


CAPS = {  # a secret guessed from every device together: its limit's setting, its count's key, its scope
    DIRECTOR: ("DIRECTOR_PIN_FAILURES", _director_key, "pin-director"),
    ORGANISER: ("ORGANISER_PASSWORD_FAILURES", _organiser_key, "password-organiser"),
    JUDGE: ("JUDGE_PIN_FAILURES", _judge_key, "pin-judge"),
}


def _limit_of(setting: str):
    return lambda: current_app.config[setting]


THROTTLED: set = set()  # the views :func:`throttled` limits (the functions the app's routes call)


def throttled(view=None, *, per_game: bool = False, cap: str | None = None):
    """Wrong secrets (answered 403) are counted per device across every PIN and password form (one shared
    count); with ``per_game`` per table too, and with ``cap`` (DIRECTOR, JUDGE, ORGANISER) per secret (the
    director's PIN of this tournament, its judges' PINs, the organiser password), each from every device together: past any limit the attempt is
    refused (429) before the secret is even checked.  A crowd of devices thus guesses a table's PIN, the director's
    or the organiser's a limited number of times per window; a locked-out table is opened from the director's
    page, and a new director's PIN or organiser password set on the server (``referee director-pin``,
    ``referee organiser-password``) is counted afresh at once (the count is kept per stored secret)."""
    def decorate(view):
        wrapped = limiter.shared_limit(_limit_of("PIN_FAILURES_PER_DEVICE"), scope="pin-device",
                                       deduct_when=_failed, methods=["POST"])(view)
        if per_game:
            wrapped = limiter.limit(_limit_of("PIN_FAILURES_PER_TARGET"), key_func=_game_key,
                                    deduct_when=_failed, methods=["POST"], scope="pin-game")(wrapped)
        if cap is not None:
            setting, key, scope = CAPS[cap]  # shared: a table's form counts wrong director's PINs too
            wrapped = limiter.shared_limit(_limit_of(setting), key_func=key, deduct_when=_failed, methods=["POST"],
                                           scope=scope)(wrapped)
        THROTTLED.add(wrapped)
        return wrapped
    return decorate(view) if view is not None else decorate


def _too_many(error: RateLimitExceeded):
    item = error.limit.limit
    minutes = max(1, -(-item.get_expiry() // 60))
    if error.limit.scope == CAPS[DIRECTOR][2]:
        message = gettext("%(count)s wrong PINs for this tournament's director within %(n)s minutes, from every "
                          "device together: the director's PIN is refused for up to %(n)s minutes, right or wrong; "
                          "whoever runs the server can set a new director's PIN (the command referee director-pin), "
                          "which opens this page at once", count=item.amount, n=minutes)
    elif error.limit.scope == CAPS[JUDGE][2]:
        message = gettext("%(count)s wrong judges' PINs for this tournament within %(n)s minutes, from every device "
                          "together: the judges' PINs are refused for up to %(n)s minutes, right or wrong; the "
                          "director can make a new judges' PIN on the director's page, which is taken at once",
                          count=item.amount, n=minutes)
    elif error.limit.scope == CAPS[ORGANISER][2]:
        message = gettext("%(count)s wrong organiser passwords within %(n)s minutes, from every device together: the "
                          "organiser password is refused for up to %(n)s minutes, right or wrong; whoever runs the "
                          "server can set a new one (the command referee organiser-password), which is taken at "
                          "once", count=item.amount, n=minutes)
    elif (request.view_args or {}).get("game_id") is not None:
        message = gettext("too many wrong PINs: unlocking here is refused for up to %(n)s minutes, right PIN or "
                          "wrong; the director can still open this table from the director's page", n=minutes)
    else:
        message = gettext("too many wrong PINs or passwords from this device: it is refused for up to %(n)s "
                          "minutes, right or wrong; try again later, or from another device", n=minutes)
    return render_template("error.html", message=message), 429


def worker_processes() -> int:
    """How many worker processes serve the app, as far as can be told: gunicorn's ``-w`` (read from the gunicorn
    worker or arbiter that is loading the app: its ``cfg.workers``), else 1 (``referee serve``: one worker
    process whose threads share its counts)."""
    import sys
    from types import FrameType

    frame: FrameType | None = sys._getframe(1)
    while frame is not None:
        owner = frame.f_locals.get("self")
        if type(owner).__module__.startswith("gunicorn."):
            workers = getattr(getattr(owner, "cfg", None), "workers", None)
            if isinstance(workers, int):
                return workers
        frame = frame.f_back
    return 1


WORKER_PROCESSES = "referee.worker_processes"  # the app's extension: :func:`worker_processes`, told at start-up


def _warn_if_counts_are_split(app: Flask, workers: int) -> None:
    """Several worker processes each counting wrong secrets in their own memory multiply the tries a guesser
    gets: said once at start-up, with the remedy."""
    uri = str(app.config.get("RATELIMIT_STORAGE_URI") or "memory://")
    if uri.startswith("memory://") and workers > 1:
        app.logger.warning(
            "referee: %s worker processes each count wrong PINs and passwords in their own memory, so a guesser "
            "gets up to %s times the tries (PIN_FAILURES_PER_DEVICE and the others are per process); point "
            "RATELIMIT_STORAGE_URI at a store they share, e.g. redis://localhost:6379/0, or run one process "
            "(referee serve)", workers, workers)


def init_app(app: Flask) -> None:
    for name, value in DEFAULTS.items():
        app.config.setdefault(name, value)
    limiter.init_app(app)
    app.extensions[WORKER_PROCESSES] = worker_processes()  # (what a process keeps for a device's next request)
    _warn_if_counts_are_split(app, app.extensions[WORKER_PROCESSES])
    app.register_error_handler(RateLimitExceeded, _too_many)
    app.jinja_env.globals["tablet_unlocked"] = any_unlock
    app.jinja_env.globals["creation_open"] = creation_open


@limiter.request_filter
def _not_a_form() -> bool:
    """Only the forms that take a secret (POST to a view :func:`throttled` limits) are limited: every limit counts
    wrong secrets posted, and a page asked for (a table screen, a poll each second) or another form (a table's tap,
    the commonest form of all) skips the limiter's look-up."""
    return request.method != "POST" or current_app.view_functions.get(request.endpoint or "") not in THROTTLED
