"""Installable on the tablet: "Add to Home Screen" opens the app full screen without the browser's bars, named referee,
in the app's colours, with its icons (192 and 512 px, and a maskable one whose mark stays in the safe circle), its
manifest served as one and allowed by the Content-Security-Policy, and every page linking it, with the icon and colour
an iPad's Safari reads."""
import io
import json
import re

import pytest
from PIL import Image

from referee import create_app

from test_catalogues import ROOT
from test_rulings_log import seated


@pytest.fixture
def app(tmp_path):
    return create_app({"TESTING": True, "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False,
                       "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'test.sqlite'}"})


def css_colour(name: str) -> str:
    css = (ROOT / "referee" / "web" / "static" / "referee.css").read_text(encoding="utf-8")
    return re.search(rf"--{name}:\s*(#[0-9a-fA-F]{{6}})", css).group(1).lower()


def png(client, src: str) -> Image.Image:
    r = client.get(src)
    assert r.status_code == 200 and r.mimetype == "image/png", src
    image = Image.open(io.BytesIO(r.data))
    assert image.format == "PNG"
    return image


def test_the_manifest_opens_the_app_full_screen_with_its_name_and_colours(app):
    client = app.test_client()
    r = client.get("/manifest.webmanifest")
    assert r.status_code == 200 and r.mimetype == "application/manifest+json"
    manifest = json.loads(r.data)
    assert manifest["name"] == manifest["short_name"] == "referee"
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/" and manifest["scope"] == "/"
    assert manifest["theme_color"] == css_colour("accent") == "#0b5d3b"
    assert manifest["background_color"] == css_colour("paper") == "#f7f5ef"
    assert "manifest-src 'self'" in r.headers["Content-Security-Policy"]


def test_each_icon_the_manifest_names_is_a_png_of_the_size_it_says(app):
    client = app.test_client()
    icons = json.loads(client.get("/manifest.webmanifest").data)["icons"]
    sizes = {(icon["sizes"], icon.get("purpose", "any")) for icon in icons}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    for icon in icons:
        assert icon["type"] == "image/png"
        image = png(client, icon["src"])
        width, height = map(int, icon["sizes"].split("x"))
        assert image.size == (width, height), icon


def test_the_maskable_icon_fills_its_square_and_keeps_its_mark_in_the_safe_circle(app):
    """A launcher cuts a maskable icon to its own shape, keeping at least the circle of 40% of the size around the
    centre: the colour reaches every edge (nothing transparent), and the mark (the paper-coloured die) lies inside
    that circle."""
    client = app.test_client()
    icon = next(i for i in json.loads(client.get("/manifest.webmanifest").data)["icons"] if i["purpose"] == "maskable")
    image = png(client, icon["src"]).convert("RGBA")
    size = image.size[0]
    accent = tuple(int(css_colour("accent")[i:i + 2], 16) for i in (1, 3, 5))
    pixels = image.load()
    outside = [(x, y) for x in range(0, size, 4) for y in range(0, size, 4)
               if (x - size / 2) ** 2 + (y - size / 2) ** 2 > (0.4 * size) ** 2]
    assert all(pixels[x, y] == (*accent, 255) for x, y in outside)
    assert pixels[size // 2 - size // 8, size // 2] != (*accent, 255)  # the die, in the middle


def head(page: str) -> str:
    return page.split("</head>", 1)[0]


def test_every_page_links_the_manifest_and_the_ipads_icon_and_colour(app):
    tid, game_id, director, referee = seated(app)
    pages = [(app.test_client(), "/"), (app.test_client(), "/tournaments"),
             (referee, f"/games/{game_id}"), (director, f"/tournaments/{tid}"),
             (app.test_client(), f"/tournaments/{tid}/standings"), (app.test_client(), "/no/such/page")]
    for client, address in pages:
        r = client.get(address)
        page = head(r.get_data(as_text=True))
        assert '<link rel="manifest" href="/manifest.webmanifest">' in page, address
        assert f'<meta name="theme-color" content="{css_colour("accent")}">' in page, address
        touch = re.search(r'<link rel="apple-touch-icon" href="([^"]+)">', page).group(1)
        icon = png(client, touch)
        assert icon.size == (180, 180) and "A" not in icon.getbands()  # opaque: Safari would fill transparency black
        assert "manifest-src 'self'" in r.headers["Content-Security-Policy"]
