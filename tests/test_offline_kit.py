"""The offline kit the app serves to the tables' tablets (/offline/kit.zip): the project's own engine, screens, words
and tablet code, the table screen's templates and the libraries they draw with, byte for byte as the server has
them, and every ruleset's values.  Unpacked on its own, with nothing but Python's standard library beside it (no
Flask, no database, no installed package: as in the tablet's Pyodide), it replays a record, judges a tap as the
server does and draws the table screen."""
import io
import json
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from conftest import new_game
from referee.services import rulesets

# what it checks (words, screens, rules, printed pages) is drawn from the same rows on either database: its app
# tests run on SQLite alone (tests/conftest.py: one_database)
pytestmark = pytest.mark.one_database

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = Path(__file__).parent / "golden" / "jma-short-game.jsonl"

ALONE = """
import json, sys
sys.path.insert(0, sys.argv[1])
from pathlib import Path
from referee.tablet import KeptTable, kit_screens, TabletTable
values = json.load(open(sys.argv[1] + "/rulesets.json", encoding="utf-8"))
record = open(sys.argv[2], encoding="utf-8").read()
table = KeptTable(values, record)
answers = [table.tap_json(json.dumps(tap)) for tap in json.loads(sys.argv[3])]
facts = {"game": 1, "limit_minutes": None, "elapsed": 0, "running": False, "csrf": "t",
         "judge": {"rulings": 0, "seated": False, "called": None}}
drawing = TabletTable(kit_screens(Path(sys.argv[1])), values, record, facts, "ja")
region = drawing.region()
print(json.dumps({"seq": table.seq, "answers": [json.loads(a) for a in answers], "region": region,
                  "templates": {name: drawing.screens.env.get_template(name).filename
                                for name in ("table/_live.html", "table/_players.html", "table/decisions/roll.html")},
                  "loaded": sorted(m.split(".")[0] for m in sys.modules),
                  "from": {name: sys.modules[name].__file__ for name in ("jinja2", "markupsafe", "babel")}}))
"""


def kit_members(kit: zipfile.ZipFile, suffixes: tuple[str, ...]) -> list[str]:
    return sorted(name for name in kit.namelist() if name.endswith(suffixes))


def test_the_kit_holds_the_servers_code_templates_and_libraries_and_every_rulesets_values(client):
    """The tablet runs the server's own files: its engine, screens, words and tablet code, the table screen's
    templates and the libraries they draw with, each byte for byte as the server has it (but the server's alone:
    its QR codes, its requests' language); of babel's locale data, the app's four languages and their root."""
    import babel
    import jinja2
    import markupsafe

    from referee.web.offline import KIT_LEFT_OUT

    answer = client.get("/offline/kit.zip")
    assert answer.status_code == 200 and answer.mimetype == "application/zip"
    kit = zipfile.ZipFile(io.BytesIO(answer.data))
    ours = [name for name in kit_members(kit, (".py", ".mo", ".html")) if name.startswith(("referee/", "templates/"))]
    expected = ["referee/__init__.py"] + sorted(
        str(p.relative_to(ROOT)) for folder in ("referee/engine", "referee/tablet", "referee/screens",
                                                 "referee/language", "referee/cache")
        for p in (ROOT / folder).rglob("*") if p.suffix in (".py", ".mo")) + sorted(
        str(p.relative_to(ROOT)) for p in (ROOT / "templates" / "table").rglob("*.html")) + ["templates/_message.html", "templates/tablet/_alone_games.html"]
    assert sorted(ours) == sorted(name for name in expected if name not in KIT_LEFT_OUT)
    assert "referee/screens/qr.py" not in ours and "referee/language/i18n.py" not in ours
    assert all(kit.read(name) == (ROOT / name).read_bytes() for name in ours)
    # each template also compiled by the server, as jinja2's ModuleLoader names it: the tablet imports them
    assert sorted(n for n in kit.namelist() if n.startswith("templates-compiled/")) == sorted(
        f"templates-compiled/{jinja2.ModuleLoader.get_module_filename(name.removeprefix('templates/'))}"
        for name in ours if name.startswith("templates/"))
    for library in (jinja2, markupsafe, babel):
        folder = Path(library.__file__).parent
        members = [name for name in kit.namelist() if name.startswith(f"{folder.name}/")]
        assert sorted(m for m in members if m.endswith(".py")) == sorted(
            f"{folder.name}/{p.relative_to(folder).as_posix()}" for p in folder.rglob("*.py"))
        assert all(kit.read(name) == (folder.parent / name).read_bytes() for name in members)
    assert sorted(n for n in kit.namelist() if n.startswith("babel/locale-data/")) == [
        f"babel/locale-data/{code}.dat" for code in ("de", "en", "ja", "ko", "root")]
    values = json.loads(kit.read("rulesets.json"))
    assert sorted(values) == rulesets.available() and set(values["jma-2006"]) == {"ruleset", "board", "decks"}
    languages = json.loads(kit.read("languages.json"))
    assert sorted(languages) == ["de", "en", "ja", "ko"] and languages["ja"]["sources"]
    assert json.loads(kit.read("addresses.json"))["table.record"] == "/games/<int:game_id>/record"
    assert len(answer.data) < sum(member.file_size for member in kit.infolist()) / 2  # each member deflated
    again = client.get("/offline/kit.zip", headers={"If-None-Match": answer.headers["ETag"]})
    assert again.status_code == 304 and again.headers["Cache-Control"] == "no-cache"


