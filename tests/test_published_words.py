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
from conftest import said_in

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = ("en", "ja", "ko", "de")
# a path of the repository, an issue number, the word "seed" (seeding a tournament, "seeded", stays a word)
FORBIDDEN = re.compile(r"shared/|seeds/|\bissue\s*\d+|\bseeds?\b", re.IGNORECASE)
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
# a source text named by its number ("002 says", "(000)", "004's", "text 003", "000은", "laut 002") or as a "seed":
# a zero-padded number 000-009 standing alone, not a part of an amount, a year, a date or a colour ("$200", "2006",
# "M1,000", "30000 M", "1 000", "2006-07-18", "#005A9C", "1.005")
TEXT_NUMBER = re.compile(r"\btext\s+\d{3}\b|\bseeds?\b|(?<![\w$€₩£¥#.,/:\-])(?<!\d[ \u00a0])00\d(?![\d]|[.,]\d)",
                         re.IGNORECASE)


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
        po = (ROOT / "referee" / "language" / "translations" / lang / "LC_MESSAGES" / "messages.po").read_text(encoding="utf-8")
        found += [(lang, m) for m in FORBIDDEN.findall("\n".join(
            line for line in po.splitlines() if line.startswith(("msgid", "msgstr", '"')) and not line.startswith('"P')))]
    assert found == []


@pytest.mark.parametrize("sample", [
    "002 says nothing on the order of play.", "003 is followed", "as the official rules (000)", "004's rule",
    "text 003, 'Rules of a shortened game'", "seed 004", "(003)「カードの指示は直ちに実行」", "003に従います",
    "000은 이를 말하지 않습니다", "Nach 002 darf ein Spieler", "neither 003 nor 000.", "(000, footnote 2)"])
def test_the_detector_finds_a_source_text_named_by_its_number(sample):
    assert TEXT_NUMBER.search(sample), sample


@pytest.mark.parametrize("sample", [
    "the salary is $200", "JMA competition rules 2006", "M1,000 or ₩2,000,000", "30000 M", "1 000 rubles",
    "2006-07-18", "colour #005A9C", "a rate of 1.005", "Korean wiki (2.2)", "seeded players", "line 301",
    "1,000,000 won", "¥1,000"])
def test_the_detector_lets_amounts_years_dates_and_colours_be(sample):
    assert not TEXT_NUMBER.search(sample), sample


def _numbered_sources(root: Path) -> list[tuple[str, str]]:
    """Each string of each ruleset, board, deck, format, scoring and notes file under ``root`` that names a source
    text by its number, with its file."""
    found = []
    for path in sorted(root.rglob("*.toml")):
        with path.open("rb") as fh:
            found += [(path.name, s) for s in _strings(tomllib.load(fh)) if TEXT_NUMBER.search(s)]
    return found


# a line of a source's text file cited as if it were a place in the published document ("line 287", "Zeile 301",
# "287行目", "279행"): the published texts have no line numbers a reader could find
TEXT_LINE = re.compile(r"\b[Ll]ines? \d+|\bZeilen? \d+|\d+\s*行目|\d+행")


def test_no_note_cites_a_line_of_a_source_text_file_in_any_language():
    cited = []
    for path in sorted((ROOT / "rulesets").rglob("*.toml")):
        with path.open("rb") as fh:
            cited += [(path.name, m.group()) for s in _strings(tomllib.load(fh)) for m in TEXT_LINE.finditer(s)]
    assert cited == []
    assert [bool(TEXT_LINE.search(t)) for t in ("(line 287: 'After", "(Zeile 983)", "（287行目：", "(279행: '",
                                                 "2 lines of houses", "line up")] == [True] * 4 + [False] * 2


def test_a_note_naming_a_text_by_its_number_is_caught_in_any_language(tmp_path):
    (tmp_path / "notes").mkdir()
    (tmp_path / "x.toml").write_text('[options.a]\nvalue = 1\nnote = "Costs $200 (2006 rules)."\n', encoding="utf-8")
    assert _numbered_sources(tmp_path) == []
    (tmp_path / "notes" / "x.ko.toml").write_text('[notes.a]\nen = "Costs $200."\nko = "002는 이를 말하지 않는다."\n',
                                                  encoding="utf-8")
    assert _numbered_sources(tmp_path) == [("x.ko.toml", "002는 이를 말하지 않는다.")]


