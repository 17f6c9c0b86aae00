"""What a table-screen form says: the entry its buttons and fields describe (a JSON template the screen drew, plus the
values a button or field adds), and the entry a button adds after it.  Read the same wherever the form is sent: by
the server from a request's form, by a tablet from the form it took while the server could not be reached (a
mapping with ``get``, ``getlist``, ``items`` and ``[]``, as a request's form)."""
from __future__ import annotations

import json
from typing import Any, Collection, Mapping

from ..engine import json_whole, whole_field
from ..language import gettext as _


MAX_MINUTES = 600  # a game's time limit, a tournament round's minutes: ten hours at most


def names_of(text: str) -> list[str]:
    """The players a new game's form names: one per line, in seat order (blank lines left out)."""
    return [line.strip() for line in text.splitlines() if line.strip()]


def option_overrides(ruleset_id: str, chosen: Collection[str], rules: Mapping[str, Any]) -> dict[str, Any]:
    """The new-game form's switches of a ruleset's house rules and variants (``chosen``: the ticked ones, as
    "RULESET:OPTION"; ``rules``: the ruleset's, by option) turned from the file's way into the game's header options:
    a house rule switched off set to its value without it, a variant switched on to its value with it."""
    out = {}
    for option, rule in rules.items():
        on = f"{ruleset_id}:{option}" in chosen
        if on != rule.default_on:
            out[option] = rule.on if on else rule.off
    return out


# The fields a table-screen button or field sets on the entry its form carries.
OVERRIDES = ("amount", "card", "square", "choice", "count", "partner", "note")


def entry_from_form(form) -> tuple[dict, int]:
    """The entry a table-screen form describes, and the number of entries its screen showed: a JSON template plus
    the values its buttons and fields add (KeyError, ValueError, TypeError or RecursionError when the form is not
    one the table screen makes; a refusal naming the field and the limit when a number is not a whole number an
    entry may carry, each read only once its length is bounded)."""
    seq = whole_field("seq", form["seq"])
    data = json.loads(form.get("entry", "{}"), parse_int=json_whole)
    if not isinstance(data, dict):
        raise ValueError("entry is not an object")
    if form.get("dice"):
        data["dice"] = [whole_field("dice", x, 1) for x in form["dice"].split(",")[:3]]
    for key in OVERRIDES:
        value = form.get(key, "").strip()
        if value:
            data[key] = whole_field(key, value) if key in ("amount", "count") else value
    if form.getlist("players"):
        data["players"] = form.getlist("players")
    if form.getlist("deeds"):
        data["deeds"] = form.getlist("deeds")
    targets = {k.removeprefix("level-"): v for k, v in form.items() if k.startswith("level-") and v != ""}
    if targets:
        data["targets"] = {sq: v if v == "hotel" else whole_field(f"targets.{sq}", v) for sq, v in targets.items()}
    for side in ("give", "take"):
        offer = {}
        cash = form.get(f"{side}-cash", "").strip()
        if cash and cash != "0":
            offer["cash"] = whole_field(f"{side}.cash", cash)
        if form.getlist(f"{side}-deeds"):
            offer["deeds"] = form.getlist(f"{side}-deeds")
        if form.getlist(f"{side}-cards"):
            offer["cards"] = form.getlist(f"{side}-cards")
        if data.get("type") == "trade":
            data[side] = offer
    return data, seq


def following_entry(form) -> dict | None:
    """The entry a button adds after the form's own (``then``: the opening bid after a decline), or None; ValueError
    (or RecursionError) when it is not one the table screen makes, a refusal when a number in it is too long."""
    if not form.get("then"):
        return None
    then = json.loads(form["then"], parse_int=json_whole)
    if not isinstance(then, dict):
        raise ValueError("not an entry")
    return then


def not_a_table_form() -> dict[str, str]:
    """The message of a form that is not one the table screen makes (a field missing, a value of another shape)."""
    return {"kind": "refused", "message": _("this form is not one the table screen makes: nothing was recorded")}
