"""The game over: the final ranking."""
from __future__ import annotations

from ...engine import GameOver
from ...language import gettext as _
from .base import Decision

DECISIONS = (Decision((GameOver,), lambda state: _("the game is over"), "table/decisions/game_over.html"),)
