"""Rulesets, boards and decks read strictly from plain data (dicts, as ``tomllib`` gives them): every table's
keys and every value's kind checked, anything unknown refused with :class:`~.ruleset.RulesetError` naming where it
is; and a ruleset with a game's own option values (:func:`with_options`).  The values it builds are
:mod:`.ruleset`'s; reading the files is :mod:`referee.rulesets`' job.
"""
from __future__ import annotations

import json
from dataclasses import fields, replace
from typing import Any, Mapping

from .ruleset import (CARD_EFFECTS, CLAUSE_KEYS, DECKS, OPTION_SPECS, OPTIONAL_CLAUSE_KEYS, PROPERTY_KINDS,
                      SQUARE_KINDS, Card, CardEffect, Clause, Group, HouseRule, Money, Options, OptionSpec, Ruleset,
                      RulesetError, Square, whole_number)

def check_table(where: str, data: Any, required: tuple[str, ...], optional: tuple[str, ...] = ()) -> dict[str, Any]:
    """``data`` if it is a table with every required key and no key outside required and optional."""
    if not isinstance(data, dict):
        raise RulesetError(f"{where}: expected a table, got {data!r}")
    unknown = sorted(set(data) - set(required) - set(optional))
    if unknown:
        raise RulesetError(f"{where}: unknown key(s) {', '.join(unknown)}")
    missing = [k for k in required if k not in data]
    if missing:
        raise RulesetError(f"{where}: missing key(s) {', '.join(missing)}")
    return data


def _str(where: str, value: Any) -> str:
    if not isinstance(value, str) or not value:
        raise RulesetError(f"{where}: expected a non-empty string, got {value!r}")
    return value


def _names(where: str, value: Any) -> dict[str, str]:
    if not isinstance(value, dict) or not value:
        raise RulesetError(f"{where}: expected a table of texts by language, got {value!r}")
    return {_str(f"{where}.lang", k): _str(f"{where}.{k}", v) for k, v in value.items()}


def _ints(where: str, value: Any, length: int | None = None) -> tuple[int, ...]:
    if not isinstance(value, list) or not value:
        raise RulesetError(f"{where}: expected a list of whole numbers, got {value!r}")
    if length is not None and len(value) != length:
        raise RulesetError(f"{where}: expected {length} numbers, got {len(value)}")
    return tuple(whole_number(f"{where}[{i}]", v) for i, v in enumerate(value))


