"""Chance and Community Chest: which cards can be drawn, and what each card does."""
from __future__ import annotations

from . import events as ev
from .entries import Entry
from .phrases import Card, Deck, Player
from .state import Debt, DrawCard, FineOrCard, GameState
from .step import Step


def drawable_cards(state: GameState, deck: str) -> tuple[str, ...]:
    """The deck's cards less the get-out-of-jail cards players hold (the whole deck when none is held)."""
    held = {c for p in state.players for c in p.jail_cards}
    cards = state.ruleset.decks[deck]
    return tuple(c for c in cards if c not in held) if held else tuple(cards)


def card_holder(state: GameState, card: str) -> int | None:
    """The player holding ``card`` (a get-out-of-jail card kept), or None: a card of the deck is drawable (by
    :func:`drawable_cards`) when no one holds it."""
    for i, pl in enumerate(state.players):
        if card in pl.jail_cards:
            return i
    return None


def _card(step: Step, entry: Entry) -> None:
    s = step.state
    p = step.expect(entry, DrawCard, "cards")
    who = step.expect_actor(entry, p.player, "cards")
    card_id = entry.card
    assert card_id is not None  # a field every card entry has (ENTRY_FIELDS)
    card = s.ruleset.cards.get(card_id)
    if card is None or card.deck != p.deck:
        raise step.refuse("unknown_card", "{card} is not a card of the {deck} deck", "cards", card=Card(card_id),
                          deck=Deck(p.deck))
    holder = card_holder(s, card_id)  # a card of the deck drawn (above): drawable unless it is held
    if holder is not None:
        raise step.refuse("card_held", "{card} is held by {player}, not in the deck", "cards", card=Card(card_id),
                          player=Player(holder))
    step.emit(ev.CardDrawn(who, card.id))  # the card awaited is drawn
    e = card.effect
    kind = e.kind
    if kind == "advance_to":
        assert e.square is not None  # the fields of each effect are there (CARD_EFFECTS)
        step.advance_to(who, e.square)
    elif kind == "advance_to_nearest":
        here = s.players[who].position
        n = len(s.ruleset.squares)
        target = next(
            (here + k) % n for k in range(1, n + 1) if s.ruleset.squares[(here + k) % n].kind == e.square_kind
        )
        step.advance_to(who, target, rent_multiplier=e.rent_multiplier, dice_multiplier=e.dice_multiplier)
    elif kind == "back_to":  # Disney edition: 'Go Back to Tarzan. Don't Pass Go. Don't Collect 200.'
        assert e.square is not None
        step.emit(ev.Moved(who, e.square))
        step.land(who)
    elif kind == "pay_or_draw":  # 003: 'Pay A 10 Fine Or Take A Show Time Card'
        assert e.deck is not None
        step.emit(ev.AwaitingDecision(FineOrCard(who, e.amount, e.deck)))
    elif kind == "move_back":
        step.emit(ev.Moved(who, (s.players[who].position - e.spaces) % len(s.ruleset.squares)))
        step.land(who)
    elif kind == "go_to_jail":
        step.emit(ev.Jailed(who))
    elif kind == "get_out_of_jail":
        step.emit(ev.JailCardKept(who, card.id))
    elif kind == "collect":
        step.bank_pays(who, e.amount, "card")
    elif kind == "pay":
        step.charge(who, step.bank_or_pot("card"), e.amount, "card")
    elif kind == "pay_each_player":
        others = [i for i in s.seats_from(who) if i != who]
        if s.players[who].cash >= e.amount * len(others):
            for o in others:
                step.emit(ev.Paid(who, o, e.amount, "card"))
        elif s.ruleset.options.pay_each_player_bankruptcy_to_bank:
            # one debt, paid to every player at once or to no one (bankruptcy to the bank)
            step.emit(ev.DebtQueued(Debt(who, None, e.amount * len(others), "card", True,
                                         tuple((o, e.amount) for o in others))))
        else:
            for o in others:
                step.charge(who, o, e.amount, "card")
    elif kind == "collect_from_each_player":
        for o in s.seats_from(who):
            if o != who:
                step.charge(o, who, e.amount, "card")
    elif kind == "repairs":
        cost = sum(s.houses_on(sq) * e.per_house + s.hotels_on(sq) * e.per_hotel for sq in s.deeds_of(who))
        step.charge(who, step.bank_or_pot("card"), cost, "card")


def _fine_or_card(step: Step, entry: Entry) -> None:
    """The card's choice: pay the fine (to the bank, or the pot where card payments feed one), or draw from the other
    deck."""
    p = step.expect(entry, FineOrCard, "cards")
    who = step.expect_actor(entry, p.player, "cards")
    if entry.choice == "draw":
        step.emit(ev.AwaitingDecision(DrawCard(who, p.deck)))
    elif entry.choice == "pay":
        step.emit(ev.AwaitingDecision(None))
        step.charge(who, step.bank_or_pot("card"), p.amount, "card")
    else:
        raise step.refuse("bad_choice", "{player} chooses to pay or to draw, not {choice}", "cards",
                          player=Player(who), choice=repr(entry.choice))


CARD_HANDLERS = {"card": _card, "fine_or_card": _fine_or_card}
