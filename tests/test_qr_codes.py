"""QR codes a phone or tablet camera opens: each table slip's opens that table's PIN screen, the room display's the
live standings; at the address the tablets use (PUBLIC_URL, else the address the request came to).  Decoded by
zbar (zbarimg) from the printed slip's pages and from the display's own image, never re-encoded."""
import html
import re
import shutil
import subprocess
from urllib.parse import urlsplit

import pytest

from referee import create_app
from referee.reports import _pdf
from referee.services import tournaments

PIN = "135791"

for tool in ("zbarimg", "pdftoppm"):
    if shutil.which(tool) is None:  # scripts/setup --tests installs zbar-tools and poppler-utils
        pytest.fail(f"{tool} is missing: run scripts/setup --tests", pytrace=False)


def make_app(tmp_path, **config):
    return create_app({"TESTING": True, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False,
                       "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 't.sqlite'}", **config})


def seated(client, players: int = 8) -> int:
    r = client.post("/tournaments", data={"name": "Cup", "scheme": "jma-placement", "ruleset": "jma-2006",
                                          "players": "\n".join(f"P{i}" for i in range(players)), "pin": PIN,
                                          "round_minutes": "70"})
    tid = int(r.headers["Location"].rsplit("/", 1)[1])
    client.post(f"/tournaments/{tid}/rounds", data={"round": "1"})
    return tid


def decoded(pdf: bytes, tmp_path, name: str) -> list[str]:
    """Every QR code zbar finds on the PDF's pages (rendered at 150 dpi, as a printer would), page by page."""
    path = tmp_path / f"{name}.pdf"
    path.write_bytes(pdf)
    subprocess.run(["pdftoppm", "-r", "150", "-png", str(path), str(tmp_path / name)], check=True)
    found = []
    for page in sorted(tmp_path.glob(f"{name}-*.png")):
        out = subprocess.run(["zbarimg", "--quiet", "-Sdisable", "-Sqrcode.enable", str(page)],
                             capture_output=True, text=True)
        assert out.returncode in (0, 4), out.stderr  # 4: no code on this page
        found += [line.removeprefix("QR-Code:") for line in out.stdout.splitlines() if line.startswith("QR-Code:")]
    return found


def tables(app, tid: int) -> list[int]:
    with app.app_context():
        return [t.game_id for t in tournaments.round_overview(tid, 1)]


def opens_the_pin_screen_of(app, url: str) -> int:
    """Open ``url`` on a new device (no unlock): the game whose PIN screen it lands on."""
    r = app.test_client().get(urlsplit(url).path, follow_redirects=True)
    assert r.status_code == 200
    page = r.get_data(as_text=True)
    assert 'name="pin"' in page
    return int(re.search(r'action="/games/(\d+)/unlock"', page).group(1))


def test_each_printed_slips_qr_code_opens_that_tables_pin_screen(tmp_path):
    app = make_app(tmp_path)
    client = app.test_client()
    tid = seated(client, players=8)
    r = client.get(f"/tournaments/{tid}/rounds/1/slips.pdf")
    assert r.status_code == 200 and r.mimetype == "application/pdf"
    codes = decoded(r.data, tmp_path, "slips")
    games = tables(app, tid)
    assert sorted(codes) == sorted(f"http://localhost/games/{g}" for g in games)  # one per slip
    assert sorted(opens_the_pin_screen_of(app, url) for url in codes) == sorted(games)
    words = subprocess.run(["pdftotext", "-", "-"], input=r.data, capture_output=True, check=True).stdout.decode()
    assert " ".join(words.split()).count("Scan to open this table's PIN screen") == len(games)


def test_the_slips_qr_codes_carry_the_public_address_the_tablets_use(tmp_path):
    app = make_app(tmp_path, PUBLIC_URL="http://192.168.8.20:5000")
    client = app.test_client()
    tid = seated(client, players=4)
    codes = decoded(client.get(f"/tournaments/{tid}/rounds/1/slips.pdf").data, tmp_path, "slips")
    assert sorted(codes) == sorted(f"http://192.168.8.20:5000/games/{g}" for g in tables(app, tid))


def display_qr(page: str) -> tuple[str, str]:
    """The room display's QR image (its data: address) and the address printed under it."""
    aside = re.search(r'<aside class="scan" id="standings-qr">(.*?)</aside>', page, re.S).group(1)
    src = html.unescape(re.search(r'<img class="qr" src="([^"]+)"', aside).group(1))
    shown = re.search(r'<div class="url muted">([^<]+)</div>', aside).group(1)
    return src, html.unescape(shown)


def test_the_room_displays_qr_code_opens_the_live_standings(tmp_path):
    app = make_app(tmp_path)
    client = app.test_client()
    tid = seated(client, players=4)
    page = app.test_client().get(f"/tournaments/{tid}/display", base_url="http://10.1.2.3:8000").get_data(
        as_text=True)
    src, shown = display_qr(page)
    assert src.startswith("data:image/svg+xml")
    with app.test_request_context():  # the display's own image, printed as it is, then read by zbar
        pdf = _pdf(f'<img src="{html.escape(src)}" style="width:60mm;height:60mm">')
    [code] = decoded(pdf, tmp_path, "display")
    assert code == shown == f"http://10.1.2.3:8000/tournaments/{tid}/standings"
    standings = app.test_client().get(urlsplit(code).path)
    assert standings.status_code == 200 and "Cup" in standings.get_data(as_text=True)


def test_the_room_displays_qr_code_uses_the_public_address_when_set(tmp_path):
    app = make_app(tmp_path, PUBLIC_URL="https://cup.example.org/")
    tid = seated(app.test_client(), players=4)
    src, shown = display_qr(app.test_client().get(f"/tournaments/{tid}/display").get_data(as_text=True))
    with app.test_request_context():
        pdf = _pdf(f'<img src="{html.escape(src)}" style="width:60mm;height:60mm">')
    assert decoded(pdf, tmp_path, "display") == [shown] == [f"https://cup.example.org/tournaments/{tid}/standings"]


def test_the_director_is_told_when_the_slips_qr_codes_open_an_address_only_this_computer_reaches(tmp_path):
    here = make_app(tmp_path)  # the test client's requests come to http://localhost/, as a laptop's own browser would
    client = here.test_client()
    tid = seated(client, players=4)
    warning = "an address only this computer reaches"
    page = html.unescape(client.get(f"/tournaments/{tid}").get_data(as_text=True))
    assert f"The slips' QR codes open http://localhost/, {warning}" in page and "PUBLIC_URL" in page
    (tmp_path / "venue").mkdir()
    venue = make_app(tmp_path / "venue", PUBLIC_URL="http://192.168.8.20:5000")
    client = venue.test_client()
    tid = seated(client, players=4)
    assert warning not in client.get(f"/tournaments/{tid}").get_data(as_text=True)
    assert warning not in client.get(f"/tournaments/{tid}", base_url="http://192.168.8.20:5000").get_data(as_text=True)
