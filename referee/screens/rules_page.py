"""The rules page: a ruleset's options and clauses by their names, option values in words, notes and clause texts in
the device's language and the original's, the clauses a search finds, a tournament stage in words."""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass, fields
from typing import Any

from ..engine import GameOver, GameState, RollOff, Ruleset
from ..language import current, current_language, gettext as _, Language, speaking
from .decisions.base import pending_as
from .sources import original_language, reading_language, source_words
from .words import in_language, per_language, separator


@per_language
def _clause_labels() -> dict[str, str]:
    return {
        # options
        "seating_order": _("Order of play"), "doubles_to_jail": _("Doubles in a row that send a player to jail"),
        "auction_on_decline": _("Auction when the player declines to buy"),
        "auction_min_bid": _("Lowest bid at an auction"), "auction_bid_step": _("Bid step at an auction"),
        "auction_tie": _("Equal calls at the same time"),
        "auction_own_raise": _("The high bidder raising their own bid"),
        "auction_unpayable_bid": _("A winning bid the winner cannot pay"), "auction_no_bid": _("An auction without a bid"),
        "monopoly_rent_multiplier": _("Rent on a whole colour group"),
        "mortgaged_lot_breaks_monopoly_doubling": _("A mortgaged lot cancels the doubled rent of its group"),
        "mortgaged_deeds_count_for_rent": _("Mortgaged deeds count for rent"),
        "income_tax": _("Income tax"), "income_tax_percent": _("Income tax as a share of assets"),
        "free_parking": _("Free Parking"), "pot_payments": _("Payments that go into the Free Parking pot"),
        "go_landing_bonus": _("More salary for landing exactly on GO"),
        "rent_while_in_jail": _("Rent collected while in jail"),
        "rent_claim_turns": _("Turns an owner has to claim rent"),
        "jail_mode": _("How a player leaves jail"), "short_payment": _("A payment the cash does not cover"),
        "bank_money": _("The bank's money"), "luxury_tax_amount": _("Luxury Tax"), "landing_on_own": _("Landing on one's own deed"),
        "mortgages_allowed": _("Mortgages"), "jailed_may_trade": _("Trades by a player in jail"),
        "jail_skip_turn": _("Skipping a turn instead of the jail fine"),
        "doubles_after_prepaid_release_roll_again": _("Doubles after paying or using a card to leave jail roll again"),
        "jail_max_rolls": _("Rolls for doubles in jail"),
        "jail_card_purchase_before_fine": _("Getting a jail card from another player before paying the fine"),
        "mortgage_interest_percent": _("Mortgage interest"),
        "mortgage_interest_rounding": _("Rounding of mortgage interest"),
        "mortgage_timing": _("When deeds may be mortgaged"),
        "transferred_mortgage_interest": _("Interest on a mortgaged deed received from a player"),
        "bankruptcy_to_bank_deeds": _("Deeds after a bankruptcy to the bank"),
        "pay_each_player_bankruptcy_to_bank": _("Bankrupted by the 'pay each player' card"),
        "bankrupt_estate": _("A bankrupt's deeds, when the creditor is a player"),
        "jail_exit_bankruptcy": _("Bankruptcy leaving jail after the third failed roll"),
        "houses_per_hotel": _("Houses per hotel"), "build_timing": _("When buildings may be built"),
        "hotel_breakdown": _("Selling a hotel as houses from the bank"),
        "hotel_sale_value": _("What the bank pays for a hotel"), "after_time_called": _("After time is called"),
        "end_after_bankruptcies": _("Bankruptcies that end the game"),
        "ending_bankruptcy_buildings": _("Buildings of the bankrupt player whose bankruptcy ends the game"),
        "asset_deed_percent": _("Deeds in the asset count"),
        "asset_mortgaged_deed_percent": _("Mortgaged deeds in the asset count"),
        "asset_building_percent": _("Buildings in the asset count"), "trade_timing": _("When trades may be made"),
        "trade_limits": _("Limits on trades"), "provisional_bankruptcy": _("Provisional bankruptcy and rescue"),
        "trades_before_first_go": _("Trades before anyone has passed GO"),
        "dealt_deeds": _("Deeds dealt to each player at the start"),
        "dealt_deeds_redeal_pairs": _("A dealt pair of one colour is dealt again"),
        "penalty_play_in_another_turn": _("Fine for playing in another player's turn"),
        "penalty_out_of_turn_move": _("Fine for a move out of turn"),
        "penalty_dice_off_table": _("Fine for dice leaving the table"),
        "houses_per_turn": _("Houses and hotels a player may build in a turn"),
        # clauses
        "seating": _("Seating"), "dice": _("Dice"), "doubles": _("Doubles"), "salary": _("Salary"),
        "purchase": _("Buying a deed"), "auction": _("Auction"), "rent": _("Rent"), "railroad_rent": _("Railroad rent"),
        "utility_rent": _("Utility rent"), "mortgaged_rent": _("No rent on a mortgaged lot"), "tax": _("Taxes"),
        "cards": _("Chance and Community Chest"), "jail": _("Jail"), "jail_release": _("Leaving jail"),
        "mortgage": _("Mortgage"), "unmortgage": _("Lifting a mortgage"), "debt": _("Debt"),
        "bankruptcy": _("Bankruptcy"), "between_turns": _("Between turns"), "correction": _("Correcting a mistake"),
        "game_end": _("End of the game"), "building": _("Building houses and hotels"),
        "building_shortage": _("Shortage of houses and hotels"), "selling_buildings": _("Selling buildings"),
        "hotel_sale": _("Selling a hotel"), "ranking": _("Ranking when time is called"), "trade": _("Trades"),
        "regulations": _("Tournament regulations"),
    }


