"""The rules engine: pure Python, no Flask, SQL, clock, randomness or file I/O.

The game record is the truth; a state is the fold of its entries.

This module is the engine's face: code outside ``referee/engine/`` imports these names from ``referee.engine``
and nothing from its submodules (as ``import chess`` is python-chess's).  The names, by what they are for:

- a record and its fold: :class:`Game` (entries, states, outcomes), :class:`Header`, :func:`parse_record`,
  :func:`replay`, :func:`parse_header`, and the limits a record is held to;
- an entry: :class:`Entry`, :class:`Offer`, :func:`parse_entry`, :func:`text_problem`, and the numbers a form
  or an address carries, their length bounded before they are read (:func:`whole_field`, :func:`json_whole`);
- every whole number the app is given, by every layer (a form, an address, a JSON body, a record, an argument, a
  setting): :func:`whole_number`, refusing with :class:`NotWhole` (the field, the value, the limits);
- deciding: :func:`legal_actions` (what may be done now, each an :class:`Action`; :func:`ready_entry`, the entry
  that records one where nothing is left to choose, :func:`leads_to`, what it would bring about, and
  :func:`build_offers`, the concrete builds a build action offers),
  :func:`check` and :func:`resolve` (an entry's :class:`Outcome`: the state after it and its events),
  :func:`apply`;
- what the table waits for: the pending decisions (``state.pending``), one type each;
- what happened: the events of an outcome, one type each;
- the questions a screen or a simulator asks of a state (facts, offers, refusals, the ranking);
- refusals: :class:`RefereeError`, :class:`IllegalEntry`, :class:`MalformedEntry`, :class:`RecordError`,
  :class:`RulesetError`, each carrying a pattern and typed values, rendered in any language by :func:`render`;
- rulesets: :class:`Ruleset`, :func:`parse_ruleset`, :func:`with_options`, :func:`check_table`;
- the kinds of entry declared each in a module of their own (:mod:`.kinds`): :class:`EntryType`, :func:`register`,
  :func:`unregister`, :data:`KINDS`.
"""
from .building import (Change, bank_needs, even_layouts_below, even_targets, placeable, plan_change, sale_refusal,
                       smallest_sale)
from .declarations import bid_means, building_minimum_bid, demand, houses_for_declarations
from .ending import assets, ended, places, ranking, winner
from .entries import (ENTRY_FIELDS, MAX_NAME, Action, Entry, Offer, json_whole, parse_entry, run_key, text_problem,
                      whole_field)
from .errors import IllegalEntry, MalformedEntry, RefereeError, StaleEntry
from .events import (POT, AwaitingDecision, BidHeld, BidVoided, BuildingsChanged, CardDrawn, DebtQueued,
                     DeedTransferred, EstateShared, Event, JailCardReturned, Jailed, JailRollFailed, JailTurnSat,
                     Moved, Mortgaged, Paid, Released, RentWaived, SeatingOrdered, TimeCalled, TradeMade,
                     TransferInterestPaid, TurnBegan, Unmortgaged, WentBankrupt)
from .history import EntryFacts, History, TieCall, square_index, tie_call
from .facts import (card_first, card_for_sale, jail_exit_creditor, jail_exit_landing, jail_exit_short, next_to_move,
                    raisable_cash, tie_winner)
from .mortgages import mortgage_choices
from .numbers import LARGEST, NotWhole, whole_number
from .phrases import (Deck, EntryKind, Many, OptionName, OptionValue, Say, Sum, Waiting, amount_text, building_count,
                      clip, identity, level_text, named, render)
from .registry import KINDS, EntryType, Simulated, made_with, register, simulated, unregister
from .record import (MAX_AMOUNT, MAX_PLAYERS, MAX_RECORD_BYTES, MAX_TITLE, Game, Header, RecordError,
                     new_header, parse_header, parse_record, replay, side_line, stake_refusal)
