"""Who may do what on a venue network that players and spectators share.

Three roles, each opened on one device (its session cookie) by a secret, each for a limited time:

- a **table referee** opens one game with that game's PIN (a tournament's table has a PIN of its own, printed
  on its slip and shown on the director's page) and may record in that game only;
- the **director** opens a tournament with the director's PIN: its page, seating and calling time, and every
  table of that tournament;
- the **organiser** opens the creation of games and tournaments with the organiser password, when one is set
  (``instance/organiser_password``, written by ``referee organiser-password``); without one, anyone who
  reaches the app may create them, as a home game expects.

The spectators' display, the standings and the results need nothing and record nothing.

An unlock ends ``UNLOCK_MINUTES`` after it was given (``instance/config.py``; 240 by default: a long round
and its final) or when the tablet is locked with "Lock this tablet".  Wrong secrets are counted by
Flask-Limiter, per device and per game or tournament; past the limit every attempt is refused, right or wrong,
until the window has passed (``PIN_FAILURES_PER_DEVICE``, ``PIN_FAILURES_PER_TARGET``).
"""
from __future__ import annotations

import time
from functools import wraps
from pathlib import Path

from flask import Flask, current_app, flash, redirect, render_template, request, session, url_for
from flask_babel import gettext
from flask_limiter import Limiter
from flask_limiter.errors import RateLimitExceeded
from flask_limiter.util import get_remote_address
from werkzeug.security import check_password_hash, generate_password_hash

limiter = Limiter(key_func=get_remote_address, strategy="moving-window")

GAME, DIRECTOR, ORGANISER = "game", "director", "organiser"
DEFAULTS = {
    "UNLOCK_MINUTES": 240,
    # wrong PINs or passwords before further attempts are refused for the rest of the window: per device, and per
    # game or tournament (several devices together); a device that is refused waits, the director can still
    # open a table from the director's page
    "PIN_FAILURES_PER_DEVICE": "5 per 15 minutes",
    "PIN_FAILURES_PER_TARGET": "10 per 15 minutes",
    "RATELIMIT_STORAGE_URI": "memory://",  # per process; several workers: a shared store (redis://...)
    "RATELIMIT_HEADERS_ENABLED": False,
}
PASSWORD_FILE = "organiser_password"
ORGANISER_PASSWORD_MIN = 8


def _key(role: str, target: int | None = None) -> str:
    return role if target is None else f"{role}:{target}"


def _unlocks() -> dict:
    unlocks = session.get("unlocks")
    return unlocks if isinstance(unlocks, dict) else {}


def grant(role: str, target: int | None = None) -> None:
    """This device holds ``role`` (for ``target``) until the unlock time has passed."""
    now = time.time()
    unlocks = {k: v for k, v in _unlocks().items() if isinstance(v, (int, float)) and v > now}
    unlocks[_key(role, target)] = int(now + 60 * current_app.config["UNLOCK_MINUTES"])
    session["unlocks"] = unlocks


def holds(role: str, target: int | None = None) -> bool:
    until = _unlocks().get(_key(role, target))
    return isinstance(until, (int, float)) and until > time.time()


def any_unlock() -> bool:
    now = time.time()
    return any(isinstance(v, (int, float)) and v > now for v in _unlocks().values())


def drop(role: str, target: int | None = None) -> None:
    """This device no longer holds ``role`` for ``target`` (a deleted tournament)."""
    unlocks = dict(_unlocks())
    if unlocks.pop(_key(role, target), None) is not None:
        session["unlocks"] = unlocks


def lock() -> None:
    session.pop("unlocks", None)


def may_referee(game_id: int) -> bool:
    """This device may record in the game: its referee, or the director of the tournament that seated it."""
    if holds(GAME, game_id):
        return True
    if not any(k.startswith(DIRECTOR + ":") for k in _unlocks()):
        return False
    from . import service

    tournament = service.tournament_of_game(game_id)
    return tournament is not None and holds(DIRECTOR, tournament)


def referee_required(view):
    @wraps(view)
    def wrapped(game_id: int, *args, **kwargs):
        if not may_referee(game_id):
            if request.headers.get("HX-Request"):  # a live poll or a check: the tablet reloads to the PIN screen
                return "", 403, {"HX-Redirect": url_for("table.unlock_form", game_id=game_id)}
            return redirect(url_for("table.unlock_form", game_id=game_id))
        return view(game_id, *args, **kwargs)
    return wrapped


def director_required(view):
    @wraps(view)
    def wrapped(tournament_id: int, *args, **kwargs):
        if not holds(DIRECTOR, tournament_id):
            if request.headers.get("HX-Request"):
                return "", 403, {"HX-Redirect": url_for("tournaments.unlock_form", tournament_id=tournament_id)}
            return redirect(url_for("tournaments.unlock_form", tournament_id=tournament_id))
        return view(tournament_id, *args, **kwargs)
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
    path = Path(name) if name else None
    return (path.read_text().strip() or None) if path is not None and path.is_file() else None


def creation_open() -> bool:
    """Games and tournaments may be created from this device: no organiser password, or it was given."""
    return organiser_password_hash() is None or holds(ORGANISER)


def check_organiser(password: str) -> bool:
    stored = organiser_password_hash()
    return stored is not None and check_password_hash(stored, password)


def write_organiser_password(instance: Path, password: str) -> Path:
    path = instance / PASSWORD_FILE
    path.write_text(generate_password_hash(password) + "\n")
    path.chmod(0o600)
    return path


def organiser_required(view):
    @wraps(view)
    def wrapped(*args, **kwargs):
        if not creation_open():
            flash({"kind": "refused", "message": gettext(
                "creating games and tournaments needs the organiser password on this tablet")})
            return redirect(url_for("games.organiser_form", next=request.path)), 303
        return view(*args, **kwargs)
    return wrapped


# --- guessing ---------------------------------------------------------------


def _failed(response) -> bool:
    return response.status_code == 403


def _target_key() -> str:
    args = request.view_args or {}
    if "game_id" in args:
        return f"game-{args['game_id']}"
    if "tournament_id" in args:
        return f"tournament-{args['tournament_id']}"
    return "organiser"


def throttled(view):
    """Wrong secrets (answered 403) are counted per device and per game or tournament; past either limit the
    attempt is refused (429) before the secret is even checked."""
    per_device = limiter.limit(lambda: current_app.config["PIN_FAILURES_PER_DEVICE"], deduct_when=_failed,
                               methods=["POST"])
    per_target = limiter.limit(lambda: current_app.config["PIN_FAILURES_PER_TARGET"], key_func=_target_key,
                               deduct_when=_failed, methods=["POST"], scope="pin-target")
    return per_device(per_target(view))


def _too_many(error: RateLimitExceeded):
    minutes = max(1, -(-error.limit.limit.get_expiry() // 60))
    message = gettext("too many wrong PINs or passwords: unlocking here is refused for up to %(n)s minutes, right "
                      "PIN or wrong; the director can still open a table from the director's page", n=minutes)
    return render_template("error.html", message=message), 429


def init_app(app: Flask) -> None:
    for name, value in DEFAULTS.items():
        app.config.setdefault(name, value)
    limiter.init_app(app)
    app.register_error_handler(RateLimitExceeded, _too_many)
    app.jinja_env.globals["tablet_unlocked"] = any_unlock
    app.jinja_env.globals["creation_open"] = creation_open
