"""The one reading of a whole number the app is given: a form's field, an address's query, a JSON body or record file,
a command-line argument, a setting.  Every layer calls :func:`whole_number` and puts its refusal
(:class:`NotWhole`: the field, the value as given, cut short, and the limits) in its own words.

What it reads, and why:

- text: ASCII digits 0-9 with at most one minus sign first, the spaces around them ignored (a form's field as
  typed).  Not "+5" (no form or record writes a plus sign); "-0" is zero (the same number; ``int`` and JSON read
  it so).  Not full-width "１２" nor any other script's digits, which Python's ``int`` would read: the numbers
  a tablet's number pad sends, the record files and the database hold are ASCII, and a digit that only looks
  like one must not slip into a record.
- its length is bounded before it is read: no more digits than the limits' own, so a 1 MB string of digits is
  refused as too large, never converted (Python refuses to convert more than 4,300 digits, and a float
  comparison of a huge number is wrong).
- a value already read from JSON: an ``int``, never a ``bool`` (JSON's true is no number, though Python's
  ``True == 1``) nor a float (``5.0`` is no whole number as a record writes it), nor text unless the caller
  reads text there (``text=True``: a query string, a form; a JSON field holds a number, not its digits).
"""
from __future__ import annotations

from .phrases import clip

LARGEST = 2**31 - 1  # the largest amount or count an entry may carry: what every database column of a number holds
DIGITS = len(str(LARGEST))  # the most digits a number an entry, a form or an address carries may have


class NotWhole(ValueError):
    """A value that is not a whole number from ``minimum`` to ``maximum``: ``field`` names where it was given,
    ``value`` is it as given, cut short (:func:`~.phrases.clip`), ``given`` the value itself; ``too_large``: digits of a
    number above ``maximum`` (however many), ``too_small``: a whole number below ``minimum``."""

    def __init__(self, field: str, given: object, minimum: int, maximum: int, *, too_large: bool = False,
                 too_small: bool = False) -> None:
        self.field, self.given, self.value = field, given, clip(given if isinstance(given, str) else repr(given))
        self.minimum, self.maximum, self.too_large, self.too_small = minimum, maximum, too_large, too_small
        super().__init__(f"{field} must be a whole number from {minimum} to {maximum}, got {self.value}")


def whole_number(field: str, value: object, minimum: int = 0, maximum: int = LARGEST, *, text: bool = True) -> int:
    """``value`` as a whole number from ``minimum`` to ``maximum`` (the module's docstring says what is read):
    :class:`NotWhole` naming ``field``, the value and the limits otherwise.  ``text``: whether digits in a string
    are read (a form, an address, an argument); without it only an ``int`` is (a value from JSON)."""
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif isinstance(value, str) and text:
        typed = value.strip()
        digits = typed[1:] if typed[:1] == "-" else typed
        if not digits or not digits.isascii() or not digits.isdigit():
            raise NotWhole(field, value, minimum, maximum)
        if len(digits) > len(str(max(abs(minimum), abs(maximum)))):
            raise NotWhole(field, value, minimum, maximum, too_large=digits == typed, too_small=digits != typed)
        number = int(typed)
    else:
        raise NotWhole(field, value, minimum, maximum)
    if number > maximum:
        raise NotWhole(field, value, minimum, maximum, too_large=True)
    if number < minimum:
        raise NotWhole(field, value, minimum, maximum, too_small=True)
    return number


def square_ref(ref: str) -> int | str:
    """A square as a record names it: its index where the name is a whole number (``"5"``, a building's target in
    a JSON object's key), else its id (``"boardwalk"``)."""
    try:
        return whole_number("square", ref, 0, LARGEST)
    except NotWhole:
        return ref
