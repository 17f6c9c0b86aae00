"""The rulings log in the device's language: each recorded ruling on a disputed entry (who claimed what, the
ruling, the clause in the device's language with its source and the original beside it, who decided, when,
whether it was on appeal or is final), the clauses a ruling may cite, and who may still rule on an entry (an appeal
goes up: the table's referee, a judge, the head judge, whose ruling is final).  Computed from the rulings the
service read: no request, no SQL."""
from __future__ import annotations

from dataclasses import dataclass

from ..engine import Ruleset
from ..language import gettext as _
from .rules_page import clause_label
from .sources import clause_words, source_words

DECIDERS = ("referee", "judge", "head_judge")  # the order of an appeal (the service's own)


def decider_words(decider: str) -> str:
    return {"referee": _("the table's referee"), "judge": _("a judge"),
            "head_judge": _("the head judge")}.get(decider, decider)


@dataclass(frozen=True, slots=True)
class RulingLine:
    n: int
    entry: int
    claim: str
    ruling: str
    clause: str  # the clause in the device's language with its source, the original beside it ("" when none cited)
    decider: str  # who decided, in words
    at: str  # when, UTC
    appeal: bool  # a later ruling on an entry already ruled on
    final: bool  # the head judge's


def ruling_lines(ruleset: Ruleset, rulings) -> list[RulingLine]:
    """The rulings (the service's, in order) in words."""
    seen: set[int] = set()
    out = []
    for r in rulings:
        clause = ruleset.clauses.get(r.clause) if r.clause else None
        cited = clause_words(ruleset, clause) if clause is not None else ""
        out.append(RulingLine(r.n, r.entry, r.claim, r.ruling, cited, decider_words(r.decider),
                              r.at.strftime("%Y-%m-%d %H:%M") + " UTC", r.entry in seen, r.decider == "head_judge"))
        seen.add(r.entry)
    return out


def clause_choices(ruleset: Ruleset) -> list[tuple[str, str]]:
    """The clauses a ruling may cite: (key, its name in the device's language and its source)."""
    return [(key, f"{clause_label(key)} — {source_words(c.source)}") for key, c in ruleset.clauses.items()]


def deciders_now(earlier: list, allowed: frozenset[str]) -> list[tuple[str, str]]:
    """Who may rule on an entry now, from this device (``allowed``: the deciders its unlocks open: the table's
    referee with the table's PIN, a judge with the judges' PIN, the head judge with the head judge's PIN or the
    director's), after the rulings ``earlier`` made on it: only a higher decider than the last, none after the head
    judge."""
    last = DECIDERS.index(earlier[-1].decider) if earlier else -1
    return [(d, decider_words(d)) for k, d in enumerate(DECIDERS) if k > last and d in allowed]
