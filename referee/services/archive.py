"""The record files kept beside the database: each finished game's record, and the record of every game
deleted (no recorded fact is lost).  The folder is passed in (the app's ``RECORDS_DIR``, instance/records/), and
so is how a game's record file is written (``init_app``: services.games exports it, rulings and sign-offs and all;
the archive sits below the rulings and the sign-offs, which have a finished game's copy written again)."""
from __future__ import annotations

import logging
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from .errors import NotDeletable


@dataclass(frozen=True)
class RecordArchive:
    """Record files in ``folder`` (None: the app keeps none, and deleting a game is refused)."""

    folder: Path | None
    log: logging.Logger
    export: Callable[[int], str] | None = None  # a game's record file, as the app exports it

    def write(self, folder: Path, name: str, text: str) -> Path:
        """A record file, written whole or not at all: a temporary file of its own (two writers of the same game
        never share one), readable by its owner only, renamed over the file."""
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / name
        handle, partial = tempfile.mkstemp(dir=folder, prefix=f".{name}.", suffix=".partial")  # made 0600
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(text)
            os.replace(partial, path)
        except BaseException:
            Path(partial).unlink(missing_ok=True)
            raise
        return path

    def keep_finished(self, game_id: int, text: Callable[[], str]) -> None:
        """A game that has ended also goes to the folder as its record file, ``text()`` (asked for only when the
        app keeps a records folder; the entry is recorded in the database either way: a file that cannot be
        written is logged), written again whole when a ruling or a sign-off is added to it later."""
        if self.folder is None:
            return
        try:
            self.write(self.folder, f"game-{game_id}.jsonl", text())
        except OSError as exc:
            self.log.warning("could not write the record of game %s to %s: %s", game_id, self.folder, exc)

    def keep_finished_again(self, game_id: int) -> None:
        """A finished game's copy written again, whole, as the app exports it (a ruling or a sign-off was added
        after its end).  Called under the game's lock."""
        if self.export is not None:
            export = self.export
            self.keep_finished(game_id, lambda: export(game_id))

    def deleted_folder(self) -> Path:
        """Where the records of deleted games go; refused when the app keeps no records folder."""
        if self.folder is None:
            raise NotDeletable.of("no records folder is set (RECORDS_DIR): a game is deleted only once its record "
                                  "is kept there")
        return self.folder / "deleted"


EXPORT = "referee.record_export"


def init_app(app, export: Callable[[int], str]) -> None:
    """How the app writes a game's record file, for the copies kept here."""
    app.extensions[EXPORT] = export


def current() -> RecordArchive:
    """The archive of the app serving this request (its ``RECORDS_DIR``)."""
    from flask import current_app

    folder = current_app.config.get("RECORDS_DIR")
    return RecordArchive(Path(folder) if folder else None, current_app.logger, current_app.extensions.get(EXPORT))