def test_the_kit_alone_on_the_standard_library_replays_a_record_judges_a_tap_and_draws_the_screen(client, tmp_path):
    import jinja2

    zipfile.ZipFile(io.BytesIO(client.get("/offline/kit.zip").data)).extractall(tmp_path / "kit")
    taps = [{"type": "roll", "player": "Nobody", "dice": [1, 2]}, {"type": "roll", "player": "Aki", "dice": [0, 3]}]
    run = subprocess.run([sys.executable, "-S", "-c", ALONE, str(tmp_path / "kit"), str(GOLDEN), json.dumps(taps)],
                         capture_output=True, text=True, timeout=120)  # -S: no installed package importable
    assert run.returncode == 0, run.stderr
    said = json.loads(run.stdout)
    assert said["seq"] == 45
    assert {"flask", "werkzeug", "sqlalchemy", "segno", "flask_babel"}.isdisjoint(said["loaded"])
    assert all(path.startswith(str(tmp_path / "kit")) for path in said["from"].values())  # the kit's own libraries
    refused = [a["refusal"] for a in said["answers"]]
    assert [a["recorded"] for a in said["answers"]] == [False, False]
    assert refused[0]["code"] == "unknown_player" and refused[0]["message"] == "no player named 'Nobody' at this table"
    assert refused[0]["clause"].startswith("JMA 補足ルール「基本的な駒の進め方」")  # the clause in its original words
    assert refused[1]["code"] == "impossible_die"
    assert 'id="tablelive"' in said["region"] and "<h2>記録</h2>" in said["region"]  # drawn in Japanese, from the kit alone
    # drawn from the templates the server compiled (imported), not compiled again on the tablet
    assert said["templates"] == {name: str(tmp_path / "kit" / "templates-compiled" / jinja2.ModuleLoader.get_module_filename(name))
                                 for name in said["templates"]}


def test_only_pyodides_own_files_are_served_and_the_wasm_compressed_for_a_device_that_reads_gzip(client):
    from referee.web.offline import PYODIDE_VERSION

    base = f"/offline/pyodide/{PYODIDE_VERSION}"
    assert client.get(f"{base}/package.json").status_code == 404
    assert client.get(f"{base}/..%2F..%2Fpyodide.toml").status_code == 404
    assert client.get("/offline/pyodide/0.0.1/pyodide.mjs").status_code == 404
    wasm = client.get(f"{base}/pyodide.asm.wasm", headers={"Accept-Encoding": "gzip"})
    assert wasm.status_code == 200 and wasm.mimetype == "application/wasm"
    assert wasm.headers["Content-Encoding"] == "gzip" and "immutable" in wasm.headers["Cache-Control"]
    plain = client.get(f"{base}/pyodide.asm.wasm", headers={"Accept-Encoding": "identity"})
    assert "Content-Encoding" not in plain.headers and plain.data[:4] == b"\0asm"
    assert len(wasm.data) < len(plain.data) / 2


def test_the_service_worker_may_keep_every_page_and_a_table_screen_names_what_it_keeps(client):
    worker = client.get("/offline/sw.js")
    assert worker.status_code == 200 and worker.mimetype == "text/javascript"
    assert worker.headers["Service-Worker-Allowed"] == "/" and worker.headers["Cache-Control"] == "no-cache"
    game_id = new_game(client)
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    keep = re.search(r'data-keep="([^"]+)"', page).group(1).split()
    assert f"/games/{game_id}" in keep and f"/games/{game_id}/record.jsonl" in keep and "/offline/kit.zip" in keep
    assert sum("/offline/pyodide/" in address for address in keep) == 5
    assert all(client.get(address).status_code == 200 for address in keep)
