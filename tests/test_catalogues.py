"""The catalogues (referee/language/translations/LANG/LC_MESSAGES/messages.po) are the only copy of the translations:
every word the code and the templates mark has its translation there in each language, the compiled
messages.mo the app reads says the same, and a translation fills the same placeholders as its English."""
import io
import re
import shlex
from functools import cache
from pathlib import Path

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_keywords, parse_mapping_cfg
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "catalogues"
TRANSLATIONS = ROOT / "referee" / "language" / "translations"
LANGUAGES = ("ja", "ko", "de")
PLACEHOLDER = re.compile(r"%\((\w+)\)|(?<!\{)\{(\w+)(?:[!:][^{}]*)?\}")

# Placeholders a translation leaves out on purpose, with why.
LEFT_OUT = {
    ("ja", "%(player)s rolls again: doubles %(n)s of %(limit)s — %(nth)s doubles in a row sends %(player)s to jail"):
        {"%(nth)"},  # "ゾロ目が%(limit)s回続くと", doubles %(limit)s times in a row: the count says it
}


def listed_keywords() -> list[str]:
    """The keywords the catalogue script gives pybabel extract (the line ``keywords="-k ... -k ..."``)."""
    line = next(line for line in SCRIPT.read_text(encoding="utf-8").splitlines() if line.startswith("keywords="))
    words = shlex.split(shlex.split(line.split("=", 1)[1])[0])
    return [words[i + 1] for i, word in enumerate(words) if word == "-k"]


def keywords() -> dict:
    """The keywords as parsed, without pybabel's defaults."""
    return parse_keywords(listed_keywords())


@cache
def extracted() -> dict:
    """Every message pybabel extract finds in the code and the templates (babel.cfg, the script's keywords and
    pybabel's defaults, as the command line has them), keyed as a catalogue keys it, with a place it is at."""
    with (ROOT / "babel.cfg").open(encoding="utf-8") as fh:
        method_map, options_map = parse_mapping_cfg(fh)
    found = {}
    for filename, lineno, message, _, context in extract_from_dir(
            str(ROOT), method_map, options_map, keywords={**DEFAULT_KEYWORDS, **keywords()}):
        assert context is None, (filename, lineno, message)
        found.setdefault(message, f"{filename}:{lineno}")
    return found


@cache
def catalogue(lang: str):
    with (TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po").open("rb") as fh:
        return read_po(fh)


def forms(string) -> tuple[str, ...]:
    return tuple(string) if isinstance(string, (list, tuple)) else (string,)


def placeholders(text: str) -> set[str]:
    return {f"%({a})" if a else "{" + b + "}" for a, b in PLACEHOLDER.findall(text)}


def test_the_script_extracts_with_its_keywords_and_they_take_the_refusals():
    text = SCRIPT.read_text(encoding="utf-8")
    assert re.search(r'pybabel" -q extract -F babel\.cfg \$keywords ', text)
    assert listed_keywords() == ["_", "gettext", "_l", "lazy_gettext", "illegal:3", "refuse:2", "_malformed:2", "of:1"]
    assert keywords()["illegal"] == (3,) and keywords()["of"] == (1,)


@pytest.mark.long  # the catalogues extracted anew: scripts/test runs it, --fast leaves it out
def test_extraction_finds_the_code_the_templates_the_refusals_and_the_words_of_run_time():
    found = extracted()
    assert len(found) > 900
    places = {where.split(":")[0] for where in found.values()}
    assert any(p.startswith("templates/") for p in places) and "referee/engine/phrases.py" in places
    assert ("%(num)s entry recorded again", "%(num)s entries recorded again") in found  # ngettext, a default
    assert "{player} does not own {square}" in found  # a refusal's pattern
    assert found["bail"].startswith("referee/language/translations/words_at_run_time.py")  # a debt's reason


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_extracted_message_has_a_translation_that_is_not_fuzzy(lang):
    cat = catalogue(lang)
    assert not cat.fuzzy  # a catalogue marked fuzzy as a whole is not compiled at all
    missing, fuzzy = [], []
    for msgid, where in extracted().items():
        message = cat.get(msgid)
        if message is None or not all(forms(message.string)) or len(forms(message.string)) != (
                cat.num_plurals if message.pluralizable else 1):
            missing.append((msgid, where))
        elif message.fuzzy:
            fuzzy.append((msgid, where))
    assert missing == [] and fuzzy == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_catalogue_holds_only_messages_extraction_finds(lang):
    """A word added to a catalogue by hand, found nowhere by extraction, would be dropped at the next update:
    a word the app translates from a value is listed in referee/language/translations/words_at_run_time.py."""
    found = {m if isinstance(m, str) else m[0] for m in extracted()}
    assert [m.id for m in catalogue(lang) if m.id and (m.id if isinstance(m.id, str) else m.id[0]) not in found] == []
    assert not catalogue(lang).obsolete


def messages(cat) -> dict:
    return {(tuple(m.id) if isinstance(m.id, (list, tuple)) else m.id): forms(m.string) for m in cat if m.id}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_committed_mo_is_the_compiled_po(lang):
    compiled = io.BytesIO()
    write_mo(compiled, catalogue(lang))  # as pybabel compile does: fuzzy entries left out
    compiled.seek(0)
    with (TRANSLATIONS / lang / "LC_MESSAGES" / "messages.mo").open("rb") as fh:
        committed = read_mo(fh)
    assert messages(committed) == messages(read_mo(compiled))
    assert committed.plural_forms == catalogue(lang).plural_forms
    assert len(messages(committed)) == len(extracted())


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_translation_fills_the_placeholders_of_its_english(lang):
    cat = catalogue(lang)
    wrong, used = [], set()
    for message in cat:
        if not message.id:
            continue
        if not message.pluralizable:
            allowed = LEFT_OUT.get((lang, message.id), set())
            used |= {(lang, message.id)} if allowed else set()
            if placeholders(message.string) != placeholders(message.id) - allowed:
                wrong.append(message.id)
            continue
        singular, plural = (placeholders(text) for text in message.id)
        texts = [placeholders(text) for text in forms(message.string)]
        if cat.num_plurals == 2:  # one and many, as in English
            ok = texts == [singular, plural]
        else:  # one form for every number (Japanese, Korean): says the number its own way, from num
            ok = all(t <= singular | plural | {"%(num)"} for t in texts)
        if not ok:
            wrong.append(message.id)
    assert wrong == []
    assert used == {key for key in LEFT_OUT if key[0] == lang}  # no exception outlives its message
