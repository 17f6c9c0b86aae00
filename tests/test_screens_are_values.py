"""The screens are values made from values: nothing under referee/screens/ imports Flask or one of its extensions
(a screen needs no request: the same screens can be drawn where there is none), and the web's kept cards, which
draw templates, are the web's."""
import ast
from pathlib import Path

SCREENS = Path(__file__).resolve().parent.parent / "referee" / "screens"


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