def test_no_ruleset_note_clause_or_notes_file_names_a_source_text_by_its_number():
    assert _numbered_sources(ROOT / "rulesets") == []


def test_no_template_nor_catalogue_entry_names_a_source_text_by_its_number():
    found = [(p.name, m.group(0)) for p in sorted((ROOT / "templates").rglob("*.html"))
             for m in TEXT_NUMBER.finditer(p.read_text(encoding="utf-8"))]
    for lang in ("ja", "ko", "de"):
        po = (ROOT / "referee" / "language" / "translations" / lang / "LC_MESSAGES" / "messages.po").read_text(encoding="utf-8")
        found += [(lang, m.group(0)) for m in TEXT_NUMBER.finditer("\n".join(
            line for line in po.splitlines() if line.startswith(("msgid", "msgstr", '"')) and not line.startswith('"P')))]
    assert found == []


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    db = tmp_path_factory.mktemp("words") / "t.db"
    return create_app({"TESTING": True, "SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{db}"})


# each language's way of giving the original beside its own words
BESIDE = {"en": " ({original})", "ja": "（{original}）", "ko": " (원문: {original})", "de": " (im Original: {original})"}
HANGUL = re.compile(r"[\uac00-\ud7a3]")


def _shown_without_original(shown: str, source: str, lang: str) -> str:
    """The citation as shown, less the source as written beside it (asserted to be there, in the language's way,
    whenever the citation differs from the source)."""
    if shown == source:
        return shown
    beside = BESIDE[lang].format(original=source)
    assert shown.endswith(beside), (lang, shown)
    return shown[: -len(beside)]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_clause_of_every_ruleset_is_cited_in_the_devices_language_with_the_original_beside_it(app, lang):
    untranslated = []
    with said_in(app, lang):
        for ruleset_id in rulesets.available():
            ruleset = rulesets.load(ruleset_id)
            for key, clause in ruleset.clauses.items():
                shown = source_words(clause.source)
                assert why(ruleset, "x", key).source == shown
                assert not FORBIDDEN.search(shown), (ruleset_id, key, shown)
                own = _shown_without_original(shown, clause.source, lang)
                if lang != "ja" and JAPANESE.search(own) or lang != "ko" and HANGUL.search(own):
                    untranslated.append((ruleset_id, key, shown))
                german_section = clause.source.partition("vereinfacht), ")[2]
                headings = [h for h in re.split(r"\s*[,:;]\s*|\d+\.\s*", german_section) if h]
                if lang != "de" and any(re.search(rf"(?<!\w){re.escape(h)}(?!\w)", own) for h in headings):
                    untranslated.append((ruleset_id, key, shown))
    assert untranslated == []


def test_the_jma_clause_names_read_in_english_with_the_japanese_beside_them_and_the_hasbro_ones_in_japanese(app):
    jma, classic = rulesets.load("jma-2006"), rulesets.load("classic")
    with said_in(app, "en"):
        assert why(jma, "x", "seating_order").source == (
            "JMA competition rules 2006, supplementary rules “Basic movement of the tokens” "
            "(JMA 補足ルール「基本的な駒の進め方」)")
        assert why(classic, "x", "auction_tie").source == "Official rules (Hasbro), General"
        assert source_words("National and world championships (tournament practice)") == (
            "National and world championships (tournament practice)")
    with said_in(app, "ja"):
        assert why(jma, "x", "seating_order").source == "JMA 補足ルール「基本的な駒の進め方」"
        assert why(classic, "x", "auction_tie").source == "公式ルール（ハズブロ）, 総則（Official rules (Hasbro), General）"
        assert source_words("National and world championships (tournament practice)").startswith(
            "全国大会・世界大会（大会の慣行）")
    with said_in(app, "de"):
        assert why(classic, "x", "jail_max_rolls").source.startswith("Offizielle Spielregeln (Hasbro), Gefängnis")


