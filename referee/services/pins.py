"""PINs and passwords typed for a game or a tournament, kept as hashes; a table's own PIN, drawn at seating."""
from __future__ import annotations

import secrets
from pathlib import Path

from werkzeug.security import check_password_hash, generate_password_hash

from ..engine import RefereeError
from .errors import BadGameSetup

PIN_MIN = 6  # a PIN or password typed for a game or a tournament: guessing is throttled, and 6 characters
# leave 10**6 digit PINs against at most a few hundred tries a day (access.PIN_FAILURES_PER_TARGET)
TABLE_PIN_DIGITS = 6  # a tournament table's own PIN, drawn at seating


# A tournament table's own PIN is kept in plain on its table's row (the director's page shows it, its slip prints
# it), so the hash its game keeps of it hides nothing from whoever reads the database: it is made with one round of
# PBKDF2-SHA256 (some microseconds) rather than scrypt's default cost (0.1 CPU-s a hash on a laptop's core: seating
# a round of 64 tables spent over 6 s of one request hashing PINs printed beside them).  It is checked as every
# PIN is (the hash names its method), and guessing it is throttled as before.  A PIN someone types (a game's, a
# director's) is not kept in plain anywhere: scrypt, as werkzeug makes it.
PLAIN_KEPT_PIN_METHOD = "pbkdf2:sha256:1"


def pin_hash(pin: str, error: type[RefereeError] = BadGameSetup, kept_in_plain: bool = False) -> str:
    """The hash kept of a PIN, refused (as ``error``) when it is too short; ``kept_in_plain``: a table's own PIN,
    kept in plain beside it (:data:`PLAIN_KEPT_PIN_METHOD`)."""
    if len(pin) < PIN_MIN:
        raise error.of("the PIN must have at least {n} characters", {"n": PIN_MIN})
    return generate_password_hash(pin, PLAIN_KEPT_PIN_METHOD) if kept_in_plain else generate_password_hash(pin)


def matches(hashed: str | None, pin: str) -> bool:
    return hashed is not None and check_password_hash(hashed, pin)


def table_pin() -> str:
    """A table's own referee PIN: digits, as easy to type on a tablet as to read off the slip."""
    return f"{secrets.randbelow(10 ** TABLE_PIN_DIGITS):0{TABLE_PIN_DIGITS}d}"


# --- the organiser password: its hash in a file of the instance folder ---------------------------------------------

ORGANISER_PASSWORD_FILE = "organiser_password"  # in the instance folder
ORGANISER_PASSWORD_MIN = 8


def write_organiser_password(instance: Path, password: str) -> Path:
    """The organiser password's hash written to the instance folder, readable by its owner only."""
    path = instance / ORGANISER_PASSWORD_FILE
    path.write_text(generate_password_hash(password) + "\n")
    path.chmod(0o600)
    return path


def remove_organiser_password(instance: Path) -> None:
    (instance / ORGANISER_PASSWORD_FILE).unlink(missing_ok=True)


def organiser_password_in(path: Path | None) -> str | None:
    """The organiser password's hash kept in the file ``path`` (None: none kept)."""
    return (path.read_text().strip() or None) if path is not None and path.is_file() else None
