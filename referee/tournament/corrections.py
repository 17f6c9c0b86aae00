"""The director's correction of a finished table's result: the places and assets they give, checked against the
way the rules rank a game, and the withdrawal of a mistaken correction.

Pure rules: :func:`corrected_result` returns the result a correction keeps (in the shape of a game's kept result,
so the standings read it as they read any other), or raises :class:`BadTournament` naming what is wrong.  The
ranking a correction gives must be one the rules could have made (JMA 補足ルール「勝負の決め方」, as the engine
ranks a finished game): players left standing by total assets, higher first; bankrupt players below all of them;
players level on that count ranked by a roll-off, so no two players share a place.

Corrections are rows that are only ever added: a withdrawal is a later row naming the correction it withdraws, and
:func:`in_force` says which correction then stands (the last one not withdrawn; none: the game's own result).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Collection, Mapping, Sequence

from ..engine import NotWhole, whole_number
from .messages import BadTournament, check_text

MAX_REASON = 300
MAX_ASSETS = 10 ** 9


def _whole(value: object, low: int, high: int) -> int | None:
    try:
        return whole_number("value", value, low, high, text=False)
    except NotWhole:
        return None


BY_ASSETS, BY_BANKRUPTCY, BY_ROLLOFF, BY_MONOPOLY = "assets", "bankrupt", "rolloff", "monopoly"
BY = (BY_ASSETS, BY_BANKRUPTCY, BY_ROLLOFF, BY_MONOPOLY)  # the rule that ranked a player at their place


def corrected_result(names: Sequence[str], given_places: Mapping[str, object], given_assets: Mapping[str, object],
                     bankrupt: Collection[str], monopoly: bool, reason: str) -> dict:
    """The result a correction of a table of ``names`` keeps: each player's place (1 is first, each place once),
    total assets and whether they went bankrupt, whether it was a monopoly win, and why.  Refused, naming the
    rule, where the places do not follow from the totals as the rules rank them (``given_places`` and
    ``given_assets``: the values as the form gave them, None where one was not a number)."""
    if sorted(given_places) != sorted(names) or sorted(given_assets) != sorted(names) or not set(bankrupt) <= set(names):
        raise BadTournament.of("a correction gives a place and assets for each player of the table, and no one "
                               "else", {})
    places: dict[str, int] = {}
    assets: dict[str, int] = {}
    for name in names:
        if (place := _whole(given_places[name], 1, len(names))) is None:
            raise BadTournament.of("{name}'s place must be from 1 to {n}", {"name": name, "n": len(names)})
        if (total := _whole(given_assets[name], 0, MAX_ASSETS)) is None:
            raise BadTournament.of("{name}'s assets must be a whole amount from 0 to {max}",
                                   {"name": name, "max": MAX_ASSETS})
        places[name], assets[name] = place, total
    reason = (reason or "").strip()
    if not reason:
        raise BadTournament.of("a correction needs its reason, for the record", {})
    check_text("reason", reason, MAX_REASON)
    order = sorted(names, key=lambda n: places[n])
    for ahead, behind in zip(order, order[1:]):
        if places[ahead] == places[behind]:
            raise BadTournament.of("{name} and {other} are both given place {place}: players level on the rules' "
                                   "count are ranked by a roll-off, so no two players share a place",
                                   {"name": ahead, "other": behind, "place": places[ahead]})
    for name in bankrupt:
        if assets[name]:
            raise BadTournament.of("{name} is marked bankrupt with assets: a bankrupt player's assets count 0",
                                   {"name": name})
    standing = [n for n in order if n not in bankrupt]
    for ahead, behind in zip(order, order[1:]):
        if ahead in bankrupt and behind not in bankrupt:
            raise BadTournament.of("{name}, bankrupt, is placed above {other}, who was not: bankrupt players rank "
                                   "below every player left standing", {"name": ahead, "other": behind})
    for ahead, behind in zip(standing, standing[1:]):
        if assets[ahead] < assets[behind]:
            raise BadTournament.of("{name} is placed above {other} with less in total assets: players left "
                                   "standing are ranked by total assets, the higher first",
                                   {"name": ahead, "other": behind})
    if monopoly and len(standing) != 1:
        raise BadTournament.of("a monopoly win leaves one player standing: every other player is bankrupt", {})
    gone = [n for n in reversed(order) if n in bankrupt]  # the lowest place went bankrupt first

    def by(name: str) -> str:
        if name in bankrupt:
            return BY_BANKRUPTCY
        if monopoly:
            return BY_MONOPOLY
        level = sum(1 for n in standing if assets[n] == assets[name])
        return BY_ROLLOFF if level > 1 else BY_ASSETS

    return {"reason": "monopoly" if monopoly else "corrected", "ranking": [
        {"rank": places[n], "name": n, "total": assets[n],
         "bankrupt_order": gone.index(n) + 1 if n in bankrupt else 0, "by": by(n)} for n in order]}


def ranked_by(player: dict, monopoly: bool) -> str:
    """The rule that ranked a player of a kept result (one of :data:`BY`); results kept before the rule was kept
    with them say it from the bankruptcy and how the game ended."""
    if player.get("by") in BY:
        return player["by"]
    if player.get("bankrupt_order"):
        return BY_BANKRUPTCY
    return BY_MONOPOLY if monopoly and player["rank"] == 1 else BY_ASSETS


def ranked_places(result: dict) -> tuple[tuple[int, str, int, str], ...]:
    """A kept result's ranking as the pages list it: each player's place, name, total assets and the rule that
    ranked them there (one of :data:`BY`)."""
    monopoly = result.get("reason") == "monopoly"
    return tuple((p["rank"], p["name"], p["total"], ranked_by(p, monopoly)) for p in result["ranking"])


@dataclass(frozen=True)
class Kept:
    """One row of a table's corrections, oldest first: a correction, or the withdrawal of one (``withdraws``)."""

    id: int
    withdraws: int | None = None


def withdrawn(rows: Sequence[Kept]) -> set[int]:
    """The corrections a later row withdrew."""
    return {r.withdraws for r in rows if r.withdraws is not None}


def in_force(rows: Sequence[Kept]) -> int | None:
    """The correction that stands: the last one not withdrawn (None: the game's own result stands)."""
    out = withdrawn(rows)
    return next((r.id for r in reversed(rows) if r.withdraws is None and r.id not in out), None)


def number_of(rows: Sequence[Kept], correction: int) -> int:
    """A correction's number at its table, as the director reads it (1 for the first correction)."""
    return 1 + [r.id for r in rows if r.withdraws is None].index(correction)


def check_withdrawal(rows: Sequence[Kept], correction: int, reason: str) -> str:
    """The reason kept with the withdrawal of ``correction`` (a row id of this table), or refused naming why."""
    found = next((r for r in rows if r.id == correction), None)
    if found is None:
        raise BadTournament.of("this table has no such correction to withdraw: nothing was changed", {})
    if found.withdraws is not None:
        raise BadTournament.of("a withdrawal stays on the record: to change the result again, correct it", {})
    if correction in withdrawn(rows):
        raise BadTournament.of("correction {n} of this table is already withdrawn",
                               {"n": number_of(rows, correction)})
    reason = (reason or "").strip()
    if not reason:
        raise BadTournament.of("a withdrawal needs its reason, for the record", {})
    check_text("reason", reason, MAX_REASON)
    return reason