def parse_board(data: dict[str, Any]) -> tuple[tuple[Square, ...], dict[str, Group]]:
    check_table("board file", data, ("board", "group", "square"))
    check_table("board", data["board"], ("id", "name"), ("source", "terms"))
    group_meta: dict[str, tuple[dict[str, Any], str]] = {}
    for i, g in enumerate(data["group"]):
        check_table(f"group[{i}]", g, ("id", "name", "color"))
        gid = _str(f"group[{i}].id", g["id"])
        if gid in group_meta:
            raise RulesetError(f"group[{i}]: duplicate id {gid!r}")
        group_meta[gid] = (_names(f"group {gid}.name", g["name"]), _str(f"group {gid}.color", g["color"]))
    squares: list[Square] = []
    seen: set[str] = set()
    for i, s in enumerate(data["square"]):
        where = f"square[{i}]"
        kind = _str(f"{where}.kind", s.get("kind") if isinstance(s, dict) else None)
        if kind not in SQUARE_KINDS:
            raise RulesetError(f"{where}.kind: unknown kind {kind!r}")
        if kind == "street":
            check_table(where, s, ("id", "kind", "name", "group", "price", "mortgage", "house_cost", "rent"))
        elif kind == "railroad":
            check_table(where, s, ("id", "kind", "name", "group", "price", "mortgage", "rent"))
        elif kind == "utility":
            check_table(where, s, ("id", "kind", "name", "group", "price", "mortgage", "rent_dice_multipliers"))
        elif kind == "tax":
            check_table(where, s, ("id", "kind", "name", "tax", "amount"))
        else:
            check_table(where, s, ("id", "kind", "name"))
        sid = _str(f"{where}.id", s["id"])
        if sid in seen:
            raise RulesetError(f"{where}: duplicate id {sid!r}")
        seen.add(sid)
        group = s.get("group")
        if group is not None and group not in group_meta:
            raise RulesetError(f"{where}.group: unknown group {group!r}")
        tax = s.get("tax")
        if tax is not None and tax not in ("income", "luxury"):
            raise RulesetError(f"{where}.tax: expected income or luxury, got {tax!r}")
        squares.append(Square(
            index=i, id=sid, kind=kind, name=_names(f"{where}.name", s["name"]), group=group,
            price=whole_number(f"{where}.price", s.get("price", 0)),
            mortgage=whole_number(f"{where}.mortgage", s.get("mortgage", 0)),
            house_cost=whole_number(f"{where}.house_cost", s.get("house_cost", 0)),
            rent=_ints(f"{where}.rent", s["rent"], 6 if kind == "street" else None) if "rent" in s else (),
            dice_multipliers=_ints(f"{where}.rent_dice_multipliers", s["rent_dice_multipliers"])
            if "rent_dice_multipliers" in s else (),
            tax=tax, amount=whole_number(f"{where}.amount", s.get("amount", 0)),
        ))
    for kind in ("go", "jail"):
        if sum(1 for sq in squares if sq.kind == kind) != 1:
            raise RulesetError(f"board: expected exactly one {kind} square")
    if squares[0].kind != "go":
        raise RulesetError("board: square 0 must be GO")
    groups = {
        gid: Group(gid, name, color, tuple(sq.index for sq in squares if sq.group == gid))
        for gid, (name, color) in group_meta.items()
    }
    for gid, g in groups.items():
        if not g.squares:
            raise RulesetError(f"group {gid}: no square belongs to it")
    return tuple(squares), groups


def parse_decks(data: dict[str, Any], squares: tuple[Square, ...]) -> tuple[dict[str, Card], dict[str, tuple[str, ...]]]:
    check_table("decks file", data, ("decks",), DECKS)
    check_table("decks", data["decks"], ("id", "name"), ("source", "terms"))
    by_id = {sq.id: sq.index for sq in squares}
    cards: dict[str, Card] = {}
    decks: dict[str, tuple[str, ...]] = {}
    for deck in DECKS:
        ids = []
        for i, c in enumerate(data.get(deck, [])):
            where = f"{deck}[{i}]"
            check_table(where, c, ("id", "text", "effect"))
            cid = _str(f"{where}.id", c["id"])
            if cid in cards:
                raise RulesetError(f"{where}: duplicate card id {cid!r}")
            e = c["effect"]
            kind = e.get("kind") if isinstance(e, dict) else None
            if kind not in CARD_EFFECTS:
                raise RulesetError(f"{where}.effect.kind: unknown effect {kind!r}")
            optional = ("rent_multiplier", "dice_multiplier") if kind == "advance_to_nearest" else ()
            check_table(f"{where}.effect", e, ("kind",) + CARD_EFFECTS[kind], optional)
            square = None
            if kind == "pay_or_draw" and (e["deck"] not in DECKS or e["deck"] == deck):
                raise RulesetError(f"{where}.effect.deck: expected the other deck, got {e['deck']!r}")
            if kind in ("advance_to", "back_to"):
                if e["square"] not in by_id:
                    raise RulesetError(f"{where}.effect.square: no square {e['square']!r} on the board")
                square = by_id[e["square"]]
            square_kind = e.get("square_kind")
            if kind == "advance_to_nearest" and square_kind not in PROPERTY_KINDS:
                raise RulesetError(f"{where}.effect.square_kind: expected a property kind, got {square_kind!r}")
            cards[cid] = Card(cid, deck, _names(f"{where}.text", c["text"]), CardEffect(
                kind=kind, square=square, square_kind=square_kind,
                rent_multiplier=whole_number(f"{where}.effect.rent_multiplier", e.get("rent_multiplier", 1), 1),
                dice_multiplier=whole_number(f"{where}.effect.dice_multiplier", e.get("dice_multiplier", 0)),
                spaces=whole_number(f"{where}.effect.spaces", e.get("spaces", 0)),
                amount=whole_number(f"{where}.effect.amount", e.get("amount", 0)),
                per_house=whole_number(f"{where}.effect.per_house", e.get("per_house", 0)),
                per_hotel=whole_number(f"{where}.effect.per_hotel", e.get("per_hotel", 0)),
                deck=e.get("deck"),
            ))
            ids.append(cid)
        decks[deck] = tuple(ids)
    return cards, decks


