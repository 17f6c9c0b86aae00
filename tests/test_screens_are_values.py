"""The screens are values made from values: nothing under referee/screens/ imports Flask or one of its extensions
(a screen needs no request: the same screens can be drawn where there is none), and the web's kept cards, which
draw templates, are the web's."""
import ast
import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCREENS = ROOT / "referee" / "screens"


def imported(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
    return found


def test_no_screens_module_imports_flask_or_its_extensions():
    flask = {f"{path.relative_to(SCREENS)}: {name}" for path in sorted(SCREENS.rglob("*.py")) for name in imported(path)
             if name.split(".")[0] in {"flask", "flask_babel", "flask_wtf", "flask_sqlalchemy", "werkzeug"}}
    assert flask == set()


# the packages above the screens, and the web's half of the language (the device's language read from the request)
BELOW = {"services", "store", "web", "app", "reports", "cli", "sim", "language.i18n"}


def asked_above(screens: Path) -> set[str]:
    """The imports of the modules under ``screens`` that reach above the screens (a service, the store, the web, the
    request's language), as "module: imported"."""
    return {f"{path.relative_to(screens)}: {name}" for path in sorted(screens.rglob("*.py"))
            for name in imported_from_referee(path, screens)
            if name.split(".")[0] in BELOW or ".".join(name.split(".")[:2]) in BELOW}


def imported_from_referee(path: Path, screens: Path) -> set[str]:
    """The modules of referee the module ``path`` (under ``screens``) imports, named under referee
    (``services.rulesets``)."""
    package = ("screens",) + path.relative_to(screens).parent.parts
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = list(package[:len(package) - node.level + 1])
            module = base + [node.module] if node.module else base
            found |= ({".".join(module)} if node.module else set()) | {".".join(module + [alias.name])
                                                                      for alias in node.names if not node.module
                                                                      or ".".join(module + [alias.name]) in BELOW}
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("referee."):
            found.add(node.module.removeprefix("referee."))
        elif isinstance(node, ast.Import):
            found |= {a.name.removeprefix("referee.") for a in node.names if a.name.startswith("referee.")}
    return found


def test_no_screens_module_imports_a_service_the_store_or_the_requests_language():
    """The screens are handed what they show: a service's reading (the rulesets' notes, the sources' names) comes in
    with the language value (``services.rulesets.language``), never asked for from under referee/screens."""
    assert asked_above(SCREENS) == set()


def test_the_import_check_names_a_screen_that_asks_a_service_or_the_store(tmp_path):
    """The check above fails where a screen asks a service, as rules_page.py once did, or reads the store."""
    screens = tmp_path / "screens"
    (screens / "decisions").mkdir(parents=True)
    (screens / "notes_page.py").write_text("from ..services import rulesets\nfrom ..language import gettext, i18n\n"
                                           "from . import words\n", encoding="utf-8")
    (screens / "decisions" / "card.py").write_text("from ...store.db import db\n"
                                                    "from referee.store.models import GameRow\n"
                                                    "from ..words import money\n", encoding="utf-8")
    assert asked_above(screens) == {"notes_page.py: services", "notes_page.py: language.i18n",
                                   "decisions/card.py: store.db", "decisions/card.py: store.models"}


def test_the_screens_load_no_flask_nor_the_database_library():
    """Every screens module imported, and a table screen and the rules page computed, in a process of their own:
    neither Flask nor SQLAlchemy is ever loaded."""
    code = textwrap.dedent("""
        import importlib, pkgutil, sys
        import referee.screens
        for module in pkgutil.walk_packages(referee.screens.__path__, "referee.screens."):
            importlib.import_module(module.name)
        from referee.engine import Game, Header
        from referee.services import rulesets
        from referee.screens.table import table_screen
        from referee.screens.rules_page import rules_page
        jma = rulesets.load("jma-2006")
        table_screen(Game(jma, Header(jma.id, ("Aki", "Ben"), seating="fixed")), language=rulesets.language("ko"))
        rules_page(jma, "", language=rulesets.language("de"))
        print(sorted(m for m in sys.modules if m.split(".")[0] in ("flask", "flask_babel", "werkzeug", "sqlalchemy")))
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
