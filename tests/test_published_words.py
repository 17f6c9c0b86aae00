"""What a user reads names the published document (Official rules (Hasbro), JMA competition rules 2006, 補足ルール
「…」), never a repository path, an issue number or the word "seed"; each clause's source is shown in the device's
language with the source as written beside it where the two differ."""
import re
import tomllib
from pathlib import Path

import pytest

from referee import create_app
from referee.services import rulesets
from referee.screens.sources import source_words
from referee.screens.words import why

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = ("en", "ja", "ko", "de")
# a path of the repository, an issue number, the word "seed" (seeding a tournament, "seeded", stays a word)
FORBIDDEN = re.compile(r"shared/|seeds/|\bissue\s*\d+|\bseeds?\b", re.IGNORECASE)
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def _ruleset_files():
    return sorted((ROOT / "rulesets").rglob("*.toml"))


@pytest.mark.parametrize("path", _ruleset_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_ruleset_file_names_a_repository_path_an_issue_or_a_seed(path):
    """Every text of every ruleset, board, deck, format, scoring scheme and notes file, comments included."""
    assert not FORBIDDEN.findall(path.read_text(encoding="utf-8"))
    with path.open("rb") as fh:
        assert not [s for s in _strings(tomllib.load(fh)) if FORBIDDEN.search(s)]


def test_no_template_nor_user_facing_string_names_a_repository_path_an_issue_or_a_seed():
    found = [(p.name, m) for p in sorted((ROOT / "templates").rglob("*.html"))
             for m in FORBIDDEN.findall(p.read_text(encoding="utf-8"))]
    for lang in ("ja", "ko", "de"):
        po = (ROOT / "referee" / "translations" / lang / "LC_MESSAGES" / "messages.po").read_text(encoding="utf-8")
        found += [(lang, m) for m in FORBIDDEN.findall("\n".join(
            line for line in po.splitlines() if line.startswith(("msgid", "msgstr", '"')) and not line.startswith('"P')))]
    assert found == []


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    db = tmp_path_factory.mktemp("words") / "t.db"
    return create_app({"TESTING": True, "SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{db}"})


def _shown_without_original(shown: str, source: str) -> str:
    """The citation as shown, less the source as written beside it."""
    return shown[: -len(f"({source})")] if shown != source and shown.endswith(f"({source})") else shown


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_clause_of_every_ruleset_is_cited_in_the_devices_language_with_the_original_beside_it(app, lang):
    untranslated = []
    with app.test_request_context(headers={"Accept-Language": lang}):
        for ruleset_id in rulesets.available():
            ruleset = rulesets.load(ruleset_id)
            for key, clause in ruleset.clauses.items():
                shown = source_words(clause.source)
                assert why(ruleset, "x", key).source == shown
                assert not FORBIDDEN.search(shown), (ruleset_id, key, shown)
                own = _shown_without_original(shown, clause.source)
                if lang != "ja" and JAPANESE.search(own):
                    untranslated.append((ruleset_id, key, shown))
                if shown != clause.source:
                    assert shown.endswith(f"({clause.source})") or shown.endswith(f"（{clause.source}）")
    assert untranslated == []


def test_the_jma_clause_names_read_in_english_with_the_japanese_beside_them_and_the_hasbro_ones_in_japanese(app):
    jma, classic = rulesets.load("jma-2006"), rulesets.load("classic")
    with app.test_request_context(headers={"Accept-Language": "en"}):
        assert why(jma, "x", "seating_order").source == (
            "JMA competition rules 2006, supplementary rules “Basic movement of the tokens” "
            "(JMA 補足ルール「基本的な駒の進め方」)")
        assert why(classic, "x", "auction_tie").source == "Official rules (Hasbro), General"
        assert source_words("National and world championships (tournament practice)") == (
            "National and world championships (tournament practice)")
    with app.test_request_context(headers={"Accept-Language": "ja"}):
        assert why(jma, "x", "seating_order").source == "JMA 補足ルール「基本的な駒の進め方」"
        assert why(classic, "x", "auction_tie").source == "公式ルール（ハズブロ）, 総則（Official rules (Hasbro), General）"
        assert source_words("National and world championships (tournament practice)").startswith(
            "全国大会・世界大会（大会の慣行）")
    with app.test_request_context(headers={"Accept-Language": "de"}):
        assert why(classic, "x", "jail_max_rolls").source.startswith("Offizielle Spielregeln (Hasbro), Gefängnis")


def test_the_rules_page_shows_each_source_in_the_devices_language(app):
    client = app.test_client()
    page = client.get("/rulesets/jma-2006", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "JMA competition rules 2006, supplementary rules “Basic movement of the tokens”" in page
    assert not FORBIDDEN.search(page)
    page = client.get("/rulesets/classic", headers={"Accept-Language": "ja"}).get_data(as_text=True)
    assert "公式ルール（ハズブロ）, 総則（Official rules (Hasbro), General）" in page and not FORBIDDEN.search(page)
