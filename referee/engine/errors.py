"""What kind of wrong an entry was.

Every refusal carries a stable ``code`` (for translations and tests), a
message that names the bad value, and the ``clause`` of the active ruleset
that it enforces, so a dispute can be settled by reading the rule.
"""
from __future__ import annotations


class RefereeError(Exception):
    """Base class of every refusal the engine gives."""

    code = "refused"

    def __init__(self, message: str, *, code: str | None = None, clause: str = "", rule: str = "") -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.clause = clause  # the clause cited, in the ruleset's own language
        self.rule = rule  # the key of that clause in the ruleset, to show it in other languages

    def __str__(self) -> str:
        return self.message

    def as_dict(self) -> dict:
        return {"code": self.code, "message": self.message, "clause": self.clause, "rule": self.rule}


class MalformedEntry(RefereeError):
    """The entry is not of the record's form: unknown type, missing field, impossible die."""

    code = "malformed"


class IllegalEntry(RefereeError):
    """The entry is well formed but the rules do not allow it now."""

    code = "illegal"


class RulesetError(Exception):
    """A ruleset file does not match the ruleset schema (unknown key, bad value)."""