def test_the_rules_page_shows_each_source_in_the_devices_language(app):
    client = app.test_client()
    page = client.get("/rulesets/jma-2006", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "JMA competition rules 2006, supplementary rules “Basic movement of the tokens”" in page
    assert not FORBIDDEN.search(page)
    page = client.get("/rulesets/classic", headers={"Accept-Language": "ja"}).get_data(as_text=True)
    assert "公式ルール（ハズブロ）, 総則（Official rules (Hasbro), General）" in page and not FORBIDDEN.search(page)


@pytest.mark.parametrize("lang, words", [
    ("en", ["The official rules say nothing on the order of play. The Russian classic rules are followed",
            "the Korean wiki adds that the whole colour group must be cleared"]),
    ("ja", ["公式ルールにはスタート順の記述がありません。ロシア語版クラシックルールに従います",
            "公式ルールは土地に建物がないことだけを求めていますが、韓国語Wikiはカラーグループ全体"]),
    ("ko", ["공식 규칙에는 플레이 순서에 관한 내용이 없습니다. 러시아어판 클래식 규칙을 따릅니다"]),
    ("de", ["Der offizielle Regeltext sagt nichts zur Spielreihenfolge. Es gilt der russische Regeltext",
            "das koreanische Wiki fügt hinzu"])])
def test_the_rules_page_names_the_published_texts_in_the_notes_in_every_language(app, lang, words):
    client = app.test_client()
    for ruleset_id in ("classic", "korean-house", "classic-timed", "disney", "german-simple"):
        page = client.get(f"/rulesets/{ruleset_id}", headers={"Accept-Language": lang}).get_data(as_text=True)
        assert not TEXT_NUMBER.search(page), (ruleset_id, TEXT_NUMBER.search(page))
        if ruleset_id == "classic":
            assert all(w in page for w in words), [w for w in words if w not in page]


def test_the_korean_and_german_section_names_read_in_the_devices_language_with_the_original_beside_them(app):
    korean, german = rulesets.load("korean-house"), rulesets.load("german-simple")
    with said_in(app, "en"):
        assert why(korean, "x", "salary").source == (
            "Korean wiki (Monopoly/game rules), 2.3 Squares: Start; footnote 14 "
            "(Korean wiki (모노폴리/게임규칙), 2.3 칸: 시작; footnote 14)")
        assert why(german, "x", "salary").source == (
            "German rules (Monopoly rules, simplified), 6. Actions: GO "
            "(German rules (Spielregeln Monopoly, vereinfacht), 6. Aktionen: Los)")
    with said_in(app, "ja"):
        assert why(korean, "x", "salary").source == (
            "韓国語Wiki（モノポリー/ゲーム規則）, 2.3 マス: スタート; 脚注 14"
            "（Korean wiki (모노폴리/게임규칙), 2.3 칸: 시작; footnote 14）")
        assert why(german, "x", "dice").source.startswith("ドイツ語ルール（モノポリー簡易ルール）, 5. 駒の動かし方（")
    with said_in(app, "ko"):
        assert why(korean, "x", "salary").source == (
            "한국어 위키 (모노폴리/게임규칙), 2.3 칸: 시작; 각주 14"
            " (원문: Korean wiki (모노폴리/게임규칙), 2.3 칸: 시작; footnote 14)")
        assert why(german, "x", "seating").source == (
            "독일어 규칙 (모노폴리 간이 규칙), 1. 게임 진행"
            " (원문: German rules (Spielregeln Monopoly, vereinfacht), 1. Spielablauf)")
    with said_in(app, "de"):
        assert why(korean, "x", "salary").source == (
            "Koreanisches Wiki (Monopoly/Spielregeln), 2.3 Felder: Start; Fußnote 14 "
            "(im Original: Korean wiki (모노폴리/게임규칙), 2.3 칸: 시작; footnote 14)")
        assert why(german, "x", "seating").source == (
            "Spielregeln Monopoly (vereinfacht), 1. Spielablauf "
            "(im Original: German rules (Spielregeln Monopoly, vereinfacht), 1. Spielablauf)")


@pytest.mark.parametrize("lang, korean, german", [
    ("en", "Korean wiki (Monopoly/game rules), 2.3 Squares: Jail", "German rules (Monopoly rules, simplified), 1. Course of play"),
    ("ja", "韓国語Wiki（モノポリー/ゲーム規則）, 2.3 マス: 刑務所", "ドイツ語ルール（モノポリー簡易ルール）, 1. ゲームの流れ"),
    ("ko", "한국어 위키 (모노폴리/게임규칙), 2.3 칸: 감옥", "독일어 규칙 (모노폴리 간이 규칙), 1. 게임 진행 (원문: "),
    ("de", "Koreanisches Wiki (Monopoly/Spielregeln), 2.3 Felder: Gefängnis",
     "Spielregeln Monopoly (vereinfacht), 1. Spielablauf (im Original: ")])
def test_the_rules_pages_cite_the_korean_and_german_sections_in_the_devices_language(app, lang, korean, german):
    client = app.test_client()
    page = client.get("/rulesets/korean-house", headers={"Accept-Language": lang}).get_data(as_text=True)
    assert korean in page
    page = client.get("/rulesets/german-simple", headers={"Accept-Language": lang}).get_data(as_text=True)
    assert german in page


# ---------------------------------------------------------------- setting names, board ids and ruleset ids
# A note says what a setting does or names it by the label the rules page shows ("When trades may be made"), a
# ruleset by its title ("Classic rules (Hasbro)") and a board by its edition; the names the files use for them
# ("trade_timing", "money.go_landing_salary", "atlantic-city-us", "jma-2006", "as classic") mean nothing to a reader.
USER_FACING_KEYS = ("note", "text", "name", "description", "source")
LATIN = r"[A-Za-z0-9_]"  # a name's edge: "classicと同じく" and "classic과" name the ruleset (\w would take ja and ko letters)


def _file_ids() -> tuple[list[str], list[str]]:
    boards = [tomllib.loads(p.read_text(encoding="utf-8"))["board"]["id"]
              for p in sorted((ROOT / "rulesets" / "boards").glob("*.toml"))]
    ids = [tomllib.loads(p.read_text(encoding="utf-8"))["ruleset"]["id"]
           for p in sorted((ROOT / "rulesets").glob("*.toml"))]
    return boards, ids


def _setting_name_detector() -> re.Pattern[str]:
    """Every option name (each has a "_", so no plain word is one), a [money] setting ("money.salary"), each board
    id and each ruleset id with a "-" or "_" anywhere; a ruleset id that is also a plain English word ("classic",
    "disney") only where it stands as a name: not in "classic rules", "classic game", "classic text" nor in a
    ruleset's own title "Shortened game (classic)"."""
    from referee.engine import OPTION_SPECS
    boards, ids = _file_ids()
    names = set(OPTION_SPECS) | set(boards) | {i for i in ids if re.search(r"[-_]", i)}
    assert all(re.search(r"[-_]", n) for n in names), sorted(n for n in names if not re.search(r"[-_]", n))
    words = sorted(set(ids) - names)
    return re.compile(
        rf"(?<!{LATIN}|[.-])(?:" + "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True)) + rf")(?!{LATIN}|-)"
        r"|\bmoney\.\w"
        rf"|(?<!{LATIN}|[.-])(?<!game \()(?:" + "|".join(words) + rf")(?!{LATIN}|-)(?! rules?\b| games?\b| texts?\b)")


