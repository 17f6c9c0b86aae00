"""Answers compressed for the venue's Wi-Fi (referee/web/compression.py): a device that reads gzip gets its pages,
live regions, stylesheet and scripts gzipped; one that does not gets them as they are; images, PDFs, small answers
and a poll's 204 are sent as they are."""
from __future__ import annotations

import gzip
import hashlib
import os
from pathlib import Path

import pytest

from referee.web.compression import SMALLEST, StaticCompressed
from referee.web.static_files import StaticVersions

from conftest import new_game

# What is sent depends on the answer's bytes, not on the database: one database (SQLite) is enough.
on_sqlite = pytest.mark.parametrize("database", ["sqlite"], indirect=True)

STATIC = Path(__file__).parent.parent / "referee" / "web" / "static"
GZIP = {"Accept-Encoding": "gzip, deflate, br"}


def version(name: str) -> str:
    return hashlib.sha256((STATIC / name).read_bytes()).hexdigest()[:12]


@on_sqlite
def test_a_table_screen_is_gzipped_for_a_device_that_reads_gzip_and_is_the_same_page(app, client):
    game_id = new_game(client)
    plain = client.get(f"/games/{game_id}")
    packed = client.get(f"/games/{game_id}", headers=GZIP)
    assert plain.status_code == packed.status_code == 200
    assert "Content-Encoding" not in plain.headers
    assert packed.headers["Content-Encoding"] == "gzip"
    body = gzip.decompress(packed.get_data())
    # the same page, but for the key each drawing of the entry forms gets
    assert len(body) == len(plain.get_data())
    assert int(packed.headers["Content-Length"]) == len(packed.get_data()) < len(body) / 2
    for answer in (plain, packed):
        assert "Accept-Encoding" in answer.headers["Vary"]


@on_sqlite
def test_a_live_region_is_gzipped_and_an_unchanged_poll_is_an_empty_204_without_a_documents_headers(app, client):
    game_id = new_game(client)
    live = client.get(f"/games/{game_id}?v=0", headers={"HX-Request": "true", **GZIP})
    assert live.status_code == 200 and live.headers["Content-Encoding"] == "gzip"
    text = gzip.decompress(live.get_data()).decode()
    assert 'id="tablelive"' in text
    version_now = text.split('data-version="', 1)[1].split('"', 1)[0]
    unchanged = client.get(f"/games/{game_id}?v={version_now}", headers={"HX-Request": "true", **GZIP})
    assert unchanged.status_code == 204 and unchanged.get_data() == b""
    assert "Content-Encoding" not in unchanged.headers
    # nothing but what an empty answer needs: no document, so no document's policies nor type (some 400 bytes)
    for header in ("Content-Security-Policy", "Permissions-Policy", "X-Frame-Options", "X-Content-Type-Options",
                   "Referrer-Policy", "Content-Type"):
        assert header not in unchanged.headers, header
        assert header in live.headers, header  # the region drawn keeps them
    assert sum(len(k) + len(v) + 4 for k, v in unchanged.headers.items()) < 100


@on_sqlite
@pytest.mark.parametrize("accepts", ["identity", "gzip;q=0", "br", ""])
def test_a_device_that_does_not_read_gzip_gets_the_page_as_it_is(client, accepts):
    answer = client.get("/", headers={"Accept-Encoding": accepts})
    assert answer.status_code == 200 and "Content-Encoding" not in answer.headers
    assert b"<html" in answer.get_data()