def clause_label(key: str) -> str:
    """An option or clause of a ruleset by its name in the device's language (the key when none is known)."""
    return _clause_labels().get(key) or key.replace("_", " ")


@per_language
def _choice_words() -> dict[tuple[str, str], str]:
    return {
        ("seating_order", "by_roll"): _("by a roll of the dice, highest first"),
        ("seating_order", "highest_then_seat_order"): _("the highest roll starts, then seat order"),
        ("auction_tie", "next_to_move_first"): _("the caller nearest in turn order from the next player wins"),
        ("auction_tie", "refuse"): _("refused: the first call stands"),
        ("auction_unpayable_bid", "void_and_rerun_without_bidder"):
            _("void: the auction is run again without the winner"),
        ("auction_no_bid", "stays_with_bank"): _("the deed stays with the bank"),
        ("income_tax", "flat"): _("a flat amount"), ("income_tax", "choice"): _("a flat amount or a share of assets"),
        ("free_parking", "nothing"): _("nothing happens"),
        ("free_parking", "tax_pot"): _("a pot collects there for the player who lands"),
        ("pot_payments", "tax"): _("taxes"), ("pot_payments", "bail"): _("jail fines"),
        ("pot_payments", "card"): _("payments by card"),
        ("pot_payments", "penalty"): _("fines for a breach at the table"),
        ("bankrupt_estate", "to_creditor"): _("all to the creditor"),
        ("bankrupt_estate", "shared_among_survivors"):
            _("cash and cards to the creditor, the deeds shared evenly among the players left"),
        ("mortgage_interest_rounding", "up"): _("rounded up"), ("mortgage_interest_rounding", "down"): _("rounded down"),
        ("mortgage_timing", "between_turns_or_to_pay"): _("between turns, or to raise cash for a payment"),
        ("mortgage_timing", "any_time"): _("at any time"),
        ("transferred_mortgage_interest", "on_transfer"): _("10% at once on receiving it"),
        ("transferred_mortgage_interest", "on_unmortgage_only"): _("only when the mortgage is lifted"),
        ("bankruptcy_to_bank_deeds", "auction_in_board_order"): _("auctioned unmortgaged, in board order from GO"),
        ("bankruptcy_to_bank_deeds", "return_unowned"): _("back to the bank unowned, for sale again"),
        ("jail_exit_bankruptcy", "fine_and_rent_ahead"): _("as the JMA rules say (rescue covering fine and rent)"),
        ("jail_exit_bankruptcy", "to_bank"): _("a bankruptcy to the bank"),
        ("build_timing", "between_turns"): _("between turns"), ("build_timing", "any_time"): _("at any time"),
        ("build_timing", "before_own_roll"): _("only by the player whose turn it is, at its start, before the roll"),
        ("hotel_breakdown", "debtors_only"): _("only by a player in debt"),
        ("hotel_breakdown", "any_player"): _("by any player"),
        ("hotel_sale_value", "five_houses"): _("half of five house prices"),
        ("hotel_sale_value", "four_houses"): _("half of four house prices"),
        ("after_time_called", "at_once"): _("the game ends at once"),
        ("ending_bankruptcy_buildings", "sold_to_bank"): _("sold back to the bank at half price"),
        ("ending_bankruptcy_buildings", "pass_to_creditor"): _("passed whole to the creditor"),
        ("after_time_called", "one_more_roll"): _("one more roll, then the game ends"),
        ("after_time_called", "equal_turns"): _("play on until everyone has had as many turns"),
        ("trade_timing", "between_turns_or_debt"): _("between turns, or in debt negotiation"),
        ("trade_timing", "any_time"): _("at any time"),
        ("trade_timing", "own_turn"): _("in the turn of one of the two players"),
        ("trade_timing", "never"): _("never"),
        ("trade_timing", "before_own_roll"): _("only by the player whose turn it is, at its start, before the roll"),
        ("jail_mode", "doubles_or_fine"): _("by doubles, the fine or a card"),
        ("jail_mode", "sit_out"): _("after turns sat out"),
        ("short_payment", "debt"): _("a debt: raise it or go bankrupt"),
        ("short_payment", "all_cash_then_out"): _("all the cash is paid, and the player is out"),
        ("landing_on_own", "nothing"): _("nothing happens"),
        ("landing_on_own", "build_one_or_sell"): _("build one house, or sell it back to the bank"),
        ("trade_limits", "price_limits"): _("the JMA limits"), ("trade_limits", "none"): _("none"),
    }


