"""Reading rulesets, scoring schemes and tournament formats from the ``rulesets/`` folder (the rules are pure
values; reading their files is a service's work).

A ruleset file names its board (``rulesets/boards/ID.toml``) and its card
decks (``rulesets/decks/ID.toml``); all three are parsed strictly by
:func:`referee.engine.ruleset_files.parse_ruleset`.
"""
from __future__ import annotations

import tomllib
from pathlib import Path

from ..cache import FORMATS, kept_in, LANGUAGE_WORDS, RULESET_NOTES, RULESETS, SCORING_SCHEMES, SOURCE_NAMES
from ..engine import Ruleset, RulesetError, parse_ruleset, with_options
from ..language import Language

RULESETS_DIR = Path(__file__).resolve().parents[2] / "rulesets"
DEFAULT_RULESET = "jma-2006"


def _read(path: Path) -> dict:
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError:
        raise RulesetError(f"no such ruleset file: {path}") from None
    except tomllib.TOMLDecodeError as exc:
        raise RulesetError(f"{path}: not valid TOML: {exc}") from None


def available(directory: Path = RULESETS_DIR) -> list[str]:
    return sorted(p.stem for p in directory.glob("*.toml"))


def files_of(path: Path) -> dict[str, dict]:
    """A ruleset file's values and those of the board and the decks it names, as read (before the engine parses
    them): ``{"ruleset": ..., "board": ..., "decks": ...}``."""
    data = _read(path)
    meta = data.get("ruleset", {})
    directory = path.parent
    return {"ruleset": data, "board": _read(directory / "boards" / f"{meta.get('board')}.toml"),
            "decks": _read(directory / "decks" / f"{meta.get('decks')}.toml")}


def load_path(path: Path) -> Ruleset:
    files = files_of(path)
    try:
        return parse_ruleset(files["ruleset"], files["board"], files["decks"])
    except RulesetError as exc:
        raise RulesetError(f"{path.name}: {exc}") from None


def every_ruleset_read() -> dict[str, dict[str, dict]]:
    """Every shipped ruleset's values as read (:func:`files_of`), by id: what a tablet parses with the engine to
    referee offline (:mod:`referee.tablet`)."""
    return {ruleset_id: files_of(RULESETS_DIR / f"{ruleset_id}.toml") for ruleset_id in available()}


@kept_in(RULESETS)
def load(ruleset_id: str = DEFAULT_RULESET) -> Ruleset:
    """The ruleset ``rulesets/ID.toml``."""
    if ruleset_id not in available():
        raise RulesetError(f"unknown ruleset {ruleset_id!r}; available: {', '.join(available())}")
    return load_path(RULESETS_DIR / f"{ruleset_id}.toml")


def for_header(header) -> Ruleset:
    """The ruleset a game record's header names, with the header's options over the file's."""

    return with_options(load(header.ruleset), header.options)


NOTES_DIR = RULESETS_DIR / "notes"


@kept_in(RULESET_NOTES)
def notes(ruleset_id: str, lang: str) -> dict[str, tuple[str, str]]:
    """The notes of ``rulesets/ID.toml`` translated into ``lang``: option or clause key -> (the English note it
    translates, the translation), from ``rulesets/notes/ID.LANG.toml`` (tables ``[notes.KEY]`` with ``en`` and
    ``LANG``), kept beside the ruleset file, which the engine reads strictly and which holds each note in English;
    {} when there is no such file."""
    path = NOTES_DIR / f"{ruleset_id}.{lang}.toml"
    if not path.exists():
        return {}
    data = _read(path)
    table = data.get("notes")
    if set(data) != {"notes"} or not isinstance(table, dict):
        raise RulesetError(f"{path}: expected tables [notes.KEY] with en and {lang}")
    out = {}
    for key, texts in table.items():
        if not isinstance(texts, dict) or set(texts) != {"en", lang} or not all(
                isinstance(t, str) and t for t in texts.values()):
            raise RulesetError(f"{path}: notes.{key}: expected en and {lang}, each a text")
        out[key] = (texts["en"], texts[lang])
    return out


@kept_in(SOURCE_NAMES)
def source_names() -> dict[str, dict[str, str]]:
    """The phrases of the rulesets' sources (the published documents and their sections) with their words in other
    languages: phrase as written in the ruleset files -> {language: words}, from ``rulesets/notes/sources.toml``
    (tables ``[names."PHRASE"]``, each language a text)."""
    path = NOTES_DIR / "sources.toml"
    if not path.exists():
        return {}
    data = _read(path)
    table = data.get("names")
    if set(data) != {"names"} or not isinstance(table, dict):
        raise RulesetError(f"{path}: expected tables [names.\"PHRASE\"] with a text per language")
    for phrase, words in table.items():
        if not isinstance(words, dict) or not words or not all(
                isinstance(lang, str) and isinstance(t, str) and t for lang, t in words.items()):
            raise RulesetError(f"{path}: names.{phrase!r}: expected a text per language")
    return table


def language(code: str) -> Language:
    """The language ``code`` as the screens say things in it: its words, with the published documents' (the rulesets'
    sources phrase by phrase, the rulesets' notes) read from ``rulesets/notes/``, made once per process."""
    def make() -> Language:
        suffix = f".{code}.toml"
        ruleset_ids = sorted(p.name[:-len(suffix)] for p in NOTES_DIR.glob(f"*{suffix}"))
        return Language(code, sources={phrase: names[code] for phrase, names in source_names().items() if code in names},
                        notes={ruleset_id: notes(ruleset_id, code) for ruleset_id in ruleset_ids})

    return LANGUAGE_WORDS.get_or_make(code, make)


SCORING_DIR = RULESETS_DIR / "scoring"


def available_schemes() -> list[str]:
    return sorted(p.stem for p in SCORING_DIR.glob("*.toml"))


@kept_in(SCORING_SCHEMES)
def load_scheme(scheme_id: str):
    """The scoring scheme ``rulesets/scoring/ID.toml``."""
    from ..tournament.scoring import parse_scheme

    if scheme_id not in available_schemes():
        raise RulesetError(f"unknown scoring scheme {scheme_id!r}; available: {', '.join(available_schemes())}")
    try:
        return parse_scheme(_read(SCORING_DIR / f"{scheme_id}.toml"))
    except RulesetError as exc:
        raise RulesetError(f"scoring/{scheme_id}.toml: {exc}") from None


FORMATS_DIR = RULESETS_DIR / "formats"
DEFAULT_FORMAT = "open"


def available_formats() -> list[str]:
    return sorted(p.stem for p in FORMATS_DIR.glob("*.toml"))


@kept_in(FORMATS)
def load_format(format_id: str):
    """The tournament format ``rulesets/formats/ID.toml``; each stage's own scoring scheme must exist."""
    from ..tournament.formats import parse_format

    if format_id not in available_formats():
        raise RulesetError(f"unknown tournament format {format_id!r}; available: {', '.join(available_formats())}")
    try:
        fmt = parse_format(_read(FORMATS_DIR / f"{format_id}.toml"))
        for stage in fmt.stages:
            if stage.scoring is not None:
                load_scheme(stage.scoring)
    except RulesetError as exc:
        raise RulesetError(f"formats/{format_id}.toml: {exc}") from None
    if fmt.id != format_id:
        raise RulesetError(f"formats/{format_id}.toml: format.id is {fmt.id!r}, not the file's name")
    return fmt


def least_players(format_id: str) -> int:
    """The fewest players the format ``format_id`` can be played with (the new-tournament form says it)."""
    from ..tournament.formats import least_players as least

    return least(load_format(format_id))
