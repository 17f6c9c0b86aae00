"""A tournament's own regulations (大会規定): the options of the ruleset a tournament may set for every table, of what
kind and to which values, and the check of a tournament's regulations against the ruleset it plays.

JMA 補足ルール「総則」: 大会などにおいて、モノポリーのゲーム性を大きく損わない範囲で、この規定以外のルールを設けることが
できます。大会規定により設けられたルールは本書記載のルールより優先します。  The rulesets' notes name what a tournament
sets (rulesets/*.toml): the fines for a breach at the table, which JMA's 審判 lets the referee impose without naming
an amount; two deeds dealt at the start; no trades before anyone passes GO; equal turns after time is called
(championship practice); a larger bank where the ruleset's bank is limited (the German simplified rules).

:data:`REGULATIONS` is the one list of them: the new-tournament form shows a field for each, a format's ``options``
name only these, the check below holds a tournament's values to them, and the pages say those in force.  The values
set are the game header's options of every table seated (``with_options``)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from ..engine import MAX_AMOUNT, Many, NotWhole, OptionName, OptionValue, Ruleset, Sum, clip, whole_number
from .messages import BadTournament

SWITCH = "switch"  # a box ticked or not: ticked, the option takes ``on``; else the ruleset's own value
FINE = "fine"  # an amount of the ruleset's money, from 0 (no fine) to a player's starting cash
BANK = "bank"  # the bank's money, a whole amount, only where the ruleset's bank is limited

DIGITS = 15  # a typed amount is read as a number only when it has at most this many digits (else it is refused)


@dataclass(frozen=True, slots=True)
class Regulation:
    """An option of the ruleset a tournament sets, its kind (:data:`SWITCH`, :data:`FINE`, :data:`BANK`) and, for a
    switch, the value a tick sets."""

    option: str
    kind: str
    on: Any = None

    def least(self) -> int:
        """The smallest amount (a fine of 0 is none; a bank of 0 would be one without a limit, not a regulation)."""
        return 1 if self.kind == BANK else 0

    def most(self, ruleset: Ruleset) -> int:
        """The largest amount under ``ruleset``: a fine, a player's starting cash; a bank, the largest amount a
        record holds (0: not set under this ruleset, whose bank has no limit)."""
        if self.kind == FINE:
            return ruleset.money.start_cash
        return MAX_AMOUNT if ruleset.options.bank_money else 0


REGULATIONS: tuple[Regulation, ...] = (
    Regulation("dealt_deeds", SWITCH, 2),
    Regulation("trades_before_first_go", SWITCH, False),
    Regulation("after_time_called", SWITCH, "equal_turns"),
    Regulation("penalty_play_in_another_turn", FINE),
    Regulation("penalty_out_of_turn_move", FINE),
    Regulation("penalty_dice_off_table", FINE),
    Regulation("bank_money", BANK),
)
BY_OPTION = {r.option: r for r in REGULATIONS}


def unknown(options: Iterable[str]) -> list[str]:
    """The options named that are no regulation a tournament sets (a format file's, a forged form's)."""
    return [name for name in options if name not in BY_OPTION]


def read(typed: Mapping[str, str]) -> dict[str, Any]:
    """The regulations as typed on the new-tournament form (option: text): a switch's tick ("1") its value, an
    amount's digits the number; an empty field sets nothing (the ruleset's own), and anything else is kept as it was
    typed, for :func:`check` to refuse naming the limit."""
    values: dict[str, Any] = {}
    for option, text in typed.items():
        text = text.strip()
        regulation = BY_OPTION.get(option)
        if not text:
            continue
        if regulation is not None and regulation.kind == SWITCH:
            values[option] = regulation.on if text == "1" else text
        elif regulation is not None:
            try:
                values[option] = whole_number(option, text, 0, 10**DIGITS - 1)
            except NotWhole:
                values[option] = text
        else:
            values[option] = text
    return values


def check(ruleset: Ruleset, options: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` if each is a regulation a tournament sets, to a value it allows under ``ruleset``; else
    :class:`BadTournament` naming the option, the limit and the value given (nothing is created)."""
    names = unknown(options)
    if names:
        raise BadTournament.of("{option} is not a rule a tournament's regulations set (they set: {options})",
                               {"option": clip(str(names[0]), 60),
                                "options": Many(tuple(OptionName(r.option) for r in REGULATIONS))})
    for option, value in options.items():
        regulation = BY_OPTION[option]
        given = value if isinstance(value, str) else repr(value)
        if regulation.kind == SWITCH:
            if value != regulation.on or type(value) is not type(regulation.on):
                raise BadTournament.of("{option}: a tournament's regulations set it to {value} (a box ticked or "
                                       "not), got {given}",
                                       {"option": OptionName(option), "value": OptionValue(option, regulation.on),
                                        "given": given})
            continue
        least, most = regulation.least(), regulation.most(ruleset)
        if not most:
            raise BadTournament.of("{option}: set only where the ruleset's bank has a limit (this ruleset's bank "
                                   "never runs out), got {given}", {"option": OptionName(option), "given": given})
        if not isinstance(value, int) or isinstance(value, bool) or not least <= value <= most:
            limits = {"option": OptionName(option), "least": Sum(least, ruleset.money),
                      "most": Sum(most, ruleset.money), "given": given}
            if regulation.kind == FINE:
                raise BadTournament.of("{option} must be a whole amount from {least} (no fine) to {most} (a player's "
                                       "starting cash), got {given}", limits)
            raise BadTournament.of("{option} must be a whole amount from {least} to {most}, got {given}", limits)
    return dict(options)


def in_force(options: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
    """The regulations a tournament's options (or a seated game's header) set, as (option, value) in the order of
    :data:`REGULATIONS` (the options that are no regulation left out)."""
    return tuple((r.option, options[r.option]) for r in REGULATIONS if r.option in options)
