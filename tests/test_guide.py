"""The day's guide in the app, in English, Japanese, Korean and German: a page per role (the organiser, the director,
a table's referee, a judge) with numbered steps that name each button as the screen shows it in that language; the top
bar's help link leads to the role the screen is for (the table screen, the director's page, the judges' screen); the
table referee's quick start prints on one page (A4 or Letter) in the device's language."""
import html
import re
import subprocess

import pytest
from babel.messages.pofile import read_po

from referee import create_app
from referee.language.i18n import TRANSLATIONS
from referee.screens.guide import CODE, ROLES, WORD, guides
from referee.services import tournaments

from test_catalogues import ROOT, extracted
from test_judges import judge_phone, make_pin
from test_rulings_log import seated, text
from conftest import finish_seating

LANGUAGES = ("en", "ja", "ko", "de")
# The buttons each role's steps must name, by the screen's own message (and the value a number in it is given)
BUTTONS = {
    "organiser": [("Tournaments",), ("Create the tournament",), ("Director PIN",), ("Backups",)],
    "director": [("Seat round %(n)s", 1), ("Table slips (PDF, with each table's PIN)",), ("Make the judges' PIN",),
                 ("Make the head judge's PIN",), ("Answer with a ruling",), ("Call time on every table of this round",),
                 ("Correct the result",), ("Lock every tablet of this tournament",)],
    "table-referee": [("Unlock",), ("Start the clock",), ("Void the latest entries…",), ("Record the ruling",),
                      ("Time called",), ("Yes: call time now",), ("Lock",)],
    "judge": [("Judges' PIN",), ("Unlock",), ("Calls for a judge",), ("Who claimed what",), ("Record the ruling",),
              ("Print this",)],
}


@pytest.fixture
def app(tmp_path):
    return create_app({"TESTING": True, "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False,
                       "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'test.sqlite'}"})