_MONEY_OPTIONS = ("auction_min_bid", "auction_bid_step")
FINE_OPTIONS = ("penalty_play_in_another_turn", "penalty_out_of_turn_move", "penalty_dice_off_table")


_PERCENT_OPTIONS = ("income_tax_percent", "mortgage_interest_percent", "asset_deed_percent",
                    "asset_mortgaged_deed_percent", "asset_building_percent")


def _game_ruleset(ruleset: Ruleset | None) -> Ruleset:
    assert ruleset is not None, "an amount of money is named only in a game, with its ruleset's currency"
    return ruleset


def option_value_words(ruleset: Ruleset | None, key: str, value) -> str:
    """An option's value in words: yes / no, $10, 10%, a flat amount (``ruleset`` None where no game is: a
    tournament's regulations, which name no amount of money)."""
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, int):
        if key in _MONEY_OPTIONS:
            return _game_ruleset(ruleset).money_text(value)
        if key in FINE_OPTIONS:
            return _game_ruleset(ruleset).money_text(value) if value else _("none (a tournament may set one)")
        if key in _PERCENT_OPTIONS:
            return f"{value}%"
        if key == "monopoly_rent_multiplier":
            return _("%(n)s times", n=value)
        if key == "end_after_bankruptcies" and value == 0:
            return _("none: play goes on until one player is left")
        if key == "houses_per_turn":
            return _("no limit") if value == 0 else f"{value:,}"
        if key == "bank_money":
            return _("no limit") if value == 0 else _game_ruleset(ruleset).money_text(value)
        if key == "luxury_tax_amount":
            return _("the amount printed on the board") if value == 0 else _game_ruleset(ruleset).money_text(value)
        if key == "rent_claim_turns":
            return _("no limit: a claim traced back is paid") if value == 0 else _(
                "until the turn of the player %(n)s after the payer begins", n=value)
        return f"{value:,}"
    if isinstance(value, tuple):  # a list of choices
        return separator().join(option_value_words(ruleset, key, v) for v in value) or _("none")
    return _choice_words().get((key, value)) or str(value)