@on_sqlite
def test_a_static_file_is_gzipped_at_its_version_kept_a_year_and_revalidated_by_its_weak_tag(client):
    address = f"/static/htmx-2.0.11.min.js?v={version('htmx-2.0.11.min.js')}"
    packed = client.get(address, headers=GZIP)
    assert packed.status_code == 200 and packed.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.get_data()) == (STATIC / "htmx-2.0.11.min.js").read_bytes()
    assert int(packed.headers["Content-Length"]) == len(packed.get_data()) < 20_000  # of 52 kB
    assert "immutable" in packed.headers["Cache-Control"] and "Accept-Encoding" in packed.headers["Vary"]
    tag = packed.headers["ETag"]
    assert tag.startswith('W/"')  # not the file's bytes: a weak tag
    assert "Accept-Ranges" not in packed.headers  # a part of the gzipped bytes is no part of the file
    again = client.get(address, headers={"If-None-Match": tag, **GZIP})
    assert again.status_code == 304 and again.get_data() == b""
    assert again.headers["ETag"] == tag and "Accept-Encoding" in again.headers["Vary"]  # as its 200 said
    plain = client.get(address)
    assert "Content-Encoding" not in plain.headers
    assert plain.get_data() == (STATIC / "htmx-2.0.11.min.js").read_bytes()
    assert not plain.headers["ETag"].startswith("W/")


@on_sqlite
def test_images_and_parts_of_a_file_are_sent_as_they_are(client):
    icon = client.get(f"/static/icons/icon-512.png?v={version('icons/icon-512.png')}", headers=GZIP)
    assert icon.status_code == 200 and "Content-Encoding" not in icon.headers
    assert icon.get_data() == (STATIC / "icons" / "icon-512.png").read_bytes()
    part = client.get("/static/referee.css", headers={"Range": "bytes=0-99", **GZIP})
    assert part.status_code == 206 and "Content-Encoding" not in part.headers
    assert part.get_data() == (STATIC / "referee.css").read_bytes()[:100]


@on_sqlite
def test_an_answer_smaller_than_the_threshold_is_sent_as_it_is(client):
    answer = client.get("/ping", headers=GZIP)
    assert answer.status_code == 200 and len(answer.get_data()) < SMALLEST
    assert "Content-Encoding" not in answer.headers


def test_an_edited_static_file_is_compressed_again(tmp_path):
    folder = tmp_path / "static"
    folder.mkdir()
    sheet = folder / "a.css"
    sheet.write_text("body { color: black }\n" * 50)
    compressed = StaticCompressed(folder, StaticVersions(folder))
    first = compressed.of("a.css")
    assert gzip.decompress(first) == sheet.read_bytes()
    assert compressed.of("a.css") is first  # kept, not compressed again
    sheet.write_text("body { color: navy }\n" * 50)
    os.utime(sheet, ns=(1, 1))
    assert gzip.decompress(compressed.of("a.css")) == b"body { color: navy }\n" * 50
    assert compressed.of("b.css") is None and compressed.of("../a.css") is None


@on_sqlite
def test_a_static_file_asked_under_another_spelling_is_neither_versioned_nor_compressed_nor_kept(app, client):
    from referee.web.static_files import StaticVersions

    for spelling in ("./htmx-2.0.11.min.js", "icons/../htmx-2.0.11.min.js", ".//htmx-2.0.11.min.js"):
        answer = client.get(f"/static/{spelling}", headers=GZIP)
        assert "Content-Encoding" not in answer.headers, spelling
        assert answer.headers.get("Cache-Control") == "no-cache", spelling
    assert StaticVersions(STATIC).of("./referee.css") is None and StaticVersions(STATIC).of("/referee.css") is None


@on_sqlite
@pytest.mark.parametrize("site", ["cross-site", "same-site"])
def test_a_page_asked_for_from_another_site_is_not_compressed(client, site):
    """BREACH: another site's page can make the device ask for the app's pages with text of its choosing beside the
    forms' token, and read the lengths of the answers on the Wi-Fi; such an answer is sent as it is."""
    answer = client.get("/organiser?next=/guessed", headers={"Sec-Fetch-Site": site, **GZIP})
    assert answer.status_code == 200 and "Content-Encoding" not in answer.headers
    own = client.get("/organiser?next=/guessed", headers={"Sec-Fetch-Site": "same-origin", **GZIP})
    assert own.headers["Content-Encoding"] == "gzip"
    script = client.get(f"/static/referee.js?v={version('referee.js')}", headers={"Sec-Fetch-Site": site, **GZIP})
    assert script.headers["Content-Encoding"] == "gzip"  # a static file holds no secret