def catalogue(lang: str):
    with (TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po").open("rb") as fh:
        return read_po(fh)


CATALOGUES = {lang: catalogue(lang) for lang in LANGUAGES if lang != "en"}


def translated(lang: str, msgid: str, *value) -> str:
    """A screen's word as the app shows it in ``lang``, read from the catalogue (the number put in)."""
    words = msgid if lang == "en" else CATALOGUES[lang].get(msgid).string
    return re.sub(r"%\(\w+\)s", str(value[0]), words) if value else words


def in_language(client, lang: str):
    client.set_cookie("lang", lang)
    return client


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_roles_guide_answers_in_its_language_with_numbered_steps_naming_the_buttons_as_the_screens_do(app, lang):
    client = in_language(app.test_client(), lang)
    index = client.get("/help")
    assert index.status_code == 200 and f'<html lang="{lang}">' in index.get_data(as_text=True)
    for role in ROLES:
        assert f'href="/help/{role}"' in index.get_data(as_text=True)
        r = client.get(f"/help/{role}")
        assert r.status_code == 200, role
        page = r.get_data(as_text=True)
        assert f'<html lang="{lang}">' in page
        assert page.count("<ol>") >= 3 and page.count("<li>") >= 10  # sections of numbered steps
        words = {html.unescape(w) for w in re.findall(r'<b class="ui">(.*?)</b>', page)}
        for msgid, *value in BUTTONS[role]:
            button = translated(lang, msgid, *value)
            assert button and button in words, (role, msgid, button)


@pytest.mark.parametrize("lang", ("ja", "ko", "de"))
def test_the_guide_is_not_left_in_english(app, lang):
    """Every sentence of the guide is translated: its English is nowhere on the page."""
    with app.test_request_context("/"):
        english = [p.text.strip() for g in guides() for s in g.sections for step in s.steps for p in step
                   if p.kind not in (WORD, CODE) and len(p.text.strip()) > 12]
    client = in_language(app.test_client(), lang)
    pages = " ".join(text(client.get(f"/help/{role}")) for role in ROLES)
    assert english and [e for e in english if e in pages] == []


def screens_sources() -> str:
    """The code and the templates of the screens, the guide's own module left out."""
    files = [*ROOT.glob("templates/**/*.html"), *ROOT.glob("referee/**/*.py")]
    return "\n".join(f.read_text(encoding="utf-8") for f in files if f.name != "guide.py")


def test_each_word_the_guide_names_is_a_word_a_screen_shows_translated_in_every_catalogue(app):
    """The guide puts in a button's words from the screen's own message, which the guide does not mark: it is in
    the catalogues while a screen shows it, translated there once for both."""
    found, sources = extracted(), screens_sources()
    with app.test_request_context("/"):
        named = {p.msgid for g in guides() for s in g.sections for step in s.steps for p in step if p.kind == WORD}
    assert len(named) > 30
    for msgid in named:
        assert msgid in found and (f'"{msgid}"' in sources or f"'{msgid}'" in sources), msgid
        for lang, cat in CATALOGUES.items():
            assert cat.get(msgid) is not None and cat.get(msgid).string, (lang, msgid)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_buttons_the_guide_names_are_the_buttons_on_the_directors_page_and_the_table_screen(app, lang):
    director = in_language(app.test_client(), lang)
    r = director.post("/tournaments", data={"name": "Cup", "scheme": "jma-placement", "ruleset": "jma-2006",
                                            "players": "\n".join(f"P{i}" for i in range(8)), "pin": "135791",
                                            "round_minutes": "70"})
    tid = int(r.headers["Location"].rsplit("/", 1)[1])
    page = text(director.get(f"/tournaments/{tid}"))
    guide = text(director.get("/help/director"))
    for msgid, *value in [("Seat round %(n)s", 1), ("Make the judges' PIN",), ("Make the head judge's PIN",),
                          ("Judges",)]:
        assert translated(lang, msgid, *value) in page and translated(lang, msgid, *value) in guide, msgid
    director.post(f"/tournaments/{tid}/rounds", data={"round": "1"})
    page = text(director.get(f"/tournaments/{tid}"))
    for msgid in ("Table slips (PDF, with each table's PIN)", "Call time on every table of this round"):
        assert translated(lang, msgid) in page and translated(lang, msgid) in guide, msgid
    with app.app_context():
        game_id = tournaments.round_overview(tid, 1)[0].game_id
        finish_seating(game_id)  # entries to void
    table = text(director.get(f"/games/{game_id}"))  # the director's PIN opens every table
    referee_guide = text(director.get("/help/table-referee"))
    for msgid in ("Start the clock", "Void the latest entries…", "Lock"):
        assert translated(lang, msgid) in table and translated(lang, msgid) in referee_guide, msgid


def help_link(page: str) -> str:
    return re.search(r'<a href="([^"]*)" class="help">', page).group(1)


def test_the_top_bars_help_link_opens_the_guide_of_the_role_the_screen_is_for(app):
    tid, game_id, director, referee = seated(app)
    phone = judge_phone(app, tid, make_pin(director, tid, "judge"))
    for client, address, guide in [
            (referee, f"/games/{game_id}", "/help/table-referee"),
            (referee, f"/games/{game_id}/entries/1", "/help/table-referee"),
            (director, f"/tournaments/{tid}", "/help/director"),
            (phone, f"/tournaments/{tid}/judge", "/help/judge"),
            (app.test_client(), f"/tournaments/{tid}/judge/unlock", "/help/judge"),
            (app.test_client(), "/", "/help"),
            (app.test_client(), "/tournaments", "/help"),
            (app.test_client(), f"/tournaments/{tid}/standings", "/help"),
            (app.test_client(), f"/games/{game_id}/display", "/help"),
            (app.test_client(), "/no/such/page", "/help")]:
        r = client.get(address)
        assert r.status_code in (200, 404), address
        assert help_link(r.get_data(as_text=True)) == guide, address
        assert client.get(guide).status_code == 200


def test_a_role_that_is_none_of_the_days_is_no_page(app):
    r = in_language(app.test_client(), "ja").get("/help/spectator")
    assert r.status_code == 404 and translated("ja", "there is no such page") in text(r)


def pdf_text(data: bytes, tmp_path, name: str) -> tuple[str, str]:
    path = tmp_path / name
    path.write_bytes(data)
    words = subprocess.run(["pdftotext", "-enc", "UTF-8", str(path), "-"], capture_output=True, check=True).stdout
    info = subprocess.run(["pdfinfo", str(path)], capture_output=True, check=True).stdout.decode()
    return " ".join(words.decode("utf-8").split()), info


SHEET_SAYS = {  # sentences of the quick start, read back from the printed page (its spaces and line breaks left out)
    "en": ("Quickstart:Thetable'sreferee", "Beforethegame", "Adispute", "TapStarttheclockwhenplaybegins."),
    "ja": ("クイックスタート：卓の審判", "ゲームの前", "争いが起きたら", "プレイが始まったら時計を動かすを押します。"),
}
PAGE_POINTS = {"A4": "595.276 x 841.89", "Letter": "612 x 792"}


@pytest.mark.long  # a PDF in every language and size: scripts/test runs it, --fast leaves it out
@pytest.mark.parametrize("lang, size", [("en", "A4"), ("ja", "A4"), ("ja", "Letter"), ("ko", "Letter"),
                                        ("de", "Letter")])  # Letter the shorter page, A4 the narrower
def test_the_quick_start_prints_on_one_page_of_the_size_asked_in_the_devices_language(app, tmp_path, lang, size):
    client = in_language(app.test_client(), lang)
    page = client.get("/help/table-referee").get_data(as_text=True)
    link = "/help/table-referee/quick-start.pdf" + ("?size=Letter" if size == "Letter" else "")
    assert f'href="{link}"' in page
    r = client.get(link)
    assert r.status_code == 200 and r.mimetype == "application/pdf"
    words, info = pdf_text(r.data, tmp_path, f"quick-start-{lang}-{size}.pdf")
    assert re.search(r"Pages:\s+1\n", info) and re.search(rf"Page size:\s+{PAGE_POINTS[size]} pts", info)
    assert "http://localhost/help/table-referee" in words  # the whole guide's address (with its QR code)
    unbroken = re.sub(r"\s+", "", words)  # a line of Japanese breaks anywhere, and pdftotext reads a space there
    for msgid in ("Unlock", "Start the clock", "Record the ruling", "Yes: call time now",
                  ("Call a judge on entry %(n)s", "…")):
        msgid, *value = (msgid,) if isinstance(msgid, str) else msgid
        assert re.sub(r"\s+", "", translated(lang, msgid, *value)) in unbroken, msgid
    for sentence in SHEET_SAYS.get(lang, ()):
        assert sentence in unbroken
    if lang != "en":
        assert "Before" not in words and "Tap" not in words
