"""What the tournament rules say back to the director: a refusal, or what a change did, each an English pattern
with its values (put in the device's language by the screens, as the engine's refusals are)."""
from __future__ import annotations

from dataclasses import dataclass

from ..engine import named, RefereeError, render, text_problem


class BadTournament(RefereeError):
    """A director's request the tournament's rules refuse; nothing was changed."""

    code = "bad_tournament"


@dataclass(frozen=True)
class Named:
    """A format, a stage of one or a scoring scheme, as a refusal or a change names it: by its name in the
    device's language (its file's ``name = { en=…, ja=…, ko=…, de=… }``), never its id (unless it has no name)."""

    names: tuple[tuple[str, str], ...]
    id: str

    @classmethod
    def name_of(cls, thing) -> "Named":
        """``thing``: anything with an ``id`` and its ``name`` by language (a format, a stage, a scheme)."""
        return cls(tuple(thing.name.items()), thing.id)

    def words(self, state, _, lang: str) -> str:
        return named(dict(self.names), lang, self.id)


@dataclass(frozen=True)
class Done:
    """What a director's change did, in words: an English pattern and its values, put in the device's language
    by the view as a refusal is (``detail``)."""

    pattern: str
    params: dict

    @classmethod
    def of(cls, pattern: str, params: dict) -> "Done":
        return cls(pattern, params)

    def detail(self, _=lambda text: text, lang: str = "en", say=None) -> str:
        return render(self.pattern, self.params, None, _, lang, say)


def check_text(field: str, value: str, maximum: int) -> None:
    """A name or reason typed by the director: refused (naming the limit) when too long or not plain text."""
    problem = text_problem(field, value, maximum)
    if problem:
        pattern = problem.pattern  # the engine's own pattern, extracted and translated where it is written
        raise BadTournament.of(pattern, problem.params)
