"""The table's Python that runs in the tablet's own browser (Pyodide: CPython compiled to WebAssembly), so that a
table screen goes on refereeing when the venue's network or the server fails: the table's record kept on the
tablet and folded by the project's engine, each tap checked by the same rules as on the server.

It imports the engine alone (no Flask, no database, no file): the app's offline kit (``/offline/kit.zip``,
:mod:`referee.web.offline`) carries the engine, this package and the rulesets' values as the server reads them."""
from .table import KeptTable, Tap

__all__ = ["KeptTable", "Tap"]
