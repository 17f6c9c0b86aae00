"""The static files are named by their version and kept by the devices for a year (referee/web/static_files.py): a
tablet's next screen takes the stylesheet and scripts from its own cache instead of asking the venue's Wi-Fi again."""
from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

import pytest

from referee.web.static_files import KEPT_FOR, StaticVersions

# Files served from a folder: nothing here reads the database, so one database (SQLite) is enough.
on_sqlite = pytest.mark.parametrize("database", ["sqlite"], indirect=True)

STATIC = Path(__file__).parent.parent / "referee" / "web" / "static"


def digest(name: str) -> str:
    return hashlib.sha256((STATIC / name).read_bytes()).hexdigest()[:12]


@on_sqlite
def test_every_static_address_of_a_page_names_the_files_version(client):
    page = client.get("/").get_data(as_text=True)
    addresses = re.findall(r'(?:src|href)="(/static/[^"]+)"', page)
    assert {a.split("?")[0] for a in addresses} >= {"/static/referee.css", "/static/referee.js",
                                                    "/static/htmx-2.0.11.min.js", "/static/icons/icon-192.png"}
    for address in addresses:
        path, _, query = address.partition("?")
        assert query == f"v={digest(path.removeprefix('/static/'))}", address


@on_sqlite
def test_a_static_file_asked_at_its_version_is_kept_a_year_and_otherwise_asked_again(client):
    css = f"/static/referee.css?v={digest('referee.css')}"
    kept = client.get(css)
    assert kept.status_code == 200
    assert kept.headers["Cache-Control"] == f"public, max-age={KEPT_FOR}, immutable"
    assert KEPT_FOR == 31536000
    # asked again with its ETag (a device whose cache was cleared of the body but kept the tag): still kept a year
    again = client.get(css, headers={"If-None-Match": kept.headers["ETag"]})
    assert again.status_code == 304 and "immutable" in again.headers["Cache-Control"]
    for address in ("/static/referee.css", "/static/referee.css?v=0123456789ab", "/static/referee.css?v="):
        answer = client.get(address)
        assert answer.status_code == 200 and answer.get_data() == kept.get_data()
        assert answer.headers["Cache-Control"] == "no-cache", address  # an old page's address: asked each time


@on_sqlite
def test_the_manifest_names_its_icons_at_their_versions(client):
    icons = client.get("/manifest.webmanifest").get_json()["icons"]
    assert [i["src"] for i in icons] == [f"/static/{name}?v={digest(name)}" for name in
                                         ("icons/icon-192.png", "icons/icon-512.png", "icons/icon-maskable-512.png")]


@on_sqlite
def test_a_missing_file_has_no_version_and_is_not_found(app, client):
    with app.test_request_context():
        from flask import url_for

        assert url_for("static", filename="nothing.css") == "/static/nothing.css"
        assert url_for("static", filename="../app/__init__.py") == "/static/../app/__init__.py"
    assert client.get("/static/nothing.css?v=0123456789ab").status_code == 404


def test_an_edited_file_gets_a_new_version_and_a_name_outside_the_folder_none(tmp_path):
    (tmp_path / "static").mkdir()
    sheet = tmp_path / "static" / "a.css"
    sheet.write_text("body { color: black }")
    (tmp_path / "secret.txt").write_text("not served")
    versions = StaticVersions(tmp_path / "static")
    first = versions.of("a.css")
    assert first == hashlib.sha256(b"body { color: black }").hexdigest()[:12]
    sheet.write_text("body { color: navy }")
    os.utime(sheet, ns=(1, 1))  # a new time of change (and size), as an edit made
    assert versions.of("a.css") == hashlib.sha256(b"body { color: navy }").hexdigest()[:12] != first
    assert versions.of("../secret.txt") is None and versions.of("b.css") is None
    assert versions.of("a\0.css") is None and versions.of("a" * 5000) is None  # a NUL, a name too long