def clause_note(ruleset: Ruleset, clause) -> str:
    """A clause's note (the choice made where the texts are silent, and why) in the device's language: the
    translation kept beside the ruleset file (rulesets/notes/ID.LANG.toml) while it translates the note as it
    stands; else the note as written (a note changed since, or a tournament's override of the option)."""
    language = current()
    if not clause.note or language.code == "en":
        return clause.note
    english, translated = language.note(ruleset.id, clause.key)
    return translated if english == clause.note else clause.note


def ending_words(state: GameState) -> str:
    """How an ended game ended, for the final ranking's title: (time), (monopoly win), (at the 2nd bankruptcy)."""
    reason = pending_as(state, GameOver, RollOff).reason  # (a roll-off for places comes after the game has ended)
    if reason == "time":
        return _("(time)")
    if reason == "bank":
        return _("(the bank ran out of money)")
    if reason == "bankruptcies":
        return _("(ended at bankruptcy number %(n)s)", n=state.ruleset.options.end_after_bankruptcies)
    return _("(monopoly win)")


def time_call_words(ruleset: Ruleset, reminder: bool = False) -> str:
    """What calling time does under this ruleset (option after_time_called): the confirmation's words, or
    (``reminder``) the short words after "Time is up: call time"."""
    rule = ruleset.options.after_time_called
    if rule == "at_once":
        return (_("— the game then ends at once and is ranked.") if reminder else
                _("Call time: the game ends now and is ranked by assets; an auction or building in progress is void. "
                  "This cannot be taken back except by voiding it."))
    if rule == "equal_turns":
        return (_("— then play goes on until every player has had as many turns, and the game is ranked.") if reminder
                else _("Call time: negotiations, auctions and building in progress stop; play goes on until every "
                       "player has had as many turns, then the game is ranked. This cannot be taken back except by "
                       "voiding it."))
    return (_("— then the last roll is played and the game is ranked.") if reminder else
            _("Call time: negotiations, auctions and building in progress stop; the last roll is played and the game "
              "is ranked. This cannot be taken back except by voiding it."))


def house_rules_off(ruleset: Ruleset) -> str:
    """The ruleset's house rules switched off for this game, by name."""
    return separator().join(in_language(rule.name) for option, rule in ruleset.house_rules.items()
                             if rule.default_on and getattr(ruleset.options, option) == rule.off)


def variants_on(ruleset: Ruleset) -> str:
    """The ruleset's variants switched on for this game, by name."""
    return separator().join(in_language(rule.name) for option, rule in ruleset.house_rules.items()
                             if not rule.default_on and getattr(ruleset.options, option) == rule.on)


