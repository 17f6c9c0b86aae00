"""What kind of wrong an entry was.

Every refusal carries a stable ``code`` (for translations and tests), a
message that names the bad value, and the ``clause`` of the active ruleset
that it enforces, so a dispute can be settled by reading the rule.  A refusal
made with :meth:`RefereeError.of` also keeps the English pattern of its
message and the typed values that fill it (:mod:`.phrases`), so the app can
say it in the device's language (:meth:`RefereeError.detail`).
"""
from __future__ import annotations

from typing import Any, Mapping, Self

from .phrases import Say, Translate, identity, render


class RefereeError(Exception):
    """Base class of every refusal the engine gives."""

    code = "refused"

    def __init__(self, message: str = "", *, code: str | None = None, clause: str = "", rule: str = "",
                 pattern: str = "", params: Mapping[str, Any] | None = None, state: Any = None) -> None:
        super().__init__(message or pattern)
        self._message = message
        if code is not None:
            self.code = code
        self._clause = clause
        self.rule = rule  # the key of that clause in the ruleset, to show it in other languages
        self.pattern = pattern  # the English pattern of the message ("" if it has none)
        self.params = params if params is not None else {}  # the values that fill the pattern's placeholders
        self.state = state  # the game state those values name things in (squares, players, the pending decision)

    @classmethod
    def of(cls, pattern: str, params: Mapping[str, Any] | None = None, state: Any = None, **kwargs: Any) -> Self:
        """A refusal whose message is ``pattern`` filled with ``params`` (:mod:`.phrases`), in English."""
        return cls(pattern=pattern, params=params, state=state, **kwargs)

    @property
    def message(self) -> str:
        """What was wrong, in English (put in words when first asked for: legal_actions makes many refusals that
        nobody reads)."""
        if not self._message and self.pattern:
            self._message = render(self.pattern, self.params, self.state)
        return self._message

    @property
    def clause(self) -> str:
        """The clause cited, in the ruleset's own language (looked up when first asked for, as the message)."""
        if not self._clause and self.rule and self.state is not None:
            clause = self.state.ruleset.clauses.get(self.rule)
            self._clause = clause.cite() if clause is not None else self.rule
        return self._clause

    def detail(self, _: Translate = identity, lang: str = "en", say: Say | None = None) -> str:
        """The message in another language: ``_`` translates the pattern and the words that fill it, ``lang``
        picks the names of squares, groups and cards, ``say`` gives the caller's words for the values it has
        words for (the decision awaited, a kind of entry); the English message if the refusal has no pattern."""
        if not self.pattern:
            return self.message
        return render(self.pattern, self.params, self.state, _, lang, say)

    def __str__(self) -> str:
        return self.message

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message, "clause": self.clause, "rule": self.rule}


class MalformedEntry(RefereeError):
    """The entry is not of the record's form: unknown type, missing field, impossible die."""

    code = "malformed"


class IllegalEntry(RefereeError):
    """The entry is well formed but the rules do not allow it now."""

    code = "illegal"


class StaleEntry(RefereeError):
    """The entry was made against an older state of the table (another tablet, a double tap, a retry)."""

    code = "stale"

    @classmethod
    def behind(cls, seen: int, now: int) -> StaleEntry:
        """A form drawn when the table had ``seen`` entries, sent when it has ``now``: nothing is recorded (the
        server's refusal, and the tablet's)."""
        return cls.of("this screen showed the table after entry {seen}, but it is now at entry {now}: nothing was "
                      "recorded; look at the table again", {"seen": seen, "now": now})


def illegal(state: Any, code: str, pattern: str, clause: str, /, **params: Any) -> IllegalEntry:
    """A refusal citing ``clause`` of the active ruleset: ``pattern`` is English with ``{placeholders}``, filled
    with ``params`` (typed values from :mod:`.phrases` for anything said differently in another language)."""
    return IllegalEntry(pattern=pattern, params=params, state=state, code=code, rule=clause)