def _clause(where: str, key: str, data: Any, extra: tuple[str, ...] = ()) -> Clause:
    check_table(where, data, ("source", "text"), ("note",) + extra)
    return Clause(key, _str(f"{where}.source", data["source"]), _names(f"{where}.text", data["text"]),
                  data.get("note", ""))


def parse_ruleset(data: dict[str, Any], board: dict[str, Any], decks: dict[str, Any]) -> Ruleset:
    """Build a :class:`Ruleset` from a ruleset table and its board and decks tables.

    Refuses unknown keys, missing keys and values of the wrong type or range,
    naming the key and the value.
    """
    check_table("ruleset file", data, ("ruleset", "money", "supply", "options", "clauses"))
    meta = check_table("ruleset", data["ruleset"], ("id", "name", "board", "decks", "clause_language"), ("description",))
    squares, groups = parse_board(board)
    cards, deck_ids = parse_decks(decks, squares)
    terms = {**_terms("board.terms", board["board"].get("terms", {}), BUILDING_TERMS),
             **_terms("decks.terms", decks["decks"].get("terms", {}), DECKS)}
    m = check_table("money", data["money"], ("currency", "start_cash", "salary", "go_landing_salary", "bail"),
                    ("symbol_after",))
    if not isinstance(m.get("symbol_after", False), bool):
        raise RulesetError(f"money.symbol_after: expected true or false, got {m['symbol_after']!r}")
    money = Money(_str("money.currency", m["currency"]), whole_number("money.start_cash", m["start_cash"]),
                  whole_number("money.salary", m["salary"]), whole_number("money.go_landing_salary", m["go_landing_salary"]),
                  whole_number("money.bail", m["bail"]), m.get("symbol_after", False))
    sup = check_table("supply", data["supply"], ("houses", "hotels"))
    raw_opts = check_table("options", data["options"], tuple(OPTION_SPECS))
    values: dict[str, Any] = {}
    clauses: dict[str, Clause] = {}
    house_rules: dict[str, HouseRule] = {}
    for name, spec in OPTION_SPECS.items():
        where = f"options.{name}"
        entry = check_table(where, raw_opts[name], ("value", "source", "text"), ("note", "house_rule", "variant"))
        values[name] = spec.value(f"{where}.value", entry["value"])
        clauses[name] = _clause(where, name, {k: v for k, v in entry.items()
                                              if k not in ("value", "house_rule", "variant")})
        if "house_rule" in entry and "variant" in entry:
            raise RulesetError(f"{where}: a house rule (on by default) or a variant (off by default), not both")
        for table in ("house_rule", "variant"):
            if table in entry:
                house_rules[name] = _house_rule(f"{where}.{table}", name, spec, values[name], clauses[name],
                                                entry[table], table == "house_rule")
    raw_clauses = check_table("clauses", data["clauses"], CLAUSE_KEYS, OPTIONAL_CLAUSE_KEYS)
    for key in CLAUSE_KEYS + tuple(k for k in OPTIONAL_CLAUSE_KEYS if k in raw_clauses):
        clauses[key] = _clause(f"clauses.{key}", key, raw_clauses[key])
    _check_hotel_sale(values)
    return Ruleset(
        id=_str("ruleset.id", meta["id"]), name=_names("ruleset.name", meta["name"]),
        clause_language=_str("ruleset.clause_language", meta["clause_language"]),
        squares=squares, groups=groups, cards=cards, decks=deck_ids, money=money,
        houses=whole_number("supply.houses", sup["houses"]), hotels=whole_number("supply.hotels", sup["hotels"]),
        options=Options(**values), clauses=clauses, house_rules=house_rules, terms=terms,
    )