def stage_words(stage) -> str:
    """A tournament format's stage in words: its rounds, who plays them, how they sit, how they are ranked."""
    parts = [_("%(n)s rounds", n=stage.rounds) if stage.rounds and stage.rounds > 1 else
             _("1 round") if stage.rounds else _("as many rounds as the director seats")]
    parts.append({"everyone": _("every player still in"),
                  "top": _("the best %(n)s of the stage before", n=stage.count),
                  "table_winners": _("the winner of each table of the stage before")}[stage.entrants])
    parts.append({"draw": _("tables drawn for the fewest repeat opponents (of 4, of 5 where the numbers do not "
                            "divide)"),
                  "snake": _("tables seeded snake-wise from the standings"),
                  "ranked_boards": _("ranked boards: the best on board 1, the next on board 2…")}[stage.seating])
    parts.append({"stage": _("ranked by this stage's games alone"),
                  "carried": _("ranked by every game so far")}[stage.points])
    if stage.invited:
        parts.append(_("with the players invited to it (a previous champion), who take places among them"))
    if stage.order == "by_board":
        parts.append(_("places go board by board: the champion comes from board 1"))
    if len(set(stage.minutes)) == 1:
        parts.append(_("%(n)s minutes a round", n=stage.minutes[0]))
    elif stage.minutes:
        parts.append(_("minutes by round: %(minutes)s (the last for every later round)",
                       minutes=", ".join(map(str, stage.minutes))))
    return _("%(stage)s: %(how)s", stage=in_language(stage.name), how=("、" if current_language() == "ja" else "; ").join(parts))


@dataclass(frozen=True, slots=True)
class ClauseText:
    """A clause's words in one language: the original (the authority) or a translation of it."""

    lang: str
    text: str
    original: bool


def clause_texts(ruleset: Ruleset, clause) -> list[ClauseText]:
    """A clause's words to show: in the ruleset's source language first (what the rule says, the authority), then
    its translation into the device's language (English where the file has none in it), unless the device reads
    the original's own language."""
    own = original_language(ruleset, clause)
    out = [ClauseText(own, clause.text[own], True)] if own else []
    other = reading_language(clause)
    if other != own and other in clause.text:
        out.append(ClauseText(other, clause.text[other], False))
    return out


MAX_QUERY = 200  # characters of a search kept: a longer one is cut, never refused


@dataclass(frozen=True, slots=True)
class RulesPage:
    """The rules page of a ruleset: the search as kept, the clauses it finds (every clause for no search), in the
    ruleset's order, and the option values by name."""

    query: str
    clauses: list
    options: dict[str, Any]


def rules_page(ruleset: Ruleset, query: str, *, language: Language) -> RulesPage:
    """The clauses whose words (as ``language`` reads them, and in every language the ruleset gives) hold every word
    of ``query`` (cut to :data:`MAX_QUERY` characters), compared as the device's keyboard may type them: case, width
    and composed or decomposed letters aside."""
    with speaking(language):
        return _rules_page(ruleset, query)


def _rules_page(ruleset: Ruleset, query: str) -> RulesPage:
    query = query[:MAX_QUERY].strip()
    options = {f.name: getattr(ruleset.options, f.name) for f in fields(ruleset.options)}
    terms = _folded(query).split()
    clauses = list(ruleset.clauses.values())
    if terms:
        clauses = [c for c, words in ((c, searched_words(ruleset, c, options)) for c in clauses)
                   if all(term in words for term in terms)]
    return RulesPage(query, clauses, options)


def searched_words(ruleset: Ruleset, clause, options: dict[str, Any]) -> str:
    """What a search looks in for a clause, folded: its texts in every language the ruleset gives (the original and
    each translation), its name, value, note and source as the device reads them on the page, and its note and
    source as the ruleset writes them."""
    words = [*clause.text.values(), clause_label(clause.key), clause.note, clause_note(ruleset, clause), clause.source,
             source_words(clause.source)]
    if clause.key in options:
        words.append(option_value_words(ruleset, clause.key, options[clause.key]))
    house_rule = ruleset.house_rules.get(clause.key)
    if house_rule is not None:
        words.append(in_language(house_rule.name))
    return _folded("\n".join(words))


def _folded(text: str) -> str:
    """``text`` as a search compares it: compatibility-composed (full-width letters as plain ones, Hangul typed as
    jamo as its syllables) and case-folded (Straße as strasse)."""
    return unicodedata.normalize("NFKC", text).casefold()
