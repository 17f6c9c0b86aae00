"""A refusal in the device's language: a short title for every kind, and the detail (the clause follows), the
decision the table waits for said by its own screens module and each kind of entry by its noun."""
from __future__ import annotations

from typing import Any

from ..engine import clip, EntryKind, Many, OptionName, OptionValue, Waiting
from ..language import gettext as _
from . import kind
from .decisions import pending_words
from .rules_page import clause_label, option_value_words
from .words import per_language, refusal_text, separator


def _l(text: str) -> str:
    """A refusal's title as written (English), marked for the catalogues: put in the device's language where it is
    shown (:func:`title`)."""
    return text


# clip: a value as a message repeats it (cut when long, each unprintable character escaped), for the views' own
# messages that quote what was sent (a form's refusal, an address that names nothing)
__all__ = ["TITLES", "clip", "detail", "title"]

TITLES = {
    "after_roll": _l("Too late: the player has already rolled"),
    "bad_bid_step": _l("Not a valid bid amount"),
    "bad_dice": _l("Not two dice"),
    "bad_field": _l("A field of the entry is wrong"),
    "too_large": _l("A number beyond the limit"),
    "bad_level": _l("Too many buildings for one lot"),
    "bad_withdrawal": _l("Not a reduction of the declaration"),
    "bankrupt": _l("That player is bankrupt"),
    "below_building_price": _l("Below the building price"),
    "bid_too_low": _l("The bid must beat the highest bid"),
    "breakdown_beyond_need": _l("A hotel is broken into bank houses only as far as the debt needs"),
    "buildings_in_group": _l("The colour group has buildings"),
    "can_still_pay": _l("Not bankrupt: the debt can still be raised"),
    "cannot_afford": _l("Not enough cash"),
    "cannot_place": _l("A building cannot go there"),
    "card_first": _l("The get-out-of-jail card settles the fine first"),
    "card_held": _l("That card is held by a player"),
    "declaration_stands": _l("A declaration stands while the bank has enough"),
    "duplicate_bidder": _l("A player is named twice"),
    "excluded_bidder": _l("Out of this auction after an unpayable bid"),
    "excluded_builder": _l("Out of this round of declarations after an unpayable bid"),
    "game_over": _l("The game is over"),
    "hotel_breakdown": _l("A hotel cannot be broken into houses from the bank"),
    "house_shortage": _l("The bank has not enough houses"),
    "impossible_die": _l("Impossible die"),
    "jail_card_trade_only": _l("Before the fine, only a trade for a get-out-of-jail card"),
    "key_reused": _l("This screen's form was already used"),
    "last_lot_group": _l("That would leave no lot to build on"),
    "missing_field": _l("Something is missing from the entry"),
    "mortgaged_in_group": _l("A lot of the group is mortgaged"),
    "no_declaration": _l("No declaration to withdraw"),
    "no_jail_card": _l("No get-out-of-jail card"),
    "not_a_street": _l("Buildings go on streets only"),
    "not_an_engine_entry": _l("Not an entry of the rules"),
    "not_an_object": _l("Not an entry"),
    "not_between_turns": _l("Only between turns"),
    "not_in_bank": _l("The bank has not enough buildings"),
    "not_in_jail": _l("The player is not in jail"),
    "not_now": _l("Not now"),
    "not_owner": _l("Not the owner"),
    "not_own_turn": _l("Not in that player's own turn"),
    "too_many_this_turn": _l("Too many buildings for one turn"),
    "not_started": _l("The game has not started"),
    "not_the_creditor": _l("Not the creditor who may take over"),
    "not_waiting": _l("That player is not due to roll"),
    "not_whole_group": _l("The whole colour group is needed"),
    "nowhere_to_build": _l("No lot to build on"),
    "sign_off": _l("Not signed off"),
    "stale": _l("Another entry came first"),
    "tie_bid": _l("Equal calls are not allowed: record the first call"),
    "time_called": _l("Time has been called"),
    "uneven": _l("The even rule"),
    "unknown_card": _l("No such card in this deck"),
    "unknown_field": _l("Unknown field in the entry"),
    "unknown_player": _l("No such player"),
    "unknown_square": _l("No such square"),
    "unknown_type": _l("Unknown kind of entry"),
    "void_too_many": _l("Not that many entries to take back"),
    "wrong_direction": _l("A build cannot lower, a sale cannot raise"),
    "wrong_player": _l("Not that player's decision"),
}


REFUSED = _l("Refused")  # the title of a kind of refusal that has none of its own


def title(code: str) -> str:
    return _(TITLES.get(code) or kind.refusal_title(code) or REFUSED)


@per_language
def _entry_nouns() -> dict[str, str]:
    return {
        "seat_roll": _("a seating roll"), "deal": _("dealing deeds"), "roll": _("a roll of the dice"),
        "buy": _("a purchase"), "decline": _("declining to buy"), "bid": _("a bid"),
        "hammer": _("the hammer"), "income_tax": _("the choice of how to pay income tax"),
        "card": _("a card drawn"), "fine_or_card": _("the choice of a fine or a card"),
        "build_house": _("a house built on landing"),
        "sell_to_bank": _("a deed sold back to the bank"), "keep": _("leaving one's own deed as it is"),
        "rent_roll": _("the roll for the utility rent"), "pay_bail": _("paying the fine to leave jail"),
        "use_jail_card": _("using a get-out-of-jail card"),
        "skip_jail_turn": _("skipping a turn instead of the jail fine"),
        "bankrupt": _("a bankruptcy"),
        "build": _("a building declaration"), "withdraw_build": _("reducing a building declaration"),
        "close_builds": _("closing the building declarations"), "place_building": _("placing a building"),
        "rolloff": _("a roll-off roll"), "void": _("taking back entries"),
    }  # and each kind of .kinds (kind.noun)


def say(value: Any, state: Any) -> str | None:
    """The screens' words for a value a refusal names: the decision awaited (its own module's words), a kind of
    entry (its noun), a ruleset's option and a value of it (as the rules page names them; a tournament's regulations
    name no money option's value); None for the others (their own words)."""
    if isinstance(value, Waiting):
        return pending_words(state)
    if isinstance(value, EntryKind):
        return _entry_nouns().get(value.type) or kind.noun(value.type) or value.type
    if isinstance(value, OptionName):
        return clause_label(value.key)
    if isinstance(value, OptionValue):
        return option_value_words(state.ruleset if state is not None else None, value.key, value.value)
    if isinstance(value, Many) and value.items and all(isinstance(v, OptionName) for v in value.items):
        return separator().join(clause_label(v.key) for v in value.items)
    return None


def detail(exc) -> str:
    """What was wrong, in the device's language: the refusal's English pattern translated, each value filling it
    (a square, a colour group, money, buildings, a card, what the table waits for) said in that language."""
    return refusal_text(exc, say)
