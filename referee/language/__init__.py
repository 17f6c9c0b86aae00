"""A language as a value: its code, its words (the compiled ``.po`` catalogue) and the words of the published
documents in it (the rulesets' sources phrase by phrase, the rulesets' notes), which the screens say everything in.

The screens receive it: whoever draws a screen binds the language it is drawn in (:func:`speaking`), the web layer the
device's for each request it answers, a test or a command any it likes (``speaking(Language("ko"))``), and the
screens' words (:func:`gettext`, :func:`ngettext`, :func:`current`) are said in the language bound, English where
none is.  No request, no Flask: a screen is computed the same with no app at all.  The documents' words are read
from the rulesets' folder by a service (``services.rulesets.language``), which hands in a whole value; a language
made here alone names the documents as the ruleset files write them."""
from __future__ import annotations

import re
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping

from babel import Locale
from babel.support import NullTranslations, Translations

from ..cache import CATALOGUES, LOCALES

LANGUAGES = ("en", "ja", "ko", "de")
TRANSLATIONS = Path(__file__).resolve().parent / "translations"


def catalogue(code: str) -> NullTranslations:
    """The compiled translations of ``code`` (none for English: its words are the catalogue's own)."""
    return CATALOGUES.get_or_make(code, lambda: Translations.load(str(TRANSLATIONS), [code], "messages"))


def locale(code: str) -> Locale:
    """``code`` as a parsed locale (parsing asks the file system whether the locale's data exists)."""
    return LOCALES.get_or_make(code, lambda: Locale.parse(code))


class Language:
    """One language's words: ``code`` (one of :data:`LANGUAGES`), its ``translations``, ``sources`` (a ruleset
    source's phrase -> its words in this language) and ``notes`` (ruleset id -> option or clause key -> (the English
    note, its translation)).  The word tables the screens make of it are kept with it (:meth:`table`): each is made
    once for the language, as its words do not change."""

    __slots__ = ("code", "translations", "sources", "notes", "source_pattern", "_tables")

    def __init__(self, code: str, translations: NullTranslations | None = None, *,
                 sources: Mapping[str, str] | None = None,
                 notes: Mapping[str, Mapping[str, tuple[str, str]]] | None = None) -> None:
        if code not in LANGUAGES:
            raise ValueError(f"no such language {code!r}; the languages: {', '.join(LANGUAGES)}")
        self.code = code
        self.translations = catalogue(code) if translations is None else translations
        self.sources: Mapping[str, str] = dict(sources or {})
        self.notes: Mapping[str, Mapping[str, tuple[str, str]]] = dict(notes or {})
        self.source_pattern = _phrases_pattern(self.sources)
        self._tables: dict[Callable[[], Any], Any] = {}

    def __repr__(self) -> str:
        return f"Language({self.code!r})"

    def gettext(self, string: str, **variables: Any) -> str:
        text = self.translations.ugettext(string)
        return text % variables if variables else text

    def ngettext(self, singular: str, plural: str, num: int, **variables: Any) -> str:
        variables.setdefault("num", num)
        text = self.translations.ungettext(singular, plural, num)
        return text % variables if variables else text

    def table(self, make: Callable[[], Any]) -> Any:
        """The table of words ``make()`` makes, in this language: made (this language bound) the first time asked."""
        try:
            return self._tables[make]
        except KeyError:
            with speaking(self):
                return self._tables.setdefault(make, make())

    def source_in(self, source: str) -> str:
        """``source`` in this language's words, phrase by phrase (phrases with no words in it kept as written)."""
        if self.source_pattern is None or not source:
            return source
        words = self.sources
        return self.source_pattern.sub(lambda m: words[m.group(0)], source).strip()

    def note(self, ruleset_id: str, key: str) -> tuple[str, str]:
        """(the English note it translates, the translation) of a ruleset's option or clause, ("", "") for none."""
        return self.notes.get(ruleset_id, {}).get(key, ("", ""))


def _phrases_pattern(words: Mapping[str, str]) -> re.Pattern | None:
    """The phrases as one pattern (the longest phrase first; a phrase of Latin letters only where it stands as whole
    words), None for no phrase."""
    if not words:
        return None
    alternatives = [rf"(?<![A-Za-z]){re.escape(p)}(?![A-Za-z])" if p[:1].isascii() and p[-1:].isascii()
                    else re.escape(p) for p in sorted(words, key=len, reverse=True)]
    return re.compile("|".join(alternatives))


ENGLISH = Language("en")
_SPEAKING: ContextVar[Language | None] = ContextVar("referee_speaking", default=None)


@contextmanager
def speaking(language: Language) -> Iterator[Language]:
    """Say the screens' words in ``language`` within the block (in this thread or task only)."""
    token = _SPEAKING.set(language)
    try:
        yield language
    finally:
        _SPEAKING.reset(token)


def bind(language: Language | None) -> object:
    """Bind ``language`` until :func:`unbind` is given the token returned (a request's life, from its start to its
    teardown, which no ``with`` block spans)."""
    return _SPEAKING.set(language)


def unbind(token: Any) -> None:
    _SPEAKING.reset(token)


def bound() -> Language | None:
    """The language bound, None where none is."""
    return _SPEAKING.get()


def current() -> Language:
    """The language the screens speak: the one bound, else English."""
    return _SPEAKING.get() or ENGLISH


def current_language() -> str:
    """The code of the language the screens speak."""
    return current().code


def gettext(string: str, **variables: Any) -> str:
    """``string`` in the language the screens speak, ``variables`` put in."""
    return current().gettext(string, **variables)


def ngettext(singular: str, plural: str, num: int, **variables: Any) -> str:
    """The singular or plural words of ``num`` in the language the screens speak (``num`` among the variables)."""
    return current().ngettext(singular, plural, num, **variables)
