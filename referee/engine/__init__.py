"""The rules engine: pure Python, no Flask, SQL, clock, randomness or file I/O.

The game record is the truth; a state is the fold of its entries.
"""
from .entries import Action, Entry, parse_entry
from .errors import IllegalEntry, MalformedEntry, RefereeError
from .record import Game, Header, RecordError, parse_record, replay
from .rules import Outcome, apply, check, legal_actions, resolve
from .ruleset import Ruleset, RulesetError
from .ruleset_files import parse_ruleset, with_options
from .state import GameState

__all__ = [
    "Action", "Entry", "Game", "GameState", "Header", "IllegalEntry", "MalformedEntry", "Outcome",
    "RecordError", "RefereeError", "Ruleset", "RulesetError", "apply", "check", "legal_actions",
    "parse_entry", "parse_record", "parse_ruleset", "replay", "resolve", "with_options",
]