BUILDING_TERMS = ("house", "houses", "hotel", "hotels")


def _terms(where: str, data: Any, keys: tuple[str, ...]) -> dict[str, dict[str, str]]:
    """An edition's words for its buildings or decks: each key one of ``keys``, a text by language."""
    check_table(where, data, (), keys)
    terms = {key: _names(f"{where}.{key}", value) for key, value in data.items()}
    for one in ("house", "hotel"):
        if (one in terms) != (one + "s" in terms):
            raise RulesetError(f"{where}: {one} and {one}s are given together")
    return terms


HOTEL_SALE_HOUSES = {"five_houses": 5, "four_houses": 4}


def _check_hotel_sale(values: Mapping[str, Any]) -> None:
    """The bank pays half what a hotel cost: the houses it replaced plus one (the engine works it out from the
    hotel's level); ``hotel_sale_value`` says so in the text's words, and must agree with ``houses_per_hotel``."""
    houses = HOTEL_SALE_HOUSES[values["hotel_sale_value"]]
    if houses != values["houses_per_hotel"] + 1:
        raise RulesetError(f"options.hotel_sale_value: {values['hotel_sale_value']!r} is half of {houses} house "
                           f"prices, but a hotel here replaces {values['houses_per_hotel']} houses (houses_per_hotel)")


def _house_rule(where: str, option: str, spec: OptionSpec, value: Any, clause: Clause, data: Any,
                default_on: bool) -> HouseRule:
    """A switch: a house rule (the option's value in the file is the rule in play; ``off`` the value without it)
    or a variant (the file's value is played; ``on`` the value with the variant)."""
    other = "off" if default_on else "on"
    check_table(where, data, ("name", other, "source", "text"), ("note",))
    alternative = spec.value(f"{where}.{other}", data[other])
    if alternative == value:
        raise RulesetError(f"{where}.{other}: the same as the option's value {value!r}: switching it {other} would "
                           f"change nothing")
    its_clause = _clause(where, option, {k: v for k, v in data.items() if k not in ("name", other)})
    name = _names(f"{where}.name", data["name"])
    if default_on:
        return HouseRule(option, name, value, alternative, clause, its_clause, True)
    return HouseRule(option, name, alternative, value, its_clause, clause, False)


def with_options(ruleset: Ruleset, overrides: Mapping[str, Any], source: str = "game record header") -> Ruleset:
    """The ruleset with some option values replaced (a tournament's own regulations).

    Each value is checked as strictly as in a ruleset file; the clause of an
    overridden option says where the new value came from.
    """
    if not overrides:
        return ruleset
    if not isinstance(overrides, Mapping):
        raise RulesetError(f"options: expected a table of option values, got {overrides!r}")
    values = {f.name: getattr(ruleset.options, f.name) for f in fields(Options)}
    clauses = dict(ruleset.clauses)
    for name, value in overrides.items():
        spec = OPTION_SPECS.get(name)
        if spec is None:
            raise RulesetError(f"options: unknown option {name!r}")
        value = values[name] = spec.value(f"options.{name}", value)
        old = clauses[name]
        house_rule = ruleset.house_rules.get(name)
        switched = house_rule.clause(value) if house_rule is not None else None
        if switched is not None:  # a switch of the new-game screen: the clause of the rule then played is cited
            clauses[name] = switched
        else:
            clauses[name] = Clause(name, f"{source} (replaces {old.source})", old.text,
                                   f"set to {json.dumps(value)} for this game")
    _check_hotel_sale(values)
    return replace(ruleset, options=Options(**values), clauses=clauses)