from .rules import (Outcome, apply, build_offers, check, decision_kinds, leads_to, legal_actions, ready_entry,
                    resolve)
from .ruleset import CLAUSE_KEYS, OPTION_SPECS, OPTIONAL_CLAUSE_KEYS, Money, Ruleset, RulesetError
from .ruleset_files import check_table, parse_ruleset, with_options
from .state import (Auction, AwaitRoll, BidPayment, BuildingAuction, BuildRound, BuyOrAuction, DealDeeds, Debt,
                    DrawCard, FineOrCard, GameOver, GameState, IncomeTaxChoice, JailFine, OwnProperty, Pending,
                    PlaceBuilding, RentRoll, RollOff, SeatingRoll)
from .timing import build_time, Clock
from .trading import trade_context, trade_refusal
from .turn import deal_refusal

__all__ = [
    # a record and its fold
    "Game", "Header", "new_header", "parse_header", "side_line", "parse_record", "replay", "stake_refusal",
    # what each entry did, kept beside the game: its events, the log's facts, equal calls, the chart's points
    "EntryFacts", "History", "TieCall", "square_index", "tie_call",
    "MAX_AMOUNT", "MAX_NAME", "MAX_PLAYERS", "MAX_RECORD_BYTES", "MAX_TITLE",
    # the kinds of entry declared each in a module of their own
    "KINDS", "EntryType", "Simulated", "made_with", "register", "simulated", "unregister",
    # an entry
    "Action", "ENTRY_FIELDS", "Entry", "LARGEST", "Offer", "json_whole", "parse_entry", "run_key",
    "text_problem", "whole_field", "NotWhole", "whole_number",
    # deciding
    "Outcome", "apply", "build_offers", "check", "decision_kinds", "leads_to", "legal_actions", "ready_entry",
    "resolve",
    # what the table waits for
    "GameState", "Pending", "Auction", "AwaitRoll", "BidPayment", "BuildingAuction", "BuildRound", "BuyOrAuction", "DealDeeds",
    "Debt", "DrawCard", "FineOrCard", "GameOver", "IncomeTaxChoice", "JailFine", "OwnProperty", "PlaceBuilding",
    "RentRoll", "RollOff", "SeatingRoll",
    # what happened
    "Event", "POT", "AwaitingDecision", "BidHeld", "BidVoided", "BuildingsChanged", "CardDrawn", "DebtQueued",
    "DeedTransferred", "EstateShared", "JailCardReturned", "Jailed", "JailRollFailed", "JailTurnSat", "Moved",
    "Mortgaged", "Paid", "Released", "RentWaived", "SeatingOrdered", "TimeCalled", "TradeMade",
    "TransferInterestPaid", "TurnBegan", "Unmortgaged", "WentBankrupt",
    # questions asked of a state
    "assets", "bank_needs", "bid_means", "build_time", "Clock", "building_minimum_bid", "card_first", "card_for_sale",
    "Change", "deal_refusal", "demand", "even_layouts_below", "even_targets", "houses_for_declarations",
    "jail_exit_creditor", "jail_exit_landing", "jail_exit_short", "mortgage_choices", "next_to_move", "placeable",
    "plan_change", "raisable_cash", "ranking", "sale_refusal", "smallest_sale", "tie_winner", "trade_context",
    "trade_refusal", "ended", "places", "winner",
    # refusals and their words
    "IllegalEntry", "MalformedEntry", "RecordError", "RefereeError", "RulesetError", "StaleEntry",
    "Deck", "EntryKind", "Many", "OptionName", "OptionValue", "Say", "Sum", "Waiting", "amount_text", "building_count", "clip", "identity", "level_text", "named",
    "render",
    # rulesets
    "CLAUSE_KEYS", "Money", "OPTION_SPECS", "OPTIONAL_CLAUSE_KEYS", "Ruleset", "check_table", "parse_ruleset", "with_options",
]
