"""The director's correction of a finished table's result: the places and assets they give, checked.

Pure rules: :func:`corrected_result` returns the result a correction keeps (in the shape of a game's kept result,
so the standings read it as they read any other), or raises :class:`BadTournament` naming what is wrong.
"""
from __future__ import annotations

from typing import Mapping, Sequence

from .messages import BadTournament, check_text

MAX_REASON = 300
MAX_ASSETS = 10 ** 9


def _whole(value: object, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def corrected_result(names: Sequence[str], places: Mapping[str, int], assets: Mapping[str, int], monopoly: bool,
                     reason: str) -> dict:
    """The result a correction of a table of ``names`` keeps: each player's place (1 is first; equal places
    allowed where they make a ranking) and assets, whether it was a monopoly win, and why."""
    if sorted(places) != sorted(names) or sorted(assets) != sorted(names):
        raise BadTournament.of("a correction gives a place and assets for each player of the table, and no one "
                               "else", {})
    for name in names:
        if not _whole(places[name], 1, len(names)):
            raise BadTournament.of("{name}'s place must be from 1 to {n}", {"name": name, "n": len(names)})
        if not _whole(assets[name], 0, MAX_ASSETS):
            raise BadTournament.of("{name}'s assets must be a whole amount from 0 to {max}",
                                   {"name": name, "max": MAX_ASSETS})
    for name in names:  # a place is taken by as many as share it: 1, 1, 3, 4 but not 1, 1, 2, 4
        ahead = sum(1 for n in names if places[n] < places[name])
        if ahead != places[name] - 1:
            raise BadTournament.of("the places do not make a ranking: {name} is {place}, with {ahead} ahead",
                                   {"name": name, "place": places[name], "ahead": ahead})
    reason = (reason or "").strip()
    if not reason:
        raise BadTournament.of("a correction needs its reason, for the record", {})
    check_text("reason", reason, MAX_REASON)
    if monopoly and sorted(places.values()).count(1) != 1:
        raise BadTournament.of("a monopoly win has one winner", {})
    ranking = sorted(names, key=lambda n: (places[n], -assets[n]))
    return {"reason": "monopoly" if monopoly else "corrected", "ranking": [
        {"rank": places[n], "name": n, "total": assets[n], "bankrupt_order": None} for n in ranking]}
