"""The table's Python that runs in the tablet's own browser (Pyodide: CPython compiled to WebAssembly), so that a
table screen goes on refereeing when the venue's network or the server fails: the table's record kept on the
tablet and folded by the project's engine, each tap checked by the same rules as on the server, the screen drawn
by the server's own screens and templates.

It imports the engine, the screens and their words (no Flask, no database): the app's offline kit
(``/offline/kit.zip``, :mod:`referee.web.offline`) carries them, this package, the table screen's templates and
libraries, the rulesets' values as the server reads them, the documents' words and the table's URL rules.

- :mod:`.table`: the kept record and its fold, a tap checked and recorded;
- :mod:`.screens`: the table screen drawn on the tablet, a form tapped on it read and answered;
- :mod:`.alone`: a game refereed on the tablet alone, with no server at all."""
from .screens import Addresses, kit_screens, KeptEntry, TabletScreens, TabletTable
from .table import KeptTable, Tap
from .alone import games_html, made_json, new_game, open_game

__all__ = ["Addresses", "games_html", "KeptEntry", "KeptTable", "kit_screens", "made_json", "new_game", "open_game",
           "Tap", "TabletScreens", "TabletTable"]