SETTING_NAME = _setting_name_detector()


def _user_facing(value, key: str = ""):
    """The strings of a ruleset file a user reads (each option's and clause's note, text and source, the names and
    description), and every string of a notes file's [notes] (each note in English and in its language)."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _user_facing(v, k if k in USER_FACING_KEYS or key in USER_FACING_KEYS else key)
    elif isinstance(value, list):
        for v in value:
            yield from _user_facing(v, key)
    elif isinstance(value, str) and key in USER_FACING_KEYS:
        yield value


def _setting_names_in(root: Path) -> list[tuple[str, str]]:
    found = []
    for path in sorted(root.glob("*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        found += [(path.name, m.group()) for s in _user_facing(data) for m in SETTING_NAME.finditer(s)]
    for path in sorted((root / "notes").glob("*.*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))["notes"]
        found += [(path.name, m.group()) for s in _strings(data) for m in SETTING_NAME.finditer(s)]
    return found


@pytest.mark.parametrize("sample", [
    "(jail_skip_turn)", "variants of trade_timing and build_timing", "No pot is kept (free_parking = nothing)",
    "where pot_payments names penalty", "(option luxury_tax_amount)", "see mortgage_timing", "M400 (money.go_landing_salary)",
    "The salary is M200 (money.salary)", "a larger bank_money", "(landing_on_own)", "(jail_max_rolls)",
    "the board (atlantic-city-us, pre-2008)", "(disney-edition, with the standard US figures)", "as in jma-2006",
    "a house rule (korean-house)", "the shortened game's (classic-short)", "classic follows each main rule",
    "As classic, the referee picks no winner", "as in classic.", "(classic: 'Your move ends')", "the classic ruleset",
    "classicと同じく", "classic과 같이", "Wie in classic wird", "세금도 classic의 것", "(trade_timing never)"])
def test_the_detector_finds_a_setting_name_a_board_id_or_a_ruleset_id(sample):
    assert SETTING_NAME.search(sample), sample


@pytest.mark.parametrize("sample", [
    "The Russian classic rules are followed", "their classic game cancels the doubled rent", "the classic text",
    "Shortened game (classic)", "Time-limit game (classic)", "the bank's money.", "own money. There is no negative",
    "When trades may be made", "the Classic rules (Hasbro)", "the JMA competition rules (2006)", "the Disney edition",
    "the Standard edition, Atlantic City, US, pre-2008", "Russian classic rules' own classic game 'exactly'"])
def test_the_detector_lets_plain_words_be(sample):
    assert not SETTING_NAME.search(sample), sample


def test_a_note_naming_a_setting_is_caught_in_the_ruleset_file_and_in_any_language(tmp_path):
    (tmp_path / "notes").mkdir()
    (tmp_path / "x.toml").write_text(
        '[ruleset]\nid = "x"\nboard = "atlantic-city-us"\n'
        '[options.build_timing]\nvalue = "between_turns"\nnote = "Building waits for the turn to end."\n',
        encoding="utf-8")
    assert _setting_names_in(tmp_path) == []  # the values and ids the engine reads are no words a user reads
    (tmp_path / "notes" / "x.de.toml").write_text(
        '[notes.build_timing]\nen = "Building waits for the turn to end."\nde = "Siehe trade_timing."\n',
        encoding="utf-8")
    assert _setting_names_in(tmp_path) == [("x.de.toml", "trade_timing")]
    (tmp_path / "x.toml").write_text('[options.a]\nvalue = 1\nnote = "As in jma-2006 (money.salary)."\n',
                                     encoding="utf-8")
    assert _setting_names_in(tmp_path) == [("x.toml", "jma-2006"), ("x.toml", "money.s"), ("x.de.toml", "trade_timing")]


def test_no_note_names_a_setting_a_board_or_a_ruleset_by_its_file_name_in_any_language():
    assert _setting_names_in(ROOT / "rulesets") == []


@pytest.mark.parametrize("ruleset_id", ["classic", "classic-short", "classic-timed", "disney"])
def test_a_note_of_a_dollar_ruleset_states_its_amounts_in_dollars_and_keeps_the_won_only_in_quotes(ruleset_id):
    """The official rules' text is published in ₩; a clause quoting it keeps them, a note about this game says $."""
    data = tomllib.loads((ROOT / "rulesets" / f"{ruleset_id}.toml").read_text(encoding="utf-8"))
    assert data["money"]["currency"] == "$"
    notes = [entry.get("note", "") for table in ("options", "clauses") for entry in data.get(table, {}).values()]
    for lang in ("ja", "ko", "de"):
        translated = tomllib.loads((ROOT / "rulesets" / "notes" / f"{ruleset_id}.{lang}.toml").read_text(encoding="utf-8"))
        notes += [n[lang] for n in translated["notes"].values()]
    assert [n for n in notes if "₩" in n] == []
    assert "$100" in data["options"]["luxury_tax_amount"]["note"]
